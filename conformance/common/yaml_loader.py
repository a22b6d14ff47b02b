"""The one YAML loader of the kit (issue 38): every case file, expected-failures list, adapter
declaration and regen rewrite is parsed here, so no two commands can read one file differently.

libyaml's parser when PyYAML has it (about 10x faster), else PyYAML's pure parser, always with
PyYAML's safe constructor. Both give the same nodes, marks (character offsets) and values for
every golden file: tests/test_yaml_portability.py parses each file with both, and with js-yaml
when the JavaScript port's node_modules are installed, and fails when any of them differs.
"""

from __future__ import annotations

from typing import Any

import yaml

#: The loader class: CSafeLoader when PyYAML was built with libyaml, else SafeLoader.
Loader: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def compose(text: str) -> yaml.Node | None:
    """The node tree of `text` (marks are character offsets into `text`)."""
    return yaml.compose(text, Loader=Loader)


def load(text: str) -> Any:
    """The value of `text`, with the safe constructor."""
    return yaml.load(text, Loader=Loader)
