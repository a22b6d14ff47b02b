"""The temporal profile in the search pipeline (spec/profiles/temporal.md TEMPORAL-21): the
query is rewritten to its augmented form before stage 1, and the trace records the expansion."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from reference.profile_hooks import PipelineHooks, ProfileCall
from reference.profiles.temporal.expand import expand
from reference.types import InvalidInput

OPTIONS = frozenset({"questionDate"})


@dataclass(frozen=True)
class Options:
    """`request.profiles.temporal`: the anchor date, None when absent or null."""

    question_date: str | None


def parse_request(obj: Mapping[str, Any]) -> Options:
    """TEMPORAL-21: only `questionDate`, a string or null; anything else is invalid_input."""
    unknown = sorted(set(obj) - OPTIONS)
    if unknown:
        raise InvalidInput(f"request.profiles.temporal: unknown option {unknown[0]!r}")
    value = obj.get("questionDate")
    if value is not None and not isinstance(value, str):
        raise InvalidInput("request.profiles.temporal.questionDate must be a string or null")
    return Options(value)


def rewrite_query(call: ProfileCall, query: str) -> str:
    """TEMPORAL-21: search the augmented query; trace what temporal.expand gave."""
    options: Options = call.options
    expansion = expand(query, options.question_date)
    call.trace.update({"questionDate": options.question_date, **expansion.to_json()})
    return expansion.augmented_query


def fanout_base(call: ProfileCall, query: str) -> str:
    """FANOUT-15: with the BM25 fanout the augmented query is one first-pass query; the
    query itself is not rewritten. The trace is TEMPORAL-21's."""
    return rewrite_query(call, query)


PIPELINE = PipelineHooks(
    parse_request=parse_request, rewrite_query=rewrite_query, fanout_base=fanout_base
)
