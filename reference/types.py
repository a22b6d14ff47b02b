"""Value types shared by every stage: candidates, hits and errors (spec/operations.md)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Candidate:
    """A retrievable chunk as a leg returns it (spec/operations.md, `candidate`)."""

    id: str
    path: str
    title: str = ""
    summary: str = ""
    content: str = ""
    metadata: Mapping[str, str] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "path": self.path,
            "title": self.title,
            "summary": self.summary,
            "content": self.content,
            "metadata": dict(self.metadata),
        }


class InvalidInput(ValueError):
    """The input breaks a MUST of the spec (error kind `invalid_input`, OP-2)."""

    kind = "invalid_input"


class IndexError_(RuntimeError):
    """A backend failed (error kind `index_error`, OP-2)."""

    kind = "index_error"


#: OP-4: the largest integer any input accepts (Int32 collections; RRF-1's bound on k).
MAX_INTEGER = 2**31 - 1


def optional(obj: Mapping[str, Any], name: str, default: Any) -> Any:
    """OP-5: an optional field's value, `default` when it is missing or null."""
    value = obj.get(name)
    return default if value is None else value


def present(obj: Mapping[str, Any], name: str) -> bool:
    """OP-5: whether an optional field is given (a null field is not)."""
    return obj.get(name) is not None


def _valid_unicode(value: str) -> bool:
    """Strings in cases are valid Unicode (spec/operations.md): no lone surrogates."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def candidate_from_json(obj: Mapping[str, Any]) -> Candidate:
    """Build a Candidate from its JSON form, rejecting missing or non-string fields."""
    if not isinstance(obj, Mapping):
        raise InvalidInput(f"candidate must be an object, got {type(obj).__name__}")
    cid = obj.get("id")
    path = obj.get("path")
    if not isinstance(cid, str) or cid == "":
        raise InvalidInput(f"candidate id must be a non-empty string, got {cid!r}")
    if not isinstance(path, str):
        raise InvalidInput(f"candidate {cid!r}: path must be a string, got {path!r}")
    texts: dict[str, str] = {}
    for name in ("title", "summary", "content"):
        value = obj.get(name, "")
        if value is None:
            value = ""
        if not isinstance(value, str):
            raise InvalidInput(f"candidate {cid!r}: {name} must be a string")
        texts[name] = value
    for name, value in (("id", cid), ("path", path), *texts.items()):
        if not _valid_unicode(value):
            raise InvalidInput(f"candidate {cid!r}: {name} is not valid Unicode (lone surrogate)")
    meta = optional(obj, "metadata", {})
    if not isinstance(meta, Mapping) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in meta.items()
    ):
        raise InvalidInput(f"candidate {cid!r}: metadata must be an object of strings")
    if not all(_valid_unicode(k) and _valid_unicode(v) for k, v in meta.items()):
        raise InvalidInput(f"candidate {cid!r}: metadata is not valid Unicode (lone surrogate)")
    return Candidate(id=cid, path=path, metadata=dict(meta), **texts)


def whole_number(
    value: object, name: str, minimum: int = 1, maximum: int = MAX_INTEGER
) -> int:
    """OP-4: a JSON number with a whole value (3 and 3.0 alike) in [minimum, maximum]."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise InvalidInput(f"{name} must be an integer, got {value!r}")
    if isinstance(value, float) and not (math.isfinite(value) and value.is_integer()):
        raise InvalidInput(f"{name} must be a whole number, got {value!r}")
    if value < minimum:
        raise InvalidInput(f"{name} must be >= {minimum}, got {value!r}")
    if value > maximum:
        raise InvalidInput(f"{name} must be <= {maximum}, got {value!r}")
    return int(value)


def candidates_from_json(value: object, where: str, *, chunk: bool = False) -> list[Candidate]:
    """A JSON list of candidates (chunks must carry `content`); errors name the item."""
    if not isinstance(value, list):
        raise InvalidInput(f"{where} must be a list")
    out: list[Candidate] = []
    for i, item in enumerate(value):
        at = f"{where}[{i}]"
        if chunk and isinstance(item, Mapping) and not isinstance(item.get("content"), str):
            raise InvalidInput(f"{at}.content must be a string (a chunk needs its content)")
        try:
            out.append(candidate_from_json(item))
        except InvalidInput as exc:
            raise InvalidInput(f"{at}: {exc}") from exc
    return out
