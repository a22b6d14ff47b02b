"""The reference adapter with the capabilities named in argv removed from its hello.

A port that lacks an optional feature: the runner must make its cases `not_applicable`
(PROTO-7, PROTO-27), never `errored`. Runs without `-S` (the reference needs site-packages).
"""

import sys
from pathlib import Path

sys.path.insert(1, str(Path(__file__).resolve().parents[2]))

from conformance.adapters import adapter_reference

dropped = set(sys.argv[1:])
kept = [c for c in adapter_reference.CAPABILITIES if c not in dropped]
sys.exit(adapter_reference.serve(sys.stdin.buffer, sys.stdout.buffer, capabilities=kept))
