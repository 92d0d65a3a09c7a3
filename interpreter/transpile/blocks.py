"""`simultaneous p in …:` as the engine runs it (compiler.s_Simultaneous, vm.run): one thread
per player, each run up to its first decision in the order the players are given, then the
decisions in passes, each waiting player once per pass in seat order (State.current_players, as
simulate's loop asks them). A block with decisions is written as a generator that yields
(chooser, options) at each decision and receives the index; runtime._simultaneous drives them.
A block without decisions runs player after player, as its threads would. Two forms run as
_simultaneous would, without a generator: one decision at the block's top level (two passes,
below), one decision in one loop (a choice of several: block_loops.py)."""
from __future__ import annotations

import re

from .block_loops import loop_rounds
from .procedures import ProcedureWriter


class BlockWriter(ProcedureWriter):
    """Simultaneous blocks (see the module docstring); a `return` cannot leave a block."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.in_block: str | None = None  # the generator of a simultaneous block being written
        self.decisions_written = 0

    def decide(self, options: str, who: str, depth: int) -> str:
        self.decisions_written += 1
        if self.in_block is None:
            return super().decide(options, who, depth)
        index = self.fresh("i")  # asked by _simultaneous, in the engine's order
        self.emit(depth, f"if not {options}:")
        self.emit(depth + 1, "raise RuntimeError('nothing to choose from')")
        self.emit(depth, f"{index} = yield {who}, {options}")
        return index

    def s_Simultaneous(self, n, env, depth, chooser):
        """Each player's block as a generator that yields its decisions; `_simultaneous` runs
        them as the engine's threads run: every block up to its first decision in the order
        of the players given, then the decisions in rounds, in seat order (current_players)."""
        inner, _ = self._over(n, env, False)
        if self.in_block is not None:
            raise self.unsupported("a simultaneous block inside another", n)
        outer_names = {code for code in env.values() if code.isidentifier()}
        var = self.fresh(n.var)  # first: takes the elements' kind (_over)
        block = self.fresh("block")
        self.emit(depth, f"def {block}(player_arg):")
        start = len(self.lines)
        decisions = self.decisions_written
        inner[n.var] = var
        self.emit(depth + 1, f"{var} = player_arg")
        self.in_block, returns, self.returns = block, self.returns, []
        try:
            self.body(n.body, inner, depth + 1, var)
        finally:
            self.in_block, self.returns = None, returns
        if self.decisions_written == decisions:  # no decision: the blocks run one after another
            del self.lines[start - 1:]
            self.emit(depth, f"for {var} in {inner[chr(0) + 'iter']}:")
            self.body(n.body, inner, depth + 1, var)
            return
        assigned = _assigned_names(self.lines[start:])
        # play()'s own names (state, step count: set at its top level) are the block's nonlocals
        top = _assigned_names([line for line in self.lines[:start] if line[4:5] != " " and line[:4] == "    "])
        if (assigned & outer_names) - top:  # the engine's block sets its own copy of the locals
            raise self.unsupported("a simultaneous block setting a local of the procedure around it", n)
        if self._two_passes(start, depth, var, inner[chr(0) + "iter"], top):
            return
        rounds = None
        if inner[chr(0) + "iter"] == "_PLAYERS" and self.lines[start] == "    " * (depth + 1) + f"{var} = player_arg":
            rounds = loop_rounds(self.lines[start + 1:], depth, var, top, self.fresh)
        if rounds is not None:  # one decision in one loop: plain loops (block_loops.py)
            del self.lines[start - 1:]
            self.lines.extend(rounds)
            return
        shared = sorted(assigned & top)
        if shared:
            self.lines.insert(start, "    " * (depth + 1) + f"nonlocal {', '.join(shared)}")
        self.emit(depth, f"_simultaneous({block}, {inner[chr(0) + 'iter']}, agents, history)")

    def _two_passes(self, start: int, depth: int, var: str, seq: str, top: set) -> bool:
        """A block over the players with one decision, asked of its own player at the block's top
        level (not inside an `if` or a loop), written without a generator: what `_simultaneous`
        does with it is the block up to its decision for each player in turn (the players
        given are the seats in order), then each player's decision and the rest of its block
        in seat order. Each player's locals read after the decision are kept in between. The
        block's lines (from `start`, after `def block…:`) are rewritten so; False (nothing
        changed) for any other block."""
        lines = self.lines[start:]
        asks = [i for i, line in enumerate(lines) if _YIELD_WORD.search(line)]
        pad = "    " * (depth + 1)
        if seq != "_PLAYERS" or len(asks) != 1 or lines[0] != f"{pad}{var} = player_arg":
            return False
        ask = _YIELD.match(lines[asks[0]])
        if ask is None or ask.group(1) != pad or ask.group(3) != var:
            return False
        index, options = ask.group(2), ask.group(4)
        before, after = lines[1:asks[0]], lines[asks[0] + 1:]
        read_after = set(re.findall(r"[A-Za-z_]\w*", "\n".join(after)))
        kept = [var, options] + sorted((_assigned_names(before) - top - {var, options}) & read_after)
        waiting = self.fresh("deciding")
        del self.lines[start - 1:]
        self.emit(depth, f"{waiting} = []")
        self.emit(depth, f"for {var} in {seq}:")
        self.lines.extend(before)
        self.emit(depth + 1, f"{waiting}.append(({', '.join(kept)},))")
        self.emit(depth, f"for {', '.join(kept)}, in {waiting}:")
        self.emit(depth + 1, f"{index} = agents[{var}]({options})")
        self.emit(depth + 1, f"history.append([{var}, {index}])")
        self.lines.extend(after)
        return True


def _assigned_names(lines: list) -> set:
    """Plain names assigned by generated lines (`x = …`, `x += …`, `for x in …`)."""
    out = set()
    for line in lines:
        m = _ASSIGN.match(line)
        if m:
            out.add(m.group(1) or m.group(2))
    return out


_YIELD_WORD = re.compile(r"\byield\b")
_YIELD = re.compile(r"^(\s*)([A-Za-z_]\w*) = yield ([A-Za-z_]\w*), ([A-Za-z_]\w*)$")
_ASSIGN = re.compile(r"^\s*(?:([A-Za-z_]\w*)\s*(?:[-+*/%]|//)?=(?!=)|for\s+([A-Za-z_]\w*)\s+in\b)")
