"""The game log, with per-player redaction.

A log entry is `[round, parts, event]`. `parts` is the line as text: each part is a string
everybody may read, or `[full text, text for others, [players who may read the full text]]`.
`event` is the same line as data: `[template, args]`, the rule's text with `{0}`, `{1}`, … where
values were filled in, and one argument per value (args.py: a piece keeps who could see it when
the line was written). What a player may see is fixed when the line is written, so later moves
never change old lines. Entries saved before events existed have no third element; the
observation (observation.py) then makes an event from the parts.
"""
from __future__ import annotations

from typing import Any

from .events import arg_of, template_of
from .labels import piece_label, player_label
from .options import labels_of
from .values import Piece

# Called as watch(S) whenever a log line is written: the hidden-information audit
# (interpreter/audit.py) notes what each player could see at that moment.
LINE_WATCHERS: list = []


def _parts(arg: dict) -> list:
    """A line's value (its event argument, events.py) as text parts: a piece only some players
    could see when the line was written is [full text, text for others, those players]."""
    items = arg.get("list")
    if items is not None:  # a zone's or a list's pieces, each as the reader may see it
        if not items:
            return ["(empty)"]
        out: list = []
        for i, a in enumerate(items):
            if i:
                out.append(", ")
            out.extend(_parts(a))
        return out
    if "seers" in arg:
        return [[arg["label"], arg["other"], arg["seers"]]]
    return [arg["label"]]


def log_entry(S: Any, values: list, th: Any = None, holes: Any = None, template: str | None = None) -> list:
    """A log line from its segments: literal texts and values. `holes`: the indices of the
    segments that are values (a value may be a text too; None: every non-text segment);
    `template`: the line's template if already made (events.template_of)."""
    for watch in LINE_WATCHERS:
        watch(S)
    parts: list = []
    literal: list | None = [] if template is None else None
    args: list = []
    for i, v in enumerate(values):
        if (type(v) is not str) if holes is None else (i in holes):
            arg = arg_of(S, v, zone_contents=True)
            parts.extend(_parts(arg))
            args.append(arg)
            if literal is not None:
                literal.append(None)
        else:
            parts.append(v)
            if literal is not None:
                literal.append(v)
    return [S.vars.get("round", 0), parts, [template_of(literal) if literal is not None else template, args]]


def decision_entry(S: Any, pend: Any, value: Any, index: int) -> list:
    who = player_label(pend.player)
    text = labels_of(S, pend)[index]
    choice: dict = {"label": text}
    if pend.secret:
        part: Any = [text, "(secret)", [int(pend.player)]]
        choice.update(other="(secret)", seers=[int(pend.player)])
    elif type(value) is Piece and not all(S.sees(p, value) for p in S.players):
        # the chooser reads the option they picked; others see it only if they see the piece
        seers = sorted({int(p) for p in S.players if S.sees(p, value)} | {int(pend.player)})
        part = [text, piece_label(S, value, viewer=-1), seers]
        choice.update(other=part[1], seers=seers)
    else:  # an option stands for a group of look-alike pieces: its label is what was chosen
        part = text
    event = ["{0} chooses {1}", [arg_of(S, pend.player), choice]]
    return [S.vars.get("round", 0), [who, " chooses ", part], event]


def render(entry: list, viewer: Any = None) -> str:
    """One log line as `viewer` may read it (None: everything)."""
    out = []
    for p in entry[1]:
        if isinstance(p, str):
            out.append(p)
        elif viewer is None or int(viewer) in p[2]:
            out.append(p[0])
        else:
            out.append(p[1])
    return "".join(out)


def log_for(S: Any, viewer: Any = None) -> list[str]:
    return [render(e, viewer) for e in S.log]
