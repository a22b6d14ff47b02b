"""Registry of the reference's operations (spec/operations.md): name -> handler.

Each stage module in this package registers its handlers with @operation; handlers take the
case's JSON input and return the JSON output, raising reference.types.InvalidInput (or another
error with a `kind` attribute) to answer with an error (OP-2).
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable
from typing import Any

JSON = dict[str, Any]
Handler = Callable[[JSON], JSON]

_REGISTRY: dict[str, Handler] = {}


def operation(name: str) -> Callable[[Handler], Handler]:
    """Register `fn` as the reference handler of operation `name`."""

    def register(fn: Handler) -> Handler:
        if name in _REGISTRY:
            raise RuntimeError(f"operation {name!r} registered twice")
        _REGISTRY[name] = fn
        return fn

    return register


def registry() -> dict[str, Handler]:
    """All operations, after importing every module of this package, plus the operations of
    every reference profile (`NAME.op`, reference/profiles/, PROFILE-4)."""
    from reference.profiles import discover

    for info in pkgutil.iter_modules(__path__):
        importlib.import_module(f"{__name__}.{info.name}")
    out = dict(_REGISTRY)
    for profile in discover().values():
        out.update(profile.operations)
    return out
