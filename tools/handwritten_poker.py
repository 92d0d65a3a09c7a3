#!/usr/bin/env python3
"""Chicago Poker without special cards, written by hand in plain Python: the speed reference.

This is what a programmer would write for one game, with no rule file and no engine: the same
decision points as rules/chicago_poker/game.yaml with `no_special_cards` (choose recruit or exert
influence; the card to play; the business; cards to discard down to the hand limit, one pick at a
time; secret reinforcing gangsters in a tied shoot-out), the option list of each decision rebuilt
as a Python list every time, and the same random agent (`int(rng.random() * option_count)`).
Poker hands are ranked with a compact evaluator of the same categories. It is not meant to
reproduce the engine's games card for card (the shuffles use Python's generator), only its work.

tools/bench_speed.py runs it alternately with the engine and reports the ratio per decision.
"""
from __future__ import annotations

import random
import sys
from collections import Counter

SLOTS = [0, 0, 2, 2, 3, 4, 4]
STARTING_HAND, HAND_LIMIT, ACTIONS, FIRST_ROUND, COLUMN = 5, 7, 3, (1, 2), 5
TYPES = ("speakeasy", "jazz_club", "brewery", "gambling_house")
COLOURS = ("red", "yellow", "green", "blue", "purple")
VICTORY = {"same_type": 3, "different_types": 4, "total": 5}
RECRUIT, EXERT = "recruit", "exert_influence"


def hand_rank(cards: list) -> tuple:
    """(category, tiebreak) of a column of (value, colour) cards, larger is better."""
    values = sorted((v for v, _ in cards), reverse=True)
    counts = Counter(values)
    groups = sorted(counts.values(), reverse=True)
    full = len(cards) >= 5
    distinct = len(counts) == len(values)
    straight = full and distinct and values[0] - values[-1] == len(values) - 1
    colours = {c for _, c in cards}
    flush = full and len(colours) == 1
    rainbow = full and len(colours) == len(cards)
    by_group = tuple(v for v, _ in sorted(counts.items(), key=lambda kv: (-kv[1], -kv[0])))
    if groups[0] >= 5:
        return (10, by_group)
    if straight and flush:
        return (9, (values[0],))
    if straight and rainbow:
        return (8, (values[0],))
    if groups[0] >= 4:
        return (7, by_group)
    if groups[0] >= 3 and len(groups) > 1 and groups[1] >= 2:
        return (6, by_group)
    if flush:
        return (5, tuple(values))
    if straight:
        return (4, (values[0],))
    if groups[0] >= 3:
        return (3, by_group)
    if groups[0] >= 2 and len(groups) > 1 and groups[1] >= 2:
        return (2, by_group)
    if groups[0] >= 2:
        return (1, by_group)
    return (0, tuple(values))


class Game:
    """One game in progress: plain lists and dicts, no engine."""

    def __init__(self, n: int, seed: int):
        self.n = n
        self.rng = random.Random(seed)
        self.deck = [(v, c) for c in COLOURS for v in range(1, 16)]
        self.rng.shuffle(self.deck)
        self.discard: list = []
        self.hands = [[self.deck.pop() for _ in range(STARTING_HAND)] for _ in range(n)]
        self.tiles = [t for t in TYPES for _ in range(5)]
        self.rng.shuffle(self.tiles)
        self.slots = list(range(SLOTS[n]))
        self.business = [self.tiles.pop() for _ in self.slots]
        self.columns = [[[] for _ in range(n)] for _ in self.slots]
        self.markers = [[False] * n for _ in self.slots]
        self.controlled: list = [[] for _ in range(n)]
        self.idle = 0
        self.last_taker = None
        self.over = False
        self.decisions = 0
        self.first = self.rng.randrange(n)

    # -- the random agent at a decision: the options are rebuilt as a list every time
    def decide(self, agent: random.Random, options: list):
        self.decisions += 1
        return options[int(agent.random() * len(options))]

    def open_slots(self, p: int) -> list:
        return [s for s in self.slots if len(self.columns[s][p]) < COLUMN and self.business[s] is not None]

    def can_recruit(self, p: int, left: int) -> bool:
        return len(self.deck) + len(self.discard) > 0 and len(self.hands[p]) + 1 - left <= HAND_LIMIT

    def can_play(self, p: int) -> bool:
        return bool(self.hands[p]) and any(
            len(self.columns[s][p]) < COLUMN and self.business[s] is not None for s in self.slots)

    def draw_card(self, p: int) -> None:
        if not self.deck and self.discard:
            self.deck, self.discard = self.discard, []
            self.rng.shuffle(self.deck)
        if self.deck:
            self.hands[p].append(self.deck.pop())

    def play(self, agents: list) -> None:
        rnd = 0
        while not self.over:
            rnd += 1
            for i in range(self.n):
                p = (self.first + i) % self.n
                actions = FIRST_ROUND[i] if rnd == 1 and i < len(FIRST_ROUND) else ACTIONS
                self.turn(p, actions, agents)
                if self.over:
                    return

    def turn(self, p: int, actions: int, agents: list) -> None:
        agent = agents[p]
        for s in self.slots:
            if self.markers[s][p]:
                self.shootout(p, s, agents)
                self.idle = 0
                if self.over:
                    return
        left, acted = actions, False
        while left > 0:
            left -= 1
            recruit, play = self.can_recruit(p, left), self.can_play(p)
            if not (recruit or play):
                break
            options = ([RECRUIT] if recruit else []) + ([EXERT] if play else [])
            if self.decide(agent, options) == RECRUIT:
                self.draw_card(p)
            else:
                card = self.decide(agent, list(self.hands[p]))
                s = self.decide(agent, self.open_slots(p))
                self.hands[p].remove(card)
                column = self.columns[s][p]
                column.append(card)
                if len(column) == COLUMN and not self.markers[s][p]:
                    self.markers[s][p] = True
            acted = True
        hand = self.hands[p]
        if len(hand) > HAND_LIMIT:
            for _ in range(len(hand) - HAND_LIMIT):  # one pick at a time, as the engine asks
                card = self.decide(agent, list(hand))
                hand.remove(card)
                self.discard.append(card)
        self.idle = 0 if acted else self.idle + 1
        if self.idle >= self.n:
            self.over = True

    def shootout(self, p: int, s: int, agents: list) -> None:
        columns = self.columns[s]
        fighters = [q for q in range(self.n) if columns[q]]
        ranks = {q: hand_rank(columns[q]) for q in fighters}
        top = max(ranks.values())
        contenders = [q for q in fighters if ranks[q] == top]
        while len(contenders) > 1:
            able = [q for q in contenders if self.hands[q]]
            if not able:
                contenders = [next(q for q in [(p + i) % self.n for i in range(self.n)] if q in contenders)]
                break
            contenders = able
            if len(contenders) == 1:
                break
            sent = {q: self.decide(agents[q], list(self.hands[q])) for q in contenders}
            for q, card in sent.items():
                self.hands[q].remove(card)
            top_value = max(card[0] for card in sent.values())
            fought = contenders
            contenders = [q for q in fought if sent[q][0] == top_value]
            self.discard.extend(sent.values())
            for q in fought:
                self.draw_card(q)
        self.take_business(contenders[0], s)

    def take_business(self, w: int, s: int) -> None:
        self.controlled[w].append(self.business[s])
        self.business[s] = None
        self.last_taker = w
        for q in range(self.n):
            self.discard.extend(self.columns[s][q])
            self.columns[s][q] = []
            self.markers[s][q] = False
        if self.tiles:
            self.business[s] = self.tiles.pop()
        owned = Counter(self.controlled[w])
        if (max(owned.values()) >= VICTORY["same_type"] or len(owned) >= VICTORY["different_types"]
                or len(self.controlled[w]) >= VICTORY["total"]):
            self.over = True
        elif not self.tiles and all(b is None for b in self.business):
            self.over = True


def play_games(players: int, seeds: range) -> int:
    """Play one game per seed with random agents; returns the number of decisions taken."""
    decisions = 0
    for seed in seeds:
        game = Game(players, seed)
        game.play([random.Random(seed * 31 + i) for i in range(players)])
        decisions += game.decisions
    return decisions


if __name__ == "__main__":
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 4
    total = play_games(n, range(200))
    print(f"{total / 200:.1f} decisions per game ({n} players)")
