"""Why a player's rating changed between two readings of a list (`GET /v1/players/{id}/changes`)."""

import datetime as dt

from pydantic import BaseModel, ConfigDict, Field

# What `from` and `to` take: a publication, a snapshot (numbers within the database's 32-bit keys) or a
# day from 1900 to 2199 that the calendar has (months of 28 to 31 days, 29 February in leap years
# only, not in 1900 or 2100), so that every value the contract admits is one the service reads.
_YEAR = r"(19|20|21)[0-9]{2}"
_MONTH_DAY = r"(0[1-9]|1[0-2])-(0[1-9]|1[0-9]|2[0-8])|(0[13-9]|1[0-2])-(29|30)|(0[13578]|1[02])-31"
_LEAP_DAY = r"(19|21)([02468][48]|[13579][26]|[2468]0)-02-29|20([02468][048]|[13579][26])-02-29"
READING_PATTERN = rf"^(publication:[1-9][0-9]{{0,8}}|snapshot:[1-9][0-9]{{0,8}}|{_YEAR}-({_MONTH_DAY})|{_LEAP_DAY})$"


class Reading(BaseModel):
    """One end of the explanation: a snapshot of the list read as of a day, and his line there."""

    reference: str = Field(description="What named it, as asked (`publication:3`, `snapshot:17`, `2026-03-01`) or `current`")
    source: str = Field(
        description="How it was read: `publication` or `snapshot` (named so), `current` (the live list), "
        "`current_that_day` (a day on which the list had a snapshot: the one current at the end of that day, what the list "
        "said then) or `rating_day` (a day before the list's first snapshot, as for a history rated after the fact: what "
        "the later reading's snapshot says of that day, or for the later reading the current snapshot, as the list `as_of` "
        "that day shows it)"
    )
    publication: int | None = Field(description="The publication's number, when a publication named it")
    snapshot_id: int = Field(description="The snapshot read (`GET /v1/rating-lists/{list_id}/snapshots/{snapshot_id}`)")
    date: dt.date = Field(description="The day the snapshot is read as of")
    rating: float | None = Field(
        description="His rating on that day under that snapshot, as the list `as_of` that day (or the publication) shows it; "
        "null when he had no rated game by then"
    )
    status: str | None = Field(description="His status on that day (null with the rating)")
    games: int | None = Field(description="His rated games up to that day (null with the rating)")


class Step(BaseModel):
    """A move of his rating under the later snapshot, from one of his playing days to the next."""

    date: dt.date = Field(description="The playing day the step leads to")
    rating_before: float | None = Field(
        description="His rating before it: the later snapshot's on the `from` day for the first step, else the previous "
        "step's `rating_after` (null for a player with no rating yet)"
    )
    rating_after: float = Field(description="His rating after it, under the later snapshot")
    change: float | None = Field(description="`rating_after` minus `rating_before`")
    tournament_ids: list[str] = Field(description="The tournaments of his games on that day")
    cause: str = Field(
        description="`games`: his games on that day (up to the `to` day); `later_games`: his games after the `to` day, "
        "which under WHR already move his rating on it (the rating between two playing days is interpolated)"
    )


class GamePlayed(BaseModel):
    """One of his games of a listed tournament, from his side, as stored now."""

    date: dt.date = Field(description="The day it was played")
    round: str | None = Field(description="Its round label")
    colour: str = Field(description="`black` or `white`")
    opponent_id: str = Field(description="The opponent")
    opponent_name: str | None = Field(description="The opponent's name")
    outcome: str = Field(description="`won`, `lost` or `drawn`, from his side")
    played: bool = Field(description="False for a walkover or unplayed game, never rated")


class RevisionNote(BaseModel):
    """A recorded change (`GET /v1/audit`) between the two snapshots."""

    model_config = ConfigDict(from_attributes=True)

    number: int = Field(description="The revision's number among its subject's")
    kind: str = Field(description="submitted, corrected, withdrawn, restored, seeds_changed, params_changed or settings_changed")
    at: dt.datetime = Field(description="When")
    actor: str = Field(description="The key's name that made it")
    summary: str = Field(description="What changed, in words")


class TournamentMove(BaseModel):
    """A tournament that changed between the two snapshots, or one of his between the two days."""

    tournament_id: str = Field(description="The tournament")
    name: str = Field(description="Its name")
    start: dt.date = Field(description="Its first day")
    end: dt.date = Field(description="Its last day")
    how: str = Field(
        description="`added` (rated by the later snapshot, not by the earlier), `corrected` (rated by both, changed in "
        "between: see `revisions`), `withdrawn` (rated by the earlier only, withdrawn since), `no_longer_rated` (rated by "
        "the earlier only, not eligible any more) or `rated` (unchanged; his games in it fall between the two days)"
    )
    revisions: list[RevisionNote] = Field(description="Its recorded changes between the two snapshots, oldest first")
    games: list[GamePlayed] = Field(description="His games in it as stored now (empty when he did not play in it)")
    rating_before: float | None = Field(
        description="His rating before it, as the snapshot that rates it says (the later one; the earlier for a tournament "
        "it alone rated); null when he did not play in it"
    )
    rating_after: float | None = Field(description="His rating after it, in the same snapshot")
    change: float | None = Field(
        description="The change it brought him there (its system's own figure, rounded as the rules round)"
    )


class PlayerChanges(BaseModel):
    """Why a player's rating moved between two readings of a list, in parts that add up:
    `change` = `past_revised` + `new_games`, and `new_games` = the sum of the `steps`' changes."""

    model_config = ConfigDict(populate_by_name=True)

    player_id: str = Field(description="The player")
    list_id: str = Field(description="The rating list")
    system: str = Field(description="The list's rating system")
    from_: Reading = Field(alias="from", description="The earlier reading")
    to: Reading = Field(description="The later reading")
    change: float | None = Field(description="`to.rating` minus `from.rating`; null when either is null")
    past_rating_now: float | None = Field(
        description="His rating on the `from` day as the later snapshot reads it: the past as it is known now"
    )
    past_revised: float | None = Field(
        description="`past_rating_now` minus `from.rating`: how much of the change is the past itself read again (under WHR "
        "the re-estimation every new or corrected game brings; under Elo the corrections, withdrawals and late submissions "
        "of tournaments before the `from` day)"
    )
    new_games: float | None = Field(
        description="`to.rating` minus `past_rating_now`: how much is his games after the `from` day, step by step in `steps`"
    )
    steps: list[Step] = Field(description="The later snapshot's moves of his rating from the `from` day to the `to` day")
    tournaments: list[TournamentMove] = Field(
        description="The list's tournaments added, corrected or withdrawn between the two snapshots, and those of the steps, "
        "by end, start and id"
    )
    list_changes: list[RevisionNote] = Field(
        description="The list's own changes between the two snapshots (parameters, seeds, settings)"
    )
