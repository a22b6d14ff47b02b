"""Property tests of tail-preserving rerank (spec/rerank.md RERANK-3, RERANK-11)."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from reference.backends.protocols import RerankEntry
from reference.rerank import rerank_head
from reference.rrf import Fused
from reference.types import Candidate


def fused_list(n: int) -> list[Fused]:
    return [
        Fused(Candidate(id=f"c{i}", path=f"p{i}.md"), score=1.0 / (61 + i),
              exact=Fraction(1, 61 + i))
        for i in range(n)
    ]


@st.composite
def scenarios(draw: st.DrawFn) -> tuple[list[Fused], int, list[RerankEntry]]:
    n = draw(st.integers(min_value=0, max_value=30))
    top_n = draw(st.integers(min_value=1, max_value=35))
    ids = [f"c{i}" for i in range(n)] + ["ghost", "c999"]
    entries = draw(
        st.lists(
            st.builds(
                RerankEntry,
                st.sampled_from(ids),
                st.floats(min_value=-5, max_value=5, allow_nan=False, allow_infinity=False),
            ),
            max_size=40,
        )
    )
    return fused_list(n), top_n, entries


@settings(max_examples=500, deadline=None)
@given(scenarios())
def test_tail_is_untouched_whatever_the_reranker_returns(
    case: tuple[list[Fused], int, list[RerankEntry]],
) -> None:
    """RERANK-3: items beyond rerankTopN keep their fused order and positions."""
    fused, top_n, entries = case
    out = rerank_head(fused, top_n, entries, None, "prop")
    assert [f.id for f in out.items[top_n:]] == [f.id for f in fused[top_n:]]


@settings(max_examples=500, deadline=None)
@given(scenarios())
def test_output_is_a_permutation_with_head_ids_in_head_positions(
    case: tuple[list[Fused], int, list[RerankEntry]],
) -> None:
    """RERANK-11: nothing lost, nothing duplicated, head ids stay in the head."""
    fused, top_n, entries = case
    out = rerank_head(fused, top_n, entries, None, "prop")
    got = [f.id for f in out.items]
    assert sorted(got) == sorted(f.id for f in fused)
    assert set(got[:top_n]) == {f.id for f in fused[:top_n]}
