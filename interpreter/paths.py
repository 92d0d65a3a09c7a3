"""Where the grammar and the schema live (repository checkout or installed package)."""
from __future__ import annotations

from importlib import resources
from pathlib import Path

_REPO = Path(__file__).resolve().parent.parent


def _find(folder: str, package: str, name: str) -> Path:
    local = _REPO / folder / name
    if local.exists():
        return local
    try:  # installed without the repository (pip install .)
        return Path(str(resources.files(package) / name))
    except ModuleNotFoundError:  # pragma: no cover
        return local


def grammar_path() -> Path:
    return _find("grammar", "rulebook_grammar", "rulebook.lark")


def schema_path(name: str = "rulebook.schema.json") -> Path:
    return _find("schema", "rulebook_schema", name)


def repo_root() -> Path:
    return _REPO
