"""The Estonian kyu/dan norms and rating calculators (text 003). Stateless and open to everyone."""

from typing import Annotated

from fastapi import APIRouter, Body

from app.api import calc_examples as ex
from app.api.calc import BUDGET_RESPONSES, run_within_budget
from app.api.calc_examples import answers
from app.api.examples import responses
from app.schemas import calc_eru as schemas
from app.services import calc_eru as service

router = APIRouter(prefix="/v1/calc", tags=["calc"])


@router.post(
    "/eru/norms",
    operation_id="calc_eru_norms",
    responses=responses(answers(ex.ERU_NORMS_REQUESTS, ex.ERU_NORMS_ANSWERS)),
)
def calc_eru_norms(body: Annotated[schemas.EruNormsIn, Body(openapi_examples=ex.ERU_NORMS_REQUESTS)]) -> schemas.EruNormsOut:
    """Estonian norms of one player in one tournament

    The points he needs against these opponents to keep his rank and to rise one or two ranks, his
    score, his new rank and the reason, under the Estonian kyu/dan system (text 003). Each game adds
    the percentage for the opponent's rank relative to his (ERU 4.3; INTERPRETATIONS 4.3), and each
    norm is the sum rounded up to the half point (INTERPRETATIONS 4.2). He gets the highest rank whose
    norm he reached and whose conditions the tournament meets (ERU 4.5; INTERPRETATIONS 4.5); below
    the keep norm he drops one rank. Games against unranked opponents are left out; with fewer than
    7 games against ranked opponents there is no evaluation (INTERPRETATIONS 4.6, 4.7). Nothing is
    stored; no key is needed."""
    return service.norms(body)


@router.post(
    "/eru/tournament",
    operation_id="calc_eru_tournament",
    responses={**BUDGET_RESPONSES, **responses(answers(ex.ERU_TOURNAMENT_REQUESTS, ex.ERU_TOURNAMENT_ANSWERS))},
)
async def calc_eru_tournament(
    body: Annotated[schemas.EruTournamentIn, Body(openapi_examples=ex.ERU_TOURNAMENT_REQUESTS)],
) -> schemas.EruTournamentOut:
    """Estonian ranks and ratings of a whole tournament

    Every player's norms, new rank and reason, as `POST /v1/calc/eru/norms` computes them from his
    games, and his Estonian rating before and after: each game's change read from the RIF appendix
    table at the start ratings, which hold for the whole tournament, then added up (ERU 4.9;
    INTERPRETATIONS 4.9). A player without an Estonian rating starts from his RIF rating, a new player
    without either gets his first rating, 1500 plus the referee's bonus (ERU 4.10; INTERPRETATIONS
    4.10). Only face-to-face tournaments in the ERU calendar with at least 15 minutes move the rating.
    Nothing is stored; no key is needed. At most 500 players and 10,000 games."""
    return await run_within_budget(service.tournament, body)
