"""The Rivne calc: check the envelope (with pointers), then hand plain values to app/rating/rivne."""

from collections import Counter

from app.problems import FieldError, InvalidInput
from app.rating import rivne
from app.rating.rounding import round_half_away_from_zero
from app.schemas import calc_rivne as schemas

SCORE_OF_RESULT = {"B": 1.0, "W": 0.0, "D": 0.5}


def rate_tournament(body: schemas.RivneTournamentIn) -> schemas.RivneTournamentOut:
    _check(body)
    players = [
        rivne.Player(
            p.id,
            p.rating if p.rating is not None else rivne.suggested_first_rating(p.rank),  # type: ignore[arg-type]
            p.rank,
        )
        for p in body.players
    ]
    games = [
        rivne.Game(g.round, g.black, g.white, SCORE_OF_RESULT[g.result], g.board_size, g.handicap, g.played) for g in body.games
    ]
    try:
        result = rivne.rate_tournament(players, games)
    except rivne.AnomalyNotStable as error:
        raise InvalidInput(f"The anomaly check (004 (8)) does not settle: {error}.") from error
    except ValueError as error:
        raise InvalidInput(f"The rules cannot be applied to this input: {error}") from error
    given = {p.id: p for p in body.players}
    return schemas.RivneTournamentOut(
        handicap_games=result.handicap_games,
        anomaly_passes=[
            schemas.RivneAnomalyPassOut(number=p.number, anomalous=[schemas.RivneAnomalousOut(**a.__dict__) for a in p.anomalous])
            for p in result.passes
        ],
        players=[
            schemas.RivnePlayerOut(
                id=r.id,
                newcomer=given[r.id].rating is None,
                rank=given[r.id].rank,
                rating_before=r.rating_before,
                start_rating=r.start_rating,
                rating_after=r.rating_after,
                rating_after_display=round_half_away_from_zero(r.rating_after),
                change=r.change,
                games_played=r.games_played,
                extra_points=r.extra_points,
                rounds=[schemas.RivneRoundOut(**c.__dict__) for c in r.rounds],
            )
            for r in result.players
        ],
    )


def _check(body: schemas.RivneTournamentIn) -> None:
    errors: list[FieldError] = []
    counts = Counter(p.id for p in body.players)
    seen: set[str] = set()
    for index, player in enumerate(body.players):
        if counts[player.id] > 1 and player.id in seen:
            errors.append(FieldError(f"/players/{index}/id", f"player {player.id!r} is given more than once"))
        seen.add(player.id)
        if player.rating is None and player.rank is None:
            errors.append(FieldError(f"/players/{index}/rating", "give his rating, or his declared rank if he is a newcomer"))
    ranks = {p.id: p.rank for p in body.players}
    in_round: dict[tuple[int, str], int] = {}
    for index, game in enumerate(body.games):
        where = f"/games/{index}"
        for side in ("black", "white"):
            player_id = getattr(game, side)
            if player_id not in counts:
                errors.append(FieldError(f"{where}/{side}", f"player {player_id!r} is not in players"))
            elif (game.round, player_id) in in_round:
                other = in_round[(game.round, player_id)]
                errors.append(
                    FieldError(f"{where}/{side}", f"player {player_id!r} already plays game {other} of round {game.round}")
                )
            else:
                in_round[(game.round, player_id)] = index
        if game.black == game.white:
            errors.append(FieldError(f"{where}/white", f"player {game.white!r} cannot play against himself"))
        if game.handicap >= 1 and game.played:
            for side in ("black", "white"):
                if getattr(game, side) in ranks and ranks[getattr(game, side)] is None:
                    errors.append(
                        FieldError(
                            f"{where}/handicap", f"a handicap game needs the declared rank of {getattr(game, side)!r} (Kf, 004)"
                        )
                    )
    if errors:
        raise InvalidInput(f"The request has {len(errors)} invalid field(s).", errors)
