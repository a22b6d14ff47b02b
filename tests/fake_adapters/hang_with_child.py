"""Starts a child (`sleep 47.31`, in the adapter's process group) and never answers the case
named in argv[1]: what SIGTERM to `hrc run` must clean up (PROTO-51)."""

import subprocess
import sys
import time

from _base import Message, serve

child = subprocess.Popen(["sleep", "47.31"])


def on_run(request: Message) -> Message | None:
    if request["case"] == sys.argv[1]:
        while True:
            time.sleep(60)
    return None


serve(on_run)
