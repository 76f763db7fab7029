"""The Estonian calculators: check the request envelope (with pointers), hand plain values to
app/rating/eru.py and shape its results. Nothing is stored."""

from collections import Counter
from collections.abc import Callable
from fractions import Fraction
from typing import ParamSpec, TypeVar

from app.models import Tournament
from app.problems import FieldError, InvalidInput
from app.rating import eru
from app.schemas import calc_eru as schemas

P = ParamSpec("P")
R = TypeVar("R")

SCORE_OF_RESULT = {"B": Fraction(1), "W": Fraction(0), "D": Fraction(1, 2)}


def norms(body: schemas.EruNormsIn) -> schemas.EruNormsOut:
    evaluation = _engine(
        eru.evaluate_norms,
        eru.parse_rank(body.rank),
        [
            eru.OpponentGame(None if game.opponent_rank is None else eru.parse_rank(game.opponent_rank), Fraction(game.score))
            for game in body.games
        ],
        conditions(body),
    )
    return _norms_out(evaluation)


def tournament(body: schemas.EruTournamentIn) -> schemas.EruTournamentOut:
    _raise(_envelope_errors(body))
    players = [
        eru.Player(
            id=player.id,
            rank=None if player.rank is None else eru.parse_rank(player.rank),
            rating=player.estonian_rating,
            rif_rating=player.rif_rating,
            first_rank=eru.parse_rank(player.first_rank),
            rating_bonus=player.rating_bonus,
        )
        for player in body.players
    ]
    games = [eru.Game(g.black, g.white, SCORE_OF_RESULT[g.result], played=g.played) for g in body.games]
    results = _engine(eru.rate_tournament, players, games, conditions(body))
    return schemas.EruTournamentOut(
        players=[
            schemas.EruPlayerOut(
                **_norms_out(result.norms).model_dump(),
                id=result.id,
                rank_before=None if result.rank_before is None else schemas.EruRank(eru.rank_name(result.rank_before)),
                rating_before=result.rating.rating_before,
                rating_after=result.rating.rating_after,
                change=result.rating.change,
                rating_games_counted=result.rating.games_counted,
                rating_reason=result.rating.reason,
            )
            for result in results
        ]
    )


def conditions(body: schemas.EruConditionsIn) -> eru.Conditions:
    return eru.Conditions(
        eru_calendar=body.eru_calendar,
        referee_accepted=body.referee_accepted,
        international=body.international,
        rif_rules=body.rif_rules,
        time_control_minutes=body.time_control_minutes,
        byo_yomi=body.byo_yomi,
        recorded=body.recorded,
        championship=None if body.championship is None else eru.Championship(body.championship.value),
        face_to_face=body.face_to_face,
    )


def tournament_conditions(tournament: Tournament) -> eru.Conditions:
    """A stored tournament's conditions as the engine reads them (the eru list's replay reads the same
    fields through ``eru.conditions_of_tournament``)."""
    return eru.conditions_of_tournament({column.name: getattr(tournament, column.key) for column in Tournament.__table__.c})


def _norms_out(evaluation: eru.NormEvaluation) -> schemas.EruNormsOut:
    def points(value: Fraction | None) -> float | None:
        return None if value is None else float(value)

    return schemas.EruNormsOut(
        games_counted=evaluation.games_counted,
        score=float(evaluation.score),
        norms=schemas.EruNorms(
            keep=float(evaluation.norms.keep), up1=points(evaluation.norms.up1), up2=points(evaluation.norms.up2)
        ),
        new_rank=schemas.EruRank(eru.rank_name(evaluation.new_rank)),
        decision=evaluation.decision.value,
        norm_reached=evaluation.norm_reached,
        reason=evaluation.reason,
    )


def _envelope_errors(body: schemas.EruTournamentIn) -> list[FieldError]:
    errors: list[FieldError] = []
    counts = Counter(player.id for player in body.players)
    seen: set[str] = set()
    for index, player in enumerate(body.players):
        if counts[player.id] > 1 and player.id in seen:
            errors.append(FieldError(f"/players/{index}/id", f"player {player.id!r} is given more than once"))
        seen.add(player.id)
        if player.rating_bonus and (player.estonian_rating is not None or player.rif_rating is not None):
            errors.append(
                FieldError(
                    f"/players/{index}/rating_bonus",
                    "the referee's bonus applies only to a first rating (no Estonian or RIF rating)",
                )
            )
    for index, game in enumerate(body.games):
        for side in ("black", "white"):
            if getattr(game, side) not in counts:
                errors.append(FieldError(f"/games/{index}/{side}", f"player {getattr(game, side)!r} is not in players"))
        if game.black == game.white:
            errors.append(FieldError(f"/games/{index}/white", f"player {game.white!r} cannot play against himself"))
    return errors


def _engine(call: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
    """The engine re-checks its input; whatever it still refuses is the caller's error."""
    try:
        return call(*args, **kwargs)
    except ValueError as error:
        raise InvalidInput(f"The rules cannot be applied to this input: {error}") from error


def _raise(errors: list[FieldError]) -> None:
    if errors:
        raise InvalidInput(f"The request has {len(errors)} invalid field(s).", errors)
