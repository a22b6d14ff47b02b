"""What a run leaves behind: text/JSON reports, JUnit, HTML, the ports matrix, badges,
expected-failure updates, eval charts and TREC files.
"""
