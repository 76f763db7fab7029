"""Synthetic federation-shaped game histories for benchmarks and tests (seeded, reproducible).

A federation over `years` years: players join (more of them as the federation grows), stay for a
career of a few years (some for decades), belong to one of `regions` regions, and play in
tournaments of 8-60 players: small ones round robin, larger ones Swiss (7-11 rounds, players of equal
score paired). Most tournaments are local to a region, some are international (the stronger and the
more active players travel). Every game of a tournament is dated on the tournament's last day, as
RIF 2021 #8.4 does. Strengths drift: each player improves at the start of his career and then wanders.
About `draw_rate` of the games are draws; black and white are assigned at random. Generation
stops with the tournament that reaches `n_games` (so there are a few more games than that; every
tournament is complete).

    from bench.histories import rif_sized, large, federation_history
    h = rif_sized()             # 5,000 players, 100,000 games over 35 years
    h.black, h.white, h.score, h.day, h.tournament, h.n_players
    h.head(k)                   # the games of the first k tournaments (in date order)
    h.without_last_tournament()

Days are ``date.toordinal()`` numbers, starting at `epoch` (1 January 1989 by default).
"""

from __future__ import annotations

import argparse
import math
from dataclasses import dataclass
from datetime import date
from pathlib import Path

import numpy as np

__all__ = ["History", "federation_history", "rif_sized", "large", "double", "SIZES"]


@dataclass(frozen=True)
class History:
    black: np.ndarray  # int64 player index
    white: np.ndarray  # int64
    score: np.ndarray  # float64, black's score 1 / 0.5 / 0
    day: np.ndarray  # int64, date.toordinal() of the tournament's last day
    tournament: np.ndarray  # int64, tournament index; tournaments numbered in date order
    n_players: int

    @property
    def n_games(self) -> int:
        return len(self.black)

    @property
    def n_tournaments(self) -> int:
        return int(self.tournament.max()) + 1 if len(self.tournament) else 0

    def head(self, n_tournaments: int) -> History:
        keep = self.tournament < n_tournaments
        return History(
            self.black[keep], self.white[keep], self.score[keep], self.day[keep], self.tournament[keep], self.n_players
        )

    def without_last_tournament(self) -> History:
        return self.head(self.n_tournaments - 1)

    def save(self, path: str | Path) -> None:
        np.savez(
            path,
            black=self.black,
            white=self.white,
            score=self.score,
            day=self.day,
            tournament=self.tournament,
            n_players=np.int64(self.n_players),
        )

    @classmethod
    def load(cls, path: str | Path) -> History:
        with np.load(path) as z:
            return cls(z["black"], z["white"], z["score"], z["day"], z["tournament"], int(z["n_players"]))

    def summary(self) -> str:
        played = np.union1d(self.black, self.white)
        draws = float(np.mean(self.score == 0.5)) if self.n_games else 0.0
        years = (int(self.day.max()) - int(self.day.min())) / 365.25 if self.n_games else 0.0
        players = np.concatenate([self.black, self.white])
        dates = np.concatenate([self.day, self.day])
        days = len(np.unique(players * (int(dates.max()) + 1) + dates)) if self.n_games else 0
        return (
            f"{self.n_games:,} games, {len(played):,} of {self.n_players:,} players played, "
            f"{self.n_tournaments:,} tournaments over {years:.1f} years, {days:,} player-days, "
            f"{draws:.1%} draws"
        )


def federation_history(
    n_players: int = 5000,
    n_games: int = 100_000,
    years: float = 35.0,
    seed: int = 1,
    regions: int = 20,
    draw_rate: float = 0.10,
    min_size: int = 8,
    max_size: int = 60,
    local_share: float = 0.7,
    epoch: date = date(1989, 1, 1),
) -> History:
    rng = np.random.default_rng(seed)
    span = int(years * 365.25)

    # --- the federation grows: density of arrivals and of tournaments ~ 0.3 + t/span
    def growing_days(k: int) -> np.ndarray:
        # inverse CDF of density (0.3 + u) on [0, 1]
        u = rng.random(k)
        a = 0.3
        x = -a + np.sqrt(a * a + u * (2 * a + 1))
        return np.minimum((x * span).astype(np.int64), span - 1)

    # --- players
    region_weights = rng.zipf(1.6, regions).astype(float)
    region_weights /= region_weights.sum()
    region = rng.choice(regions, size=n_players, p=region_weights)
    entry = growing_days(n_players)
    entry[: max(1, n_players // 20)] = rng.integers(0, max(1, span // 10), max(1, n_players // 20))  # founders
    career = rng.exponential(7 * 365.25, n_players) + 180
    exit_ = np.minimum(entry + career.astype(np.int64), span)
    activity = rng.lognormal(0.0, 0.9, n_players)
    base = rng.normal(1700.0, 180.0, n_players) + rng.normal(0.0, 60.0, regions)[region]
    gain = np.abs(rng.normal(200.0, 120.0, n_players))  # improvement early in the career
    learn = rng.uniform(1.0, 5.0, n_players) * 365.25
    wander_amp = rng.normal(0.0, 60.0, n_players)
    wander_period = rng.uniform(4.0, 15.0, n_players) * 365.25
    wander_phase = rng.uniform(0.0, 2 * math.pi, n_players)

    def strength(players: np.ndarray, t: int) -> np.ndarray:
        age = np.maximum(t - entry[players], 0)
        return (
            base[players]
            + gain[players] * (1.0 - np.exp(-age / learn[players]))
            + wander_amp[players] * np.sin(2 * math.pi * age / wander_period[players] + wander_phase[players])
        )

    # --- tournament formats until the game budget is reached
    sizes, rounds, counts = [], [], []
    total = 0
    while total < n_games * 1.01:  # a little spare: early tournaments may be smaller than planned
        size = int(min_size + math.floor((max_size - min_size + 1) * rng.random() ** 2.2))
        if size <= 12:
            r = size - 1 if size % 2 == 0 else size  # round robin (odd: one bye per round)
            games = size * (size - 1) // 2
        else:
            r = int(rng.integers(7, 12))
            games = (size // 2) * r
        sizes.append(size)
        rounds.append(r)
        counts.append(games)
        total += games
    n_t = len(sizes)
    t_days = np.sort(growing_days(n_t))

    played = np.zeros(n_players, dtype=bool)
    newcomer_boost = 8.0  # a new player is keen: he plays soon after joining
    black_parts, white_parts, score_parts, day_parts, tour_parts = [], [], [], [], []
    budget = n_games
    tour_index = 0
    for k in range(n_t):
        if budget <= 0:
            break
        t = int(t_days[k])
        active = np.flatnonzero((entry <= t) & (exit_ >= t))
        if len(active) < min_size:
            continue
        size = sizes[k]
        local = rng.random() < local_share
        if local:
            reg_counts = np.bincount(region[active], minlength=regions).astype(float)
            reg = rng.choice(regions, p=reg_counts / reg_counts.sum())
            pool = active[region[active] == reg]
            if len(pool) < size:
                pool = active
            weights = activity[pool] * np.where(played[pool], 1.0, newcomer_boost)
        else:
            pool = active
            weights = activity[pool] * np.exp((strength(pool, t) - 1900.0) / 250.0)
            weights *= np.where(played[pool], 1.0, newcomer_boost)
        size = min(size, len(pool))
        # weighted sample without replacement (Gumbel top-k)
        keys = np.log(weights) - np.log(-np.log(rng.random(len(pool))))
        players = pool[np.argpartition(-keys, size - 1)[:size]]
        played[players] = True
        s = strength(players, t)
        if size <= 12:
            i, j = np.triu_indices(size, 1)
            pairs = [(i, j)]
        else:
            pairs = []
            points = np.zeros(size)
            n_rounds = rounds[k]
            for _ in range(n_rounds):
                order = np.lexsort((rng.random(size), -points))
                m = size // 2 * 2
                i, j = order[0:m:2], order[1:m:2]
                res = _results(rng, s[i], s[j], draw_rate)
                points[i] += res
                points[j] += 1.0 - res
                pairs.append((i, j, res))
        for pair in pairs:
            i, j = pair[0], pair[1]
            res = pair[2] if len(pair) == 3 else _results(rng, s[i], s[j], draw_rate)
            swap = rng.random(len(i)) < 0.5
            b = np.where(swap, players[j], players[i])
            w = np.where(swap, players[i], players[j])
            sc = np.where(swap, 1.0 - res, res)
            black_parts.append(b)
            white_parts.append(w)
            score_parts.append(sc)
            day_parts.append(np.full(len(b), t, dtype=np.int64))
            tour_parts.append(np.full(len(b), tour_index, dtype=np.int64))
            budget -= len(b)
        tour_index += 1  # tournaments are never cut: the last one may take the total past n_games

    origin = epoch.toordinal()
    return History(
        black=np.concatenate(black_parts).astype(np.int64),
        white=np.concatenate(white_parts).astype(np.int64),
        score=np.concatenate(score_parts).astype(np.float64),
        day=np.concatenate(day_parts) + origin,
        tournament=np.concatenate(tour_parts),
        n_players=n_players,
    )


def _results(rng, s_a: np.ndarray, s_b: np.ndarray, draw_rate: float) -> np.ndarray:
    """Score of side a: a draw with probability ~ draw_rate (more likely between equals), else
    Bradley-Terry on the true strengths."""
    p = 1.0 / (1.0 + 10.0 ** ((s_b - s_a) / 400.0))
    draw = rng.random(len(p)) < draw_rate * 1.35 * 4.0 * p * (1.0 - p)
    win = rng.random(len(p)) < p
    return np.where(draw, 0.5, win.astype(float))


def rif_sized(seed: int = 1) -> History:
    """5,000 players, 100,000 games over 35 years."""
    return federation_history(n_players=5000, n_games=100_000, years=35.0, seed=seed)


def large(seed: int = 2) -> History:
    """50,000 players, 1,000,000 games over 35 years."""
    return federation_history(n_players=50_000, n_games=1_000_000, years=35.0, seed=seed, regions=60)


def double(seed: int = 4) -> History:
    """100,000 players, 2,000,000 games over 35 years: twice the large history's players and games,
    for the import's memory, which must not grow with the file (bench_scale.py --size double)."""
    return federation_history(n_players=100_000, n_games=2_000_000, years=35.0, seed=seed, regions=120)


SIZES = {"rif": rif_sized, "large": large, "double": double}


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description="Generate and describe a synthetic history")
    parser.add_argument("--size", choices=sorted(SIZES), default="rif")
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--save", help="write the history to this .npz file")
    args = parser.parse_args()
    history = SIZES[args.size]() if args.seed is None else SIZES[args.size](seed=args.seed)
    print(history.summary())
    if args.save:
        history.save(args.save)
