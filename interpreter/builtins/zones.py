"""Builtins that move pieces between whole zones (generic table mechanics)."""
from __future__ import annotations

from ..errors import RuleRuntimeError
from ..values import Family
from . import builtin


@builtin(min_args=1, max_args=2, statement=True)
def pass_zones(S, family, k=1):
    """pass_zones(family, k=1): every player's zone of a per-player family goes to the player k seats
    to the left (negative k: to the right), all at once, keeping each zone's order."""
    table = S.lay.zone_index.get(str(family))
    if type(family) is not Family or table is None:
        raise RuleRuntimeError(f"pass_zones needs a per-player zone family, got {family!r}")
    contents = {p: list(S.zones[table[p]]) for p in S.players}
    for p in S.players:
        S.move(contents[p], table[S.players[(int(p) + k) % S.n]])
    return None
