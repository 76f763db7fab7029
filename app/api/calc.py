"""Stateless calculations: nothing is stored. Open to everyone (docs/design.md), so each request's work
is bounded: the schemas cap players and games, the body size has its own limit under /v1/calc/,
at most ``calc_max_concurrent`` calculations run at once, and one that runs past the time budget
is answered with a problem instead of holding the caller."""

import asyncio
import threading
import time
from collections.abc import Callable
from functools import cache
from typing import TypeVar

from fastapi import APIRouter

from app.problems import FieldError, InvalidInput, ServiceUnavailable
from app.schemas import calc as schemas
from app.services import calc as service
from app.settings import get_settings

router = APIRouter(prefix="/v1/calc", tags=["calc"])
T = TypeVar("T")
BUDGET_RESPONSES = {
    413: {"description": "The body is larger than the calc endpoints' limit"},
    422: {"description": "Invalid input, or the calculation ran past the time budget"},
    503: {"description": "Too many calculations at once; retry after Retry-After seconds"},
}


# The two small calculations take microseconds, so they run on the event loop (`async def`): a
# plain `def` would send the endpoint and then its response validation to the thread pool, two
# thread hops that cost more than the calculation. The tournament and WHR calculations can take
# long on large requests: each runs in a thread of its own, within the slots and the time budget.


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


@router.post("/rif-1995/tournament", operation_id="calc_rif_1995_tournament", responses=BUDGET_RESPONSES)
async def calc_rif_1995_tournament(body: schemas.Rif1995TournamentIn) -> schemas.CalcResult1995:
    """One tournament under GA 1995/1996: F = 32(Et − Ee) from the average opponent; new players' R0 (#8).
    Give `end` or `before_1996`; official and unofficial players need `rating`, new ones none."""
    return await run_within_budget(service.rif_1995, body)


@router.post("/rif-1997/tournament", operation_id="calc_rif_1997_tournament", responses=BUDGET_RESPONSES)
async def calc_rif_1997_tournament(body: schemas.Rif1997TournamentIn) -> schemas.CalcResult1997:
    """One event under GA 1997: per-game Rc summed and rounded once; provisional players' Rp from
    their running record (#5–#7). Established players need `rating`."""
    return await run_within_budget(service.rif_1997, body)


@router.post("/whr", operation_id="calc_whr", responses=BUDGET_RESPONSES)
async def calc_whr(body: schemas.WhrCalcIn) -> schemas.WhrCalcOut:
    """Whole-History Rating (RIF 2021) over the request's games alone, converged to the optimum:
    every player's rating and deviation on each day he played."""
    return await run_within_budget(service.whr_history, body)


# Held by a calculation's thread from its start to its very end, also when its caller has been
# answered already: the CPU given to calculations stays bounded whatever the callers do.
_slots: threading.BoundedSemaphore | None = None
_slots_guard = threading.Lock()


async def run_within_budget(calculation: Callable[..., T], body: object) -> T:
    settings = get_settings()
    slots = _calculation_slots(settings.calc_max_concurrent)
    waited_until = time.monotonic() + settings.calc_queue_seconds
    while not slots.acquire(blocking=False):
        if time.monotonic() > waited_until:
            raise ServiceUnavailable(
                f"{settings.calc_max_concurrent} calculations are running; retry shortly.", headers={"Retry-After": "2"}
            )
        await asyncio.sleep(0.02)

    # A thread of its own, started here, so that the slot it holds is released whatever happens to
    # the request (a pooled thread's task could be dropped unstarted when the caller is cancelled).
    loop = asyncio.get_running_loop()
    outcome: asyncio.Future[T] = loop.create_future()

    def deliver(result: T | None, error: BaseException | None) -> None:
        if outcome.done():
            return  # the caller was answered already (past the budget)
        if error is not None:
            outcome.set_exception(error)
        else:
            outcome.set_result(result)  # type: ignore[arg-type]

    def run() -> None:
        try:
            result, error = calculation(body), None
        except BaseException as failure:  # noqa: BLE001 - handed to the request's task
            result, error = None, failure
        finally:
            slots.release()
        try:
            loop.call_soon_threadsafe(deliver, result, error)
        except RuntimeError:  # the server stopped meanwhile: nobody is waiting
            pass

    threading.Thread(target=run, name="calculation", daemon=True).start()
    try:
        return await asyncio.wait_for(asyncio.shield(outcome), settings.calc_time_budget_seconds)
    except TimeoutError:
        raise InvalidInput(
            f"The calculation ran past the time budget of {settings.calc_time_budget_seconds:g} s; send fewer games or players.",
            [FieldError("/games", "too much work for one request")],
        ) from None


def _calculation_slots(size: int) -> threading.BoundedSemaphore:
    global _slots
    with _slots_guard:
        if _slots is None:
            _slots = threading.BoundedSemaphore(size)
        return _slots
