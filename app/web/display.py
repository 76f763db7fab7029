"""How numbers, dates and links read on the pages. Every system's rating is shown as an integer:
WHR ratings and deviations are unrounded floats that a website rounds for display (docs/design.md),
Elo ratings are already the integers their rules produce, and the Rivne rating is fractional (its
README section: round it for display). Rounding is half away from zero, as the rule texts round
(INTERPRETATIONS 0)."""

import datetime as dt
from html import escape
from urllib.parse import quote, urlencode

from markupsafe import Markup

from app.names import full_name as full_name  # (the templates and pages name it here)
from app.rating.rounding import change_as_shown, round_half_away_from_zero

MINUS = "\u2212"
PLUS_MINUS = "\u00b1"
NARROW_SPACE = "\u202f"  # keeps a ± or a mark on the line of its number


def number(value: float | None) -> str:
    return "" if value is None else str(round_half_away_from_zero(value))


def plus_minus(deviation: float | None) -> str:
    """A deviation as written beside its rating, ± 40 ("" for none): a narrow space keeps it on one line."""
    return "" if deviation is None else f"{PLUS_MINUS}{NARROW_SPACE}{number(deviation)}"


def with_deviation(rating: float, deviation: float | None) -> str:
    """A rating in a sentence, 2513 ± 40 where it has a deviation."""
    return number(rating) if deviation is None else f"{number(rating)}\u00a0{plus_minus(deviation)}"


def signed(value: float | None) -> str:
    if value is None:
        return ""
    rounded = round_half_away_from_zero(value)
    return f"+{rounded}" if rounded > 0 else (f"{MINUS}{-rounded}" if rounded < 0 else "0")


def shown_change(before: float | None, after: float | None, change: float | None) -> str:
    """The change as the row shows it: the shown after minus the shown before, so that a row adds up
    (a WHR change of 0.6 between 1900.4 and 1901.0 reads 1900, 1901, +1); the stored change when
    there is no rating before (a newcomer)."""
    return signed(change_as_shown(before, after, change))


def score(value: float) -> str:
    whole = int(value)
    return f"{whole}\u00bd" if value - whole else str(whole)


def tie_break(value: float) -> str:
    """A tie-break value as the tournament gave it: 44 for 44.0, 20.5 as it is."""
    return str(int(value)) if value.is_integer() else f"{value:g}".replace("-", MINUS)


def day(value: dt.date | None) -> str:
    return "" if value is None else value.isoformat()


def path_part(value: str) -> str:
    return quote(value, safe="")


def list_path(list_id: str) -> str:
    return f"/lists/{path_part(list_id)}"


def player_path(player_id: str) -> str:
    return f"/players/{path_part(player_id)}"


def versus_path(player_id: str, opponent_id: str) -> str:
    """The page of two players' games against each other."""
    return f"{player_path(player_id)}/vs/{quote(opponent_id, safe='')}"


def tournament_path(tournament_id: str) -> str:
    return f"/tournaments/{path_part(tournament_id)}"


def with_query(path: str, **params: object) -> str:
    """``path`` with the given query parameters, leaving out the empty ones."""
    given = {key: value for key, value in params.items() if value not in (None, "")}
    return f"{path}?{urlencode(given)}" if given else path


def figure(value: object) -> str:
    """A figure of a calculation as a referee checks it by hand: a fraction to at most six decimals
    (1533.62, 0.316646), a whole number as one, a missing one as a dash."""
    if value is None:
        return "–"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        if value.is_integer():
            return f"{value:.0f}"
        return f"{value:.6f}".rstrip("0").rstrip(".")
    return str(value)


def data(value: object) -> Markup:
    """A name or a value of the data (a player's, a list's or a tournament's name, an id, a club), set
    apart as not for translating (``translate="no"``: a browser's translator leaves it, and the
    website's test of every word translated passes over it, issue 47 item 5)."""
    return Markup(f'<span translate="no">{escape(str(value))}</span>') if value not in (None, "") else Markup("")
