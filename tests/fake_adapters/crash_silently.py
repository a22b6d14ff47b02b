"""Logs a line to stderr for every case, then exits without a word on the case in argv[1]."""

import os
import sys
import time

from _base import Message, log, serve


def on_run(request: Message) -> Message | None:
    if request["case"] == sys.argv[1]:
        os._exit(3)
    log(f"fake: answered {request['case']}")
    time.sleep(0.05)  # let the runner read the line before the answer
    return None


serve(on_run)
