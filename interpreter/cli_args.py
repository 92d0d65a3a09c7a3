"""Command-line values shared by several commands: `KEY=VALUE` pairs (--option)."""
from __future__ import annotations

from typing import Iterable

import click


def parse_key_values(pairs: Iterable[str], flag: str = "--option") -> dict[str, str]:
    """`["a=1", "b = x"]` → `{"a": "1", "b": "x"}`; anything without `=` is a usage error."""
    out = {}
    for pair in pairs:
        if "=" not in pair:
            raise click.UsageError(f"{flag} expects KEY=VALUE, got {pair!r}")
        key, value = pair.split("=", 1)
        out[key.strip()] = value.strip()
    return out
