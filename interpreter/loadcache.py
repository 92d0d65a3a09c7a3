"""What loading an unchanged rule file again may skip: a cache on disk, exact by construction.

Loading a rule file parses every DSL string twice (the compiler, then the information-flow
check), checks every file against the JSON Schema and runs the information-flow check. For the
same bytes, read by the same engine, all three give the same answer every time, so a load
records them in `$XDG_CACHE_HOME/rulebook` (default `~/.cache/rulebook`):

* the syntax tree of every DSL string that parsed, with positions relative to the string: after
  an edit, the strings that did not change are not parsed again, wherever they moved (their
  positions are computed anew from the file as it is now, exactly as a parse would);
* that the files passed the JSON Schema (only a pass is recorded: a failing file is checked
  again, so its errors always come from the checker itself);
* that the information-flow check passed (likewise), with the warnings it gave (E246);
* the code object of every piece of generated Python, marshalled, by its source text
  (interpreter/pycode.py): the same source compiles to the same code, renamed to the rule
  position it is compiled for, so an edit elsewhere does not make it stale. A load for checking
  only (`rulebook validate`) compiles nothing it does not run: it keeps the code the last load
  that compiled left (see keep_codes), so a later play still finds it.

The trees are kept under a hash of the engine's own source (every file of the `interpreter`
package, the grammar, the schemas), the versions of Python and of the packages installed beside
Lark, PyYAML and jsonschema, and the limits set with `--limit`; the two verdicts under that hash
and every file of the load (its name as shown in messages and its bytes). Any change to any of
them is a different key, so a stale answer cannot be used. One cache file per rule file (named
by the files' paths), rewritten with only the trees and code the last load used: the folder does not grow
with edits. Set `RULEBOOK_CACHE=0` to load without it (nothing read, nothing written); an
unreadable or damaged cache file is ignored and rewritten. The files are zlib-compressed pickles
(about a quarter of their raw size; a few ms to unpack), read only from the user's own cache
folder (created private, mode 700).

Everything else (building the game, static checks, code generation) runs in every load.
Marshalled code is only valid for the Python that wrote it: the key holds Python's version.
"""
from __future__ import annotations

import hashlib
import os
import pickle
import sys
import zlib
from functools import lru_cache
from pathlib import Path

FORMAT = 5  # bump when the layout of a cache file changes
MAX_FILES = 200  # cache files kept (the least recently written beyond that are removed)


def cache_dir() -> Path:
    """The user's cache folder for rulebook (XDG_CACHE_HOME or ~/.cache, then `rulebook`)."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "rulebook"


def enabled() -> bool:
    return os.environ.get("RULEBOOK_CACHE", "1").strip().lower() not in ("0", "no", "off", "false")


@lru_cache(maxsize=1)
def engine_fingerprint() -> str:
    """A hash of everything in the engine that can change what a load answers."""
    from .paths import grammar_path, schema_path

    h = hashlib.sha256(f"format {FORMAT} python {sys.version}".encode())
    h.update(repr(_installed_versions()).encode())
    package = Path(__file__).resolve().parent
    folders = [package, grammar_path().parent, schema_path().parent]
    for folder in folders:
        for root, dirs, names in os.walk(folder):
            dirs.sort()
            for name in sorted(names):
                if name.endswith((".py", ".lark", ".json")):
                    path = os.path.join(root, name)
                    h.update(os.path.relpath(path, folder).encode())
                    with open(path, "rb") as f:
                        h.update(f.read())
    return h.hexdigest()


def _installed_versions() -> list[str]:
    """The names (with versions) of the packages installed beside Lark, PyYAML and jsonschema:
    their `*.dist-info` folders, read without importing anything (importlib.metadata alone
    would cost a quarter of a cold `rulebook validate`)."""
    from importlib.util import find_spec

    names: set[str] = set()
    for module in ("lark", "yaml", "jsonschema"):
        try:
            spec = find_spec(module)
        except (ImportError, ValueError):
            spec = None
        if spec is None or not spec.origin:
            names.add(f"{module}: absent")
            continue
        folder = os.path.dirname(os.path.dirname(spec.origin))
        try:
            names.update(n for n in os.listdir(folder) if n.endswith(".dist-info"))
        except OSError:
            names.add(f"{module}: {spec.origin}")
    return sorted(names)


class _Trees(dict):
    """Trees used by this load (what is saved), taken from those of the last load when there."""

    def __init__(self, earlier: dict):
        super().__init__()
        self.earlier = earlier

    def __missing__(self, key):
        tree = self[key] = self.earlier[key]  # KeyError when never parsed
        return tree


class LoadCache:
    """The cached answers for one load (a rule file, what it extends, its variants).

    `parses` (by text and place, this load only) and `trees` (by text, kept) are handed to the
    parser (parser.memo); `schema_ok` and `flow_warnings` (None: not known to pass) are read
    before the checks and set after they pass; `save()` writes what changed."""

    def __init__(self, engine: str | None = None, key: str | None = None, path: Path | None = None):
        self.engine, self.key, self.path = engine, key, path
        self.parses: dict = {}
        self.trees = _Trees({}) if key is not None else None  # nothing to keep them for when off
        self.codes = _Trees({}) if key is not None else None  # (mode, Python source) -> marshalled code
        self.schema_ok = False
        self.flow_warnings: list | None = None  # the flow check's warnings, when it passed
        self._verdicts = self._verdict()

    @classmethod
    def open(cls, files: list[tuple[str, Path]]) -> "LoadCache":
        """The cache for a load of these files, given as (name shown in messages, path). A
        cache with no key (nothing read or written) when the cache is off or a file is gone."""
        if not enabled():
            return cls()
        from .budget import cli_limits

        engine = hashlib.sha256(engine_fingerprint().encode())
        engine.update(repr(sorted(cli_limits().items())).encode())
        h = hashlib.sha256(engine.hexdigest().encode())
        where = hashlib.sha256()
        try:
            for shown, path in files:
                data = Path(path).read_bytes()
                for part in (shown.encode(), str(path).encode(), data):
                    h.update(len(part).to_bytes(8, "little"))
                    h.update(part)
                where.update(f"{shown}\0{path}\0".encode())
        except OSError:
            return cls()
        cache = cls(engine.hexdigest(), h.hexdigest(), cache_dir() / f"load-{where.hexdigest()[:24]}.pickle")
        cache._read()
        return cache

    def _read(self) -> None:
        try:
            data = read_cache_file(self.path)
        except Exception:  # noqa: BLE001 - absent, unreadable or damaged: start empty
            return
        if not isinstance(data, dict) or data.get("engine") != self.engine:
            return
        self.trees = _Trees(data.get("trees") or {})
        self.codes = _Trees(data.get("codes") or {})
        if data.get("key") == self.key:
            self.schema_ok = bool(data.get("schema_ok"))
            self.flow_warnings = _warnings_from(data.get("flow_warnings"))
        self._verdicts = self._verdict()

    def keep_codes(self) -> None:
        """Keep every code object of the last load, used by this load or not (a load that
        compiles only what it runs must not forget the rest)."""
        if self.codes is not None:
            self.codes.update(self.codes.earlier)

    def _verdict(self) -> tuple:
        warnings = self.flow_warnings
        return (self.schema_ok, None if warnings is None else [(w.message, w.pos, w.code) for w in warnings])

    def save(self) -> None:
        """Write the cache file if anything was learnt (atomically; silently not at all when the
        folder cannot be written)."""
        if self.key is None:
            return
        if (self._verdict() == self._verdicts and self.trees.keys() == self.trees.earlier.keys()
                and self.codes.keys() == self.codes.earlier.keys()):
            return
        data = {"engine": self.engine, "key": self.key, "schema_ok": self.schema_ok,
                "flow_warnings": self._verdict()[1], "trees": dict(self.trees), "codes": dict(self.codes)}
        if not write_private(self.path, encode_cache_file(data)):
            return
        self._verdicts = self._verdict()
        self.trees.earlier = dict(self.trees)
        self.codes.earlier = dict(self.codes)
        prune(self.path.parent, "load-")


def write_private(path: Path, data: bytes) -> bool:
    """Write a cache file atomically in a folder only the user can read; False (nothing written)
    when the folder cannot be written: a cache that cannot be kept is only slower next time."""
    import tempfile

    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)  # pickles and code: the user's alone
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(data)
            os.replace(tmp, path)
        except BaseException:
            os.unlink(tmp)
            raise
    except Exception:  # noqa: BLE001
        return False
    return True


def encode_cache_file(data: dict) -> bytes:
    """The bytes of a cache file: a pickle, compressed (level 1: fast, ~4x smaller)."""
    return zlib.compress(pickle.dumps(data, protocol=pickle.HIGHEST_PROTOCOL), 1)


def read_cache_file(path: Path) -> object:
    """What a cache file holds (raises on an absent, unreadable or damaged file)."""
    return pickle.loads(zlib.decompress(Path(path).read_bytes()))


def _warnings_from(saved: object) -> list | None:
    from .errors import RuleError

    if not isinstance(saved, list):
        return None
    return [RuleError(message, pos, code) for message, pos, code in saved]


def prune(folder: Path, prefix: str, keep: int | None = None) -> None:
    """Keep the `keep` (default MAX_FILES) most recently written cache files whose names start
    with `prefix`."""
    keep = MAX_FILES if keep is None else keep
    try:
        files = [e for e in os.scandir(folder) if e.name.startswith(prefix)]
        if len(files) <= keep:
            return
        files.sort(key=lambda e: e.stat().st_mtime_ns, reverse=True)
        for entry in files[keep:]:
            os.unlink(entry.path)
    except OSError:
        pass
