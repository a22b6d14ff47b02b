"""Python reference implementation of the hybrid-retrieval spec (see spec/README.md)."""

SPEC_VERSION = "2.2.0"
