"""pytest setup: the --slow switch, and YAML scenario files collected as tests."""
from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def pytest_addoption(parser):
    parser.addoption("--slow", action="store_true", default=False,
                     help="run the long conformance suite (hundreds of games per configuration)")


def pytest_collection_modifyitems(config, items):
    if config.getoption("--slow"):
        return
    skip = pytest.mark.skip(reason="long run: use --slow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)
