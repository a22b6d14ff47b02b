"""Backends behind small protocols: real (SQLite FTS5, numpy, hash embedder) and scripted."""
