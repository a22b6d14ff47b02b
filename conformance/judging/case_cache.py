"""A cache of loaded case files, so that a run does not re-parse and re-check unchanged YAML.

Parsing and checking the golden YAML (bounds, lint, schema, requirements) is about 1.5 s of
every `hrc run`; the checked cases of a file depend only on the file's text, where it sits,
and the kit that checks it. An entry is keyed by all of these:

- the file's text (SHA-256), its reported name, its stage, its profile and its spec folder;
- a fingerprint of the kit: every source file of `conformance/` and `reference/`, every schema,
  every file of the spec folder the case file is checked against, and the versions of Python,
  PyYAML and jsonschema.

Any change to any of them misses the cache, and only files that loaded without error are
stored, so a cached load is the load the kit would do now. Nothing is read or written when
`HRC_NO_CACHE` is set to a non-empty value; the folder is `HRC_CACHE_DIR`, else
`$XDG_CACHE_HOME/hrc`, else `~/.cache/hrc`. A cache that cannot be read or written is ignored:
the cache only ever saves time.

The folder is not trusted (a shared or restored CI cache writes it too, issue 29): an entry is
read only when it is a regular file (never through a link) of at most MAX_ENTRY_BYTES, and is
used only when it is strict JSON that names its key, the SHA-256 of the exact case-file text
and the SHA-256 of its own cases, all matching, and every record passes the caller's check.
Anything doubtful is a miss: the file is parsed again and the entry rewritten.

Those bindings are hashes of public inputs, so whoever can write the folder could compute them
for a forged entry (issue 39): every entry also carries an HMAC-SHA256 of its bindings under a
secret key kept outside the folder (PROTO-52), `HRC_CACHE_KEY` if set, else
`$XDG_CONFIG_HOME/hrc/cache-key`, else `~/.config/hrc/cache-key`: 32 random bytes, created
0600 on first use. The cache trusts that file alone: a key that is a link, not ours, readable
or writable by others, or inside the cache folder turns the cache off (every load parses).
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import json
import os
import stat
import sys
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

from conformance.common import atomic_write

#: Bump when the stored form of a case changes.
FORMAT = 3
#: Bytes of the secret key that signs entries (PROTO-52).
KEY_BYTES = 32
#: The largest entry read: a case file's cases take a few times its text (MAX_CASE_FILE_BYTES).
MAX_ENTRY_BYTES = 64 * 1024 * 1024
#: Entries kept; past this, the oldest half is removed when a new entry is written.
MAX_ENTRIES = 4000

_PACKAGE_ROOT = Path(__file__).resolve().parent.parent.parent


def cache_dir() -> Path | None:
    """Where entries live, or None when caching is off (HRC_NO_CACHE)."""
    if os.environ.get("HRC_NO_CACHE"):
        return None
    explicit = os.environ.get("HRC_CACHE_DIR")
    if explicit:
        return Path(explicit) / "cases"
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "hrc" / "cases"


def key_path() -> Path:
    """Where the secret key of the cache lives (outside the cache folder, PROTO-52)."""
    explicit = os.environ.get("HRC_CACHE_KEY")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "hrc" / "cache-key"


def _read_key(path: Path) -> bytes | None:
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    try:
        fd = os.open(path, flags)
    except OSError:
        return None
    try:
        info = os.fstat(fd)
        if (not stat.S_ISREG(info.st_mode) or info.st_mode & 0o077
                or (hasattr(os, "getuid") and info.st_uid != os.getuid())):
            return None
        data = os.read(fd, KEY_BYTES + 1)
    except OSError:
        return None
    finally:
        os.close(fd)
    return data if len(data) == KEY_BYTES else None


def secret_key(folder: Path) -> bytes | None:
    """The key that signs the entries of `folder`, created 0600 on first use; None (no
    caching) when it cannot be had or is not kept apart from the folder."""
    path = key_path()
    try:
        where = path.parent.resolve()
        inside = folder.resolve()
    except OSError:
        return None
    if where == inside or inside in where.parents:
        return None
    key = _read_key(path)
    if key is not None:
        return key
    try:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        tmp = path.parent / f".{path.name}.{os.urandom(4).hex()}.tmp"
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0),
                     0o600)
        try:
            os.write(fd, os.urandom(KEY_BYTES))
            os.fsync(fd)
        finally:
            os.close(fd)
        try:
            os.link(tmp, path)  # never replaces a key another process made meanwhile
        except FileExistsError:
            pass
        finally:
            tmp.unlink(missing_ok=True)
    except OSError:
        return None
    return _read_key(path)


def entry_mac(secret: bytes, key: str, text_sha: str, digest: str) -> str:
    """HMAC-SHA256 of an entry's bindings under the secret key."""
    message = f"hrc-case-cache:{FORMAT}\0{key}\0{text_sha}\0{digest}".encode("ascii")
    return hmac.new(secret, message, hashlib.sha256).hexdigest()


def _hash_tree(digest: Any, folder: Path, suffixes: tuple[str, ...] | None) -> None:
    if not folder.is_dir():
        digest.update(f"missing:{folder}\n".encode())
        return
    for path in sorted(folder.rglob("*")):
        if not path.is_file() or "__pycache__" in path.parts:
            continue
        if suffixes is not None and path.suffix not in suffixes:
            continue
        digest.update(f"{path.relative_to(folder).as_posix()}\n".encode())
        digest.update(hashlib.sha256(path.read_bytes()).digest())


def _installed_version(package: str, module: str) -> str:
    """The installed version of distribution `package` (import name `module`), or "absent".

    Read from the `NAME-VERSION.dist-info` folder beside the module, which is what
    importlib.metadata reads too, without importing it or scanning every path entry (issue 40:
    that import was a tenth of `hrc list`); importlib.metadata answers whenever the folder is
    not found there."""
    import importlib.util

    spec = importlib.util.find_spec(module)
    if spec is None:
        return "absent"
    if spec.origin:
        site = Path(spec.origin).parent.parent
        prefix = package.lower().replace("-", "_") + "-"
        with contextlib.suppress(OSError):
            for name in os.listdir(site):
                if name.lower().startswith(prefix) and name.endswith(".dist-info"):
                    return name[len(prefix):-len(".dist-info")]
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(package)
    except PackageNotFoundError:
        return "absent"


@cache
def kit_fingerprint(spec_dir: Path) -> str:
    """SHA-256 of the code, schemas and spec a case file is checked with (memoised)."""
    from reference.data import kit_root

    digest = hashlib.sha256(f"hrc-case-cache:{FORMAT}\n{sys.version}\n".encode())
    for package, module in (("PyYAML", "yaml"), ("jsonschema", "jsonschema")):
        digest.update(f"{package} {_installed_version(package, module)}\n".encode())
    for name in ("conformance", "reference"):
        _hash_tree(digest, _PACKAGE_ROOT / name, (".py",))
    _hash_tree(digest, kit_root() / "schemas", None)
    digest.update(f"spec:{spec_dir.resolve()}\n".encode())
    _hash_tree(digest, spec_dir, None)
    return digest.hexdigest()


def entry_key(text: str, rel: str, stage: str, profile: str | None, spec_dir: Path) -> str:
    """The key of one case file's load: its text, its place and the kit's fingerprint."""
    digest = hashlib.sha256()
    for part in (kit_fingerprint(spec_dir), rel, stage, profile or "", str(spec_dir.resolve())):
        digest.update(part.encode("utf-8", "surrogatepass") + b"\0")
    digest.update(hashlib.sha256(text.encode("utf-8", "surrogatepass")).digest())
    return digest.hexdigest()


def _sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def cases_digest(cases: Any) -> str:
    """SHA-256 of the canonical JSON of an entry's cases (its content digest)."""
    canonical = json.dumps(cases, ensure_ascii=True, sort_keys=True, separators=(",", ":"))
    return _sha256(canonical)


def read_entry(path: Path) -> bytes | None:
    """The bytes of a regular file of at most MAX_ENTRY_BYTES at `path`, never through a link
    and never blocking (a FIFO or device is refused before it is read); None otherwise."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    try:
        if path.is_symlink():
            return None
        fd = os.open(path, flags)
    except OSError:
        return None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_ENTRY_BYTES:
            return None
        with os.fdopen(fd, "rb", closefd=False) as fh:
            data = fh.read(MAX_ENTRY_BYTES + 1)
        return data if len(data) <= MAX_ENTRY_BYTES else None
    except OSError:
        return None
    finally:
        os.close(fd)


def _verified(
    data: bytes, key: str, text: str, check: Callable[[list[Any]], bool], secret: bytes
) -> list[dict[str, Any]] | None:
    """The entry's cases when every binding holds (key, text, own digest, the MAC over them,
    records), else None."""
    from conformance.common.strict_json import loads_strict

    try:
        stored = loads_strict(data.decode("utf-8"))
    except (ValueError, RecursionError):
        return None
    fields = {"format", "key", "text", "digest", "mac", "cases"}
    if not isinstance(stored, dict) or set(stored) != fields:
        return None
    cases = stored["cases"]
    bound = (
        stored["format"] == FORMAT
        and stored["key"] == key
        and stored["text"] == _sha256(text)
        and isinstance(cases, list)
        and stored["digest"] == cases_digest(cases)
        and isinstance(stored["mac"], str)
        and hmac.compare_digest(stored["mac"],
                                entry_mac(secret, key, stored["text"], stored["digest"]))
    )
    if not bound or not check(cases):
        return None
    verified: list[dict[str, Any]] = cases
    return verified


def cached(
    key: str,
    text: str,
    load: Callable[[], list[dict[str, Any]]],
    check: Callable[[list[Any]], bool],
) -> list[dict[str, Any]]:
    """The stored cases of `key`, else `load()` (stored for next time). `text` is the case
    file's exact text and `check` accepts a stored list of records; an entry that fails either
    is a miss. `load` may raise; nothing is stored then."""
    folder = cache_dir()
    secret = _secret_for(folder) if folder is not None else None
    if folder is None or secret is None:
        return load()
    path = folder / f"{key}.json"
    data = read_entry(path)
    if data is not None:
        value = _verified(data, key, text, check, secret)
        if value is not None:
            return value
    value = load()
    text_sha, digest = _sha256(text), cases_digest(value)
    _store(
        folder,
        path,
        {
            "format": FORMAT,
            "key": key,
            "text": text_sha,
            "digest": digest,
            "mac": entry_mac(secret, key, text_sha, digest),
            "cases": value,
        },
    )
    return value


_secrets: dict[tuple[Path, Path], bytes | None] = {}


def _secret_for(folder: Path) -> bytes | None:
    """secret_key(folder), looked up once per process per key file and folder."""
    where = (key_path(), folder)
    if where not in _secrets:
        _secrets[where] = secret_key(folder)
    return _secrets[where]


def _store(folder: Path, path: Path, payload: dict[str, Any]) -> None:
    try:
        folder.mkdir(parents=True, exist_ok=True)
        _prune(folder)
        # PROTO-49: no 0-byte temporary is left on a full disk
        with atomic_write.open_text(path, replace=True) as out:
            json.dump(payload, out, ensure_ascii=True, allow_nan=False)
    except (OSError, ValueError):
        pass  # a cache that cannot be written only costs time


_pruned: set[Path] = set()


def _prune(folder: Path) -> None:
    """Keep the folder under MAX_ENTRIES; looked at once per process, not once per entry."""
    if folder in _pruned:
        return
    _pruned.add(folder)
    entries = list(folder.glob("*.json"))
    if len(entries) < MAX_ENTRIES:
        return
    entries.sort(key=lambda p: p.stat().st_mtime)
    for old in entries[: len(entries) // 2]:
        old.unlink(missing_ok=True)
