"""Who is writing, and what the key's role allows (docs/decisions.md 7.18–7.20, 108, 109).

A write needs ``Authorization: Bearer <key>``. A key is stored in the database (``python -m app.cli
keys create``), as an ``organiser`` or an ``officer``, or configured in RATING_API_KEYS, which keeps
working as an officer without limits. An organiser submits tournaments, corrects, withdraws and
restores the ones it submitted, and creates players; only an officer changes who a player is. An
officer does everything, unless it is limited to some lists or categories: then it changes those
lists (a category-limited officer none), the tournaments that only its lists rate, and the players
all of whose tournaments are such, and reads the audit of its scope (``app.services.scopes``).
Anything beyond the key's role is a 403 that names the role and scope the operation needs; a
missing, unknown or revoked key is a 401 (RFC 6750: `WWW-Authenticate` says which).

The dependencies here return a ``Caller``; the routers declare them through app.api.deps
(``Organiser``, ``Officer``, ``ListOfficer``). A tournament's and a player's own checks need the
stored data, so their routers call ``authorise_tournament_change`` and ``authorise_player_change``
inside their transaction."""

import hmac
from dataclasses import dataclass

from fastapi import Depends
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from sqlalchemy import select
from sqlalchemy.orm import Session

from app import db
from app.models import Revision, Tournament
from app.problems import InvalidKey, RoleForbidden, Unauthorized
from app.recompute.eligibility import TournamentFields
from app.services import api_keys
from app.services.api_keys import OFFICER, ORGANISER, Role
from app.services.revisions import SUBMITTED, TOURNAMENT
from app.services.scopes import Scope, lists_outside, player_outside
from app.settings import Settings, get_settings

bearer = HTTPBearer(
    auto_error=False,
    description="An API key: one created with `python -m app.cli keys create NAME --role organiser|officer` "
    "(an organiser submits tournaments and changes those it submitted; an officer changes everything, or the "
    "lists and categories it is limited to), or one of RATING_API_KEYS (`name:secret` pairs; officers without limits)",
)


@dataclass(frozen=True)
class Caller:
    """The key that authorised a request: its name (the ``actor`` of the revisions it makes), its
    role, and for a limited officer the lists and categories it is limited to."""

    name: str
    role: Role
    lists: frozenset[str] = frozenset()
    categories: frozenset[str] = frozenset()
    # The categories of ``lists``, read when the key was presented.
    list_categories: frozenset[str] = frozenset()

    @property
    def is_officer(self) -> bool:
        return self.role == OFFICER

    @property
    def limited(self) -> bool:
        return bool(self.lists or self.categories)

    def may_change_list(self, list_id: str) -> bool:
        return self.is_officer and (not self.limited or list_id in self.lists)

    @property
    def scope(self) -> Scope | None:
        """The lists and categories a limited officer answers for; None for an officer without
        limits (and for an organiser, whose powers are not a scope: the tournaments it submitted)."""
        if not (self.is_officer and self.limited):
            return None
        return Scope(self.lists, self.categories, self.list_categories)

    def describe(self) -> str:
        """``the key 'x' is an organiser's`` / ``… an officer's limited to the lists eru``."""
        if not self.is_officer:
            return f"the key {self.name!r} is an organiser's"
        if not self.limited:
            return f"the key {self.name!r} is an officer's"
        limits = []
        if self.lists:
            limits.append(f"the lists {', '.join(sorted(self.lists))}")
        if self.categories:
            limits.append(f"the categories {', '.join(sorted(self.categories))}")
        return f"the key {self.name!r} is an officer's limited to {' and '.join(limits)}"


def authenticate(
    credentials: HTTPAuthorizationCredentials | None = Depends(bearer),
    settings: Settings = Depends(get_settings),
) -> Caller:
    """The caller whose key authorised this request: any valid key, organiser or officer."""
    if credentials is None or credentials.scheme.lower() != "bearer" or not credentials.credentials:
        raise Unauthorized(
            "This operation needs an API key: send Authorization: Bearer <key>.",
            headers={"WWW-Authenticate": "Bearer"},
        )
    presented = credentials.credentials
    matched: str | None = None
    # Compare against every configured key, always, so the time taken does not reveal which prefix
    # matched (a configured secret may be a short phrase, unlike the stored keys' random tokens).
    for secret, name in settings.api_keys().items():
        if hmac.compare_digest(secret.encode(), presented.encode()):
            matched = name
    if matched is not None:
        return Caller(name=matched, role=OFFICER)
    # A session of its own, so that the request's transaction does not begin with this read.
    with db.session_scope() as session:
        key = api_keys.find_key(session, presented)
        if key is None:
            raise InvalidKey("The API key is not valid for this service.", headers=_invalid_token("the key is unknown"))
        if key.revoked_at is not None:
            raise InvalidKey(
                f"The API key {key.name!r} was revoked at {key.revoked_at:%Y-%m-%d %H:%M:%S} UTC.",
                headers=_invalid_token("the key was revoked"),
            )
        return Caller(
            name=key.name,
            role=OFFICER if key.role == OFFICER else ORGANISER,
            lists=frozenset(key.lists),
            categories=frozenset(key.categories),
            list_categories=api_keys.list_categories(session, key.lists),
        )


def _invalid_token(description: str) -> dict[str, str]:
    """RFC 6750 3: the challenge of a 401 for a key presented and refused."""
    return {"WWW-Authenticate": f'Bearer error="invalid_token", error_description="{description}"'}


def require_officer(caller: Caller = Depends(authenticate)) -> Caller:
    """An officer's key, limited or not."""
    if not caller.is_officer:
        raise RoleForbidden(f"This operation needs an officer's key; {caller.describe()}.")
    return caller


def require_unlimited_officer(caller: Caller = Depends(authenticate)) -> Caller:
    """An officer's key without limits: what an operation needs that has not said otherwise."""
    if not caller.is_officer or caller.limited:
        raise RoleForbidden(f"This operation needs an officer's key without limits; {caller.describe()}.")
    return caller


def require_writer(caller: Caller = Depends(require_unlimited_officer)) -> str:
    """The name of an unlimited officer's key (``Writer``): the safe default for a write that does
    not declare the role it needs."""
    return caller.name


def authorise_list_change(caller: Caller, list_id: str) -> Caller:
    if not caller.may_change_list(list_id):
        raise RoleForbidden(
            f"Changing the rating list {list_id!r} needs an officer's key without limits or limited to that list; "
            f"{caller.describe()}."
        )
    return caller


def authorise_submission(session: Session, caller: Caller, submission: TournamentFields) -> None:
    """An organiser submits any tournament; a limited officer one that only its lists would rate (or,
    rated by none, of its categories: docs/decisions.md 109)."""
    scope = caller.scope
    if scope is None:
        return
    outside = lists_outside(session, scope, [submission])
    if outside:
        raise RoleForbidden(
            f"Submitting the {submission.category} tournament {submission.id!r} needs an organiser's key, or an officer's "
            f"without limits or whose limits include every list that would rate it ({_named(outside)} would); "
            f"{caller.describe()}."
        )


def authorise_tournament_change(
    session: Session, caller: Caller, tournament_id: str, action: str, *, new: TournamentFields | None = None
) -> None:
    """Whether the caller may correct, withdraw or restore the stored tournament (``action``,
    e.g. "Correcting", names it in the 403): the organiser whose key submitted it, or an officer
    whose limits include every list that rates it (or would, restored or confirmed), as it is and,
    for a correction, as ``new`` makes it (docs/decisions.md 109). A tournament that does not exist
    passes, for the service to answer 404. Read in the change's transaction, unlocked: the
    submitter never changes, and what rates the tournament only by a change that passed this
    same check."""
    stored = session.get(Tournament, tournament_id)
    if stored is None:
        return
    if caller.is_officer:
        scope = caller.scope
        outside = [] if scope is None else lists_outside(session, scope, [stored, *([new] if new is not None else [])])
        if outside:
            raise RoleForbidden(
                f"{action} the {stored.category} tournament {tournament_id!r} needs the organiser's key that "
                f"submitted it, or an officer's without limits or whose limits include every list that rates it "
                f"({_named(outside)} does); {caller.describe()}."
            )
        return
    submitter = session.scalar(
        select(Revision.actor).where(
            Revision.subject == TOURNAMENT,
            Revision.subject_id == tournament_id,
            Revision.number == 1,
            Revision.kind == SUBMITTED,
        )
    )
    if submitter != caller.name:
        who = f"was submitted by the key {submitter!r}" if submitter else "was stored before keys were recorded"
        raise RoleForbidden(
            f"{action} the tournament {tournament_id!r} needs the organiser's key that submitted it, or an "
            f"officer's key; it {who}, and {caller.describe()}."
        )


def authorise_player_change(session: Session, caller: Caller, player_id: str, action: str) -> None:
    """Whether the officer may change who the player is (``action``: "Renaming", …): without limits,
    or limited to every list that rates a tournament of his or holds a seed of his (docs/decisions.md
    109). An unknown player passes, for the service to answer 404."""
    scope = caller.scope
    if scope is None:
        return
    outside = player_outside(session, scope, player_id)
    if outside:
        raise RoleForbidden(
            f"{action} the player {player_id!r} needs an officer's key without limits or whose limits include every "
            f"list that rates a tournament of his or holds his seed ({_named(outside)} does); {caller.describe()}."
        )


def _named(outside: list[str]) -> str:
    return ", ".join(name.replace("category:", "no list; the category ") for name in outside)
