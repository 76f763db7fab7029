"""Olufsen shogi calculations (text 001) and the general performance rating: nothing is stored.
Open to everyone, like every /v1/calc endpoint (docs/design.md)."""

from fastapi import APIRouter

from app.api.calc import BUDGET_RESPONSES, run_within_budget
from app.schemas import calc_olufsen as schemas
from app.services import calc_olufsen as service

router = APIRouter(prefix="/v1/calc", tags=["calc"])


@router.post("/olufsen/tournament", operation_id="calc_olufsen_tournament", responses=BUDGET_RESPONSES)
async def calc_olufsen_tournament(body: schemas.OlufsenTournamentIn) -> schemas.OlufsenTournamentOut:
    """One table under the Olufsen shogi rules (001): ratings against post-event ratings solved as
    simultaneous equations, unrated players by performance, 18/n, the per-game factor, the bonus and
    its cap, and grades with their promotion streaks. Each player's `state` is his input for the next
    table."""
    return await run_within_budget(service.tournament, body)


@router.post("/performance", operation_id="calc_performance")
def calc_performance(body: schemas.PerformanceIn) -> schemas.PerformanceOut:
    """The performance rating of a set of results (001 (5)): the rating at which rating them changes
    nothing. Base and scale make it usable for any Elo-type system (RIF: base 2, scale 120). Not
    defined at 0 % or 100 % (422)."""
    return service.performance(body)
