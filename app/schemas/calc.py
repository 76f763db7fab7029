import datetime as dt
from typing import Literal

from pydantic import BaseModel, Field

from app.schemas.common import Identifier, StrictModel
from app.schemas.tournaments import Result

Score = Literal[0, 0.5, 1]


class EloGameIn(StrictModel):
    rating: float = Field(ge=0, le=4000, examples=[2300])
    opponent_rating: float = Field(ge=0, le=4000, examples=[2200])
    score: Score = Field(description="1 win, 0.5 draw, 0 loss")


class EloGameOut(BaseModel):
    expected: float = Field(description="We = 1/(1 + 2^(dR/120)), dR = opponent − player")
    change: int = Field(description="32(W − We) rounded half away from zero")
    change_unrounded: float


class AppendixRowOut(BaseModel):
    difference_from: int
    difference_to: int
    r1_wins: int = Field(description="Gain of the higher-rated R1 when he wins")
    r2_wins: int = Field(description="Gain of the lower-rated R2 when he wins")
    draw: int = Field(description="Gain of the lower-rated R2 in a draw")


class AppendixTable(BaseModel):
    note: str
    rows: list[AppendixRowOut]


class CalcGame(StrictModel):
    black: Identifier
    white: Identifier
    result: Result = Field(description="From black's side: B, W or D")
    played: bool = Field(True, description="false: not played, never rated")


class Rif1995PlayerIn(StrictModel):
    id: Identifier
    rating: int | None = Field(None, ge=0, le=4000, description="Start rating; none for a new player")
    status: Literal["official", "unofficial", "new"] = Field(
        description="official: on an official list; unofficial: rated by #8 but not yet official (#8.a carry-over); new: no rating"
    )


class Rif1995TournamentIn(StrictModel):
    end: dt.date | None = Field(None, description="The tournament's end date; before 1996 switches #8.c off (GA 1996 #3)")
    before_1996: bool | None = Field(None, description="Overrides the choice made from `end`")
    players: list[Rif1995PlayerIn]
    games: list[CalcGame]


class EloPlayerOut(BaseModel):
    """What a tournament did to one player under a RIF Elo rule set."""

    id: str
    rating_before: int | None
    rating_after: int | None
    change: int | None = Field(description="Rounded once (1995: F per tournament; 1997: ΣRc per event)")
    change_unrounded: float | None
    Et: float = Field(description="Points scored in the games that count")
    Ee: float | None = Field(description="Expected points")
    games_counted: int
    status_after: str


class Rif1995PlayerOut(EloPlayerOut):
    R0: int | None = Field(description="A new player's start rating (#8.b/#8.d)")
    R0_reason: str | None = Field(description="Why a new player did or did not get R0")


class ProvisionalRecordIO(StrictModel):
    games: int = Field(0, ge=0, description="Games against established opponents so far")
    wins: int = Field(0, ge=0)
    losses: int = Field(0, ge=0)
    points: float = Field(0.0, ge=0)
    opponent_rating_sum: float = Field(0.0, ge=0, description="Sum of those opponents' ratings at each game")


class Rif1997PlayerIn(StrictModel):
    id: Identifier
    rating: int | None = Field(None, ge=0, le=4000)
    status: Literal["established", "provisional"]
    record: ProvisionalRecordIO = Field(default_factory=ProvisionalRecordIO, description="Provisional players' running totals (GA 1997 #5, #7)")


class Rif1997TournamentIn(StrictModel):
    players: list[Rif1997PlayerIn]
    games: list[CalcGame]


class Rif1997PlayerOut(EloPlayerOut):
    record_after: ProvisionalRecordIO


class CalcResult1995(BaseModel):
    system: Literal["rif-1995"] = "rif-1995"
    before_1996: bool
    players: list[Rif1995PlayerOut]


class CalcResult1997(BaseModel):
    system: Literal["rif-1997"] = "rif-1997"
    players: list[Rif1997PlayerOut]


class WhrGame(StrictModel):
    black: Identifier
    white: Identifier
    result: Result
    date: dt.date


class WhrParamsIn(StrictModel):
    w2: float = Field(12.9, gt=0)
    virtual_games: int = Field(2, ge=0, le=100)
    virtual_rating: float = 1900.0


class WhrCalcIn(StrictModel):
    games: list[WhrGame] = Field(max_length=100_000)
    params: WhrParamsIn = Field(default_factory=WhrParamsIn)


class WhrPoint(BaseModel):
    date: dt.date
    rating: float
    deviation: float
    games: int


class WhrPlayerOut(BaseModel):
    id: str
    history: list[WhrPoint]


class WhrCalcOut(BaseModel):
    players: list[WhrPlayerOut]
