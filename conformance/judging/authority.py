"""Who decided each clause: the seed, the anchor, a system's code or the kit (spec/README.md
"Authority").

Every clause definition carries its authority right after its bold id (`- **RRF-2** [anchor]`,
`- **RRF-6** [kit, D1]`); `spec/authority.json` is the same map, machine-readable, and a test
keeps the two equal. The runner reads the index to name the authority beside clause ids, to
count results per authority and to select cases by authority (PROTO-23, PROTO-48).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from conformance.judging.clauses import defined_clauses
from conformance.judging.suite import kit_suite

INDEX_FILE = "authority.json"
SEEDS: tuple[str, ...] = tuple(f"seed:{n:03d}" for n in range(5))
#: A profile's second authority: its system's public code at a pinned commit (spec/profiles.md,
#: PROFILE-7). GenieHelper and nexusAI have no public code, so their profiles have none.
CODES: tuple[str, ...] = ("code:engram", "code:gbrain")
#: Every authority a clause may have, highest first: a seed, then the anchor (core) or the
#: system's code (a profile), then the kit.
AUTHORITIES: tuple[str, ...] = (*SEEDS, "anchor", *CODES, "kit")
#: The four families the run summary counts, in order of authority.
FAMILIES: tuple[str, ...] = ("seed", "anchor", "code", "kit")
SELECT_PREFIX = "authority:"
#: A definition line and the bracket right after its bold id, if any.
_TAGGED = re.compile(r"^[ \t]*-[ \t]+\*\*([A-Z]+-[0-9]+)\*\*(?:[ \t]+\[([^\]\n]*)\])?", re.M)
_DECISION = re.compile(r"[A-Z][0-9]+")


class AuthorityError(ValueError):
    """A clause without a valid authority tag, or an index that disagrees with the spec."""


@dataclass(frozen=True)
class Tag:
    """One clause's authority as written in the spec, with the kit decision it names."""

    clause: str
    authority: str
    decision: str | None
    file: str
    line: int


def family(authority: str) -> str:
    """`seed:002` -> `seed`, `code:gbrain` -> `code`; `anchor` and `kit` are their own family."""
    return authority.split(":", 1)[0]


def parse_tag(body: str) -> tuple[str, str | None]:
    """The text inside `[...]` -> (authority, decision id or None); raises ValueError."""
    parts = [p.strip() for p in body.split(",")]
    authority = parts[0]
    if authority not in AUTHORITIES:
        raise ValueError(f"unknown authority {authority!r} (one of {', '.join(AUTHORITIES)})")
    if len(parts) == 1:
        return authority, None
    if len(parts) == 2 and authority == "kit" and _DECISION.fullmatch(parts[1]):
        return authority, parts[1]
    raise ValueError(f"malformed authority tag [{body}]: `[AUTHORITY]` or `[kit, Dn]`")


def spec_tags(spec_dir: Path | None = None) -> dict[str, Tag]:
    """Every defined clause -> its tag, read from the spec text; a clause without a valid
    tag is an AuthorityError naming `file:line`."""
    defined = defined_clauses(spec_dir)
    base = spec_dir if spec_dir is not None else kit_suite().spec
    out: dict[str, Tag] = {}
    for name in sorted({c.file for c in defined.values()}):
        text = (base / name).read_text(encoding="utf-8")
        for match in _TAGGED.finditer(text):
            cid, body = match.group(1), match.group(2)
            line = text.count("\n", 0, match.start()) + 1
            if body is None:
                raise AuthorityError(f"{name}:{line}: clause {cid} has no authority tag "
                                     "(`- **ID** [seed:00N|anchor|code:NAME|kit]`)")
            try:
                authority, decision = parse_tag(body)
            except ValueError as exc:
                raise AuthorityError(f"{name}:{line}: clause {cid}: {exc}") from exc
            out[cid] = Tag(cid, authority, decision, name, line)
    missing = sorted(set(defined) - set(out))
    if missing:
        raise AuthorityError(f"clauses without a readable definition line: {', '.join(missing)}")
    return out


def read_index(path: Path) -> dict[str, str]:
    """`spec/authority.json`: clause id -> authority; raises AuthorityError when malformed."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise AuthorityError(f"{path}: cannot read the authority index: {exc}") from exc
    if not isinstance(data, dict):
        raise AuthorityError(f"{path}: the authority index must be a JSON object")
    for cid, authority in data.items():
        if authority not in AUTHORITIES:
            raise AuthorityError(f"{path}: {cid}: unknown authority {authority!r}")
    return {str(k): str(v) for k, v in data.items()}


def index_text(tags: Mapping[str, Tag]) -> str:
    """The exact text `spec/authority.json` must hold for these tags (keys sorted)."""
    return json.dumps({cid: tags[cid].authority for cid in sorted(tags)}, indent=1) + "\n"


@lru_cache(maxsize=8)
def _index_at(path: Path) -> Mapping[str, str]:
    return read_index(path) if path.is_file() else {}


def index_for(spec_dir: Path | None = None) -> Mapping[str, str]:
    """The authority index beside a spec (the kit's by default); empty when the spec has none
    (a fixture spec), so its cases simply carry no authority."""
    return _index_at((spec_dir if spec_dir is not None else kit_suite().spec) / INDEX_FILE)


def of_clauses(clauses: Iterable[str], index: Mapping[str, str]) -> set[str]:
    """The authorities of the clauses a case cites (clauses the index lacks add nothing)."""
    return {index[c] for c in clauses if c in index}


def check_selector(value: str) -> None:
    """`authority:VALUE` names a family, one seed or one system's code; raises ValueError
    otherwise."""
    known = FAMILIES + SEEDS + CODES
    if value not in known:
        raise ValueError(f"unknown authority {value!r} in --select "
                         f"'{SELECT_PREFIX}{value}' (one of {', '.join(known)})")


def selects(value: str, clauses: Iterable[str], index: Mapping[str, str]) -> bool:
    """A case is selected by `authority:VALUE` when one clause it cites has that authority
    (`seed` is any seed, `code` any system's code)."""
    found = of_clauses(clauses, index)
    return any(a == value or family(a) == value for a in found)


def tally(
    judged: Iterable[tuple[Iterable[str], bool]], index: Mapping[str, str]
) -> dict[str, dict[str, int]]:
    """Per authority, `{passed, total}` over judged cases, given as (cited clauses, passed).

    A case counts once under each family (`seed`, `anchor`, `code`, `kit`) and once under each
    seed and each system's code its cited clauses have, so one case can count under several
    (PROTO-48). `seed`, `anchor` and `kit` are always present; `code`, a seed or a system's
    code only when some case counts under it.
    """
    out: dict[str, dict[str, int]] = {name: {"passed": 0, "total": 0}
                                      for name in FAMILIES if name != "code"}
    for clauses, passed in judged:
        found = of_clauses(clauses, index)
        for name in {family(a) for a in found} | {a for a in found if a in SEEDS + CODES}:
            entry = out.setdefault(name, {"passed": 0, "total": 0})
            entry["total"] += 1
            entry["passed"] += passed
    order = {name: i for i, name in
             enumerate(("seed", *SEEDS, "anchor", "code", *CODES, "kit"))}
    return {name: out[name] for name in sorted(out, key=order.__getitem__)}


def summary_line(counts: Mapping[str, Mapping[str, int]]) -> str:
    """`authority: seed 412/412, anchor 1,020/1,033, code 80/80, kit 360/401` (families with
    a judged case only), or "" when no judged case cites a clause of the index."""
    parts = [f"{name} {counts[name]['passed']:,}/{counts[name]['total']:,}"
             for name in FAMILIES if counts.get(name, {}).get("total")]
    return f"authority: {', '.join(parts)}" if parts else ""
