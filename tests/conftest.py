"""pytest setup: the --slow switch, and YAML scenario files collected as tests."""
from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def pytest_addoption(parser):
    parser.addoption("--slow", action="store_true", default=False,
                     help="run the long conformance suite (hundreds of games per configuration)")


def pytest_collection_modifyitems(config, items):
    """Without --slow, long runs are left out (deselected, counted in the summary) rather than
    reported as hundreds of skips."""
    if config.getoption("--slow"):
        return
    slow = [item for item in items if "slow" in item.keywords]
    if slow:
        config.hook.pytest_deselected(items=slow)
        items[:] = [item for item in items if "slow" not in item.keywords]
        config._rulebook_slow = len(slow)


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    left_out = getattr(config, "_rulebook_slow", 0)
    if left_out:
        terminalreporter.write_line(f"{left_out} long-running tests were left out (deselected): "
                                    "run `pytest --slow` to include them")


@pytest.fixture(autouse=True, scope="session")
def _own_cache_folder(tmp_path_factory):
    """The suite loads hundreds of throw-away rule files: their load-cache entries
    (interpreter/loadcache.py) go to a folder of this session, not the user's ~/.cache."""
    import os
    previous = os.environ.get("XDG_CACHE_HOME")
    os.environ["XDG_CACHE_HOME"] = str(tmp_path_factory.mktemp("xdg-cache"))
    yield
    if previous is None:
        os.environ.pop("XDG_CACHE_HOME", None)
    else:
        os.environ["XDG_CACHE_HOME"] = previous
