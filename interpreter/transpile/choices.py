"""Choices beyond one required pick: several items (`choose 2 xs`, `choose up to k xs`,
`choose 1 to k xs`), optional choices and performs (a `pass` option), and `where` filters.

Written as the engine asks them (decisions.start_choice and take): the candidates are the
source filtered by `where`, then the bounds are computed; a choice of several is a sequence of
single picks, each among the candidates not picked yet (one occurrence removed per pick), with
the `done` option (options.DONE) appended once enough are picked, or always if the choice is
optional; it ends at `done`, at the upper bound or when nothing is left. An optional single
choice ends its options with options.PASS and gives none for it."""
from __future__ import annotations

from .. import ast
from .base import WriterBase


class ChoiceWriter(WriterBase):
    sequential_block = False  # inside a simultaneous block played one player after the other
    optional_perform = False  # writing an optional perform (perform_pick adds the pass)

    def lookalikes(self) -> dict:
        """piece -> a number shared by the pieces it may look like (same item, owner and
        component: layout.singular false), for the pieces that are not alone of their kind."""
        classes: dict = {}
        return {p: classes.setdefault(self.lay.visible_key[p], len(classes))
                for p in range(len(self.lay.static)) if not self.lay.singular[p]}

    def offer(self, options: str, cands: str, depth: int) -> None:
        """`options` = each distinct candidate once, in order (options.build_options): the
        engine's options while no two candidates look alike to the chooser. Pieces that may look
        alike sharing a zone stop the program (the engine would offer them once, or not, by
        faces and views the program does not keep): the caller replays that game in the engine.
        The test is one set operation per decision unless a look-alike piece is offered."""
        self.emit(depth, f"{options} = list(dict.fromkeys({cands}))")
        if any(not alone for alone in self.lay.singular):
            self.emit(depth, f"if not _ALIKES.isdisjoint({options}):")
            self.emit(depth + 1, f"_no_lookalikes({options}, _ALIKE, loc)")

    def s_Choose(self, n, env, depth, chooser):
        self.plain_prompt(n)
        if n.optional or n.where is not None or n.count != "one":
            self.choose_general(n, env, depth, chooser)
            return
        super().s_Choose(n, env, depth, chooser)

    def s_Perform(self, n, env, depth, chooser):
        if n.where is not None:
            raise self.unsupported("`where` on perform (the engine does not apply it)", n)
        self.plain_prompt(n)
        if "event:action_end" in self.d.procs:  # the engine runs it after every perform
            raise self.unsupported("a handler of the event action_end", n)
        if n.optional:  # the statement writer's perform, its pick written by perform_pick
            n = ast.Perform(n.pos, n.actions, None, n.by, n.prompt, False)
            self.optional_perform = True
        super().s_Perform(n, env, depth, chooser)

    def plain_prompt(self, n: ast.Choose | ast.Perform) -> None:
        """Refuse a prompt with {values}: the engine computes them (and can fail on them) at
        every decision; the program shows no prompt."""
        if n.prompt and "{" in n.prompt.replace("{{", "").replace("}}", ""):
            raise self.unsupported("a prompt with {values}", n)

    def candidates(self, n: ast.Choose, env: dict, depth: int) -> str:
        """A fresh local list of the choice's candidates: its source, filtered by `where`."""
        cands = self.fresh("cands")
        src = self.expr(n.source, env)
        if n.where is None:
            self.emit(depth, f"{cands} = _listed({src})")
            return cands
        inner = dict(env)
        inner[n.var] = w = self.fresh(n.var)
        self.emit(depth, f"{cands} = [{w} for {w} in _listed({src}) if {self.expr(n.where, inner)}]")
        return cands

    def ask(self, options: str, who: str, depth: int) -> str:
        """The chosen value: `who` picks among `options` (a decision as `decide` writes it)."""
        return f"{options}[{self.decide(options, who, depth)}]"

    def choose_general(self, n: ast.Choose, env: dict, depth: int, chooser: str | None) -> None:
        """A choice that is optional, of several items or filtered by `where`."""
        cands = self.candidates(n, env, depth)
        if n.count == "one":
            who = self.chooser_of(n.by, env, depth, chooser, n)
            env[n.var] = var = self.fresh(n.var)
            options = self.fresh("options")
            self.offer(options, cands, depth)
            if not n.optional:
                self.emit(depth, f"if not {options}:")
                self.emit(depth + 1, "raise RuntimeError('nothing to choose from')")
                self.emit(depth, f"{var} = {self.ask(options, who, depth)}")
                return
            # asked even with nothing to pick: skipping would tell that nothing is eligible
            self.emit(depth, f"{options}.append(_PASS)")
            self.emit(depth, f"{var} = {self.ask(options, who, depth)}")
            self.emit(depth, f"if {var} == _PASS:")
            self.emit(depth + 1, f"{var} = None")
            return
        if self.sequential_block:
            raise self.unsupported("a choice of several in a simultaneous block played block by block", n)
        low, high = self.choice_bounds(n, env, depth)
        who = self.chooser_of(n.by, env, depth, chooser, n)
        env[n.var] = var = self.fresh(n.var)
        self.several(n, cands, low, high, who, var, depth)

    def choice_bounds(self, n: ast.Choose, env: dict, depth: int) -> tuple[str, str]:
        """The variables of the least and most items to pick, computed as the compiler does."""
        low, high = self.fresh("lo"), self.fresh("hi")
        if n.count == "exact":
            self.emit(depth, f"{low} = {high} = {self.expr(n.low, env)}")
        elif n.count == "up_to":
            self.emit(depth, f"{low} = 0")
            self.emit(depth, f"{high} = {self.expr(n.high, env)}")
        elif n.count == "range":
            self.emit(depth, f"{low} = {self.expr(n.low, env)}")
            self.emit(depth, f"{high} = {self.expr(n.high, env)}")
        else:
            raise self.unsupported(f"a choice counted as {n.count!r}", n)
        return low, high

    def several(self, n: ast.Choose, cands: str, low: str, high: str, who: str, var: str, depth: int) -> None:
        """The picks of a choice of several, one decision each (decisions.take)."""
        size, options, value = self.fresh("n"), self.fresh("options"), self.fresh("v")
        self.emit(depth, f"{size} = len({cands})")
        if n.count != "exact":
            self.emit(depth, f"if {high} is None or {high} > {size}:")
            self.emit(depth + 1, f"{high} = {size}")
        self.emit(depth, f"{var} = []")
        if n.optional:
            self.emit(depth, "while True:")
        else:
            self.emit(depth, f"if {size} < {low}:")
            self.emit(depth + 1, f"raise RuntimeError('{n.var}: fewer candidates than must be chosen')")
            self.emit(depth, f"while not ({high} <= 0 or {size} == 0):")
        inner = depth + 1
        self.offer(options, cands, inner)
        done = "True" if n.optional else f"len({var}) >= {low}"
        self.emit(inner, f"if {done}:")
        self.emit(inner + 1, f"{options}.append(_DONE)")
        self.emit(inner, f"{value} = {self.ask(options, who, inner)}")
        self.emit(inner, f"if {value} == _DONE or {value} == _PASS:")
        self.emit(inner + 1, "break")
        self.emit(inner, f"{var}.append({value})")
        self.emit(inner, f"{cands}.remove({value})")
        self.emit(inner, f"if len({var}) >= {high} or not {cands}:")
        self.emit(inner + 1, "break")

    def perform_pick(self, n: ast.Perform, options: str, who: str, name: str, depth: int) -> None:
        """`name` = the action picked among `options` (names), or None for an optional
        perform's `pass` or when it has no legal action (decisions.start_perform)."""
        optional, self.optional_perform = self.optional_perform, False  # not the actions' own performs
        if not optional:
            index = self.decide(options, who, depth)
            self.emit(depth, f"{name} = {options}[{index}]")
            return
        self.emit(depth, f"if {options}:")
        self.emit(depth + 1, f"{options}.append(_PASS)")
        self.emit(depth + 1, f"{name} = {self.ask(options, who, depth + 1)}")
        self.emit(depth, "else:")
        self.emit(depth + 1, f"{name} = None")
