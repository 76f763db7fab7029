"""Names as people write them, and as search finds them: case and diacritics never matter (``Soosorv``
finds Soosõrv), native spellings are found as written (``汪清清``), and a name matches in either order
(first name and surname, or surname first as the renju directory writes them)."""

import unicodedata
from collections.abc import Iterable

__all__ = ["SEPARATOR", "folded", "search_key"]

# Between the spellings of one key: no folded name holds it, so a match never runs across two.
SEPARATOR = "|"
# Letters that are no base letter with a mark, so that decomposition leaves them as they are.
_LETTERS = str.maketrans(
    {"ø": "o", "ł": "l", "đ": "d", "ð": "d", "þ": "th", "æ": "ae", "œ": "oe", "ß": "ss", "ı": "i", "ħ": "h", "ŧ": "t"}
)


def folded(text: str) -> str:
    """Lower case, without diacritics, spaces collapsed: what a name is compared as. CJK characters stay."""
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
    return SEPARATOR + SEPARATOR.join(parts) + SEPARATOR if parts else ""
