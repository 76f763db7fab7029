"""The Rivne Go club rating of one tournament and of one game (text 004): check the envelope (with
pointers), then hand plain values to the rules (``app.rating.rivne.rules``) and show every figure they
computed. Nothing is stored."""

from app.rating.calculators import (
    CalculationRefused,
    Calculator,
    Pointer,
    WebsiteForm,
    envelope_errors,
    refuse_if_any,
    under_the_rules,
)
from app.rating.rivne import calculator_examples as examples
from app.rating.rivne import calculator_models as schemas
from app.rating.rivne import rules as rivne
from app.rating.rounding import round_half_away_from_zero
from app.rating.system import SCORE_OF_RESULT


def rate_tournament(body: schemas.RivneTournamentIn) -> schemas.RivneTournamentOut:
    _check(body)
    players = [rivne.Player(p.id, _start_rating(p), p.rank) for p in body.players]
    games = [
        rivne.Game(g.round, g.black, g.white, SCORE_OF_RESULT[g.result], g.board_size, g.handicap, g.played) for g in body.games
    ]
    try:
        result = rivne.rate_tournament(players, games)
    except rivne.AnomalyNotStable as error:
        raise CalculationRefused(f"The anomaly check (004 (8)) does not settle: {error}.") from error
    except ValueError as error:
        raise CalculationRefused(f"The rules cannot be applied to this input: {error}") from error
    given = {p.id: p for p in body.players}
    return schemas.RivneTournamentOut(
        handicap_games=result.handicap_games,
        anomaly_passes=[
            schemas.RivneAnomalyPassOut(
                number=p.number,
                anomalous=[schemas.RivneAnomalousOut(**a.__dict__) for a in p.anomalous],
                players=[schemas.RivnePassStandingOut(**standing.__dict__) for standing in p.players],
            )
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
                games=[figures_out(figures) for figures in r.games],
                seed=schemas.RivneSeedOut(rating=r.rating_after, title=given[r.id].rank),
            )
            for r in result.players
        ],
    )


def rate_game(body: schemas.RivneSingleGameIn) -> schemas.RivneSingleGameOut:
    black, white, black_score = _black_and_white(body)
    game = rivne.Game(1, "black", "white", black_score, body.board_size, body.handicap)
    black_figures, white_figures, black_after, white_after = under_the_rules(rivne.rate_game, black, white, game)
    return schemas.RivneSingleGameOut(
        black=_side(black_figures, black.rating, black_after),
        white=_side(white_figures, white.rating, white_after),
    )


def _black_and_white(body: schemas.RivneSingleGameIn) -> tuple[rivne.Player, rivne.Player, float]:
    """Black, white and black's score, from whichever form the body has (issue 44 item 5); a body
    without one form whole, or with both, is refused with the fields it lacks or mixes."""
    given = body.model_fields_set
    # The contract gives these no null (each form's own fields): one sent is refused, not read as absent.
    nulls = [name for name in (*schemas.FORM_NOW, *schemas.FORM_DEPRECATED) if name in given and getattr(body, name) is None]
    refuse_if_any([Pointer(f"/{name}", "a value, not null (leave the field out instead)") for name in nulls])
    now = given & {*schemas.FORM_NOW, *schemas.FORM_NOW_OPTIONAL}
    deprecated = given & set(schemas.FORM_DEPRECATED)
    if deprecated:
        refuse_if_any(
            [
                Pointer(f"/{name}", f"not in one body with the deprecated {', '.join(sorted(deprecated))}: one form or the other")
                for name in sorted(now)
            ]
        )
        refuse_if_any(
            [
                Pointer(f"/{name}", "required with black, white and result")
                for name in schemas.FORM_DEPRECATED
                if name not in given
            ]
        )
        assert body.black is not None and body.white is not None and body.result is not None
        if body.handicap >= 1:
            refuse_if_any(
                [
                    Pointer(f"/{side}/rank", _RANKS_NEEDED)
                    for side, player in (("black", body.black), ("white", body.white))
                    if player.rank is None
                ]
            )
        black = rivne.Player("black", body.black.rating, body.black.rank)
        white = rivne.Player("white", body.white.rating, body.white.rank)
        return black, white, SCORE_OF_RESULT[body.result]
    refuse_if_any([Pointer(f"/{name}", "required") for name in schemas.FORM_NOW if name not in given])
    assert body.rating is not None and body.opponent_rating is not None and body.score is not None
    if body.handicap >= 1:
        missing = [Pointer(f"/{name}", _RANKS_NEEDED) for name in ("rank", "opponent_rank") if getattr(body, name) is None]
        if body.colour is None:
            missing.append(Pointer("/colour", "a handicap game needs the player's colour: black receives the stones"))
        refuse_if_any(missing)
    player = (body.rating, body.rank)
    opponent = (body.opponent_rating, body.opponent_rank)
    if body.colour == "white":
        return rivne.Player("black", *opponent), rivne.Player("white", *player), 1.0 - body.score
    return rivne.Player("black", *player), rivne.Player("white", *opponent), body.score


_RANKS_NEEDED = "a handicap game needs both declared ranks (Kf, 004)"


def figures_out(figures: rivne.GameFigures) -> schemas.RivneGameFiguresOut:
    """A player's figures in one game as the answers show them (the rules' names, 004)."""
    return schemas.RivneGameFiguresOut.model_validate({k: v for k, v in figures.__dict__.items() if k != "id"})


# The calculator endpoints, mounted under /v1/calc from the registry (app/api/calculators.py).
ENDPOINTS = (
    Calculator(
        path="/rivne/game",
        operation_id="calc_rivne_game",
        doc="""Rate one Go game under the Rivne club rating

        Formula (5) of text 004 for one game alone, with every figure it uses for each player: ΔR of (1)
        (with RA# of (7) in a handicap game), a of (4), SE of (2)/(3), K1 of Table I, K2 of (6), Kd, Kf,
        the bonus Kd·Kf·K1·K2 and the change. Both ratings are start and current ratings at once. A game
        alone is not a tournament, so the anomaly check (8) is not made (ask the tournament calculator
        for it). Players below 100 follow their own tables (INTERPRETATIONS 5.8–5.10). Ratings stay
        fractional; `rating_after_display` is rounded for display. Nothing is stored; no key is
        needed.""",
        request_model=schemas.RivneSingleGameIn,
        response_model=schemas.RivneSingleGameOut,
        function=rate_game,
        request_examples=examples.RIVNE_GAME_REQUESTS,
        response_examples=examples.RIVNE_GAME_EXAMPLES,
        within_budget=False,
        website=WebsiteForm(
            slug="rivne-game",
            title="Go club rating (Rivne): one game",
            about="Text 004, formula (5) for one game alone, with ΔR, a, SE, K1, K2, Kd, Kf, the bonus and the change of each player.",
        ),
    ),
    Calculator(
        path="/rivne/tournament",
        operation_id="calc_rivne_tournament",
        doc="""Rate one Go tournament under the Rivne club rating

        Text 004, round by round: the expected result uses the ratings declared before the tournament,
        while the factors a, K1 and K2 use each player's rating after the previous round; the games of one
        round count as simultaneous (INTERPRETATIONS 5.1). The board size scales a game by Kd, the handicap
        by Kf and RA# (INTERPRETATIONS 5.5, 5.6), and players below 100 follow their own tables
        (INTERPRETATIONS 5.8–5.10). In a tournament without handicap games, anomalous results are checked
        by formula (8): the anomalous players restart from their previous result and the tournament is
        computed again, until no result is anomalous (at most 50 passes, INTERPRETATIONS 5.7). Ratings
        stay fractional; `rating_after_display` is rounded for display. Nothing is stored; no key is
        needed. At most 2,000 players and 20,000 games.""",
        request_model=schemas.RivneTournamentIn,
        response_model=schemas.RivneTournamentOut,
        function=rate_tournament,
        request_examples=examples.RIVNE_REQUESTS,
        response_examples=examples.RIVNE_EXAMPLES,
    ),
)


def _side(figures: rivne.GameFigures, rating_before: float, rating_after: float) -> schemas.RivneSingleGameSideOut:
    return schemas.RivneSingleGameSideOut(
        **figures_out(figures).model_dump(),
        rating_before=rating_before,
        rating_after=rating_after,
        rating_after_display=round_half_away_from_zero(rating_after),
    )


def _start_rating(player: schemas.RivnePlayerIn) -> float:
    if player.rating is not None:
        return player.rating
    assert player.rank is not None  # _check: a newcomer without a rating declares his rank
    return rivne.suggested_first_rating(player.rank)


def _check(body: schemas.RivneTournamentIn) -> None:
    ranks = {p.id: p.rank for p in body.players}
    in_round: dict[tuple[int, str], int] = {}

    def start_errors(index: int, player: schemas.RivnePlayerIn) -> list[Pointer]:
        if player.rating is None and player.rank is None:
            return [Pointer(f"/players/{index}/rating", "give his rating, or his declared rank if he is a newcomer")]
        return []

    def round_and_handicap_errors(index: int, game: schemas.RivneGameIn) -> list[Pointer]:
        # INTERPRETATIONS 5.1: the games of one round are simultaneous, so a player plays one of them.
        errors = []
        for side, player_id in (("black", game.black), ("white", game.white)):
            if player_id not in ranks:
                continue
            if (game.round, player_id) in in_round:
                other = in_round[(game.round, player_id)]
                errors.append(
                    Pointer(f"/games/{index}/{side}", f"player {player_id!r} already plays game {other} of round {game.round}")
                )
            else:
                in_round[(game.round, player_id)] = index
        if game.handicap >= 1 and game.played:
            for player_id in (game.black, game.white):
                if player_id in ranks and ranks[player_id] is None:
                    errors.append(
                        Pointer(f"/games/{index}/handicap", f"a handicap game needs the declared rank of {player_id!r} (Kf, 004)")
                    )
        return errors

    refuse_if_any(envelope_errors(body.players, body.games, player_errors=start_errors, game_errors=round_and_handicap_errors))
