"""The coin as a stored list: each tournament moves its players' ratings by the coin's rule, from a
start rating; what it asks of a tournament is its own document, ``conditions.coin``."""

import datetime as dt
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from app.rating.system import Entry, Point, RatingSystem, Replay, ReplayInput, last_point_held
from app.schemas.common import Shown, StrictModel
from tests.systems.coin import calculator, rules


class CoinParams(BaseModel):
    model_config = ConfigDict(extra="forbid")

    start: float = Field(1500.0, description="Every player's first rating")
    step: float = Field(10.0, gt=0, description="Points a whole toss moves a rating")


class CoinConditions(StrictModel):
    """What the coin asks of a tournament."""

    tossed_in_public: bool = Field(False, description="The tosses were made in public (the list rates only those)")
    coin: Annotated[Literal["euro", "dollar"] | None, Shown("Coin")] = Field(None, description="The coin tossed")


def replay_coin(given: ReplayInput[CoinParams]) -> Replay:
    ratings: dict[str, float] = {}
    games: dict[str, int] = {}
    last: dict[str, dt.date] = {}
    points: list[Point] = []
    for tournament in given.tournaments:
        scores: dict[str, list[float]] = {}
        for game in tournament.games:
            scores.setdefault(game.black, []).append(game.black_score)
            scores.setdefault(game.white, []).append(1 - game.black_score)
            last[game.black] = last[game.white] = game.date
        for player, played in sorted(scores.items()):
            ratings[player] = ratings.get(player, given.params.start) + rules.change(played, given.params.step)
            games[player] = games.get(player, 0) + len(played)
            points.append(
                Point(
                    player,
                    tournament.end,
                    ratings[player],
                    None,
                    games[player],
                    "active",
                    last[player],
                    tournament_ids=[tournament.id],
                )
            )
    entries = [Entry(player, rating, None, games[player], last[player], "active") for player, rating in ratings.items()]
    return Replay(entries=entries, points=points, notes=[f"{len(given.tournaments)} tournaments tossed"])


SYSTEM = RatingSystem[CoinParams, BaseModel](
    id="coin",
    params_model=CoinParams,
    seed_model=None,
    replay=replay_coin,
    standings_on=last_point_held,
    description="Coin tosses (a throwaway system of the tests)",
    calculators=calculator.ENDPOINTS,
    conditions_model=CoinConditions,
    change_details="none: a toss has no figures",
)
