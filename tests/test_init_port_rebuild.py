"""Every compiled scaffold rebuilds when ANY of its sources changes and never runs code that did
not compile (issue 38, item 2: the TypeScript launcher looked at `adapter.ts` only, and `tsc`
emitted JavaScript on a type error, so a bug in a second file still gave `10 passed`)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from conformance.commands import init_port as scaffold
from tests.test_init_port import _need_tools

#: A second source file that does not compile, per language (relative path, text, append?).
BROKEN: dict[str, tuple[str, str, bool]] = {
    "go": ("extra.go", 'package main\n\nvar extra int = "not a number"\n', False),
    "java": ("Extra.java", 'final class Extra { static int x = "not a number"; }\n', False),
    "typescript": ("extra.ts", 'export const extra: number = "not a number";\n', False),
    # cargo compiles only the crate's modules: break the second module the scaffold ships.
    "rust": ("src/json.rs", '\n#[allow(dead_code)]\nfn broken() -> u8 { "not a number" }\n', True),
}


def _build(target: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(target / "adapter"), "--build"], stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, check=False, timeout=900)


def _hello(target: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(target / "adapter")], input='{"type":"hello","protocol":1}\n',
                          capture_output=True, text=True, check=False, timeout=120)


def test_every_compiled_scaffold_has_a_broken_second_file() -> None:
    assert set(BROKEN) == {name for name, lang in scaffold.LANGUAGES.items() if lang.build}


@pytest.mark.slow
@pytest.mark.parametrize("language", sorted(BROKEN))
def test_a_compile_error_in_a_second_file_fails_the_build_and_runs_nothing(
    language: str, tmp_path: Path
) -> None:
    _need_tools(language)
    target = tmp_path / "port"
    scaffold.init_port(language, target)
    first = _build(target)
    assert first.returncode == 0, first.stderr[-2000:]
    assert first.stdout == ""
    rel, text, append = BROKEN[language]
    second = target / rel
    original = second.read_text(encoding="utf-8") if append else None
    second.write_text((original or "") + text, encoding="utf-8")
    broken = _build(target)
    assert broken.returncode != 0, f"{rel} did not compile, yet the build passed"
    assert broken.stdout == ""
    # Starting the adapter builds again and fails again: the last good program never answers.
    started = _hello(target)
    assert started.returncode != 0 and '"type":"hello"' not in started.stdout.replace(" ", "")
    if original is None:
        second.unlink()
    else:
        second.write_text(original, encoding="utf-8")
    fixed = _build(target)
    assert fixed.returncode == 0, fixed.stderr[-2000:]
    assert '"hello"' in _hello(target).stdout
