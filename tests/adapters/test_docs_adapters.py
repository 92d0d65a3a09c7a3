"""docs/adapters.md: each ```python example runs from the repository's root and prints exactly
the ```text block that follows it (blocks are read with tools/doc_examples.py's parser)."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("pyspiel", reason="the adapters need the rl extra: pip install -e '.[rl]'")
pytest.importorskip("pettingzoo", reason="the adapters need the rl extra: pip install -e '.[rl]'")

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "adapters.md"
sys.path.insert(0, str(ROOT / "tools"))
import doc_examples  # noqa: E402  (from tools/, put on the path just above)


def _examples() -> list:
    found = doc_examples.blocks(DOC.read_text(encoding="utf-8").splitlines())
    pairs = []
    for i, block in enumerate(found):
        if block.kind == "python":
            after = found[i + 1] if i + 1 < len(found) else None
            assert after is not None and after.kind == "text", (
                f"adapters.md:{block.line}: a python example needs a ```text block (its output) after it")
            pairs.append(pytest.param(block, after, id=f"line{block.line}"))
    return pairs


EXAMPLES = _examples()


def test_the_guide_has_its_examples():
    assert len(EXAMPLES) == 5  # CFR on Kuhn, the declared type, resampling, a rollout, a training loop


@pytest.mark.parametrize("code,output", EXAMPLES)
def test_example_prints_what_the_guide_says(code, output):
    env = dict(os.environ, PYTHONPATH=str(ROOT), PYTHONHASHSEED="0")
    result = subprocess.run([sys.executable, "-c", "\n".join(code.lines)], cwd=ROOT, env=env,
                            capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr
    assert result.stdout.rstrip("\n").splitlines() == output.lines
