"""Properties checked through the adapter protocol, so they run against any port.

Hypothesis generates inputs, the adapter answers them (spec/adapter-protocol.md), and each
property checks a law the spec states without needing an expected output:

- `rrf-permutation`: the RRF ranking (order, ids, paths, every score bit) is identical for every
  order of 2..6 lists (RRF-11); the filled fields may follow list order (RRF-10);
- `rrf-total-order`: every emitted score is the canonical float recomputed here from ranks and
  weights (RRF-4, RRF-7) and the fused order is strictly increasing in (−score, path, id)
  (RRF-6, RRF-8, RRF-12);
- `rerank-tail`: items beyond rerankTopN come back untouched, the head is a permutation of
  itself (RERANK-3, RERANK-11);
- `ladder-prefix`: the rows are a subsequence of the canonical rung order and the walk stops at the
  first rung given hits (LADDER-2), checked metamorphically on scripted backends;
- `intent-compose`: each multiplier is the left-to-right product of its rules' multipliers from
  the default table (spec/data/intent-anchor.json), scores compose the same way, rules belong
  to detected families and the order follows the exact values (INTENT-6..9); permuting the
  input changes nothing but order.

A failing property is shrunk by Hypothesis and printed as a golden case ready to paste into
golden/: the input on which the port disagrees with the reference, with the reference's output
as the expectation (check it against the spec before committing), a placeholder id and a
placeholder description. `hrc properties` is the command line.
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conformance.adapters.adapter_process import AdapterFault, AdapterProcess
from conformance.common import errors
from conformance.judging.capabilities import RRF_WEIGHTS
from conformance.judging.compare import numbers_equal
from conformance.running import build_step
from conformance.running.property_inputs import (
    JSON,
    intent_inputs,
    ladder_inputs,
    rerank_inputs,
    rrf_inputs,
)
from reference.data import load_json

Answer = tuple[str, Any]  # ("result", output) or ("error", {kind, message})

RUNGS = (
    "initial",
    "strongest_term",
    "force-refresh",
    "refreshed_sanitised",
    "refreshed_strongest",
    "trigram_fuzzy",
)


class Violation(AssertionError):
    """A property does not hold; `inputs` are the (op, input) pairs that show it."""

    def __init__(self, message: str, inputs: Sequence[tuple[str, JSON]]) -> None:
        super().__init__(message)
        self.message = message
        self.inputs = list(inputs)


class PortClient:
    """One adapter process, one request at a time; restarted after a fault."""

    def __init__(self, argv: Sequence[str], timeout: float = 5.0) -> None:
        self.argv = list(argv)
        self.timeout = timeout
        self.operations: frozenset[str] = frozenset()
        #: the hello's capabilities: inputs needing one the port lacks are never sent (OP-2).
        self.capabilities: frozenset[str] = frozenset()
        self._proc: AdapterProcess | None = None
        self._seq = 0

    def _ensure(self) -> AdapterProcess:
        if self._proc is None or not self._proc.alive():
            if self._proc is not None:
                self._proc.kill()
            proc = AdapterProcess(self.argv)
            proc.start()
            try:
                hello = proc.handshake(30.0)
            except AdapterFault:
                proc.kill()
                raise
            self.operations = frozenset(hello.operations)
            self.capabilities = frozenset(hello.capabilities)
            self._proc = proc
        return self._proc

    def start(self) -> None:
        self._ensure()

    def call(self, op: str, input: JSON) -> Answer:
        """The port's answer; a crash, hang or protocol violation raises Violation."""
        proc = self._ensure()
        self._seq += 1
        try:
            reply = proc.request(self._seq, f"property/{op}", op, input, self.timeout)
        except AdapterFault as fault:
            proc.kill()
            self._proc = None
            raise Violation(f"adapter {fault.outcome}: {fault.message}", [(op, input)]) from fault
        if reply["type"] == "result":
            return "result", reply["output"]
        return "error", reply["error"]

    def close(self) -> None:
        if self._proc is not None:
            self._proc.close(1.0)
            self._proc = None


def reference_answer(op: str, input: JSON) -> Answer:
    """What the in-process reference answers, in the same JSON form as a port's answer."""
    from conformance.adapters.ops import registry
    from conformance.adapters.protocol import non_finite_at

    try:
        output = registry()[op](json.loads(json.dumps(input)))
    except Exception as exc:
        kind = getattr(exc, "kind", "internal_error")
        return "error", {"kind": str(kind), "message": str(exc)}
    where = non_finite_at(output)
    if where is not None:  # TEXT-11, as the reference adapter answers
        return "error", {"kind": "invalid_input", "message": f"non-finite number at {where}"}
    return "result", json.loads(json.dumps(output))


def _result(client: PortClient, op: str, input: JSON) -> Any:
    status, value = client.call(op, input)
    if status != "result":
        kind, message = value.get("kind"), value.get("message")
        raise Violation(f"{op} answered error {kind!r}: {message}", [(op, input)])
    return value


# -- the properties ----------------------------------------------------------------------------


def _ranking(output: JSON) -> list[tuple[Any, Any, Any]]:
    """RRF-11: what must not follow list order: order, ids, paths and score bits."""
    return [(r.get("id"), r.get("path"), r.get("score")) for r in output.get("results", [])]


def check_rrf_permutation(client: PortClient, example: JSON, order: Sequence[int]) -> None:
    """RRF-11: the same ranking for a permutation of the lists."""
    other = {**example, "lists": [example["lists"][i] for i in order]}
    first = _ranking(_result(client, "rrf", example))
    second = _ranking(_result(client, "rrf", other))
    if first != second:
        raise Violation(
            f"rrf output changed when the lists were permuted to {list(order)}",
            [("rrf", example), ("rrf", other)],
        )


def canonical_scores(example: JSON) -> dict[str, float]:
    """RRF-2, RRF-4, RRF-7 recomputed: w / (k + r + 1) for every occurrence, summed largest
    first from 0.0."""
    k = int(example.get("k", 60))
    if k <= 0:
        k = 60  # RRF-1
    parts: dict[str, list[float]] = {}
    for ranked in example["lists"]:
        weight = float(ranked.get("weight", 1))
        if weight == 0:
            continue
        for rank, item in enumerate(ranked["items"]):
            parts.setdefault(item["id"], []).append(weight / float(k + rank + 1))
    scores: dict[str, float] = {}
    for cid, values in parts.items():
        total = 0.0
        for value in sorted(values, reverse=True):
            total += value
        scores[cid] = total
    return scores


def check_rrf_total_order(client: PortClient, example: JSON) -> None:
    """RRF-6, RRF-7, RRF-8, RRF-12: canonical scores; results strictly increase in
    (−score, path, id)."""
    results = _result(client, "rrf", example)["results"]
    scores = canonical_scores(example)
    ids = [r["id"] for r in results]
    if sorted(ids) != sorted(scores):
        message = f"rrf returned ids {ids}, expected the set {sorted(scores)}"
        raise Violation(message, [("rrf", example)])
    for r in results:
        if r.get("score") != scores[r["id"]]:
            raise Violation(
                f"rrf score of {r['id']} is {r.get('score')!r}, expected {scores[r['id']]!r}",
                [("rrf", example)],
            )
    for before, after in itertools.pairwise(results):
        a = (-scores[before["id"]], before["path"], before["id"])
        b = (-scores[after["id"]], after["path"], after["id"])
        if not a < b:
            raise Violation(
                f"rrf order is not strict: {before['id']} ({before['path']}) before "
                f"{after['id']} ({after['path']})",
                [("rrf", example)],
            )


def check_rerank_tail(client: PortClient, example: JSON) -> None:
    """RERANK-3, RERANK-11: the tail is untouched and the head is a permutation of itself."""
    out = _result(client, "rerank", example)["results"]
    ids = [r["id"] for r in out]
    given_ids = [f["id"] for f in example["fused"]]
    n = min(example["rerankTopN"], len(given_ids))
    if sorted(ids[:n]) != sorted(given_ids[:n]) or len(ids) != len(given_ids):
        message = f"rerank head {ids[:n]} is not a permutation of {given_ids[:n]}"
        raise Violation(message, [("rerank", example)])
    if ids[n:] != given_ids[n:]:
        message = f"rerank tail {ids[n:]} differs from {given_ids[n:]}"
        raise Violation(message, [("rerank", example)])
    if any(r["rerankScore"] is not None for r in out[n:]):
        raise Violation("a tail item got a rerankScore", [("rerank", example)])


def check_ladder_prefix(client: PortClient, example: JSON) -> None:
    """LADDER-2, LADDER-3: rows are a subsequence of the canonical order that always holds
    `initial` and `force-refresh` once reached; hits on rung j end the walk at rung j."""
    base = example["input"]
    first = _result(client, "search", base)["trace"]["bm25"]
    rows = first["attempts"]
    names = [r["rung"] for r in rows]
    positions = [RUNGS.index(n) if n in RUNGS else -1 for n in names]
    if -1 in positions or positions != sorted(set(positions)):
        raise Violation(f"rows {names} are not a subsequence of the canonical order",
                        [("search", base)])
    if first["winningRung"] is None and not {"initial", "force-refresh"} <= set(names):
        raise Violation(f"no rung won but rows {names} lack initial or force-refresh",
                        [("search", base)])
    # LADDER-6: a repeated expression is searched again, so only its first row can win alone.
    seen: set[str] = set()
    searched = []
    for i, r in enumerate(rows):
        if r["searched"] and r["rung"] != "trigram_fuzzy" and r["expression"] not in seen:
            searched.append(i)
        if r["searched"]:
            seen.add(r["expression"])
    if not searched or any(r["hits"] for r in rows[:-1]):
        return
    j = searched[example["pick"] % len(searched)]
    hits = [{"id": f"h{i}", "path": f"h{i}.md"} for i in range(example["hits"])]
    scripted = {**base["backends"], "bm25": {"responses": {rows[j]["expression"]: hits}}}
    second_input = {**base, "backends": scripted}
    second = _result(client, "search", second_input)["trace"]["bm25"]
    kept = min(example["hits"], base["request"]["candidateK"])
    expected = [*rows[:j], {**rows[j], "hits": kept}]
    if second["attempts"] != expected or second["winningRung"] != rows[j]["rung"]:
        raise Violation(
            f"hits for rung {rows[j]['rung']} should end the walk there with {kept} hit(s); "
            f"got rows {[r['rung'] for r in second['attempts']]}, "
            f"winning {second['winningRung']!r}",
            [("search", second_input)],
        )


def _rule_table() -> dict[str, tuple[str, float, int]]:
    doc = load_json("intent-anchor.json")
    return {r["name"]: (r["family"], float(r["multiplier"]), i) for i, r in enumerate(doc["rules"])}


def _rules_behind(item: JSON, score: float, families: set[str],
                  table: dict[str, tuple[str, float, int]]) -> list[str] | None:
    """INTENT-10 lets a port leave `rules` out: the detected families' rules, in table order,
    whose left-to-right product gives the item's multiplier and score (none: unexplained)."""
    usable = sorted((n for n, r in table.items() if r[0] in families), key=lambda n: table[n][2])
    for size in range(len(usable) + 1):
        for names in itertools.combinations(usable, size):
            multiplier, new_score = 1.0, score
            for name in names:
                multiplier, new_score = multiplier * table[name][1], new_score * table[name][1]
            if numbers_equal(item["multiplier"], multiplier) and numbers_equal(item["score"],
                                                                                 new_score):
                return list(names)
    return None


def check_intent_compose(client: PortClient, example: JSON) -> None:
    """INTENT-6..INTENT-9: multipliers compose left to right in table order, exact order."""
    table = _rule_table()
    detected = _result(client, "intent_detect", {"query": example["query"]})
    families = {f for f, on in (("preference", detected["preference"]),
                                ("concrete-fact", detected["concreteFact"])) if on}
    out = _result(client, "intent_reweight", example)["results"]
    given_by_id = {r["id"]: (i, r["score"]) for i, r in enumerate(example["results"])}
    keys: list[tuple[Fraction, int]] = []
    for item in out:
        position, score = given_by_id[item["id"]]
        names = item["rules"] if "rules" in item else _rules_behind(item, score, families, table)
        if names is None:
            raise Violation(f"{item['id']}: no detected family's rules in table order give "
                            f"multiplier {item['multiplier']!r} and score {item['score']!r}",
                            [("intent_reweight", example)])
        order = [table[n][2] if n in table else -1 for n in names]
        if order != sorted(set(order)) or -1 in order:
            raise Violation(f"{item['id']}: rules {names} are not table rules in table order",
                            [("intent_reweight", example)])
        if any(table[n][0] not in families for n in names):
            raise Violation(f"{item['id']}: a rule of an undetected family applied: {names}",
                            [("intent_reweight", example)])
        multiplier, new_score, exact = 1.0, score, Fraction(score)
        for name in names:
            m = table[name][1]
            multiplier, new_score, exact = multiplier * m, new_score * m, exact * Fraction(m)
        if not numbers_equal(item["multiplier"], multiplier):
            raise Violation(f"{item['id']}: multiplier {item['multiplier']!r}, the product of "
                            f"{names} is {multiplier!r}", [("intent_reweight", example)])
        if not numbers_equal(item["score"], new_score):
            raise Violation(f"{item['id']}: score {item['score']!r}, expected {new_score!r}",
                            [("intent_reweight", example)])
        keys.append((-exact, position) if families else (Fraction(0), position))
    if keys != sorted(keys):
        raise Violation("intent_reweight order is not exact value desc, then fused position",
                        [("intent_reweight", example)])
    flipped = {**example, "results": list(reversed(example["results"]))}
    again = _result(client, "intent_reweight", flipped)["results"]
    canon = sorted(json.dumps(r, sort_keys=True) for r in out)
    if sorted(json.dumps(r, sort_keys=True) for r in again) != canon:
        raise Violation("reversing the input changed multipliers or scores",
                        [("intent_reweight", example), ("intent_reweight", flipped)])


@dataclass(frozen=True)
class Property:
    """A named law, the ops it needs, the clauses it checks, and how to check one example."""

    name: str
    ops: tuple[str, ...]
    clauses: tuple[str, ...]
    stage: str
    #: the inputs to draw, given the port's capabilities (never one it lacks, OP-2)
    strategy: Callable[[frozenset[str]], st.SearchStrategy[Any]]
    check: Callable[[PortClient, Any], None]


def _permutation_strategy(caps: frozenset[str]) -> st.SearchStrategy[tuple[JSON, list[int]]]:
    return _rrf_strategy(caps).flatmap(
        lambda ex: st.tuples(st.just(ex), st.permutations(list(range(len(ex["lists"])))))
    )


def _rrf_strategy(caps: frozenset[str]) -> st.SearchStrategy[JSON]:
    return rrf_inputs(weighted=RRF_WEIGHTS in caps)


PROPERTIES: dict[str, Property] = {
    p.name: p
    for p in (
        Property(
            "rrf-permutation", ("rrf",), ("RRF-11",), "rrf", _permutation_strategy,
            lambda c, ex: check_rrf_permutation(c, ex[0], ex[1]),
        ),
        Property(
            "rrf-total-order", ("rrf",), ("RRF-6", "RRF-7", "RRF-8"), "rrf", _rrf_strategy,
            check_rrf_total_order,
        ),
        Property(
            "rerank-tail", ("rerank",), ("RERANK-3", "RERANK-11"), "rerank",
            lambda _: rerank_inputs(), check_rerank_tail,
        ),
        Property(
            "ladder-prefix", ("search",), ("LADDER-2",), "ladder", lambda _: ladder_inputs(),
            check_ladder_prefix,
        ),
        Property(
            "intent-compose", ("intent_detect", "intent_reweight"),
            ("INTENT-7", "INTENT-9"), "intent", lambda _: intent_inputs(),
            check_intent_compose,
        ),
    )
}


# -- running and reporting ---------------------------------------------------------------------


@dataclass
class PropertyResult:
    """passed, failed or not_applicable; a failure carries its message and a YAML case."""

    name: str
    status: str
    message: str = ""
    case_yaml: str = ""
    inputs: list[tuple[str, JSON]] = field(default_factory=list)


def run_property(prop: Property, client: PortClient, examples: int) -> PropertyResult:
    missing = [op for op in prop.ops if op not in client.operations]
    if missing:
        return PropertyResult(prop.name, "not_applicable", f"adapter lacks {', '.join(missing)}")

    @settings(
        max_examples=examples,
        deadline=None,
        database=None,
        derandomize=True,
        suppress_health_check=list(HealthCheck),
    )
    @given(prop.strategy(client.capabilities))
    def holds(example: Any) -> None:
        prop.check(client, example)

    try:
        holds()
    except Violation as violation:
        case = counterexample_yaml(prop, violation, client)
        return PropertyResult(prop.name, "failed", violation.message, case, violation.inputs)
    return PropertyResult(prop.name, "passed")


def _disagree(port: Answer, ref: Answer) -> bool:
    """Different answers; two errors differ only by kind (messages are free text, OP-2)."""
    if port[0] != ref[0]:
        return True
    if port[0] == "error":
        return bool(port[1].get("kind") != ref[1].get("kind"))
    return bool(port[1] != ref[1])


def counterexample_yaml(prop: Property, violation: Violation, client: PortClient) -> str:
    """A golden case file: the first shown input where the port and the reference disagree."""
    chosen = violation.inputs[0]
    expected = reference_answer(*chosen)
    for op, input in violation.inputs:
        ref = reference_answer(op, input)
        try:
            port = client.call(op, input)
        except Violation:
            chosen, expected = (op, input), ref
            break
        if _disagree(port, ref):
            chosen, expected = (op, input), ref
            break
    op, input = chosen
    expect: JSON = (
        {"output": expected[1]} if expected[0] == "result" else {"error": expected[1]["kind"]}
    )
    document = {
        "op": op,
        "cases": [
            {
                "id": f"{prop.stage}/property/change-me",
                "description": f"CHANGE ME: why this case exists ({prop.name} failed: "
                f"{violation.message})".replace("\n", " "),
                "clauses": list(prop.clauses),
                "input": input,
                "expect": expect,
            }
        ],
    }
    header = (
        f"# Counterexample to property {prop.name} (shrunk by Hypothesis).\n"
        "# The expectation is the reference's output: check it against the spec, then set the\n"
        "# id and the description before adding this case to golden/.\n"
    )
    body = yaml.safe_dump(document, allow_unicode=True, sort_keys=False, width=100)
    return header + body


def run_properties(
    argv: Sequence[str], examples: int = 100, names: Sequence[str] | None = None
) -> list[PropertyResult]:
    client = PortClient(argv)
    try:
        client.start()
        return [run_property(PROPERTIES[n], client, examples) for n in (names or PROPERTIES)]
    finally:
        client.close()


# -- hrc properties ----------------------------------------------------------------------------


def register(subparsers: Any) -> None:
    """Add `hrc properties`."""
    p: argparse.ArgumentParser = subparsers.add_parser(
        "properties",
        help="check spec laws on generated inputs through the adapter protocol",
        description="Generate inputs with Hypothesis, send them to an adapter and check laws of "
        "the spec (RRF permutation invariance and total order, rerank tail, ladder prefix, "
        "intent composition). A failure prints a shrunk counterexample as a golden case. "
        "Exit 0 when every property holds, 1 when one fails, 2 on a usage error.",
    )
    p.add_argument("--adapter", metavar="CMD", help="adapter command line (default: the reference)")
    build_step.add_arguments(p)
    p.add_argument("--examples", type=int, default=100, metavar="N", help="per property (100)")
    p.add_argument(
        "--select", action="append", default=[], metavar="NAME", help="only these properties"
    )
    p.set_defaults(func=cmd_properties)


def cmd_properties(args: argparse.Namespace) -> int:
    from conformance.running.runner import AdapterCommandError, adapter_argv

    unknown = [n for n in args.select if n not in PROPERTIES]
    if unknown or args.examples < 1:
        what = f"unknown property {', '.join(unknown)}" if unknown else "--examples must be >= 1"
        return errors.emit("properties", f"{what} (known: {', '.join(PROPERTIES)})")
    try:
        argv = adapter_argv(args.adapter)
    except AdapterCommandError as exc:
        return errors.emit("properties", str(exc))
    build_step.prepare(args, argv, "properties", sys.stderr)  # before the handshake
    try:
        results = run_properties(argv, args.examples, args.select or None)
    except AdapterFault as fault:
        errors.emit("properties", f"cannot start the adapter: {fault.message}")
        return 1
    for result in results:
        line = f"{result.status:<15} {result.name}"
        if result.message:
            line += f": {result.message}"
        print(line)
        if result.case_yaml:
            print(result.case_yaml)
    failed = sum(1 for r in results if r.status == "failed")
    passed = sum(1 for r in results if r.status == "passed")
    print(f"hrc properties: {passed} passed, {failed} failed, {len(results) - passed - failed} "
          "not applicable")
    return 1 if failed else 0
