"""Game states kept by the history that made them, so that replaying a longer history starts
from the kept state of its longest prefix.

A search agent rebuilds past states of the game it plays from its history (the engine's state
at the start of an open simultaneous block: agents/determinize.py; the generated program's
state at an engine decision: transpile/worlds.py). A game's successive decisions extend each
other's histories, so keeping the last few replayed states makes each replay cost only the
decisions added since. Exact because a game is a deterministic function of its start and its
decisions: the state after a prefix, played on with the rest of the history, is the state
after the whole history.
"""
from __future__ import annotations

from typing import Any, Callable


class KeptReplays:
    """The last `size` replayed states, each under a key (what the history is played from:
    a game, its players, options and seed) and its history (a list of tuples). A kept state is
    never changed by its users: they copy it to play on."""

    def __init__(self, size: int):
        self.size = size
        self.entries: list[tuple[Any, list, Any]] = []  # (key, history, state), the last used last

    def __len__(self) -> int:
        return len(self.entries)

    def longest_prefix(self, key: Any, history: list) -> tuple[int, Any] | None:
        """(its length, the kept state) of the longest kept history of `key` that begins
        `history` (the whole of it included), or None."""
        best = None
        for entry in self.entries:
            n = len(entry[1])
            if entry[0] == key and n <= len(history) and (best is None or n > len(best[1])) \
                    and history[:n] == entry[1]:
                best = entry
        if best is None:
            return None
        self.entries.remove(best)
        self.entries.append(best)
        return len(best[1]), best[2]

    def keep(self, key: Any, history: list, state: Any) -> None:
        """Keep `state`, made by `history` from what `key` names (the oldest dropped beyond
        `size`)."""
        self.entries.append((key, history, state))
        del self.entries[:-self.size]

    def replay(self, key: Any, history: list, start: Callable[[], Any], copy: Callable[[Any], Any],
               play_on: Callable[[Any, list], bool]) -> Any | None:
        """The state `history` makes from `start()`: the kept one where that very history is
        kept, else a `copy` of the kept state of its longest prefix (or `start()`) played on with
        the rest of it by `play_on` (in place; False: it does not replay, None returned). The
        state given is kept, so never to be changed by the caller: only copied."""
        best = self.longest_prefix(key, history)
        if best is not None and best[0] == len(history):
            return best[1]
        state = start() if best is None else copy(best[1])
        if not play_on(state, history[0 if best is None else best[0]:]):
            return None
        self.keep(key, history, state)
        return state
