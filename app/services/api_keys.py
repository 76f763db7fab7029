"""Write keys stored in the database: created, listed and revoked with ``python -m app.cli keys``,
looked up when a request presents one (app.security). Nothing here commits.

A key's secret is ``secrets.token_urlsafe(32)``: 256 random bits. Only its SHA-256 digest is
stored. A slow password hash (bcrypt, scrypt, argon2) protects secrets that people choose and that
can be guessed; a random 256-bit token cannot be guessed, so a fast digest loses nothing, and it
lets a request find its key by digest through the unique index instead of hashing slowly on every
write (docs/decisions.md 7.18)."""

import datetime as dt
import hashlib
import hmac
import re
import secrets
from dataclasses import dataclass
from typing import Final, Literal, get_args

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.models import ApiKey, RatingList
from app.schemas.tournaments import Category

Role = Literal["organiser", "officer"]
ORGANISER: Final = "organiser"
OFFICER: Final = "officer"
ROLES: tuple[str, ...] = get_args(Role)
CATEGORIES: tuple[str, ...] = get_args(Category)
# Key names are the ``actor`` of the audit trail and its ``key`` filter: short, printable, no
# separators of RATING_API_KEYS (``name:secret,…``).
NAME_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9._@-]{0,99}")
SECRET_BYTES = 32


class KeyRefused(ValueError):
    """A key operation that cannot be done, said in one line."""


@dataclass(frozen=True)
class CreatedKey:
    key: ApiKey
    secret: str


def digest(secret: str) -> str:
    """The stored form of a secret: its SHA-256, hex."""
    return hashlib.sha256(secret.encode()).hexdigest()


def create_key(
    session: Session,
    name: str,
    role: str,
    *,
    lists: list[str] | None = None,
    categories: list[str] | None = None,
    reserved_names: frozenset[str] = frozenset(),
) -> CreatedKey:
    """A new key with a fresh secret, which the caller shows once: only its digest is stored."""
    lists, categories = sorted(set(lists or [])), sorted(set(categories or []))
    if not NAME_PATTERN.fullmatch(name):
        raise KeyRefused(
            f"invalid key name {name!r}: 1 to 100 letters, digits, '.', '_', '@' or '-', starting with a letter or digit"
        )
    if role not in ROLES:
        raise KeyRefused(f"unknown role {role!r}: one of {', '.join(ROLES)}")
    if role == ORGANISER and (lists or categories):
        raise KeyRefused("--lists and --categories limit officers only; an organiser changes only what it submitted")
    if name in reserved_names:
        raise KeyRefused(f"the name {name!r} is taken (a key in RATING_API_KEYS, or the importer's)")
    if session.get(ApiKey, name) is not None:
        raise KeyRefused(f"a key named {name!r} exists already (names are never reused, even after a revoke)")
    unknown = [c for c in categories if c not in CATEGORIES]
    if unknown:
        raise KeyRefused(f"unknown categories {', '.join(unknown)}: known are {', '.join(CATEGORIES)}")
    known_lists = set(session.scalars(select(RatingList.id)))
    unknown = [list_id for list_id in lists if list_id not in known_lists]
    if unknown:
        raise KeyRefused(f"unknown rating lists {', '.join(unknown)}: known are {', '.join(sorted(known_lists))}")
    secret = secrets.token_urlsafe(SECRET_BYTES)
    key = ApiKey(name=name, digest=digest(secret), role=role, lists=lists, categories=categories, created_at=_now())
    session.add(key)
    session.flush()
    return CreatedKey(key, secret)


def list_keys(session: Session) -> list[ApiKey]:
    return list(session.scalars(select(ApiKey).order_by(ApiKey.name)))


def revoke_key(session: Session, name: str) -> ApiKey:
    key = session.get(ApiKey, name, with_for_update=True)
    if key is None:
        raise KeyRefused(f"no key named {name!r} is stored (keys from RATING_API_KEYS are removed from the environment)")
    if key.revoked_at is not None:
        raise KeyRefused(f"the key {name!r} was revoked already, at {key.revoked_at:%Y-%m-%d %H:%M:%S}")
    key.revoked_at = _now()
    session.flush()
    return key


def find_key(session: Session, secret: str) -> ApiKey | None:
    """The stored key whose secret this is, revoked or not.

    Found by its digest through the unique index, not by comparing against every stored digest: a
    lookup's timing can tell an attacker at most something about the digest of what he sent, and
    a SHA-256 digest does not lead back to a secret that produces it, so it does not help him to
    find one; it also costs the same for ten keys or ten thousand. The digests are still compared
    in constant time once found."""
    presented = digest(secret)
    key = session.scalar(select(ApiKey).where(ApiKey.digest == presented))
    if key is None or not hmac.compare_digest(key.digest, presented):
        return None
    return key


def list_categories(session: Session, list_ids: list[str]) -> frozenset[str]:
    """The categories of these lists (an officer limited to lists may touch their tournaments)."""
    if not list_ids:
        return frozenset()
    return frozenset(session.scalars(select(RatingList.category).where(RatingList.id.in_(list_ids))))


def _now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)
