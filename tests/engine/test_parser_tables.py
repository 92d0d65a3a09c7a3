"""The parser's tables saved beside the grammar (grammar/rulebook.tables.pickle): fresh, and a
parser loaded from them reads every DSL text exactly as a parser built from the grammar."""
from __future__ import annotations

import os
import pickle
from pathlib import Path

import pytest
from lark import Lark

from interpreter import lark_parser, parser
from interpreter.errors import RuleError
from interpreter.loader import load_game
from interpreter.paths import grammar_path, repo_root
from interpreter.rulefiles import find_rule_files

BROKEN = ["let = 3", "if x\n  pass", "move a to", "x = = 1", "f(1,,2)", "if a:\npass", "a[", "  pass",
          "choose up to x from y", "[x for in y]", "a.1", "let x = 1\n    let y = 2", "return )", "'open",
          "top top", "log 3", "perform", "x ! y", "simultaneous p in players:\n  choose c from hand[p]"]


def _grammar() -> str:
    return Path(grammar_path()).read_text(encoding="utf-8")


def test_saved_tables_are_those_of_this_grammar_and_lark():
    assert lark_parser._saved_tables(_grammar()) is not None, (
        "grammar/rulebook.tables.pickle is stale: run "
        "`python -c 'from interpreter.lark_parser import save_tables; save_tables()'`")


def test_the_parser_in_use_is_loaded_from_the_tables(monkeypatch):
    built = []
    monkeypatch.setattr(Lark, "__init__", lambda self, *a, **k: built.append(a))
    assert lark_parser.lark_parser.__wrapped__() is not None and built == []


def test_stale_or_foreign_tables_are_not_used(tmp_path, monkeypatch):
    assert lark_parser._saved_tables(_grammar() + "\n// changed\n") is None  # the grammar changed since
    saved = pickle.loads(lark_parser.tables_path().read_bytes())
    monkeypatch.setattr(lark_parser, "tables_path", lambda: tmp_path / "tables.pickle")
    (tmp_path / "tables.pickle").write_bytes(pickle.dumps(dict(saved, stamp=dict(saved["stamp"], lark="0.0"))))
    assert lark_parser._saved_tables(_grammar()) is None  # made by another Lark
    (tmp_path / "tables.pickle").write_bytes(pickle.dumps({"stamp": saved["stamp"], "data": Path("x")}))
    assert lark_parser._saved_tables(_grammar()) is None  # not plain data: never unpickled
    (tmp_path / "tables.pickle").write_bytes(b"\x80\x04garbage")
    assert lark_parser._saved_tables(_grammar()) is None
    (tmp_path / "tables.pickle").unlink()
    assert lark_parser._saved_tables(_grammar()) is None


@pytest.fixture(scope="module")
def texts():
    """(text, start, col_shift) of every DSL text the rule files under rules/ parse."""
    seen = []
    original = parser._parse_text

    def record(text, start, src, col_shift):
        seen.append((str(text), start, col_shift))
        return original(text, start, src, col_shift)

    parser._parse_text = record
    cache, os.environ["RULEBOOK_CACHE"] = os.environ.get("RULEBOOK_CACHE"), "0"  # every text parsed
    try:
        for path in find_rule_files([str(repo_root() / "rules")]):
            try:
                load_game(path, check_only=True)
            except RuleError:
                pass
    finally:
        parser._parse_text = original
        if cache is None:
            del os.environ["RULEBOOK_CACHE"]
        else:
            os.environ["RULEBOOK_CACHE"] = cache
    assert len(seen) > 500
    return sorted(set(seen))


def _read_all(items, monkeypatch, lark) -> list:
    monkeypatch.setattr(lark_parser, "lark_parser", lambda: lark)
    out = []
    for text, start, shift in items:
        try:
            out.append(repr(parser._parse_text(text, start, parser._CANONICAL, shift)))
        except RuleError as exc:
            out.append(f"{exc.pos}: {exc.message} [{exc.code}]")
    return out


def test_tables_parser_reads_every_text_as_the_grammar_does(texts, monkeypatch):
    from_tables = lark_parser.lark_parser()
    from_grammar = Lark(_grammar(), postlex=lark_parser._DSLIndenter(), transformer=lark_parser._TO_AST, **lark_parser._OPTIONS)
    broken = [(t + "\n", "start", 0) for t in BROKEN] + [("(" + t + "\n)", "expr_start", 1) for t in BROKEN]
    items = texts + broken
    expected = _read_all(items, monkeypatch, from_grammar)
    assert _read_all(items, monkeypatch, from_tables) == expected
    assert sum("[E201]" in x for x in expected) >= len(BROKEN)


def test_a_load_whose_texts_are_all_cached_does_not_import_lark(tmp_path):
    """Lark is imported only when a text must be parsed: a second validate of an unchanged file
    (every tree in the load cache) runs without it, and says the same."""
    import subprocess
    import sys

    env = dict(os.environ, XDG_CACHE_HOME=str(tmp_path), RULEBOOK_CACHE="1")
    code = ("import sys; from interpreter.cli import main\n"
            "try:\n    main(['validate', sys.argv[1]])\nexcept SystemExit:\n    pass\n"
            "print('lark' in sys.modules)")
    dogs = str(repo_root() / "rules" / "dogs_day" / "game.yaml")
    runs = [subprocess.run([sys.executable, "-c", code, dogs], env=env, capture_output=True, text=True,
                           cwd=repo_root()) for _ in range(2)]
    assert [r.stdout.splitlines()[-1] for r in runs] == ["True", "False"]
    assert runs[0].stdout.splitlines()[:-1] == runs[1].stdout.splitlines()[:-1] and runs[0].stderr == runs[1].stderr
