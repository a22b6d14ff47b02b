"""Hypothesis strategies of `hrc properties`: the inputs a property draws."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

JSON = dict[str, Any]


# -- strategies --------------------------------------------------------------------------------

_IDS = ["a", "b", "c", "d", "e", "f", "g"]


_PATHS = ["a.md", "b.md", "B.md", "x.md", "\uff5e.md", "\U0001f600.md", "caf\u00e9.md"]


_TITLES = ["", "alpha", "beta", "Alpha"]


_WEIGHTS = [1, 1.0, 0.5, 2, 0, 0.1, 1.7, 3]


#: Weights a port without `rrf-weights` must accept (any other is `unsupported`, OP-2).
_DEFAULT_WEIGHTS = [1, 1.0]


@st.composite
def rrf_inputs(draw: st.DrawFn, weighted: bool = True) -> JSON:
    """2..6 overlapping lists with weights (only 1 unless `weighted`), repeated ids and
    conflicting fields; a k."""
    weights = _WEIGHTS if weighted else _DEFAULT_WEIGHTS
    lists = []
    for i in range(draw(st.integers(2, 6))):
        items = []
        for cid in draw(st.lists(st.sampled_from(_IDS), max_size=8)):
            item: JSON = {"id": cid, "path": draw(st.sampled_from(_PATHS))}
            title = draw(st.sampled_from(_TITLES))
            if title:
                item["title"] = title
            items.append(item)
        lists.append({"name": f"l{i}", "weight": draw(st.sampled_from(weights)), "items": items})
    return {"lists": lists, "k": draw(st.sampled_from([60, 1, 2, 7]))}


@st.composite
def rerank_inputs(draw: st.DrawFn) -> JSON:
    """A fused list, a head size and a misbehaving reranker (omits, invents, repeats)."""
    n = draw(st.integers(0, 8))
    fused = [
        {"id": f"d{i}", "path": f"p{i}.md", "score": draw(st.sampled_from([0.5, 0.25, 0.1, 1.0]))}
        for i in range(n)
    ]
    pool = [f"d{i}" for i in range(n)] + ["zz"]
    entries = draw(
        st.lists(
            st.fixed_dictionaries(
                {"id": st.sampled_from(pool), "score": st.sampled_from([0.9, 0.5, 0.5, 0.1, -1])}
            ),
            max_size=10,
        )
    )
    return {
        "fused": fused,
        "rerankTopN": draw(st.integers(1, 6)),
        "reranker": {"name": "prop", "results": entries},
    }


_WORDS = ["kubernetes", "kubernets", "setup", "guide", "the", "pasta", "cluster", "k8s", "ml"]


_EXTRAS = ["AND", "NOT", '"kube cluster"', "clust*", "über", "a"]


_CONTENTS = ["Kubernetes setup guide", "Pasta recipes", "kube clusters", "the guide to ML"]


@st.composite
def ladder_inputs(draw: st.DrawFn) -> JSON:
    """A bm25-mode search on scripted backends that answer nothing (hits come later)."""
    words = draw(st.lists(st.sampled_from(_WORDS + _EXTRAS), min_size=1, max_size=4))
    if not any(w in _WORDS or w.endswith("*") or w.startswith('"') for w in words):
        words.append(draw(st.sampled_from(_WORDS)))
    backends: JSON = {}
    if draw(st.booleans()):
        contents = draw(st.lists(st.sampled_from(_CONTENTS), max_size=3))
        backends["chunks"] = [
            {"id": f"c{i}", "path": f"c{i}.md", "content": text} for i, text in enumerate(contents)
        ]
    request = {
        "query": " ".join(words),
        "mode": "bm25",
        "candidateK": draw(st.sampled_from([1, 2, 60])),
    }
    return {
        "input": {"request": request, "backends": backends},
        "pick": draw(st.integers(0, 5)),
        "hits": draw(st.integers(1, 3)),
    }


_QUERIES = [
    "any tips?",
    "how many hotels did i book",
    "have I bought the tickets",
    "list some tips",
    "kubernetes setup",
    "what should I read",
]


_DOC_PATHS = [
    "memory/global/user-preference-a.md",
    "memory/global/b.md",
    "notes/user-fact-c.md",
    "docs/milestone-d.md",
    "notes/e.md",
    "Memory/Global/F.md",
]


_DOC_CONTENTS = [
    "I prefer tea",
    "[date: 2024-01-01] recap",
    "summary of tea tips",
    "plain words",
    "we bought a car",
    "packing checklist, overall",
]


_SCORES = [1 / 61, 1 / 62, 0.99, 1.0, 0.5, 1 / 63]


@st.composite
def intent_inputs(draw: st.DrawFn) -> JSON:
    count = draw(st.integers(1, 5))
    results = [
        {
            "id": f"r{i}",
            "path": draw(st.sampled_from(_DOC_PATHS)),
            "content": draw(st.sampled_from(_DOC_CONTENTS)),
            "score": draw(st.sampled_from(_SCORES)),
        }
        for i in range(count)
    ]
    return {"query": draw(st.sampled_from(_QUERIES)), "results": results}
