"""The Lark side of parsing DSL text: the LALR parser, and the transformer that builds the AST
of interpreter.ast while Lark parses, with every position mapped back to the YAML file through
the string's SourceMap (errors point where the author typed); syntax errors in words.

Imported only when a text has to be parsed (interpreter/parser.py): a load whose every text
is known from the load cache does not import Lark at all.
"""
from __future__ import annotations

import ast as pyast
import pickle
from functools import lru_cache
from pathlib import Path
from typing import Any

from lark import Lark, Token, Transformer
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken, VisitError
from lark.grammar import Rule
from lark.indenter import DedentError, Indenter
from lark.lexer import TerminalDef

from . import ast
from .budget import exceeded, limit
from .errors import Pos, RuleError
from .paths import grammar_path
from .source import SourceMap

_TERMINAL_NAMES = {
    "_NL": "end of line", "_INDENT": "an indented block", "_DEDENT": "end of block",
    "NAME": "a name", "INT": "a number", "STRING": "a string", "COLON": '":"', "LPAR": '"("',
    "RPAR": '")"', "LSQB": '"["', "RSQB": '"]"', "COMMA": '","', "DOT": '"."', "EQUAL": '"="',
    "COMP_OP": "a comparison", "ADD_OP": '"+" or "-"', "MUL_OP": '"*", "/", "//" or "%"',
    "AUG_OP": '"+=", "-=" or "*="', "$END": "end of text",
}


class _DSLIndenter(Indenter):
    NL_type = "_NL"
    OPEN_PAREN_types = ["LPAR", "LSQB", "LIST_OPEN"]
    CLOSE_PAREN_types = ["RPAR", "RSQB"]
    INDENT_type = "_INDENT"
    DEDENT_type = "_DEDENT"
    tab_len = 4


_OPTIONS = {"parser": "lalr", "start": ["start", "expr_start"], "maybe_placeholders": False}


@lru_cache(maxsize=1)
def lark_parser() -> Lark:
    """The parser, built once per process. It builds the AST while parsing (no parse tree):
    Lark calls _ToAst's methods as rules are reduced. Its tables come from
    grammar/rulebook.tables.pickle when that was made from this grammar by this version of
    Lark; else Lark builds them from the grammar (cached in the temporary folder: ~0.2 s the
    first time on a machine)."""
    text = Path(grammar_path()).read_text(encoding="utf-8")
    saved = _saved_tables(text)
    if saved is not None:
        return Lark._load_from_dict(saved["data"], saved["memo"], postlex=_DSLIndenter(), transformer=_TO_AST)
    return Lark(text, postlex=_DSLIndenter(), transformer=_TO_AST, cache=True, **_OPTIONS)


def _tables_stamp(grammar: str) -> dict:
    """What the saved tables are valid for: this grammar text, built by this Lark."""
    import hashlib

    from lark import __version__

    return {"grammar_sha256": hashlib.sha256(grammar.encode("utf-8")).hexdigest(), "lark": __version__}


class _PlainData(pickle.Unpickler):
    """Reads plain data only (dicts, lists, strings, numbers): no class is ever looked up."""

    def find_class(self, module: str, name: str):
        raise pickle.UnpicklingError(f"{module}.{name} in a parser-tables file")


def tables_path() -> Path:
    """The parser's tables, saved beside the grammar (save_tables)."""
    return Path(grammar_path()).with_name("rulebook.tables.pickle")


def _saved_tables(grammar: str) -> dict | None:
    try:
        with open(tables_path(), "rb") as f:
            saved = _PlainData(f).load()
    except (OSError, pickle.UnpicklingError, EOFError, ValueError):
        return None
    if not isinstance(saved, dict) or saved.get("stamp") != _tables_stamp(grammar):
        return None
    return saved


def save_tables() -> Path:
    """Write grammar/'s TABLES file from the grammar as it is now (run after changing the
    grammar or upgrading Lark; tests/engine/test_parser_tables.py says when): Lark's own
    serialisation of its LALR tables and terminals (Lark.save), the options given at load
    (postlex, transformer) left out, as plain data."""
    text = Path(grammar_path()).read_text(encoding="utf-8")
    built = Lark(text, postlex=_DSLIndenter(), **_OPTIONS)
    data, memo = built.memo_serialize([TerminalDef, Rule])
    data["options"] = {k: v for k, v in data["options"].items() if k not in ("postlex", "transformer")}
    path = tables_path()
    path.write_bytes(pickle.dumps({"stamp": _tables_stamp(text), "data": data, "memo": memo}, protocol=4))
    return path


def _map(src: SourceMap, line: int | None, col: int | None, col_shift: int) -> Pos:
    line = line or 1
    col = col or 1
    if line == 1:
        col = max(1, col - col_shift)
    return src.at(line, col)


def parse_text(text: str, start: str, src: SourceMap, col_shift: int) -> Any:
    """The tree of `text` from rule `start` (a list of statements or one expression), positions
    mapped by `src`. Raises RuleError (E201) on a syntax error."""
    parser = lark_parser()
    _TO_AST.src, _TO_AST.col_shift = src, col_shift  # positions are mapped while parsing
    try:
        tree = parser.parse(text, start=start)
    except UnexpectedInput as exc:
        raise _syntax_error(exc, text, src, col_shift) from None
    except DedentError as exc:  # a line dedented to a column no block started at
        raise RuleError(f"bad indentation: {exc}", _map(src, 1, 1, col_shift), "E201") from None
    except VisitError as exc:
        if isinstance(exc.orig_exc, RuleError):
            raise exc.orig_exc from None
        raise
    return tree


def _syntax_error(exc: UnexpectedInput, text: str, src: SourceMap, col_shift: int) -> RuleError:
    if isinstance(exc, UnexpectedEOF):
        lines = text.rstrip("\n").split("\n")
        pos = _map(src, len(lines), len(lines[-1]) + 1, col_shift)
        return RuleError("unexpected end of text: the statement or expression is incomplete",
                         pos, "E201")
    pos = _map(src, getattr(exc, "line", 1), getattr(exc, "column", 1), col_shift)
    if isinstance(exc, UnexpectedCharacters):
        char = text[exc.pos_in_stream] if exc.pos_in_stream < len(text) else "?"
        return RuleError(f'unexpected character "{char}"', pos, "E201")
    if isinstance(exc, UnexpectedToken):
        token = exc.token
        found = "end of text" if token.type == "$END" else (
            "end of line" if token.type == "_NL" else f'"{token}"')
        expected = sorted({_TERMINAL_NAMES.get(t, _pretty(t)) for t in exc.expected})
        if len(expected) > 8:
            expected = expected[:8] + ["…"]
        hint = _token_hint(token, exc.expected)
        if token.type == "_INDENT":
            return _indentation_error(text, src, col_shift, getattr(exc, "line", 1))
        if token.type == "_NL" and "COLON" in exc.expected:
            hint = ' (a block statement needs ":")'
        return RuleError(f"unexpected {found}; expected {', '.join(expected)}{hint}", pos, "E201")
    return RuleError(f"syntax error: {exc}", pos, "E201")


def _token_hint(token: Token, expected: set) -> str:
    """A likely fix for a common slip."""
    if str(token) == "=" and ("COLON" in expected or "EQ" in expected or "_EQ" in expected):
        return ' (to compare, write "=="; "=" assigns)'
    return ""


def _indentation_error(text: str, src: SourceMap, col_shift: int, line: int) -> RuleError:
    """An indented line where no block starts: point at the line itself, not the one before."""
    lines = text.split("\n")
    for number in range(max(1, line), len(lines) + 1):
        body = lines[number - 1]
        if body.strip():
            previous = next((lines[i - 1] for i in range(number - 1, 0, -1) if lines[i - 1].strip()), "")
            indent = len(body) - len(body.lstrip())
            before = len(previous) - len(previous.lstrip())
            if indent > before:
                return RuleError("unexpected indentation: this line is indented more than the line before, "
                                 "which does not open a block (only lines ending in \":\" do)",
                                 _map(src, number, indent + 1, col_shift), "E201")
    return RuleError("unexpected indentation", _map(src, line, 1, col_shift), "E201")


def _pretty(terminal: str) -> str:
    try:
        pattern = lark_parser().get_terminal(terminal).pattern
        if pattern.type == "str":
            return f'"{pattern.value}"'
    except (KeyError, AttributeError):
        pass
    return terminal.lower()


def _unquote(token: str, pos: Pos | None = None) -> str:
    """The text of a string literal, with Python's escapes (\\n, \\t, \\", \\u00e9 …)."""
    where = pos or Pos("<dsl>")
    if len(token) > limit("literal") + 2:
        raise RuleError(exceeded("literal", limit("literal")), where, "E203")
    try:
        text = pyast.literal_eval(str(token))
    except (SyntaxError, ValueError) as exc:
        detail = str(exc).split("(unicode error) ")[-1].split(" (<unknown>")[0]
        raise RuleError(f"bad escape in a string: {detail}; write a backslash as \\\\", where, "E201") from None
    if not isinstance(text, str):
        raise RuleError("not a string", where, "E201")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise RuleError("a string cannot hold a lone surrogate (\\ud800-\\udfff): it is not a character",
                        where, "E201") from None
    return text


MAX_INT_DIGITS = 18  # a literal beyond a 64-bit integer is a typo, not a game value


def _int(token: Token, pos: Pos) -> int:
    if len(token) > MAX_INT_DIGITS:
        raise RuleError(f"integer literal of {len(token)} digits: at most {MAX_INT_DIGITS} digits", pos, "E201")
    return int(token)


class _ToAst(Transformer):
    """Builds interpreter.ast nodes while Lark parses, with positions in the YAML file.

    A node's position is the position of its first token: statements start with their keyword
    (kept in the tree for that), expressions with their first operand.
    """

    def __init__(self):
        super().__init__()
        self.src = SourceMap("<dsl>", 1, 1, None, 0)
        self.col_shift = 0

    def tp(self, token: Token) -> Pos:
        return _map(self.src, token.line, token.column, self.col_shift)

    def pos(self, x) -> Pos:
        """Position of the first token inside x (a token, a node, or a list/tuple of them)."""
        if isinstance(x, Token):
            return self.tp(x)
        if isinstance(x, ast.Node):
            return x.pos
        if isinstance(x, (list, tuple)):
            for item in x:
                if isinstance(item, (Token, ast.Node, list, tuple)):
                    return self.pos(item)
        return self.src.at(1, 1)

    # ---- blocks
    def start(self, c):
        return [s for s in c if isinstance(s, ast.Node)]

    def expr_start(self, c):
        return c[0]

    def suite(self, c):
        return [s for s in c if isinstance(s, ast.Node)]

    # ---- simple statements (c[0] is the keyword token where there is one)
    def let_stmt(self, c):
        return ast.Let(self.tp(c[0]), str(c[1]), c[2])

    def assign_stmt(self, c):
        return ast.Assign(self.pos(c[0]), c[0], c[1], "=")

    def aug_assign_stmt(self, c):
        return ast.Assign(self.pos(c[0]), c[0], c[2], str(c[1]))

    def expr_stmt(self, c):
        return ast.ExprStmt(self.pos(c[0]), c[0])

    def call_stmt(self, c):
        if not isinstance(c[1], ast.Call):
            raise RuleError("`call` needs a function call, e.g. `call resolve(p)`", self.tp(c[0]), "E202")
        return ast.ExprStmt(self.tp(c[0]), c[1])

    def move_stmt(self, c):
        node = ast.Move(self.tp(c[0]), c[1], c[2])
        for extra in c[3:]:
            if isinstance(extra, tuple) and extra[0] == "place":
                node.place, node.at = extra[1], extra[2]
            elif isinstance(extra, tuple) and extra[0] == "face":
                node.face = extra[1]
        return node

    def place_top(self, c):
        return ("place", "top", None)

    def place_bottom(self, c):
        return ("place", "bottom", None)

    def place_at(self, c):
        return ("place", "at", c[0])

    def face_up(self, c):
        return ("face", True)

    def face_down(self, c):
        return ("face", False)

    @staticmethod
    def _face(c, index):
        return c[index][1] if len(c) > index else None

    def draw_stmt(self, c):
        return ast.Draw(self.tp(c[0]), c[1], c[2], c[3], self._face(c, 4))

    def deal_stmt(self, c):
        return ast.Deal(self.tp(c[0]), c[1], c[2], c[3], self._face(c, 4))

    def shuffle_stmt(self, c):
        return ast.Shuffle(self.tp(c[0]), c[1])

    def discard_stmt(self, c):
        return ast.Discard(self.tp(c[0]), c[1], self._face(c, 2))

    def flip_stmt(self, c):
        return ast.Flip(self.tp(c[0]), c[1], self._face(c, 2))

    def reveal_stmt(self, c):
        return ast.Reveal(self.tp(c[0]), c[1], c[2] if len(c) > 2 else None)

    def roll_stmt(self, c):
        return ast.Roll(self.tp(c[0]), c[1])

    def choose_stmt(self, c):
        pos, items = self.tp(c[0]), list(c[1:])
        count = ("one", None, None)
        if isinstance(items[0], tuple) and items[0][0] == "count":
            count = items.pop(0)[1:]
        node = ast.Choose(pos, str(items[0]), items[1], count[0], count[1], count[2])
        for opt in items[2:]:
            self._apply_opt(node, opt)
        return node

    def _apply_opt(self, node, opt):
        key, value = opt
        if key == "where":
            node.where = value
        elif key == "by":
            node.by = value
        elif key == "prompt":
            node.prompt = value
        elif key == "optional":
            node.optional = True
        elif key == "label":
            if not isinstance(node, ast.Choose):
                raise RuleError("`label` belongs to `choose` (actions have their own labels)", value.pos, "E202")
            node.label = value

    def _count(self, value):
        if isinstance(value, Token):
            return ast.Const(self.tp(value), _int(value, self.tp(value)))
        return value

    def count_exact(self, c):
        return ("count", "exact", self._count(c[0]), None)

    def count_up_to(self, c):
        return ("count", "up_to", None, self._count(c[0]))

    def count_range(self, c):
        return ("count", "range", self._count(c[0]), self._count(c[1]))

    def opt_where(self, c):
        return ("where", c[0])

    def opt_by(self, c):
        return ("by", c[0])

    def opt_prompt(self, c):
        return ("prompt", _unquote(c[0], self.tp(c[0])))

    def opt_optional(self, c):
        return ("optional", True)

    def opt_label(self, c):
        return ("label", c[0])

    def perform_stmt(self, c):
        names = [(str(t), self.tp(t)) for t in c[1:] if isinstance(t, Token) and t.type == "NAME"]
        node = ast.Perform(self.tp(c[0]), names)
        for opt in c[1:]:
            if isinstance(opt, tuple):
                self._apply_opt(node, opt)
        return node

    def log_stmt(self, c):
        return ast.Log(self.tp(c[0]), _unquote(c[1], self.tp(c[1])), self.tp(c[1]))

    def end_stmt(self, c):
        if len(c) > 1:
            return ast.EndGame(self.tp(c[0]), _unquote(c[1], self.tp(c[1])), self.tp(c[1]))
        return ast.EndGame(self.tp(c[0]))

    def return_stmt(self, c):
        return ast.Return(self.tp(c[0]), c[1] if len(c) > 1 else None)

    def emit_stmt(self, c):
        return ast.Emit(self.tp(c[0]), str(c[1]))

    def pass_stmt(self, c):
        return ast.Pass(self.tp(c[0]))

    def break_stmt(self, c):
        return ast.Break(self.tp(c[0]))

    def continue_stmt(self, c):
        return ast.Continue(self.tp(c[0]))

    # ---- compound statements
    def if_stmt(self, c):
        branches = [(c[1], c[2])]
        orelse = []
        for extra in c[3:]:
            if extra[0] == "elif":
                branches.append((extra[1], extra[2]))
            else:
                orelse = extra[1]
        return ast.If(self.tp(c[0]), branches, orelse)

    def elif_clause(self, c):
        return ("elif", c[0], c[1])

    def else_clause(self, c):
        return ("else", c[0])

    def for_stmt(self, c):
        return ast.For(self.tp(c[0]), str(c[1]), c[2], c[3])

    def repeat_stmt(self, c):
        return ast.Repeat(self.tp(c[0]), c[1], c[2])

    def while_stmt(self, c):
        return ast.While(self.tp(c[0]), c[1], c[2])

    def simultaneous_stmt(self, c):
        return ast.Simultaneous(self.tp(c[0]), str(c[1]), c[2], c[3])

    # ---- expressions (positioned at their first operand or token)
    def lambda_expr(self, c):
        return ast.Lambda(self.tp(c[0]), str(c[0]), c[1])

    def ternary(self, c):
        return ast.Ternary(self.pos(c[0]), c[1], c[0], c[2])

    def or_op(self, c):
        return ast.BoolOp(self.pos(c[0]), "or", c[0], c[1])

    def and_op(self, c):
        return ast.BoolOp(self.pos(c[0]), "and", c[0], c[1])

    def not_op(self, c):
        return ast.Not(self.pos(c[0]), c[0])

    def compare(self, c):
        return ast.Compare(self.pos(c[0]), str(c[1]), c[0], c[2])

    def in_op(self, c):
        return ast.Compare(self.pos(c[0]), "in", c[0], c[1])

    def not_in_op(self, c):
        return ast.Compare(self.pos(c[0]), "not in", c[0], c[1])

    def binop(self, c):
        return ast.BinOp(self.pos(c[0]), str(c[1]), c[0], c[2])

    def neg(self, c):
        if isinstance(c[0], ast.Const) and isinstance(c[0].value, int):
            return ast.Const(c[0].pos, -c[0].value)
        return ast.Neg(self.pos(c[0]), c[0])

    def attr(self, c):
        return ast.Attr(self.tp(c[1]), c[0], str(c[1]))

    def index(self, c):
        return ast.Index(self.pos(c[0]), c[0], list(c[1:]))

    def call(self, c):
        args, kwargs = [], {}
        if len(c) > 1 and c[1] is not None:
            for a in c[1]:
                if isinstance(a, tuple):
                    if a[0] in kwargs:
                        raise RuleError(f'argument "{a[0]}" given twice', a[1].pos, "E202")
                    kwargs[a[0]] = a[1]
                elif kwargs:
                    raise RuleError("a positional argument cannot follow a named one", a.pos, "E202")
                else:
                    args.append(a)
        return ast.Call(self.pos(c[0]), c[0], args, kwargs)

    def args(self, c):
        return list(c)

    def kwarg(self, c):
        return (str(c[0]), c[1])

    def int_lit(self, c):
        return ast.Const(self.tp(c[0]), _int(c[0], self.tp(c[0])))

    def str_lit(self, c):
        return ast.Const(self.tp(c[0]), _unquote(c[0], self.tp(c[0])))

    def true_lit(self, c):
        return ast.Const(self.tp(c[0]), True)

    def false_lit(self, c):
        return ast.Const(self.tp(c[0]), False)

    def none_lit(self, c):
        return ast.Const(self.tp(c[0]), None)

    def name(self, c):
        return ast.Name(self.tp(c[0]), str(c[0]))

    def list_lit(self, c):
        return ast.ListLit(self.tp(c[0]), [x for x in c[1:] if x is not None])

    def tuple_lit(self, c):
        return ast.TupleLit(self.pos(c[0]), [x for x in c if x is not None])

    def comprehension(self, c):
        cond = c[3] if len(c) > 3 else None
        return ast.Comprehension(self.pos(c[0]), c[0], str(c[1]), c[2], cond)


_TO_AST = _ToAst()
