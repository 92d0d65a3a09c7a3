"""A simultaneous block whose one decision is asked in a loop (a choice of several: one pick per
pass of the loop), written without a generator.

What runtime._simultaneous does with such a block (blocks.py) is: for each player in turn, the
block up to its first decision; then rounds, each waiting player in seat order deciding and its
block running on to its next decision or its end. From one decision of a player to its next, its block
runs the rest of the loop's body, the loop's test and the body up to the decision again. This
writes those same pieces of the block's code in that same order as plain loops: each waiting
player's locals kept in a tuple between its turns (the generator's frame, in effect), the
decision asked as `_simultaneous` asks it (agents[p](options), then history). The code runs in
the engine's order exactly, so what the blocks do to each other's state is what they did.

The block's generated lines are read with Python's own parser (the `ast` module): the loop is a
`while` holding the decision's `i = yield p, options` at the top of its body, inside `if`s only
(no other loop, no `try`); a `continue` of that loop, or a `break` of it before the decision, sends
the block back to the generator (None)."""
from __future__ import annotations

import ast as pyast
from typing import Callable

from .pytrees import parents_of

_OUTSIDE = (pyast.For, pyast.While, pyast.AsyncFor, pyast.FunctionDef, pyast.AsyncFunctionDef,
            pyast.ClassDef, pyast.Lambda)
_COMPREHENSIONS = (pyast.ListComp, pyast.SetComp, pyast.DictComp, pyast.GeneratorExp)
_REFUSED = (pyast.FunctionDef, pyast.AsyncFunctionDef, pyast.ClassDef, pyast.Global, pyast.Nonlocal,
            pyast.Return, pyast.YieldFrom, pyast.Await)


def loop_rounds(lines: list[str], depth: int, var: str, top: set, fresh: Callable[[str], str]) -> list[str] | None:
    """The code for a block over the seats in order (`for var in _PLAYERS`) whose lines are
    `lines` (its body after `var = player_arg`, indented for depth + 1), written at `depth`; None
    when the block is not of the form above. `top`: play()'s own names (shared by the blocks)."""
    pad = "    " * (depth + 1)
    if not lines or any(not line.startswith(pad) or "\n" in line for line in lines):
        return None
    text = "\n".join(line[len(pad):] for line in lines)
    try:
        tree = pyast.parse(text)
    except SyntaxError:
        return None
    found = _the_loop(tree, var)
    if found is None:
        return None
    loop, at, index, options, chain = found
    pre, post = loop.body[:at], loop.body[at + 1:]
    if _jumps(pre, (pyast.Break, pyast.Continue)) or _jumps(post, (pyast.Continue,)):
        return None
    src = text.split("\n")
    try:
        return _written(src, text, loop, at, index, options, chain, depth, var,
                        sorted(_stored(tree) - top - {var, options, index}), fresh)
    except ValueError:  # a line indented less than its statement: not as the generator writes
        return None


def _written(src, text, loop, at, index, options, chain, depth, var, kept, fresh) -> list[str] | None:
    """loop_rounds' code (see there), `kept` the block's own locals."""
    pre, post = loop.body[:at], loop.body[at + 1:]
    state = ", ".join([var, options] + kept)
    cond = pyast.get_source_segment(text, loop.test)
    if not cond:
        return None
    waiting, following, paused = fresh("waiting"), fresh("following"), fresh("paused")
    out = [f"{waiting} = []", f"for {var} in _PLAYERS:"]
    if kept:  # bound as the generator's fresh frame leaves them (the code never reads them first)
        out.append(f"    {' = '.join(kept)} = None")
    # the first pass: the block up to its first decision, the loop's `while` as an `if` whose
    # body ends by keeping the player's locals; the loop not entered, the block runs on to its end
    indent = " " * loop.col_offset
    first = (src[:loop.lineno - 1] + [f"{indent}if {cond}:"] + _lines(src, pre, 0)
             + [f"{indent}    {waiting}.append(({state},))", f"{indent}    continue"] + src[loop.end_lineno:])
    out += ["    " + line for line in first]
    out += [f"while {waiting}:", f"    {following} = []", f"    for {state}, in {waiting}:",
            f"        {index} = agents[{var}]({options})", f"        history.append([{var}, {index}])",
            f"        {paused} = False", "        while True:"]
    out += ["            " + line for line in _lines(src, post, post[0].col_offset if post else 0)]
    out += [f"            if not ({cond}):", "                break"]
    out += ["            " + line for line in _lines(src, pre, pre[0].col_offset if pre else 0)]
    out += [f"            {following}.append(({state},))", f"            {paused} = True", "            break"]
    rest = [stmts for stmts in chain if stmts]
    if rest:
        out.append(f"        if not {paused}:")
        for stmts in rest:  # what runs once the loop ends: the rest of each suite around it
            out += ["            " + line for line in _lines(src, stmts, stmts[0].col_offset)]
    out.append(f"    {waiting} = {following}")
    return ["    " * depth + line for line in out]


def _the_loop(tree: pyast.Module, var: str):
    """(the while loop, the decision's place in its body, the index and options names, the
    statements after the loop in each suite around it, innermost first), or None."""
    yields = [n for n in pyast.walk(tree) if isinstance(n, (pyast.Yield, pyast.YieldFrom))]
    if len(yields) != 1 or any(isinstance(n, _REFUSED) for n in pyast.walk(tree)):
        return None
    parents = parents_of(tree)
    ask = parents.get(yields[0])
    if not (isinstance(ask, pyast.Assign) and len(ask.targets) == 1 and isinstance(ask.targets[0], pyast.Name)):
        return None
    asked = yields[0].value
    if not (isinstance(asked, pyast.Tuple) and len(asked.elts) == 2
            and all(isinstance(e, pyast.Name) for e in asked.elts) and asked.elts[0].id == var):
        return None
    loop = parents.get(ask)
    if not isinstance(loop, pyast.While) or loop.orelse or ask not in loop.body:
        return None
    chain, node = [], loop
    while not isinstance(node, pyast.Module):
        holder = parents[node]
        if not isinstance(holder, (pyast.If, pyast.Module)):
            return None
        suite = next(s for s in (holder.body, getattr(holder, "orelse", [])) if node in s)
        chain.append(suite[suite.index(node) + 1:])
        node = holder
    return loop, loop.body.index(ask), ask.targets[0].id, asked.elts[1].id, chain


def _jumps(stmts: list, kinds: tuple) -> bool:
    """Whether a statement of `kinds` (break, continue) of the loop holding `stmts` is among them
    (not counting those of loops inside)."""
    todo = list(stmts)
    while todo:
        node = todo.pop()
        if isinstance(node, kinds):
            return True
        if not isinstance(node, _OUTSIDE):
            todo.extend(pyast.iter_child_nodes(node))
    return False


def _stored(tree: pyast.Module) -> set:
    """Every name the block's code binds (assignments, loop targets, `:=`, `except … as`; not
    the variables of comprehensions, which are theirs)."""
    out, todo = set(), [(tree, False)]
    while todo:
        node, within = todo.pop()
        if isinstance(node, pyast.NamedExpr):
            out.add(node.target.id)
        elif isinstance(node, pyast.Name) and isinstance(node.ctx, pyast.Store) and not within:
            out.add(node.id)
        elif isinstance(node, pyast.ExceptHandler) and node.name:
            out.add(node.name)
        within = within or isinstance(node, _COMPREHENSIONS)
        todo.extend((child, within) for child in pyast.iter_child_nodes(node))
    return out


def _lines(src: list[str], stmts: list, col: int) -> list[str]:
    """The source lines of consecutive statements, `col` characters of indentation taken off."""
    if not stmts:
        return []
    out = []
    for line in src[stmts[0].lineno - 1:stmts[-1].end_lineno]:
        if line[:col].strip():
            raise ValueError("a line indented less than its statement")
        out.append(line[col:])
    return out
