"""A generated program that STOPS at each decision and can be cloned there (issue 12; flat MCTS
plays its iterations on it: worlds.py, agents/transpiled.py).

program.py writes ``play(seed, agents)``: a whole game, the agents called inline, nothing
suspends. This writer turns the same rule file into a resumable program with a forward-model
API in the manner of OpenSpiel:

    new(seed) -> st        a game at its first decision (or over)
    st[SEAT], st[OPTIONS]  who decides now and the plain list of what they can pick
    apply(st, index)       continues the game to its next decision or its end (in place)
    clone(st) -> st        an independent copy
    over(st), returns(st), history(st)
    rollout(st, index, agents)  apply, then the agents (``agents[seat](options) -> index``) play
                           the rest inline, nothing stopping: a search's playout at the speed of
                           program.py's ``play`` (a running generator is sent the index and the
                           agents, which it answers from then on)

The whole game is one plain list ``st``: the decision being waited for (``pc``, its id), the
seat and options asked, the live locals of the flow at that decision (a tuple, "the frame"),
the state's scalars (counters and variables that are rebound), the game's generator function,
its objects (history, the engine's Rng, ``loc``, counter/variable families, zones: also that
function's free variables, one closure per game), the running generator, the result.

``_gen(st, ans)`` is the flow as program.py writes it, as a generator, lowered so that it can
also start in the middle:

- each decision site has an id; reaching it (``pc == 0``: running) builds its options, writes
  pc, seat and options into ``st`` and yields (its locals stay in the generator's frame), or in
  a rollout asks the agent and goes on; so ``apply`` is a ``send``;
- a new generator started on a list whose ``pc`` is a site walks down to it and loads the frame
  there (then records the answer and sets ``pc = 0``): statements that contain no decision run
  only when ``pc == 0`` (those before the last decision of a block are guarded ``if not pc:``);
  a compound statement containing decisions picks its way by ``pc``: the ids inside an `if`
  branch / loop body are consecutive, so ``(lo <= pc <= hi) if pc else cond`` enters the one
  holding the decision without evaluating the condition again; a `for`/`repeat` containing
  decisions iterates by an index kept among the live locals;
- each stop writes its live locals (the frame: the names per site in ``_FRAMES``) and the
  scalars into the list before it yields, so the list is the whole state while it waits;
  ``clone`` and ``rollout`` drop a running generator (``_plain``), and the next ``apply`` of
  that list starts a new generator.

A choice of several is a loop of single picks (choices.py's `several`), each pick a stop.

For searches that start from an engine state (worlds.py): ``zones(st)`` lists every zone's list
in the order of ``ZONE_KEYS`` (the engine's zone keys), ``export(st)`` gives the Rng state,
zones, counters and variables keyed as final_state.py's export (compare.state_difference reads
it), ``RNG`` and ``LOC`` are the slots of the Rng and of ``loc`` (piece -> its zone's list),
``SLOTS`` every object's slot by its name (``M_value``: the dice's values, …).

A simultaneous block with decisions is played chooser after chooser in seat order, every pick
of one chooser before the next chooser's block starts: the order in which the engine asks its
lowest waiting seat (RandomPlayout; an engine driven by ``st[SEAT]``), right while the blocks
touch no one else's state. The engine asks a choice of several
there in another order when driven otherwise (simulate: one pick of each waiting chooser per
pass); worlds.reach replays such a history reordered inside the block (``BLOCK_SITES``: the
decision sites inside a block).

A `return` in a procedure holding decisions leaves a one-pass loop around its inlined body (or
raises `_Return` out of a loop or block of the procedure), as procedures.py; a `choose` of a
name the procedure bound before writes the earlier name back, as frames.py.

What the straight writer covers minus what cannot stop: an optional perform and `where` on a
perform (refused), a decision inside the `scoring.final` block (refused).
Grid zones' cells and GPOS (grids.py) are among the state's objects, copied by clone; the
value-giving procedures (value_procs.py) are nested in the generator, over its own state. A
zone family indexed by a board's nodes (boards.py: dicts, any mix of dimensions) is copied into
the same nesting; the tables keyed by the ids of the zone lists (`zone_index`'s ZK, looks.py's
ZI) are made again for each copy, by clone from its copies' ids in one pass (module constants
_ZK_AT, _ZI_AT, _ZI_FACTS in the copy's zone order), and PS from them.
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Callable, Iterable

from .. import ast
from . import stepper_runtime
from .base import Unsupported
from .grid_memo import kept_functions
from .label_reads import reads_only_the_option
from .piece_kinds import VALUE, element
from .procedures import returns_in_loops
from .refills import restore_lines
from .program import ProgramWriter, namespace
from .rulefile import RuleFile
from .unguarded import unguard

PC, SEAT, OPTIONS, FRAME = 0, 1, 2, 3
_BODIES = (ast.If, ast.While, ast.For, ast.Repeat, ast.Simultaneous)


class StepperWriter(ProgramWriter):
    """The resumable program of one rule file for `n` players (see the module's docstring)."""

    memo_windows = False  # its blocks are cut at decisions (memo.py's windows assume one run)

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.sites = 0  # decision sites written so far (their ids are 1..sites)
        self.made: set[str] = set()  # every local name fresh() gave out
        self.outer: list[list[str]] = []  # live locals of the code around an inlined body
        self._stops: dict[int, bool] = {}
        self.exclusive_next = True  # the next block is entered only when pc is 0 or inside it
        self.frames: dict[int, list] = {}  # each decision site's live locals
        self.rule_names: dict[str, str] = {}  # a live local -> the rule file's name it holds
        self.sole = False  # the statement being written is the last decision of such a block
        self.block_sites: set[int] = set()  # the decision sites inside a simultaneous block
        self.site_parts: dict[int, tuple] = {}  # site -> (the rule's position, frame indices: SITE_PARTS)
        self.id_tables: list[str] = []  # tables by zone lists' ids that clone makes (copied_tables)

    def fresh(self, stem: str) -> str:
        name = super().fresh(stem)
        self.made.add(name)
        return name

    # ------------------------------------------------------------------ the state's layout
    def state_names(self) -> tuple[list[str], list[str]]:
        """(scalars rebound by the flow, objects changed in place), in st's order after FRAME."""
        scalars, families = ["_steps", "_reason"], []
        for name, fam in {**self.d.counters, **self.d.variables}.items():
            prefix = "v_" if name in ("round", "phase") or name not in self.d.counters else "c_"
            (families if fam.dims and name not in ("round", "phase") else scalars).append(prefix + name)
        zones = [f"z_{name}" for name in self.lay.zone_index]
        grids = [f"g_{name}" for name, f in self.d.zones.items() if f.grid is not None]  # grids.py's cells
        return scalars, ["history", "rng", "loc", *families, *zones, *grids, *(["GPOS"] if grids else [])]

    # ------------------------------------------------------------------ what can stop
    def stops(self, n: Any) -> bool:
        """Whether a statement can reach a decision (memoised per node)."""
        key = id(n)
        if key not in self._stops:
            self._stops[key] = False  # a procedure calling itself: refused when inlined
            self._stops[key] = self._can_stop(n)
        return self._stops[key]

    def _can_stop(self, n: Any) -> bool:
        if isinstance(n, ast.Choose):
            return True
        if isinstance(n, ast.Perform):
            return True
        if isinstance(n, ast.If):
            return any(self.stops(s) for _, body in n.branches for s in body) or any(map(self.stops, n.orelse))
        if isinstance(n, _BODIES):
            return any(map(self.stops, n.body))
        proc = self._called_proc(n)
        return proc is not None and any(map(self.stops, self.L.procs[proc.proc.name]))

    def _called_proc(self, n: Any) -> Any:
        if isinstance(n, ast.ExprStmt) and isinstance(n.expr, ast.Call) and isinstance(n.expr.func, ast.Name):
            fn = self.d.functions.get(n.expr.func.id)
            if fn is not None and fn.proc is not None:
                return fn
        return None

    # ------------------------------------------------------------------ the program
    def source(self) -> str:
        """The program; written again keeping the looks of pieces if a choice reads them (as
        ProgramWriter.source)."""
        self.looks_wanted = True
        try:
            return self._stepper_source()
        except Unsupported as e:
            if self.looks or "looks are not kept" not in e.what:
                raise
        return type(self)(self.L, self.n, self.options, looks=True)._stepper_source()

    def piece_state(self) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
        """looks.py's per-game piece lists as (name, code): (the lists, among the state's
        objects, which a copy copies; ZI and PS, made from the zone lists, made again for each
        copy's lists)."""
        lines, self.lines = self.lines, []
        self.piece_state_init()
        made, self.lines = self.lines, lines
        pairs = [tuple(line.strip().split(" = ", 1)) for line in made]
        return [p for p in pairs if p[0] not in ("ZI", "PS")], [p for p in pairs if p[0] in ("ZI", "PS")]

    def zone_key_state(self) -> list[tuple[str, str]]:
        """boards.py's ZK as (name, code) where zone_index is used: keyed by the ids of the zone
        lists, so each copy makes its own from its lists (state_init makes a new game's)."""
        if not self.uses_zone_index:
            return []
        name, code = self.zone_keys()[0].split(" = ", 1)
        return [(name, code)]

    def _stepper_source(self) -> str:
        final = self.L.procs.get("scoring:final") or []
        if any(map(self.stops, final)):
            raise self.unsupported("a decision in scoring.final")
        out = self.header()
        pieces, derived = self.piece_state()
        # made from the zone lists for each copy (a new game: state_init makes them)
        remade = derived + self.zone_key_state()
        scalars, objects = self.state_names()
        objects += [name for name, _ in pieces]
        self.scalars, self.objects = scalars, objects
        run = FRAME + 1 + len(scalars)
        self.id_tables, made_tables = self.copied_tables({name: i for i, name in enumerate(objects, run + 1)}, remade)
        self.lines = []
        self.emit(0, f"def _game({', '.join(objects)}{', _made=None' if self.id_tables else ''}):")
        if remade:  # a copy's: made from its lists (a new game makes them in _gen)
            self.emit(1, "if _made is not None:" if self.id_tables else "if loc is not None:")
            if self.id_tables:  # clone made these from its copies' ids
                self.emit(2, f"{', '.join(self.id_tables)}, = _made")
            for name, code in remade:
                if name not in self.id_tables:
                    self.emit(2, f"{name} = {code}")
            self.emit(1, "else:")
            self.emit(2, f"{' = '.join(name for name, _ in remade)} = None")
        self.emit(1, "def _gen(st, ans, _agents=None):")
        self.emit(2, f"nonlocal {', '.join(objects + [name for name, _ in remade])}")
        self.emit(2, f"({', '.join(['pc', '_seat', '_options', 'frame'] + scalars)},) = st[:{run}]")
        self.emit(2, "if pc:")
        self.emit(3, "if pc < 0:")
        self.emit(4, "raise ValueError('the game is over')")
        self.emit(3, "if not 0 <= ans < len(_options):")
        self.emit(4, "raise IndexError(f'option {ans!r} of {len(_options)}')")
        self.emit(2, "try:")
        self.emit(3, "if not pc:  # a new game: ans is the seed")
        self.emit(4, "rng = _Rng(ans)")
        self.emit(4, "history = []")
        self.emit(4, "_reason = None")
        self.emit(4, "_steps = 0")
        start = len(self.lines)
        self.state_init()
        for name, code in pieces + derived:
            self.emit(1, f"{name} = {code}")
        self.lines[start:] = ["            " + line for line in self.lines[start:]]
        self.emit(4, f"st[{run + 1}:{run + 1 + len(objects)}] = [{', '.join(objects)}]")
        mark = len(self.lines)
        self.block(self.L.procs["main"], {}, 3, None)
        self.emit(3, "pass")
        start = len(self.lines)
        self.ending()  # written at depth 1: moved into _gen below
        result = self.lines.pop().strip()
        if not result.startswith("return scores, history, winners, "):
            raise self.unsupported("an ending this writer does not know")  # scoring.py changed
        self.emit(1, f"st[:{FRAME + 1}] = (-1, None, [], None)")
        self.emit(1, f"st[-1] = ({result[len('return '):]})")
        self.lines[start:] = ["    " + line for line in self.lines[start:]]
        body = _merge_guards(self.lines)
        nested = self.nested_functions(3)
        # value_procs.py's functions, written for play() (depth 1), nested in _gen (depth 3):
        # each new generator (a copy's too) makes them over its own state
        procs = ["        " + line if line.strip() else line for line in self.proc_defs]
        nested, kept = kept_functions(nested + procs, 3, self.fixed_tables())
        game = "\n".join(body[:mark] + nested + body[mark:] + ["    return _gen"]) + "\n"
        # its loops without their tests on pc once resumed (unguarded.py; one physical line an entry)
        flow = unguard("\n".join(body[mark:]).split("\n"))
        out.append("".join(kept) + "\n".join(body[:mark] + nested + flow + ["    return _gen"]) + "\n\n\n")
        out.append(f"_FRAMES = {[None] + [tuple(self.frames[i]) for i in range(1, self.sites + 1)]!r}\n")
        named = [tuple(self.rule_names.get(v) for v in self.frames[i]) for i in range(1, self.sites + 1)]
        out.append(f"_FRAME_RULE_NAMES = {[None] + named!r}  # None: the program's own\n")
        out.append(f"_SCALARS = {tuple(scalars)!r}\n")
        out.append(f"BLOCK_SITES = frozenset({sorted(self.block_sites)!r})\n")
        parts = [None] + [self.site_parts.get(i) for i in range(1, self.sites + 1)]
        out.append(f"SITE_PARTS = {parts!r}  # (position, options, candidates, picks, low, high, plain labels)\n")
        if self.refused:
            raise self.refused[0]
        out.append("".join(line + "\n" for line in made_tables))
        out.append(self.api(run, objects, game))  # refills.py reads the flow as written
        out.append(self.exports(run, objects))
        return "".join(out)

    def exports(self, run: int, objects: list) -> str:
        """``ZONE_KEYS``, ``zones(st)``, ``export(st)`` and ``RNG`` (see the module's docstring),
        written with final_state.py's entries (a family it does not know is left out)."""
        zones = [item for _, items in self._zone_entries() for item in items]
        first = FRAME + 1
        lines = [f"ZONE_KEYS = {[str(key) for key, _ in zones]!r}",
                 f"SLOTS = {dict((name, i) for i, name in enumerate(objects, run + 1))!r}",
                 f"RNG, LOC = {run + 1 + objects.index('rng')}, {run + 1 + objects.index('loc')}", "", "",
                 "def zones(st):", f"    ({', '.join(objects)},) = st[{run + 1}:{run + 1 + len(objects)}]",
                 f"    return [{', '.join(code for _, code in zones)}]", "", "",
                 "def export(st):", "    st = _plain(st)",
                 f"    ({', '.join(self.scalars)},) = st[{first}:{run}]",
                 f"    ({', '.join(objects)},) = st[{run + 1}:{run + 1 + len(objects)}]",
                 "    state = {'rng': rng.state}"]
        for section, entries in (("zones", self._zone_entries()), ("counters", self._slot_entries(True)),
                                 ("vars", self._slot_entries(False))):
            lines.append(f"    state['{section}'] = _section = {{}}")
            for _, items in entries:
                lines += ["    try:", f"        _section.update({{{', '.join(f'{str(k)!r}: {v}' for k, v in items)}}})",
                          "    except Exception:  # a form this export does not know: not compared",
                          "        pass"]
        return "\n".join(lines + ["    return state", ""])

    def api(self, run: int, objects: list, game_source: str) -> str:
        """new/apply/rollout/clone/restore and the slots' indices (RUN: the game's generator
        function, GEN: its running generator or None), after _game (`game_source`: its source,
        which refills.py reads)."""
        slot = {name: i for i, name in enumerate(objects, run + 1)}
        size = run + len(objects) + 3
        gen, first = size - 2, FRAME + 1
        lines = [f"SIZE, RUN, GEN, RESULT, HISTORY = {size}, {run}, {gen}, {size - 1}, {slot['history']}",
                 "", "", _API.replace("@RUN@", str(run)).replace("@GEN@", str(gen)).replace(
                     "@NONES@", ", ".join(["None"] * len(objects))).replace("@SCALARS@", f"{first}:{run}"),
                 "def clone(st):", f"    if st[{gen}] is not None:  # the next copies of st are cheaper",
                 "        st[:] = _plain(st)", "    new = st[:]"]
        # zones first, all copied in one pass; every other list that is one of them (loc's
        # entries, a local naming a zone) becomes its copy through `memo` (id -> copy)
        flat, parts, _ = self.zone_copies(slot)
        lines += [f"    old = [{', '.join(flat)}]", "    zs = [z[:] for z in old]",
                  *(["    ids = list(map(id, zs))"] if self.id_tables else []),
                  "    memo = dict(zip(map(id, old), zs))", *parts,
                  f"    new[{slot['loc']}] = loc = [None] * {len(self.lay.static)}",
                  "    for z in zs:", "        for pc in z:", "            loc[pc] = z"]
        # counters hold numbers and _reason a text: shared; a variable may hold anything
        scalars = ["frame"] + self.scalars
        lines += [f"    new[{i}] = _copy(st[{i}], memo)" for i, name in enumerate(scalars, FRAME)
                  if name == "frame" or name.startswith("v_")]
        lines += [f"    new[{i}] = st[{i}][:]" if name.startswith("c_") else f"    new[{i}] = _copy(st[{i}], memo)"
                  for name, i in slot.items() if name.startswith(("c_", "v_"))]
        lines += [f"    new[{i}] = {self.piece_list_copy(name, i)}" for name, i in slot.items()
                  if name in ("FACE", "SEEN") or name.startswith(("M_", "D_"))]
        lines += self.grid_copies(slot)
        lines += [f"    new[{slot['history']}] = list(st[{slot['history']}])",
                  f"    new[{slot['rng']}] = st[{slot['rng']}].copy()",
                  f"    new[{run}] = _game(*new[{run + 1}:{run + 1 + len(objects)}]{self.made_argument()})",
                  "    return new", "", ""]
        lines += restore_lines(self, slot, run, size, game_source)
        return "\n".join(lines)

    def zone_copies(self, slot: dict, st: str = "st") -> tuple[list[str], list[str], list[str]]:
        """clone's copy of every zone list: (the flat list of the original's lists, as code, the
        state's list named `st`; the lines putting the copies, `zs`, back in each family's shape;
        each zs entry's code as program.state_init / looks.py name that list, e.g.
        z_drinks_at['loop'][0])."""
        flat, parts, codes, k = [], [], [], 0
        for name, i in slot.items():
            if not name.startswith("z_"):
                continue
            shape = self.zone_shape(name[2:])
            named = list(self.lay.zone_index[name[2:]])
            if named != [()] and all(isinstance(key, str) for key in named):  # a dict by names
                flat.append(f"*{st}[{i}].values()")
                codes += [f"{name}[{key!r}]" for key in named]
                parts.append(f"    new[{i}] = dict(zip(st[{i}], zs[{k}:{k + len(named)}]))")
            elif any(isinstance(x, str) for key in named if isinstance(key, tuple) for x in key):
                # several dimensions, one a board's nodes (boards.py): each zone list by its code
                keyed = self.zone_codes(name[2:])
                flat += [f"{st}[{i}]" + code[len(name):] for code in keyed]
                leaves = [f"zs[{k + j}]" for j in range(len(keyed))]
                parts.append(f"    new[{i}] = {self.keyed_zones_of(name[2:], leaves)}")
                codes += keyed
                k += len(keyed)
                continue
            elif not shape:
                flat.append(f"{st}[{i}]")
                parts.append(f"    new[{i}] = zs[{k}]")
                codes.append(name)
            elif len(shape) == 1:
                flat.append(f"*{st}[{i}]")
                parts.append(f"    new[{i}] = zs[{k}:{k + shape[0]}]")
                codes += [f"{name}[{j}]" for j in range(shape[0])]
            else:
                rows, cols = shape
                flat.append(f"*[z for row in {st}[{i}] for z in row]")
                parts.append(f"    new[{i}] = [zs[{k} + r * {cols}:{k} + (r + 1) * {cols}] for r in range({rows})]")
                codes += [f"{name}[{r}][{c}]" for r in range(rows) for c in range(cols)]
            k += len(shape) and shape[0] * (shape[1] if len(shape) == 2 else 1) or 1
        return flat, parts, codes

    def copied_tables(self, slot: dict, remade: list) -> tuple[list[str], list[str]]:
        """The tables keyed by zone lists' ids (looks.py's ZI, boards.py's ZK) that clone makes
        from its copies' ids, `zs` (cheaper than from every list's code again): their names and
        the module constants they are made with, in zs's order (none if a list is not found)."""
        *_, codes = self.zone_copies(slot)
        at = {code: j for j, code in enumerate(codes)}
        names, lines = [], []
        remade = dict(remade)
        if "ZI" in remade:
            entries = self.zone_facts()
            if not all(code in at for code, _ in entries):
                return [], []
            names.append("ZI")
            lines += [f"_ZI_AT = {tuple(at[code] for code, _ in entries)!r}",
                      f"_ZI_FACTS = ({''.join(facts + ', ' for _, facts in entries)})"]
        if "ZK" in remade:
            values = dict(zip(self.zone_key_codes(), self.zone_key_values()))
            if sorted(values) != sorted(codes):
                return [], []
            names.append("ZK")
            lines.append(f"_ZK_AT = {tuple(values[code] for code in codes)!r}")
        return names, lines

    def made_argument(self) -> str:
        """clone's `_made` argument of _game: the tables of copied_tables, from zs's ids."""
        if not self.id_tables:
            return ""
        made = {"ZI": "dict(zip(map(ids.__getitem__, _ZI_AT), _ZI_FACTS))", "ZK": "dict(zip(ids, _ZK_AT))"}
        return f", _made=({''.join(made[name] + ', ' for name in self.id_tables)})"

    def piece_list_copy(self, name: str, i: int) -> str:
        """clone's copy of a per-piece list (looks.py's FACE, SEEN, M_<attr>, D_<attr>): a slice
        where every entry is plain data (faces; an attribute the rule file sets only to data,
        attr_kind VALUE: a list among them is shared, as State.clone shares dyn's values), else
        _copy (an entry may hold pieces or a zone's list, which must become the copy's)."""
        if name == "FACE" or (name.startswith(("M_", "D_")) and self.attr_kind(name[2:]) == VALUE):
            return f"st[{i}][:]"
        return f"_copy(st[{i}], memo)"

    def grid_copies(self, slot: dict) -> list[str]:
        """clone's lines for grid zones' cells (grids.py: g_<name>, one or a list of them) and
        GPOS (piece -> the cells it lies on, each made the copy's: `gmemo`, id -> copy)."""
        names = [name for name in slot if name.startswith("g_")]
        if not names:
            return []
        lines = ["    gmemo = {}"]
        for name in names:
            i = slot[name]
            lines += [f"    if type(st[{i}]) is list:",
                      f"        new[{i}] = [gmemo.setdefault(id(g), _copy_cells(g)) for g in st[{i}]]",
                      "    else:",
                      f"        new[{i}] = gmemo[id(st[{i}])] = _copy_cells(st[{i}])"]
        i = slot["GPOS"]
        return lines + [f"    new[{i}] = [None if g is None else gmemo[id(g)] for g in st[{i}]]"]

    def zone_shape(self, name: str) -> tuple:
        """() for one zone, (k,) for a family of k, (rows, cols) for two dimensions (as
        program.state_init lays them out)."""
        keys = list(self.lay.zone_index[name])
        if keys == [()]:
            return ()
        if all(not isinstance(key, tuple) for key in keys):
            return (len(keys),)
        return (len({key[0] for key in keys}), len({key[1] for key in keys}))

    # ------------------------------------------------------------------ blocks and guards
    def block(self, stmts: list, env: dict, depth: int, chooser: str | None) -> None:
        """Statements before the block's last decision run only when not resuming (pc == 0);
        the rest need no test when the block is entered only to resume inside it."""
        last = max((i for i, s in enumerate(stmts) if self.stops(s)), default=-1)
        exclusive, self.exclusive_next = self.exclusive_next, True
        i = 0
        while i < len(stmts):
            # after the last decision too when the block may be reached to resume after it
            # (an inlined procedure followed by other decisions)
            if (i < last or not exclusive) and not self.stops(stmts[i]):
                j = i
                while j < len(stmts) and not self.stops(stmts[j]):
                    j += 1
                self.emit(depth, "if not pc:")
                self.body(stmts[i:j], env, depth + 1, chooser)
                i = j
                continue
            # the last decision of a block entered only to resume inside it: a nonzero pc is
            # always inside it (loops then test `pc or cond`); an inlined body inherits that
            self.sole = exclusive and i == last
            if self.stops(stmts[i]) and self._called_proc(stmts[i]) is not None:
                self.exclusive_next = self.sole
            super().block([stmts[i]], env, depth, chooser)
            self.exclusive_next = True
            i += 1

    def live(self, env: dict, *more: str) -> list[str]:
        """The locals a decision must keep: those in scope here and around the inlined bodies."""
        names = [v for v in env.values() if v in self.made]
        self.rule_names.update((v, k) for k, v in env.items() if v in self.made and not k.startswith("\0"))
        names += [v for level in self.outer for v in level]
        names += [v for v in more if v in self.made]
        return list(dict.fromkeys(names))

    def placeholder(self, depth: int) -> tuple[int, int, int]:
        """A line to fill in once the decision ids inside what follows are known."""
        self.emit(depth, "")
        return len(self.lines) - 1, depth, self.sites

    def ids(self, since: int) -> str | None:
        """The test `pc is one of the sites written after `since``, or None if there are none."""
        lo, hi = since + 1, self.sites
        if hi < lo:
            return None
        return f"pc == {lo}" if lo == hi else f"{lo} <= pc <= {hi}"

    def fill(self, mark: tuple[int, int, int], keyword: str, cond: str, sole: bool = False) -> None:
        """`keyword (ids if pc else cond):` for the statement at `mark` (cond None: `else`;
        sole: every nonzero pc is inside, `pc or cond`)."""
        index, depth, since = mark
        inside = self.ids(since)
        if sole and inside and cond is not None:
            self.lines[index] = "    " * depth + f"{keyword} pc or {cond}:"
            return
        if cond is None:
            test = f"not pc or {inside}" if inside else "not pc"
        else:
            test = f"({inside}) if pc else {cond}" if inside else f"not pc and {cond}"
        self.lines[index] = "    " * depth + f"{keyword} {test}:"

    # ------------------------------------------------------------------ decisions
    def suspend(self, who: str, options: str, env: dict, depth: int) -> tuple[int, list]:
        """The decision's stop: pc, seat and options written into st and a yield, or (in a
        rollout) the agent asked here. Returns the site's id and its live locals, which a copy
        must carry (the caller writes `resume` right after)."""
        self.sites += 1
        site = self.sites
        frame = self.live(env, who, options)
        self.emit(depth, f"if not {options}:")
        self.emit(depth + 1, "raise RuntimeError('nothing to choose from')")
        self.frames[site] = frame
        self.emit(depth, "if _agents is not None:")
        self.emit(depth + 1, f"ans = _agents[{who}]({options})")
        self.emit(depth, "else:")  # the frame and the scalars written in: st is whole while it waits
        self.emit(depth + 1, f"st[:{FRAME + 1}] = ({site}, {who}, {options}, ({''.join(v + ', ' for v in frame)}))")
        if self.scalars:
            self.emit(depth + 1, f"st[{FRAME + 1}:{FRAME + 1 + len(self.scalars)}] = [{', '.join(self.scalars)}]")
        self.emit(depth + 1, "ans = yield")
        self.emit(depth + 1, "if type(ans) is tuple:  # rollout: the agents answer from here on")
        self.emit(depth + 2, "ans, _agents = ans")
        return site, frame

    def record_parts(self, site: int, frame: list, n: Any, *names: str) -> None:
        """SITE_PARTS[site]: the rule's position of the decision and where its frame keeps the
        options, and for a choice of several the candidates, the picks so far and the bounds
        (None where absent): what a search writes there to take over the engine's waiting
        decision (transpile/adoption.py); last, whether its labels are made from the options
        alone (no `label`, or one that reads only the option: label_reads.py)."""
        at = [frame.index(name) for name in names] + [None] * (5 - len(names))
        label = getattr(n, "label", None)
        plain = label is None or reads_only_the_option(self, label, {n.var})
        self.site_parts[site] = (site_position(n.pos), *at, plain)

    def resume(self, site: int, frame: list, who: str, depth: int) -> None:
        """A new generator on a list stopped at this site: the frame back; then (also after a
        yield or a rollout's agent) the answer recorded. The caller writes what it binds."""
        self.emit(depth - 1, f"elif pc == {site}:")
        self.emit(depth, f"{', '.join(frame)}, = frame")
        self.emit(depth, "pc = 0")
        self.emit(depth - 1, "if not pc:")
        self.emit(depth, f"history.append([{who}, ans])")

    def s_Choose(self, n, env, depth, chooser):
        """As looks.py's: the options made by `offer` for the chooser chooser_of names (the
        engine's options among pieces that may look alike), the chosen name keeping the kind
        of what it was chosen from; a name the procedure bound before is written back to
        (frames.py)."""
        earlier = self._own(n.var, env)
        self.plain_prompt(n)
        kind = self.rely(n.source, env)
        outer, self.offering = self.offering, [kind, n, None]
        try:
            if n.count != "one":
                self.several_stops(n, env, depth, chooser)
            else:
                self.choose_one_stops(n, env, depth, chooser)
        finally:
            self.offering = outer
        self.bind_kind(env[n.var], element(kind) if n.count == "one" else kind)
        if earlier is not None:  # only once the choice is made (not when resuming past it)
            self.emit(depth, "if not pc:")
        self._rebound(n.var, env, earlier, depth + 1)

    def choose_one_stops(self, n: ast.Choose, env: dict, depth: int, chooser: Any) -> None:
        """A choice of one item: a stop (as choices.py's choose_general: `where` filters the
        candidates; an optional choice is asked even with nothing to pick, its `pass` gives none)."""
        self.emit(depth, "if not pc:")
        source = self.expr(n.source, env) if n.where is None else self.candidates(n, env, depth + 1)
        who = self.chooser_of(n.by, env, depth + 1, chooser, n)
        options = self.fresh("options")
        self.offer(options, source, depth + 1)  # choices.py/looks.py: the engine's options
        if n.optional:
            self.emit(depth + 1, f"{options}.append(_PASS)")
        site, frame = self.suspend(who, options, env, depth + 1)
        self.record_parts(site, frame, n, options)
        self.resume(site, frame, who, depth + 1)
        env[n.var] = var = self.fresh(n.var)
        self.emit(depth + 1, f"{var} = {options}[ans]")
        if n.optional:
            self.emit(depth + 1, f"if {var} == _PASS:")
            self.emit(depth + 2, f"{var} = None")

    def several_stops(self, n: ast.Choose, env: dict, depth: int, chooser: Any) -> None:
        """A choice of several as choices.py's `several` writes it (one pick per decision, `done`
        once enough are picked), each pick a stop: the candidates, bounds and picks so far are
        live locals."""
        sole = self.sole
        self.emit(depth, "if not pc:")
        cands = self.candidates(n, env, depth + 1)
        low, high = self.choice_bounds(n, env, depth + 1)
        who = self.chooser_of(n.by, env, depth + 1, chooser, n)
        env[n.var] = var = self.fresh(n.var)
        size, options, value = self.fresh("n"), self.fresh("options"), self.fresh("v")
        self.emit(depth + 1, f"{size} = len({cands})")
        if n.count != "exact":
            self.emit(depth + 1, f"if {high} is None or {high} > {size}:")
            self.emit(depth + 2, f"{high} = {size}")
        self.emit(depth + 1, f"{var} = []")
        if not n.optional:
            self.emit(depth + 1, f"if {size} < {low}:")
            self.emit(depth + 2, f"raise RuntimeError('{n.var}: fewer candidates than must be chosen')")
        inner = dict(env)
        for name in (cands, low, high, size):
            inner["\0" + name] = name  # live, under keys no rule name can have
        mark = self.placeholder(depth)
        self.emit(depth + 1, "if not pc:")
        self.offer(options, cands, depth + 2)
        self.emit(depth + 2, f"if {'True' if n.optional else f'len({var}) >= {low}'}:")
        self.emit(depth + 3, f"{options}.append(_DONE)")
        site, frame = self.suspend(who, options, inner, depth + 2)
        self.record_parts(site, frame, n, options, cands, var, low, high)
        self.resume(site, frame, who, depth + 2)
        self.emit(depth + 2, f"{value} = {options}[ans]")
        self.emit(depth + 2, f"if {value} == _DONE or {value} == _PASS:")
        self.emit(depth + 3, "break")
        self.emit(depth + 2, f"{var}.append({value})")
        self.emit(depth + 2, f"{cands}.remove({value})")
        self.emit(depth + 2, f"if len({var}) >= {high} or not {cands}:")
        self.emit(depth + 3, "break")
        self.fill(mark, "while", "True" if n.optional else f"not ({high} <= 0 or {size} == 0)", sole)

    def s_Perform(self, n, env, depth, chooser):
        if n.optional or n.where is not None:
            raise self.unsupported("an optional perform or one with `where`", n)
        self.emit(depth, "if not pc:")
        who = self.chooser_of(n.by, env, depth + 1, chooser, n)
        options = self.fresh("actions")
        self.emit(depth + 1, f"{options} = []")
        acts = [self.d.actions[name] for name, _ in n.actions]
        for act in acts:
            if act.when_text is None:
                self.emit(depth + 1, f"{options}.append({act.name!r})")
                continue
            cond = self.expr(self.L.parse_expr(act.when_text, act.pos), {"player": who})
            self.emit(depth + 1, f"if {cond}:")
            self.emit(depth + 2, f"{options}.append({act.name!r})")
        site, frame = self.suspend(who, options, env, depth + 1)
        self.record_parts(site, frame, n, options)
        self.resume(site, frame, who, depth + 1)
        name = self.fresh("action")
        self.emit(depth + 1, f"{name} = {options}[ans]")
        self.outer.append(self.live(env))
        for i, act in enumerate(acts):
            mark = self.placeholder(depth)
            self.inline_action(act, who, depth + 1, n)
            self.fill(mark, "if" if i == 0 else "elif", f"{name} == {act.name!r}")
        self.outer.pop()

    # ------------------------------------------------------------------ compound statements
    def s_If(self, n, env, depth, chooser):
        if not self.stops(n):
            return super().s_If(n, env, depth, chooser)
        for i, (cond, stmts) in enumerate(n.branches):
            test = self.expr(cond, env)
            mark = self.placeholder(depth)
            self.body(stmts, dict(env), depth + 1, chooser)
            self.fill(mark, "if" if i == 0 else "elif", test)
        if n.orelse:
            mark = self.placeholder(depth)
            self.body(n.orelse, dict(env), depth + 1, chooser)
            self.fill(mark, "elif", None)

    def s_While(self, n, env, depth, chooser):
        if not self.stops(n):
            return super().s_While(n, env, depth, chooser)
        test, sole = self.expr(n.cond, env), self.sole
        mark = self.placeholder(depth)
        self.emit(depth + 1, "if not pc:")
        self.emit(depth + 2, "_steps += 1")
        self.emit(depth + 2, f"if _steps > {self.d.limits.steps}:")
        self.emit(depth + 3, f"_over_steps({self.d.limits.steps}, {str(n.pos)!r})")
        self.body(n.body, dict(env), depth + 1, chooser)
        self.fill(mark, "while", test, sole)

    def loop(self, seq_code: str, var_name: str, body: list, env: dict, depth: int, chooser: Any,
             var_chooses: bool = False, kind: Any = None) -> None:
        """`for var in seq` with decisions inside: the list and the position are live locals."""
        seq, k, sole = self.fresh("seq"), self.fresh("k"), self.sole
        self.emit(depth, "if not pc:")
        self.emit(depth + 1, f"{seq} = {seq_code}")
        self.emit(depth + 1, f"if type({seq}) is not list:")
        self.emit(depth + 2, f"{seq} = list({seq})")
        self.emit(depth + 1, f"{k} = 0")
        mark = self.placeholder(depth)
        inner = dict(env)
        inner[var_name] = var = self.fresh(var_name)
        self.bind_kind(var, kind)  # what the elements are (piece_kinds.py), for looks
        inner["\0" + seq], inner["\0" + k] = seq, k  # live, under keys no rule name can have
        self.emit(depth + 1, "if not pc:")
        self.emit(depth + 2, f"{var} = {seq}[{k}]")
        self.emit(depth + 2, f"{k} += 1")
        self.body(body, inner, depth + 1, var if var_chooses else chooser)
        self.fill(mark, "while", f"{k} < len({seq})", sole)

    def s_For(self, n, env, depth, chooser):
        if not self.stops(n):
            return super().s_For(n, env, depth, chooser)
        if self._own(n.var, env) is not None:  # as frames.py
            raise self.unsupported(f"a loop over {n.var}, a local the procedure bound before", n)
        seq, kind = self.expr(n.iter, env), element(self.kind(n.iter, env))
        self.loop(f"list({seq})" if self.is_zone(n.iter, env) else seq, n.var, n.body, env, depth, chooser,
                  kind=kind)

    def s_Simultaneous(self, n, env, depth, chooser):
        if not self.stops(n):
            return super().s_Simultaneous(n, env, depth, chooser)
        # each chooser in seat order, the loop variable choosing, every pick of one chooser
        # before the next's (the order in which the lowest waiting seat is asked)
        since = self.sites
        self.sequential_block = True
        self.loop(f"sorted({self.expr(n.iter, env)})", n.var, n.body, env, depth, chooser, True,
                  element(self.kind(n.iter, env)))
        self.sequential_block = False
        self.block_sites.update(range(since + 1, self.sites + 1))

    def s_Repeat(self, n, env, depth, chooser):
        if not self.stops(n):
            return super().s_Repeat(n, env, depth, chooser)
        self.loop(f"range({self.expr(n.count, env)})", "\0repeat", n.body, env, depth, chooser)

    def s_ExprStmt(self, n, env, depth, chooser):
        fn = self._called_proc(n)
        if fn is None or not self.stops(n):
            return super().s_ExprStmt(n, env, depth, chooser)
        call = n.expr
        stmts = self.L.procs[fn.proc.name]
        returns = [s for s in ast.walk(stmts) if isinstance(s, ast.Return)]
        if any(r.value is not None for r in returns):
            raise self.unsupported(f"`return` with a value in the procedure {fn.name}", call)
        if not returns:
            return self._inline_stops(fn, call, env, depth, stmts)
        # entered unconditionally, so a copy resuming inside walks down to its decision, and one
        # resuming elsewhere passes through
        in_loop = returns_in_loops(stmts) or _returns_in_blocks(stmts)  # a block is a loop here
        self.left_by_return(in_loop, depth, lambda: self._inline_stops(fn, call, env, depth + 1, stmts))

    def _inline_stops(self, fn: Any, call: ast.Call, env: dict, depth: int, stmts: list) -> None:
        """A procedure body holding decisions, inlined: its arguments computed when running."""
        inner = self.bound_arguments(fn, call, env, depth, guard="if not pc:")
        self.outer.append(self.live(env))
        self.inlining.append(fn.proc.name)
        self.block(stmts, inner, depth, inner.get("player"))
        self.inlining.pop()
        self.outer.pop()


_API = '''def new(seed):
    st = [0] + [None] * (SIZE - 1)
    st[@RUN@] = _game(@NONES@)
    g = st[@RUN@](st, seed)
    try:
        next(g)
        st[@GEN@] = g
    except StopIteration:
        pass
    return st


def apply(st, ans):
    if st[0] < 0:
        raise ValueError('the game is over')
    if not 0 <= ans < len(st[2]):
        raise IndexError(f'option {ans!r} of {len(st[2])}')
    g = st[@GEN@]
    try:
        if g is None:  # a copy: a new generator starts by walking down to its decision
            g = st[@GEN@] = st[@RUN@](st, ans)
            next(g)
        else:
            g.send(ans)
    except StopIteration:
        st[@GEN@] = None


def rollout(st, ans, agents):
    g = st[@GEN@]
    try:  # agents answer every decision: the generator runs to the end
        if g is None:
            next(st[@RUN@](st, ans, agents))
        else:  # the running generator goes on, given the agents (a new one would walk down here)
            if not 0 <= ans < len(st[2]):
                raise IndexError(f'option {ans!r} of {len(st[2])}')
            st[@GEN@] = None
            g.send((ans, agents))
    except StopIteration:
        pass


def _plain(st):
    """st without its running generator (in a copy): the frame and the scalars are written into
    st at every stop, so a new generator started on it walks down to the same place."""
    if st[@GEN@] is None:
        return st
    out = st[:]
    out[@GEN@] = None
    return out


'''


def site_position(pos: Any) -> tuple:
    """A rule's position as SITE_PARTS keeps it: (the file's absolute path, line, column), the
    same whichever way the file was named when loaded."""
    return (os.path.abspath(pos.file), pos.line, pos.col)


def _returns_in_blocks(stmts: list) -> bool:
    """Whether some `return` of these statements sits inside a simultaneous block of theirs."""
    return any(isinstance(r, ast.Return) for s in ast.walk(stmts) if isinstance(s, ast.Simultaneous)
               for r in ast.walk(s.body))


def _merge_guards(lines: list[str]) -> list[str]:
    """Two `if not pc:` blocks in a row at one depth become one (fewer tests per run)."""
    out: list[str] = []
    open_guard: int | None = None  # the indent of the guard whose block the last lines are in
    for line in lines:
        indent = len(line) - len(line.lstrip())
        if open_guard is not None and indent <= open_guard:
            if indent == open_guard and line.strip() == "if not pc:":
                continue
            open_guard = None
        if line.strip() == "if not pc:":
            open_guard = indent
        out.append(line)
    return out


def stepper_namespace() -> dict:
    names = namespace()
    names.update({k: v for k, v in vars(stepper_runtime).items() if k.startswith("_") and not k.startswith("__")})
    return names


def stepper_source(rules: str | Path | RuleFile, players: int = 2, options: dict | None = None,
                   variants: Iterable[str | Path] = ()) -> str:
    """The resumable program's source (raises Unsupported)."""
    rule_file = rules if isinstance(rules, RuleFile) else RuleFile(rules, variants)
    return StepperWriter(rule_file, players, options).source()


class Stepper:
    """The forward model of one generated resumable program (functions over a plain list `st`)."""

    def __init__(self, names: dict):
        self.new: Callable[[int], list] = names["new"]
        self.apply: Callable[[list, int], None] = names["apply"]
        self.rollout: Callable[[list, int, list], None] = names["rollout"]
        self.clone: Callable[[list], list] = names["clone"]
        # restore(world, st, restorer(st)): a world made st's copy again in place (refills.py); None: clone
        self.restorer: Callable[[list], Any] | None = names.get("restorer")
        self.restore: Callable[[list, list, Any], bool] | None = names.get("restore")
        # worlds of this program that finished searches are done with: a search takes one (by
        # pop) to make its first world in, and gives it back when it ends (agents/transpiled.py)
        self.spares: list = []
        self.plain: Callable[[list], list] = names["_plain"]  # the whole state in the list
        self.result_slot, self.history_slot = names["RESULT"], names["HISTORY"]
        self.rng_slot, self.loc_slot = names["RNG"], names["LOC"]
        self.gen_slot: int = names["GEN"]  # the running generator, or None (st holds its whole state)
        self.slots: dict[str, int] = names["SLOTS"]  # the state's objects by name (zones, M_value, …)
        self.zone_keys: list[str] = names["ZONE_KEYS"]  # the engine's keys of zones(st)'s lists
        self.zones: Callable[[list], list] = names["zones"]  # every zone's list, by zone_keys
        self.export: Callable[[list], dict] = names["export"]  # as final_state.py's export
        self.frames: list = names["_FRAMES"]  # per decision site, the names of its live locals
        self.frame_rule_names: list = names["_FRAME_RULE_NAMES"]  # ... the rule file's names they hold
        self.block_sites: frozenset = names["BLOCK_SITES"]  # the decision sites inside a simultaneous block
        self.site_parts: list = names["SITE_PARTS"]  # per site: (position, frame indices of its parts)
        self.scalars: tuple = names["_SCALARS"]  # the names of st[FRAME + 1:], in order
        self.shapes: list | None = names.get("SHAPE")  # per piece, its cells from where it is put (grids)
        self.source = names.get("__source__", "")

    @staticmethod
    def over(st: list) -> bool:
        return st[PC] < 0

    @staticmethod
    def seat(st: list) -> int | None:
        return st[SEAT]

    @staticmethod
    def options(st: list) -> list:
        return st[OPTIONS]

    def returns(self, st: list) -> list:
        """The scores of a finished game (a game not over has none: raises)."""
        if st[PC] >= 0:
            raise ValueError("the game is not over")
        return st[self.result_slot][0]

    def result(self, st: list) -> tuple:
        """(returns, history, winners, rounds, reason) of a finished game, as play() returns them."""
        return st[self.result_slot]

    def history(self, st: list) -> list:
        """The decisions so far, [seat, index] each."""
        return st[self.history_slot]


def load_stepper(rules: str | Path | RuleFile, players: int = 2, options: dict | None = None,
                 variants: Iterable[str | Path] = ()) -> Stepper:
    """The resumable program of a rule file, ready to play (raises Unsupported)."""
    source = stepper_source(rules, players, options, variants)
    path = rules.path if isinstance(rules, RuleFile) else str(rules)
    names = stepper_namespace()
    exec(compile(source, f"<stepper {path}>", "exec"), names)
    names["__source__"] = source
    return Stepper(names)
