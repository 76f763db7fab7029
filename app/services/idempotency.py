"""``Idempotency-Key`` on POST /v1/tournaments: a replay gets the first response; the same key with
another body is a 422 (docs/design.md).

Under concurrency exactly one request does the work: ``claim`` inserts the key's record first, in
the submission's own transaction, and ``complete`` fills in the response before that transaction
commits. A second request with the same key meets the first one's uncommitted row: the database
makes it wait for the first transaction's end, and it then reads the committed response (a replay)
or, if the first rolled back, claims the key itself. Waiting is bounded (PostgreSQL's lock_timeout,
SQLite's busy timeout); a request that waits longer gets a 409 "in progress, retry".
"""

import hashlib
import json
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select, text, update
from sqlalchemy.orm import Session

from app.db import dialect_insert
from app.models import IdempotencyRecord
from app.problems import Conflict, IdempotencyKeyReused

# How long a request waits for another one holding the same key before it is told to retry.
IN_PROGRESS_WAIT = "5s"


@dataclass(frozen=True)
class StoredResponse:
    status_code: int
    body: dict[str, Any]
    location: str | None


def request_fingerprint(payload: object) -> str:
    canonical = json.dumps(payload, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(canonical.encode()).hexdigest()


def scoped_key(caller: str, key: str) -> str:
    # Keys are scoped to the API key's name: two clients cannot see each other's responses. Stored as
    # a digest so that any key name plus a 200-character header fits the 200-character column.
    return hashlib.sha256(f"{caller}:{key}".encode()).hexdigest()


def claim(session: Session, key: str, fingerprint: str) -> StoredResponse | None:
    """Take the key for this request (None: go on and do the work), or return the response of the
    request that took it before (a replay)."""
    postgres = session.get_bind().dialect.name == "postgresql"
    if postgres:
        session.execute(text(f"SET LOCAL lock_timeout = '{IN_PROGRESS_WAIT}'"))
    claimed = session.execute(
        dialect_insert(session)(IdempotencyRecord)
        .values(key=key, request_hash=fingerprint)
        .on_conflict_do_nothing(index_elements=[IdempotencyRecord.key])
        .returning(IdempotencyRecord.key)
    ).first()
    if postgres:
        session.execute(text("SET LOCAL lock_timeout = DEFAULT"))
    if claimed is not None:
        return None
    record = session.execute(select(IdempotencyRecord).where(IdempotencyRecord.key == key)).scalar_one()
    if record.request_hash != fingerprint:
        raise IdempotencyKeyReused(
            "This Idempotency-Key was used before with a different request body; use a new key for a new request."
        )
    if record.status_code is None or record.response is None:
        raise Conflict(
            "A request with this Idempotency-Key is still in progress; retry shortly to get its response.",
            headers={"Retry-After": "1"},
        )
    return StoredResponse(record.status_code, record.response, record.location)


def complete(session: Session, key: str, response: StoredResponse) -> None:
    """Store the response of the request that claimed the key, in its own transaction."""
    session.execute(
        update(IdempotencyRecord)
        .where(IdempotencyRecord.key == key)
        .values(status_code=response.status_code, response=response.body, location=response.location)
    )
