"""Running a request's unit of work to its commit, and what a database error means to the caller.

A write endpoint calls ``run_in_transaction``: the work and the commit run together, so the
response it builds is sent only once the commit succeeded. Transient failures (a deadlock, a
serialization failure, a busy SQLite file) and integrity errors are re-run a bounded number of
times: on the re-run the service's own checks see what the other transaction committed and give the
precise answer (409 "this tournament exists", the idempotent replay, 422 "unknown player").
Whatever is left becomes a problem+json 409 / 422 / 503, never a 500, but for a statement that can
never succeed (over a parameter limit): a 500 that is logged, since a 503 would tell the client to retry.
"""

import logging
import random
import time
from collections.abc import Callable
from typing import TypeVar

from sqlalchemy.exc import DataError, DBAPIError, IntegrityError, InterfaceError, OperationalError
from sqlalchemy.orm import Session

from app.problems import Conflict, InvalidInput, Problem, ServiceUnavailable

log = logging.getLogger("app.transactions")
T = TypeVar("T")

SERIALIZATION_FAILURE, DEADLOCK_DETECTED, LOCK_NOT_AVAILABLE = "40001", "40P01", "55P03"
RETRY_AFTER_SECONDS = "1"


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


def problem_for(error: DBAPIError) -> Problem:
    """The problem response a database error that reached the request's edge stands for."""
    state = sqlstate(error)
    if isinstance(error, IntegrityError):
        if state == "23505" or "UNIQUE constraint failed" in str(error.orig):
            return Conflict("The request conflicts with data another request stored at the same time; retry it.")
        return InvalidInput("The request refers to data that does not exist or violates a constraint.")
    if state == LOCK_NOT_AVAILABLE:
        return Conflict(
            "Another request with the same Idempotency-Key (or on the same data) is still in progress; retry shortly.",
            headers={"Retry-After": RETRY_AFTER_SECONDS},
        )
    if isinstance(error, DataError):
        return InvalidInput("A value in the request cannot be stored (out of range or not representable).")
    if _permanent(error):
        # The statement can never succeed, however often it is retried: not "busy", a fault to log.
        return Problem("An unexpected database error occurred; it has been logged.")
    if isinstance(error, (OperationalError, InterfaceError)) or state in (SERIALIZATION_FAILURE, DEADLOCK_DETECTED):
        return ServiceUnavailable(
            "The database is unavailable or busy; retry shortly.", headers={"Retry-After": RETRY_AFTER_SECONDS}
        )
    return Problem("An unexpected database error occurred; it has been logged.")


def sqlstate(error: DBAPIError) -> str | None:
    return getattr(error.orig, "sqlstate", None)


# Operational errors that a retry cannot cure (the statement itself exceeds a limit of the driver or
# database); the rest of OperationalError (a lost connection, a stopped server, a busy file) is transient.
PERMANENT_MESSAGES = ("number of parameters must be between", "too many sql variables", "string or blob too big")


def _permanent(error: DBAPIError) -> bool:
    message = str(error.orig).lower()
    return isinstance(error, OperationalError) and any(text in message for text in PERMANENT_MESSAGES)


def _sqlite_busy(error: OperationalError) -> bool:
    message = str(error.orig).lower()
    return "database is locked" in message or "database table is locked" in message
