"""The website's languages: English, Russian, Chinese (simplified), Japanese and Estonian, the
languages the renju world reads first (issue 26).

A reader's language is the one his switch chose (a cookie, remembered for a year), else the first
of his browser's ``Accept-Language`` that the site has, else English. Messages are gettext
catalogues (``locale/<language>/LC_MESSAGES/messages.po``, committed) read through Babel and
compiled in memory when the process starts, so a fresh clone needs no build step; the templates use
Jinja2's i18n extension. Dates and counts are formatted by Babel with the language's CLDR data;
ratings are shown as the federations print them, whole numbers without grouping (a rating is a
score, not a quantity), in every language alike.

A player's name is shown in the reader's script where the player has a native spelling in it (a
Chinese reader sees 王鑫 (Wang Xin)); else his Latin name (docs/decisions.md 7.47)."""

from __future__ import annotations

import datetime as dt
import io
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path

from babel import Locale
from babel.dates import DateTimePattern, get_date_format
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal
from babel.support import Translations

from app import caches
from app.http.negotiation import weighted_values

LOCALE_DIRECTORY = Path(__file__).resolve().parent / "locale"
COOKIE = "lang"
COOKIE_MAX_AGE = 365 * 24 * 3600
DEFAULT = "en"


@dataclass(frozen=True)
class Language:
    code: str  # the cookie's value and the catalogue's directory
    tag: str  # the BCP 47 tag of the page's lang attribute
    locale: str  # Babel's locale for dates and numbers
    name: str  # the language's name in itself, as the switch shows it
    scripts: tuple[str, ...]  # the Unicode scripts (by character name) its readers read names in


LANGUAGES: dict[str, Language] = {
    language.code: language
    for language in (
        Language("en", "en", "en", "English", ()),
        Language("ru", "ru", "ru", "Русский", ("CYRILLIC",)),
        Language("zh", "zh-Hans", "zh_Hans_CN", "中文（简体）", ("CJK",)),
        Language("ja", "ja", "ja", "日本語", ("CJK", "HIRAGANA", "KATAKANA")),
        Language("et", "et", "et", "Eesti", ()),
    )
}


def chosen_language(cookie: str | None, accept_language: str | None) -> Language:
    """The switch's choice (the cookie) when it names a language the site has; else the best of
    ``Accept-Language`` by quality (a region or script is ignored: ``zh-CN``, ``zh-TW`` and
    ``zh-Hans`` all read Chinese); else English."""
    if cookie in LANGUAGES:
        return LANGUAGES[cookie]
    best, best_quality = LANGUAGES[DEFAULT], 0.0
    for tag, quality in weighted_values(accept_language):
        code = tag.split("-")[0].lower()
        # Equal qualities keep the header's order: the first named wins.
        if code in LANGUAGES and quality > best_quality:
            best, best_quality = LANGUAGES[code], quality
    return best


@cache
def translations(code: str) -> Translations:
    """The language's catalogue, compiled from its .po file in memory (English has none: its
    messages are the msgids)."""
    if code == DEFAULT:
        return Translations()
    with (LOCALE_DIRECTORY / code / "LC_MESSAGES" / "messages.po").open("rb") as po:
        catalog = read_po(po, locale=LANGUAGES[code].locale)
    compiled = io.BytesIO()
    write_mo(compiled, catalog)
    compiled.seek(0)
    return Translations(compiled)


def formatters(language: Language) -> dict[str, Callable[..., str]]:
    """The template functions that depend on the language: dates and counts."""
    return {
        "date": lambda value: shown_date(value, language.locale),
        "count": lambda value: shown_count(value, language.locale),
        "shown_name": lambda latin, native: shown_name(latin, native, language),
    }


def prepare(language: Language) -> None:
    """Load the language's catalogue and Babel's data for its dates and numbers (read from disk the
    first time a locale is used)."""
    translations(language.code)
    shown_date(dt.date(2000, 1, 1), language.locale)
    format_decimal(12345, locale=language.locale)


@lru_cache(maxsize=16384)  # about 320 bytes an entry: 5 MB (app.caches)
def shown_date(value: dt.date | None, locale: str) -> str:
    """A day in the language's medium format (Jul 28, 2013; 28 июл. 2013 г.; 2013年7月28日)."""
    return "" if value is None else _medium_date(locale).apply(value, _babel_locale(locale))


@cache
def _medium_date(locale: str) -> DateTimePattern:
    """The locale's medium date pattern, looked up once: ``format_date`` parses the locale and looks
    its pattern up on every call, three times as long as applying it (a busy player's page shows a
    few hundred days not shown before)."""
    return get_date_format("medium", locale=locale)


@cache
def _babel_locale(locale: str) -> Locale:
    return Locale.parse(locale)


@lru_cache(maxsize=4096)
def shown_count(value: int, locale: str) -> str:
    """A count with the language's grouping (12,345; 12 345)."""
    return format_decimal(value, locale=locale)


caches.memo("shown_dates", shown_date)
caches.memo("shown_counts", shown_count)


def shown_name(latin: str, native: str | None, language: Language) -> str:
    """The native spelling beside the Latin name, when it is written in the reader's script."""
    if native and native != latin and in_scripts(native, language.scripts):
        return f"{native} ({latin})"
    return latin


def in_scripts(text: str, scripts: tuple[str, ...]) -> bool:
    """Whether every letter of ``text`` belongs to one of ``scripts`` (by the Unicode character
    names' first word: CJK, HIRAGANA, KATAKANA, CYRILLIC)."""
    letters = [character for character in text if character.isalpha()]
    return bool(letters) and all(unicodedata.name(character, "").split(" ")[0] in scripts for character in letters)
