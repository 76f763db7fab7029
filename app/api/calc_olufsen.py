"""Olufsen shogi calculations (text 001) and the general performance rating: nothing is stored.
Open to everyone, like every /v1/calc endpoint (docs/design.md)."""

from typing import Annotated

from fastapi import APIRouter, Body

from app.api import calc_examples as ex
from app.api.calc import BUDGET_RESPONSES, run_within_budget
from app.api.calc_examples import answers
from app.api.examples import responses
from app.schemas import calc_olufsen as schemas
from app.services import calc_olufsen as service

router = APIRouter(prefix="/v1/calc", tags=["calc"])


@router.post(
    "/olufsen/tournament",
    operation_id="calc_olufsen_tournament",
    responses={**BUDGET_RESPONSES, **responses(answers(ex.OLUFSEN_REQUESTS, ex.OLUFSEN_ANSWERS))},
)
async def calc_olufsen_tournament(
    body: Annotated[schemas.OlufsenTournamentIn, Body(openapi_examples=ex.OLUFSEN_REQUESTS)],
) -> schemas.OlufsenTournamentOut:
    """Rate one table under the Olufsen shogi rules

    One table (a tournament, or the part of one rated at once) under text 001. Established and
    provisional players are rated against their opponents' ratings after the table, so the table is a
    set of simultaneous equations, solved until no rating moves by 1e-9 (001 (8), INTERPRETATIONS 2.7).
    Unrated players get their performance rating over their recorded results and this table (001 (6));
    a provisional player's change is multiplied by 18/n (001 (9)), a game against a player with fewer
    than 18 games is reduced (001 (10)), a large gain earns the bonus of 001 (11) up to the performance
    rating, and grades are awarded by the bounds and streaks of 001 (12). Each player's change is
    rounded once (INTERPRETATIONS 2.1).

    Send each player's `state` from the answer, unchanged, as his input for his next table. At most
    16 rated games per player (001 (13)): a longer table must be split. Nothing is stored; no key is
    needed."""
    return await run_within_budget(service.tournament, body)


@router.post(
    "/performance",
    operation_id="calc_performance",
    responses=responses(answers(ex.PERFORMANCE_REQUESTS, ex.PERFORMANCE_ANSWERS)),
)
def calc_performance(
    body: Annotated[schemas.PerformanceIn, Body(openapi_examples=ex.PERFORMANCE_REQUESTS)],
) -> schemas.PerformanceOut:
    """Performance rating of a set of results

    The rating at which rating these results would change nothing: the single P whose expected score
    against the opponents equals the score (001 (5), INTERPRETATIONS 2.4), every game weighted
    equally. `base` and `scale` make it serve any Elo-type system: 10 and 400 (the default) for the
    Olufsen rules, 2 and 120 for RIF Elo. It does not exist at a score of 0 % or 100 %: those are a
    422. Nothing is stored; no key is needed."""
    return service.performance(body)
