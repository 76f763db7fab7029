"""The calculators' routes (``/v1/calc/*``), built from the registry: each system declares its
endpoints as data (``Calculator`` records, app/rating/calculators.py) and this module mounts them, so
a new system's calculator needs no line here or in app/main.py.

Stateless calculations: nothing is stored. Open to everyone (docs/design.md), so each request's work
is bounded: the request models cap players and games, the body size has its own limit under
/v1/calc/, at most ``calc_max_concurrent`` calculations run at once, and one that runs past the time
budget is answered with a problem instead of holding the caller. A view only checks and delegates:
``CalculationRefused`` from a calculation is answered as a 422 problem with its pointers."""

import asyncio
import inspect
import threading
import time
from collections.abc import Awaitable, Callable
from typing import Annotated, Any, TypeVar

from fastapi import APIRouter, Body
from pydantic import BaseModel

from app.api.examples import responses
from app.problems import FieldError, InvalidInput, ServiceUnavailable
from app.rating.calculators import CalculationRefused, Calculator
from app.rating.registry import systems
from app.settings import get_settings

PREFIX = "/v1/calc"
T = TypeVar("T")
BUDGET_RESPONSES: dict[int | str, dict[str, Any]] = {
    413: {"description": "The body is larger than the calc endpoints' limit"},
    422: {"description": "Invalid input, or the calculation ran past the time budget"},
    503: {"description": "Too many calculations at once; retry after Retry-After seconds"},
}


def router(*, asked_often: bool) -> APIRouter:
    """The calculator routes of every registered system, in registry order: those ``asked_often``
    or the others (app/main.py mounts the first group before the list pages, the second after)."""
    calculators = APIRouter(prefix=PREFIX, tags=["calc"])
    for system in systems():
        for calculator in system.calculators:
            if calculator.asked_often == asked_often:
                calculators.add_api_route(
                    calculator.path,
                    _view(calculator),
                    methods=["POST" if calculator.request_model is not None else "GET"],
                    operation_id=calculator.operation_id,
                    name=calculator.operation_id,
                    description=inspect.cleandoc(calculator.doc),
                    response_model=calculator.response_model,
                    responses={
                        **(BUDGET_RESPONSES if calculator.within_budget else {}),
                        **responses(calculator.response_examples),
                    },
                )
    return calculators


def _view(calculator: Calculator) -> Callable[..., Awaitable[BaseModel]]:
    """The endpoint of one calculator: FastAPI validates the body against the request model (its
    examples documented), the calculation runs on the event loop (it takes microseconds: a thread
    hop would cost more) or within the budget in a thread of its own."""

    async def view(**arguments: Any) -> BaseModel:
        try:
            if calculator.within_budget:
                return await run_within_budget(calculator.function, *arguments.values())
            return calculator.function(*arguments.values())
        except CalculationRefused as refused:
            raise InvalidInput(refused.detail, [FieldError(e.pointer, e.detail) for e in refused.errors]) from refused

    parameters = []
    if calculator.request_model is not None:
        # The request model is known at run time only, so the annotation is built, not written.
        body = Annotated[calculator.request_model, Body(openapi_examples=calculator.request_examples)]  # type: ignore[name-defined]  # a run-time model
        parameters.append(inspect.Parameter("body", inspect.Parameter.KEYWORD_ONLY, annotation=body))
    setattr(view, "__signature__", inspect.Signature(parameters, return_annotation=calculator.response_model))  # noqa: B010
    view.__name__ = calculator.operation_id
    return view


# Held by a calculation's thread from its start to its very end, also when its caller has been
# answered already: the CPU given to calculations stays bounded whatever the callers do.
_slots: threading.BoundedSemaphore | None = None
_slots_guard = threading.Lock()


async def run_within_budget(calculation: Callable[..., T], *arguments: object) -> T:
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
            outcome.set_result(result)  # type: ignore[arg-type]  # result is a T whenever error is None

    def run() -> None:
        try:
            result, error = calculation(*arguments), None
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
