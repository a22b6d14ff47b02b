"""Broken ports of the operation contract (spec/operations.md OP-*), registered on import."""

from __future__ import annotations

from typing import Any

from conformance.selftest.broken_ports.patching import _mod, mutant, set_attr, set_entry


def _wrap_handlers(names: tuple[str, ...] | None, wrap: Any) -> None:
    """Replace the reference handlers `names` (every one when None) by `wrap(handler)`."""
    ops = _mod("conformance.adapters.ops")
    handlers = ops.registry()
    for name, handler in handlers.items():
        if names is None or name in names:
            set_entry(ops, "_REGISTRY", name, wrap(handler))
    original = ops.registry

    def registry() -> dict[str, Any]:
        out: dict[str, Any] = original()
        if names is None:
            return {name: wrap(h) if h is handlers.get(name) else h for name, h in out.items()}
        return out

    set_attr(ops, "registry", registry)


@mutant(
    "op-unknown-input-field-rejected",
    "OP-1",
    "search and search_corpus reject a top-level input field they do not know",
    seams=("conformance.adapters.ops._REGISTRY", "conformance.adapters.ops.registry"),
)
def _op_unknown_rejected() -> None:
    types = _mod("reference.types")
    known = {"request", "backends", "corpus"}

    def wrap(handler: Any) -> Any:
        def strict(inp: dict[str, Any]) -> dict[str, Any]:
            extra = sorted(set(inp) - known)
            if extra:
                raise types.InvalidInput(f"unknown input field {extra[0]!r}")
            out: dict[str, Any] = handler(inp)
            return out

        return strict

    _wrap_handlers(("search", "search_corpus"), wrap)


@mutant(
    "op-index-error-as-invalid-input",
    "OP-2",
    "a backend failure is answered with the error kind invalid_input instead of index_error",
    seams=("reference.types.IndexError_.kind",),
)
def _op_index_error_kind() -> None:
    set_attr(_mod("reference.types").IndexError_, "kind", "invalid_input")


def _round15(value: Any) -> Any:
    if isinstance(value, float):
        return float(f"{value:.15g}")
    if isinstance(value, dict):
        return {k: _round15(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_round15(v) for v in value]
    return value


@mutant(
    "op-floats-15-digits",
    "OP-3",
    "output floats are written with 15 significant digits (`%.15g`), not round-trip exact",
    seams=("conformance.adapters.ops._REGISTRY", "conformance.adapters.ops.registry"),
)
def _op_floats_15() -> None:
    def wrap(handler: Any) -> Any:
        def rounded(inp: dict[str, Any]) -> dict[str, Any]:
            out: dict[str, Any] = _round15(handler(inp))
            return out

        return rounded

    _wrap_handlers(None, wrap)
