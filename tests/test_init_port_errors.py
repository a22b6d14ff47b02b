"""Every scaffold can answer `unsupported`, and none writes `NaN`/`inf` on the protocol (issue 38,
item 7: the Rust scaffold printed `inf`, Go's encoder wrote nothing, and every scaffold mapped
every error to `invalid_input`). Each test patches the generated `length` operation so that the
text "u" raises the scaffold's Unsupported error and the text "n" returns a NaN length."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from conformance.commands import init_port as scaffold
from tests.test_init_port import _need_tools

#: (file, anchor line in the template, code inserted right after it), per language.
PATCHES: dict[str, tuple[str, str, str]] = {
    "python": ("adapter.py", '    text = inp["text"]\n',
               '    if text == "u":\n        raise Unsupported("u")\n'
               '    if text == "n":\n        return {"length": float("nan")}\n'),
    "javascript": ("adapter.mjs", "function opLength(input) {\n",
                   "  if (input.text === 'u') throw new Unsupported('u');\n"
                   "  if (input.text === 'n') return { length: NaN };\n"),
    "typescript": ("adapter.ts", "function opLength(input: Input): Json {\n",
                   "  if (input.text === 'u') throw new Unsupported('u');\n"
                   "  if (input.text === 'n') return { length: NaN };\n"),
    "go": ("main.go", "\t\treturn nil, fmt.Errorf(\"%w: text must be a string\", errInput)\n\t}\n",
           '\tif *in.Text == "u" {\n\t\treturn nil, fmt.Errorf("%w: u", errUnsupported)\n\t}\n'
           '\tif *in.Text == "n" {\n\t\tzero := 0.0\n'
           '\t\treturn map[string]any{"length": zero / zero}, nil\n\t}\n'),
    "rust": ("src/main.rs", "    match input.get(\"text\") {\n",
             '        Some(Value::Str(t)) if t == "u" => Err(Failure::Unsupported("u".into())),\n'
             '        Some(Value::Str(t)) if t == "n" => {\n'
             '            Ok(Value::object(vec![("length", Value::Num(f64::NAN))]))\n        }\n'),
    "java": ("Adapter.java", 'throw new IllegalArgumentException("text must be a string");\n',
             '        if (text.equals("u")) throw new Unsupported("u");\n'
             '        if (text.equals("n")) return Map.of("length", Double.NaN);\n'),
}


def test_every_scaffold_has_a_patch() -> None:
    assert set(PATCHES) == set(scaffold.LANGUAGES)


def _talk(target: Path) -> list[dict[str, object]]:
    requests = [{"type": "hello", "protocol": 1}]
    requests += [{"type": "run", "seq": i, "case": f"t/{text}", "op": "length",
                  "input": {"text": text}} for i, text in enumerate(["u", "n", "ok"], 1)]
    requests.append({"type": "bye"})
    done = subprocess.run([str(target / "adapter")],
                          input="".join(json.dumps(r) + "\n" for r in requests),
                          capture_output=True, text=True, check=False, timeout=900)
    assert done.returncode == 0, done.stderr[-2000:]
    lines = done.stdout.splitlines()
    for line in lines:  # what the runner checks (PROTO-2): no NaN, no Infinity
        json.loads(line, parse_constant=lambda c, at=line: pytest.fail(f"{c} in: {at}"))
    return [json.loads(line) for line in lines]


@pytest.mark.parametrize(
    "language",
    [pytest.param(name, marks=[] if not lang.build else [pytest.mark.slow])
     for name, lang in sorted(scaffold.LANGUAGES.items())],
)
def test_unsupported_and_non_finite_answers(language: str, tmp_path: Path) -> None:
    _need_tools(language)
    target = tmp_path / "port"
    scaffold.init_port(language, target)
    rel, anchor, code = PATCHES[language]
    source = target / rel
    text = source.read_text(encoding="utf-8")
    assert text.count(anchor) == 1, f"{rel}: the patch's anchor moved"
    source.write_text(text.replace(anchor, anchor + code), encoding="utf-8")
    hello, unsupported, nan, ok = _talk(target)
    assert hello["type"] == "hello"
    assert unsupported["type"] == "error" and unsupported["seq"] == 1
    assert unsupported["error"]["kind"] == "unsupported"  # type: ignore[index]
    assert nan["type"] == "error" and nan["seq"] == 2
    assert nan["error"]["kind"] == "internal_error"  # type: ignore[index]
    assert ok == {"type": "result", "seq": 3, "output": {"length": 2}}


def test_every_scaffold_readme_says_how_to_answer_unsupported(tmp_path: Path) -> None:
    for name in scaffold.LANGUAGES:
        scaffold.init_port(name, tmp_path / name)
        readme = (tmp_path / name / "README.md").read_text(encoding="utf-8")
        assert scaffold.UNSUPPORTED[name] in readme, name
        assert "Unsupported" in readme or "errUnsupported" in readme, name
