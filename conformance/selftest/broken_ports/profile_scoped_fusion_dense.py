"""Broken ports of seed 002's dense list in profile scoped-fusion (SCOPE-13..15,
spec/profiles/scoped-fusion.md), registered on import."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from conformance.selftest.broken_ports.patching import _mod, mutant, swap

# -- profile scoped-fusion: seed 002's dense list (SCOPE-13..15) -------------------------------


@mutant(
    "scoped-dense-ties-ascending",
    "SCOPE-15",
    "equal dense scores are ordered by id ascending instead of the seed's descending",
    seams=("reference.profiles.scoped_fusion.dense_hits.dense_hits",),
)
def _scoped_dense_ties_ascending() -> None:
    d = _mod("reference.profiles.scoped_fusion.dense_hits")

    def dense_hits(nodes: Any, words: Any, limit: int) -> list[Any]:
        hits = [
            d.DenseHit(n.id, n.activation + d.overlap(n.label, words) * 0.5,
                       d.overlap(n.label, words))
            for n in d.preselect(nodes, limit)
        ]
        hits.sort(key=lambda h: h.id)
        hits.sort(key=lambda h: h.score, reverse=True)
        return hits[:limit]

    swap(d, "dense_hits", dense_hits)


@mutant(
    "scoped-dense-preselect-ties-descending",
    "SCOPE-13",
    "the activation pre-selection breaks ties by id descending (SQL leaves them open)",
    seams=("reference.profiles.scoped_fusion.dense_hits.preselect",),
)
def _scoped_dense_preselect_desc() -> None:
    d = _mod("reference.profiles.scoped_fusion.dense_hits")

    def preselect(nodes: Sequence[Any], limit: int) -> list[Any]:
        active = [n for n in nodes if n.activation > 0.0]
        active.sort(key=lambda n: n.id, reverse=True)
        active.sort(key=lambda n: n.activation, reverse=True)
        return active[: 3 * limit]

    swap(d, "preselect", preselect)


@mutant(
    "scoped-dense-no-preselection",
    "SCOPE-13",
    "every active node is scored, not only the 3 x limit most activated",
    seams=("reference.profiles.scoped_fusion.dense_hits.preselect",),
)
def _scoped_dense_no_preselection() -> None:
    d = _mod("reference.profiles.scoped_fusion.dense_hits")

    def preselect(nodes: Sequence[Any], limit: int) -> list[Any]:
        return [n for n in nodes if n.activation > 0.0]

    swap(d, "preselect", preselect)


@mutant(
    "scoped-dense-words-lowercased",
    "SCOPE-14",
    "query words are lowercased like the label before the substring test",
    seams=("reference.profiles.scoped_fusion.dense_hits.overlap",),
)
def _scoped_dense_words_lowercased() -> None:
    d = _mod("reference.profiles.scoped_fusion.dense_hits")
    original = d.overlap

    def overlap(label: str, words: Sequence[str]) -> int:
        return int(original(label, [w.lower() for w in words]))

    swap(d, "overlap", overlap)


@mutant(
    "scoped-dense-distinct-words",
    "SCOPE-14",
    "a repeated query word counts once (overlap over the set of words)",
    seams=("reference.profiles.scoped_fusion.dense_hits.overlap",),
)
def _scoped_dense_distinct_words() -> None:
    d = _mod("reference.profiles.scoped_fusion.dense_hits")
    original = d.overlap

    def overlap(label: str, words: Sequence[str]) -> int:
        return int(original(label, list(dict.fromkeys(words))))

    swap(d, "overlap", overlap)


@mutant(
    "scoped-dense-zero-activation-kept",
    "SCOPE-13",
    "the pre-selection keeps activation 0 (>= 0 instead of the seed's > 0.0)",
    seams=("reference.profiles.scoped_fusion.dense_hits.preselect",),
)
def _scoped_dense_zero_activation_kept() -> None:
    d = _mod("reference.profiles.scoped_fusion.dense_hits")

    def preselect(nodes: Sequence[Any], limit: int) -> list[Any]:
        active = [n for n in nodes if n.activation >= 0.0]
        active.sort(key=lambda n: d.codepoint_key(n.id))
        active.sort(key=lambda n: n.activation, reverse=True)
        return active[: min(3 * limit, d.MAX_INTEGER)]

    swap(d, "preselect", preselect)


@mutant(
    "scoped-dense-whole-words",
    "SCOPE-14",
    "a query word counts only when it equals a whole word of the label, not as a substring",
    seams=("reference.profiles.scoped_fusion.dense_hits.overlap",),
)
def _scoped_dense_whole_words() -> None:
    d = _mod("reference.profiles.scoped_fusion.dense_hits")
    lowercase = _mod("reference.text").lowercase

    def overlap(label: str, words: Sequence[str]) -> int:
        tokens = lowercase(label).split()
        return sum(1 for word in words if word in tokens)

    swap(d, "overlap", overlap)


@mutant(
    "scoped-dense-label-raw",
    "SCOPE-14",
    "the label is not lowercased before the substring test (Slushy misses slushy)",
    seams=("reference.profiles.scoped_fusion.dense_hits.overlap",),
)
def _scoped_dense_label_raw() -> None:
    d = _mod("reference.profiles.scoped_fusion.dense_hits")

    def overlap(label: str, words: Sequence[str]) -> int:
        return sum(1 for word in words if word in label)

    swap(d, "overlap", overlap)
