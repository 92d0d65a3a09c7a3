"""Information-set Monte-Carlo tree search (single observer, Cowling, Powley & Whitehouse 2012).

One tree for the deciding player, whose nodes stand for that player's information sets: the
root is everything the player cannot tell apart now. Every iteration samples a new
determinization (hidden pieces and future chance resampled from the player's view), then walks
the tree using only the edges that exist in that world, expands one new edge, plays out (to the
end, or `depth` decisions and then the evaluation) and backs the rewards up, each edge crediting
the player who took it. Edges are named by option labels as their decider sees them, so the same
edge means the same move in every world; an edge's bound counts how often it was *available*,
not how often its parent was visited (other players' options differ between worlds). The bound
is UCB1-Tuned by default (selection.py): exploration follows the spread of rewards seen.

Other players' open moves are tree edges too (the single-observer simplification: the tree
treats them as seen). Their secret picks inside a simultaneous block are one edge, named by
what the observer sees (see move_groups). Chance needs no nodes: it is resampled with each
world and averaged by the stats.

Tree reuse: after the agent's own decision, if the next decision is again its own with nothing
in between (a choice broken into steps: a piece, then where it goes), the subtree below the move
it took becomes the new root; any other change starts a fresh tree.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from .budget import Budget
from .determinize import Determinizer, WorldFailures, secret_kinds
from .evaluation import Evaluation
from .playout import RandomPlayout
from .selection import Stats, Ucb1


class Node:
    """An information set of the observer; children by (decider, option label)."""

    __slots__ = ("children",)

    def __init__(self):
        self.children: dict[tuple, "Edge"] = {}


class Edge(Stats):
    def __init__(self, player: int):
        super().__init__()
        self.player = player
        self.node = Node()


def option_keys(world: Any, player: int) -> list[tuple]:
    """A name per option of `player` that means the same move in every world."""
    seen: dict[str, int] = {}
    keys = []
    for label in world.option_labels(player):
        k = seen.get(label, 0)
        seen[label] = k + 1
        keys.append((player, label, k))
    return keys


def move_groups(world: Any, mover: int, observer: int, secret: bool) -> list[tuple[tuple, list[int]]]:
    """The mover's options as tree edges: (key, option indices). The observer's own options and
    open moves of others are one edge each, named by the mover's label. With `secret`, another
    player's pick inside a simultaneous block is named only by what the observer sees of it
    (a pick or a stop): one edge for all picks, played as a random one of them (the
    partially-observable-moves variant of Cowling, Powley & Whitehouse 2012), so the tree does
    not let others answer the observer's secret pick, nor key it by their hidden hands."""
    kinds = secret_kinds(world, mover) if secret and mover != observer else None
    if kinds is None:
        return [(k, [i]) for i, k in enumerate(option_keys(world, mover))]
    groups: dict[tuple, list[int]] = {}
    for i, stop in enumerate(kinds):
        groups.setdefault((mover, "secret", stop), []).append(i)
    return list(groups.items())


@dataclass
class IsmctsAgent:
    budget: Budget = field(default_factory=lambda: Budget(iterations=200))
    seed: int = 0
    select: Any = field(default_factory=lambda: Ucb1(c=0.7))
    playout: Any = field(default_factory=RandomPlayout)
    evaluate: Any = field(default_factory=Evaluation)
    reuse: bool = True
    secret: bool = True  # others' secret simultaneous picks as one edge (see move_groups)

    def __post_init__(self):
        if isinstance(self.budget, int):
            self.budget = Budget(iterations=self.budget)
        self.rng = random.Random(self.seed)
        self.iterations_done = 0
        self.failures = WorldFailures()
        self.reused = 0  # decisions that started from the tree kept from the previous one
        self._kept: tuple | None = None  # (player, decisions after my move, my move, subtree)

    def choose(self, state: Any, player: int) -> int:
        n = state.option_count(player)
        if n == 1:
            self._kept = None
            return 0
        root = self._reused_root(state, player)
        worlds = Determinizer(state, player)
        for _ in self.budget.ticks():
            with self.failures.guard():
                self._iterate(root, worlds.sample(self.rng), player)
                self.iterations_done += 1
        self.failures.check()
        keys = option_keys(state, player)
        best = max(range(n), key=lambda i: _rank(root.children.get(keys[i])))
        edge = root.children.get(keys[best])
        self._kept = (player, state.decisions + 1, best, edge.node) if edge and self.reuse else None
        return best

    def _reused_root(self, state: Any, player: int) -> Node:
        kept, self._kept = self._kept, None
        if kept is not None:
            who, decisions, move, node = kept
            history = state.history
            if (who == player and state.decisions == decisions and history
                    and list(history[-1]) == [player, move]):
                self.reused += 1
                return node
        return Node()

    def _iterate(self, root: Node, world: Any, observer: int) -> None:
        path: list[Edge] = []
        node = root
        mover = observer  # the root decision is the observer's, even inside a simultaneous block
        rng = self.rng
        while not world.over:
            edges = []
            untried = []
            for k, options in move_groups(world, mover, observer, self.secret):
                edge = node.children.get(k)
                if edge is None or edge.visits == 0:  # never backed up (a failed world): untried
                    untried.append((options, k))
                else:
                    edge.available += 1
                    edges.append((options, edge))
            if untried:
                options, k = untried[int(rng.random() * len(untried))]
                edge = node.children.get(k) or node.children.setdefault(k, Edge(mover))
                edge.available += 1
                world.apply(mover, options[int(rng.random() * len(options))])
                path.append(edge)
                break
            options, edge = edges[self.select.pick_available([e for _, e in edges])]
            world.apply(mover, options[int(rng.random() * len(options))])
            path.append(edge)
            node = edge.node
            if not world.over:
                mover = world.current_players()[0]
        self.playout.run(world, rng)
        rewards = self.evaluate.rewards(world)
        for edge in path:
            r = rewards[edge.player]
            edge.visits += 1
            edge.total += r
            edge.squares += r * r


def _rank(edge: Edge | None) -> tuple:
    """The most visited root edge (ties: the better mean); unexplored options last."""
    return (edge.visits, edge.mean) if edge is not None else (-1, 0.0)
