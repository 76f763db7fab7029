"""How well a list's ratings predict its own games (issue 45): what an evaluation is asked and what
it answers (app/services/evaluations.py; the procedures and scores are app/rating/evaluation.py's)."""

import datetime as dt
from typing import Any, Literal

from pydantic import BaseModel, Field, ValidationInfo, field_validator

from app.schemas.common import StrictModel
from app.schemas.jobs import JobStatus

Mode = Literal["forward", "holdout"]


# A sweep of two parameters evaluates every pair of their values: at most this many pairs (each is a
# replay of the list's whole history, as a value of a one-parameter sweep is).
MAX_GRID = 100


class SecondParameter(StrictModel):
    """The second parameter of a sweep of two: every value of the first is tried with every value of this one."""

    parameter: str = Field(
        pattern=r"^[a-z][a-z0-9_]{0,63}$",
        description="Another of the list's parameters than the sweep's `parameter` (the same one twice is a 422), named "
        "as `params` names it (WHR: `virtual_games` beside `w2`)",
        examples=["virtual_games"],
    )
    values: list[float] = Field(
        min_length=2,
        max_length=50,
        description=f"The values to try, each one the list's rules accept together with each value of the first "
        f"parameter (a pair they refuse is a 422 naming the value). The two parameters' values make at most "
        f"{MAX_GRID} pairs: more is a 422 at `/sweep/and_parameter/values`",
        examples=[[1.0, 2.0, 4.0]],
    )


class ParameterSweep(StrictModel):
    """The same evaluation run once for each value of one of the list's parameters, or for each pair of
    values of two of them."""

    parameter: str = Field(
        pattern=r"^[a-z][a-z0-9_]{0,63}$",
        description="One of the list's parameters, as `GET /v1/rating-lists/{list_id}` names them in `params` (WHR: "
        "`w2` or `virtual_games`; the Elo lists: their K factors). A name the list's system does not have is a 422",
        examples=["w2"],
    )
    values: list[float] = Field(
        min_length=2,
        max_length=25,
        description="The values to try, each one the list's rules accept (a value they refuse is a 422 naming it)",
        examples=[[8.0, 12.9, 20.0]],
    )
    and_parameter: SecondParameter | None = Field(
        default=None,
        description=f"A second parameter swept at once with the first: the list is evaluated with every pair of the "
        f"two parameters' values (at most {MAX_GRID} pairs), and each parameter's best value and interval come "
        f"from its profile, each value's best pair over the other parameter (null: one parameter only)",
    )


class EvaluationRequest(StrictModel):
    """What an evaluation predicts, and from what."""

    mode: Mode = Field(
        default="forward",
        description="`forward`: every game predicted only from games of earlier days (WHR refits at the end of each "
        "period, `period_months`; the other systems read each player's standing just before the game's day); "
        "`holdout`: every `every`-th game, counted in date order (then the tournaments' order, then each "
        "tournament's), held out and predicted from a fit of all the others, as the RIF chose its w² (a 9:1 split)",
    )
    period_months: int = Field(
        default=1, ge=1, le=24, description="`forward`: the months between two WHR refits (the other systems need none)"
    )
    every: int = Field(default=10, ge=2, le=1000, description="`holdout`: one game in this many is held out")
    offset: int = Field(default=0, ge=0, le=999, description="`holdout`: which game of each `every` is held out, from 0")
    sweep: ParameterSweep | None = Field(
        default=None,
        description="Also evaluate the list with each of these values of one parameter, or with every pair of values "
        "of two (`and_parameter`) (null: none)",
    )
    side_by_side: bool = Field(
        default=False,
        description="Also evaluate, the same way, every other list of the same category on the games both lists rate, "
        "beside this list on the same games, with how alike the two lists rank their common players",
    )

    @field_validator("offset")
    @classmethod
    def _offset_within_every(cls, offset: int, info: ValidationInfo) -> int:
        every = info.data.get("every")
        if every is not None and offset >= every:
            raise ValueError(f"must be below `every` ({every})")
        return offset


class CalibrationBin(BaseModel):
    """Games whose predicted score fell in one tenth of 0 to 1, against what was scored in them."""

    low: float = Field(description="The bin's lowest predicted score (included)")
    high: float = Field(description="Its highest (excluded, but 1 is in the last bin)")
    games: int = Field(description="Games whose prediction fell in it")
    mean_expected: float | None = Field(description="Their mean predicted score (null: no game)")
    observed: float | None = Field(description="The mean score actually made in them, a draw counting half (null: no game)")
    interval_low: float | None = Field(description="Lower end of the observed score's 95 % Wilson interval")
    interval_high: float | None = Field(description="Upper end of that interval")


class ScoreGroup(BaseModel):
    """The scores of one group of the games (a band of ratings, of rating gaps, a year)."""

    label: str = Field(description="The group: a range of ratings (`1800–2000`), of gaps (`0–100`) or a year")
    games: int = Field(description="Games scored in it")
    mean_log_likelihood: float = Field(description="Their mean log-likelihood, as `mean_log_likelihood` above")
    brier: float = Field(description="Their Brier score")
    mean_expected: float = Field(description="Their mean predicted score (of the player with black)")
    observed: float = Field(description="The mean score black made in them")


class Scores(BaseModel):
    """How well the predictions matched the results."""

    games: int = Field(description="Games predicted and scored")
    mean_log_likelihood: float | None = Field(
        description="(null when no game was scored) Mean over the games of s·ln p + (1 − s)·ln(1 − p), p the predicted score of black and s his score "
        "(a draw: ½ ln p + ½ ln(1 − p), as the `whr` package's evaluation counts it); p is taken within "
        "[10⁻⁶, 1 − 10⁻⁶], since an Elo table may predict a certain result. Nearer 0 is better; ln ½ = −0.693 is a coin"
    )
    brier: float | None = Field(description="Mean of (p − s)²: 0 is perfect, 0.25 a coin (null when no game was scored)")
    decisive_games: int = Field(description="Games won by one side")
    favourite_won: float | None = Field(
        description="Of the decisive games with a favourite (p ≠ ½), the share the favourite won (null: none)"
    )
    calibration: list[CalibrationBin] = Field(description="Predicted against observed, in ten bins of the prediction")
    by_band: list[ScoreGroup] = Field(description="By the mean of the two players' ratings, in bands of 200")
    by_gap: list[ScoreGroup] = Field(description="By the difference of the two ratings, in bands of 100")
    by_year: list[ScoreGroup] = Field(description="By the game's year")


class SweepPoint(BaseModel):
    """The evaluation with one value of the swept parameter."""

    value: float = Field(description="The parameter's value")
    mean_log_likelihood: float | None = Field(description="Mean log-likelihood of the games with it (null: none scored)")
    brier: float | None = Field(description="Brier score with it (null: none scored)")
    games: int = Field(description="Games scored with it")


class ParameterCurve(BaseModel):
    """The curve of one parameter and its best value."""

    parameter: str = Field(description="The parameter swept")
    current: float | None = Field(description="The list's own value of it (null: the list leaves it unset)")
    points: list[SweepPoint] = Field(
        description="One evaluation per value, in the order asked. In a sweep of two parameters, each value's "
        "profile: the pair with that value whose total log-likelihood is the highest over the other parameter"
    )
    best: float | None = Field(description="The value with the highest total log-likelihood (null: no value scored a game)")
    interval_low: float | None = Field(
        description="The lowest value tried whose total log-likelihood (in a sweep of two parameters: whose profile's) "
        "is within 1.92 of the best's (a likelihood-ratio 95 % interval, as far as the values tried tell)"
    )
    interval_high: float | None = Field(description="The highest such value")


class SweepCell(BaseModel):
    """The evaluation with one pair of values of a sweep of two parameters."""

    value: float = Field(description="The first parameter's value (the sweep's `parameter`)")
    second_value: float = Field(description="The second parameter's value (the sweep's `and_parameter`)")
    mean_log_likelihood: float | None = Field(description="Mean log-likelihood of the games with the pair (null: none scored)")
    brier: float | None = Field(description="Brier score with the pair (null: none scored)")
    games: int = Field(description="Games scored with the pair")


class SweepResult(ParameterCurve):
    """The curve of one parameter and its best value; in a sweep of two parameters, the first
    parameter's curve (its profile), the second's beside it, and every pair tried."""

    and_parameter: ParameterCurve | None = Field(
        default=None,
        description="In a sweep of two parameters, the second parameter's curve, its points its profile; the best "
        "pair is (`best`, `and_parameter.best`) (null: one parameter swept)",
    )
    grid: list[SweepCell] | None = Field(
        default=None,
        description="In a sweep of two parameters, every pair tried: the first parameter's values in the order asked, "
        "and within each the second's (null: one parameter swept)",
    )


class ListScores(BaseModel):
    """One list's scores on the games two lists both rate."""

    list_id: str = Field(description="The rating list")
    system: str = Field(description="Its rating system")
    rule: str = Field(description="Its expected-score rule")
    games_unscored: int = Field(description="Of the common games, those it could not predict (a player without a rating yet)")
    scores: Scores = Field(description="Its predictions of the common games that both lists predicted, scored")


class SideBySide(BaseModel):
    """This list and another of its category, evaluated the same way on the games both rate."""

    other_list_id: str = Field(description="The other list")
    tournaments: int = Field(description="Tournaments both lists rate")
    games: int = Field(description="Their games: what both lists are evaluated on")
    this: ListScores = Field(description="This list on those games (scored on the ones both lists predicted)")
    other: ListScores = Field(description="The other list on the same games (scored on the same ones)")
    players: int = Field(description="Players on both lists' current snapshots")
    spearman: float | None = Field(
        description="Spearman's rank correlation of the two lists' current ratings of those players (1: the same order; "
        "null with fewer than 3 players)"
    )
    kendall: float | None = Field(description="Kendall's τ-b of the same (null with fewer than 3 players)")


class Manifest(BaseModel):
    """What the evaluation read and ran, so that it can be run again and compared."""

    list_id: str = Field(description="The rating list")
    system: str = Field(description="Its rating system")
    params: dict[str, Any] = Field(description="The list's parameters the evaluation used")
    request: EvaluationRequest = Field(description="What was asked")
    rule: str = Field(description="The expected-score rule of the predictions, as the code cites it")
    games: int = Field(description="Games the list rates (its eligible games)")
    tournaments: int = Field(description="Tournaments the list rates")
    inputs_digest: str = Field(description="Digest of those games and seeds, as a snapshot records its inputs")
    service_version: str = Field(description="The service's version that ran it")


class EvaluationResult(BaseModel):
    """What an evaluation found."""

    manifest: Manifest = Field(description="What it read and ran")
    games_considered: int = Field(description="Games predicted or not: every game (forward) or the held-out ones")
    games_unscored: int = Field(
        description="Of those, games not predicted because a player had no rating yet (a newcomer's first day)"
    )
    scores: Scores = Field(description="How well the predictions matched the results")
    sweep: SweepResult | None = Field(description="The parameter's curve, when a sweep was asked")
    side_by_side: list[SideBySide] | None = Field(
        default=None, description="The other lists of the category on the common games, when asked (null otherwise)"
    )


class EvaluationRead(BaseModel):
    """An evaluation of a list: a job in the recompute queue that changes nothing."""

    id: int = Field(description="The evaluation's id (also its job's id at `GET /v1/jobs/{job_id}`)", examples=[3])
    list_id: str = Field(description="The rating list evaluated", examples=["rif-whr"])
    status: JobStatus = Field(description="queued, running, succeeded, failed or cancelled")
    progress: float = Field(ge=0, le=1, description="Share of the work done, 0 to 1")
    request: EvaluationRequest = Field(description="What was asked")
    result: EvaluationResult | None = Field(description="What it found (succeeded only)")
    error: str | None = Field(description="Why it failed (failed only)")
    created_at: dt.datetime = Field(description="When it was asked (UTC)")
    started_at: dt.datetime | None = Field(description="When a worker took it (UTC)")
    finished_at: dt.datetime | None = Field(description="When it ended (UTC)")
