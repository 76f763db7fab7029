"""Who is writing, and what the key's role allows (docs/decisions.md 7.18–7.20).

A write needs ``Authorization: Bearer <key>``. A key is stored in the database (``python -m app.cli
keys create``), as an ``organiser`` or an ``officer``, or configured in RATING_API_KEYS, which keeps
working as an officer without limits. An organiser submits tournaments and corrects, withdraws and
restores the ones it submitted, and creates and updates players; an officer does everything, unless
it is limited to some lists (those lists, and the tournaments of their categories) or categories
(the tournaments of those categories). Anything beyond the key's role is a 403 that names the role
and scope the operation needs; a missing key is a 401, an unknown or revoked one a 403.

The dependencies here return a ``Caller``; the routers declare them through app.api.deps
(``Organiser``, ``Officer``, ``ListOfficer``). A tournament's own checks need the stored tournament,
so its routers call ``authorise_tournament_change`` inside their transaction."""

import hmac
from dataclasses import dataclass

from fastapi import Depends
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from sqlalchemy import select
from sqlalchemy.orm import Session

from app import db
from app.models import Revision, Tournament
from app.problems import Forbidden, RoleForbidden, Unauthorized
from app.services import api_keys
from app.services.api_keys import OFFICER, ORGANISER, Role
from app.services.revisions import SUBMITTED, TOURNAMENT
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

    def may_change_category(self, category: str) -> bool:
        """Whether this officer may change any tournament of the category (an organiser never may:
        only the tournaments it submitted)."""
        return self.is_officer and (not self.limited or category in self.categories | self.list_categories)

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
            raise Forbidden("The API key is not valid for this service.")
        if key.revoked_at is not None:
            raise Forbidden(f"The API key {key.name!r} was revoked at {key.revoked_at:%Y-%m-%d %H:%M:%S} UTC.")
        return Caller(
            name=key.name,
            role=OFFICER if key.role == OFFICER else ORGANISER,
            lists=frozenset(key.lists),
            categories=frozenset(key.categories),
            list_categories=api_keys.list_categories(session, key.lists),
        )


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


def authorise_submission(caller: Caller, tournament_id: str, category: str) -> None:
    """An organiser submits any tournament; a limited officer those of its categories."""
    if caller.is_officer and not caller.may_change_category(category):
        raise RoleForbidden(
            f"Submitting the {category} tournament {tournament_id!r} needs an organiser's key, or an officer's "
            f"without limits or whose limits include the category {category}; {caller.describe()}."
        )


def authorise_tournament_change(
    session: Session, caller: Caller, tournament_id: str, action: str, *, new_category: str | None = None
) -> None:
    """Whether the caller may correct, withdraw or restore the stored tournament (``action``,
    e.g. "Correcting", names it in the 403): the organiser whose key submitted it, or an officer whose limits include its
    category (and, for a correction, the category it gets). A tournament that does not exist passes,
    for the service to answer 404. Read in the change's transaction, unlocked: the submitter never
    changes, and its category only by a change that passed this same check."""
    stored = session.scalar(select(Tournament.category).where(Tournament.id == tournament_id))
    if stored is None:
        return
    if caller.is_officer:
        for category in dict.fromkeys(c for c in (stored, new_category) if c is not None):
            if not caller.may_change_category(category):
                raise RoleForbidden(
                    f"{action} the {category} tournament {tournament_id!r} needs the organiser's key that "
                    f"submitted it, or an officer's without limits or whose limits include the category {category}; "
                    f"{caller.describe()}."
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
