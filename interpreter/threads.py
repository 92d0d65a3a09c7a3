"""Running rule code as plain data: frames, threads and the decisions they wait for.

A thread is a stack of frames (procedure, program counter, locals); a thread stopped at a
`choose` or `perform` holds a Pending decision. All of it is plain data, so a game can stop at
any decision, be copied, saved as JSON and resumed (state.py, vm.py).
"""
from __future__ import annotations


_new = object.__new__  # copies set every slot themselves (they run at every clone)


class Frame:
    """One activation of a compiled procedure: which instruction is next, and its locals."""

    __slots__ = ("proc", "pc", "L", "ret")

    def __init__(self, proc, pc: int, L: dict, ret: str | None = None):
        self.proc = proc
        self.pc = pc
        self.L = L
        self.ret = ret

    def copy(self) -> "Frame":
        f = _new(Frame)  # no __init__ call: a clone copies every frame of every thread
        f.proc = self.proc
        f.pc = self.pc
        f.L = self.L.copy()
        f.ret = self.ret
        return f


_copy_frame = Frame.copy


class Pending:
    """A decision waiting for one player: the legal options and how to read the answer."""

    __slots__ = ("player", "kind", "prompt", "candidates", "options", "labels", "low", "high",
                 "picked", "optional", "var", "secret", "pos", "cache", "recipe", "label_key",
                 "prompt_event")

    def __init__(self, player, kind, prompt, candidates, low, high, optional, var, secret, pos):
        self.player = player
        self.kind = kind  # choose | perform
        self.prompt = prompt
        self.candidates = candidates  # remaining values to choose from
        self.options: list = []  # one value per option (a representative for a group)
        self.labels: list = []
        self.low = low
        self.high = high
        self.picked: list = []
        self.optional = optional
        self.var = var
        self.secret = secret  # made inside a simultaneous block
        self.pos = pos
        self.cache: dict | None = None  # piece -> (key, visible) while picking; not saved
        self.recipe: tuple | None = None  # what the labels are made from (options.labels_of)
        self.label_key: str | None = None  # the rule's `label` expression, if it gives one
        self.prompt_event: list | None = None  # the prompt as [template, args] (events.py)

    @staticmethod
    def ready(player, kind: str, prompt, candidates, options: list, optional: bool, var: str,
              secret: bool, pos, prompt_event, recipe: tuple, label_key: str | None) -> "Pending":
        """A single pick whose options are already made (no build_options): each slot set
        once, without __init__'s defaults being overwritten (a decision's hot path). One
        assignment a statement: `a.x, a.y = x, y` builds and unpacks a tuple (slower here)."""
        p = _new(Pending)
        p.player = player
        p.kind = kind
        p.prompt = prompt
        p.candidates = candidates
        p.options = options
        p.low = 1
        p.high = 1
        p.optional = optional
        p.var = var
        p.secret = secret
        p.pos = pos
        p.labels = None
        p.cache = None
        p.label_key = label_key
        p.picked = []
        p.recipe = recipe
        p.prompt_event = prompt_event
        return p

    def copy(self) -> "Pending":
        p = _new(Pending)  # one assignment a statement, as in ready
        p.player = self.player
        p.kind = self.kind
        p.prompt = self.prompt
        p.candidates = self.candidates
        p.low = self.low
        p.high = self.high
        p.optional = self.optional
        p.var = self.var
        p.secret = self.secret
        p.pos = self.pos
        p.options = self.options
        p.labels = self.labels
        p.picked = list(self.picked)
        p.cache = self.cache
        p.recipe = self.recipe
        p.label_key = self.label_key
        p.prompt_event = self.prompt_event
        return p


class Thread:
    """A line of rule execution. Simultaneous blocks run one child thread per player."""

    __slots__ = ("tid", "frames", "status", "pending", "player", "parent", "waiting", "since")

    def __init__(self, tid: int, frames: list, player=None, parent: int | None = None):
        self.tid = tid
        self.frames = frames
        self.status = "run"  # run | choose | wait | done
        self.pending: Pending | None = None
        self.player = player
        self.parent = parent
        self.waiting = 0
        self.since: int | None = None  # decisions taken before its simultaneous block opened

    def copy(self) -> "Thread":
        t = _new(Thread)  # one assignment a statement, as in Pending.ready
        t.tid = self.tid
        t.frames = list(map(_copy_frame, self.frames))
        t.player = self.player
        t.parent = self.parent
        t.status = self.status
        t.waiting = self.waiting
        t.since = self.since
        p = self.pending
        t.pending = None if p is None else p.copy()
        return t


def deciders_of(threads: list) -> dict:
    """Player -> the first thread waiting for that player's decision."""
    deciders: dict = {}
    for th in threads:
        if th.status == "choose":
            p = int(th.pending.player)
            if p not in deciders:
                deciders[p] = th
    return deciders


def waiting(S) -> dict:
    """S.deciders, rebuilt first if a clone left it out (clones index lazily: most clones in
    a search are applied to at once, and apply rebuilds the index anyway)."""
    d = S.deciders
    if d is None:
        d = S.deciders = deciders_of(S.threads)
    return d
