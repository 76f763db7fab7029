"""The Estonian calculators (text 003): check the request envelope (with pointers), hand plain values
to the rules (``app.rating.eru.rules``) and shape their results. Nothing is stored."""

from fractions import Fraction

from app.rating.calculators import Calculator, Pointer, WebsiteForm, envelope_errors, refuse_if_any, under_the_rules
from app.rating.eru import calculator_examples as examples
from app.rating.eru import calculator_models as schemas
from app.rating.eru import rules as eru
from app.rating.system import SCORE_OF_RESULT


def norms(body: schemas.EruNormsIn) -> schemas.EruNormsOut:
    evaluation = under_the_rules(
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
    refuse_if_any(envelope_errors(body.players, body.games, player_errors=_bonus_errors))
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
    # Scores are 1, 0.5 or 0: exact as fractions.
    games = [eru.Game(g.black, g.white, Fraction(SCORE_OF_RESULT[g.result]), played=g.played) for g in body.games]
    results = under_the_rules(eru.rate_tournament, players, games, conditions(body))
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
                rating_games=[rating_game_out(game) for game in result.rating.games],
                seed=_seed_out(given, result),
            )
            for given, result in zip(body.players, results, strict=True)
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


# The calculator endpoints, mounted under /v1/calc from the registry (app/api/calculators.py).
ENDPOINTS = (
    Calculator(
        path="/eru/norms",
        operation_id="calc_eru_norms",
        doc="""Estonian norms of one player in one tournament

        The points he needs against these opponents to keep his rank and to rise one or two ranks, his
        score, his new rank and the reason, under the Estonian kyu/dan system (text 003). Each game adds
        the percentage for the opponent's rank relative to his (ERU 4.3; INTERPRETATIONS 4.3), and each
        norm is the sum rounded up to the half point (INTERPRETATIONS 4.2). He gets the highest rank whose
        norm he reached and whose conditions the tournament meets (ERU 4.5; INTERPRETATIONS 4.5); below
        the keep norm he drops one rank. Games against unranked opponents are left out; with fewer than
        7 games against ranked opponents there is no evaluation (INTERPRETATIONS 4.6, 4.7). Nothing is
        stored; no key is needed.""",
        request_model=schemas.EruNormsIn,
        response_model=schemas.EruNormsOut,
        function=norms,
        request_examples=examples.ERU_NORMS_REQUESTS,
        response_examples=examples.ERU_NORMS_EXAMPLES,
        within_budget=False,
        website=WebsiteForm(
            slug="eru-norms",
            title="Estonian norms: one player in one tournament",
            about="Text 003: each game's percentage of each norm (ERU 4.3), the norms, the new rank and why.",
        ),
    ),
    Calculator(
        path="/eru/tournament",
        operation_id="calc_eru_tournament",
        doc="""Estonian ranks and ratings of a whole tournament

        Every player's norms, new rank and reason, as `POST /v1/calc/eru/norms` computes them from his
        games, and his Estonian rating before and after: each game's change read from the RIF appendix
        table at the start ratings, which hold for the whole tournament, then added up (ERU 4.9;
        INTERPRETATIONS 4.9). A player without an Estonian rating starts from his RIF rating, a new player
        without either gets his first rating, 1500 plus the referee's bonus (ERU 4.10; INTERPRETATIONS
        4.10). Only face-to-face tournaments in the ERU calendar with at least 15 minutes move the rating.
        Nothing is stored; no key is needed. At most 500 players and 10,000 games.""",
        request_model=schemas.EruTournamentIn,
        response_model=schemas.EruTournamentOut,
        function=tournament,
        request_examples=examples.ERU_TOURNAMENT_REQUESTS,
        response_examples=examples.ERU_TOURNAMENT_EXAMPLES,
    ),
)


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
        games=[norm_game_out(game) for game in evaluation.games],
    )


def norm_game_out(game: eru.GameNormPercentages) -> schemas.EruNormGameOut:
    return schemas.EruNormGameOut(
        opponent_rank=None if game.opponent_rank is None else schemas.EruRank(eru.rank_name(game.opponent_rank)),
        score=float(game.score),
        counted=game.counted,
        keep=game.keep,
        up1=game.up1,
        up2=game.up2,
    )


def rating_game_out(game: eru.RatingGame) -> schemas.EruRatingGameOut:
    return schemas.EruRatingGameOut(
        opponent=game.opponent,
        score=float(game.score),
        opponent_rating=game.opponent_rating,
        difference=game.difference,
        change=game.change,
    )


def _seed_out(given: schemas.EruPlayerIn, result: eru.PlayerResult) -> schemas.EruSeedOut:
    """The player as the list's replay leaves him after this tournament (its ``_State.after``): the
    rank once a tournament evaluates him (INTERPRETATIONS 4.6, 4.8, 4.13), the Estonian rating once he
    has one (ERU 4.10)."""
    evaluated = result.rank_before is not None or result.norms.decision is not eru.Decision.NOT_EVALUATED
    rank = eru.rank_name(result.rank_after) if evaluated else None
    first_rank = None if evaluated else given.first_rank
    moved = result.rating.rating_after is not None
    estonian = result.rating.rating_after if moved else given.estonian_rating
    bonus = False if moved else given.rating_bonus
    if estonian is not None:
        rating, status = estonian, "estonian"
    elif given.rif_rating is not None:
        rating, status = given.rif_rating, "rif"
    else:
        rating, status = eru.FIRST_RATING, "new"
    return schemas.EruSeedOut.model_validate(
        {
            "rating": rating,
            "status": status,
            "title": rank,
            "counters": {"first_rank": first_rank, "rating_bonus": bonus and status == "new"},
        }
    )


def _bonus_errors(index: int, player: schemas.EruPlayerIn) -> list[Pointer]:
    if player.rating_bonus and (player.estonian_rating is not None or player.rif_rating is not None):
        return [
            Pointer(
                f"/players/{index}/rating_bonus", "the referee's bonus applies only to a first rating (no Estonian or RIF rating)"
            )
        ]
    return []
