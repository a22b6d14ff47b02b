"""For the case named in argv[1], writes the JSON message given in argv[2] (seq filled in)."""

import json
import sys

from _base import Message, serve


def on_run(request: Message) -> Message | None:
    if request["case"] == sys.argv[1]:
        message: Message = json.loads(sys.argv[2])
        if "seq" in message:
            message["seq"] = request["seq"]
        return message
    return None


serve(on_run)
