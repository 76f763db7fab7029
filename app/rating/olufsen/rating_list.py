"""The Olufsen shogi list as a rating system (text 001, INTERPRETATIONS section 2): the stored shogi
tournaments replayed table by table with ``app.rating.olufsen.rate_table``, each player's state carried
from table to table, from the list's seeds or as a newcomer.

One stored tournament is one table (001 (13)). Its handicap games are left out (INTERPRETATIONS 2.17);
games not played never reach a system (the recompute reads played games only, 001 (4)). A table the
rules cannot rate (a player with more than 16 games, INTERPRETATIONS 2.16; unrated players whose
ratings nothing determines) is skipped with a note naming the tournament and the player: one bad table
does not hold the whole list back, and its games change nobody's rating.

The list's statuses: established players are "active", provisional and unrated players "provisional";
001 has no rule for inactivity, so nobody is "inactive". The grade is the entry's ``title``.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator

from app.rating import olufsen
from app.rating.olufsen import calculator
from app.rating.olufsen.calculator_models import OlufsenPlayerIn, RecordedResultIO, StreakIO
from app.rating.system import (
    Change,
    Entry,
    Expectation,
    Point,
    RatingSystem,
    Replay,
    ReplayInput,
    Seed,
    StoredTournament,
    last_point_held,
)
from app.rating.tournament_replay import TournamentRules, replay_tournaments

__all__ = ["SYSTEM", "OlufsenListParams", "OlufsenSeed", "OlufsenSeedCounters", "olufsen_standings_on", "replay_olufsen"]


class OlufsenListParams(BaseModel):
    """The list's options (INTERPRETATIONS 2.15, 2.17); both off by default, as the text reads."""

    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)

    provisional_highest_grade: bool = Field(
        False,
        description="INTERPRETATIONS 2.15 option: a provisional player gets the highest grade whose UB he reached, "
        "not only the next grade up",
    )
    fesa: bool = Field(
        False,
        description="INTERPRETATIONS 2.17 option: the FESA additions (opponents below 400 count as 400; a win gives "
        "k(or - tr)/160 when that is larger)",
    )

    def engine(self) -> olufsen.Options:
        return olufsen.Options(provisional_highest_grade=self.provisional_highest_grade, fesa=self.fesa)


class OlufsenSeedCounters(BaseModel):
    model_config = ConfigDict(extra="forbid")

    rated_games: int | None = Field(
        None,
        ge=0,
        description="Rated games so far (001 (3)): 9-17 for a provisional player, 18 or more (default) for an established one",
    )
    pending_grade: str | None = Field(
        None, description="A 5 or 6 dan earned and awaiting the approval of Nihon Shogi Renmei (001 (12))"
    )
    streaks: list[StreakIO] = Field(
        default_factory=list,
        description="His consecutive games above a grade's LB and MP so far, toward a promotion (001 (12))",
    )
    prior_results: list[RecordedResultIO] = Field(
        default_factory=list,
        description="An unrated player's recorded results so far, each at the opponent's post-event rating (001 (6)); "
        "with the two dummies of a prior grade (001 (7)) marked dummy",
    )

    @field_validator("pending_grade")
    @classmethod
    def _pending_needs_approval(cls, value: str | None) -> str | None:
        if value is not None and not olufsen.grade_row(value).needs_approval:
            raise ValueError("only 5d and 6d wait for approval (001 (12))")
        return value


class OlufsenSeed(BaseModel):
    """A player's standing as the federation's records hold it: rating, category (001 (3)), rated games
    and grade. It replaces whatever the replay made of him up to its ``as_of`` day."""

    model_config = ConfigDict(extra="forbid")

    player_id: str
    rating: int = Field(ge=0, le=4000)
    status: Literal["established", "provisional", "unrated"] = Field(
        "established",
        description="001 (3). unrated: a newcomer with a prior grade (001 (7)), who starts from two dummy results "
        "at his grade's MP; give that MP as his rating and the grade as his title",
    )
    as_of: dt.date
    title: str | None = Field(None, description='His grade (001 (2)): "15k" ... "1k", "1d" ... "6d"')
    counters: OlufsenSeedCounters | None = Field(None, validate_default=True)

    @field_validator("title")
    @classmethod
    def _known_grade(cls, value: str | None) -> str | None:
        if value is not None:
            olufsen.grade_row(value)  # UnknownGrade is a ValueError: a 422 naming the grades
        return value

    @field_validator("counters")
    @classmethod
    def _games_fit_the_category(cls, counters: OlufsenSeedCounters | None, info: ValidationInfo) -> OlufsenSeedCounters | None:
        # Runs for a missing ``counters`` too (validate_default): a provisional seed needs its games.
        games = counters.rated_games if counters else None
        status = info.data.get("status")
        if status == "unrated" and not (counters and counters.prior_results):
            _check_prior_grade(info.data.get("title"), info.data.get("rating"), games)
        if status is not None and (error := olufsen.games_of_category_error(olufsen.Category(status), games)) is not None:
            raise ValueError(f"{error}: give counters.rated_games" if status == "provisional" else error)
        pending, title = (counters.pending_grade if counters else None), info.data.get("title")
        if pending is not None and title is not None and olufsen.grade_index(pending) <= olufsen.grade_index(title):
            raise ValueError(f"the pending grade {pending} is not above the grade held, {title}")
        if counters is not None and (counters.streaks or counters.prior_results) and status is not None:
            # The same checks as a state sent to the table calculator: the runs below the rating, the
            # recorded results of an unrated player matching his rated games (001 (3), (6), (12)).
            fields: dict[str, Any] = {
                "id": "seed",
                "rating": info.data.get("rating"),
                "rated_games": olufsen.ESTABLISHED_GAMES if games is None else games,
                "category": status,
                "prior_results": counters.prior_results,
                "grade": title,
                "pending_grade": pending,
                "streaks": counters.streaks,
            }
            state = OlufsenPlayerIn.model_construct(**fields)  # every field validated already
            errors = calculator.state_errors(0, state)
            if errors:
                raise ValueError("; ".join(f"{e.pointer.removeprefix('/players/0/')}: {e.detail}" for e in errors))
        return counters


def _check_prior_grade(title: str | None, rating: int | None, games: int | None) -> None:
    """001 (7): an unrated seed is a newcomer with a prior grade; his only prior results are the two
    dummies at the grade's MP, so his performance, and the rating the seed states, is that MP."""
    if title is None:
        raise ValueError("an unrated seed is a newcomer with a prior grade (001 (7)): give the grade as title")
    midpoint = olufsen.grade_row(title).midpoint
    if rating != midpoint:
        raise ValueError(
            f"a newcomer with the prior grade {title} starts at its MP, {midpoint} (001 (7)): give rating {midpoint}"
        )
    if games:
        raise ValueError("a newcomer with a prior grade has no rated games yet (001 (7))")


def replay_olufsen(given: ReplayInput[OlufsenListParams]) -> Replay:
    """Rate the stored tables in (end, start, id) order from the seeds (INTERPRETATIONS 2.1-2.17)."""
    rules = _OlufsenRules(given.params.engine())
    replayed = replay_tournaments(given, rules)
    # The list's lines are the players' states after every table replayed, as they were before the
    # replay loop was shared (the other lists read theirs on the list date).
    entries = [entry for player_id, state in replayed.states.items() if (entry := rules.entry(player_id, state)) is not None]
    notes = [f"rated {rules.tables} table(s)", *replayed.notes]
    if rules.handicap_games:
        notes.append(f"{rules.handicap_games} handicap game(s) not rated (INTERPRETATIONS 2.17)")
    return Replay(
        entries=entries, points=replayed.points, changes=replayed.changes, notes=notes, params={"seeds": len(given.seeds)}
    )


# A rating and grade hold from their point's date until the next table: steps, as published.
olufsen_standings_on = last_point_held


SYSTEM = RatingSystem[OlufsenListParams, OlufsenSeed](
    id="olufsen",
    params_model=OlufsenListParams,
    seed_model=OlufsenSeed,
    replay=replay_olufsen,
    standings_on=olufsen_standings_on,
    description="Olufsen shogi ratings and grades (text 001)",
    calculators=calculator.ENDPOINTS,
    change_details="category, score, performance_rating, bonus_applied, bonus_capped, change_before_bonus, "
    "bonus_threshold T = 20 + 3n and change_with_uncapped_bonus of (11), promotions, and games (each game's "
    "opponent, score, or, k, expected, d, the (10) factor, the (9) factor 18/n and its change), as POST "
    "/v1/calc/olufsen/tournament answers them",
    expected_score=lambda rating, opponent_rating, day, params: olufsen_expected_score(rating, opponent_rating),
)


def olufsen_expected_score(rating: float, opponent_rating: float) -> Expectation:
    """001 (1): 1/(1 + 10^((or − tr)/400)) (the FESA option's floor of 400 is on the opponent of a
    rated change, INTERPRETATIONS 2.17, not on an expectation between two ratings)."""
    return Expectation(olufsen.expected_score(rating, opponent_rating), "001 (1)")


# --- the pieces -----------------------------------------------------------------------------------


def list_status(category: olufsen.Category) -> str:
    """The list's filter: established players are active; provisional and unrated players provisional.
    001 has no inactivity rule, so nobody is listed inactive."""
    return "active" if category is olufsen.Category.ESTABLISHED else "provisional"


@dataclass(frozen=True)
class _Standing:
    """A player between tables: the rules' state and the date of his last game."""

    state: olufsen.PlayerState
    last_played: dt.date | None = None


class _OlufsenRules(TournamentRules[_Standing]):
    """One stored tournament is one table (001 (13)), rated by ``olufsen.rate_table``."""

    def __init__(self, options: olufsen.Options) -> None:
        self.options = options
        self.tables = 0
        self.handicap_games = 0

    def seeded(self, seed: Seed, state: _Standing | None) -> _Standing:
        last_played = state.last_played if state else None
        counters = seed.counters or {}
        recorded = tuple(
            olufsen.RecordedResult(float(r["opponent_rating"]), float(r["score"]), bool(r.get("dummy", False)))
            for r in counters.get("prior_results") or ()
        )
        if seed.status == "unrated" and not recorded:
            # 001 (7): rated as an unrated player from the two dummy results; no rating until he plays.
            return _Standing(olufsen.newcomer(seed.title), last_played)
        games = counters.get("rated_games")
        streaks = tuple(olufsen.Streak(**streak) for streak in counters.get("streaks") or ())
        return _Standing(
            olufsen.PlayerState(
                rating=round(seed.rating),  # whole: OlufsenSeed
                # An established player's count matters only as "18 or more" (001 (3), (9), (10)).
                rated_games=olufsen.ESTABLISHED_GAMES if games is None else int(games),
                category=olufsen.Category(seed.status),
                recorded_results=recorded,  # an unrated player's results so far (001 (6))
                grades=olufsen.GradeState(grade=seed.title, pending_grade=counters.get("pending_grade"), streaks=streaks),
            ),
            last_played,
        )

    def rate(self, tournament: StoredTournament, states: dict[str, _Standing]) -> list[Change]:
        games = []
        last_game: dict[str, dt.date] = {}
        for game in tournament.games:
            if game.handicap:  # INTERPRETATIONS 2.17: "Rules for rating handicap games are so far not included"
                self.handicap_games += 1
                continue
            games.append(olufsen.Game(game.black, game.white, game.black_score))
            for player_id in (game.black, game.white):
                last_game[player_id] = max(game.date, last_game.get(player_id, game.date))
        if not games:
            return []
        players = {player_id: states[player_id].state if player_id in states else olufsen.newcomer() for player_id in last_game}
        results = olufsen.rate_table(players, games, self.options)  # an OlufsenError is a ValueError
        self.tables += 1
        for result in results:
            earlier = states[result.id].last_played if result.id in states else None
            played = last_game[result.id]
            states[result.id] = _Standing(result.state, max(played, earlier or played))
        return [_change(tournament.id, result) for result in results]

    def point(self, player_id: str, day: dt.date, state: _Standing, tournament_ids: list[str]) -> Point | None:
        rules = state.state
        if rules.rating is None:
            return None  # an unrated newcomer from his seed: no rating until his first table (001 (7))
        return Point(
            player_id,
            day,
            float(rules.rating),
            None,
            rules.rated_games,
            list_status(rules.category),
            last_played=state.last_played,
            title=rules.grades.grade,
            counters=_counters(rules),
            tournament_ids=tournament_ids,
        )

    def entry(self, player_id: str, state: _Standing) -> Entry | None:
        rules = state.state
        if rules.rating is None:
            return None
        return Entry(
            player_id,
            float(rules.rating),
            None,
            rules.rated_games,
            state.last_played,
            list_status(rules.category),
            rules.grades.grade,
            _counters(rules),
        )

    def not_rated(self, tournament: StoredTournament, error: ValueError) -> str:
        return f"tournament {tournament.id!r} was not rated: {error}"


def _counters(state: olufsen.PlayerState) -> dict[str, object]:
    return {"rated_games": state.rated_games, "category": str(state.category), "pending_grade": state.grades.pending_grade}


def _change(tournament_id: str, result: olufsen.PlayerResult) -> Change:
    return Change(
        tournament_id,
        result.id,
        "olufsen",
        result.rating_before,
        result.rating_after,
        result.change,
        result.change_unrounded,
        result.games,
        str(result.category_after),
        title_after=result.grade_after,
        details={
            "category": str(result.category),  # the category the table was rated in (001 (3))
            "score": result.score,
            "performance_rating": result.performance_rating,
            "bonus_applied": result.bonus_applied,
            "bonus_capped": result.bonus_capped,
            # Every factor of (1), (9), (10) and (11), as POST /v1/calc/olufsen/tournament answers them.
            "change_before_bonus": result.change_before_bonus,
            "bonus_threshold": result.bonus_threshold,
            "change_with_uncapped_bonus": result.change_with_uncapped_bonus,
            "games": [figures.__dict__ for figures in result.game_figures],
            "pending_grade_after": result.pending_grade_after,
            "promotions": [
                {"grade": p.grade, "route": str(p.route), "pending_approval": p.pending_approval} for p in result.promotions
            ],
        },
    )
