"""The Estonian kyu/dan norms and rating calculators (text 003). Stateless and open to everyone."""

from fastapi import APIRouter

from app.api.calc import BUDGET_RESPONSES, run_within_budget
from app.schemas import calc_eru as schemas
from app.services import calc_eru as service

router = APIRouter(prefix="/v1/calc", tags=["calc"])


@router.post("/eru/norms", operation_id="calc_eru_norms", summary="Estonian norms of one player in one tournament")
def calc_eru_norms(body: schemas.EruNormsIn) -> schemas.EruNormsOut:
    """Estonian norms for one player in one tournament: the points he needs to keep his rank and to rise
    one or two ranks against these opponents, his score, his new rank and the reason (ERU kyu/dan system).
    Games against unranked opponents are left out; fewer than 7 counted games are not evaluated."""
    return service.norms(body)


@router.post(
    "/eru/tournament",
    operation_id="calc_eru_tournament",
    summary="Estonian ranks and ratings of a whole tournament",
    responses=BUDGET_RESPONSES,
)
async def calc_eru_tournament(body: schemas.EruTournamentIn) -> schemas.EruTournamentOut:
    """A whole tournament under the Estonian system: every player's norms, new rank and reason, and his
    Estonian rating before and after (the table per game at the start rating; a newcomer's first rating)."""
    return await run_within_budget(service.tournament, body)
