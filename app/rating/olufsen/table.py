"""Olufsen shogi ratings (text 001): one table, rated at once.

001 (13): all results of a table happened simultaneously; 001 (6) and (8) rate against the opponents'
post-event ratings, so the table is a system of equations, solved here (INTERPRETATIONS 2.7) from the
pieces in ``rules``: each game's change and its factors (001 (1), (9), (10)), the bonus (001 (11)),
unrated players' performance ratings (001 (6)), the categories (001 (3)) and the grades (001 (12)).
Pure: plain values in, plain values out, no I/O.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from app.rating.olufsen.rules import (
    BASE,
    BONUS_BASE,
    BONUS_PER_GAME,
    FESA_OPPONENT_FLOOR,
    FESA_UPSET_DIVISOR,
    MAX_GAMES_PER_TABLE,
    SCALE,
    SCORES,
    TABLE_TOLERANCE,
    ZERO_SCORE_RATING,
    Category,
    Game,
    GameFigures,
    OlufsenError,
    Options,
    PlayerResult,
    PlayerState,
    RecordedResult,
    TableNotConverged,
    TooManyGames,
    UndeterminedRatings,
    apply_bonus,
    category_for_table,
    coefficient,
    expected_score,
    game_change,
    opponent_factor,
    performance_rating,
    provisional_factor,
    standing,
    update_grade,
)
from app.rating.rounding import round_half_away_from_zero

__all__ = ["rate_table"]

AS_WRITTEN = Options()  # the text as it reads: neither option of INTERPRETATIONS 2.15 / 2.17
_MAX_ITERATIONS = 10_000
_PLAIN_ITERATIONS = 200  # after these, damp the iteration (x <- x + (F(x) - x)/2) to break oscillation


# --------------------------------------------------------------------------------------------------
# (6) (8) (9) (10) (11) (13) One table
# --------------------------------------------------------------------------------------------------


def rate_table(players: Mapping[str, PlayerState], games: Sequence[Game], options: Options = AS_WRITTEN) -> list[PlayerResult]:
    """Rate one table; results in the order of ``players``.

    001 (13): all results of a table happened simultaneously. 001 (6) and (8) rate against the
    opponents' post-event ratings, so the table is a system of equations on the post-event ratings,
    iterated on unrounded values until the largest change is below 1e-9, then rounded
    (INTERPRETATIONS 2.7). Raises an OlufsenError subclass on input the rules cannot rate."""
    table = _Table.build(players, games, options)
    post_event = table.solve()
    return [table.result(index, post_event) for index in range(len(table.ids))]


@dataclass
class _Table:
    ids: list[str]
    states: list[PlayerState]
    options: Options
    categories: list[Category]
    table_games: NDArray[np.int64]  # per player
    games_including_table: NDArray[np.int64]
    pre_rating: NDArray[np.float64]  # NaN where none
    side_player: NDArray[np.int64]  # one row per player-side of a game
    side_opponent: NDArray[np.int64]
    side_score: NDArray[np.float64]
    side_k: NDArray[np.float64]  # k(tr) of the side's player, 0 for unrated players (not rated by (1))
    side_weight: NDArray[np.float64]  # (10)'s factor for the opponent times (9)'s 18/n for the player

    @classmethod
    def build(cls, players: Mapping[str, PlayerState], games: Sequence[Game], options: Options) -> _Table:
        ids = list(players)
        index = {player_id: i for i, player_id in enumerate(ids)}
        for game in games:
            for side in (game.black, game.white):
                if side not in index:
                    raise OlufsenError(f"player {side!r} of a game is not among the table's players")
            if game.black == game.white:
                raise OlufsenError(f"player {game.black!r} cannot play against himself")
            if game.score_black not in SCORES:
                raise OlufsenError(f"a score must be 1, 0.5 or 0, not {game.score_black!r}")
        black = np.array([index[g.black] for g in games], dtype=np.int64)
        white = np.array([index[g.white] for g in games], dtype=np.int64)
        score = np.array([g.score_black for g in games], dtype=np.float64)
        side_player = np.concatenate([black, white])
        side_opponent = np.concatenate([white, black])
        side_score = np.concatenate([score, 1 - score])
        table_games = np.bincount(side_player, minlength=len(ids)).astype(np.int64)
        states = [players[player_id] for player_id in ids]
        for i, player_id in enumerate(ids):
            if table_games[i] > MAX_GAMES_PER_TABLE:
                raise TooManyGames(player_id, int(table_games[i]))  # INTERPRETATIONS 2.16
        categories = [category_for_table(state, int(table_games[i])) for i, state in enumerate(states)]
        for player_id, state, category in zip(ids, states, categories):
            if category is not Category.UNRATED and state.rating is None:
                raise OlufsenError(f"player {player_id!r} is {category} but has no rating")
        games_including_table = np.array([state.rated_games for state in states], dtype=np.int64) + table_games
        pre_rating = np.array([np.nan if s.rating is None else float(s.rating) for s in states], dtype=np.float64)
        player_k = np.array(
            [0.0 if c is Category.UNRATED else float(coefficient(float(r))) for c, r in zip(categories, pre_rating)]
        )
        player_multiplier = np.array(
            [provisional_factor(int(n)) if c is Category.PROVISIONAL else 1.0 for c, n in zip(categories, games_including_table)]
        )
        opponent_weight = np.array([opponent_factor(int(n)) for n in games_including_table], dtype=np.float64)
        return cls(
            ids=ids,
            states=states,
            options=options,
            categories=categories,
            table_games=table_games,
            games_including_table=games_including_table,
            pre_rating=pre_rating,
            side_player=side_player,
            side_opponent=side_opponent,
            side_score=side_score,
            side_k=player_k[side_player],
            side_weight=player_multiplier[side_player] * opponent_weight[side_opponent],
        )

    # --- the equations --------------------------------------------------------------------------

    def solve(self) -> NDArray[np.float64]:
        """Post-event ratings, unrounded, as the fixed point of ``_post_event``."""
        self._check_determined()
        ratings = self._start()
        step = 1.0
        for iteration in range(_MAX_ITERATIONS):
            updated = self._post_event(ratings)
            largest_change = float(np.max(np.abs(updated - ratings), initial=0.0))
            if largest_change < TABLE_TOLERANCE:
                return updated
            if iteration == _PLAIN_ITERATIONS:
                step = 0.5
            ratings = ratings + step * (updated - ratings)
        raise TableNotConverged(f"the table's equations did not converge in {_MAX_ITERATIONS} iterations")

    def _start(self) -> NDArray[np.float64]:
        # INTERPRETATIONS 2.7: from the pre-table ratings; unrated players at their opponents' average.
        ratings = self.pre_rating.copy()
        for i in range(len(self.ids)):
            if self.categories[i] is not Category.UNRATED:
                continue
            opponents = self.pre_rating[self.side_opponent[self.side_player == i]]
            known = opponents[~np.isnan(opponents)]
            recorded = [r.opponent_rating for r in self.states[i].recorded_results]
            if known.size:
                ratings[i] = float(known.mean())
            elif not np.isnan(ratings[i]):
                pass
            elif recorded:
                ratings[i] = float(np.mean(recorded))
            else:
                ratings[i] = ZERO_SCORE_RATING  # only the iteration's start: the fixed point does not depend on it
        return ratings

    def _post_event(self, ratings: NDArray[np.float64]) -> NDArray[np.float64]:
        """One evaluation of every player's post-event rating from the others' current values."""
        updated = ratings.copy()
        changes = self._changes_before_bonus(ratings)
        for i, category in enumerate(self.categories):
            if self.table_games[i] == 0:
                continue
            if category is Category.UNRATED:
                updated[i] = self._unrated_rating(i, ratings)
            else:
                updated[i] = self.pre_rating[i] + self._with_bonus(i, float(changes[i]), ratings)
        return updated

    def _changes_before_bonus(self, ratings: NDArray[np.float64]) -> NDArray[np.float64]:
        """001 (8): the formula of (1) against the opponents' post-event ratings, each game times (10)'s
        factor, summed, times (9)'s 18/n for provisional players (INTERPRETATIONS 2.1). Vectorised
        ``game_change`` over all games; (9)'s factor is folded into each game since the sum is linear."""
        from scipy.special import expit  # imported when used: see app/rating/whr/solver.py

        player, opponent = self.side_player, self.side_opponent
        own = self.pre_rating[player]
        opponent_rating = ratings[opponent]
        if self.options.fesa:
            opponent_rating = np.maximum(opponent_rating, FESA_OPPONENT_FLOOR)
        expected = expit(math.log(BASE) * (own - opponent_rating) / SCALE)
        per_game = self.side_k * (self.side_score - expected)
        if self.options.fesa:
            upset = self.side_k * (opponent_rating - own) / FESA_UPSET_DIVISOR
            per_game = np.where(self.side_score == 1.0, np.maximum(per_game, upset), per_game)
        per_game = np.where(self.side_k > 0, per_game * self.side_weight, 0.0)
        return np.bincount(player, weights=per_game, minlength=len(self.ids)).astype(np.float64)

    def _with_bonus(self, i: int, change: float, ratings: NDArray[np.float64]) -> float:
        threshold = BONUS_BASE + BONUS_PER_GAME * int(self.table_games[i])
        if change <= threshold:
            return change
        return apply_bonus(float(self.pre_rating[i]), change, int(self.table_games[i]), self._table_performance(i, ratings))

    def _table_performance(self, i: int, ratings: NDArray[np.float64]) -> float | None:
        """INTERPRETATIONS 2.10: this table's performance against post-event ratings; at 100 % with
        the dummy draw of 001 (6); None at 0 %."""
        rows = self.side_player == i
        opponents = ratings[self.side_opponent[rows]]
        scores = self.side_score[rows]
        return _performance_with_dummy_draw(opponents, scores)

    def _unrated_rating(self, i: int, ratings: NDArray[np.float64]) -> float:
        """001 (6) (7): performance over all prior recorded results (dummies included) and this table's
        games against post-event ratings; 0 % gives 400, and nothing gives less; 100 % adds a dummy draw against the highest
        rated opponent among those results (INTERPRETATIONS 2.5)."""
        rows = self.side_player == i
        recorded = self.states[i].recorded_results
        opponents = np.concatenate(
            [np.array([r.opponent_rating for r in recorded], dtype=np.float64), ratings[self.side_opponent[rows]]]
        )
        scores = np.concatenate([np.array([r.score for r in recorded], dtype=np.float64), self.side_score[rows]])
        performance = _performance_with_dummy_draw(opponents, scores)
        # INTERPRETATIONS 2.18: 400, the rating of a 0 % score, is the floor: a player who scored is not
        # rated below one who did not, and unrated players tied only to each other stay finite.
        return float(ZERO_SCORE_RATING) if performance is None else max(performance, float(ZERO_SCORE_RATING))

    def _check_determined(self) -> None:
        """Unrated players who met only unrated players need an anchor somewhere in their group."""
        unrated = [i for i, c in enumerate(self.categories) if c is Category.UNRATED and self.table_games[i] > 0]
        group = {i: i for i in unrated}

        def root(i: int) -> int:
            while group[i] != i:
                i = group[i]
            return i

        anchored: set[int] = set()
        for player, opponent in zip(self.side_player.tolist(), self.side_opponent.tolist()):
            if player not in group:
                continue
            if opponent in group:
                group[root(player)] = root(opponent)
        for i in unrated:
            rows = self.side_player == i
            meets_rated = any(o not in group for o in self.side_opponent[rows].tolist())
            recorded = self.states[i].recorded_results
            total = float(self.side_score[rows].sum()) + sum(r.score for r in recorded)
            if meets_rated or recorded or total == 0:
                anchored.add(i)
        anchored_roots = {root(i) for i in anchored}
        loose = [self.ids[i] for i in unrated if root(i) not in anchored_roots]
        if loose:
            raise UndeterminedRatings(loose)

    # --- one player's outcome -------------------------------------------------------------------

    def result(self, i: int, post_event: NDArray[np.float64]) -> PlayerResult:
        state = self.states[i]
        category = self.categories[i]
        games = int(self.table_games[i])
        rows = self.side_player == i
        score = float(self.side_score[rows].sum())
        rating_before = state.rating
        if games == 0:
            return PlayerResult(
                id=self.ids[i],
                category=category,
                games=0,
                score=0.0,
                rating_before=rating_before,
                rating_after=rating_before,
                change=0 if rating_before is not None else None,
                change_unrounded=0.0 if rating_before is not None else None,
                rating_after_unrounded=None if rating_before is None else float(rating_before),
                performance_rating=None,
                bonus_applied=0.0,
                bonus_capped=False,
                grade_before=state.grades.grade,
                grade_after=state.grades.grade,
                pending_grade_after=state.grades.pending_grade,
                promotions=(),
                category_after=state.category,
                state=state,
            )
        performance = self._table_performance(i, post_event)
        unrounded = float(post_event[i])
        bonus_applied = 0.0
        bonus_capped = False
        normal: float | None = None  # the change "in the normal way" of (11), before its bonus
        threshold = float(BONUS_BASE + BONUS_PER_GAME * games)  # (11) T = 20 + 3n
        if category is Category.UNRATED:
            rating_after = round_half_away_from_zero(unrounded)
            change = None if rating_before is None else rating_after - rating_before
            change_unrounded = None if rating_before is None else unrounded - rating_before
        else:
            assert rating_before is not None
            normal = float(self._changes_before_bonus(post_event)[i])
            with_bonus = self._with_bonus(i, normal, post_event)
            change_unrounded = unrounded - rating_before
            bonus_applied = with_bonus - normal  # exactly 0 when (11) does not apply
            doubled = 2 * normal - threshold
            bonus_capped = (
                normal > threshold and performance is not None and rating_before + normal < performance < rating_before + doubled
            )
            change = round_half_away_from_zero(change_unrounded)  # INTERPRETATIONS 2.1: once per player
            rating_after = rating_before + change
        # 001 (6): a result is recorded with the opponent's post-event rating.
        table_results = tuple(
            RecordedResult(float(round_half_away_from_zero(float(post_event[o]))), float(s))
            for o, s in zip(self.side_opponent[rows].tolist(), self.side_score[rows].tolist())
        )
        results_after = state.recorded_results + table_results
        rated_games = state.rated_games + games
        category_after = standing(rated_games, results_after, was_unrated=category is Category.UNRATED)
        grades = update_grade(
            state.grades,
            category,
            rating_before,
            rating_after,
            games,
            highest_grade=self.options.provisional_highest_grade,
        )
        new_state = PlayerState(
            rating=rating_after,
            rated_games=rated_games,
            category=category_after,
            recorded_results=results_after if category_after is Category.UNRATED else (),
            grades=grades.state,
        )
        return PlayerResult(
            id=self.ids[i],
            category=category,
            games=games,
            score=score,
            rating_before=rating_before,
            rating_after=rating_after,
            change=change,
            change_unrounded=change_unrounded,
            rating_after_unrounded=unrounded,
            performance_rating=performance,
            bonus_applied=bonus_applied,
            bonus_capped=bonus_capped,
            grade_before=state.grades.grade,
            grade_after=grades.state.grade,
            pending_grade_after=grades.state.pending_grade,
            promotions=grades.promotions,
            category_after=category_after,
            state=new_state,
            game_figures=self._game_figures(i, post_event),
            change_before_bonus=normal,
            bonus_threshold=None if normal is None else threshold,
            change_with_uncapped_bonus=None if normal is None or normal <= threshold else 2 * normal - threshold,
        )

    def _game_figures(self, i: int, post_event: NDArray[np.float64]) -> tuple[GameFigures, ...]:
        """Player i's games with every factor of (1), (9) and (10), as ``_changes_before_bonus`` sums them."""
        rated = self.categories[i] is not Category.UNRATED
        own = float(self.pre_rating[i])
        multiplier = provisional_factor(int(self.games_including_table[i])) if self.categories[i] is Category.PROVISIONAL else 1.0
        figures = []
        for side in np.flatnonzero(self.side_player == i).tolist():
            opponent = int(self.side_opponent[side])
            score = float(self.side_score[side])
            opponent_rating = float(post_event[opponent])
            if self.options.fesa:
                opponent_rating = max(opponent_rating, FESA_OPPONENT_FLOOR)
            if not rated:
                figures.append(GameFigures(self.ids[opponent], score, opponent_rating, None, None, None, None, None, None))
                continue
            k = coefficient(own)
            expected = expected_score(own, opponent_rating)
            d = game_change(own, float(post_event[opponent]), score, fesa=self.options.fesa)
            factor = opponent_factor(int(self.games_including_table[opponent]))
            figures.append(
                GameFigures(
                    self.ids[opponent], score, opponent_rating, k, expected, d, factor, multiplier, d * factor * multiplier
                )
            )
        return tuple(figures)


def _performance_with_dummy_draw(opponents: NDArray[np.float64], scores: NDArray[np.float64]) -> float | None:
    """001 (6): at 0 % None (the caller sets 400); at 100 % "a temporary draw result against the highest
    rated opponent is inserted"; otherwise the plain performance of (5)."""
    score = float(scores.sum())
    if len(scores) == 0 or score == 0:
        return None
    if score == len(scores):
        opponents = np.append(opponents, opponents.max())
        scores = np.append(scores, 0.5)
    return performance_rating(opponents, scores)
