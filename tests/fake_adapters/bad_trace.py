"""Answers every `search` with the output stored in argv[1], its trace broken as argv[2] says.

`valid` leaves it alone; `missing` drops the trace; `wrong-type` makes `fusion.k` a string;
`extra-field` adds a field the schema does not allow; `not-an-object` replaces the trace by a
list. The test computes the stored output with the reference, so only the trace is wrong.
"""

import json
import sys
from pathlib import Path

from _base import Message, hello, serve


def broken(output: Message, how: str) -> Message:
    trace = output["trace"]
    if how == "missing":
        del output["trace"]
    elif how == "wrong-type":
        trace["fusion"]["k"] = str(trace["fusion"]["k"])
    elif how == "extra-field":
        trace["bm25"]["rawScores"] = [1.5]
    elif how == "not-an-object":
        output["trace"] = [trace]
    return output


def on_run(request: Message) -> Message | None:
    if request["op"] == "search":
        output = json.loads(Path(sys.argv[1]).read_text(encoding="utf-8"))
        return {"type": "result", "seq": request["seq"], "output": broken(output, sys.argv[2])}
    return None


serve(on_run, lambda _: hello(operations=["search", "length", "normalise"]))
