"""The historical RIF Elo list's statuses on a date (RIF 1995 #9, INTERPRETATIONS 1.17): what a
website filters on, from the rules' own status and the holder's last appearance."""

from __future__ import annotations

from datetime import date

INACTIVE_AFTER_YEARS = 5  # RIF 1995 #9: not published after five years without a rated game


def list_status(engine_status: str, last_seen: date | None, cutoff: date) -> str:
    """Provisional / unofficial / new ratings are "provisional"; established / official ones are
    "active", or "inactive" when their holder was last seen before ``cutoff`` (RIF 1995 #9: kept but
    not published; INTERPRETATIONS 1.17)."""
    if engine_status in ("provisional", "unofficial", "new"):
        return "provisional"
    if last_seen is not None and last_seen < cutoff:
        return "inactive"
    return "active"


def inactive_cutoff(list_date: date) -> date:
    """RIF 1995 #9: the earliest last appearance still within five calendar years of ``list_date``
    (29 February falls back to 28 February)."""
    year = list_date.year - INACTIVE_AFTER_YEARS
    try:
        return list_date.replace(year=year)
    except ValueError:
        return date(year, 2, 28)
