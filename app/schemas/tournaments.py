import datetime as dt
from collections import Counter
from collections.abc import Mapping
from functools import cached_property
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StringConstraints,
    ValidationInfo,
    create_model,
    field_validator,
    model_validator,
)

from app.rating.rounding import change_as_shown
from app.schemas.common import (
    ID_RULE,
    CountryCode,
    Date,
    DisplayText,
    Identifier,
    ReadModel,
    Result,
    Shown,
    StrictModel,
    json_kinds_checked_on,
    read_of,
)
from app.schemas.conditions import (
    CONDITIONS_DESCRIPTION,
    ReadConditions,
    SubmittedConditions,
    flat_condition_fields,
    flat_condition_systems,
    flat_values,
    whole_documents,
    with_flat_conditions,
)
from app.schemas.opening_rules import CATEGORIES_WITH_KNOWN_RULES, KNOWN_RULES, canonical_rule
from app.schemas.players import PlayerCreate, PlayerRead, QueuedPlayerReview
from app.schemas.systems import change_details, described, rule_sets

Category = Literal["renju", "gomoku", "go", "shogi"]
TournamentFormat = Literal["face-to-face", "supervised-online"]


# A declared kyu/dan rank as at a tournament: 30k … 1k, 1d … 9d; either case in, lower case stored.
DeclaredRank = Annotated[
    str,
    StringConstraints(pattern=r"^([1-9]|[12][0-9]|30)[kK]$|^[1-9][dD]$"),
    AfterValidator(str.lower),
]
TOURNAMENT_PLAYER_FIELDS = ("rank", "rating", "club", "egf_pin", "rating_origin")


class TournamentPlayerIn(PlayerCreate):
    """A player of the submission, with what was declared for him at this tournament (all optional)."""

    rank: DeclaredRank | None = Field(None, description="Declared rank at this tournament: 30k…1k, 1d…9d")
    rating: float | None = Field(
        None, ge=-3000, le=4000, description="Rating declared at this tournament (e.g. EGF GoR; may be negative for deep kyu)"
    )
    club: DisplayText | None = Field(None, max_length=100, description="Club at this tournament")
    egf_pin: str | None = Field(None, pattern=r"^[0-9]{1,20}$", description="European Go Database PIN")
    rating_origin: DisplayText | None = Field(
        None, max_length=40, description="Where the rating comes from, as the tournament program wrote it (e.g. 'EGF : 1114')"
    )


class GameIn(StrictModel):
    """One game of the submission, between two players of `players` or stored already."""

    id: Identifier | None = Field(None, description="The submitter's game id, unique within the tournament")
    black: Identifier = Field(description="Id of the player who had black (sente in shogi)", examples=["503"])
    white: Identifier = Field(description="Id of the player who had white; not the same as `black`", examples=["3578"])
    result: Result = Field(description="From black's side: B black won, W white won, D draw")
    round: DisplayText | None = Field(None, max_length=20, description='Round label: "1", "2", … or "T" for a tie-break')
    played: bool = Field(True, description="false: a walkover or a game not played; stored, never rated")
    date: Date | None = Field(
        None, description="The day it was played, within the tournament; defaults to the tournament's end date"
    )
    handicap: int | None = Field(
        None,
        ge=0,
        le=100,
        description="Stones (go, 0–20) or handicap level (shogi, 0–10); 0 or none = even; renju and gomoku none",
    )
    board_size: int | None = Field(
        None,
        ge=1,
        le=100,
        description="Lines of the board: go 9 / 13 / 19, renju 15, gomoku 15 or 19, shogi 9; none: the tournament's",
    )

    # The JSON-kind check where it can refuse a value: a large import validates a million games.
    _json_types_as_declared = json_kinds_checked_on("played", "handicap", "board_size")


class TieBreak(StrictModel):
    """One tie-break value of a player's standing, under the tournament's own name for it."""

    name: DisplayText = Field(
        min_length=1, max_length=20, description="The tie-break's name as the tournament gives it, e.g. MMS, SOS, SOSOS"
    )
    value: float = Field(ge=-1_000_000, le=1_000_000, description="The player's value of it, as the tournament computed it")


class StandingIn(StrictModel):
    """A player's place in the tournament as the tournament decided it, with its tie-break values."""

    player: Identifier = Field(description="Id of a player of the tournament (in `players` or in a game)", examples=["503"])
    place: int = Field(ge=1, le=100_000, description="His place, from 1; players tied on every criterion share one")
    tie_breaks: list[TieBreak] = Field(
        default_factory=list,
        max_length=20,
        description="The values that decided his place, in the tournament's order; the same names in the same order "
        "for every player of `standings`",
    )


class TournamentDetails(StrictModel):
    """What a tournament says of itself beside its players, games and standings. Each field is
    declared once, here: the submission takes it (``TournamentIn``), the stored table keeps it in a
    column of its name (app/models.py ``Tournament``, added by a migration), every read gives it
    back (``TournamentSummary``, derived from these declarations), the revisions keep it, and the
    website's tournament page shows the fields marked ``Shown``, under their label."""

    id: Identifier = Field(
        description=f"The submitter's id for the tournament ({ID_RULE}: the rule of every id, in bodies and paths), e.g. renju.net's",
        examples=["T0017"],
    )
    name: DisplayText = Field(min_length=1, max_length=300, description="The tournament's name")
    category: Annotated[Category, Shown("Category")] = Field(
        description="The game: renju, gomoku, go or shogi; each rating list rates one"
    )
    rule: Annotated[DisplayText | None, Shown("Rule")] = Field(
        None,
        max_length=100,
        description="Opening rule. Renju and gomoku: one of "
        + ", ".join(KNOWN_RULES)
        + " (any case or spacing, and the spellings files use, e.g. `rif`, `Soosõrv 8`, `Gomoku free`; -N is the "
        "variant's number, e.g. Soosyrv-8), stored under that name; any other is a 422. Go and shogi: free text",
    )
    start: Date = Field(description="First day")
    end: Date = Field(description="Last day, not before `start`; the day its games count on unless they carry their own date")
    country: Annotated[CountryCode | None, Shown("Country")] = Field(
        None, description="Country it was held in, 2 or 3 capital letters (e.g. CHN, EST)"
    )
    city: Annotated[DisplayText | None, Shown("City")] = Field(None, max_length=200, description="City it was held in")
    venue: Annotated[DisplayText | None, Shown("Venue")] = Field(
        None, max_length=200, description="The hall or club it was played in, e.g. Tallinn Chess Club"
    )
    time_control_minutes: Annotated[int | None, Shown("Time control (minutes)")] = Field(
        None, ge=1, le=10_000, description="Minutes per player on the clock; the WHR lists rate 30 or more (RIF 2021 #9)"
    )
    rated: bool = Field(True, description="false: stored but rated by no list (default true)")
    format: Annotated[TournamentFormat, Shown("Format")] = Field(
        "face-to-face", description="Played face to face (the default) or online under supervision (RIF 2021 #9)"
    )
    complete_records: bool = Field(True, description="Complete game records are in the RIF database (002 #9.3)")
    board_size: Annotated[int | None, Shown("Board size")] = Field(
        None, ge=1, le=100, description="Default board size of the tournament's games"
    )
    tournament_class: Annotated[DisplayText | None, Shown("Class")] = Field(
        None, max_length=10, description="EGD tournament class (h9 CL[]), e.g. A"
    )
    handicap_rule: Annotated[DisplayText | None, Shown("Handicap rule")] = Field(
        None, max_length=40, description="Go handicap rule as the file writes it (h9 HA[], e.g. h3: rank difference − 3)"
    )
    komi: Annotated[float | None, Shown("Komi")] = Field(None, ge=-100, le=100, description="Go komi of even games")

    @field_validator("rule")
    @classmethod
    def _known_opening_rule(cls, rule: str | None, info: ValidationInfo) -> str | None:
        """Renju and gomoku rules by their stored names (app.schemas.opening_rules): the lists' eligibility reads them."""
        if rule is None or info.data.get("category") not in CATEGORIES_WITH_KNOWN_RULES:
            return rule
        return canonical_rule(rule)


# The fields a tournament's row stores of it, by the names of their columns.
STORED_FIELDS = (*(name for name in TournamentDetails.model_fields if name != "id"), "conditions")

# The fields of some systems' conditions (app.schemas.conditions), taken at the top level too.
if TYPE_CHECKING:
    _WithFlatConditions = TournamentDetails
else:
    _WithFlatConditions = create_model("_WithFlatConditions", __base__=TournamentDetails, **flat_condition_fields())
FLAT_CONDITIONS = tuple(flat_condition_systems())


# What a tournament's read answers beyond what a submission gives: taken back and ignored, so that
# the body of a read sent back with PUT is a correction (issue 44 item 3), each as the read says it.
READ_ONLY_ECHOES = {
    "games_count": "the number of stored games",
    "withdrawn_at": "when it was withdrawn (DELETE withdraws it, POST …/restore restores it)",
    "withdrawn_reason": "why it was withdrawn",
    "rating_changes": "what each list's current snapshot did to its players",
    "stale_lists": "the lists that may show it as it was",
}


def _read_only_echoes(schema: dict[str, Any]) -> None:
    schema.setdefault("properties", {}).update(
        {
            name: {"readOnly": True, "description": f"What a read answers ({what}): taken back and ignored"}
            for name, what in READ_ONLY_ECHOES.items()
        }
    )


class TournamentIn(_WithFlatConditions):
    """A whole tournament as a tournament program submits it: its fields, its players and its games.

    Which rating lists rate it is decided by their eligibility rules from these fields (the category;
    `rated`; for the WHR lists also the time control, the rule, the format and complete records:
    RIF 2021 #9, INTERPRETATIONS 3.7); a field left out never excludes a tournament (INTERPRETATIONS 6.1).
    What a system asks beyond these is in `conditions`, under the system's id; the Go fields matter to
    the Go lists."""

    model_config = ConfigDict(json_schema_extra=_read_only_echoes)

    conditions: SubmittedConditions = Field(
        default_factory=dict,
        description=CONDITIONS_DESCRIPTION + "; a document or a field left out is the system's default (docs/decisions.md 112)",
    )
    players: list[TournamentPlayerIn] = Field(
        default_factory=list,
        description="Created, or updated with the fields given; rank, rating, club and egf_pin are kept per tournament",
    )
    games: list[GameIn] = Field(description="Every game, in the order they were played; at most 20,000 by default (413 beyond)")
    standings: list[StandingIn] = Field(
        default_factory=list,
        max_length=20_000,
        description="The tournament's own standings, if it gives them: each player of the tournament at most once, "
        "with his place and tie-break values (e.g. MMS, SOS, SOSOS for Go); stored as given, never computed. "
        "Empty (the default): the website places players by score",
    )

    @cached_property
    def played_games(self) -> Counter[tuple[Any, ...]]:
        """Its played games as a repeat check compares them (app.services.tournaments): day (the
        tournament's end when the game gives none, as stored), black, white, result. Counted once: an
        import's later tournaments are each compared with the earlier ones of the same days."""
        return Counter((game.date or self.end, game.black, game.white, game.result) for game in self.games if game.played)

    @model_validator(mode="before")
    @classmethod
    def _without_read_only_echoes(cls, body: Any) -> Any:
        if isinstance(body, Mapping) and not READ_ONLY_ECHOES.keys().isdisjoint(body):
            return {name: value for name, value in body.items() if name not in READ_ONLY_ECHOES}
        return body

    @model_validator(mode="after")
    def _flat_conditions_in_their_documents(self) -> "TournamentIn":
        """A condition given at the top level joins its system's document, where it is stored; the
        top-level fields then read as the documents say."""
        given = {name: getattr(self, name) for name in FLAT_CONDITIONS if name in self.model_fields_set}
        if given:
            self.conditions = with_flat_conditions(self.conditions, given)
        for name, value in flat_values(whole_documents(self.conditions)).items():
            self.__dict__[name] = value
        return self


class GameRead(BaseModel):
    """A stored game."""

    model_config = ConfigDict(from_attributes=True)

    id: str | None = Field(description="The submitter's game id; null when none was given")
    round: str | None = Field(description="Round label as submitted")
    black: str = Field(description="Id of the player who had black")
    white: str = Field(description="Id of the player who had white")
    result: Result = Field(description="From black's side: B black won, W white won, D draw")
    played: bool = Field(description="false: a walkover or a game not played, never rated")
    date: dt.date = Field(description="The day it counts on: its own date, else the tournament's end date")
    handicap: int | None = Field(description="Stones (go) or handicap level (shogi); null or 0: an even game")
    board_size: int | None = Field(description="Lines of the board; null: the tournament's (or the game's usual size)")


class TournamentPlayerRead(PlayerRead):
    """A player of the tournament, with what was declared for him there (null when nothing was)."""

    rank: str | None = Field(None, description="Declared rank at this tournament")
    rating: float | None = Field(None, description="Rating declared at this tournament")
    club: str | None = Field(None, description="Club at this tournament")
    egf_pin: str | None = Field(None, description="European Go Database PIN")
    rating_origin: str | None = Field(
        None, description="Where the declared rating comes from, as the tournament program wrote it"
    )


class TieBreakRead(BaseModel):
    """One tie-break value of a stored standing."""

    name: str = Field(description="The tie-break's name as the tournament gives it, e.g. MMS")
    value: float = Field(description="The player's value of it")


class StandingRead(BaseModel):
    """A player's place in the tournament as the tournament decided it."""

    player: str = Field(description="Id of the player")
    place: int = Field(description="His place, from 1; tied players share one")
    tie_breaks: list[TieBreakRead] = Field(description="The values that decided his place, in the tournament's order")


# The read of what a tournament says of itself, derived from its declarations (``read_of``).
if TYPE_CHECKING:
    _StoredDetails = ReadModel
else:
    _StoredDetails = read_of(_WithFlatConditions, "_StoredDetails")


class TournamentSummary(_StoredDetails):
    """A stored tournament's fields, without its players and games; defaults filled in."""

    conditions: ReadConditions = Field(description=CONDITIONS_DESCRIPTION + "; each system's whole, defaults filled in")
    games_count: int = Field(0, description="Number of stored games, played or not")
    withdrawn_at: dt.datetime | None = Field(
        None,
        description="When it was withdrawn (`DELETE /v1/tournaments/{tournament_id}`): no list rates it; null when it counts",
    )
    withdrawn_reason: str | None = Field(None, description="Why it was withdrawn, as the withdrawing key gave it")

    @model_validator(mode="before")
    @classmethod
    def _conditions_whole(cls, stored: Any) -> Any:
        """Every system's document whole, and the fields taken flat as the documents say, from a
        stored row (its attributes) or from a read's values."""
        if isinstance(stored, Mapping):
            values = dict(stored)
        else:
            values = {name: getattr(stored, name) for name in cls.model_fields if hasattr(stored, name)}
        values["conditions"] = whole_documents(values.get("conditions"))
        return {**values, **flat_values(values["conditions"])}


# What `change` and `change_unrounded` of a rating change say, wherever one is read (decision 145).
CHANGE_AS_SHOWN = (
    "The change as the list shows it, a whole number: the rules' own where they round (Elo, Olufsen: rating_after − "
    "rating_before); under WHR and Rivne, whose ratings are unrounded, rating_after rounded minus rating_before rounded "
    "(half away from zero), so that the rounded ratings and the change add up; null when the player has no rating after"
)
CHANGE_UNROUNDED = "rating_after − rating_before before any rounding, as the rules compute it"


def change_as_shown_of(model: Any) -> None:
    """Sets a read model's ``change`` to the change as shown, from its ``change_unrounded`` (or its
    change) and its ratings before and after (``app.rating.rounding.change_as_shown``)."""
    unrounded = model.change_unrounded if model.change_unrounded is not None else model.change
    model.change = change_as_shown(model.rating_before, model.rating_after, unrounded if model.change is not None else None)
    if model.change is not None and model.change_unrounded is None:
        model.change_unrounded = unrounded


class RatingChangeRead(BaseModel):
    """What one rating list's current snapshot did to one player in this tournament."""

    @model_validator(mode="after")
    def _change_as_shown(self) -> "RatingChangeRead":
        change_as_shown_of(self)
        return self

    list_id: str = Field(description="The rating list")
    snapshot_id: int = Field(description="The list's snapshot that computed the change")
    player_id: str = Field(description="The player")
    system: str = Field(description="The rule set that rated the tournament", json_schema_extra=described(rule_sets))
    rating_before: float | None = Field(
        description="Rating before the tournament (WHR: on his previous playing day, or the start rating for a newcomer); "
        "null when he had none"
    )
    rating_after: float | None = Field(description="Rating after it; null when he still has none")
    change: float | None = Field(description=CHANGE_AS_SHOWN)
    change_unrounded: float | None = Field(description=CHANGE_UNROUNDED)
    games_counted: int = Field(description="The player's games of the tournament that the system counted")
    status_after: str | None = Field(description="The player's status after it, in the system's terms (e.g. active, official)")
    title_after: str | None = Field(None, description="Grade or rank after it, for systems that award them")
    details: dict[str, Any] | None = Field(
        None, description="The system's own figures", json_schema_extra=described(change_details)
    )


class StaleList(BaseModel):
    """A rating list that rates the tournament (or shows its changes) and is stale: its current snapshot
    may not show the tournament, or the players' ratings before it, as they are now."""

    list_id: str = Field(description="The rating list")
    stale_since: dt.datetime = Field(
        description="The list's `stale_since` (see `GET /v1/rating-lists/{list_id}`): the first change of its inputs "
        "its current snapshot does not show (RFC 3339, UTC)"
    )
    stale_reason: str = Field(description="What changed then, in a few words (e.g. `tournament T0017 corrected`)")


class TournamentRead(TournamentSummary):
    """A stored tournament with its players, games and rating changes."""

    players: list[TournamentPlayerRead] = Field(description="Every player of its games or declared for it, by id")
    games: list[GameRead] = Field(description="Its games, in the order they were submitted")
    standings: list[StandingRead] = Field(
        default_factory=list,
        description="The tournament's own standings as submitted, by place (equal places in the order given); "
        "empty when it gave none",
    )
    rating_changes: list[RatingChangeRead] = Field(
        default_factory=list,
        description="Each player's change under the current snapshot of every list that rates the tournament",
    )
    stale_lists: list[StaleList] = Field(
        default_factory=list,
        description="Each list that rates the tournament as it is now, or whose current snapshot has changes of it "
        "above, and is stale (its `stale_since`): its changes here, if any, are those of before the change named, "
        "until the list is recomputed (a list that does not recompute itself, `rif-elo`, waits for an officer: "
        "`POST /v1/rating-lists/{list_id}/recompute`). Empty when every such list shows every change",
    )


class ListRating(BaseModel):
    """Whether one rating list of the tournament's category rates it."""

    id: str = Field(description="The rating list")
    rated: bool = Field(description="The list counts the tournament's played games")
    reason: str | None = Field(description="Why the list does not rate it, e.g. a time control below its minimum")
    job_id: int | None = Field(description="The recompute queued for the list (GET /v1/jobs/{job_id}); null when none was")
    no_recompute_reason: str | None = Field(
        None,
        description="Why `job_id` is null, in words: the list does not rate the tournament, before or now (its ratings "
        "do not change); the tournament waits for the review of an officer of the list (`review` pending, whose "
        "confirmation queues the recompute); or the list does not recompute itself (`auto_recompute` false, the "
        "historical `rif-elo`): it shows the tournament as it was until an officer recomputes it (`POST "
        "/v1/rating-lists/{list_id}/recompute`) and is stale until then (`stale_since` of the list, and this answer's "
        "`stale_lists`). Null when a recompute was queued",
    )
    review: Literal["pending", "confirmed", "rejected"] | None = Field(
        None,
        description="For a list that requires an officer's confirmation (`requires_review`): the tournament's review, "
        "`pending` from its submission and from each correction until an officer of the list confirms or rejects it "
        "(`POST /v1/rating-lists/{list_id}/reviews/{tournament_id}`); the list rates it only once `confirmed`. Null "
        "for a list that does not review, or a tournament stored before it did",
    )


class TournamentSubmitted(TournamentRead):
    """The stored tournament, what each rating list of its category does with it, and what it said
    of stored players that waits for an officer."""

    lists: list[ListRating] = Field(
        default_factory=list, description="For each rating list of the category: whether it rates the tournament"
    )
    player_reviews: list[QueuedPlayerReview] = Field(
        default_factory=list,
        description="What the submission said of its players and did not change, each queued for an officer "
        "(`GET /v1/player-reviews`): a stored player given other details than his stored ones (his games are "
        "his; his details stay as stored until an officer accepts them), and a new player whose name is a stored "
        "player's (a possible duplicate, with the candidates). Empty when it said nothing new",
    )
