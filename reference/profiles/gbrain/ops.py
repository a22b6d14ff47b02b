"""The profile's operations `gbrain.extract_links` and `gbrain.traverse` (GBRAIN-2, GBRAIN-10)."""

from __future__ import annotations

from typing import Any

from reference.types import InvalidInput

from .links import extract_links
from .traverse import edges_from_json, traverse, traverse_options

JSON = dict[str, Any]


def op_extract_links(obj: JSON) -> JSON:
    """GBRAIN-2: {path, markdown} -> {page, edges}."""
    path, markdown = obj.get("path"), obj.get("markdown")
    if not isinstance(path, str) or not isinstance(markdown, str):
        raise InvalidInput("path and markdown must be strings")
    try:
        page, edges = extract_links(path, markdown)
    except ValueError as exc:
        raise InvalidInput(str(exc)) from exc
    return {"page": page, "edges": [e.to_json() for e in edges]}


def op_traverse(obj: JSON) -> JSON:
    """GBRAIN-10..12, GBRAIN-41: {edges, seeds, depth?, linkType?, direction?} -> {results}."""
    options = traverse_options(obj)
    edges = edges_from_json(obj.get("edges"), "edges")
    seeds = obj.get("seeds")
    if not isinstance(seeds, list) or not all(isinstance(s, str) and s for s in seeds):
        raise InvalidInput("seeds must be a list of non-empty strings")
    if len(set(seeds)) != len(seeds):
        raise InvalidInput("seeds must be distinct")
    return {"results": traverse(edges, seeds, options)}
