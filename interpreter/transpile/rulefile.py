"""A rule file as the generator reads it: the checked GameDef, the statement tree of every
procedure (main with the setup and the flow, turns, actions, procedures), the bodies of
expression functions, and the merged document (for what only the document says, e.g. a
counter's `initial` text)."""
from __future__ import annotations

from pathlib import Path
from typing import Iterable

from .. import ast
from ..loader import load_with_trees
from ..model import GameDef


class RuleFile:
    """One rule file (plus variant overlays) loaded with its trees."""

    def __init__(self, path: str | Path, variants: Iterable[str | Path] = ()):
        self.path = str(path)
        self.doc, self.game, builder = load_with_trees(path, variants)
        self.procs: dict[str, list] = builder.compiler.asts
        self.fn_nodes: dict[str, ast.Node] = dict(builder.compiler.gen.fn_nodes)
        self.parse_expr = builder.parse_expr_node
