"""Bottom of the kit: user-facing errors, printable text, YAML error messages and the kit's
version; imports nothing else of the kit.
"""
