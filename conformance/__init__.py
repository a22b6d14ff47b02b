"""The hrc conformance kit: golden cases, adapter protocol, runner, reports."""

from reference import SPEC_VERSION as __version__  # the kit is released with its spec

__all__ = ["__version__"]
