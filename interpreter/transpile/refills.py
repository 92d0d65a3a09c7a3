"""A world made again in place: the resumable program's `restore` (stepper.py; used by flat MCTS,
worlds.py).

A search draws one world per iteration from the same root and plays it out once. `clone` makes
each world from new lists and calls ``_game`` to bind them (its closures, the tables keyed by the
zone lists' ids); most of a clone's time goes to that and to allocating. `restore(new, st, plan)`
makes a world the search is done with (a clone of st, or restored from it, since played on)
st's copy again with the lists it already has: every zone list, ``loc``, the counter and variable
families, the per-piece lists, the history and the Rng are refilled in place from st's, the
frame and the rebound scalars copied as clone copies them (`memo`: st's zone lists are the
world's). So the world's ``_game`` closures, ZI, PS and ZK stay valid and are not made again.
`restorer(st)` is what `restore` needs of st, made once (st must not change meanwhile): where
each piece lies (an index into the flat list of zones) and which per-piece lists hold no nested
list (as a getter of each piece's zone from that list, and the zone lists' ids). `restore`
answers False (the world half made: not to be used) where a value clone would
share among several places (a local naming a whole per-piece list) cannot be made so in place.

Written only where the program never binds one of the state's objects again after a new game
(a zone list in a family, ``loc``, a per-piece list, ...: `rebinds_objects` reads the generated
source with Python's ast) and has no grid zones (their cells are copied by `_copy_cells`);
elsewhere ``restorer = restore = None`` and searches clone.
"""
from __future__ import annotations

import ast as pyast
from typing import Any


def restore_lines(writer: Any, slot: dict, run: int, size: int, game_source: str) -> list[str]:
    """The lines of `restorer` and `restore` (see the module's docstring) for a StepperWriter's
    state layout (`slot`: the objects' indices; `run`: the generator function's; `size`: st's
    length); None-valued where they are not written."""
    families = {name: _depth(writer, name[2:]) for name in slot if name.startswith("z_")}
    if any(name.startswith("g_") for name in slot) or rebinds_objects(game_source, set(slot), families):
        return ["restorer = restore = None", "", ""]
    old, _, _ = writer.zone_copies(slot)
    mine, _, _ = writer.zone_copies(slot, "new")
    copied = [i for name, i in slot.items()
              if name.startswith("v_") or (name == "SEEN" or name.startswith(("M_", "D_")))
              and writer.piece_list_copy(name, i) != f"st[{i}][:]"]
    plain = [i for name, i in slot.items() if name.startswith("c_") or (name == "FACE" or name.startswith(("M_", "D_")))
             and writer.piece_list_copy(name, i) == f"st[{i}][:]"]
    gen, loc = size - 2, slot["loc"]
    lines = ["def restorer(st):",
             f"    if st[{gen}] is not None:",
             "        st[:] = _plain(st)",
             f"    old = [{', '.join(old)}]",
             f"    where = [len(old)] * {len(writer.lay.static)}",
             "    for k, z in enumerate(old):", "        for pc in z:", "            where[pc] = k",
             "    get = _itemgetter(*where) if len(where) > 1 else (lambda zs: [zs[k] for k in where])",
             f"    return get, list(map(id, old)), ({''.join(f'_flat(st[{i}]), ' for i in copied)})", "", "",
             "def restore(new, st, plan):",
             "    get, ids, flat = plan",
             f"    new[{gen}] = None",
             f"    new[:{run}] = st[:{run}]",
             f"    new[{size - 1}] = st[{size - 1}]",
             f"    old = [{', '.join(old)}]",
             f"    zs = [{', '.join(mine)}]",
             "    for z, o in zip(zs, old):", "        z[:] = o",
             "    memo = dict(zip(ids, zs))",
             "    zs.append(None)",
             f"    new[{loc}][:] = get(zs)"]
    scalars = ["frame"] + list(writer.scalars)
    lines += [f"    new[{i}] = _copy(st[{i}], memo)" for i, name in enumerate(scalars, 3)
              if name == "frame" or name.startswith("v_")]
    lines += [f"    new[{i}][:] = st[{i}]" for i in plain]
    lines += [f"    if not _refill(new[{i}], st[{i}], memo, flat[{k}]):\n        return False"
              for k, i in enumerate(copied)]
    lines += [f"    new[{slot['history']}][:] = st[{slot['history']}]",
              f"    new[{slot['rng']}].state = st[{slot['rng']}].state",
              "    return True", "", ""]
    return lines


def _depth(writer: Any, name: str) -> int:
    """How many subscripts lead from a zone family's name to one of its zone lists."""
    keys = list(writer.lay.zone_index[name])
    if keys == [()]:
        return 0
    return len(keys[0]) if isinstance(keys[0], tuple) else 1


def rebinds_objects(source: str, names: set, families: dict) -> bool:
    """Whether the generated `_gen` (in `source`) binds one of the state's objects (`names`) again
    outside a new game's start, or puts another list in a zone family's place (`families`: zone
    family name -> its depth) or deletes one."""
    tree = pyast.parse(source)
    gen = next(n for n in pyast.walk(tree) if isinstance(n, pyast.FunctionDef) and n.name == "_gen")
    start = next(s for s in gen.body if isinstance(s, pyast.Try)).body[0]  # `if not pc:  # a new game`
    skip = set(map(id, pyast.walk(start)))
    for node in pyast.walk(gen):
        if id(node) in skip or not isinstance(getattr(node, "ctx", None), (pyast.Store, pyast.Del)):
            continue
        if isinstance(node, pyast.Name) and node.id in names:
            return True
        if isinstance(node, pyast.Subscript):
            base, depth = node, 0
            while isinstance(base, pyast.Subscript):
                base, depth = base.value, depth + 1
            if isinstance(base, pyast.Name) and depth <= families.get(base.id, -1):
                return True
    return False
