"""Streaming aggregates of one arm's game records: the numbers `simulate` reports.

Memory does not grow with the number of games: counts, running means and histograms of
distinct values only (and the first few failed games in full; all are in the results file).

Games of a simulation repeat the same few outcomes (a small card game has about a dozen): `add` only
counts each distinct outcome (scores, winners, length, end reason, agents, options seen), and
the counts are folded into the aggregates, each outcome once with its weight, when a summary is
asked for or FOLD_AT distinct outcomes are waiting. That keeps the bookkeeping of a game to a
dictionary update, small beside the cheapest game.
"""
from __future__ import annotations

from collections import Counter
from typing import Any

from .metrics import METRICS
from .statistics import Histogram, RunningMean, binomial_two_sided, wilson

KEPT_ERRORS = 50
FOLD_AT = 4096  # distinct outcomes waiting before they are folded into the aggregates


class Tally:
    def __init__(self, players: int):
        self.players = players
        self.games = 0
        self.errors = 0
        self.failed: list[dict] = []
        self.wins = [0] * players
        self.sole_wins = [0] * players
        self.draws = 0
        self.shared = 0
        self.scores = [RunningMean() for _ in range(players)]
        self.score_hist = [Histogram() for _ in range(players)]
        self.decisions = Histogram()
        self.rounds = Histogram()
        self.reasons: Counter = Counter()
        self.agent_games: Counter = Counter()
        self.agent_wins: Counter = Counter()
        self.agent_scores: dict[str, RunningMean] = {}
        self.metrics = [cls() for cls in METRICS]
        self._waiting: Counter = Counter()  # outcome -> games, not yet folded in

    def add(self, r: dict) -> None:
        self.games += 1
        if "error" in r:
            self.errors += 1
            if len(self.failed) < KEPT_ERRORS:
                self.failed.append({k: r[k] for k in ("game", "seed", "agents", "error", "command") if k in r})
            return
        self._waiting[(tuple(r["scores"]), tuple(r["winners"]), r["decisions"], r.get("rounds", 0),
                       r.get("reason"), tuple(r.get("agents") or ()), r.get("options"))] += 1
        if len(self._waiting) >= FOLD_AT:
            self._fold()

    def _fold(self) -> None:
        """Fold the waiting outcomes into the aggregates (in the order they first occurred)."""
        for (scores, winners, decisions, rounds, reason, agents, options), k in self._waiting.items():
            self._add_outcome({"scores": list(scores), "winners": list(winners), "decisions": decisions,
                               "rounds": rounds, "reason": reason, "agents": list(agents), "options": options}, k)
        self._waiting.clear()

    def _add_outcome(self, r: dict, k: int) -> None:
        """`k` finished games that all ended as `r`."""
        winners = r["winners"]
        if not winners:
            self.draws += k
        elif len(winners) > 1:
            self.shared += k
        else:
            self.sole_wins[winners[0]] += k
        for w in winners:
            self.wins[w] += k
        for seat, score in enumerate(r["scores"]):
            self.scores[seat].add(score, k)
            self.score_hist[seat].add(round(score, 4) if isinstance(score, float) else score, k)
        self.decisions.add(r["decisions"], k)
        self.rounds.add(r["rounds"], k)
        self.reasons[r["reason"]] += k
        for seat, kind in enumerate(r["agents"]):
            self.agent_games[kind] += k
            self.agent_wins[kind] += k * (seat in winners)
            self.agent_scores.setdefault(kind, RunningMean()).add(r["scores"][seat], k)
        for m in self.metrics:
            m.add_many(r, k)

    @property
    def finished(self) -> int:
        return self.games - self.errors

    def summary(self, with_agents: bool = False) -> dict:
        self._fold()
        n = self.finished
        out: dict[str, Any] = {
            "games": self.games, "errors": self.errors, "finished": n,
            "wins_by_seat": self.wins,
            "win_rate": [round(w / n, 4) if n else 0.0 for w in self.wins],
            "win_rate_ci": [[round(x, 4) for x in wilson(w, n)] for w in self.wins],
            "mean_scores": [round(m.mean, 4) for m in self.scores],
            "mean_score_ci": [[round(x, 4) for x in m.interval()] for m in self.scores],
            "draws": self.draws, "shared_wins": self.shared,
            "length": {"decisions": self.decisions.summary(), "rounds": self.rounds.summary()},
            "mean_decisions": self.decisions.summary()["mean"],
            "end_reasons": {str(k): v for k, v in self.reasons.most_common()},
            "first_seat": self.first_seat(),
            "metrics": {m.name: m.value() for m in self.metrics},
            "failed_games": self.failed,
            "players": self.players,
        }
        if with_agents:
            out["wins_by_agent"] = dict(self.agent_wins)
            out["games_by_agent"] = dict(self.agent_games)
            out["win_rate_by_agent"] = {k: round(self.agent_wins[k] / g, 4) for k, g in self.agent_games.items()}
            out["win_rate_by_agent_ci"] = {k: [round(x, 4) for x in wilson(self.agent_wins[k], g)]
                                           for k, g in self.agent_games.items()}
            out["mean_score_by_agent"] = {k: round(m.mean, 4) for k, m in self.agent_scores.items()}
        return out

    def distributions(self) -> dict:
        """Histograms for plots: scores by seat, game lengths."""
        self._fold()
        return {"scores": [h.to_json() for h in self.score_hist], "decisions": self.decisions.to_json(),
                "rounds": self.rounds.to_json()}

    def first_seat(self) -> dict:
        """Does the first seat win alone more (or less) often than a fair 1/players share of
        the games that have one winner? Exact two-sided binomial test."""
        self._fold()
        decided = sum(self.sole_wins)
        k = self.sole_wins[0] if self.players else 0
        fair = 1 / self.players if self.players else 0
        p = binomial_two_sided(k, decided, fair)
        rate = k / decided if decided else 0.0
        lo, hi = wilson(k, decided)
        if decided == 0:
            verdict = "no game had a single winner: nothing to test"
        elif p < 0.05:
            verdict = (f"P1 wins {100 * rate:.1f} % of the games with one winner [{100 * lo:.1f}, {100 * hi:.1f}], "
                       f"a fair share is {100 * fair:.1f} %: a significant first-seat "
                       f"{'advantage' if rate > fair else 'disadvantage'} (p = {p:.2g})")
        else:
            verdict = (f"P1 wins {100 * rate:.1f} % of the games with one winner [{100 * lo:.1f}, {100 * hi:.1f}], "
                       f"a fair share is {100 * fair:.1f} %: no significant first-seat advantage (p = {p:.2g})")
        return {"sole_wins": k, "decided_games": decided, "fair_share": round(fair, 4),
                "rate": round(rate, 4), "ci": [round(lo, 4), round(hi, 4)], "p_value": round(p, 6),
                "significant": bool(decided and p < 0.05), "verdict": verdict}
