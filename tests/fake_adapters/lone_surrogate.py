"""Answers every `normalise` case with an unpaired surrogate escape; argv[1] says where.

`value`: in a string value; `key`: in an object key. Both are PROTO-2 violations: a lone
surrogate has no UTF-8 encoding, so a runner that let it through would crash when it writes
the report.
"""

import sys

from _base import Message, send_raw, serve

LINES = {
    "value": '{"type":"result","seq":SEQ,"output":{"normalised":"a\\ud800b","folded":"ab"}}',
    "key": '{"type":"result","seq":SEQ,"output":{"normalised":"ab","folded":"ab","\\udc00":1}}',
}


def on_run(request: Message) -> Message | None:
    if request["op"] == "normalise":
        line = LINES[sys.argv[1]].replace("SEQ", str(request["seq"]))
        send_raw(line.encode("ascii") + b"\n")
        return {}
    return None


serve(on_run)
