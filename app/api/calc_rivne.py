"""The Rivne Go club rating of one tournament (text 004). Stateless: nothing is stored."""

from typing import Annotated

from fastapi import APIRouter, Body

from app.api import calc_examples as ex
from app.api.calc import BUDGET_RESPONSES, run_within_budget
from app.api.calc_examples import answers
from app.api.examples import responses
from app.schemas import calc_rivne as schemas
from app.services import calc_rivne as service

router = APIRouter(prefix="/v1/calc", tags=["calc"])


@router.post(
    "/rivne/tournament",
    operation_id="calc_rivne_tournament",
    responses={**BUDGET_RESPONSES, **responses(answers(ex.RIVNE_REQUESTS, ex.RIVNE_ANSWERS))},
)
async def calc_rivne_tournament(
    body: Annotated[schemas.RivneTournamentIn, Body(openapi_examples=ex.RIVNE_REQUESTS)],
) -> schemas.RivneTournamentOut:
    """Rate one Go tournament under the Rivne club rating

    Text 004, round by round: the expected result uses the ratings declared before the tournament,
    while the factors a, K1 and K2 use each player's rating after the previous round; the games of one
    round count as simultaneous (INTERPRETATIONS 5.1). The board size scales a game by Kd, the handicap
    by Kf and RA# (INTERPRETATIONS 5.5, 5.6), and players below 100 follow their own tables
    (INTERPRETATIONS 5.8–5.10). In a tournament without handicap games, anomalous results are checked
    by formula (8): the anomalous players restart from their previous result and the tournament is
    computed again, until no result is anomalous (at most 50 passes, INTERPRETATIONS 5.7). Ratings
    stay fractional; `rating_after_display` is rounded for display. Nothing is stored; no key is
    needed. At most 2,000 players and 20,000 games."""
    return await run_within_budget(service.rate_tournament, body)
