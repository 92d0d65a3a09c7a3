#!/usr/bin/env python3
"""Write docs/builtins.md from the builtin registry (the first docstring line of each builtin).

    python tools/gen_builtins_doc.py          # rewrite docs/builtins.md
    python tools/gen_builtins_doc.py --check  # exit 1 if docs/builtins.md is out of date
"""
from __future__ import annotations

import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from interpreter.builtins import load_all  # noqa: E402

OUT = ROOT / "docs" / "builtins.md"


def render() -> str:
    by_module: dict[str, list] = defaultdict(list)
    for name, b in sorted(load_all().items()):
        by_module[b.fn.__module__.rsplit(".", 1)[-1]].append(b)
    lines = ["# Built-in functions", "",
             "Generated from the registry by `tools/gen_builtins_doc.py`; do not edit by hand.",
             "Every builtin is generic: game data (tables, zones) comes in as arguments.", ""]
    for module in sorted(by_module):
        lines += [f"## {module}", "", "| function | what it does |", "|---|---|"]
        for b in by_module[module]:
            doc = (b.fn.__doc__ or "").strip().replace("\n", " ")
            doc = " ".join(doc.split()).replace("|", "\\|")
            lines.append(f"| `{b.name}` | {doc} |")
        lines.append("")
    return "\n".join(lines)


def main() -> int:
    text = render()
    if "--check" in sys.argv:
        if not OUT.exists() or OUT.read_text(encoding="utf-8") != text:
            print("docs/builtins.md is out of date: run python tools/gen_builtins_doc.py", file=sys.stderr)
            return 1
        return 0
    OUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
