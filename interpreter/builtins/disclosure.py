"""disclose(x): a value shown on purpose although it is computed from hidden data.

The load-time information-flow check (interpreter/infoflow.py) reports hidden data reaching
something a player sees; wrapping the value in `disclose(…)` says the rules mean to tell it
("a player with no matching card in hand cannot answer": everybody sees who does not), and the
check accepts it. In play the value is returned unchanged and nothing else happens. Under the
hidden-information audit (interpreter/audit.py, which sets `record_disclosures` on its own copy
of the game) each disclosed value is added to a digest kept in the hidden variable `$disclosed`,
so the audit compares only worlds in which the same things were disclosed.
"""
from __future__ import annotations

import hashlib

from . import builtin
from ..labels import label as label_of


@builtin(min_args=1)
def disclose(S, x):
    """disclose(x): x, shown on purpose (accepted by the hidden-information check)."""
    if getattr(getattr(S, "game", None), "record_disclosures", False):
        before = S.vars.get("$disclosed", "")
        text = f"{before}|{label_of(S, x)}".encode()
        S.vars["$disclosed"] = hashlib.sha256(text).hexdigest()[:16]
    return x
