"""The adapter side: protocol messages, the adapter process, the reference adapter and its
operation handlers (`ops/`).
"""
