"""Never answers the case named in argv[1]."""

import sys
import time

from _base import Message, serve


def on_run(request: Message) -> Message | None:
    if request["case"] == sys.argv[1]:
        while True:
            time.sleep(60)
    return None


serve(on_run)
