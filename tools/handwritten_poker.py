#!/usr/bin/env python3
"""Chicago Poker without special cards, written by hand in plain Python: the speed reference.

This is what a programmer would write for one game, with no rule file and no engine: the rules of
rules/chicago_poker/game.yaml with `no_special_cards` and the same decision points (recruit or
exert influence, asked even when only one of them is possible; the card to play; the business;
cards to discard down to the hand limit, one pick at a time; secret reinforcing gangsters in a
tied shoot-out), the option list of each decision rebuilt as a Python list every time, and the
same random agent (`int(rng.random() * option_count)`). Poker hands are ranked with a compact
evaluator of the same categories. It does not reproduce the engine's games card for card (the
shuffles use Python's generator), only its rules and its work: the decisions per game follow the
same distribution (tests/tools/test_handwritten_poker.py checks the rules' invariants).

Where the rule file decides something the rulebook leaves open, this file follows the rule file's
`assumptions` (named in the comments below).

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
        self.active = None
        self.over = False
        self.end = None  # why the game ended: "big_boss", "last_business" or "nobody_can_act"
        self.decisions = 0
        self.first = self.rng.randrange(n)

    # -- the random agent at a decision: the options are rebuilt as a list every time; `prompt`
    #    says what is asked (the random agent does not read it)
    def decide(self, agent: random.Random, options: list, prompt: str):
        self.decisions += 1
        return options[int(agent.random() * len(options))]

    def open_slots(self, p: int) -> list:
        return [s for s in self.slots if len(self.columns[s][p]) < COLUMN and self.business[s] is not None]

    def room_left(self, p: int) -> int:
        """Gangsters p's columns at face-up businesses can still take."""
        return sum(COLUMN - len(self.columns[s][p]) for s in self.open_slots(p))

    def can_recruit(self, p: int, left: int) -> bool:
        """A draw may not leave more than HAND_LIMIT cards at the end of the turn (assumption
        hand_limit_lookahead): allowed below the limit, or when the hand after the draw minus the
        cards p can surely still play is within it. Sure plays: min(actions left after the draw,
        gangsters in hand, room left in p's columns); the hand never has fewer than `needed`."""
        if not self.deck and not self.discard:
            return False
        hand = len(self.hands[p])
        if hand < HAND_LIMIT:
            return True
        needed = hand + 1 - HAND_LIMIT
        return left >= needed and self.room_left(p) >= needed

    def can_play(self, p: int) -> bool:
        return bool(self.hands[p]) and any(
            len(self.columns[s][p]) < COLUMN and self.business[s] is not None for s in self.slots)

    def draw_card(self, p: int) -> None:
        if not self.deck and self.discard:  # assumption reshuffle_when_drawing
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
                # assumption first_round: 1 action for the first player, 2 for the second
                actions = FIRST_ROUND[i] if rnd == 1 and i < len(FIRST_ROUND) else ACTIONS
                self.turn(p, actions, agents)
                if self.over:
                    return

    def turn(self, p: int, actions: int, agents: list) -> None:
        agent = agents[p]
        self.active = p
        for s in self.slots:  # assumption shootout_order: slot 0 first
            if self.markers[s][p]:
                self.shootout(p, s, agents)
                self.idle = 0
                if self.over:
                    return
        left, acted = actions, False
        while left > 0:
            left -= 1
            recruit, play = self.can_recruit(p, left), self.can_play(p)
            if not (recruit or play):  # assumption no_legal_action: the turn ends early
                break
            options = ([RECRUIT] if recruit else []) + ([EXERT] if play else [])
            if self.decide(agent, options, "action") == RECRUIT:
                self.draw_card(p)
            else:
                card = self.decide(agent, list(self.hands[p]), "card to play")
                s = self.decide(agent, self.open_slots(p), "business to influence")
                self.hands[p].remove(card)
                column = self.columns[s][p]
                column.append(card)
                if len(column) == COLUMN and not self.markers[s][p]:
                    self.markers[s][p] = True
            acted = True
        hand = self.hands[p]
        if len(hand) > HAND_LIMIT:  # assumption hand_limit_fallback: can_recruit never lets this happen
            for _ in range(len(hand) - HAND_LIMIT):  # one pick at a time, as the engine asks
                card = self.decide(agent, list(hand), "discard")
                hand.remove(card)
                self.discard.append(card)
        self.idle = 0 if acted else self.idle + 1
        if self.idle >= self.n:  # assumption stalemate: a whole round in which nobody acted
            self.over, self.end = True, "nobody_can_act"

    def shootout(self, p: int, s: int, agents: list) -> None:
        columns = self.columns[s]
        fighters = [q for q in range(self.n) if columns[q]]  # assumption fighters
        ranks = {q: hand_rank(columns[q]) for q in fighters}
        top = max(ranks.values())
        contenders = [q for q in fighters if ranks[q] == top]
        while len(contenders) > 1:  # assumptions reinforcements, reinforcement_nobody_able
            able = [q for q in contenders if self.hands[q]]
            if not able:
                contenders = [next(q for q in [(p + i) % self.n for i in range(self.n)] if q in contenders)]
                break
            contenders = able
            if len(contenders) == 1:
                break
            sent = {q: self.decide(agents[q], list(self.hands[q]), "reinforcement") for q in contenders}
            for q, card in sent.items():
                self.hands[q].remove(card)
            top_value = max(card[0] for card in sent.values())
            fought = contenders
            contenders = [q for q in fought if sent[q][0] == top_value]
            self.discard.extend(sent.values())
            for q in fought:  # assumption reinforcement_replacement
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
            self.over, self.end = True, "big_boss"  # assumption immediate_end
        elif not self.tiles and all(b is None for b in self.business):
            self.over, self.end = True, "last_business"  # assumption last_tile: last_taker wins

    def winners(self) -> list:
        """The big boss, or (nobody could act any more) the players with most businesses."""
        if self.end != "nobody_can_act":
            return [self.last_taker]
        most = max(len(c) for c in self.controlled)
        return [q for q in range(self.n) if len(self.controlled[q]) == most]


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
