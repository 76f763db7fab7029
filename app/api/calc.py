"""Stateless calculations: nothing is stored. Open to everyone (docs/design.md), so each request's work
is bounded: the schemas cap players and games, the body size has its own limit under /v1/calc/,
at most ``calc_max_concurrent`` calculations run at once, and one that runs past the time budget
is answered with a problem instead of holding the caller."""

import asyncio
import threading
import time
from collections.abc import Callable
from functools import cache
from typing import Annotated, TypeVar

from fastapi import APIRouter, Body

from app.api import calc_examples as ex
from app.api.calc_examples import answers
from app.api.examples import responses
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


@router.post(
    "/rif-elo/game",
    operation_id="calc_rif_elo_game",
    responses=responses(answers(ex.ELO_GAME_REQUESTS, ex.ELO_GAME_ANSWERS)),
)
async def calc_rif_elo_game(
    body: Annotated[schemas.EloGameIn, Body(openapi_examples=ex.ELO_GAME_REQUESTS)],
) -> schemas.EloGameOut:
    """Rate one game under RIF Elo

    The player's expected score We = 1/(1 + 2^((opponent − rating)/120)) and his change
    32(W − We), rounded to the nearest integer, halves away from zero: the rules of 1995 (#6, #7 with
    one game) and of 1997 (#8) agree on a single game. The opponent's change is the negative of the
    player's. Nothing is stored; no key is needed."""
    return service.elo_game(body)


@router.get("/rif-elo/table", operation_id="get_rif_elo_table", responses=responses(ex.APPENDIX_TABLE_ANSWERS))
async def get_rif_elo_table() -> schemas.AppendixTable:
    """The RIF Elo appendix table (GA 1995)

    The change of one game for each band of rating difference, as the appendix of the 1995 rules
    prints it "for an estimation", but computed from the formula, which decides (INTERPRETATIONS
    1.4): the formula and the print differ only at differences 718 to 724, where the table's row
    522–724 is split. R1 is the higher-rated player, R2 the lower-rated one; the other player loses
    what the row's winner (or, in a draw, R2) gains (INTERPRETATIONS 1.5)."""
    return _appendix()


@cache
def _appendix() -> schemas.AppendixTable:
    """The table depends on nothing but the formula: computed once per process."""
    return service.appendix()


@router.post(
    "/rif-1995/tournament",
    operation_id="calc_rif_1995_tournament",
    responses={**BUDGET_RESPONSES, **responses(answers(ex.RIF_1995_REQUESTS, ex.RIF_1995_ANSWERS))},
)
async def calc_rif_1995_tournament(
    body: Annotated[schemas.Rif1995TournamentIn, Body(openapi_examples=ex.RIF_1995_REQUESTS)],
) -> schemas.CalcResult1995:
    """Rate one tournament under RIF Elo of 1995/1996

    Each player's change F = 32(Et − Ee), where Ee comes from the game-weighted mean of his
    opponents' ratings (#6, #7; INTERPRETATIONS 1.1, 1.2), rounded once for the tournament. A new
    player gets a start rating R0 from his games against players who had one (#8), inside the interval
    of #8.b; from 1996 on he gets none without a point against official players (#8.c, waived for
    tournaments before 1996 by the 1996 Assembly). New players are rated first, and their R0 counts
    for the others (#8.d).

    Give `end` or `before_1996`: they decide whether #8.c applies (422 at `/end` without either).
    Official and unofficial players need `rating`; new players must have none. Nothing is stored; no
    key is needed. At most 1,000 players and 10,000 games."""
    return await run_within_budget(service.rif_1995, body)


@router.post(
    "/rif-1997/tournament",
    operation_id="calc_rif_1997_tournament",
    responses={**BUDGET_RESPONSES, **responses(answers(ex.RIF_1997_REQUESTS, ex.RIF_1997_ANSWERS))},
)
async def calc_rif_1997_tournament(
    body: Annotated[schemas.Rif1997TournamentIn, Body(openapi_examples=ex.RIF_1997_REQUESTS)],
) -> schemas.CalcResult1997:
    """Rate one event under RIF Elo of 1997

    Every game is rated from the ratings held at the event's start (#8); each established player's
    unrounded per-game changes are added and the sum rounded once (INTERPRETATIONS 1.3). An
    established player's games against provisional players do not count for him (#6, #9). A
    provisional player carries a record of his games against established players and gets
    Rp = Ra + 400(W − L)/N, at most Ra + 300 (#7); he becomes established after at least 10 such games
    and 3 points (#5), with Rp as his rating. Send each provisional player's `record_after` back as
    his `record` for his next event.

    Established players need `rating`. Nothing is stored; no key is needed. At most 1,000 players and
    10,000 games."""
    return await run_within_budget(service.rif_1997, body)


@router.post(
    "/whr",
    operation_id="calc_whr",
    responses={**BUDGET_RESPONSES, **responses(answers(ex.WHR_REQUESTS, ex.WHR_ANSWERS))},
)
async def calc_whr(body: Annotated[schemas.WhrCalcIn, Body(openapi_examples=ex.WHR_REQUESTS)]) -> schemas.WhrCalcOut:
    """Rate games by Whole-History Rating

    The RIF rating from 2021 (text 002, which adopts Coulom's Whole-History Rating) over the request's
    games alone: every player's rating and deviation on each day he played, the most probable set of
    ratings given all the games at once, converged until no rating moves by 1e-6 or more
    (INTERPRETATIONS 3.1–3.4). Every player has virtual draws on his first day (by default two,
    against a 1900-rated opponent: `params`), which are not rated games. Ratings and deviations are unrounded, on the Elo scale. Nothing is
    stored; no key is needed. At most 20,000 games."""
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
