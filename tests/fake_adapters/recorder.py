"""Behaves, and appends every line it receives plus its pid to the file argv[1]."""

import json
import os
import sys

from _base import correct, hello, send

path = sys.argv[1]
ignore_bye = len(sys.argv) > 2 and sys.argv[2] == "ignore-bye"
with open(path, "a", encoding="utf-8") as fh:
    fh.write(json.dumps({"pid": os.getpid()}) + "\n")
for raw in sys.stdin.buffer:
    with open(path, "a", encoding="utf-8") as fh:
        fh.write(raw.decode("utf-8").rstrip("\n") + "\n")
    message = json.loads(raw)
    if message["type"] == "hello":
        send(hello())
    elif message["type"] == "run":
        send(correct(message))
    elif message["type"] == "bye" and not ignore_bye:
        sys.exit(0)
if ignore_bye:
    import time

    while True:
        time.sleep(60)
