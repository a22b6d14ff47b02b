"""Reads hello and exits with status 1 before answering."""

import sys

from _base import log

sys.stdin.buffer.readline()
log("fake: cannot load my configuration")
sys.exit(1)
