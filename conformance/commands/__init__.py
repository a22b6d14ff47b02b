"""One module per `hrc` sub-command; each exposes `register(subparsers)` (conformance/cli.py lists
them). Commands never import each other.
"""
