"""`hrc init-port LANGUAGE DIR`: a first adapter in a new language that passes its first cases.

The templates live in `conformance/scaffolds/<language>/` (shipped in the wheel). Each is a
small adapter that answers hello, declares one operation (`length`, TEXT-8) and implements it,
plus `adapter`, a POSIX shell launcher that builds the sources when they changed and starts
the program, so every language runs as `hrc run --adapter DIR/adapter`. Compiled scaffolds use
only their standard library (Rust and Java carry a tiny JSON module), so no registry is needed.
"""

from __future__ import annotations

import argparse
import os
import re
import shlex
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from conformance.common import errors
from conformance.common.printable import printable

SCAFFOLDS = Path(__file__).resolve().parent.parent / "scaffolds"
#: Template names ending in this lose it when written (keeps templates out of ruff and mypy).
TEMPLATE_SUFFIX = ".tmpl"
#: Template names written under another name (dot files are awkward inside a package).
RENAMED = {"gitignore": ".gitignore"}
#: The operation every scaffold declares, and the cases it passes out of the box.
FIRST_OPERATION = "length"
FIRST_CASES = "portability/length/"


@dataclass(frozen=True)
class Language:
    """What the README tells a porter about one scaffold."""

    name: str
    title: str
    source: str  # the file holding the adapter loop and the operation table
    build: str  # what the launcher runs before starting the adapter ("" when nothing)
    tools: str  # what must be on PATH
    json_note: str  # how the scaffold reads JSON, and what to swap in later
    code_points: str  # the language's code-point trap for TEXT-8


LANGUAGES: dict[str, Language] = {
    "python": Language(
        "python", "Python", "adapter.py", "", "python3 (3.8 or later)",
        "the standard library's `json`",
        "`len(str)` counts code points already; `len(bytes)` does not",
    ),
    "javascript": Language(
        "javascript", "JavaScript (Node)", "adapter.mjs", "", "node (18 or later)",
        "`JSON.parse` / `JSON.stringify` (which writes NaN as null: check `Number.isFinite`)",
        "`str.length` counts UTF-16 units; `[...str].length` counts code points",
    ),
    "typescript": Language(
        "typescript", "TypeScript (Node)", "adapter.ts",
        "`tsc` (from `npm install`, the only dependency) when a `.ts` file, `tsconfig.json` or "
        "`package.json` changed; a type error fails the build and emits nothing",
        "node (18 or later), npm",
        "`JSON.parse` / `JSON.stringify` (which writes NaN as null: check `Number.isFinite`)",
        "`str.length` counts UTF-16 units; `[...str].length` counts code points",
    ),
    "go": Language(
        "go", "Go", "main.go",
        "`go build` when a `.go` file, `go.mod` or `go.sum` changed (a build error runs nothing)",
        "go (1.21 or later)",
        "`encoding/json` (standard library)",
        "`len(s)` counts bytes; `utf8.RuneCountInString(s)` counts code points",
    ),
    "rust": Language(
        "rust", "Rust", "src/main.rs", "`cargo build --release` (a no-op when nothing changed)",
        "cargo",
        "`src/json.rs`, a small JSON reader and writer, so the crate has no dependencies; "
        "switch to `serde_json` whenever you like",
        "`s.len()` counts bytes; `s.chars().count()` counts code points",
    ),
    "java": Language(
        "java", "Java", "Adapter.java",
        "`javac` when a `.java` file changed (a compile error runs nothing)",
        "javac and java (17 or later; a port that writes floats wants 19 or later, whose "
        "`Double.toString` is shortest round-trip: ports/README.md)",
        "`Json.java`, a small JSON reader and writer, so no Maven or Gradle is needed; "
        "switch to Jackson or Gson whenever you like",
        "`String.length()` counts UTF-16 units; `codePointCount` counts code points",
    ),
}
#: How each scaffold answers `unsupported` (OP-2), for its README.
UNSUPPORTED = {
    "python": "`raise Unsupported(why)`",
    "javascript": "`throw new Unsupported(why)`",
    "typescript": "`throw new Unsupported(why)`",
    "go": '`return nil, fmt.Errorf("%w: why", errUnsupported)`',
    "rust": "`Err(Failure::Unsupported(why))`",
    "java": "`throw new Unsupported(why)`",
}
ALIASES = {"py": "python", "js": "javascript", "node": "javascript", "ts": "typescript",
           "golang": "go", "rs": "rust"}


class ScaffoldError(Exception):
    """A bad language or target directory; the message is one line."""


def port_name(directory: Path) -> str:
    """The adapter's hello `name`: the directory's name as lowercase letters, digits and `-`."""
    slug = re.sub(r"[^a-z0-9]+", "-", directory.resolve().name.lower()).strip("-")
    if not slug or not slug[0].isalpha():
        slug = f"hrc-{slug}".rstrip("-")
    return slug


def language_of(name: str) -> Language:
    key = ALIASES.get(name.lower(), name.lower())
    if key not in LANGUAGES:
        raise ScaffoldError(
            f"unknown language {name!r}; choose one of: {', '.join(LANGUAGES)}"
        )
    return LANGUAGES[key]


def substitutions(directory: Path) -> dict[str, str]:
    from reference import SPEC_VERSION

    name = port_name(directory)
    return {
        "__HRC_NAME__": name,
        "__HRC_CRATE__": name,
        "__HRC_GO_MODULE__": f"example.com/{name}",
        "__HRC_SPEC_VERSION__": SPEC_VERSION,
    }


def render(text: str, values: dict[str, str]) -> str:
    for key, value in values.items():
        text = text.replace(key, value)
    return text


def planned_files(language: Language) -> list[tuple[Path, str]]:
    """(template file, path relative to the target) for every file of one scaffold."""
    base = SCAFFOLDS / language.name
    out: list[tuple[Path, str]] = []
    for path in sorted(base.rglob("*")):
        if not path.is_file() or "__pycache__" in path.parts:
            continue
        rel = path.relative_to(base).as_posix()
        if rel.endswith(TEMPLATE_SUFFIX):
            rel = rel[: -len(TEMPLATE_SUFFIX)]
        head, _, tail = rel.rpartition("/")
        tail = RENAMED.get(tail, tail)
        out.append((path, f"{head}/{tail}" if head else tail))
    return out


def readme(language: Language, directory: Path, values: dict[str, str]) -> str:
    """The generated README.md: how to run the scaffold and what to do next."""
    from conformance.common.version import kit_version

    launcher = shlex.quote(f"{directory.as_posix().rstrip('/')}/adapter")
    build = (
        f"Before it starts the program, `adapter` runs {language.build}; that output goes to "
        "stderr, because stdout carries the protocol. `hrc run` runs that build first "
        "(`adapter --build`, declared in `hrc-adapter.yaml`), with its own progress line and "
        "time limit, so a cold first build cannot eat the handshake's 30 s."
        if language.build
        else "`adapter` only starts the program; there is nothing to build."
    )
    kit = kit_version()
    return f"""# {values['__HRC_NAME__']}: an hrc adapter in {language.title}

Made by `hrc init-port {language.name}` (kit {kit}, spec {values['__HRC_SPEC_VERSION__']}).
`{language.source}` answers the runner's hello, declares one operation, `{FIRST_OPERATION}`
(TEXT-8: the length of a string in Unicode code points), and implements it. {build}
Needs: {language.tools}. JSON: {language.json_note}.

## Run it

```sh
hrc run --adapter {launcher} --select {FIRST_CASES}    # every case passes
hrc run --adapter {launcher}                                 # the rest is not_applicable
```

The full run passes the `{FIRST_OPERATION}` cases and reports every other case
`not_applicable`, because the hello does not declare its operation: that list is your to-do
list. The trap this first operation guards: {language.code_points}.

## Next steps

1. **Add an operation.** Pick one from the tables of `spec/operations.md` (the text operations
   `normalise`, `words`, `sort_strings` come next; `rrf` and `unanimity` are small), write a
   function, add it to the operation table in `{language.source}`, and run
   `hrc run --adapter {launcher} --select portability/` (or `--select rrf/` …). The hello
   declares whatever the table holds; declare only what you implement completely.
2. **Map errors to kinds** (OP-2): an input the spec rejects is `invalid_input`; a backend
   failure `index_error`; a missing feature `unsupported` ({UNSUPPORTED[language.name]});
   anything else `internal_error`, with the details on stderr. Never exit because of an
   input; never print to stdout anything but protocol lines; an output holding NaN or
   Infinity is answered `internal_error` by the scaffold (JSON has neither, PROTO-2).
3. **Load the spec's data files** (stopwords, intent tables, the punctuation table): read them
   from `$(hrc data-path)` (or copy them into your package and check the bytes), and name each
   file you loaded in the hello's `dataFiles` with the SHA-256 of the bytes you parsed
   (PROTO-28); the runner then fails the run on a stale copy. The scaffold loads none, so it
   reports `{{}}`.
4. **Pin the kit in CI**: the kit is on no package index and needs no release tag. In a
   clone of the kit, `hrc pin --wheel vendor/` builds its wheel ({kit}) and prints the
   `pip install` line; commit that file. `hrc pin --ci ci/` writes the kit's CI recipe, a
   shell script and a GitHub Actions workflow: they install the wheel, build this adapter and run
   `hrc run --adapter ./adapter --require all --junit …` with
   `--expected-failures expected-failures.yaml` when you have one (a YAML list of
   `{{id, reason}}`, `[]` when you can). The run exits 1 when a case fails.
5. **Read the traps**: the spec lives beside the data (`$(hrc data-path)/..`); start with
   `portability.md` (TEXT-*) and `adapter-protocol.md` (PROTO-*).
"""


def init_port(
    language_name: str, directory: Path, force: bool = False, replaced: list[Path] | None = None
) -> list[Path]:
    """Write the scaffold for `language_name` into `directory`; returns the files written.
    A symbolic link where a file goes is replaced, not followed, and added to `replaced`."""
    replaced = [] if replaced is None else replaced
    language = language_of(language_name)
    if directory.exists() and not directory.is_dir():
        raise ScaffoldError(f"{directory}: exists and is not a directory")
    if directory.is_dir() and any(directory.iterdir()) and not force:
        raise ScaffoldError(f"{directory}: not empty (use --force to write into it anyway)")
    values = substitutions(directory)
    plan = planned_files(language)
    if not plan:
        raise ScaffoldError(f"the kit ships no {language.name} scaffold ({SCAFFOLDS} is missing)")
    rels = [rel for _, rel in plan] + ["README.md"]
    if directory.is_dir():
        _refuse_links_on_the_way(directory, rels)
    written: list[Path] = []
    try:
        directory.mkdir(parents=True, exist_ok=True)
        for template, rel in plan:
            target = directory / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            executable = bool(template.stat().st_mode & stat.S_IXUSR) or rel == "adapter"
            text = render(template.read_text(encoding="utf-8"), values)
            _write_no_follow(target, text, executable, replaced)
            written.append(target)
        notes = directory / "README.md"
        _write_no_follow(notes, readme(language, directory, values), False, replaced)
        written.append(notes)
    except OSError as exc:
        raise ScaffoldError(f"{directory}: cannot write: {exc.strerror or exc}") from exc
    return written


def _refuse_links_on_the_way(directory: Path, rels: list[str]) -> None:
    """Refuse, before writing anything, a folder inside DIR that is a symbolic link (writing
    through it would write outside DIR) or a file to be written that is not a regular file."""
    for rel in rels:
        parts = rel.split("/")
        here = directory
        for i, part in enumerate(parts):
            here = here / part
            if not here.is_symlink() and not here.exists():
                break
            last = i == len(parts) - 1
            if here.is_symlink():
                if not last:
                    raise ScaffoldError(
                        f"{here}: is a symbolic link to a folder; not written through "
                        "(remove it and run again)"
                    )
                continue  # a file link is replaced by the file itself (_write_no_follow)
            mode = here.lstat().st_mode
            if last and not stat.S_ISREG(mode):
                raise ScaffoldError(f"{here}: exists and is not a regular file; not replaced")
            if not last and not stat.S_ISDIR(mode):
                raise ScaffoldError(f"{here}: exists and is not a folder")


def _write_no_follow(path: Path, text: str, executable: bool, replaced: list[Path]) -> None:
    """Write `path` as a regular file without following a link: a link there is removed and
    replaced by the file itself (listed in `replaced`), never written through or chmod-ed."""
    if path.is_symlink():
        path.unlink()
        replaced.append(path)
    flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_NOFOLLOW", 0)
    fd = os.open(path, flags, 0o755 if executable else 0o644)
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        out.write(text)
        if executable and hasattr(os, "fchmod"):
            os.fchmod(out.fileno(), 0o755)


def register(subparsers: Any) -> None:
    p: argparse.ArgumentParser = subparsers.add_parser(
        "init-port",
        help="write a first adapter in a new language",
        description="Write a small adapter in LANGUAGE into DIR: it answers hello, declares the "
        "`length` operation and passes its cases; README.md there lists the next steps.",
    )
    p.add_argument("language", metavar="LANGUAGE", help=", ".join(LANGUAGES))
    p.add_argument("directory", type=Path, metavar="DIR")
    p.add_argument("--force", action="store_true", help="write into a non-empty DIR")
    p.set_defaults(func=cmd_init_port)


def cmd_init_port(args: argparse.Namespace) -> int:
    replaced: list[Path] = []
    try:
        written = init_port(args.language, args.directory, force=args.force, replaced=replaced)
    except ScaffoldError as exc:
        return errors.emit("init-port", str(exc))
    # Names are the user's folder: escaped, so a name cannot drive the terminal (PROTO-37).
    launcher = printable(shlex.quote(f"{args.directory.as_posix().rstrip('/')}/adapter"))
    for path in written:
        note = " (replaced a symbolic link; its target was not touched)" if path in replaced else ""
        print(f"wrote {printable(path.as_posix())}{note}")
    print(f"next: hrc run --adapter {launcher} --select {FIRST_CASES}   "
          f"(then read {printable(args.directory.as_posix().rstrip('/'))}/README.md)")
    return 0
