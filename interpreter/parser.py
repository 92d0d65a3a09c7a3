"""Parses DSL text (from a YAML string) into the AST of interpreter.ast.

One Lark LALR parser, built once per process from grammar/rulebook.lark. Positions reported by
Lark (line and column inside the DSL text) are mapped back to the YAML file with the string's
SourceMap, so errors point where the author typed.
"""
from __future__ import annotations

import ast as pyast
from functools import lru_cache
from pathlib import Path

from lark import Lark, Token, Transformer, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken, VisitError
from lark.indenter import Indenter

from . import ast
from .errors import Pos, RuleError
from .paths import grammar_path
from .source import SourceMap, YStr

_TERMINAL_NAMES = {
    "_NL": "end of line", "_INDENT": "an indented block", "_DEDENT": "end of block",
    "NAME": "a name", "INT": "a number", "STRING": "a string", "COLON": '":"', "LPAR": '"("',
    "RPAR": '")"', "LSQB": '"["', "RSQB": '"]"', "COMMA": '","', "DOT": '"."', "EQUAL": '"="',
    "COMP_OP": "a comparison", "ADD_OP": '"+" or "-"', "MUL_OP": '"*", "/", "//" or "%"',
    "AUG_OP": '"+=", "-=" or "*="', "$END": "end of text",
}


class _DSLIndenter(Indenter):
    NL_type = "_NL"
    OPEN_PAREN_types = ["LPAR", "LSQB"]
    CLOSE_PAREN_types = ["RPAR", "RSQB"]
    INDENT_type = "_INDENT"
    DEDENT_type = "_DEDENT"
    tab_len = 4


@lru_cache(maxsize=1)
def _lark() -> Lark:
    text = Path(grammar_path()).read_text(encoding="utf-8")
    return Lark(text, parser="lalr", postlex=_DSLIndenter(), start=["start", "expr_start"],
                propagate_positions=True, maybe_placeholders=False, cache=True)


def parse_block(text: str, src: SourceMap | None = None) -> list[ast.Node]:
    """Parse a statement block. `text` is usually a YStr and knows its source."""
    src = src or _source_of(text)
    body = str(text)
    if not body.endswith("\n"):
        body += "\n"
    tree = _parse(body, "start", src, col_shift=0)
    return _ToAst(src, 0).transform(tree)


def parse_expr(text: str, src: SourceMap | None = None) -> ast.Node:
    """Parse one expression. Newlines are allowed anywhere inside it."""
    src = src or _source_of(text)
    wrapped = "(" + str(text) + "\n)"  # parentheses make the indenter ignore line breaks
    tree = _parse(wrapped, "expr_start", src, col_shift=1)
    return _ToAst(src, 1).transform(tree)


def _source_of(text: str) -> SourceMap:
    if isinstance(text, YStr):
        return text.src
    return SourceMap("<dsl>", 1, 1, None, 0)


def _map(src: SourceMap, line: int | None, col: int | None, col_shift: int) -> Pos:
    line = line or 1
    col = col or 1
    if line == 1:
        col = max(1, col - col_shift)
    return src.at(line, col)


def _parse(text: str, start: str, src: SourceMap, col_shift: int):
    try:
        return _lark().parse(text, start=start)
    except UnexpectedInput as exc:
        raise _syntax_error(exc, text, src, col_shift) from None


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
        hint = ""
        if token.type == "_NL" and "COLON" in exc.expected:
            hint = ' (a block statement needs ":")'
        return RuleError(f"unexpected {found}; expected {', '.join(expected)}{hint}", pos, "E201")
    return RuleError(f"syntax error: {exc}", pos, "E201")


def _pretty(terminal: str) -> str:
    try:
        pattern = _lark().get_terminal(terminal).pattern
        if pattern.type == "str":
            return f'"{pattern.value}"'
    except (KeyError, AttributeError):
        pass
    return terminal.lower()


def _unquote(token: str) -> str:
    return pyast.literal_eval(str(token))


@v_args(meta=True)
class _ToAst(Transformer):
    """Lark tree → interpreter.ast nodes, with positions in the YAML file."""

    def __init__(self, src: SourceMap, col_shift: int):
        super().__init__()
        self.src = src
        self.col_shift = col_shift

    def transform(self, tree):
        try:
            return super().transform(tree)
        except VisitError as exc:
            if isinstance(exc.orig_exc, RuleError):
                raise exc.orig_exc from None
            raise

    def p(self, meta) -> Pos:
        return _map(self.src, getattr(meta, "line", 1), getattr(meta, "column", 1), self.col_shift)

    def tp(self, token: Token) -> Pos:
        return _map(self.src, token.line, token.column, self.col_shift)

    # ---- blocks
    def start(self, meta, stmts):
        return [s for s in stmts if isinstance(s, ast.Node)]

    def expr_start(self, meta, items):
        return items[0]

    def suite(self, meta, stmts):
        return [s for s in stmts if isinstance(s, ast.Node)]

    # ---- simple statements
    def let_stmt(self, meta, c):
        return ast.Let(self.p(meta), str(c[0]), c[1])

    def assign_stmt(self, meta, c):
        return ast.Assign(self.p(meta), c[0], c[1], "=")

    def aug_assign_stmt(self, meta, c):
        return ast.Assign(self.p(meta), c[0], c[2], str(c[1]))

    def expr_stmt(self, meta, c):
        return ast.ExprStmt(self.p(meta), c[0])

    def call_stmt(self, meta, c):
        if not isinstance(c[0], ast.Call):
            raise RuleError("`call` needs a function call, e.g. `call resolve(p)`", self.p(meta), "E202")
        return ast.ExprStmt(self.p(meta), c[0])

    def move_stmt(self, meta, c):
        node = ast.Move(self.p(meta), c[0], c[1])
        for extra in c[2:]:
            if isinstance(extra, tuple) and extra[0] == "place":
                node.place, node.at = extra[1], extra[2]
            elif isinstance(extra, tuple) and extra[0] == "face":
                node.face = extra[1]
        return node

    def place_top(self, meta, c):
        return ("place", "top", None)

    def place_bottom(self, meta, c):
        return ("place", "bottom", None)

    def place_at(self, meta, c):
        return ("place", "at", c[0])

    def face_up(self, meta, c):
        return ("face", True)

    def face_down(self, meta, c):
        return ("face", False)

    @staticmethod
    def _face(c, index):
        return c[index][1] if len(c) > index else None

    def draw_stmt(self, meta, c):
        return ast.Draw(self.p(meta), c[0], c[1], c[2], self._face(c, 3))

    def deal_stmt(self, meta, c):
        return ast.Deal(self.p(meta), c[0], c[1], c[2], self._face(c, 3))

    def shuffle_stmt(self, meta, c):
        return ast.Shuffle(self.p(meta), c[0])

    def flip_stmt(self, meta, c):
        return ast.Flip(self.p(meta), c[0], self._face(c, 1))

    def reveal_stmt(self, meta, c):
        return ast.Reveal(self.p(meta), c[0], c[1] if len(c) > 1 else None)

    def roll_stmt(self, meta, c):
        return ast.Roll(self.p(meta), c[0])

    def choose_stmt(self, meta, c):
        items = list(c)
        count = ("one", None, None)
        if isinstance(items[0], tuple) and items[0][0] == "count":
            count = items.pop(0)[1:]
        node = ast.Choose(self.p(meta), str(items[0]), items[1], count[0], count[1], count[2])
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

    def _count(self, value):
        if isinstance(value, Token):
            return ast.Const(self.tp(value), int(value))
        return value

    def count_exact(self, meta, c):
        return ("count", "exact", self._count(c[0]), None)

    def count_up_to(self, meta, c):
        return ("count", "up_to", None, self._count(c[0]))

    def count_range(self, meta, c):
        return ("count", "range", self._count(c[0]), self._count(c[1]))

    def opt_where(self, meta, c):
        return ("where", c[0])

    def opt_by(self, meta, c):
        return ("by", c[0])

    def opt_prompt(self, meta, c):
        return ("prompt", _unquote(c[0]))

    def opt_optional(self, meta, c):
        return ("optional", True)

    def perform_stmt(self, meta, c):
        names = [(str(t), self.tp(t)) for t in c if isinstance(t, Token) and t.type == "NAME"]
        node = ast.Perform(self.p(meta), names)
        for opt in c:
            if isinstance(opt, tuple):
                self._apply_opt(node, opt)
        return node

    def log_stmt(self, meta, c):
        return ast.Log(self.p(meta), _unquote(c[0]), self.tp(c[0]))

    def end_stmt(self, meta, c):
        return ast.EndGame(self.p(meta), _unquote(c[0]) if c else None)

    def return_stmt(self, meta, c):
        return ast.Return(self.p(meta), c[0] if c else None)

    def emit_stmt(self, meta, c):
        return ast.Emit(self.p(meta), str(c[0]))

    def pass_stmt(self, meta, c):
        return ast.Pass(self.p(meta))

    def break_stmt(self, meta, c):
        return ast.Break(self.p(meta))

    def continue_stmt(self, meta, c):
        return ast.Continue(self.p(meta))

    # ---- compound statements
    def if_stmt(self, meta, c):
        branches = [(c[0], c[1])]
        orelse = []
        for extra in c[2:]:
            if extra[0] == "elif":
                branches.append((extra[1], extra[2]))
            else:
                orelse = extra[1]
        return ast.If(self.p(meta), branches, orelse)

    def elif_clause(self, meta, c):
        return ("elif", c[0], c[1])

    def else_clause(self, meta, c):
        return ("else", c[0])

    def for_stmt(self, meta, c):
        return ast.For(self.p(meta), str(c[0]), c[1], c[2])

    def repeat_stmt(self, meta, c):
        return ast.Repeat(self.p(meta), c[0], c[1])

    def while_stmt(self, meta, c):
        return ast.While(self.p(meta), c[0], c[1])

    def simultaneous_stmt(self, meta, c):
        return ast.Simultaneous(self.p(meta), str(c[0]), c[1], c[2])

    # ---- expressions
    def lambda_expr(self, meta, c):
        return ast.Lambda(self.p(meta), str(c[0]), c[1])

    def ternary(self, meta, c):
        return ast.Ternary(self.p(meta), c[1], c[0], c[2])

    def or_op(self, meta, c):
        return ast.BoolOp(self.p(meta), "or", c[0], c[1])

    def and_op(self, meta, c):
        return ast.BoolOp(self.p(meta), "and", c[0], c[1])

    def not_op(self, meta, c):
        return ast.Not(self.p(meta), c[0])

    def compare(self, meta, c):
        return ast.Compare(self.p(meta), str(c[1]), c[0], c[2])

    def in_op(self, meta, c):
        return ast.Compare(self.p(meta), "in", c[0], c[1])

    def not_in_op(self, meta, c):
        return ast.Compare(self.p(meta), "not in", c[0], c[1])

    def binop(self, meta, c):
        return ast.BinOp(self.p(meta), str(c[1]), c[0], c[2])

    def neg(self, meta, c):
        if isinstance(c[0], ast.Const) and isinstance(c[0].value, int):
            return ast.Const(self.p(meta), -c[0].value)
        return ast.Neg(self.p(meta), c[0])

    def attr(self, meta, c):
        return ast.Attr(self.p(meta), c[0], str(c[1]))

    def index(self, meta, c):
        return ast.Index(self.p(meta), c[0], list(c[1:]))

    def call(self, meta, c):
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
        return ast.Call(self.p(meta), c[0], args, kwargs)

    def args(self, meta, c):
        return list(c)

    def kwarg(self, meta, c):
        return (str(c[0]), c[1])

    def int_lit(self, meta, c):
        return ast.Const(self.p(meta), int(c[0]))

    def str_lit(self, meta, c):
        return ast.Const(self.p(meta), _unquote(c[0]))

    def true_lit(self, meta, c):
        return ast.Const(self.p(meta), True)

    def false_lit(self, meta, c):
        return ast.Const(self.p(meta), False)

    def none_lit(self, meta, c):
        return ast.Const(self.p(meta), None)

    def name(self, meta, c):
        return ast.Name(self.p(meta), str(c[0]))

    def list_lit(self, meta, c):
        return ast.ListLit(self.p(meta), [x for x in c if x is not None])

    def tuple_lit(self, meta, c):
        return ast.TupleLit(self.p(meta), [x for x in c if x is not None])

    def comprehension(self, meta, c):
        cond = c[3] if len(c) > 3 else None
        return ast.Comprehension(self.p(meta), c[0], str(c[1]), c[2], cond)
