"""Small readings of generated Python's syntax trees (the `ast` module), shared by the passes
that check generated code before rewriting it (block_loops.py, grid_memo.py,
distinct_options.py)."""
from __future__ import annotations

import ast as pyast


def parents_of(tree: pyast.AST) -> dict:
    """Each node under `tree` -> the node it lies directly in."""
    return {child: node for node in pyast.walk(tree) for child in pyast.iter_child_nodes(node)}
