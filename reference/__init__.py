"""Python reference implementation of the hybrid-retrieval spec (see spec/README.md)."""

#: The spec version, and the one place the kit's version comes from: the package version
#: (pyproject.toml reads this line), `__version__`, and the release tag `v{SPEC_VERSION}`.
SPEC_VERSION = "5.0.0"
__version__ = SPEC_VERSION
