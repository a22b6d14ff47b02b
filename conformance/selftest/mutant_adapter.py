"""A broken port behind the real adapter protocol.

Usage: `python -m conformance.selftest.mutant_adapter NAME`.

Applies mutant NAME (conformance/selftest/broken_ports/) to the reference in this process, then
serves the reference adapter loop unchanged, so the runner sees a port like any other. The hello
names the mutant (`hrc-mutant:NAME`). An unknown name exits with status 2 before the handshake.
"""

from __future__ import annotations

import sys

from conformance.adapters import adapter_reference
from conformance.selftest.broken_ports import MUTANTS, activate

MODULE = "conformance.selftest.mutant_adapter"


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1 or args[0] not in MUTANTS:
        sys.stderr.write(f"usage: python -m {MODULE} NAME; NAME is one of: {', '.join(MUTANTS)}\n")
        return 2
    activate(args[0])
    adapter_reference.NAME = f"hrc-mutant:{args[0]}"
    return adapter_reference.serve(sys.stdin.buffer, sys.stdout.buffer)


if __name__ == "__main__":
    sys.exit(main())
