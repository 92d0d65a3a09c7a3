"""What pieces look like to a chooser, as far as it changes the options of a choice: the
engine offers pieces that look alike to the chooser once (options.build_options: a hidden piece
by its zone, back and face; a visible one by its item, face, changing attributes and who has
seen it). Kept per piece in plain lists: piece attributes that change during a game (one list
each), faces (FACE: the engine's S.face), who has seen a piece (SEEN), and the zone facts of
each zone list (ZI). Moves, draws, deals, shuffles, flips and reveals keep them as State does.

Kept only when the rule file has a choice among pieces (`self.looks`, program.ProgramWriter.source
writes the program again when it finds one); without one, faces and reveals change nothing the
program computes. runtime._piece_options makes the options."""
from __future__ import annotations

from typing import Any

from .. import ast
from .base import is_simple
from .piece_kinds import EMPTY, PIECE, PIECES, VALUE, PieceKindWriter, element, join


class LooksWriter(PieceKindWriter):
    """Changing attributes, faces, who has seen what, and choices among pieces (see above)."""

    def __init__(self, *args, looks: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        self.looks = looks  # keep faces, reveals and looks (ProgramWriter.source: if a choice reads them)
        self.looks_wanted = False  # ProgramWriter.source: a choice among pieces asks to keep looks
        self.refused: list = []  # refusals raised once the whole program is written (options_code)
        self.offering: list | None = None  # [kind, node, chooser] of the choice being written
        self.seen_kept = self.looks and any(
            isinstance(node, ast.Reveal) and node.to is not None
            for name, stmts in self.L.procs.items() if name != "scoring:final" for node in ast.walk(stmts))
        lay = self.lay
        # attributes whose entry the engine leaves unset until assigned, where unset and the
        # starting value differ: a look shows the entry (None until set), so it is kept apart
        self.unset_differs = {a for a in self.mutable if any(s.get(a) is not None for s in lay.static)}
        self.default_up = sorted(set(lay.face_up))

    # ------------------------------------------------------------------ state
    def piece_state_init(self) -> None:
        """Per-game lists: changing attributes, faces, who has seen what, zone facts by list."""
        for a in self.mutable:
            self.emit(1, f"M_{a} = list(A_{a})")
            if self.looks and a in self.unset_differs:
                self.emit(1, f"D_{a} = [None] * {len(self.lay.static)}")
        if not self.looks:
            return
        n = len(self.lay.static)
        self.emit(1, f"FACE = [None] * {n}")
        self.emit(1, f"SEEN = [None] * {n}" if self.seen_kept else "SEEN = None")
        entries = self.zone_facts()
        # ids taken by map() and the facts a constant tuple: cheaper than a dict display per game
        self.emit(1, f"ZI = dict(zip(map(id, ({''.join(c + ', ' for c, _ in entries)})), "
                     f"({''.join(f + ', ' for _, f in entries)})))")
        dyn = [f"D_{a}" if a in self.unset_differs else f"M_{a}" for a in self.mutable]
        per_piece, one = [], []
        for s, alone in zip(self.lay.static, self.lay.singular):
            names = [dyn[self.mutable.index(a)] for a in self.d.components[s["kind"]].mutable]
            per_piece.append("(" + "".join(f"{name}, " for name in names) + ")")
            one.append(names[0] if len(names) == 1 and not alone else "None")
        # the last entry: each piece's one changing attribute's list (not alone of its kind, one
        # such attribute), else None: runtime._open_options' quick loop
        self.emit(1, f"PS = (loc, ZI, FACE, SEEN, UP0, SINGULAR, HKEY, VKEY, [{', '.join(per_piece)}], "
                     f"[{', '.join(one)}])")

    def zone_facts(self) -> list[tuple[str, str]]:
        """ZI's entries: (a zone list's code, its facts (ordered, visibility face up, face down,
        owner) as code), every zone but the box."""
        entries = []
        for ref, info in self.lay.zones.items():
            if info.custom is not None:
                raise self.unsupported(f"zone {info.family} with a custom visibility")
            code = self.zone_list_code(info)
            if code is None:
                continue
            owner = None if info.owner is None else int(info.owner)
            entries.append((code, f"({info.ordered!r}, {info.vis_up!r}, {info.vis_down!r}, {owner!r})"))
        return entries

    def zone_list_code(self, info: Any) -> str | None:
        """The generated list of one zone (as program.state_init names it); None for the box."""
        if info.family not in self.d.zones:
            return None
        if not all(isinstance(k, (int, str)) for k in info.index):
            raise self.unsupported(f"looks of pieces in zone family {info.family} indexed by other values")
        return f"z_{info.family}" + "".join(f"[{k if isinstance(k, str) else int(k)!r}]" for k in info.index)

    def owner_table(self) -> list[str]:
        """A_owner_: each piece's owner as a seat number (None: nobody's), read by `.owner`."""
        owners = [None if s.get("owner") is None else int(s["owner"]) for s in self.lay.static]
        return [f"A_owner_ = {owners!r}\n"]

    def piece_tables(self) -> list[str]:
        """Module constants the looks read (program.source writes them)."""
        if not self.looks:
            return []
        lay = self.lay
        return [f"UP0 = {list(lay.face_up)!r}\n", f"SINGULAR = {list(lay.singular)!r}\n",
                f"HKEY = {_numbered(lay.hidden_key)!r}\n", f"VKEY = {_numbered(lay.visible_key)!r}\n"]

    # ------------------------------------------------------------------ attributes
    def e_Attr(self, n, env):
        if n.name in self.mutable and not (isinstance(n.obj, ast.Name) and n.obj.id == "option"
                                            and "option" not in env):
            if n.name in self.row_fields:
                raise self.unsupported(f".{n.name}, both a piece attribute and a table row's field", n)
            if self.kind(n.obj, env) not in (PIECE, None):
                raise self.unsupported(f".{n.name} of something that is no piece", n)
            return f"M_{n.name}[{self.expr(n.obj, env)}]"
        if n.name == "owner" and "owner" not in self.attrs and self.kind(n.obj, env) in (PIECE, None):
            if "owner" in self.row_fields:
                raise self.unsupported(".owner, both a piece's owner and a table row's field", n)
            return f"A_owner_[{self.expr(n.obj, env)}]"
        if n.name == "face_up":
            if not self.looks:
                raise self.unsupported(".face_up while looks are not kept", n)
            x = self.expr(n.obj, env)
            if not is_simple(x) or self.rely(n.obj, env) not in (PIECE, None):
                raise self.unsupported(".face_up of something not known to be a piece", n)
            return f"(UP0[{x}] if FACE[{x}] is None else FACE[{x}])"
        if n.name == "zone":
            if self.rely(n.obj, env) != PIECE:
                raise self.unsupported(".zone of something not known to be a piece", n)
            return f"loc[{self.expr(n.obj, env)}]"
        return super().e_Attr(n, env)

    def e_Compare(self, n, env):
        zone_like = [x for x in (n.left, n.right) if self.is_zone(x, env)
                     or (isinstance(x, ast.Attr) and x.name == "zone")]
        if zone_like and n.op in ("in", "not_in"):
            raise self.unsupported("a zone looked for in a list (lists of zones compare by contents)", n)
        if zone_like and n.op in ("==", "!="):  # a zone is one list: the same list, not equal contents
            if len(zone_like) != 2:
                raise self.unsupported("comparing a zone with something else", n)
            op = "is" if n.op == "==" else "is not"
            return f"({self.expr(n.left, env)} {op} {self.expr(n.right, env)})"
        return super().e_Compare(n, env)

    def piece_attr_store(self, t: ast.Attr, op: str, value: str, n: ast.Node, env: dict, depth: int) -> None:
        """`piece.attr = value` for an attribute that changes."""
        if t.name not in self.mutable or self.kind(t.obj, env) not in (PIECE, None):
            raise self.unsupported(f"assigning .{t.name} (not a changing attribute of a piece)", n)
        if join(self.kind(n.value, env), VALUE) != VALUE and self.attr_kind(t.name) is not None:
            raise self.unsupported(f"a piece's .{t.name} set to a piece", n)
        obj = self.expr(t.obj, env)
        if not is_simple(obj):
            o = self.fresh("pc")
            self.emit(depth, f"{o} = {obj}")
            obj = o
        place = f"M_{t.name}[{obj}]"
        if op != "=":
            value = f"{place} {op[0]} ({value})"
        if self.looks and t.name in self.unset_differs:
            self.emit(depth, f"D_{t.name}[{obj}] = {place} = {value}")
        else:
            self.emit(depth, f"{place} = {value}")

    def s_Assign(self, n, env, depth, chooser):
        t = n.target
        if isinstance(t, ast.Attr):
            if n.op not in ("=", "+=", "-=", "*="):
                raise self.unsupported(f"the assignment {n.op}", n)
            self.piece_attr_store(t, n.op, self.expr(n.value, env), n, env, depth)
            return
        super().s_Assign(n, env, depth, chooser)

    # ------------------------------------------------------------------ faces and who saw what
    def pieces_code(self, node: ast.Node, env: dict, depth: int, n: ast.Node) -> str:
        """A fresh local holding the pieces of `node` (a piece, a list of pieces, a zone) as a list."""
        kind = self.rely(node, env)
        code = self.expr(node, env)
        w = self.fresh("w")
        if kind == PIECE:
            self.emit(depth, f"{w} = [{code}]")
        elif kind in (PIECES, EMPTY):
            self.emit(depth, f"{w} = list({code})")
        elif kind is None:  # one piece or several: as the engine's _as_pieces tells them apart
            self.emit(depth, f"{w} = _as_piece_list({code})")
        else:
            raise self.unsupported("moving something that is no piece", n)
        return w

    def face_after(self, forced: Any, pc: str) -> str:
        if len(self.default_up) == 1:
            return repr(None if forced == self.default_up[0] else forced)
        return f"(None if UP0[{pc}] == {forced!r} else {forced!r})"

    def mark_moved(self, w: str, forced: Any, depth: int, first: str | None = None) -> None:
        """After a move: the engine clears who has seen the pieces and sets a forced face.
        `first`: lines (on `{pc}`, each after the first indented by `{pad}`) to write in the
        same loop before those."""
        pc = self.fresh("pc")
        lines = [] if first is None else [first.format(pc=pc, pad="    " * (depth + 1))]
        lines += self.moved_marks(pc, forced)
        if lines:
            self.emit(depth, f"for {pc} in {w}:")
            for line in lines:
                self.emit(depth + 1, line)

    def moved_marks(self, pc: str, forced: Any) -> list[str]:
        """The lines mark_moved writes for one moved piece `pc` (a local)."""
        lines = []
        if forced is not None:
            lines.append(f"FACE[{pc}] = {self.face_after(forced, pc)}")
        if self.seen_kept:
            lines.append(f"SEEN[{pc}] = None")
        return lines

    def dest_face(self, face: Any, dest: ast.Node) -> Any:
        if face is not None:
            return face
        name = dest.id if isinstance(dest, ast.Name) else dest.obj.id if isinstance(dest, ast.Index) else None
        fam = self.d.zones.get(name)
        if fam is None:
            raise self.unsupported("moving to something not known to be a zone", dest)
        return fam.face

    def s_Move(self, n, env, depth, chooser):
        if n.place == "bottom":  # the engine appends (only `top` inserts): the same move
            n = ast.Move(n.pos, n.what, n.to, None, n.at, n.face)
        if not self.looks:
            return super().s_Move(n, env, depth, chooser)
        forced = self.dest_face(n.face, n.to)
        w = self.pieces_code(n.what, env, depth, n)
        if n.place is None and n.at is None and not getattr(self, "grid_names", None):
            # runtime._move and the marks in one loop over the pieces (a list of their own)
            dest = self.zone_here(n.to, env, depth)
            self.mark_moved(w, forced, depth, f"loc[{{pc}}].remove({{pc}})\n{{pad}}{dest}.append({{pc}})\n"
                                              f"{{pad}}loc[{{pc}}] = {dest}")
            return
        inner = dict(env)
        inner["\x00moved"] = w
        self.bind_kind(w, PIECES)
        super().s_Move(ast.Move(n.pos, ast.Name(n.pos, "\x00moved"), n.to, n.place, n.at, n.face),
                       inner, depth, chooser)
        self.mark_moved(w, forced, depth)

    def s_Draw(self, n, env, depth, chooser):
        if not self.looks:
            return super().s_Draw(n, env, depth, chooser)
        forced = self.dest_face(n.face, n.dest)
        w = self.fresh("w")
        source = self.zone_here(n.source, env, depth)
        self.emit(depth, f"{w} = {source}[:max(0, {self.expr(n.count, env)})]")
        dest = self.zone_here(n.dest, env, depth)
        # runtime._move of the source's first pieces, in one loop: they leave the source
        # together (each was its first), join the destination in order, `loc` says where
        self.emit(depth, f"del {source}[:len({w})]")
        self.emit(depth, f"{dest}.extend({w})")
        self.mark_moved(w, forced, depth, f"loc[{{pc}}] = {dest}")

    def zone_here(self, node: ast.Node, env: dict, depth: int) -> str:
        """A zone's list, named once: the zone's own name, or a fresh local bound to it."""
        code = self.zone(node, env)
        if is_simple(code):
            return code
        name = self.fresh("zl")
        self.emit(depth, f"{name} = {code}")
        return name

    def s_Deal(self, n, env, depth, chooser):
        if not self.looks:
            return super().s_Deal(n, env, depth, chooser)
        forced = self.dest_face(n.face, n.family)
        k, w = self.fresh("k"), self.fresh("w")
        self.emit(depth, f"{k} = {self.expr(n.count, env)}")
        # the pieces dealt: from the top, one to each player in turn, k rounds (compiler._deal)
        self.emit(depth, f"{w} = {self.zone(n.source, env)}[:max(0, {k}) * {self.n}]")
        inner = dict(env)
        inner["\x00count"] = k
        super().s_Deal(ast.Deal(n.pos, ast.Name(n.pos, "\x00count"), n.source, n.family, n.face),
                       inner, depth, chooser)
        self.mark_moved(w, forced, depth)

    def s_Shuffle(self, n, env, depth, chooser):
        super().s_Shuffle(n, env, depth, chooser)
        if self.seen_kept:
            pc = self.fresh("pc")
            self.emit(depth, f"for {pc} in {self.zone(n.zone, env)}:")
            self.emit(depth + 1, f"SEEN[{pc}] = None")

    def revealed(self, node: ast.Node, env: dict, depth: int, n: ast.Node) -> str:
        """The pieces a flip or reveal touches (pieces, or every zone of `zones(family)`)."""
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "zones"
                and "zones" not in env and len(node.args) == 1 and isinstance(node.args[0], ast.Name)
                and node.args[0].id in self.d.zones):
            fam = node.args[0].id
            codes = [self.zone_list_code(info) for info in self.lay.zones.values() if info.family == fam]
            w = self.fresh("w")
            self.emit(depth, f"{w} = [pc for z in ({', '.join(codes)},) for pc in z]")
            return w
        return self.pieces_code(node, env, depth, n)

    def s_Flip(self, n, env, depth, chooser):
        if not self.looks:
            return
        w = self.revealed(n.what, env, depth, n)
        pc = self.fresh("pc")
        self.emit(depth, f"for {pc} in {w}:")
        up = f"(not (UP0[{pc}] if FACE[{pc}] is None else FACE[{pc}]))" if n.face is None else repr(n.face)
        self.emit(depth + 1, f"FACE[{pc}] = None if {up} == UP0[{pc}] else {up}")
        if self.seen_kept:
            self.emit(depth + 1, f"SEEN[{pc}] = None")

    def s_Reveal(self, n, env, depth, chooser):
        if not self.looks:
            return
        if n.to is None:  # face up for everyone
            return self.s_Flip(ast.Flip(n.pos, n.what, True), env, depth, chooser)
        if not self.seen_kept:
            return  # only in the final scoring: nothing is chosen after it
        w = self.revealed(n.what, env, depth, n)
        who = self.expr(n.to, env)  # a number is one player, else a list of them (_as_players)
        pc = self.fresh("pc")
        self.emit(depth, f"for {pc} in {w}:")
        self.emit(depth + 1, f"SEEN[{pc}] = _seen_by(SEEN[{pc}], {who})")

    # ------------------------------------------------------------------ choices among pieces
    def options_code(self, candidates: str, kind: Any, who: str, n: ast.Node) -> str:
        """The options (see offer) of candidates already written (`candidates`, whose
        kind is `kind`): what every pick of a choice offers, before a closing done/pass."""
        if kind in (VALUE, EMPTY):
            return f"list(dict.fromkeys({candidates}))"
        if kind != PIECES:  # said at the end: what made the kind unknown is named first, if it is refused
            self.refused.append(self.unsupported(
                "a choice among things not known to be all pieces or all other values", n))
            return "None"
        if not self.looks:  # ProgramWriter.source writes the program again, keeping them
            raise self.unsupported("a choice among pieces while looks are not kept", n)
        return f"_piece_options({candidates}, {who}, PS)"

    def s_Choose(self, n, env, depth, chooser):
        """The statement writer's choice (choices.py's, where it is there), its options made by
        `offer` below for the chooser it names (chooser_of); the chosen name keeps the kind of
        what it was chosen from."""
        kind = self.rely(n.source, env)
        outer, self.offering = self.offering, [kind, n, None]
        try:
            if getattr(super(), "offer", None) is None and not (n.optional or n.where is not None
                                                               or n.count != "one"):
                self._choose_one(n, env, depth, chooser)  # no choices.py (its offer) to write it
            else:
                super().s_Choose(n, env, depth, chooser)
        finally:
            self.offering = outer
        self.bind_kind(env[n.var], element(kind) if n.count == "one" else kind)

    def _choose_one(self, n, env, depth, chooser) -> None:
        who = self.chooser_of(n.by, env, depth, chooser, n)
        env[n.var] = var = self.fresh(n.var)
        options = self.fresh("options")
        self.offer(options, self.expr(n.source, env), depth)
        index = self.decide(options, who, depth)
        self.emit(depth, f"{var} = {options}[{index}]")

    def chooser_of(self, by, env, depth, chooser, n):
        who = super().chooser_of(by, env, depth, chooser, n)
        if self.offering is not None and self.offering[1] is n:
            self.offering[2] = who  # the choice's options are made for this player
        return who

    def offer(self, options: str, cands: str, depth: int, *rest) -> None:
        """`options` = what the engine offers the chooser among the candidates `cands` (choices.py
        asks for every pick of a choice: one, optional, of several)."""
        if self.offering is None or self.offering[2] is None:
            return super().offer(options, cands, depth, *rest)
        kind, n, who = self.offering
        if kind == PIECES and not self.looks and not self.looks_wanted:
            return super().offer(options, cands, depth, *rest)  # a writer keeping no looks (the stepper)
        self.emit(depth, f"{options} = {self.options_code(cands, kind, who, n)}")


def _numbered(keys: list) -> list:
    """Each key as a number, equal keys the same number (cheaper to hash in a look)."""
    numbers: dict = {}
    return [numbers.setdefault(k, len(numbers)) for k in keys]
