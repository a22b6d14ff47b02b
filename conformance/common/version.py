"""The kit's version (the spec version it ships)."""

from __future__ import annotations

#: The adapter protocol this kit speaks (spec/adapter-protocol.md); conformance.adapters.protocol
#: re-exports it. It lives here so that `hrc --version` imports nothing else (issue 40).
PROTOCOL_VERSION = 1


def kit_version() -> str:
    """The kit's version: the spec version it ships (`conformance.__version__`)."""
    from conformance import __version__

    return __version__
