"""Finding rule files and scenario files on disk (validate, test, the conformance harness)."""
from __future__ import annotations

from pathlib import Path
from typing import Callable


def is_rule_file(path: Path) -> bool:
    """A YAML file whose top level has `game:` or `extends:` (scenario files have `scenarios:`)."""
    if path.suffix not in (".yaml", ".yml"):
        return False
    try:
        text = path.read_text(encoding="utf-8")
    except OSError:
        return False
    lines = [line for line in text.splitlines() if line and not line.startswith((" ", "#", "\t", "-"))]
    keys = {line.split(":", 1)[0].strip() for line in lines}
    return ("game" in keys or "extends" in keys) and "scenarios" not in keys


def is_scenario_file(path: Path) -> bool:
    """A YAML file with a top-level `scenarios:` key."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError:
        return False
    return "\nscenarios:" in text or text.startswith("scenarios:")


def find_files(paths: list[str], keep: Callable[[Path], bool]) -> list[Path]:
    """Files named in `paths`, and the YAML files below the folders there that `keep` accepts."""
    out: list[Path] = []
    for p in paths:
        path = Path(p)
        if path.is_dir():
            out.extend(sorted(f for f in path.rglob("*.y*ml") if keep(f)))
        else:
            out.append(path)
    return out


def find_rule_files(paths: list[str]) -> list[Path]:
    return find_files(paths, is_rule_file)


def find_scenario_files(paths: list[str]) -> list[Path]:
    return find_files(paths, is_scenario_file)


def game_entry_files(root: Path) -> list[Path]:
    """Playable rule files under rules/: each game's game.yaml and its expansions (not variants)."""
    return sorted(f for f in root.rglob("*.yaml")
                  if is_rule_file(f) and "variants" not in f.parts and "tests" not in f.parts)


def variant_files(game_file: Path) -> list[Path]:
    folder = game_file.parent / "variants"
    return sorted(f for f in folder.glob("*.yaml") if is_rule_file(f)) if folder.is_dir() else []
