"""``Idempotency-Key`` on POST /v1/tournaments: a replay gets the first response; the same key with
another body is a 422 (DESIGN.md)."""

import hashlib
import json
from dataclasses import dataclass

from sqlalchemy.orm import Session

from app.models import IdempotencyRecord
from app.problems import IdempotencyKeyReused


@dataclass(frozen=True)
class StoredResponse:
    status_code: int
    body: dict
    location: str | None


def request_fingerprint(payload: object) -> str:
    canonical = json.dumps(payload, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(canonical.encode()).hexdigest()


def scoped_key(caller: str, key: str) -> str:
    # Keys are scoped to the API key's name: two clients cannot see each other's responses. Stored as
    # a digest so that any key name plus a 200-character header fits the 200-character column.
    return hashlib.sha256(f"{caller}:{key}".encode()).hexdigest()


def find_replay(session: Session, key: str, fingerprint: str) -> StoredResponse | None:
    record = session.get(IdempotencyRecord, key)
    if record is None:
        return None
    if record.request_hash != fingerprint:
        raise IdempotencyKeyReused(
            "This Idempotency-Key was used before with a different request body; use a new key for a new request."
        )
    return StoredResponse(record.status_code, record.response, record.location)


def remember(session: Session, key: str, fingerprint: str, response: StoredResponse) -> None:
    session.add(
        IdempotencyRecord(
            key=key,
            request_hash=fingerprint,
            status_code=response.status_code,
            response=response.body,
            location=response.location,
        )
    )
    session.flush()
