"""Answers every tiny case correctly."""

from _base import serve

serve()
