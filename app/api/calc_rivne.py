"""The Rivne Go club rating of one tournament (text 004). Stateless: nothing is stored."""

from fastapi import APIRouter

from app.api.calc import BUDGET_RESPONSES, run_within_budget
from app.schemas import calc_rivne as schemas
from app.services import calc_rivne as service

router = APIRouter(prefix="/v1/calc", tags=["calc"])


@router.post("/rivne/tournament", operation_id="calc_rivne_tournament", responses=BUDGET_RESPONSES)
async def calc_rivne_tournament(body: schemas.RivneTournamentIn) -> schemas.RivneTournamentOut:
    """One Go tournament under the Rivne club rating: round by round (ΔR from the declared start ratings,
    a, K1 and K2 from the ratings after the previous round), board size Kd, handicap Kf and RA#, players
    below 100, and the anomaly check (8) repeated until no result is anomalous (at most 50 passes)."""
    return await run_within_budget(service.rate_tournament, body)
