"""Stateless calculations: check the request envelope (with pointers), then hand plain values to
the rule engines in app/rating."""

import datetime as dt
from collections import Counter
from collections.abc import Sequence

import numpy as np

from app.problems import FieldError, InvalidInput
from app.rating import rif_elo, whr
from app.schemas import calc as schemas

SCORE_OF_RESULT = {"B": 1.0, "W": 0.0, "D": 0.5}
BEFORE_1996 = dt.date(1996, 1, 1)


def elo_game(body: schemas.EloGameIn) -> schemas.EloGameOut:
    change = rif_elo.game_change(body.rating, body.opponent_rating, float(body.score))
    return schemas.EloGameOut(expected=change.expected, change=change.change, change_unrounded=change.change_unrounded)


def appendix() -> schemas.AppendixTable:
    return schemas.AppendixTable(
        note=(
            "Computed from the formulas of #6/#7, which are normative (INTERPRETATIONS 1.4). The printed "
            "row 522-724 (+1/+31/+15) splits at 718: there the formula gives +0/+32/+16."
        ),
        rows=[
            schemas.AppendixRowOut(
                difference_from=row.difference_from,
                difference_to=row.difference_to,
                r1_wins=row.higher_wins,
                r2_wins=row.lower_wins,
                draw=row.draw,
            )
            for row in rif_elo.appendix_table()
        ],
    )


def rif_1995(body: schemas.Rif1995TournamentIn) -> schemas.CalcResult1995:
    errors = _envelope_errors(body.players, body.games)
    for index, player in enumerate(body.players):
        if player.status == "new" and player.rating is not None:
            errors.append(FieldError(f"/players/{index}/rating", "a new player has no rating: #8 computes his start rating R0"))
        if player.status != "new" and player.rating is None:
            errors.append(FieldError(f"/players/{index}/rating", f"an {player.status} player needs his start rating"))
    if body.before_1996 is None and body.end is None:
        errors.append(FieldError("/end", "give the tournament's end date (or before_1996) so #8.c can be applied or waived"))
    _raise(errors)
    before_1996 = body.before_1996 if body.before_1996 is not None else body.end < BEFORE_1996  # type: ignore[operator]
    results = _engine(
        rif_elo.rate_tournament_1995,
        [rif_elo.Player1995(p.id, p.rating, rif_elo.Status1995(p.status)) for p in body.players],
        _games(body.games),
        before_1996=before_1996,
    )
    return schemas.CalcResult1995(
        before_1996=before_1996,
        players=[schemas.Rif1995PlayerOut(**{**r.__dict__, "status_after": str(r.status_after)}) for r in results],
    )


def rif_1997(body: schemas.Rif1997TournamentIn) -> schemas.CalcResult1997:
    errors = _envelope_errors(body.players, body.games)
    for index, player in enumerate(body.players):
        if player.status == "established" and player.rating is None:
            errors.append(FieldError(f"/players/{index}/rating", "an established player needs his rating"))
        record = player.record
        if record.wins + record.losses > record.games:
            errors.append(FieldError(f"/players/{index}/record", "wins + losses exceed games"))
    _raise(errors)
    results = _engine(
        rif_elo.rate_event_1997,
        [
            rif_elo.Player1997(p.id, p.rating, rif_elo.Status1997(p.status), rif_elo.ProvisionalRecord(**p.record.model_dump()))
            for p in body.players
        ],
        _games(body.games),
    )
    return schemas.CalcResult1997(
        players=[
            schemas.Rif1997PlayerOut(
                **{
                    **{k: v for k, v in r.__dict__.items() if k != "record_after"},
                    "status_after": str(r.status_after),
                    "record_after": schemas.ProvisionalRecordIO(**r.record_after.__dict__),
                }
            )
            for r in results
        ]
    )


def whr_history(body: schemas.WhrCalcIn) -> schemas.WhrCalcOut:
    errors = [
        FieldError(f"/games/{i}/white", f"player {g.white!r} cannot play against himself")
        for i, g in enumerate(body.games)
        if g.black == g.white
    ]
    _raise(errors)
    index: dict[str, int] = {}
    black = np.array([index.setdefault(g.black, len(index)) for g in body.games], dtype=np.int64)
    white = np.array([index.setdefault(g.white, len(index)) for g in body.games], dtype=np.int64)
    score = np.array([SCORE_OF_RESULT[g.result] for g in body.games], dtype=np.float64)
    day = np.array([g.date.toordinal() for g in body.games], dtype=np.int64)
    params = whr.WhrParams(
        w2=body.params.w2,
        virtual_games=body.params.virtual_games,
        virtual_rating=body.params.virtual_rating,
        start_rating=body.params.virtual_rating,
    )
    fitted = _engine(whr.fit, black, white, score, day, len(index), params)
    players = []
    for player_id, p in index.items():
        rows = fitted.history(p)
        players.append(
            schemas.WhrPlayerOut(
                id=player_id,
                history=[
                    schemas.WhrPoint(date=dt.date.fromordinal(int(d)), rating=float(r), deviation=float(s), games=int(n))
                    for d, r, s, n in zip(fitted.day[rows], fitted.rating[rows], fitted.deviation[rows], fitted.games[rows])
                ],
            )
        )
    return schemas.WhrCalcOut(players=players)


def _envelope_errors(players: Sequence, games: Sequence[schemas.CalcGame]) -> list[FieldError]:
    errors: list[FieldError] = []
    counts = Counter(p.id for p in players)
    seen: set[str] = set()
    for index, player in enumerate(players):
        if counts[player.id] > 1 and player.id in seen:
            errors.append(FieldError(f"/players/{index}/id", f"player {player.id!r} is given more than once"))
        seen.add(player.id)
    for index, game in enumerate(games):
        for side in ("black", "white"):
            if getattr(game, side) not in counts:
                errors.append(FieldError(f"/games/{index}/{side}", f"player {getattr(game, side)!r} is not in players"))
        if game.black == game.white:
            errors.append(FieldError(f"/games/{index}/white", f"player {game.white!r} cannot play against himself"))
    return errors


def _games(games: Sequence[schemas.CalcGame]) -> list[rif_elo.Game]:
    # RIF 1995 #4: only games played in reality are rated.
    return [rif_elo.Game(g.black, g.white, SCORE_OF_RESULT[g.result]) for g in games if g.played]


def _engine(call, *args, **kwargs):  # type: ignore[no-untyped-def]
    """The engines re-check their input; whatever they still refuse is the caller's error."""
    try:
        return call(*args, **kwargs)
    except ValueError as error:
        raise InvalidInput(f"The rules cannot be applied to this input: {error}") from error


def _raise(errors: list[FieldError]) -> None:
    if errors:
        raise InvalidInput(f"The request has {len(errors)} invalid field(s).", errors)
