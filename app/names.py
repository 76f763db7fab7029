"""Names as people write them, and as search finds them: case and diacritics never matter (``Soosorv``
finds Soosõrv), native spellings are found as written (``汪清清``), and a name matches in either order
(first name and surname, or surname first as the renju directory writes them). A name is one line of
text in any script, without the characters that would change how a page or a list shows it."""

import functools
import hashlib
import re
import unicodedata
from collections.abc import Iterable

from app import caches

__all__ = [
    "DISPLAY_TEXT_PATTERN",
    "MAX_TERM",
    "NOT_DISPLAYED",
    "SEPARATOR",
    "WHOLE_NAME",
    "WORD",
    "WORD_END",
    "folded",
    "not_displayed",
    "search_key",
    "search_terms",
    "sort_key",
]

# What text shown to people on one line (names, titles, labels, reasons) never holds (docs/decisions.md
# 105): the C0 controls (TAB, CR and LF among them), DEL and the C1 controls, the line and paragraph
# separators, and the invisible bidirectional formatting characters (the Arabic letter mark, the
# left-to-right and right-to-left marks, embeddings, overrides and isolates). A U+202E in a name shows
# the letters after it in reverse order, a line break makes one row of a list look like two. Written
# with the escapes Python's re, pydantic's regex engine and ECMA-262 (the contract's patterns) read alike.
NOT_DISPLAYED = r"\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029"
DISPLAY_TEXT_PATTERN = f"^[^{NOT_DISPLAYED}]*$"
_NOT_DISPLAYED = re.compile(f"[{NOT_DISPLAYED}]")


def not_displayed(text: str) -> str | None:
    """The first character of ``text`` that shown text cannot hold, written U+XXXX, or None."""
    found = _NOT_DISPLAYED.search(text)
    return None if found is None else f"U+{ord(found.group()):04X}"


# Between the spellings of one key: no folded name holds it, so a match never runs across two.
SEPARATOR = "|"
# What a search term is of its name (players' search terms): the whole name (either order, or the
# native name), one of its words, or the end of a word (so that "wang" finds Kwang).
WHOLE_NAME, WORD, WORD_END = 0, 1, 2
MAX_TERM = 200
MAX_KEY = 2000  # players.search_key's length
# Letters that are no base letter with a mark, so that decomposition leaves them as they are.
_LETTERS = str.maketrans(
    {"ø": "o", "ł": "l", "đ": "d", "ð": "d", "þ": "th", "æ": "ae", "œ": "oe", "ß": "ss", "ı": "i", "ħ": "h", "ŧ": "t"}
)


def folded(text: str) -> str:
    """Lower case, without diacritics, spaces collapsed: what a name is compared as. CJK characters stay.
    A name's parts repeat (an import folds each player's names several times), so short texts are
    remembered (``_folded_short``); a long one (a search's text) is folded afresh, which keeps the
    memo's bytes bounded by its entries."""
    return _folded_short(text) if len(text) <= _MEMO_LONGEST else _folded(text)


_MEMO_LONGEST = 64  # characters: 4,096 entries of at most this and its folded form, under 3 MB


@functools.lru_cache(maxsize=4096)
def _folded_short(text: str) -> str:
    return _folded(text)


caches.memo("folded_names", _folded_short)


def _folded(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    bare = "".join(character for character in decomposed if not unicodedata.combining(character))
    cleaned = bare.translate(_LETTERS).replace(SEPARATOR, " ")
    return " ".join(cleaned.split())


def search_key(spellings: Iterable[tuple[str | None, str | None, str | None]]) -> str:
    """The folded key of every spelling (first name, surname, native name): each name in both orders
    and the native name, each between separators (``|ants soosorv|soosorv ants|``), so that an
    exact match, a prefix and a word prefix are each one LIKE pattern."""
    parts: list[str] = []
    for name, surname, native_name in spellings:
        first, last = folded(name or ""), folded(surname or "")
        for part in (f"{first} {last}", f"{last} {first}", folded(native_name or "")):
            part = part.strip()
            if part and part not in parts:
                parts.append(part)
    key = SEPARATOR + SEPARATOR.join(parts) + SEPARATOR if parts else ""
    if len(key) > MAX_KEY:
        # Many long earlier spellings: the key keeps its start and ends with a digest of the whole, so
        # that every change of spelling still changes the key (the search itself reads the terms).
        digest = hashlib.sha256(key.encode()).hexdigest()
        key = key[: MAX_KEY - len(digest) - 1] + SEPARATOR + digest
    return key


def search_terms(spellings: Iterable[tuple[str | None, str | None, str | None]]) -> dict[str, int]:
    """Every term a search finds the player by, with its kind (the best when a term is of several):
    each spelling's whole names (both orders, the native name), their words, and every end of a
    word. A query finds the terms it is the start of: one range of an index."""
    wholes: list[str] = []
    for name, surname, native_name in spellings:
        first, last, native = folded(name or ""), folded(surname or ""), folded(native_name or "")
        wholes += (whole for whole in (f"{first} {last}".strip(), f"{last} {first}".strip(), native) if whole)
    words = [word for whole in wholes for word in whole.split()]
    # The worst kind first, each better one written over it: a term keeps the best kind it is of.
    terms = {word[start:][:MAX_TERM]: WORD_END for word in words for start in range(1, len(word))}
    terms.update((word[:MAX_TERM], WORD) for word in words)
    terms.update((whole[:MAX_TERM], WHOLE_NAME) for whole in wholes)
    return terms


def sort_key(name: str | None, surname: str | None, player_id: str) -> str:
    """The order of players whose names match equally well: surname, first name, id, each folded."""
    return f"{folded(surname or '')[:200]}{SEPARATOR}{folded(name or '')[:200]}{SEPARATOR}{player_id}"


def full_name(name: str | None, surname: str | None) -> str | None:
    """First name and surname as a list shows them; None when the record has neither."""
    return f"{name} {surname}" if name and surname else name or surname or None
