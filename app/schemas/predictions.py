"""Who is favoured between two players, and what two players' games against each other were: the
expectations each list's own rule gives at the ratings it holds (app/services/predictions.py)."""

import datetime as dt
from typing import Literal

from pydantic import BaseModel, Field

from app.schemas.common import Result

A_BEATS_B_DESCRIPTION = (
    "P(a beats b): a's expected score against b (a draw counting half) by the list's own expected-score rule, "
    "named in `rule`: under WHR Bradley-Terry on the natural ratings, 1/(1 + 10^((Rb − Ra)/400)) (RIF 2021 #1-#7); "
    "under the historical Elo list 1/(1 + 2^((Rb − Ra)/120)) (RIF 1995 #7 before the list's switch to the 1997 "
    "rules, GA 1997 #8 from it); under the Rivne Go rating SE of an even game, 1/(e^(ΔR/a) + 1) with a = 205 − RA/20 "
    "of the lower-rated player (004 (1)-(4)); under the Estonian rating the expectation its table implies, ½ − d/32 "
    "for the lower-rated player with d the table's draw value at the difference (ERU 4.9); under the Olufsen "
    "shogi rating 1/(1 + 10^((Rb − Ra)/400)) (001 (1))"
)
RULE_DESCRIPTION = "The rule paragraph the expectation is computed by, as the code cites it (e.g. `RIF 2021 #1-#7`, `GA 1997 #8`)"


class PredictedPlayer(BaseModel):
    """One of the two players, with what the list holds of him."""

    player_id: str = Field(description="The player")
    rating: float = Field(description="His rating on the list (its current snapshot, as of its list date)")
    deviation: float | None = Field(
        description="His rating's deviation on the list's scale (WHR, the standard error of the fit); null for a "
        "system without deviations"
    )


class Prediction(BaseModel):
    """Who is favoured between two players on a list's current ratings."""

    list_id: str = Field(description="The rating list")
    system: str = Field(description="The list's rating system, whose expected-score rule is used")
    snapshot_id: int = Field(description="The list's current snapshot, whose ratings are used")
    list_date: dt.date = Field(description="The date the ratings are as of: the snapshot's list date")
    stale_since: dt.datetime | None = Field(
        description="The list's `stale_since` (see `GET /v1/rating-lists/{list_id}`): since then its snapshot does not "
        "show every change of its inputs; null when it does"
    )
    a: PredictedPlayer = Field(description="Player `a`, as the list holds him")
    b: PredictedPlayer = Field(description="Player `b`, as the list holds him")
    a_beats_b: float = Field(ge=0, le=1, description=A_BEATS_B_DESCRIPTION)
    rule: str = Field(description=RULE_DESCRIPTION)
    a_above_b: float | None = Field(
        ge=0,
        le=1,
        description="P(a stands above b on the list) for a list whose ratings carry a deviation (WHR): each rating "
        "taken as normal about the fitted value with its deviation as the standard error, the two independent (a "
        "normal approximation of the fit's posterior), Φ((Ra − Rb)/sqrt(σa² + σb²)) on the list's Elo scale. Null "
        "for the systems without deviations (the Elo lists, Rivne, ERU, Olufsen): their ratings are points, with no "
        "uncertainty to compare",
    )


class ListPrediction(BaseModel):
    """What one list that rated a game predicted of it, from both players' ratings in the list's current
    snapshot's history as of the day before the game."""

    list_id: str = Field(description="The rating list that rated the game")
    system: str = Field(description="The list's rating system")
    as_of: dt.date = Field(description="The day the ratings are read on: the day before the game")
    a_rating: float | None = Field(
        description="Player a's rating on the list as of `as_of` (his last history point on or before it); null "
        "when he had none yet (his first rated games on the list)"
    )
    b_rating: float | None = Field(description="Player b's rating on the list as of `as_of`; null when he had none yet")
    a_beats_b: float | None = Field(
        ge=0,
        le=1,
        description="P(a beats b) by the list's rule at those ratings (see `GET /v1/rating-lists/{list_id}/predict`); "
        "null when either player had no rating yet",
    )
    rule: str | None = Field(description=RULE_DESCRIPTION + "; null with `a_beats_b`")


class HeadToHeadGame(BaseModel):
    """One game between the two players, from a's side."""

    date: dt.date = Field(description="The game's date (its tournament's last day when it was given none)")
    tournament_id: str = Field(description="Its tournament")
    tournament_name: str = Field(description="The tournament's name")
    round: str | None = Field(description="The round, as the tournament labels it; null when it gave none")
    black: str = Field(description="The player who had black: a's or b's id")
    result: Literal["win", "loss", "draw"] = Field(description="The result from a's side")
    result_as_submitted: Result = Field(description="The result as submitted, from black's side (B, W or D)")
    played: bool = Field(description="false for a walkover or an unplayed game: listed, not scored, never rated")
    predictions: list[ListPrediction] = Field(
        description="For each list whose current snapshot rated the game's tournament for both players (by list id), "
        "what it predicted; empty for an unplayed game"
    )


class HeadToHeadScore(BaseModel):
    """The played games' score."""

    a: float = Field(ge=0, multiple_of=0.5, description="a's points: 1 a win, ½ a draw")
    b: float = Field(ge=0, multiple_of=0.5, description="b's points")
    games: int = Field(ge=0, description="The played games counted")


class HeadToHead(BaseModel):
    """Two players' games against each other, the score and what each list predicted of each game."""

    a: str = Field(description="Player a (the path's first player): results and predictions are from his side")
    b: str = Field(description="Player b, his opponent")
    a_name: str | None = Field(description="a's name as the lists show it; null when none is stored")
    b_name: str | None = Field(description="b's name as the lists show it; null when none is stored")
    score: HeadToHeadScore = Field(description="The score of their played games")
    games: list[HeadToHeadGame] = Field(description="Every stored game between them, oldest first")
