"""Optional cross-encoder reranker (non-conformance; not pinned by spec/backends.md).

Needs the `sentence-transformers` package and a model that is already installed locally:
nothing is downloaded at run time. Scores are model outputs and are not portable.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from reference.backends.protocols import RerankEntry
from reference.types import Candidate, IndexError_

EXTRA = "sentence-transformers"


class CrossEncoderUnavailable(IndexError_):
    """The optional dependency is missing or the model cannot be loaded locally."""


class CrossEncoderReranker:
    """Reranker protocol over `sentence_transformers.CrossEncoder`, loaded lazily, offline."""

    def __init__(self, model: str, *, max_chars: int = 1200) -> None:
        self.name = f"cross-encoder:{model}"
        self._model_name = model
        self._max_chars = max_chars
        self._model: Any = None

    def _load(self) -> Any:
        if self._model is not None:
            return self._model
        try:
            from sentence_transformers import CrossEncoder  # type: ignore[import-not-found]
        except ImportError as exc:
            raise CrossEncoderUnavailable(
                f"CrossEncoderReranker needs the optional package {EXTRA!r}, which is not "
                f"installed; install it (and the model {self._model_name!r}) yourself, or use "
                "the reference reranker hrc-lexical-v1"
            ) from exc
        try:
            self._model = CrossEncoder(self._model_name, local_files_only=True)
        except Exception as exc:
            raise CrossEncoderUnavailable(
                f"cannot load cross-encoder model {self._model_name!r} from local files: {exc}"
            ) from exc
        return self._model

    def rerank(self, query: str, head: Sequence[Candidate]) -> list[RerankEntry]:
        model = self._load()
        pairs = [
            (query, "\n".join(p for p in (c.title, c.summary, c.content) if p)[: self._max_chars])
            for c in head
        ]
        scores = model.predict(pairs) if pairs else []
        return [RerankEntry(c.id, float(s)) for c, s in zip(head, scores, strict=True)]
