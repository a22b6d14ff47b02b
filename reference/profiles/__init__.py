"""Reference implementations of profiles (spec/profiles.md PROFILE-1, PROFILE-2).

Each sub-package `reference/profiles/<name>/` (the profile NAME with `-` written `_`) exports
`VERSION`, the version its chapter `spec/profiles/NAME.md` states, and `OPERATIONS`, a dict
from operation name (`NAME.op`, PROFILE-4) to handler. The reference adapter declares every
profile found here (capability `profile:NAME`, version in the hello's `profiles`), and
`conformance.adapters.ops.registry()` serves their operations. A package may also export `PIPELINE`
(reference/profile_hooks.py), its behaviour inside `search` when a request enables it.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from reference.profile_hooks import PipelineHooks

Handler = Callable[[dict[str, Any]], dict[str, Any]]


@dataclass(frozen=True)
class ReferenceProfile:
    """One profile the reference implements."""

    name: str
    version: str
    operations: Mapping[str, Handler]
    pipeline: PipelineHooks | None = None


def discover() -> Mapping[str, ReferenceProfile]:
    """Every profile package under reference/profiles/, by profile name.

    Found once per search path and process: every search request looks its profiles up here
    (PIPE-10). Raises RuntimeError when a package lacks VERSION or OPERATIONS, or names an
    operation outside its own `NAME.` namespace (PROFILE-4).
    """
    return _discover(tuple(__path__))


@cache
def _discover(paths: tuple[str, ...]) -> Mapping[str, ReferenceProfile]:
    found: dict[str, ReferenceProfile] = {}
    for info in sorted(pkgutil.iter_modules(list(paths)), key=lambda i: i.name):
        if not info.ispkg:
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        name = info.name.replace("_", "-")
        version = getattr(module, "VERSION", None)
        operations = getattr(module, "OPERATIONS", None)
        if not isinstance(version, str) or not isinstance(operations, dict):
            raise RuntimeError(f"reference profile {name!r} needs VERSION and OPERATIONS")
        strays = sorted(op for op in operations if not op.startswith(f"{name}."))
        if strays:
            raise RuntimeError(f"reference profile {name!r} names operations {strays}")
        pipeline = getattr(module, "PIPELINE", None)
        if pipeline is not None and not isinstance(pipeline, PipelineHooks):
            raise RuntimeError(f"reference profile {name!r}: PIPELINE must be PipelineHooks")
        found[name] = ReferenceProfile(name, version, dict(operations), pipeline)
    return found
