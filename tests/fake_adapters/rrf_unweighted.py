"""A port of `rrf` without the `rrf-weights` capability: a weight other than 1 is `unsupported`.

That answer is what OP-2 requires of it, so `hrc properties` must never send it such a weight.
Runs without `-S` (the reference needs site-packages).
"""

import sys
from pathlib import Path

sys.path.insert(1, str(Path(__file__).resolve().parent))

from _base import error, hello, serve

from conformance.adapters.ops import registry
from conformance.judging.capabilities import uses_rrf_weights


def on_run(request):
    op, data = request["op"], request["input"]
    if op != "rrf":
        return error(request["seq"], "unsupported", f"no op {op}")
    if uses_rrf_weights(op, data):
        return error(request["seq"], "unsupported", "rrf-weights is not implemented")
    return {"type": "result", "seq": request["seq"], "output": registry()["rrf"](data)}


serve(on_run, lambda request: hello(operations=["rrf"], capabilities=[]))
