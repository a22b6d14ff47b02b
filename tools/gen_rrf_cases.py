"""Write golden/rrf/generated-*.yaml from an independent oracle (spec/rrf.md).

The oracle below does not import `reference`: it scans the lists by brute force, forms each
emitted float by the RRF-7 rule written out by hand and orders with an explicit comparator;
fractions only choose the traps (exact ties whose floats may differ).
Run: `python tools/gen_rrf_cases.py` (deterministic).
"""

from __future__ import annotations

import functools
import itertools
import random
from fractions import Fraction
from pathlib import Path
from typing import Any

import yaml

from conformance.judging.capabilities import RRF_WEIGHTS, uses_rrf_weights

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "golden" / "rrf"

Item = dict[str, Any]
Lst = dict[str, Any]


def cp(s: str) -> list[int]:
    return [ord(c) for c in s]


def oracle(lists: list[Lst], k: int = 60) -> list[Item]:
    """Brute-force RRF: per-occurrence contributions (RRF-4), canonical float (RRF-7), order by
    that float, path, id (RRF-6, RRF-8, RRF-12), one-way fill (RRF-10, RRF-14), best-ranked
    path (RRF-13)."""
    if k <= 0:
        k = 60  # RRF-1
    ids: list[str] = []
    for lst in lists:
        if lst.get("weight", 1) == 0:
            continue
        for it in lst["items"]:
            if it["id"] not in ids:
                ids.append(it["id"])
    rows = []
    for cid in ids:
        hits = []  # (rank, weight, item) of every occurrence in positive-weight lists, in order
        for lst in lists:
            w = lst.get("weight", 1)
            if w == 0:
                continue
            for pos, it in enumerate(lst["items"]):
                if it["id"] == cid:
                    hits.append((pos, float(w), it))
        parts = [w / float(k + r + 1) for r, w, _ in hits]
        parts.sort(reverse=True)
        total = 0.0
        for p in parts:
            total = total + p
        merged: Item = {"id": cid}
        best = None
        for r, _, it in hits:
            v = it.get("path", "")
            if v and (best is None or (r, cp(v)) < (best[0], cp(best[1]))):
                best = (r, v)
        merged["path"] = best[1] if best else ""
        for field in ("title", "summary", "content"):
            value = ""
            for _, _, it in hits:  # first sighting seeds, later ones fill a blank
                if value == "":
                    value = it.get(field, "")
            merged[field] = value
        meta: dict[str, str] = {}
        for _, _, it in hits:
            for key, v in it.get("metadata", {}).items():
                if key not in meta or meta[key] == "":
                    meta[key] = v
        merged["metadata"] = meta
        merged["score"] = total
        rows.append(merged)

    def cmp(x: Item, y: Item) -> int:
        if x["score"] != y["score"]:
            return -1 if x["score"] > y["score"] else 1
        for key in ("path", "id"):
            a, b = cp(x[key]), cp(y[key])
            if a != b:
                return -1 if a < b else 1
        return 0

    rows.sort(key=functools.cmp_to_key(cmp))
    return rows


def naive_top(lists: list[Lst], k: int = 60) -> list[str]:
    """List-order float accumulation, for choosing inputs that a naive port gets wrong."""
    score: dict[str, float] = {}
    for lst in lists:
        for r, it in enumerate(lst["items"]):
            score[it["id"]] = score.get(it["id"], 0.0) + lst.get("weight", 1) / (k + r + 1)
    return sorted(score, key=lambda i: (-score[i], i))


def item(cid: str) -> Item:
    return {"id": cid, "path": f"{cid}.md"}


def trap_lists(placements: dict[str, list[int]], n: int) -> list[Lst]:
    """Lists named L1..Ln of length 1 + max rank; `placements[id][i]` = rank in list i."""
    lists = []
    for i in range(n):
        size = 1 + max(ranks[i] for ranks in placements.values())
        slots: list[Item | None] = [None] * size
        for cid, ranks in placements.items():
            slots[ranks[i]] = item(cid)
        items = [s if s is not None else item(f"f{i + 1}-{r}") for r, s in enumerate(slots)]
        lists.append({"name": f"L{i + 1}", "items": items})
    return lists


def perm_cases(
    group: str, why: str, lists: list[Lst], k: int, perms: list[tuple[int, ...]]
) -> list[Any]:
    expected = {"results": oracle(lists, k)}
    out = []
    for perm in perms:
        given = [lists[i] for i in perm]
        for p2 in itertools.permutations(given):
            assert oracle(list(p2), k) == expected["results"]
        label = "".join(str(i + 1) for i in perm)
        inp: dict[str, Any] = {"lists": given}
        if k != 60:
            inp["k"] = k
        out.append(
            {
                "id": f"rrf/{group}/order-{label}",
                "description": f"{why} Lists given in order {label}; same output in every order.",
                "clauses": ["RRF-6", "RRF-7", "RRF-8", "RRF-11"],
                "tags": ["float-trap", "permutation"],
                "input": inp,
                "expect": {"output": expected},
            }
        )
    return out


def random_cases(rng: random.Random, count: int) -> list[Any]:
    out = []
    pool = [f"d{i}" for i in range(12)]
    paths = ["a.md", "b.md", "b.md", "c/\u00e9.md", "\uff5e.md", "\U0001f600.md"]
    for n in range(count):
        lists = []
        for li in range(rng.randint(2, 5)):
            ids = rng.sample(pool, rng.randint(0, 7))
            if ids and rng.random() < 0.3:
                ids.insert(rng.randint(1, len(ids)), ids[0])  # a duplicate inside the list
            items = []
            for cid in ids:
                it: Item = {"id": cid, "path": paths[int(cid[1:]) % len(paths)]}
                if rng.random() < 0.4:
                    it["title"] = rng.choice(["", "Alpha", "alpha", "Beta"])
                if rng.random() < 0.3:
                    it["metadata"] = {"src": rng.choice(["", "x", "y"])}
                items.append(it)
            lst: Lst = {"name": f"L{li + 1}", "items": items}
            if rng.random() < 0.5:
                lst["weight"] = rng.choice([0, 0.5, 1, 2, 0.3, 1.7])
            lists.append(lst)
        k = rng.choice([60, 60, 1, 2, 10, 100])
        inp: dict[str, Any] = {"lists": lists}
        if k != 60:
            inp["k"] = k
        out.append(
            {
                "id": f"rrf/random/case-{n:02d}",
                "description": "Random overlapping weighted lists with duplicates (each occurrence "
                "counts); float order, canonical floats, one-way fill.",
                "clauses": [
                    "RRF-2", "RRF-3", "RRF-4", "RRF-6", "RRF-7", "RRF-8", "RRF-10", "RRF-14"
                ],
                "tags": ["random"],
                "input": inp,
                "expect": {"output": {"results": oracle(lists, k)}},
            }
        )
    return out


def find_weighted_trap() -> list[Lst]:
    """Three weighted lists where two ids tie exactly but naive sums depend on list order."""
    weights = [0.5, 2, 1]
    groups: dict[Fraction, list[tuple[int, ...]]] = {}
    for ranks in itertools.product(range(30), repeat=3):
        parts = (Fraction(w) / (61 + r) for w, r in zip(weights, ranks, strict=True))
        exact = sum(parts, Fraction(0))
        groups.setdefault(exact, []).append(ranks)
    for members in groups.values():
        for ra, rb in itertools.combinations(members, 2):
            if any(x == y for x, y in zip(ra, rb, strict=True)):
                continue
            lists = trap_lists({"a": list(ra), "b": list(rb)}, 3)
            for lst, w in zip(lists, weights, strict=True):
                lst["weight"] = w
            tops = {
                tuple(x for x in naive_top(list(p)) if x in ("a", "b"))
                for p in itertools.permutations(lists)
            }
            if len(tops) > 1:
                return lists
    raise SystemExit("no weighted trap found")


def find_four_list_trap() -> list[Lst]:
    """Four lists; b's ranks are a derangement of a's, and naive sums flip with list order."""
    for ra in itertools.combinations(range(12), 4):
        for rb in itertools.permutations(ra):
            if any(x == y for x, y in zip(ra, rb, strict=True)):
                continue
            lists = trap_lists({"a": list(ra), "b": list(rb)}, 4)
            tops = {
                tuple(x for x in naive_top(list(p)) if x in ("a", "b"))
                for p in itertools.permutations(lists)
            }
            if len(tops) > 1:
                return lists
    raise SystemExit("no four-list trap found")


class _NoAliases(yaml.SafeDumper):
    def ignore_aliases(self, data: Any) -> bool:
        return True


def with_requires(case: dict[str, Any]) -> dict[str, Any]:
    """List `rrf-weights` after `tags` when a list weight is not 1 (PROTO-27)."""
    if not uses_rrf_weights("rrf", case["input"]):
        return case
    out: dict[str, Any] = {}
    for key, value in case.items():
        out[key] = value
        if key == "tags":
            out["requires"] = [RRF_WEIGHTS]
    return out


def dump(name: str, description: str, cases: list[Any]) -> None:
    cases = [with_requires(case) for case in cases]
    doc = {"op": "rrf", "description": description, "cases": cases}
    text = yaml.dump(doc, Dumper=_NoAliases, sort_keys=False, allow_unicode=False, width=100)
    (OUT / name).write_text("# Generated by tools/gen_rrf_cases.py; do not edit by hand.\n" + text)


def main() -> None:
    rng = random.Random(20240601)
    all3 = list(itertools.permutations(range(3)))
    cases: list[Any] = []
    traps = [
        (
            "trap-0-6-1",
            "a.md ranks {0,6,1}, b.md {1,0,6}: exact tie, path decides.",
            trap_lists({"a": [0, 6, 1], "b": [1, 0, 6]}, 3),
        ),
        (
            "trap-1-24",
            "Exact tie 1/24 whose canonical floats differ: the larger float (b) comes first.",
            trap_lists({"a": [11, 11, 11], "b": [5, 5, 27]}, 3),
        ),
        (
            "trap-0-1-7",
            "Ranks {0,1,7} twice; naive sums flip with list order.",
            trap_lists({"b": [0, 1, 7], "a": [1, 7, 0]}, 3),
        ),
        (
            "trap-weighted",
            "Weights 0.5, 2, 1 with an exact tie; naive sums flip.",
            find_weighted_trap(),
        ),
    ]
    for group, why, lists in traps:
        cases += perm_cases(group, why, lists, 60, all3)
    four = find_four_list_trap()
    perms4 = rng.sample(list(itertools.permutations(range(4))), 8)
    why4 = "Four lists, a and b tie exactly; sampled list orders."
    cases += perm_cases("trap-four-lists", why4, four, 60, perms4)
    dump(
        "generated-permutations.yaml",
        "Float-summation traps in many list orders. Generated by tools/gen_rrf_cases.py; "
        "expected outputs come from the script's independent brute-force oracle, "
        "never from reference/rrf.py.",
        cases,
    )
    dump(
        "generated-random.yaml",
        "Random overlapping lists. Generated by tools/gen_rrf_cases.py; expected outputs "
        "come from the script's independent brute-force oracle, never from "
        "reference/rrf.py.",
        random_cases(rng, 20),
    )


if __name__ == "__main__":
    main()
