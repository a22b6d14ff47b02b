"""The broken ports' registry and patching helpers, shared by every stage module."""

from __future__ import annotations

import builtins
import copy
import datetime
import importlib
import pkgutil
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from types import ModuleType
from typing import Any

#: The day a broken port that "reads the wall clock" sees: pinned, so that the gate's verdicts
#: and killer counts do not depend on the day it runs (a real clock would agree with a case's
#: `now` or `questionDate` on that case's day). No golden case uses this day.
WALL_CLOCK_DAY = datetime.date(2031, 7, 15)

#: Modules whose names a mutant may rebind (the reference and the reference adapter's handlers).
_PATCHABLE = ("reference", "conformance.adapters.ops")


@dataclass(frozen=True)
class Mutant:
    """One broken port: what is wrong, which clause it breaks, how to break the reference, and
    the reference names it rebinds (its seams: the reference's written second API)."""

    name: str
    clause: str
    description: str
    apply: Callable[[], None]
    seams: tuple[str, ...]


MUTANTS: dict[str, Mutant] = {}


Patch = Callable[[], None]


def mutant(
    name: str, clause: str, description: str, *, seams: Sequence[str]
) -> Callable[[Patch], Patch]:
    """Register the decorated function as the patch of mutant `name`; `seams` are the dotted
    names it rebinds (`reference.rrf.fuse`, `reference.ladder._Walk.step`), checked by
    `seam_problems` and on every `activate`."""

    def register(fn: Patch) -> Patch:
        if name in MUTANTS:
            raise RuntimeError(f"mutant {name!r} registered twice")
        MUTANTS[name] = Mutant(name, clause, description, fn, tuple(seams))
        return fn

    return register


# -- seams: what a mutant rebinds, recorded as it patches ---------------------------------------

_RECORDED: list[str] = []
_DRY: list[bool] = [False]


def _owner_name(owner: object) -> str:
    """The dotted name of a module or class (the only owners a mutant rebinds names on)."""
    if isinstance(owner, ModuleType):
        return owner.__name__
    if isinstance(owner, type):
        return f"{owner.__module__}.{owner.__qualname__}"
    raise TypeError(f"a mutant rebinds a name on {owner!r}, which is neither a module nor a class")


def _record(owner: str, name: str) -> None:
    qualified = f"{owner}.{name}"
    if qualified not in _RECORDED:
        _RECORDED.append(qualified)


@contextmanager
def recording(*, dry: bool) -> Iterator[list[str]]:
    """Collect the names the patches applied inside rebind; with `dry`, rebind nothing."""
    _RECORDED.clear()
    _DRY[0] = dry
    try:
        yield _RECORDED
    finally:
        _DRY[0] = False


def resolve(dotted: str) -> bool:
    """Whether a dotted seam name still names something: the longest importable module
    prefix, then attributes (a hook field of a profile's `PIPELINE` included); a builtin a
    module calls (`reference.fanout.len`) is shadowed on that module, so it names the builtin."""
    parts = dotted.split(".")
    for cut in range(len(parts) - 1, 0, -1):
        try:
            owner: object = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        if cut == len(parts) - 1 and hasattr(builtins, parts[-1]):
            return True
        for attr in parts[cut:]:
            if not hasattr(owner, attr):
                return False
            owner = getattr(owner, attr)
        return True
    return False


def seam_problems(chosen: Sequence[str] | None = None) -> list[str]:
    """One line per declared seam that names nothing any more (a renamed or removed reference
    function), and per mutant that declares none; the gate refuses to run with any."""
    load_reference()
    problems = []
    for name in chosen if chosen is not None else list(MUTANTS):
        m = MUTANTS[name]
        if not m.seams:
            problems.append(f"{name}: declares no seams")
        problems.extend(f"{name}: seam {s} names nothing" for s in m.seams if not resolve(s))
    return problems


# -- patching helpers --------------------------------------------------------------------------


def load_reference() -> None:
    """Import every reference module and every reference handler, so all bindings exist."""
    import reference
    from conformance.adapters.ops import registry

    for info in pkgutil.walk_packages(reference.__path__, "reference."):
        importlib.import_module(info.name)
    registry()


def swap(module: ModuleType, name: str, new: object) -> Any:
    """Replace `module.name` by `new` everywhere the reference bound that same object.

    Returns the original, for wrappers. Only for functions and classes: identity is what finds
    the other bindings (`from reference.text import normalise` in another module).
    """
    old = getattr(module, name)
    _record(module.__name__, name)
    if _DRY[0]:
        return old
    for mod in list(sys.modules.values()):
        if not isinstance(mod, ModuleType) or not mod.__name__.startswith(_PATCHABLE):
            continue
        for attr, value in list(vars(mod).items()):
            if value is old:
                setattr(mod, attr, new)
    return old


def set_attr(owner: object, name: str, new: object) -> Any:
    """Set one attribute (a method, a module global) and nothing else; returns the old value."""
    old = getattr(owner, name, None)
    _record(_owner_name(owner), name)
    if not _DRY[0]:
        setattr(owner, name, new)
    return old


def set_entry(module: ModuleType, table: str, key: str, new: object) -> Any:
    """Replace one entry of a module-level table (an `OPERATIONS` map, a resolver table): the
    seam is the table, `module.table`; returns the old entry."""
    entries = getattr(module, table)
    old = entries.get(key)
    _record(module.__name__, table)
    if not _DRY[0]:
        entries[key] = new
    return old


def set_hook(pipeline_module: ModuleType, hook: str, new: object) -> Any:
    """Replace one hook of the frozen `PIPELINE` record of a profile module (PIPE-11)."""
    hooks = pipeline_module.PIPELINE
    old = getattr(hooks, hook)
    _record(f"{pipeline_module.__name__}.PIPELINE", hook)
    if not _DRY[0]:
        object.__setattr__(hooks, hook, new)
    return old


def _clear_caches() -> None:
    """Drop cached tables built before the patch (they may hold compiled patterns), and the
    discovered profiles, which hold each profile's hooks as they were before the patch."""
    from reference import intent, profiles
    from reference.query import stopwords

    for cached in (intent.table, stopwords.stopword_set, profiles._discover):
        clear = getattr(cached, "cache_clear", None)
        if clear is not None:
            clear()


def activate(name: str) -> Mutant:
    """Load the reference, apply mutant `name` and return it; KeyError for an unknown name."""
    chosen = MUTANTS[name]
    load_reference()
    with recording(dry=False) as rebound:
        chosen.apply()
    if sorted(rebound) != sorted(chosen.seams):
        raise RuntimeError(
            f"mutant {name} rebinds {sorted(rebound)} but declares seams {sorted(chosen.seams)}"
        )
    _clear_caches()
    return chosen


def _mod(name: str) -> ModuleType:
    return importlib.import_module(name)


# Java's own \b (checked with Java 17): Unicode letters and digits are word characters, and so
# is a non-spacing mark after one (`did i` U+0307 has no boundary after the i).
_JAVA_WORD = "[\\w\u0300-\u036f\u20d0-\u20ff\ufe20-\ufe2f]"


def names() -> list[str]:
    """Every registered mutant name, in registration order."""
    return list(MUTANTS)


def _trace_member_always(member: str, value: Any) -> None:
    """Every search trace carries `member` (a copy of `value`) when the search left it out."""
    pipe = _mod("reference.pipeline")
    original = pipe.search

    def search(request: Any, backends: Any) -> Any:
        results, trace = original(request, backends)
        trace.setdefault(member, copy.deepcopy(value))
        return results, trace

    swap(pipe, "search", search)
