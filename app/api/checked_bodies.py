"""Routes whose refused bodies are looked through further before the 422 is answered."""

from collections.abc import Callable, Coroutine
from typing import Any

from fastapi import Request
from fastapi.concurrency import run_in_threadpool
from fastapi.exceptions import RequestValidationError
from fastapi.routing import APIRoute
from starlette.responses import Response

from app.db import session_scope
from app.problems import FieldError, pointer_parts
from app.services import tournaments as service
from app.settings import get_settings


class ReferencesCheckedRoute(APIRoute):
    """A tournament body its schema refuses is also looked through for the players its games name,
    so that the 422 names every error of the body at once, its schema's and its references' (issue 44
    item 4), not the second in the next try."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handle = super().get_route_handler()

        async def checked(request: Request) -> Response:
            try:
                return await handle(request)
            except RequestValidationError as refused:
                references = await run_in_threadpool(_reference_errors, refused.body)
                if not references:
                    raise
                located = [{"loc": ("body", *pointer_parts(e.pointer)), "msg": e.detail, "type": "reference"} for e in references]
                raise RequestValidationError([*refused.errors(), *located], body=refused.body) from None

        return checked


def _reference_errors(body: Any) -> list[FieldError]:
    if not isinstance(body, dict) or "games" not in body:
        return []  # not a tournament's body: nothing to look up
    with session_scope() as session:
        return service.reference_errors_of_refused_body(session, body, max_games=get_settings().max_games_per_tournament)
