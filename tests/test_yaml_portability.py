"""Every golden file is data for every language (issue 38, item 6): it parses to the same value
with PyYAML's pure parser, with libyaml (what the kit's one loader uses when present), and with
the YAML libraries porters reach for that this machine has without a download: js-yaml when the
JavaScript port's node_modules hold it, Go's gopkg.in/yaml.v3 when ports/go/go.sum pins it.
A library that is not installed is skipped with its reason, never fetched at test time."""

from __future__ import annotations

import json
import math
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml

from conformance.common import yaml_loader

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = sorted((ROOT / "golden").rglob("*.yaml"))
JS_DIR = ROOT / "ports" / "js"


def _text(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def _pure(text: str) -> Any:
    return yaml.load(text, Loader=yaml.SafeLoader)


def _json_shape(value: Any) -> Any:
    """The value as a JavaScript parser hands it back: an integer beyond 2**53 is a double."""
    if isinstance(value, bool) or value is None or isinstance(value, str | float):
        return value
    if isinstance(value, int):
        return value if abs(value) <= 2**53 else float(value)
    if isinstance(value, dict):
        return {k: _json_shape(v) for k, v in value.items()}
    return [_json_shape(v) for v in value]


def _from_js(value: Any) -> Any:
    return _json_shape(value)


def test_there_are_golden_files() -> None:
    assert len(GOLDEN) > 100


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: str(p.relative_to(ROOT / "golden")))
def test_pure_and_libyaml_parse_the_same_value(path: Path) -> None:
    text = _text(path)
    try:
        pure = _pure(text)
    except yaml.YAMLError as exc:  # the pure parser is the strict one (issue 38: `prefer?,`)
        pytest.fail(f"{path.relative_to(ROOT)}: PyYAML's pure parser refuses it: {exc}")
    assert yaml_loader.load(text) == pure
    if getattr(yaml, "CSafeLoader", None) is not None:
        assert yaml.load(text, Loader=yaml.CSafeLoader) == pure


def test_the_kit_has_one_loader() -> None:
    """No module of the kit picks a YAML loader of its own (conformance/common/yaml_loader.py)."""
    offenders = []
    for module in sorted((ROOT / "conformance").rglob("*.py")):
        if module.name == "yaml_loader.py":
            continue
        source = module.read_text(encoding="utf-8")
        needles = ("SafeLoader", "CSafeLoader", "yaml.safe_load", "yaml.load(", "yaml.compose(")
        for needle in needles:
            if needle in source:
                offenders.append(f"{module.relative_to(ROOT)}: {needle}")
    assert offenders == []


@pytest.mark.parametrize("scalar", ["09", "0o17", "0x1F", "+12", ".5", "1.", "-.inf", ".NaN"])
def test_a_plain_scalar_yaml_1_2_reads_as_a_number_is_refused(tmp_path: Path, scalar: str) -> None:
    """PyYAML (YAML 1.1) reads `09` as a string, js-yaml and yaml.v3 (1.2 core) as 9: the
    case loader refuses such a plain scalar with its line (golden/profiles/engram/boost.yaml
    carried `accessCount: 09` until issue 38)."""
    from conformance.judging.cases import CaseFileError, load_text

    text = (
        "op: length\ndescription: d\ncases:\n  - id: t/x\n    description: d\n"
        f"    clauses: [TEXT-8]\n    input: {{text: {scalar}}}\n"
        "    expect: {output: {length: 1}}\n"
    )
    with pytest.raises(CaseFileError, match=r":7: ambiguous YAML scalar"):
        load_text(text, "golden/portability/t.yaml", "portability")


def test_a_flow_question_mark_is_refused_by_the_pure_parser() -> None:
    """The trap this test exists for: libyaml reads `{q: why?, m: x}`, the pure parser does not."""
    with pytest.raises(yaml.YAMLError):
        _pure("r: {q: why?, m: x}\n")
    assert _pure('r: {q: "why?", m: x}\n') == {"r": {"q": "why?", "m": "x"}}


_JS = r"""
const path = require('path');
const fs = require('fs');
const yaml = require(require.resolve('js-yaml', {paths: [process.argv[1]]}));
const out = {};
for (const f of process.argv.slice(2)) {
  out[f] = yaml.load(fs.readFileSync(f, 'utf8'), {schema: yaml.CORE_SCHEMA, filename: f});
}
process.stdout.write(JSON.stringify(out));
"""


def _js_yaml_available() -> str | None:
    if shutil.which("node") is None:
        return "node is not installed"
    probe = subprocess.run(
        ["node", "-e", "require.resolve('js-yaml', {paths: [process.argv[1]]})", str(JS_DIR)],
        capture_output=True, text=True, check=False, timeout=30,
    )
    if probe.returncode != 0:
        return "js-yaml is not in ports/js/node_modules (nothing is downloaded at test time)"
    return None


def _finite(value: Any) -> bool:
    if isinstance(value, float):
        return math.isfinite(value)
    if isinstance(value, dict):
        return all(_finite(v) for v in value.values())
    if isinstance(value, list):
        return all(_finite(v) for v in value)
    return True


def test_js_yaml_parses_every_golden_file_to_the_same_value() -> None:
    why = _js_yaml_available()
    if why is not None:
        pytest.skip(why)
    done = subprocess.run(
        ["node", "-e", _JS, str(JS_DIR), *map(str, GOLDEN)],
        capture_output=True, text=True, check=False, timeout=300,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    parsed = json.loads(done.stdout)
    for path in GOLDEN:
        expected = _pure(_text(path))
        if _finite(expected):
            assert _from_js(parsed[str(path)]) == _json_shape(expected), path.relative_to(ROOT)


def test_go_yaml_v3_is_checked_when_the_go_port_pins_it() -> None:
    go_sum = ROOT / "ports" / "go" / "go.sum"
    if "gopkg.in/yaml.v3" not in (go_sum.read_text(encoding="utf-8") if go_sum.is_file() else ""):
        pytest.skip("gopkg.in/yaml.v3 is not in ports/go/go.sum (nothing is downloaded at test "
                    "time); golden files keep to the subset js-yaml and PyYAML agree on")
    pytest.fail("ports/go/go.sum pins gopkg.in/yaml.v3: add its parse of every golden file here")
