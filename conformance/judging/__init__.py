"""The case format and its judging: loading YAML cases (and their cache), capabilities, clauses and
their authority, profiles, data files, comparison, tolerances, FTS5 meaning, trace checks and
expected failures.
"""
