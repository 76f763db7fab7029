"""Stateless calculations: nothing is stored. Open to everyone (DESIGN.md)."""

from functools import cache

from fastapi import APIRouter

from app.schemas import calc as schemas
from app.services import calc as service

router = APIRouter(prefix="/v1/calc", tags=["calc"])


# The two small calculations take microseconds, so they run on the event loop (`async def`): a
# plain `def` would send the endpoint and then its response validation to the thread pool, two
# thread hops that cost more than the calculation. The tournament and WHR calculations can take
# long on large requests and stay in the thread pool.


@router.post("/rif-elo/game", operation_id="calc_rif_elo_game")
async def calc_rif_elo_game(body: schemas.EloGameIn) -> schemas.EloGameOut:
    """One game under RIF Elo (1995 #6/#7 with N = 1; 1997 #8): the expected score and the change,
    32(W − We) rounded half away from zero. Nothing is stored; no key needed."""
    return service.elo_game(body)


@router.get("/rif-elo/table", operation_id="get_rif_elo_table")
async def get_rif_elo_table() -> schemas.AppendixTable:
    """The appendix table of GA 1995 (change per game by band of rating difference), computed from
    the formula rather than copied."""
    return _appendix()


@cache
def _appendix() -> schemas.AppendixTable:
    """The table depends on nothing but the formula: computed once per process."""
    return service.appendix()


@router.post("/rif-1995/tournament", operation_id="calc_rif_1995_tournament")
def calc_rif_1995_tournament(body: schemas.Rif1995TournamentIn) -> schemas.CalcResult1995:
    """One tournament under GA 1995/1996: F = 32(Et − Ee) from the average opponent; new players' R0 (#8).
    Give `end` or `before_1996`; official and unofficial players need `rating`, new ones none."""
    return service.rif_1995(body)


@router.post("/rif-1997/tournament", operation_id="calc_rif_1997_tournament")
def calc_rif_1997_tournament(body: schemas.Rif1997TournamentIn) -> schemas.CalcResult1997:
    """One event under GA 1997: per-game Rc summed and rounded once; provisional players' Rp from
    their running record (#5–#7). Established players need `rating`."""
    return service.rif_1997(body)


@router.post("/whr", operation_id="calc_whr")
def calc_whr(body: schemas.WhrCalcIn) -> schemas.WhrCalcOut:
    """Whole-History Rating (RIF 2021) over the request's games alone, converged to the optimum:
    every player's rating and deviation on each day he played."""
    return service.whr_history(body)
