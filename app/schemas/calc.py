import datetime as dt
from typing import Annotated, Literal

from pydantic import BaseModel, Field

from app.schemas.common import Date, Identifier, StrictModel
from app.schemas.tournaments import Result

# 0, 0.5 or 1, said as bounds and a step: every client generator reads `number` with minimum, maximum
# and multipleOf, while an enum of floats (or one mixing 0 and 0.5) is dropped by some of them.
Score = Annotated[float, Field(ge=0, le=1, multiple_of=0.5)]
MAX_CALC_PLAYERS = 10_000
MAX_CALC_GAMES = 100_000

# Work an anonymous caller may ask for in one request (the endpoints are open): a tournament of
# a thousand players and ten thousand games is far beyond any real one, and rates in about a second.
MAX_CALC_PLAYERS = 1_000
MAX_CALC_GAMES = 10_000
MAX_WHR_CALC_GAMES = 20_000


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
    played: bool = Field(True, description="false: not played, never rated")


class Rif1995PlayerIn(StrictModel):
    """A player of the tournament and his standing before it. `rating` is required for `official` and
    `unofficial` players and must be absent (null) for `new` ones (#8 computes it)."""

    id: Identifier = Field(description="The player's id, as used in `games`", examples=["2487"])
    rating: int | None = Field(None, ge=0, le=4000, description="Start rating; none for a new player", examples=[2210])
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
        None, description="The tournament's end date; before 1996 switches #8.c off (GA 1996 #3)", examples=["1995-08-06"]
    )
    before_1996: bool | None = Field(None, description="Overrides the choice made from `end`")
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

    games: int = Field(0, ge=0, le=1_000_000, description="Games against established opponents so far")
    wins: int = Field(0, ge=0, le=1_000_000, description="Of those games, won")
    losses: int = Field(0, ge=0, le=1_000_000, description="Of those games, lost")
    points: float = Field(0.0, ge=0, le=1_000_000, description="Points scored in them (win 1, draw 0.5)")
    opponent_rating_sum: float = Field(0.0, ge=0, le=4_000_000_000, description="Sum of those opponents' ratings at each game")


class Rif1997PlayerIn(StrictModel):
    """A player and his standing before the event. An established player needs `rating`."""

    id: Identifier = Field(description="The player's id, as used in `games`", examples=["2487"])
    rating: int | None = Field(None, ge=0, le=4000, description="Current rating (a provisional player's Rp, if any)")
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

    system: Literal["rif-1995"] = Field("rif-1995", description="The rule system: RIF Elo of 1995/1996")
    before_1996: bool = Field(description="Whether the tournament was treated as played before 1996")
    players: list[Rif1995PlayerOut] = Field(description="One entry per request player, in request order")


class CalcResult1997(BaseModel):
    """The event rated under the 1997 rules."""

    system: Literal["rif-1997"] = Field("rif-1997", description="The rule system: RIF Elo of 1997")
    players: list[Rif1997PlayerOut] = Field(description="One entry per request player, in request order")


class WhrGame(StrictModel):
    """One rated game; players are named by id and need no other declaration."""

    black: Identifier = Field(description="Id of the player with black", examples=["2487"])
    white: Identifier = Field(description="Id of the player with white", examples=["2789"])
    result: Result = Field(description="From black's side: B, W or D")
    date: Date = Field(description="The day the game counts on (a tournament's last day)", examples=["2017-10-22"])


class WhrParamsIn(StrictModel):
    """WHR parameters (RIF 2021 #8); the defaults are the rule text's."""

    w2: float = Field(12.9, gt=0, le=10_000, description="Rating variance per day, Elo² (rating drift)")
    virtual_games: int = Field(2, ge=0, le=100, description="Virtual draws on a player's first day")
    virtual_rating: float = Field(1900.0, ge=0, le=4000, description="Rating of the virtual opponent")


class WhrCalcIn(StrictModel):
    """A whole history of games, rated from nothing but itself."""

    games: list[WhrGame] = Field(max_length=MAX_WHR_CALC_GAMES, description="The games, in any order")
    params: WhrParamsIn = Field(default_factory=WhrParamsIn, description="Parameters; the rule text's when omitted")


class WhrPoint(BaseModel):
    """A player's rating on one day he played."""

    date: dt.date = Field(description="The day")
    rating: float = Field(description="Rating at the optimum, Elo scale")
    deviation: float = Field(description="Its standard deviation, Elo")
    games: int = Field(description="Games on that day")


class WhrPlayerOut(BaseModel):
    """One player's ratings over the days he played."""

    id: str = Field(description="The player's id from the games")
    history: list[WhrPoint] = Field(description="One point per day played, in date order")


class WhrCalcOut(BaseModel):
    """Every player's rating history, fitted to all the games at once."""

    players: list[WhrPlayerOut] = Field(description="Every player of the games")
