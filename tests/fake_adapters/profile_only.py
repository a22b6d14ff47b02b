"""A port of one standalone profile and nothing else (PROFILE-8): argv NAME.

Its hello declares only the operations `NAME.*` of the reference profile NAME and the one
capability `profile:NAME`; every core operation and capability is missing, as in a port of
that seed system that never implemented jeffs-brain's pipeline. Runs without `-S` (the
reference needs site-packages).
"""

import sys
from pathlib import Path

sys.path.insert(1, str(Path(__file__).resolve().parents[2]))

from conformance.adapters import adapter_reference
from conformance.adapters.ops import registry
from reference.profiles import discover

NAME = sys.argv[1]
handlers = {op: fn for op, fn in registry().items() if op.startswith(NAME + ".")}
sys.exit(adapter_reference.serve(
    sys.stdin.buffer, sys.stdout.buffer, handlers=handlers,
    capabilities=[f"profile:{NAME}"], profiles={NAME: discover()[NAME].version},
))
