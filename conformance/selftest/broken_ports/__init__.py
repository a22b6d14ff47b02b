"""Deliberately broken ports: realistic porting mistakes, each applied to the reference in-process.

A mutant is a name, the spec clause it violates, a one-line description of the mistake, the
reference names it rebinds (its `seams`, declared and checked: `patching.seam_problems`) and a
function that monkeypatches the reference modules. `activate(name)` imports every reference
module first, so that a patched function can be rebound wherever another module imported it
by name (`from reference.rrf import fuse`). Mutants never restore what they patch: they run in
their own adapter process (`python -m conformance.selftest.mutant_adapter NAME`).

Each mutant must be killed by at least two distinct golden cases; `hrc selftest mutants`
checks that (conformance/selftest/gate.py). Mistakes that no input can reveal are not
registered; conformance/selftest/unguarded.tsv lists the clauses they leave unguarded.

Modules are named for the chapter they break (`rrf.py`, `profile_engram.py`; CONTRIBUTING.md's
map lists each chapter's modules); importing this package registers them all."""

from conformance.selftest.broken_ports import (  # noqa: F401  (registers)
    backends,
    backends_chunker,
    backends_stores,
    fanout,
    fanout_derived,
    fanout_traps,
    fanout_traps_merge,
    graph,
    input_bounds,
    intent,
    ladder,
    metrics,
    operations,
    pipeline,
    pipeline_modes,
    profile_bm25_okapi,
    profile_bm25_okapi_search,
    profile_engram,
    profile_engram_dates,
    profile_engram_per_clause,
    profile_engram_search,
    profile_gbrain_grammar,
    profile_gbrain_graph,
    profile_gbrain_links,
    profile_gbrain_routing,
    profile_gbrain_search,
    profile_scoped_fusion,
    profile_scoped_fusion_dense,
    profile_temporal,
    profile_temporal_dates,
    profile_temporal_words,
    query,
    query_scan,
    rerank,
    rrf,
    rung_plans,
    runtime_traps,
    text,
    trace,
    trigram,
    unanimity,
)
from conformance.selftest.broken_ports.patching import (
    MUTANTS,
    Mutant,
    activate,
    load_reference,
)

__all__ = ["MUTANTS", "Mutant", "activate", "load_reference"]
