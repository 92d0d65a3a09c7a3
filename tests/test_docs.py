"""Docs that are generated from code stay in step with it."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_builtins_reference_is_up_to_date():
    result = subprocess.run([sys.executable, str(ROOT / "tools" / "gen_builtins_doc.py"), "--check"],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
