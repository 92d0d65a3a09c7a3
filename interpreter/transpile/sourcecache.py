"""Generated programs kept on disk: the second `rulebook simulate` of a configuration does not
generate its program again (generating is 78–95 % of what choosing the generated program costs
a run: docs/benchmarks.md, "Stop 27").

One JSON file per configuration (entry file, variants, player count, options) in the load
cache's folder (loadcache.cache_dir(), private), under `transpiled/`. It holds the engine's
fingerprint (every source file of the interpreter, Python's version: loadcache.engine_fingerprint),
every rule file the generator read with the SHA-256 of its bytes, and either the program's
source or the generator's refusal. An entry is used only when the fingerprint and every file's
bytes are what they were, so a stale program cannot be run. `RULEBOOK_CACHE=0` turns it off, as
it does the load cache; a damaged or unwritable entry only costs a generation."""
from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Callable

from .. import loadcache
from .base import Unsupported

MAX_FILES = 200  # entries kept (the least recently written beyond that are removed)


def source(entry: str | Path, variants: list, players: int, options: dict,
           generate: Callable[[], tuple[str, list[str]]]) -> str:
    """The program's source for the configuration: the kept one if still exact, else
    `generate()` -> (source, the rule files it read), kept for next time. An Unsupported raised
    by `generate` is kept too, and raised again."""
    if not loadcache.enabled():
        return generate()[0]
    path = _entry_path(entry, variants, players, options)
    kept = _read(path)
    if kept is not None:
        if "refused" in kept:
            raise Unsupported(kept["refused"], kept.get("pos"))
        return kept["source"]
    try:
        text, files = generate()
    except Unsupported as exc:
        files = [str(Path(entry).resolve())] + [str(Path(v).resolve()) for v in variants]
        _write(path, {"refused": exc.what, "pos": str(exc.pos) if exc.pos else None}, files)
        raise
    _write(path, {"source": text}, files)
    return text


def _entry_path(entry: str | Path, variants: list, players: int, options: dict) -> Path:
    key = json.dumps([str(Path(entry).resolve()), [str(Path(v).resolve()) for v in variants], players,
                      sorted(options.items(), key=str)], default=str)
    name = hashlib.sha256(key.encode()).hexdigest()[:32]
    return loadcache.cache_dir() / "transpiled" / f"program-{name}.json"


def _digest(file: str) -> str | None:
    try:
        return hashlib.sha256(Path(file).read_bytes()).hexdigest()
    except OSError:
        return None


def _read(path: Path) -> dict | None:
    """The kept entry if the engine and every file it names are unchanged."""
    try:
        kept = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(kept, dict) or kept.get("engine") != loadcache.engine_fingerprint():
        return None
    files = kept.get("files")
    if not isinstance(files, list) or any(_digest(f) != digest for f, digest in files):
        return None
    return kept


def _write(path: Path, body: dict, files: list[str]) -> None:
    """Keep an entry (silently not at all when the folder cannot be written)."""
    data = {"engine": loadcache.engine_fingerprint(), "files": [[f, _digest(f)] for f in files], **body}
    if loadcache.write_private(path, json.dumps(data).encode("utf-8")):
        loadcache.prune(path.parent, "program-", MAX_FILES)
