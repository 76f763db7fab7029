"""Why his rating changed, on the player's page (issue 47 item 1): the answer of
``GET /v1/players/{id}/changes`` (``app.services.rating_changes.explain``, the endpoint's own
function) for each list's section, since the list's latest publication by default, or between the
two publications or days the reader picks in the section's form (docs/decisions.md 131)."""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass

from sqlalchemy.orm import Session

from app.models import RatingList
from app.problems import Problem
from app.schemas.rating_changes import PlayerChanges
from app.services import publications, rating_changes
from app.web import display


def N_(message: str) -> str:
    """Marks a message for the catalogues (Babel extracts ``N_``); the template translates it."""
    return message


# What happened to a tournament between the two readings, in words (the API's `how`).
HOW_WORDS = {
    rating_changes.ADDED: N_("added"),
    rating_changes.CORRECTED: N_("corrected"),
    rating_changes.WITHDRAWN: N_("withdrawn"),
    rating_changes.NO_LONGER_RATED: N_("no longer rated"),
    rating_changes.RATED: N_("unchanged"),
}
PUBLICATIONS_OFFERED = 50  # the latest ones in the form's lists; any other is named by its link
_DAY = re.compile(r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$")


@dataclass(frozen=True)
class WhyQuery:
    """The list whose explanation the reader asked for and its two ends as the API's `from` and
    `to` take them (None: the API's defaults), a day typed winning over a publication chosen."""

    list_id: str | None = None
    earlier: str | None = None
    later: str | None = None


@dataclass(frozen=True)
class Offered:
    """A publication the form offers: its reference as the API names it, and its title and day."""

    reference: str
    title: str
    day: dt.date


@dataclass(frozen=True)
class WhyChanged:
    """A list's section: what the form offers and shows chosen, and the API's answer or its refusal."""

    list_id: str
    offered: list[Offered]
    earlier: str | None  # as the reader asked (None: the default)
    later: str | None
    answer: PlayerChanges | None
    refusal: str | None
    names: dict[str, str]  # the steps' tournaments by id

    def api_path(self, player_id: str) -> str:
        """The same question asked of the API."""
        path = f"/v1/players/{display.path_part(player_id)}/changes"
        return display.with_query(path, list=self.list_id, **{"from": self.earlier, "to": self.later})

    @property
    def chosen_from(self) -> str:
        return self.earlier if self.earlier and not _DAY.fullmatch(self.earlier) else ""

    @property
    def typed_from(self) -> str:
        return self.earlier if self.earlier and _DAY.fullmatch(self.earlier) else ""

    @property
    def chosen_to(self) -> str:
        return self.later if self.later and not _DAY.fullmatch(self.later) else ""

    @property
    def typed_to(self) -> str:
        return self.later if self.later and _DAY.fullmatch(self.later) else ""


def why_changed(session: Session, player_id: str, rating_list: RatingList, query: WhyQuery) -> WhyChanged:
    """The section of ``rating_list``: the reader's two ends when he asked about this list, else
    the API's defaults (since the latest publication, to the live list). A list with no publication
    and nothing asked shows the form alone; what the API refuses is said in its words."""
    asked = query.list_id == rating_list.id
    earlier, later = (query.earlier, query.later) if asked else (None, None)
    shown, _ = publications.list_publications(session, rating_list.id, PUBLICATIONS_OFFERED, 0)
    offered = [Offered(f"publication:{p.number}", p.title, p.date) for p in shown]
    answer, refusal = None, None
    if asked or shown:
        try:
            answer = PlayerChanges.model_validate(rating_changes.explain(session, player_id, rating_list.id, earlier, later))
        except Problem as problem:
            refusal = problem.detail
    names = {move.tournament_id: move.name for move in answer.tournaments} if answer is not None else {}
    return WhyChanged(rating_list.id, offered, earlier, later, answer, refusal, names)
