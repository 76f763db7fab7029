import datetime as dt
from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StringConstraints

from app.schemas.common import CountryCode, Date, Identifier, StrictModel, Text
from app.schemas.players import PlayerCreate, PlayerRead

Category = Literal["renju", "gomoku", "go", "shogi"]
Result = Literal["B", "W", "D"]
TournamentFormat = Literal["face-to-face", "supervised-online"]
Championship = Literal["world-championship-at", "team-world-championship"]


# A declared kyu/dan rank as at a tournament: 30k … 1k, 1d … 9d; either case in, lower case stored.
DeclaredRank = Annotated[
    str,
    StringConstraints(pattern=r"^([1-9]|[12][0-9]|30)[kKdD]$"),
    AfterValidator(str.lower),
]
TOURNAMENT_PLAYER_FIELDS = ("rank", "rating", "club", "egf_pin", "rating_origin")


class TournamentPlayerIn(PlayerCreate):
    """A player of the submission, with what was declared for him at this tournament (all optional)."""

    rank: DeclaredRank | None = Field(None, description="Declared rank at this tournament: 30k…1k, 1d…9d")
    rating: float | None = Field(
        None, ge=-3000, le=4000, description="Rating declared at this tournament (e.g. EGF GoR; may be negative for deep kyu)"
    )
    club: Text | None = Field(None, max_length=100, description="Club at this tournament")
    egf_pin: str | None = Field(None, pattern=r"^[0-9]{1,20}$", description="European Go Database PIN")
    rating_origin: Text | None = Field(
        None, max_length=40, description="Where the rating comes from, as the tournament program wrote it (e.g. 'EGF : 1114')"
    )


class GameIn(StrictModel):
    id: Identifier | None = Field(None, description="The submitter's game id, unique within the tournament")
    black: Identifier
    white: Identifier
    result: Result = Field(description="From black's side: B black won, W white won, D draw")
    round: Text | None = Field(None, max_length=20, description='Round label: "1", "2", … or "T" for a tie-break')
    played: bool = Field(True, description="false: a walkover or a game not played; stored, never rated")
    date: Date | None = Field(None, description="Defaults to the tournament's end date")
    handicap: int | None = Field(None, ge=0, le=100, description="Stones (go) or handicap level (shogi); 0 = even")
    board_size: int | None = Field(None, ge=1, le=100, description="Lines of the board: go 9 / 13 / 19, renju 15")


class TournamentIn(StrictModel):
    id: Identifier
    name: Text = Field(min_length=1, max_length=300)
    category: Category
    rule: Text | None = Field(None, max_length=100, description="Opening rule, e.g. RIF, Yamaguchi, Soosyrv-N")
    start: Date
    end: Date
    country: CountryCode | None = None
    city: Text | None = Field(None, max_length=200)
    time_control_minutes: int | None = Field(None, ge=1, le=10_000, description="Minutes per player")
    rated: bool = True
    format: TournamentFormat = "face-to-face"
    complete_records: bool = Field(True, description="Complete game records are in the RIF database (002 #9.3)")
    board_size: int | None = Field(None, ge=1, le=100, description="Default board size of the tournament's games")
    eru_calendar: bool = Field(False, description="In the calendar of the Estonian Renju Union (ERU 4.5, 4.9; default false)")
    referee_accepted: bool = Field(
        False, description="Accepted by an ERU referee: counts for the ranks 15k–10k (ERU 4.5; default false)"
    )
    international: bool = Field(
        False, description="An international competition: counts like the ERU calendar for ranks from 9k up (ERU 4.5; default false)"
    )
    championship: Championship | None = Field(
        None,
        description="The World Championship AT or the Team World Championship, the only places for 9 dan (ERU 4.5; default none)",
    )
    games_recorded: bool = Field(
        False, description="The games were recorded (moves written down), needed for ranks from 3k up (ERU 4.5; default false)"
    )
    byo_yomi: bool = Field(
        False,
        description="The time control is 60 minutes/30 own moves + byo-yomi 10 minutes/10 moves (time_control_minutes "
        "is then the base time); qualifies for 5–6 dan with at least 60 minutes (ERU 4.5; default false)",
    )
    tournament_class: Text | None = Field(None, max_length=10, description="EGD tournament class (h9 CL[]), e.g. A")
    handicap_rule: Text | None = Field(
        None, max_length=40, description="Go handicap rule as the file writes it (h9 HA[], e.g. h3: rank difference − 3)"
    )
    komi: float | None = Field(None, ge=-100, le=100, description="Go komi of even games")
    players: list[TournamentPlayerIn] = Field(
        default_factory=list,
        description="Created, or updated with the fields given; rank, rating, club and egf_pin are kept per tournament",
    )
    games: list[GameIn]


class GameRead(BaseModel):
    model_config = ConfigDict(from_attributes=True)

    id: str | None
    round: str | None
    black: str
    white: str
    result: Result
    played: bool
    date: dt.date
    handicap: int | None
    board_size: int | None


class TournamentPlayerRead(PlayerRead):
    rank: str | None = Field(None, description="Declared rank at this tournament")
    rating: float | None = Field(None, description="Rating declared at this tournament")
    club: str | None = None
    egf_pin: str | None = None
    rating_origin: str | None = None


class TournamentSummary(BaseModel):
    model_config = ConfigDict(from_attributes=True)

    id: str
    name: str
    category: Category
    rule: str | None
    start: Date
    end: Date
    country: str | None
    city: str | None
    time_control_minutes: int | None
    rated: bool
    format: TournamentFormat
    complete_records: bool
    board_size: int | None
    eru_calendar: bool = Field(description="In the ERU calendar")
    referee_accepted: bool = Field(description="Accepted by an ERU referee")
    international: bool = Field(description="An international competition")
    championship: Championship | None = Field(description="World Championship AT or Team World Championship")
    games_recorded: bool = Field(description="The games were recorded")
    byo_yomi: bool = Field(description="60 minutes + byo-yomi time control")
    tournament_class: str | None = None
    handicap_rule: str | None = None
    komi: float | None = None
    games_count: int = 0


class RatingChangeRead(BaseModel):
    list_id: str
    snapshot_id: int
    player_id: str
    system: str
    rating_before: float | None
    rating_after: float | None
    change: float | None
    change_unrounded: float | None
    games_counted: int
    status_after: str | None
    title_after: str | None = None
    details: dict | None = Field(None, description="The system's own figures (WHR: deviation_after, day_after; Elo 1995: R0)")


class TournamentRead(TournamentSummary):
    players: list[TournamentPlayerRead]
    games: list[GameRead]
    rating_changes: list[RatingChangeRead] = Field(
        default_factory=list, description="Each player's change under the current snapshot of every list that rates the tournament"
    )


class ListRating(BaseModel):
    """Whether one rating list of the tournament's category rates it."""

    id: str = Field(description="The rating list")
    rated: bool = Field(description="The list counts the tournament's played games")
    reason: str | None = Field(description="Why the list does not rate it, e.g. a time control below its minimum")
    job_id: int | None = Field(description="The recompute queued for the list (GET /v1/jobs/{job_id}); null when none was")


class TournamentSubmitted(TournamentRead):
    lists: list[ListRating] = Field(
        default_factory=list, description="For each rating list of the category: whether it rates the tournament"
    )
