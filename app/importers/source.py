"""What every reader of a results file gives the import: tournament submissions (the body of
``POST /v1/tournaments``) one at a time, and the rows it could not use, counted by reason.

A reason is a fixed phrase, so that the report can group rows by it and say what it means
(``explanations``); what varies from row to row (a line number, an id, a bad value) goes into a few
``examples`` instead.
"""

import math
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any
from xml.etree.ElementTree import ParseError, TreeBuilder, XMLParser

__all__ = [
    "FileRefused",
    "ImportOptions",
    "NoDoctypeTreeBuilder",
    "SubmissionSource",
    "decimal_number",
    "refuse_doctype",
    "whole_number",
    "xml_element_names",
]

EXAMPLES_KEPT = 3


class FileRefused(ValueError):
    """A file the import refuses whole, before anything of it is stored: the message says why and
    where, in one line (the command prints it on stderr and exits with status 1)."""


def refuse_doctype(name: str | None, pubid: str | None, system: str | None) -> None:
    """An XML parser target's ``doctype``: a file that declares a document type is refused. A DTD is
    where entities are declared (expanded text, or external files a parser would read) and where an
    external DTD is named; no format the import reads needs one, so none is read, fetched or
    expanded: expat calls this at ``<!DOCTYPE``, before the DTD's internal subset."""
    where = f' (SYSTEM "{system}")' if system else ""
    raise FileRefused(
        f"the XML declares a document type <!DOCTYPE {name}>{where}: DTDs and entity declarations are refused,"
        " never read or fetched; remove the DOCTYPE and import it again"
    )


class NoDoctypeTreeBuilder(TreeBuilder):
    """ElementTree's tree builder that refuses a file declaring a document type (``refuse_doctype``)."""

    def doctype(self, name: str | None, pubid: str | None, system: str | None) -> None:
        refuse_doctype(name, pubid, system)


def whole_number(value: str | None, where: str, *, low: int, high: int) -> int | None:
    """A whole number written in a file (ASCII digits, an optional sign; ``12.0`` too): None when
    absent or blank; ``FileRefused`` naming ``where`` when it is not a number from ``low`` to
    ``high``. Digits are counted before converting, so a 5,000-digit value costs nothing."""
    if value is None or not value.strip():
        return None
    text = value.strip()
    digits = text.lstrip("+-")
    if digits.endswith(".0"):
        digits = digits[:-2]
    if not (digits.isascii() and digits.isdigit() and len(digits) <= len(str(max(abs(low), abs(high))))):
        raise FileRefused(f"{where}: {_shown(value)} is not a whole number from {low} to {high}")
    number = -int(digits) if text.startswith("-") else int(digits)
    if not low <= number <= high:
        raise FileRefused(f"{where}: {_shown(value)} is not a whole number from {low} to {high}")
    return number


def decimal_number(value: str | None, where: str, *, low: float, high: float) -> float | None:
    """A decimal number written in a file: None when absent or blank; ``FileRefused`` naming ``where``
    when it is not a finite number from ``low`` to ``high`` (``inf``, ``nan``, ``1e999`` included)."""
    if value is None or not value.strip():
        return None
    text = value.strip()
    try:
        number = float(text) if len(text) <= 40 and text.isascii() else math.nan
    except ValueError:
        number = math.nan
    if not (math.isfinite(number) and low <= number <= high):
        raise FileRefused(f"{where}: {_shown(value)} is not a number from {low:g} to {high:g}")
    return number


def _shown(value: str) -> str:
    return repr(value) if len(value) <= 40 else f"{value[:20]!r}... ({len(value):,} characters)"


@dataclass(frozen=True)
class ImportOptions:
    """Tournament ids whose ``rated`` flag the import overrides (the official RIF computation keeps
    two such lists beside the renju.net export). An id in both lists is rated, as there."""

    rated_anyway: frozenset[str] = frozenset()
    not_rated_anyway: frozenset[str] = frozenset()
    # A streamed reader leaves out a tournament with more games than a submission may have before
    # reading them into memory (the import sets it from MAX_GAMES_PER_TOURNAMENT).
    max_games_per_tournament: int = 20_000

    def rated(self, tournament_id: str, flag: bool) -> bool:
        if tournament_id in self.rated_anyway:
            return True
        if tournament_id in self.not_rated_anyway:
            return False
        return flag


@dataclass
class SubmissionSource:
    """``submissions`` is read once; ``rejected`` and ``left_aside`` are complete when it has been
    read to the end. ``tournament_count`` is the number of submissions to expect (for a progress
    bar); a reader that rejects a tournament while reading lowers it.

    A row is *rejected* when something in it is wrong or unreadable; it is *left aside* when it is
    what the file means it to be and only holds nothing to store (a bye, a player who played no
    game, a game of a tournament another file defines): the report counts the two apart, so that
    an import with nothing wrong says so (issue 47 item 7). ``aside_reasons`` are the format's
    reasons of the second kind."""

    format_name: str
    tournament_count: int
    submissions: Iterator[dict[str, Any]]
    explanations: dict[str, str]
    rejected: Counter[str] = field(default_factory=Counter)
    examples: dict[str, list[str]] = field(default_factory=dict)
    left_aside: Counter[str] = field(default_factory=Counter)
    aside_reasons: frozenset[str] = frozenset()

    def reject(self, reason: str, example: str, count: int = 1) -> None:
        self.rejected[reason] += count
        self._example(reason, example)

    def leave_aside(self, reason: str, example: str, count: int = 1) -> None:
        self.left_aside[reason] += count
        self._example(reason, example)

    def note(self, reason: str, example: str, count: int = 1) -> None:
        """A row a reader left out, counted as left aside or rejected by its reason."""
        if reason in self.aside_reasons:
            self.leave_aside(reason, example, count)
        else:
            self.reject(reason, example, count)

    def _example(self, reason: str, example: str) -> None:
        kept = self.examples.setdefault(reason, [])
        if len(kept) < EXAMPLES_KEPT:
            kept.append(example)


def xml_element_names(head: bytes, count: int = 2) -> list[str]:
    """The names of the first ``count`` elements of an XML document, read from its first bytes
    (the root first, then its first child); empty if the bytes are not the start of XML. A
    truncated head is fine: only what it holds is read."""
    if not head.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"<"):
        return []
    recorder = _StartTags(count)
    try:
        XMLParser(target=recorder).feed(head)
    except ParseError:
        pass  # the head ends inside a construct, or the file is not XML: keep what was read
    except _Enough:
        pass
    return recorder.names


class _Enough(Exception):
    """Stops the parser once the names wanted are read."""


class _StartTags:
    """A parser target that keeps the names of the first elements it sees."""

    def __init__(self, count: int) -> None:
        self.count = count
        self.names: list[str] = []

    def start(self, tag: str, attributes: dict[str, str]) -> None:
        self.names.append(tag)
        if len(self.names) >= self.count:
            raise _Enough

    doctype = staticmethod(refuse_doctype)
