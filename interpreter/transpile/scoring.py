"""The end of a generated game: `end_game` with its reason, the `scoring` section (`final`,
`score`, `tiebreak`, `lowest_wins`, `all_tied`, `winners`) as interpreter/scoring.py computes
it, and the program's result ``(returns, history, winners, rounds, reason)``."""
from __future__ import annotations

from .. import ast
from .base import WriterBase
from .kinds import NUMBER, PLAYER, Kinds


class ScoringWriter(WriterBase):
    _kinds: Kinds | None = None
    scope = "main"  # the procedure being written when nothing is inlined (RuleFile.procs' key)

    def kinds(self) -> Kinds:
        if self._kinds is None:
            self._kinds = Kinds(self.L)
        return self._kinds

    def s_EndGame(self, n, env, depth, chooser):
        # the reason travels in the exception: right from any depth of generated code
        self.emit(depth, f"raise _GameEnds({self.reason(n, env)})")

    def reason(self, n: ast.EndGame, env: dict) -> str:
        """The code of `end_game`'s text with its {expr} filled in (None without a text)."""
        if not n.reason:
            return "None"
        parts = []
        for literal, expr in _segments(n.reason):
            if literal:
                parts.append(repr(literal))
            if expr is not None:
                node = self.L.parse_expr(expr, n.text_pos or n.pos)
                kind = self.kinds().of(node, self.inlining[-1] if self.inlining else self.scope)
                kind = kind[1] if isinstance(kind, tuple) else kind
                parts.append(f"_text({self.expr(node, env)}, {kind if kind in (NUMBER, PLAYER) else None!r})")
        return f"({' + '.join(parts)}) or None" if parts else "None"

    def ending(self) -> None:
        """After the flow: the `final` block, the scores, the winners, the result."""
        spec = self.L.doc.get("scoring") or {}
        sc = self.d.scoring
        where = getattr(spec, "value_pos", lambda key: None)
        self.emit(1, "except _GameEnds as _end:")
        self.emit(2, "_reason = _end.args[0] if _end.args else None")
        final = self.L.procs.get("scoring:final")
        if sc.final is not None and final:
            self.emit(1, "try:")
            self.scope = "scoring:final"
            self.block(final, {}, 2, None)
            self.emit(2, "pass")
            self.emit(1, "except _GameEnds as _end:")
            self.emit(2, "_reason = _end.args[0] if _end.args else None")
        per_player = {"player": "pl"}
        if "score" in spec:
            score = self.expr(self.L.parse_expr(spec["score"], where("score")), per_player)
            self.emit(1, f"scores = _scores([{score} for pl in _PLAYERS])")
        else:
            self.emit(1, f"scores = {[0] * self.n!r}")
        if "winners" in spec:
            chosen = self.expr(self.L.parse_expr(spec["winners"], where("winners")), {})
            self.emit(1, f"winners = _seats({chosen})")
        else:
            ties = [self.expr(self.L.parse_expr(t, where("tiebreak")), per_player)
                    for t in spec.get("tiebreak") or []]
            keys = "scores"
            if ties:
                key = ", ".join(["s"] + [f"_number({t})" for t in ties])
                keys = f"[({key}) for pl, s in zip(_PLAYERS, scores)]"
            self.emit(1, f"winners = _ranked({keys}, {sc.lowest_wins!r}, {sc.all_tied == 'draw'!r})")
        rounds = "v_round" if "round" in self.d.variables else "0"
        self.emit(1, f"return scores, history, winners, {rounds} or 0, _reason")


def _segments(text: str) -> list[tuple[str, str | None]]:
    """A log-like text as (literal, expression or None) pairs: `{{`/`}}` are braces, `{e}` is e
    (compiler._log_segments reads it the same way; an unclosed `{` is the loader's error)."""
    out, buf, i = [], [], 0
    while i < len(text):
        two = text[i:i + 2]
        if two in ("{{", "}}"):
            buf.append(two[0])
            i += 2
        elif text[i] == "{":
            end = text.index("}", i)
            out.append(("".join(buf), text[i + 1:end]))
            buf, i = [], end + 1
        else:
            buf.append(text[i])
            i += 1
    if buf:
        out.append(("".join(buf), None))
    return out
