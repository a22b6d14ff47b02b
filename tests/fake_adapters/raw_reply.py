"""For the case named in argv[1], writes argv[2] verbatim as its answer line."""

import sys

from _base import Message, send_raw, serve


def on_run(request: Message) -> Message | None:
    if request["case"] == sys.argv[1]:
        send_raw(sys.argv[2].replace("SEQ", str(request["seq"])).encode("utf-8") + b"\n")
        return {}
    return None


serve(on_run)
