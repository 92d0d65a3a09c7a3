"""Shared by the lab tests: fixture paths and running the command line in-process."""
from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from interpreter.cli import main

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = Path(__file__).resolve().parent / "fixtures"
COIN = str(FIXTURES / "coin.yaml")
NOOP = str(FIXTURES / "variants" / "noop.yaml")
LOADED = str(FIXTURES / "variants" / "loaded.yaml")
FAILING = str(FIXTURES / "failing.yaml")
TIC_TAC_TOE = str(ROOT / "rules" / "tic_tac_toe" / "game.yaml")


def run(*args: str):
    result = CliRunner().invoke(main, [str(a) for a in args])
    assert "Traceback" not in (result.stdout + (result.stderr or "")), result.stdout + result.stderr
    return result


def run_json(*args: str) -> tuple[int, dict]:
    result = run(*args, "--json")
    return result.exit_code, json.loads(result.stdout)


TIMING = ("games_per_second", "seconds", "execution", "execution_why")  # auto's form: by the engine's speed


def without_timing(data: dict) -> dict:
    return {k: v for k, v in data.items() if k not in TIMING + ("backend", "workers")}
