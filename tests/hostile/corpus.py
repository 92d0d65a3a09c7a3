"""The hostile corpus: inputs that once hung, exhausted memory, crashed or were silently accepted.

Each probe is a small set of files and one `rulebook` command. The verdict every probe must
reach: exit 1 (invalid input) with every stderr line located (`file:line:col: … [Ennn]` or
`file: … [Ennn]`) and a stable code — never exit 3 (internal error), never a traceback, never a
hang, never memory exhaustion. Probes marked `ok` must succeed instead (exit 0), e.g. strings
with quotes and backslashes that are legitimate text.
"""
from __future__ import annotations

import json
import textwrap
from dataclasses import dataclass, field

GAME = """\
game:
  id: probe
  name: Probe
  players: {{min: 2, max: 2}}
zones:
  deck: {{ordered: true}}
  hand: {{per: [player], visibility: owner}}
counters:
  points: {{per: [player], initial: 0}}
{extra}
setup:
  - id: start
    do: |
{setup}
flow:
  rounds: 1
  phases:
    - id: main
      turns: seat
      turn: |
        choose x from [1, 2] prompt "Pick"
        points[player] += x
scoring:
  score: {score}
"""


def game(setup: str = "pass", extra: str = "", score: str = "points[player]") -> str:
    """A small valid game with `setup` (DSL) run at the start and `extra` top-level YAML."""
    return GAME.format(setup=textwrap.indent(textwrap.dedent(setup).strip("\n"), " " * 6),
                       extra=textwrap.dedent(extra).strip("\n"), score=score)


@dataclass
class Probe:
    name: str
    files: dict  # file name → text (or bytes)
    argv: list  # rulebook arguments; file names are relative to the probe's directory
    code: str | None = None  # the stable error code expected (None: any located code)
    ok: bool = False  # the input is legitimate: must succeed
    slow: bool = False  # takes seconds even when handled well (only with --slow)
    note: str = ""
    tags: list = field(default_factory=list)


def _play(text: str, name: str, code: str | None = None, **kw) -> Probe:
    return Probe(name, {"game.yaml": text}, ["play", "game.yaml", "--quiet"], code, **kw)


def _validate(text: str, name: str, code: str | None = None, **kw) -> Probe:
    return Probe(name, {"game.yaml": text}, ["validate", "game.yaml"], code, **kw)


def _log(base: dict, name: str, code: str | None = None, **changes) -> Probe:
    import hashlib
    text = game()
    data = dict(base, rules_hash=hashlib.sha256(b"game.yaml" + text.encode()).hexdigest()[:16])
    data.update(changes)
    return Probe(name, {"game.yaml": text, "log.json": data}, ["replay", "log.json"], code)


LOG = {"format": 1, "game": "probe", "rules_hash": "?", "rules": "game.yaml", "files": [],
       "variants": [], "players": 2, "options": {}, "seed": 0, "lang": None,
       "decisions": [[0, 0], [1, 0]], "final_hash": "?"}

SCENARIO_GAME = game()


def _quick(probe: Probe, *limits: str) -> list[Probe]:
    """The probe with the default limits (slow: seconds of work before the limit), and a copy
    with lower limits set by `--limit` (fast, in the default suite)."""
    import copy
    quick = copy.deepcopy(probe)
    quick.name += f" (with {', '.join(limits)})"
    for lim in limits:
        quick.argv = ["--limit", lim] + quick.argv
    probe.slow = True
    return [probe, quick]


def probes() -> list[Probe]:
    P = []
    # ---- hangs and memory exhaustion inside the limits
    P.append(_play(game("let x = count(range(1000000), a => count(range(1000000), b => a == b))"),
                   "nested counts over a million", "E310"))
    P.extend(_quick(P.pop(), "work=2000000"))
    nested = _play(game("let x = [a for a in range(1000000) if count([b for b in range(1000000) if b == a]) > 0]"),
                   "nested comprehensions (with --limit work=2000000)", "E310")
    nested.argv = ["--limit", "work=2000000"] + nested.argv
    P.append(nested)
    inner = _play(game("let x = sum(map(range(1000000), a => max(range(1000000))))"),
                  "builtin over a million inside map (with --limit work=2000000)", "E310")
    inner.argv = ["--limit", "work=2000000"] + inner.argv
    P.append(inner)
    P.append(_play(game(extra="""
        functions:
          f:
            params: [n]
            expr: "0 if n == 0 else f(n - 1) + f(n - 1)"
        """, setup="let x = f(60)"), "exponential expression function", "E310"))
    P.extend(_quick(P.pop(), "work=1000000"))
    P.append(_play(game(extra="""
        functions:
          f:
            params: [n]
            do: |
              if n > 0:
                call f(n - 1)
                call f(n - 1)
        """, setup="call f(60)"), "exponential procedure calls", "E310"))
    P.extend(_quick(P.pop(), "steps=50000"))
    P.append(_play(game(extra="""
        functions:
          f:
            params: [n]
            do: |
              if n == 0:
                return 0
              return f(n - 1) + f(n - 1)
        """, setup="let x = f(60)"), "exponential procedures inside expressions", "E310"))
    P.extend(_quick(P.pop(), "work=1000000"))
    P.append(_play(game('let s = "xxxxxxxx"\nrepeat 40:\n  s = s + s'), "string doubling", "E314"))
    P.append(_play(game('let s = [1, 2, 3, 4]\nrepeat 40:\n  s = s + s'), "list doubling", "E314"))
    P.append(_play(game('let s = 3\nrepeat 40:\n  s = s * s'), "integer squaring", "E314"))
    P.append(_play(game('let s = "ab"\nrepeat 40:\n  s += s'), "string doubling with +=", "E314"))
    P.append(_play(game('let s = "%0999999999d" % 1'), "text formatting with %", "E300"))
    P.append(_validate(game(extra="""
        components:
          chip:
            kind: token
            start: deck
            items:
              - {id: chip, count: 1000000000}
        """), "a billion pieces", "E304"))
    P.append(_validate(game(extra="""
        components:
          chip:
            kind: token
            start: deck
            items:
              - {id: chip, count: "option.n * 100000000"}
        options:
          n: {type: int, default: 10, min: 1, max: 10}
        """), "a billion pieces from an option", "E304"))
    P.append(_validate(game('let s = "' + "x" * 1_000_000 + '"'), "a 1 MB string literal", None, ok=True,
                       note="must not cost hundreds of MB (Lark's old string pattern backtracked)"))
    P.append(_validate('"' + "\\\\" * 200_000 + 'x', "an unterminated string of backslashes", "E002"))
    big = "x" * 5_000_000
    P.append(_validate("big: &b " + big + "\nrefs: [" + ", ".join(["*b"] * 150_000) + "]\n",
                       "one 5 MB string referenced 150,000 times", None, note="E005 (file size) at once"))
    P.append(_validate("big: &b " + "x" * 1_000_000 + "\nrefs: [" + ", ".join(["*b"] * 20_000) + "]\n",
                       "one 1 MB string referenced 20,000 times", "E003"))
    P.append(_validate("a: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\n"
                       "c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\n"
                       "e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]\nf: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e, *e]\n",
                       "billion laughs", "E003"))
    P.append(_validate("k:\n" + "".join(f"  k{i}: v{i}\n" for i in range(2_000_000)),
                       "a 30 MB YAML file without aliases", "E005"))
    P.append(_validate("k: [" + "1," * 120_000 + "1]\n", "120,000 YAML nodes without aliases", "E003"))
    P.append(_play(game(extra="tables:\n  big: [" + "1," * 90_000 + "1]"), "a table of 90,000 numbers", None, ok=True))
    P.append(_validate("a: " + "[" * 900 + "]" * 900 + "\n", "YAML nested 900 deep", "E003"))
    P.append(_validate("a:\n" + "".join("  " * i + "- \n" for i in range(1, 200)), "YAML block lists nested 200 deep", "E003"))
    P.append(_validate(game(extra="tables:\n  t: {x: " + "9" * 5000 + "}"), "a 5,000-digit integer in YAML", "E002"))
    P.append(_validate(game(extra="tables:\n  t: {x: .nan}"), "NaN in YAML", "E002"))
    P.append(_validate(game(extra='tables:\n  t: {x: "\\ud800"}'), "lone surrogate escape in YAML", "E002"))
    P.append(_validate(game().encode("utf-8") + b"\n# \xff\xfe\n", "a rule file that is not UTF-8", "E001"))
    P.append(_validate(game().replace("{min: 2, max: 2}", "{min: 2, max: 1000000000000}"),
                       "a trillion players", "E010"))
    P.append(_validate(game(extra="functions:\n  f:\n    params: [" + ", ".join("{a: %d}" % i for i in range(20_000))
                                  + ']\n    expr: "1"'), "20,000 maps where unique ids belong", "E010",
                       note="jsonschema compared them pairwise: minutes; also 20,000 errors are cut to 100"))
    P.append(_validate(game(extra="""
        constraints:
          - id: three
            check: "player_count >= 3"
            message: "needs three players"
        """), "a default player count the file's constraints refuse", "E108"))
    # ---- internal errors that must become located errors
    P.append(_play(game(extra="""
        variables:
          v: {initial: "g(1)"}
        functions:
          g:
            params: [n]
            expr: "g(n + 1)"
        """), "recursion while loading", "E311"))
    P.append(_play(game(extra="""
        functions:
          g:
            params: [n]
            expr: "g(n + 1)"
        """, setup="let x = g(1)"), "endless recursion of an expression function", "E311"))
    P.append(_validate(game("let x = " + " + ".join(["1"] * 20_000)), "a 20,000-term sum", "E203"))
    P.append(_validate(game("let x = " + "[" * 5_000 + "]" * 5_000), "deep list nesting", "E203"))
    P.append(_validate(game("let x = " + "(" * 5_000 + "1" + ")" * 5_000), "deep parentheses", None, ok=True))
    P.append(_validate(game("let x = " + "not " * 5_000 + "true"), "deep not", "E203"))
    P.append(_validate(game("let x = " + "-" * 5_000 + "1"), "deep minus", None, ok=True))
    for text, what in [("[" * 95 + "]" * 95, "lists"), ("not " * 95 + "true", "nots"),
                       ("1 + (" * 95 + "1" + ")" * 95, "right sums"), ('"a" + ("a" + ' * 95 + '"a"' + ")" * 95, "texts"),
                       ("reverse(" * 95 + "[1]" + ")" * 95, "calls"), ("1 if true else (" * 95 + "1" + ")" * 95, "ternaries"),
                       ("count([1], a => " * 47 + "true" + ")" * 47, "lambdas"),
                       ("[" + "[x for x in " * 47 + "[1]" + "]" * 47 + "]", "comprehensions")]:
        P.append(_play(game("let x = " + text), f"nesting just under the limit: {what}", None, ok=True))
    P.append(_validate(game('log "\\x"'), "bad \\x escape", "E201"))
    P.append(_validate(game('log "\\N{NO SUCH CHARACTER NAME}"'), "bad \\N escape", "E201"))
    P.append(_validate(game('log "\\ud800"'), "lone surrogate escape", "E201"))
    P.append(_validate(game("let x = " + "9" * 5_000), "a 5,000-digit integer literal", "E201"))
    P.append(_play(game(score="1 // 0"), "division by zero in scoring", "E300"))
    P.append(_play(game().replace('choose x from [1, 2] prompt "Pick"', 'choose x from [1, 2] label x["a"] prompt "Pick"'),
                   "an option label that fails", "E300"))
    P.append(_play(game(score='points[player] + "a"'), "type error in scoring", "E300"))
    P.append(_play(game(score="undefined_fn_in_score()"), "unknown function in scoring", "E217"))
    P.append(Probe("unwritable --log path", {"game.yaml": game()},
                   ["play", "game.yaml", "--quiet", "--log", "no/such/dir/log.json"], "E501"))
    P.append(Probe("--log path is a directory", {"game.yaml": game(), "d/x": ""},
                   ["play", "game.yaml", "--quiet", "--log", "d"], "E501"))
    # ---- saved logs
    P.append(_log(LOG, "a wrong final hash", "E504"))
    P.append(_log(LOG, "decisions is a number", "E502", decisions=3))
    P.append(_log(LOG, "players is text", "E502", players="two"))
    P.append(_log(LOG, "seed is text", "E502", seed="abc"))
    P.append(_log(LOG, "options is a list", "E502", options=[]))
    P.append(_log(LOG, "rules is a number", "E502", rules=7))
    P.append(_log(LOG, "variants is text", "E502", variants="v.yaml"))
    P.append(_log(LOG, "seed is a boolean", "E502", seed=True))
    P.append(_log(LOG, "unknown log format", "E503", format=99))
    P.append(_log(LOG, "an option the rules do not have", "E502", options={"x": "while true:\n  pass"}))
    P.append(_log(LOG, "more players than the rules allow", "E502", players=9))
    P.append(_log(LOG, "decisions hold booleans", "E502", decisions=[[False, True]]))
    P.append(Probe("NaN in a log", {"game.yaml": game(), "log.json": '{"format": 1, "seed": NaN}'},
                   ["replay", "log.json"], "E502"))
    P.append(Probe("deeply nested log", {"game.yaml": game(), "log.json": "[" * 100_000 + "]" * 100_000},
                   ["replay", "log.json"], "E502"))
    P.append(Probe("lone surrogate in a log", {"game.yaml": game(),
                                                "log.json": b'{"format": 1, "game": "\xed\xa0\x80"}'},
                   ["replay", "log.json"], "E502"))
    P.append(Probe("escaped lone surrogate in a log", {"game.yaml": game(),
                                                        "log.json": '{"format": 1, "game": "\\ud800"}'},
                   ["replay", "log.json"], "E502"))
    P.append(Probe("a log that is a list", {"game.yaml": game(), "log.json": "[1, 2]"},
                   ["replay", "log.json"], "E502"))
    # ---- silent acceptance
    P.append(_validate("!!python/object:os.system\ngame: {id: x}\n", "python object tag on a mapping", "E002"))
    P.append(_validate("game: !!python/object/apply:os.system [echo hi]\n", "python apply tag on a sequence", "E002"))
    P.append(_validate("game: !!set {a: null}\n", "set tag", "E002"))
    P.append(_validate("game: !!omap [a: 1]\n", "omap tag", "E002"))
    P.append(_validate("game: !custom {a: 1}\n", "custom tag", "E002"))
    P.append(_validate('game: !!python/name:os.system ""\n', "python name tag on a scalar", "E002"))
    P.append(_validate(game().replace("id: probe", 'id: "probe\\n"'), "id with a trailing newline", "E010"))
    P.append(_validate(game().replace("- id: main", '- id: "main\\n"'), "phase id with a trailing newline", "E010"))
    P.append(_validate(game(extra="options:\n  n: {type: int, default: 1, values: [false, true]}"),
                       "booleans as integer values", "E010"))
    P.append(_validate(game(extra="options:\n  n: {type: int, default: false}"),
                       "boolean as an integer default", None))
    # ---- work lost
    P.append(Probe("a failing scenario does not stop the others", {
        "game.yaml": game(),
        "t.yaml": textwrap.dedent("""\
            game: game.yaml
            scenarios:
              - name: first fails
                steps:
                  - play_until: {until: "1 // 0 == 1"}
              - name: second fails at runtime
                steps:
                  - arrange: "points[players[0]] = 1 // 0"
              - name: third passes
                steps:
                  - expect: ["points[players[0]] == 0"]
            """)}, ["test", "t.yaml"], None, note="exit 1; the third scenario still runs and passes",
        tags=["third-passes"]))
    # ---- code injection attempts (all must stay data)
    for text in ['__import__("os").system("echo pwned")', "().__class__.__bases__[0].__subclasses__()",
                 "points.__class__", "S.rng", "L", "_items", "eval('1')", "exec", "globals()",
                 "lambda: 1", "__builtins__"]:
        P.append(_validate(game("let x = " + text), f"injection: {text}", None))
    for name in ["__import__", "__class__", "_k0", "S", "L", "Piece", "_items", "ñandú", "x\u200b"]:
        P.append(_validate(game(f"let {name} = 1"), f"local named {name!r}", None,
                           ok=name in ("__import__", "__class__", "_k0", "S", "L", "Piece", "_items")))
    for text in ['"it\'s"', "'say \"hi\"'", r'"back\\slash"', r'"new\nline"', r'"\"); import os; ("', r"'\\'"]:
        P.append(_play(game(f"log {text}"), f"string literal {text}", None, ok=True))
    P.append(_validate(game('log "a\nb"'), "raw newline inside a string", "E201"))
    P.append(_validate(game("if true:\n    pass\n  pass"), "a dedent to a column no block started at", "E201"))
    P.append(_validate(game().replace("points: {per: [player], initial: 0}", 'points: {per: [player], max: "_items"}'),
                       "an unknown name as a counter bound", "E213"))
    P.append(_play(game(extra="options:\n  cap: {type: int, default: 3, min: 1, max: 9}").replace(
        "points: {per: [player], initial: 0}", 'points: {per: [player], initial: 0, max: "option.cap"}'),
        "a counter bound from an option", None, ok=True))
    P.append(_validate(game().replace("id: probe", 'id: "probe\'); import os; (\'"'), "id with quotes", "E010"))
    P.append(_validate(game().replace("hand:", '"__import__":'), "zone named __import__", None))
    P.append(_validate(game(extra='functions:\n  f:\n    params: ["x\\n"]\n    expr: "1"'),
                       "function parameter with a trailing newline", "E010"))
    P.append(_validate(game(extra='functions:\n  f:\n    params: ["x=__import__(\'os\')"]\n    expr: "1"'),
                       "function parameter holding Python code", "E010"))
    P.append(_validate(game(extra='functions:\n  "f(S): pass #":\n    expr: "1"'),
                       "function name holding Python code", "E010"))
    P.append(_validate(game(extra='tables:\n  t: {"\\"]; import os; x = [\\"": 1}'), "table key closing a string", None, ok=True))
    P.append(_validate(game(extra='tables:\n  t:\n    "a\\"b": {x: 1}'), "table key with a quote", None, ok=True))
    return P


def write(probe: Probe, directory) -> None:
    from pathlib import Path
    for name, text in probe.files.items():
        path = Path(directory) / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(text, (dict, list)):
            text = json.dumps(text)
        if isinstance(text, bytes):
            path.write_bytes(text)
        else:
            path.write_text(text, encoding="utf-8")
