"""Exits with status 3, without answering, when asked to run the case named in argv[1]."""

import os
import sys

from _base import Message, log, serve


def on_run(request: Message) -> Message | None:
    if request["case"] == sys.argv[1]:
        log("fake: about to crash")
        os._exit(3)
    return None


serve(on_run)
