"""`python -m conformance.adapter_reference`: the reference adapter under the name
spec/adapter-protocol.md gives it (its code: conformance/adapters/adapter_reference.py).
"""

from __future__ import annotations

import sys

from conformance.adapters.adapter_reference import main

if __name__ == "__main__":
    sys.exit(main())
