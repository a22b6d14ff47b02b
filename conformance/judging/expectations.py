"""A port's expected-failures file: strict xfail with reasons (PROTO-21, PROTO-22).

Format: a YAML list of `{id, reason, link?}`. Every id must name a case of the suite and every
entry needs a reason; mistakes are reported as `path:line: message`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import yaml

from conformance.common import yaml_loader
from conformance.common.yaml_errors import invalid_yaml_message

_KEYS = {"id", "reason", "link"}
#: The reason `hrc run --update-expected-failures` writes; the loader refuses it until a human
#: replaces it with why the case fails (PROTO-45).
PLACEHOLDER = "TODO: say why this case is expected to fail"


class ExpectationsError(ValueError):
    """The expected-failures file is malformed; the message starts with `path:line:`."""


@dataclass(frozen=True)
class ExpectedFailure:
    id: str
    reason: str
    link: str | None
    line: int


def load(
    path: Path, known_ids: Iterable[str], allow_placeholder: bool = False
) -> dict[str, ExpectedFailure]:
    """Parse `path`; `known_ids` is every case id of the suite (not only the selected ones).

    A reason equal to PLACEHOLDER is an error unless `allow_placeholder` (PROTO-45)."""
    known = set(known_ids)
    where = str(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ExpectationsError(f"{where}:1: cannot read: {exc}") from exc
    try:
        root = yaml_loader.compose(text)
    except yaml.YAMLError as exc:
        raise ExpectationsError(invalid_yaml_message(where, exc)) from exc
    if root is None:
        return {}
    if not isinstance(root, yaml.SequenceNode):
        raise ExpectationsError(
            f"{where}:{root.start_mark.line + 1}: expected a list of {{id, reason, link?}}"
        )
    out: dict[str, ExpectedFailure] = {}
    for item in root.value:
        line = item.start_mark.line + 1
        if not isinstance(item, yaml.MappingNode):
            raise ExpectationsError(
                f"{where}:{line}: each entry is a mapping {{id, reason, link?}}"
            )
        fields: dict[str, str] = {}
        for key, value in item.value:
            name = key.value if isinstance(key, yaml.ScalarNode) else None
            key_line = key.start_mark.line + 1
            if name not in _KEYS:
                raise ExpectationsError(
                    f"{where}:{key_line}: unknown key {name!r} (allowed: id, reason, link)"
                )
            if name in fields:
                raise ExpectationsError(f"{where}:{key_line}: duplicate key {name!r}")
            if not isinstance(value, yaml.ScalarNode) or not str(value.value).strip():
                raise ExpectationsError(f"{where}:{key_line}: {name} must be a non-empty string")
            fields[name] = str(value.value).strip()
        if "id" not in fields:
            raise ExpectationsError(f"{where}:{line}: entry has no id")
        if "reason" not in fields:
            raise ExpectationsError(
                f"{where}:{line}: {fields['id']!r} has no reason (say why it is expected to fail)"
            )
        case_id = fields["id"]
        if fields["reason"] == PLACEHOLDER and not allow_placeholder:
            raise ExpectationsError(
                f"{where}:{line}: {case_id!r} still has the placeholder reason written by "
                "--update-expected-failures: write why the case is expected to fail"
            )
        if case_id not in known:
            raise ExpectationsError(f"{where}:{line}: {case_id!r} is not a case of this suite")
        if case_id in out:
            raise ExpectationsError(
                f"{where}:{line}: {case_id!r} is listed twice (first at line {out[case_id].line})"
            )
        out[case_id] = ExpectedFailure(case_id, fields["reason"], fields.get("link"), line)
    return out
