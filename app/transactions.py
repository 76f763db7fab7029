"""Running a request's unit of work to its commit, and which database errors are worth a re-run.

A write endpoint calls ``run_in_transaction``: the work and the commit run together, so the
response it builds is sent only once the commit succeeded. Transient failures (a deadlock, a
serialization failure, a busy SQLite file) and integrity errors are re-run a bounded number of
times: on the re-run the service's own checks see what the other transaction committed and give the
precise answer (409 "this tournament exists", the idempotent replay, 422 "unknown player").
Whatever is left becomes a problem+json 409 / 422 / 503, never a 500, but for a statement that can
never succeed (over a parameter limit): a 500 that is logged, since a 503 would tell the client to retry
(``app.problems.problem_for``). This module knows nothing of HTTP: the problems module imports it,
not the other way round.
"""

import logging
import random
import time
from collections.abc import Callable
from typing import TypeVar

from sqlalchemy.exc import DBAPIError, IntegrityError, OperationalError
from sqlalchemy.orm import Session

log = logging.getLogger("app.transactions")
T = TypeVar("T")

SERIALIZATION_FAILURE, DEADLOCK_DETECTED, LOCK_NOT_AVAILABLE = "40001", "40P01", "55P03"


def run_in_transaction(session: Session, work: Callable[[], T], *, attempts: int) -> T:
    """Run ``work`` and commit; re-run it after a transient failure, at most ``attempts`` times."""
    for attempt in range(1, attempts + 1):
        try:
            result = work()
            session.commit()
            return result
        except DBAPIError as error:
            session.rollback()
            if attempt == attempts or not is_worth_retrying(error):
                raise
            log.info("transaction re-run", extra={"attempt": attempt, "reason": type(error.orig).__name__})
            # A little random back-off, so that transactions which collided do not collide again.
            time.sleep(random.uniform(0.005, 0.05) * attempt)
        except BaseException:
            session.rollback()
            raise
    raise AssertionError("unreachable: the last attempt returns or raises")


def is_worth_retrying(error: DBAPIError) -> bool:
    if isinstance(error, IntegrityError):
        return True
    state = sqlstate(error)
    if state in (SERIALIZATION_FAILURE, DEADLOCK_DETECTED):
        return True
    return isinstance(error, OperationalError) and _sqlite_busy(error)


def sqlstate(error: DBAPIError) -> str | None:
    return getattr(error.orig, "sqlstate", None)


# Operational errors that a retry cannot cure (the statement itself exceeds a limit of the driver or
# database); the rest of OperationalError (a lost connection, a stopped server, a busy file) is transient.
PERMANENT_MESSAGES = ("number of parameters must be between", "too many sql variables", "string or blob too big")


def is_permanent(error: DBAPIError) -> bool:
    """An operational error no retry can cure: the statement itself exceeds a limit."""
    message = str(error.orig).lower()
    return isinstance(error, OperationalError) and any(text in message for text in PERMANENT_MESSAGES)


def _sqlite_busy(error: OperationalError) -> bool:
    message = str(error.orig).lower()
    return "database is locked" in message or "database table is locked" in message
