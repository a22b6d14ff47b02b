"""The broken ports' registry and patching helpers, shared by every stage module."""

from __future__ import annotations

import copy
import dataclasses
import datetime
import importlib
import pkgutil
import sys
from collections.abc import Callable
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
    """One broken port: what is wrong, which clause it breaks, and how to break the reference."""

    name: str
    clause: str
    description: str
    apply: Callable[[], None]


MUTANTS: dict[str, Mutant] = {}


Patch = Callable[[], None]


def mutant(name: str, clause: str, description: str) -> Callable[[Patch], Patch]:
    """Register the decorated function as the patch of mutant `name`."""

    def register(fn: Patch) -> Patch:
        if name in MUTANTS:
            raise RuntimeError(f"mutant {name!r} registered twice")
        MUTANTS[name] = Mutant(name, clause, description, fn)
        return fn

    return register


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
    setattr(owner, name, new)
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
    chosen.apply()
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


def replace_hooks(package: str, *holders: str, **changes: Any) -> None:
    """Replace hooks of a profile's `PIPELINE` (a frozen dataclass of functions, PIPE-11) in
    `package` and in every module of `holders` that imported it by name."""
    pipeline = _mod(package).PIPELINE
    hooks = dataclasses.replace(pipeline, **changes)
    for name in (package, *holders):
        set_attr(_mod(name), "PIPELINE", hooks)
