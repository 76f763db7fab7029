"""The service's own sentences in the reader's language where a page shows one (issue 47 item 5,
docs/decisions.md 137): its problem details (an error page, the calculator of who is favoured
refusing), the summaries of a player's record changes, a snapshot's notes. The API keeps them in
English, the contract's words; a page matches the sentence against those the services, the rule
systems and the pages write (each a pattern here with its message for the catalogues), and writes it
in the reader's language with what it names (an id, a list, a value typed) as data, not translated.
A sentence no pattern matches is shown as it is, marked English (``lang="en"``)."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from html import escape

from markupsafe import Markup

from app.schemas.common import ID_MAX_LENGTH
from app.web import display, i18n


def N_(message: str) -> str:
    """Marks a message for the catalogues (Babel extracts ``N_``)."""
    return message


# A value as the services quote it (Python's repr of a string: 'x', or "x" when it holds a ').
_QUOTED = r"(?:'[^']*'|\"[^\"]*\")"


def _pattern(text: str) -> re.Pattern[str]:
    """A detail's pattern: ``{name}`` is a quoted value, ``{name:number}`` digits, ``{name:rest}`` anything."""
    pieces = re.split(r"\{([a-z_]+)(?::([a-z]+))?\}", text)
    regex = re.escape(pieces[0])
    for index in range(1, len(pieces), 3):
        name, kind, after = pieces[index], pieces[index + 1] or "", pieces[index + 2]
        body = {"number": r"\d+", "rest": r".+?", "": _QUOTED}[kind]
        regex += f"(?P<{name}>{body})" + re.escape(after)
    return re.compile(regex)


# (the detail as a service or a page writes it, the message): app/services (players, tournament_reads,
# rating_lists, publications, predictions), app/web/router.py and app/web/pages.py.
DETAILS: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (_pattern(text), message)
    for text, message in (
        ("Player {player} does not exist.", N_("Player %(player)s does not exist.")),
        ("Tournament {tournament} does not exist.", N_("Tournament %(tournament)s does not exist.")),
        (
            "Rating list {list} does not exist; GET /v1/rating-lists shows the lists.",
            N_("Rating list %(list)s does not exist; the API's GET /v1/rating-lists shows the lists."),
        ),
        (
            "Snapshot {number:number} of rating list {list} does not exist.",
            N_("Snapshot %(number)s of rating list %(list)s does not exist."),
        ),
        (
            "Rating list {list} has no publication {number:number}; GET {request:rest} lists them.",
            N_("Rating list %(list)s has no publication %(number)s."),
        ),
        (
            "Rating list {list} has no snapshot yet: nobody is on it.",
            N_("Rating list %(list)s has no snapshot yet: nobody is on it."),
        ),
        (
            "Player {player} is not on rating list {list} (no line in its current snapshot {snapshot:number}).",
            N_("Player %(player)s is not on rating list %(list)s."),
        ),
        ("A player is not favoured against himself.", N_("A player is not favoured against himself.")),
        ("The site has no language {code}.", N_("The site has no language %(code)s.")),
        ("There is no calculator {slug}.", N_("There is no calculator %(slug)s.")),
    )
)
# A player's record changes (app/services/tournaments.py, players.py, player_merge.py) and a WHR
# snapshot's notes (app/rating/whr/rating_list.py).
RECORDS: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (_pattern(text), message)
    for text, message in (
        ("created by an import", N_("created by an import")),
        ("created by POST /v1/players", N_("created through the API")),
        (
            "created by the submission of tournament {tournament:rest}",
            N_("created by the submission of tournament %(tournament)s"),
        ),
        (
            "created by the correction of tournament {tournament:rest}",
            N_("created by the correction of tournament %(tournament)s"),
        ),
        ("renamed from {before:rest} to {after:rest} on {day:rest}", N_("renamed from %(before)s to %(after)s on %(day)s")),
        ("merged into {into:rest}: {counts:rest} moved", N_("merged into %(into)s: %(counts)s moved")),
        ("received {player:rest} ({counts:rest})", N_("received %(player)s (%(counts)s)")),
        ("changed: {changes:rest}", N_("changed: %(changes)s")),
        (
            "converged in {steps:number} Newton steps (largest last change {change:rest} Elo)",
            N_("converged in %(steps)s Newton steps (largest last change %(change)s Elo)"),
        ),
        ("warm-started from the previous snapshot", N_("warm-started from the previous snapshot")),
    )
)
# A page's refusal of its query or path: "pointer: detail" parts joined by "; " (``PageInputError``).
FIELD_DETAILS: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (_pattern(text), message)
    for text, message in (
        (
            "{name:rest} must be a whole number from 1 to {most:number}, not {value}",
            N_("%(name)s must be a whole number from 1 to %(most)s, not %(value)s"),
        ),
        ("status must be one of {choices:rest}, not {value}", N_("status must be one of %(choices)s, not %(value)s")),
        (
            "country must be an IOC or ISO country code, not {value}",
            N_("country must be an IOC or ISO country code, not %(value)s"),
        ),
        ("as_of must be a date (YYYY-MM-DD), not {value}", N_("as_of must be a date (YYYY-MM-DD), not %(value)s")),
        (
            "as_of must be a date from {first:rest} to {last:rest}, not {value:rest}",
            N_("as_of must be a date from %(first)s to %(last)s, not %(value)s"),
        ),
        ("gender must be f or m, not {value}", N_("gender must be f or m, not %(value)s")),
        (
            "played_within_12_months must be true or false, not {value}",
            N_("played_within_12_months must be true or false, not %(value)s"),
        ),
        (
            "an id is 1 to "
            + str(ID_MAX_LENGTH)
            + " ASCII letters, digits, `.`, `_`, `:` or `-`, starting with a letter or digit, not {value}",
            N_(
                "an id is 1 to %(most)s ASCII letters, digits, “.”, “_”, “:” or “-”, starting with a letter or digit, not %(value)s"
            ),
        ),
        (
            "a publication's number is a whole number from 1, not {value}",
            N_("a publication's number is a whole number from 1, not %(value)s"),
        ),
        ("q must not contain NUL characters", N_("q must not contain NUL characters")),
    )
)
_FIELD = re.compile(r"(?P<pointer>(?:query|path):[a-z_0-9]+): (?P<detail>.+)")


@dataclass(frozen=True)
class ShownDetail:
    text: Markup
    translated: bool  # False: the service's English sentence, shown as it is


def shown_detail(detail: str, language: i18n.Language) -> ShownDetail:
    """The detail in the reader's language when a pattern knows it; else as it is."""
    gettext = i18n.translations(language.code).gettext
    whole = _translated(detail, DETAILS, gettext)
    if whole is not None:
        return ShownDetail(whole, True)
    parts = detail.removesuffix(".").split("; ")
    shown = []
    for part in parts:
        field = _FIELD.fullmatch(part)
        words = _translated(field.group("detail"), FIELD_DETAILS, gettext) if field else None
        if field is None or words is None:
            return ShownDetail(Markup(escape(detail)), False)
        shown.append(display.data(field.group("pointer")) + Markup(": ") + words)
    return ShownDetail(Markup("; ").join(shown) + Markup("."), True)


def shown_sentence(sentence: str, language: i18n.Language) -> ShownDetail:
    """A record change's summary or a snapshot's note in the reader's language when a pattern knows it."""
    shown = _translated(sentence, RECORDS, i18n.translations(language.code).gettext)
    return ShownDetail(shown, True) if shown is not None else ShownDetail(Markup(escape(sentence)), False)


def _translated(detail: str, patterns: tuple[tuple[re.Pattern[str], str], ...], gettext: Callable[[str], str]) -> Markup | None:
    for pattern, message in patterns:
        match = pattern.fullmatch(detail)
        if match is not None:
            values = {name: display.data(value) for name, value in match.groupdict().items()}
            values.setdefault("most", display.data(ID_MAX_LENGTH))
            return Markup(escape(gettext(message))) % values
    return None
