"""The RIF Elo calculators' requests and answers (``POST /v1/calc/rif-elo/game``, ``GET
/v1/calc/rif-elo/table``, ``POST /v1/calc/rif-1995/tournament``, ``POST /v1/calc/rif-1997/tournament``):
the public contract, class names as the OpenAPI document's schema names."""

from typing import Literal

from pydantic import BaseModel, Field

from app.rating.calculators import MAX_CALC_GAMES, MAX_CALC_PLAYERS, Score
from app.schemas.common import Date, Identifier, Result, StrictModel


class EloGameIn(StrictModel):
    """One game between two rated players."""

    rating: float = Field(ge=0, le=4000, description="The player's rating before the game", examples=[2300])
    opponent_rating: float = Field(ge=0, le=4000, description="The opponent's rating before the game", examples=[2200])
    score: Score = Field(description="The player's score: 1 win, 0.5 draw, 0 loss", examples=[1.0])


class EloGameOut(BaseModel):
    """The player's expected score and rating change; the opponent's change is its negative."""

    expected: float = Field(description="We = 1/(1 + 2^(dR/120)), dR = opponent − player")
    change: int = Field(description="32(W − We) rounded half away from zero")
    change_unrounded: float = Field(description="32(W − We) before rounding")


class AppendixRowOut(BaseModel):
    """One band of rating difference of the appendix: what one game changes within it."""

    difference_from: int = Field(description="Smallest rating difference R1 − R2 of this row")
    difference_to: int = Field(description="Largest rating difference R1 − R2 of this row")
    r1_wins: int = Field(description="Gain of the higher-rated R1 when he wins")
    r2_wins: int = Field(description="Gain of the lower-rated R2 when he wins")
    draw: int = Field(description="Gain of the lower-rated R2 in a draw")


class AppendixTable(BaseModel):
    """The GA 1995 appendix: rating change per game for each band of rating difference."""

    note: str = Field(description="How the table was obtained")
    rows: list[AppendixRowOut] = Field(description="One row per band of rating difference, ascending")


class CalcGame(StrictModel):
    """One game of a calculated tournament, between two ids of the request's `players`."""

    black: Identifier = Field(description="Id of the player with black", examples=["2487"])
    white: Identifier = Field(description="Id of the player with white", examples=["2789"])
    result: Result = Field(description="From black's side: B, W or D")
    played: bool = Field(default=True, description="false: not played, never rated")


class Rif1995PlayerIn(StrictModel):
    """A player of the tournament and his standing before it. `rating` is required for `official` and
    `unofficial` players and must be absent (null) for `new` ones (#8 computes it)."""

    id: Identifier = Field(description="The player's id, as used in `games`", examples=["2487"])
    rating: int | None = Field(default=None, ge=0, le=4000, description="Start rating; none for a new player", examples=[2210])
    status: Literal["official", "unofficial", "new"] = Field(
        description="official: on an official list; unofficial: rated by #8 but not yet official (#8.a carry-over); "
        "new: no rating"
    )


class Rif1995TournamentIn(StrictModel):
    """One tournament under GA 1995/1996. Give `end` or `before_1996` (at least one, not null): the
    choice decides whether #8.c applies; without either the answer is 422 pointing at `/end`.

    (Not said as a schema `anyOf`: client generators turn an `anyOf` of `required` lists into two
    partial models and lose the other fields.)"""

    end: Date | None = Field(
        default=None, description="The tournament's end date; before 1996 switches #8.c off (GA 1996 #3)", examples=["1995-08-06"]
    )
    before_1996: bool | None = Field(default=None, description="Overrides the choice made from `end`")
    players: list[Rif1995PlayerIn] = Field(max_length=MAX_CALC_PLAYERS, description="Every player of `games`")
    games: list[CalcGame] = Field(max_length=MAX_CALC_GAMES, description="The tournament's games")


class EloPlayerOut(BaseModel):
    """What a tournament did to one player under a RIF Elo rule set."""

    id: str = Field(description="The player's id from the request")
    rating_before: int | None = Field(description="Rating before the tournament; null for a new player")
    rating_after: int | None = Field(description="Rating after it; null while a new player has none")
    change: int | None = Field(description="Rounded once (1995: F per tournament; 1997: ΣRc per event)")
    change_unrounded: float | None = Field(description="The change before rounding")
    Et: float = Field(description="Points scored in the games that count")
    Ee: float | None = Field(description="Expected points")
    games_counted: int = Field(description="Games that entered the calculation (played, against rated opponents)")
    status_after: str = Field(description="The player's status after the tournament")


class Rif1995PlayerOut(EloPlayerOut):
    """What the tournament did to one player under the 1995 rules, with a new player's start rating."""

    R0: int | None = Field(description="A new player's start rating (#8.b/#8.d)")
    R0_reason: str | None = Field(description="Why a new player did or did not get R0")


class ProvisionalRecordIO(StrictModel):
    """A provisional player's running totals over his games against established opponents."""

    games: int = Field(default=0, ge=0, le=1_000_000, description="Games against established opponents so far")
    wins: int = Field(default=0, ge=0, le=1_000_000, description="Of those games, won")
    losses: int = Field(default=0, ge=0, le=1_000_000, description="Of those games, lost")
    points: float = Field(default=0.0, ge=0, le=1_000_000, description="Points scored in them: wins + draws/2, exactly")
    opponent_rating_sum: float = Field(
        default=0.0, ge=0, le=4_000_000_000, description="Sum of those opponents' ratings at each game"
    )


class Rif1997PlayerIn(StrictModel):
    """A player and his standing before the event. An established player needs `rating`."""

    id: Identifier = Field(description="The player's id, as used in `games`", examples=["2487"])
    rating: int | None = Field(default=None, ge=0, le=4000, description="Current rating (a provisional player's Rp, if any)")
    status: Literal["established", "provisional"] = Field(description="established: rated by #8; provisional: by #5–#7")
    record: ProvisionalRecordIO = Field(
        default_factory=ProvisionalRecordIO, description="Provisional players' running totals (GA 1997 #5, #7)"
    )


class Rif1997TournamentIn(StrictModel):
    """One event under GA 1997."""

    players: list[Rif1997PlayerIn] = Field(max_length=MAX_CALC_PLAYERS, description="Every player of `games`")
    games: list[CalcGame] = Field(max_length=MAX_CALC_GAMES, description="The event's games")


class Rif1997PlayerOut(EloPlayerOut):
    """What the event did to one player under the 1997 rules, with his running record."""

    record_after: ProvisionalRecordIO = Field(description="The running totals after the event")


class CalcResult1995(BaseModel):
    """The tournament rated under the 1995/1996 rules."""

    system: Literal["rif-1995"] = Field(default="rif-1995", description="The rule system: RIF Elo of 1995/1996")
    before_1996: bool = Field(description="Whether the tournament was treated as played before 1996")
    players: list[Rif1995PlayerOut] = Field(description="One entry per request player, in request order")


class CalcResult1997(BaseModel):
    """The event rated under the 1997 rules."""

    system: Literal["rif-1997"] = Field(default="rif-1997", description="The rule system: RIF Elo of 1997")
    players: list[Rif1997PlayerOut] = Field(description="One entry per request player, in request order")
