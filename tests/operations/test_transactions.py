"""The transaction runner: transient database failures are re-run a bounded number of times, and
what is left is the right problem (409 / 422 / 503), never a 500."""

import pytest
from sqlalchemy.exc import DataError, IntegrityError, OperationalError, ProgrammingError

from app import db
from app.problems import Conflict, InvalidInput, Problem, ServiceUnavailable, problem_for
from app.transactions import run_in_transaction


class DriverError(Exception):
    def __init__(self, message: str, sqlstate: str | None = None) -> None:
        super().__init__(message)
        self.sqlstate = sqlstate


DEADLOCK = OperationalError("INSERT", {}, DriverError("deadlock detected", "40P01"))
SERIALIZATION = OperationalError("UPDATE", {}, DriverError("could not serialize access", "40001"))
SQLITE_BUSY = OperationalError("INSERT", {}, DriverError("database is locked"))
UNIQUE = IntegrityError("INSERT", {}, DriverError("duplicate key value violates unique constraint", "23505"))


@pytest.mark.parametrize(
    "transient", [DEADLOCK, SERIALIZATION, SQLITE_BUSY, UNIQUE], ids=["deadlock", "serialization", "sqlite-busy", "unique"]
)
def test_a_transient_failure_is_run_again(transient):
    calls = []

    def work() -> str:
        calls.append(1)
        if len(calls) < 3:
            raise transient
        return "done"

    with db.session_scope() as session:
        assert run_in_transaction(session, work, attempts=3) == "done"
    assert len(calls) == 3


def test_attempts_are_bounded_and_the_last_error_is_a_503():
    calls = []

    def work() -> None:
        calls.append(1)
        raise DEADLOCK

    with db.session_scope() as session, pytest.raises(OperationalError) as raised:
        run_in_transaction(session, work, attempts=4)
    assert len(calls) == 4
    problem = problem_for(raised.value)
    assert isinstance(problem, ServiceUnavailable) and problem.headers["Retry-After"]


def test_a_problem_is_not_run_again():
    calls = []

    def work() -> None:
        calls.append(1)
        raise Conflict("exists")

    with db.session_scope() as session, pytest.raises(Conflict):
        run_in_transaction(session, work, attempts=5)
    assert len(calls) == 1


@pytest.mark.parametrize(
    ("error", "problem_class", "status"),
    [
        (UNIQUE, Conflict, 409),
        (IntegrityError("INSERT", {}, DriverError("violates foreign key constraint", "23503")), InvalidInput, 422),
        (OperationalError("INSERT", {}, DriverError("canceling statement due to lock timeout", "55P03")), Conflict, 409),
        (DataError("INSERT", {}, DriverError("integer out of range", "22003")), InvalidInput, 422),
        (OperationalError("SELECT", {}, DriverError("connection refused")), ServiceUnavailable, 503),
        (ProgrammingError("SELECT", {}, DriverError("syntax error", "42601")), Problem, 500),
    ],
)
def test_database_errors_become_problems(error, problem_class, status):
    problem = problem_for(error)
    assert type(problem) is problem_class and problem.status == status
