"""A port of the fixture profile `echo` (tests/fixtures/profile-kit, spec/profiles.md).

argv: [VERSION | none]. VERSION (default 1.2.0) is the profile version the hello gives; `none`
declares neither the profile nor its operation. The hello reports the SHA-256 of the fixture's
data file it reads (PROTO-28).
"""

import hashlib
import sys
from pathlib import Path

from _base import Message, correct, hello, serve

KIT = Path(__file__).resolve().parents[1] / "fixtures" / "profile-kit"
DATA = "profiles/echo/marks.json"
VERSION = sys.argv[1] if len(sys.argv) > 1 else "1.2.0"


def on_hello(request: Message) -> Message | None:
    digest = hashlib.sha256((KIT / "spec" / "data" / DATA).read_bytes()).hexdigest()
    if VERSION == "none":
        return hello(dataFiles={DATA: digest})
    return hello(
        operations=["length", "normalise", "echo.reverse"],
        capabilities=["sqlite-fts5", "profile:echo"],
        profiles={"echo": VERSION},
        dataFiles={DATA: digest},
    )


def on_run(request: Message) -> Message | None:
    if request["op"] == "echo.reverse":
        reversed_text = request["input"]["text"][::-1]
        return {"type": "result", "seq": request["seq"], "output": {"reversed": reversed_text}}
    return correct(request)


serve(on_run, on_hello)
