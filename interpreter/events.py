"""Log lines and prompts as data: a template and its arguments.

An event is `[template, args]`: the rule's text with `{0}`, `{1}`, … where values were filled in
(literal braces doubled, as in Python's str.format) and one argument per value:

    {"piece": id, "label": text}                       a piece everybody could see
    {"piece": id, "label": text, "other": text,        a piece only `seers` could see when the
     "seers": [players]}                               line was written; others read `other`
    {"player": seat, "label": "P2"}
    {"zone": key, "list": [args]}                      a zone in a log line: its pieces
    {"list": [args]}                                   a list holding pieces
    {"label": text, "value": v}                        anything else (`value` for plain values)

`mask(arg, viewer)` is the argument as one player sees it: a piece they could not see keeps no
identity (`{"hidden": true, "label": …}`). `event_text` makes the line from a masked event.
"""
from __future__ import annotations

from typing import Any

from .labels import label, piece_label, player_label, zone_label
from .values import Piece, Player, ZoneRef

_PLAIN = (int, float, str, bool)


def arg_of(S: Any, value: Any, zone_contents: bool = False) -> dict:
    """One value of a line, as data; a piece records who can see it now. `zone_contents`: a zone
    stands for its pieces (log lines), else for its name (prompts)."""
    t = type(value)
    if t is Piece:
        full = piece_label(S, value)
        seers = [int(p) for p in S.players if S.sees(p, value)]
        if len(seers) == S.n:
            return {"piece": int(value), "label": full}
        return {"piece": int(value), "label": full, "other": piece_label(S, value, viewer=-1), "seers": seers}
    if t is Player:
        return {"player": int(value), "label": player_label(value)}
    if t is ZoneRef:
        if zone_contents:
            return {"zone": str(value), "list": [arg_of(S, p, True) for p in S.zones[value]]}
        return {"zone": str(value), "label": zone_label(S, value)}
    if isinstance(value, list) and any(type(v) is Piece for v in value):
        return {"list": [arg_of(S, v, zone_contents) for v in value]}
    out = {"label": label(S, value)}
    if value is None or t in _PLAIN:
        out["value"] = value
    return out


def template_of(segments: list) -> str:
    """The template of a line: literal texts as they are, None for each value ({0}, {1}, …)."""
    out, k = [], 0
    for s in segments:
        if s is None:
            out.append("{%d}" % k)
            k += 1
        else:
            out.append(s.replace("{", "{{").replace("}", "}}"))
    return "".join(out)


def mask(arg: dict, viewer: Any) -> dict:
    """The argument as `viewer` sees it (None: everything)."""
    if "list" in arg:
        out = {k: v for k, v in arg.items() if k != "list"}
        out["list"] = [mask(a, viewer) for a in arg["list"]]
        return out
    seers = arg.get("seers")
    if seers is None:
        return dict(arg)  # a copy: the observation never shares data with the state
    if viewer is not None and int(viewer) not in seers:
        return {"hidden": True, "label": arg["other"]}
    return {k: v for k, v in arg.items() if k not in ("other", "seers")}


def mask_event(event: list, viewer: Any) -> dict:
    """{"template", "args"} with every argument as `viewer` sees it."""
    return {"template": event[0], "args": [mask(a, viewer) for a in event[1]]}


def arg_text(arg: dict) -> str:
    """A masked argument as text."""
    if "list" in arg:
        items = arg["list"]
        return ", ".join(arg_text(a) for a in items) if items else "(empty)"
    return arg["label"]


def event_text(event: dict) -> str:
    """A masked event as the line a player reads."""
    return event["template"].format(*[arg_text(a) for a in event["args"]])


def line_for(event: list, viewer: Any) -> str:
    """event_text(mask_event(event, viewer)) without building the masked data (log_lines)."""
    args = event[1]
    if not args:
        return event[0].format()
    return event[0].format(*[_text_for(a, viewer) for a in args])


def _text_for(arg: dict, viewer: Any) -> str:
    items = arg.get("list")
    if items is not None:
        return ", ".join(_text_for(a, viewer) for a in items) if items else "(empty)"
    seers = arg.get("seers")
    if seers is not None and viewer is not None and int(viewer) not in seers:
        return arg["other"]
    return arg["label"]


def event_of_parts(parts: list) -> list:
    """An event made from a line's text parts (entries saved before events existed)."""
    segments, args = [], []
    for p in parts:
        if isinstance(p, str):
            segments.append(p)
        else:
            segments.append(None)
            args.append({"label": p[0], "other": p[1], "seers": list(p[2])})
    return [template_of(segments), args]


def entry_event(entry: list) -> list:
    """The event of a log entry."""
    return entry[2] if len(entry) > 2 else event_of_parts(entry[1])
