"""Broken ports of `engram.search` (spec/profiles/engram.md ENGRAM-16..27): the mistakes a
porter of engram's pipeline makes, and the readings of engram's code the kit does not take."""

from __future__ import annotations

from types import ModuleType
from typing import Any

from conformance.selftest.broken_ports.patching import _mod, mutant, set_attr, set_entry, swap

JSON = dict[str, Any]


def _search() -> ModuleType:
    return _mod("reference.profiles.engram.search")


@mutant(
    "engram-search-lenient-input",
    "ENGRAM-16",
    "unknown input members ignored and a leg's repeated id kept once, as a forgiving port does",
    seams=("reference.profiles.engram.search._INPUT", "reference.profiles.engram.search._legs"),
)
def _lenient_input() -> None:
    s = _search()
    set_attr(s, "_INPUT", (*s._INPUT, "weights", "profiles"))
    original = s._legs

    def legs(raw: Any, docs: Any) -> Any:
        if isinstance(raw, dict):
            raw = {k: (list({h["id"]: h for h in v}.values()) if isinstance(v, list) else v)
                   for k, v in raw.items()}
        return original(raw, docs)

    swap(s, "_legs", legs)


@mutant(
    "engram-rrf-divide-once",
    "ENGRAM-17",
    "each RRF term w / (k + r + 1), one division, not engram's w * (1 / (k + r + 1))",
    seams=("reference.profiles.engram.search.fuse",),
)
def _divide_once() -> None:
    s = _search()

    def fuse(lists: Any, weights: Any, k: int) -> list[tuple[str, float]]:
        acc: dict[str, float] = {}
        for name in s.LEGS:
            for rank, item_id in enumerate(lists[name]):
                acc[item_id] = acc.get(item_id, 0.0) + weights[name] / float(k + rank + 1)
        return sorted(acc.items(), key=lambda kv: -kv[1])

    swap(s, "fuse", fuse)


@mutant(
    "engram-fused-ties-reversed",
    "ENGRAM-17",
    "equal fused scores in reverse order of first appearance (sorted ascending, then reversed)",
    seams=("reference.profiles.engram.search.fuse",),
)
def _ties_reversed() -> None:
    s = _search()
    original = s.fuse

    def fuse(lists: Any, weights: Any, k: int) -> list[tuple[str, float]]:
        got = original(lists, weights, k)
        return sorted(got, key=lambda kv: kv[1])[::-1]

    swap(s, "fuse", fuse)


@mutant(
    "engram-hopfield-weight-one",
    "ENGRAM-18",
    "the Hopfield list fused with weight 1.0 (the what row's), not engram's fixed 0.6",
    seams=("reference.profiles.engram.search.HOPFIELD_WEIGHT",),
)
def _hopfield_one() -> None:
    set_attr(_search(), "HOPFIELD_WEIGHT", 1.0)


@mutant(
    "engram-tail-kept",
    "ENGRAM-19",
    "the fused memories after the head appended to it (the core rerank's tail), not dropped",
    seams=("reference.profiles.engram.search.take_head",),
)
def _tail_kept() -> None:
    s = _search()
    swap(s, "take_head", lambda fused, n: list(fused))


@mutant(
    "engram-head-after-boost",
    "ENGRAM-19",
    "the head taken after boosting the whole fused list (the 2.x kit order), not from RRF",
    seams=(
        "reference.profiles.engram.search.take_head",
        "reference.profiles.engram.search.boost_items",
    ),
)
def _head_after_boost() -> None:
    s = _search()
    ops = _mod("reference.profiles.engram.ops")
    state: dict[str, Any] = {}

    def take_head(fused: Any, n: int) -> Any:
        state["n"] = n
        return list(fused)

    original = ops.boost_items

    def boost_items(query: str, opts: Any, items: Any) -> Any:
        wanted, records = original(query, opts, items)
        return wanted, records[: state.get("n", len(records))]

    swap(s, "take_head", take_head)
    set_attr(s, "boost_items", boost_items)


@mutant(
    "engram-search-no-boost",
    "ENGRAM-20",
    "the boosts left out of the search (only the RRF order reaches the cross-encoder)",
    seams=("reference.profiles.engram.search.boost_items",),
)
def _no_boost() -> None:
    s = _search()

    def boost_items(query: str, opts: Any, items: Any) -> Any:
        return [], [{"id": i, "score": sc, "dateMatch": False, "ageDays": None, "recency": 1.0,
                     "access": 1.0} for i, _, sc in items]

    set_attr(s, "boost_items", boost_items)


@mutant(
    "engram-ce-keeps-boosted-score",
    "ENGRAM-21",
    "ordered by the cross-encoder, but each result keeps its boosted score",
    seams=("reference.profiles.engram.search.rank",),
)
def _ce_keeps_boosted() -> None:
    s = _search()
    original = s.rank

    def rank(boosts: list[JSON], ce: Any) -> Any:
        got = original(boosts, ce)
        by_id = {r["id"]: r["score"] for r in boosts}
        return [(i, by_id[i]) for i, _ in got]

    swap(s, "rank", rank)


@mutant(
    "engram-ce-ties-by-rrf",
    "ENGRAM-21",
    "equal cross-encoder scores ordered by RRF order instead of the boosted order",
    seams=("reference.profiles.engram.search.boost_items", "reference.profiles.engram.search.rank"),
)
def _ce_ties_rrf() -> None:
    s = _search()
    original = s.rank
    ops = _mod("reference.profiles.engram.ops")
    state: dict[str, list[str]] = {}
    boost_items = ops.boost_items

    def capture(query: str, opts: Any, items: Any) -> Any:
        state["rrf"] = [i for i, _, _ in items]
        return boost_items(query, opts, items)

    def rank(boosts: list[JSON], ce: Any) -> Any:
        if ce is None:
            return original(boosts, ce)
        order = state.get("rrf", [r["id"] for r in boosts])
        return sorted(((i, ce[i]) for i in order), key=lambda kv: -kv[1])

    set_attr(s, "boost_items", capture)
    swap(s, "rank", rank)


@mutant(
    "engram-top-k-before-ce",
    "ENGRAM-22",
    "the head cut to topK before the cross-encoder, so it never sees the rest",
    seams=("reference.profiles.engram.OPERATIONS",),
)
def _top_k_first() -> None:
    s = _search()
    original = s.op_search

    def op_search(inp: JSON) -> JSON:
        top_k = inp.get("topK") or s.DEFAULT_TOP_K
        head = inp.get("rerankCandidates") or s.DEFAULT_HEAD
        return dict(original({**inp, "rerankCandidates": min(head, top_k)}))

    set_entry(_mod("reference.profiles.engram"), "OPERATIONS", "engram.search", op_search)


@mutant(
    "engram-noise-no-clamp",
    "ENGRAM-23",
    "score + deviate without engram's clamp at 0: negative logits stay negative",
    seams=("reference.profiles.engram.search.add_noise",),
)
def _no_clamp() -> None:
    s = _search()

    def add_noise(results: Any, noise: Any) -> Any:
        out = [(i, sc + noise.get(i, 0.0)) for i, sc in results]
        out.sort(key=lambda kv: -kv[1])
        return out

    swap(s, "add_noise", add_noise)


@mutant(
    "engram-noise-no-resort",
    "ENGRAM-23",
    "the deviates added but the list not re-sorted by the noisy score",
    seams=("reference.profiles.engram.search.add_noise",),
)
def _no_resort() -> None:
    s = _search()
    swap(s, "add_noise", lambda results, noise: [
        (i, s._clamp(sc + noise.get(i, 0.0))) for i, sc in results])


@mutant(
    "engram-threshold-before-noise",
    "ENGRAM-24",
    "the confidence threshold compares the score before the noise is added",
    seams=("reference.profiles.engram.search.add_noise", "reference.profiles.engram.search.gate"),
)
def _threshold_first() -> None:
    s = _search()
    gate, add_noise = s.gate, s.add_noise
    state: dict[str, Any] = {}

    def early_noise(results: Any, noise: Any) -> Any:
        state["before"] = dict(results)
        return add_noise(results, noise)

    def late_gate(results: Any, min_conf: float, ce_ran: bool) -> Any:
        before = state.get("before", {})
        applied = ce_ran and bool(results) and min_conf > 0
        if not applied:
            return gate(results, min_conf, ce_ran)
        keep = [(i, sc) for i, sc in results if before.get(i, sc) >= min_conf]
        return keep, [i for i, sc in results if before.get(i, sc) < min_conf], True

    swap(s, "add_noise", early_noise)
    swap(s, "gate", late_gate)


@mutant(
    "engram-threshold-without-ce",
    "ENGRAM-24",
    "the confidence threshold also gates the boosted RRF scores when no cross-encoder ran",
    seams=("reference.profiles.engram.search.gate",),
)
def _threshold_always() -> None:
    s = _search()
    gate = s.gate
    swap(s, "gate", lambda results, min_conf, ce_ran: gate(results, min_conf, True))


@mutant(
    "engram-threshold-strict",
    "ENGRAM-24",
    "a score equal to minConfidence is removed (<= instead of <)",
    seams=("reference.profiles.engram.search.gate",),
)
def _threshold_strict() -> None:
    s = _search()

    def gate(results: Any, min_conf: float, ce_ran: bool) -> Any:
        applied = ce_ran and bool(results) and min_conf > 0
        if not applied:
            return results, [], False
        return ([(i, sc) for i, sc in results if sc > min_conf],
                [i for i, sc in results if sc <= min_conf], True)

    swap(s, "gate", gate)


@mutant(
    "engram-trace-head-boosted-order",
    "ENGRAM-25",
    "trace.head lists the head in boosted order instead of the RRF order it was cut in",
    seams=("reference.profiles.engram.OPERATIONS",),
)
def _trace_head() -> None:
    s = _search()
    original = s.op_search

    def op_search(inp: JSON) -> JSON:
        out = original(inp)
        out["trace"]["head"] = [r["id"] for r in out["trace"]["boosts"]]
        return dict(out)

    set_entry(_mod("reference.profiles.engram"), "OPERATIONS", "engram.search", op_search)


@mutant(
    "engram-default-min-confidence-zero",
    "ENGRAM-26",
    "minConfidence defaults to 0 (no threshold) instead of engram's 0.60",
    seams=("reference.profiles.engram.search.DEFAULT_MIN_CONFIDENCE",),
)
def _min_conf_zero() -> None:
    set_attr(_search(), "DEFAULT_MIN_CONFIDENCE", 0.0)


@mutant(
    "engram-exact-match-factor",
    "ENGRAM-27",
    "engram's code's exact-match factor applied: content holding query words is boosted",
    seams=("reference.profiles.engram.OPERATIONS",),
)
def _exact_match() -> None:
    s = _search()
    original = s.op_search

    def op_search(inp: JSON) -> JSON:
        contents = {d["id"]: str(d.get("content") or "").lower() for d in inp.get("documents", [])
                    if isinstance(d, dict)}
        query = str(inp.get("query", ""))
        tokens = [t for t in query.lower().replace('"', " ").split() if len(t) > 2]
        phrases = [p.lower() for p in query.split('"')[1::2] if p.strip()]
        out = original(inp)
        rows = []
        for r in out["results"]:
            text = contents.get(r["id"], "")
            signal = 0.6 * sum(1 for p in phrases if p in text)
            signal += min(0.4, 0.08 * sum(1 for t in tokens[:8] if t in text))
            rows.append({**r, "score": r["score"] * (1.0 + min(1.0, signal) * 0.22)})
        out["results"] = sorted(rows, key=lambda r: -r["score"])
        return dict(out)

    set_entry(_mod("reference.profiles.engram"), "OPERATIONS", "engram.search", op_search)
