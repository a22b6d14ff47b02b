"""Mode resolution (spec/pipeline.md MODE-1..3)."""

from __future__ import annotations

import pytest

from reference.modes import resolve_mode


def test_auto_resolves_to_hybrid_with_an_embedder_without_fallback_flag() -> None:
    """MODE-1: auto becomes hybrid when an embedder exists."""
    assert resolve_mode("auto", True).effective == "hybrid"
    assert resolve_mode("auto", True).fell_back_to_bm25 is False


def test_auto_resolves_to_bm25_without_an_embedder_silently() -> None:
    """MODE-1: resolving auto to bm25 is not a fallback."""
    mode = resolve_mode("auto", False)
    assert (mode.effective, mode.fell_back_to_bm25) == ("bm25", False)


@pytest.mark.parametrize("requested", ["hybrid", "semantic"])
def test_hybrid_and_semantic_fall_back_to_bm25_without_an_embedder(requested: str) -> None:
    """MODE-2: the fallback is recorded."""
    mode = resolve_mode(requested, False)
    assert (mode.effective, mode.fell_back_to_bm25) == ("bm25", True)


@pytest.mark.parametrize("requested", ["hybrid", "semantic"])
def test_hybrid_and_semantic_are_kept_with_an_embedder(requested: str) -> None:
    """MODE-2: with an embedder the requested mode is used as is."""
    assert resolve_mode(requested, True).effective == requested


@pytest.mark.parametrize("has_embedder", [True, False])
def test_bm25_always_resolves_to_bm25(has_embedder: bool) -> None:
    """MODE-3."""
    mode = resolve_mode("bm25", has_embedder)
    assert (mode.effective, mode.fell_back_to_bm25) == ("bm25", False)


def test_which_legs_run_per_effective_mode() -> None:
    """MODE-4, MODE-5: bm25 and hybrid run BM25; semantic and hybrid run vectors."""
    assert (resolve_mode("bm25", True).runs_bm25, resolve_mode("bm25", True).runs_vector) == (
        True,
        False,
    )
    semantic = resolve_mode("semantic", True)
    assert (semantic.runs_bm25, semantic.runs_vector) == (False, True)
    hybrid = resolve_mode("hybrid", True)
    assert (hybrid.runs_bm25, hybrid.runs_vector) == (True, True)


def test_unknown_mode_is_rejected() -> None:
    """MODE-1..3 name the only modes; anything else is an error."""
    with pytest.raises(ValueError):
        resolve_mode("hybrid-rerank", True)


def test_auto_that_ran_hybrid_falls_back_on_a_vector_error() -> None:
    """MODE-1, MODE-6: resolution alone never flags auto, but a vector error after it does."""
    from reference.backends.scripted import scripted_backends_from_json
    from reference.pipeline import Backends, search

    scripted = scripted_backends_from_json(
        {
            "bm25": {"responses": {'"kubernetes"': [{"id": "c1", "path": "k.md"}]}},
            "embedder": True,
            "vector": {"error": "down"},
        }
    )
    backends = Backends(scripted.index, scripted.embedder, scripted.vectors, scripted.reranker)
    results, trace = search({"query": "kubernetes", "mode": "auto"}, backends)
    assert [r["id"] for r in results] == ["c1"]
    assert (trace["effectiveMode"], trace["fellBackToBM25"]) == ("hybrid", True)
    _, trace = search({"query": "kubernetes", "mode": "bm25"}, backends)
    assert (trace["vector"]["ran"], trace["fellBackToBM25"]) == (False, False)
    assert scripted.vectors.calls == 1
