"""Answers every `normalise` case with a line that decodes but that PROTO-2 bounds forbid.

argv[1]: `bigint` (a 400-digit integer), `deep` (arrays nested 600 deep), `inf` (1e400),
`negzero-ok` (a legal answer, as a control).
"""

import sys

from _base import Message, send_raw, serve


def line(kind: str, seq: int) -> str:
    head = f'{{"type":"result","seq":{seq},"output":'
    if kind == "bigint":
        return head + '{"normalised":"x","folded":"x","n":' + "9" * 400 + "}}"
    if kind == "deep":
        return head + '{"normalised":"x","folded":"x","n":' + "[" * 600 + "]" * 600 + "}}"
    if kind == "inf":
        return head + '{"normalised":"x","folded":"x","n":1e400}}'
    raise SystemExit(f"unknown kind {kind}")


def on_run(request: Message) -> Message | None:
    if request["op"] == "normalise":
        send_raw(line(sys.argv[1], request["seq"]).encode("ascii") + b"\n")
        return {}
    return None


serve(on_run)
