"""Fake adapters (one fault each) and helpers for the conformance runner's own tests."""
