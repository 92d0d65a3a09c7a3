"""tools/handwritten_poker.py, the speed reference, plays the rules of
rules/chicago_poker/game.yaml with `no_special_cards`: its tables are the rule file's, its rules
keep the rule file's invariants at every decision, its hand ranking is the engine's, and its games
take as many decisions as the engine's (so that engine ÷ hand-written compares the same work)."""
from __future__ import annotations

import math
import random
import statistics
import sys
from collections import Counter
from pathlib import Path

import pytest
import yaml

from interpreter.builtins.poker import evaluate

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
import handwritten_poker as hp  # noqa: E402  (a script in tools/)

RULES = ROOT / "rules" / "chicago_poker" / "game.yaml"


@pytest.fixture(scope="module")
def rule_file() -> dict:
    return yaml.safe_load(RULES.read_text(encoding="utf-8"))


def test_the_tables_are_the_rule_files(rule_file):
    t = rule_file["tables"]
    assert hp.SLOTS == t["business_slots"]
    assert (hp.STARTING_HAND, hp.HAND_LIMIT, hp.ACTIONS, hp.COLUMN) == (
        t["starting_hand"], t["hand_limit"], t["actions_per_turn"], t["column_size"])
    assert list(hp.FIRST_ROUND) == t["first_round_actions"]
    assert hp.VICTORY == t["victory"]["normal"]
    tiles = rule_file["components"]["business_tile"]["items"]
    assert Counter(hp.Game(4, 0).tiles + hp.Game(4, 0).business) == {i["id"]: i["count"] for i in tiles}
    gangsters = [i for i in rule_file["components"]["card"]["items"] if i.get("role") == "gangster"]
    game = hp.Game(4, 0)
    cards = game.deck + [c for h in game.hands for c in h]
    assert sorted(cards) == sorted((i["value"], i["colour"]) for i in gangsters)


def test_hand_ranking_orders_hands_as_the_engine_builtin(rule_file):
    table = rule_file["tables"]["hand_ranking"]
    deck = [(v, c) for c in hp.COLOURS for v in range(1, 16)]
    rng = random.Random(3)
    made = [[(v + i, hp.COLOURS[i]) for i in range(5)] for v in (1, 11)]      # rainbow straights
    made += [[(v + i, "red") for i in range(5)] for v in (2, 9)]               # straight flushes
    made += [[(v + i, hp.COLOURS[i % 2]) for i in range(5)] for v in (3, 8)]   # straights
    made += [[(7, c) for c in hp.COLOURS], [(12, c) for c in hp.COLOURS]]      # Chicago Poker
    made += [[(9, c) for c in hp.COLOURS[:4]] + [(k, "red")] for k in (2, 14)] + [[(4, c) for c in hp.COLOURS[:4]]]
    made += [[(6, "red"), (6, "blue"), (6, "green"), (k, "red"), (k, "blue")] for k in (3, 13)]
    made += [[(v, "blue") for v in (1, 4, 6, 9, 13)], [(v, "blue") for v in (2, 4, 6, 9, 13)]]
    hands = made + [rng.sample(deck, rng.randint(1, 5)) for _ in range(3000)]

    def engine_key(h):
        return evaluate([v for v, _ in h], [c for _, c in h], table)[1]

    keys = sorted((engine_key(h), hp.hand_rank(h)) for h in hands)
    assert {e[0] for e, _ in keys} == set(range(1, len(table) + 1))  # every row of the table is met
    for (ea, ra), (eb, rb) in zip(keys, keys[1:]):  # the same order: ties where the engine ties
        assert ra < rb if ea < eb else ra == rb


def table_with(hand_size: int, room: int, deck: int = 10) -> hp.Game:
    """Player 0 holding `hand_size` cards with `room` places left in their columns."""
    game = hp.Game(4, 0)
    pool = [(v, c) for c in hp.COLOURS for v in range(1, 16)]
    game.hands = [pool[:hand_size], [], [], []]
    game.deck, game.discard = pool[40:40 + deck], []
    full = [(v, "red") for v in range(1, 6)]
    for s in game.slots:
        game.columns[s][0] = list(full)
        game.markers[s][0] = True
    if room:
        game.columns[0][0] = full[:hp.COLUMN - room]
        game.markers[0][0] = False
    return game


@pytest.mark.parametrize("hand_size, room, left, deck, allowed", [
    (6, 0, 0, 10, True),     # below the limit a draw is always allowed
    (7, 0, 2, 10, False),    # 8 cards and nowhere to play one: the draw would break the limit
    (7, 1, 2, 10, True),     # one sure play brings the hand back to 7
    (7, 3, 0, 10, False),    # no action left to play a card after the draw
    (8, 1, 1, 10, False),    # 9 cards, one sure play: still 8
    (8, 2, 2, 10, True),
    (3, 5, 2, 0, False),     # deck and discard empty: nothing to draw
])
def test_a_draw_respects_the_hand_limit_lookahead(hand_size, room, left, deck, allowed):
    # assumption hand_limit_lookahead: count(hand) < hand_limit or
    # count(hand) + 1 - min(actions_left, min(gangsters in hand, room left)) <= hand_limit
    assert table_with(hand_size, room, deck).can_recruit(0, left) is allowed


class Watched(hp.Game):
    """A reference game that checks the rule file's invariants at every decision and turn."""

    def __init__(self, n: int, seed: int):
        super().__init__(n, seed)
        self.prompts: Counter = Counter()
        self.shot: list = []
        self.check()

    def check(self) -> None:
        cards = self.deck + self.discard + [c for h in self.hands for c in h]
        cards += [c for cols in self.columns for col in cols for c in col]
        assert len(cards) == len(set(cards)) == 75
        assert len(self.tiles) + sum(b is not None for b in self.business) + sum(map(len, self.controlled)) == 20
        for s in self.slots:
            for q in range(self.n):
                column = self.columns[s][q]
                assert len(column) <= hp.COLUMN                                  # column_cap
                assert self.markers[s][q] == (len(column) == hp.COLUMN)          # marker_only_on_full_column
                assert self.business[s] is not None or not column                # cards_only_beside_businesses
        for q in range(self.n):
            assert q == self.active or len(self.hands[q]) <= hp.HAND_LIMIT     # hand_limit_between_turns

    def decide(self, agent, options, prompt):
        assert options
        self.prompts[prompt] += 1
        self.check()
        return super().decide(agent, options, prompt)

    def turn(self, p, actions, agents):
        due = [s for s in self.slots if self.markers[s][p]]
        self.shot = []
        super().turn(p, actions, agents)
        # every marker of p is resolved at the start of p's turn, in slot order
        assert self.shot == due or (self.over and self.shot == due[:len(self.shot)])
        if not self.over:
            assert len(self.hands[p]) <= hp.HAND_LIMIT
        self.check()

    def shootout(self, p, s, agents):
        self.shot.append(s)
        super().shootout(p, s, agents)


def test_a_tied_shootout_is_settled_by_reinforcements():
    game = hp.Game(3, 0)
    game.columns[0] = [[(2, "red"), (4, "red"), (6, "red"), (8, "blue"), (10, "blue")],
                       [(2, "green"), (4, "green"), (6, "yellow"), (8, "yellow"), (10, "purple")],
                       [(9, "green")]]
    game.markers[0][0] = True
    game.hands = [[(11, "red")], [(3, "blue")], [(15, "green")]]
    deck = len(game.deck)
    game.shootout(0, 0, [random.Random(i) for i in range(3)])
    assert game.decisions == 2  # players 0 and 1 tie on high cards, player 2 (a lower 9) is out
    assert game.controlled[0] and not game.controlled[1] and game.last_taker == 0
    assert (11, "red") in game.discard and (3, "blue") in game.discard
    assert len(game.hands[0]) == len(game.hands[1]) == 1 and len(game.deck) == deck - 2  # replacements
    assert not any(game.markers[0]) and not any(game.columns[0])


def test_a_tie_among_players_without_gangsters_goes_to_the_first_from_the_shooter():
    game = hp.Game(3, 0)
    game.columns[1] = [[(5, "red")], [(5, "blue")], [(5, "green")]]
    game.markers[1][1] = True
    game.hands = [[], [], []]
    game.shootout(1, 1, [random.Random(i) for i in range(3)])
    assert game.decisions == 0 and game.controlled[1] and game.last_taker == 1


class Capped(hp.Game):
    """A game that fails instead of running on forever."""

    turns = 0

    def turn(self, p, actions, agents):
        self.turns += 1
        assert self.turns <= 100, "the game does not end"
        super().turn(p, actions, agents)


def test_the_game_ends_after_a_round_in_which_nobody_could_act():
    game = Capped(3, 0)
    game.deck, game.discard, game.hands = [], [], [[], [], []]
    game.controlled = [["brewery"], ["brewery", "speakeasy"], []]
    game.play([random.Random(i) for i in range(3)])
    assert game.over and game.end == "nobody_can_act" and game.decisions == 0 and game.idle == 3
    assert game.winners() == [1]


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_games_keep_the_rules_invariants_and_end_by_a_rule(players):
    ends = Counter()
    for seed in range(12):
        game = Watched(players, seed)
        game.play([random.Random(seed * 31 + i) for i in range(players)])
        assert game.over and game.decisions == sum(game.prompts.values())
        assert game.prompts["discard"] == 0  # the look-ahead never lets a hand end a turn over 7
        ends[game.end] += 1
        owned = [Counter(c) for c in game.controlled]
        bosses = [q for q in range(players) if owned[q] and (
            max(owned[q].values()) >= hp.VICTORY["same_type"] or len(owned[q]) >= hp.VICTORY["different_types"]
            or sum(owned[q].values()) >= hp.VICTORY["total"])]
        if game.end == "big_boss":
            assert bosses == game.winners() == [game.last_taker]
        elif game.end == "last_business":
            assert not bosses and not game.tiles and all(b is None for b in game.business)
        else:
            assert game.end == "nobody_can_act" and game.idle >= players and not bosses
    assert ends["big_boss"] > 0


def test_decisions_per_game_follow_the_engines():
    from interpreter.game import Game

    engine = Game.load(RULES)
    seeds = range(120)
    ours, theirs = [], []
    for seed in seeds:
        S = engine.new_game(4, {"no_special_cards": True}, seed, logging=False)
        rngs = [random.Random(seed * 31 + i) for i in range(4)]
        while not S.over:
            p = S.current_players()[0]
            S.apply(p, int(rngs[p].random() * S.option_count(p)))
        theirs.append(S.decisions)
        ours.append(hp.play_games(4, range(seed, seed + 1)))
    se = math.sqrt(statistics.variance(ours) / len(ours) + statistics.variance(theirs) / len(theirs))
    # fixed seeds, so never flaky; 4 standard errors (about 10 %) catch a rule that drifted far
    assert abs(statistics.mean(ours) - statistics.mean(theirs)) < 4 * se
