"""Starts once (counted in file argv[1]), crashes on the case in argv[2], then every later start
fails its handshake with a line on stderr."""

import os
import sys
from pathlib import Path

from _base import Message, log, serve

counter = Path(sys.argv[1])
starts = int(counter.read_text()) + 1 if counter.exists() else 1
counter.write_text(str(starts))
if starts > 1:
    log("fake: my build went missing")
    sys.stdin.buffer.readline()
    sys.exit(1)


def on_run(request: Message) -> Message | None:
    if request["case"] == sys.argv[2]:
        os._exit(3)
    return None


serve(on_run)
