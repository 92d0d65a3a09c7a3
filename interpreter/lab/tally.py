"""Streaming aggregates of one arm's game records: the numbers `simulate` reports.

Memory does not grow with the number of games: counts, running means and histograms of
distinct values only (and the first few failed games in full; all are in the results file).
"""
from __future__ import annotations

from collections import Counter
from typing import Any

from .metrics import METRICS
from .statistics import Histogram, RunningMean, binomial_two_sided, wilson

KEPT_ERRORS = 50


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

    def add(self, r: dict) -> None:
        self.games += 1
        if "error" in r:
            self.errors += 1
            if len(self.failed) < KEPT_ERRORS:
                self.failed.append({k: r[k] for k in ("game", "seed", "agents", "error", "command") if k in r})
            return
        winners = r["winners"]
        if not winners:
            self.draws += 1
        elif len(winners) > 1:
            self.shared += 1
        else:
            self.sole_wins[winners[0]] += 1
        for w in winners:
            self.wins[w] += 1
        for seat, score in enumerate(r["scores"]):
            self.scores[seat].add(score)
            self.score_hist[seat].add(round(score, 4) if isinstance(score, float) else score)
        self.decisions.add(r["decisions"])
        self.rounds.add(r.get("rounds", 0))
        self.reasons[r.get("reason")] += 1
        for seat, kind in enumerate(r.get("agents") or []):
            self.agent_games[kind] += 1
            self.agent_wins[kind] += seat in winners
            self.agent_scores.setdefault(kind, RunningMean()).add(r["scores"][seat])
        for m in self.metrics:
            m.add(r)

    @property
    def finished(self) -> int:
        return self.games - self.errors

    def summary(self, with_agents: bool = False) -> dict:
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
        return {"scores": [h.to_json() for h in self.score_hist], "decisions": self.decisions.to_json(),
                "rounds": self.rounds.to_json()}

    def first_seat(self) -> dict:
        """Does the first seat win alone more (or less) often than a fair 1/players share of
        the games that have one winner? Exact two-sided binomial test."""
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
