"""Leaves a detached (setsid) descendant holding stdout, then exits; argv[1] says when.

`start`: before any hello (the issue's `sh -c 'setsid sleep 20 & sleep 1'`);
`case`: after answering hello, on the case named in argv[2] (parent exits mid-case while
the detached child keeps stdout open). argv[-1] is a file the child writes its pid to, so
the test can check that no process is left behind.
"""

import os
import subprocess
import sys
import time

from _base import Message, serve


def detach() -> None:
    child = subprocess.Popen(
        [sys.executable, "-S", "-c", "import time; time.sleep(30)"],
        start_new_session=True,
    )
    with open(sys.argv[-1], "a", encoding="utf-8") as pids:
        pids.write(f"{child.pid}\n")


if sys.argv[1] == "start":
    detach()
    time.sleep(0.3)
    sys.exit(0)


def on_run(request: Message) -> Message | None:
    if request["case"] == sys.argv[2]:
        detach()
        os._exit(4)
    return None


serve(on_run)
