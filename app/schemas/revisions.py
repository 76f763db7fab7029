import datetime as dt
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

RevisionKind = Literal[
    "submitted",
    "corrected",
    "withdrawn",
    "restored",
    "confirmed",
    "rejected",
    "refused",
    "seeds_changed",
    "params_changed",
    "settings_changed",
    "published",
    "renamed",
    "merged",
    "unmerged",
    "player_updated",
    "player_created",
    "review_dismissed",
]
RevisionSubject = Literal["tournament", "rating_list", "player"]


class RevisionRead(BaseModel):
    """One recorded change of a tournament or of a rating list's seeds, parameters or settings."""

    model_config = ConfigDict(from_attributes=True)

    id: int = Field(description="The revision's id, in the order the changes were committed")
    subject: RevisionSubject = Field(description="What was changed: a tournament, a rating list or a player")
    subject_id: str = Field(description="The tournament's, the list's or the player's id")
    number: int = Field(description="The subject's recorded changes counted from 1")
    kind: RevisionKind = Field(
        description="What the change was: a tournament `submitted`, `corrected`, `withdrawn`, `restored`, `confirmed` or "
        "`rejected` by an officer of a list that reviews it, or a change of it `refused` (a stale `If-Match`, 412, or "
        "one its state does not allow, 409: nothing changed, and it does not count as a version); a list's "
        "`seeds_changed`, `params_changed`, `settings_changed` or `published`; a player `player_created` (by a "
        "submission, an import or `POST /v1/players`), `player_updated` (by an officer, a directory import, or an "
        "officer's acceptance of what a submission said of him), `renamed`, `merged`, `unmerged`, or what a submission "
        "said of him `review_dismissed` by an officer (nothing changed)"
    )
    list_id: str | None = Field(
        description="The rating list changed (seeds, parameters, settings) or whose review of the tournament was "
        "decided; null for other changes of a tournament"
    )
    actor: str = Field(description="The name of the API key that made the change (`import` for the command-line importer)")
    at: dt.datetime = Field(description="When the change was committed (UTC)")
    summary: str = Field(description="What changed, in words")


class RevisionDetail(RevisionRead):
    """A revision with the whole version of its subject that the change replaced."""

    previous: dict[str, Any] | None = Field(
        description="The subject as it was before the change, whole (a tournament as a submission body, with its "
        "`withdrawn` state and, for a list that reviews it, its `reviews` by list; a list's seeds, parameters or "
        "settings); null when the change created it. For a refused change, the tournament as it stayed"
    )
