"""The kit's version (the spec version it ships)."""

from __future__ import annotations


def kit_version() -> str:
    """The kit's version: the spec version it ships (`conformance.__version__`)."""
    from conformance import __version__

    return __version__
