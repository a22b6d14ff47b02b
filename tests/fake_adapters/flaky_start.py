"""Exits during the handshake until it has been started argv[2] times (counted in file argv[1])."""

import sys
from pathlib import Path

from _base import serve

counter = Path(sys.argv[1])
starts = int(counter.read_text()) + 1 if counter.exists() else 1
counter.write_text(str(starts))
if starts < int(sys.argv[2]):
    sys.stdin.buffer.readline()
    sys.exit(1)
serve()
