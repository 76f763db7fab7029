"""What every reader of a results file gives the import: tournament submissions (the body of
``POST /v1/tournaments``) one at a time, and the rows it could not use, counted by reason.

A reason is a fixed phrase, so that the report can group rows by it and say what it means
(``explanations``); what varies from row to row (a line number, an id, a bad value) goes into a few
``examples`` instead.
"""

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any
from xml.etree.ElementTree import ParseError, XMLParser

__all__ = ["ImportOptions", "SubmissionSource", "xml_element_names"]

EXAMPLES_KEPT = 3


@dataclass(frozen=True)
class ImportOptions:
    """Tournament ids whose ``rated`` flag the import overrides (the official RIF computation keeps
    two such lists beside the renju.net export). An id in both lists is rated, as there."""

    rated_anyway: frozenset[str] = frozenset()
    not_rated_anyway: frozenset[str] = frozenset()

    def rated(self, tournament_id: str, flag: bool) -> bool:
        if tournament_id in self.rated_anyway:
            return True
        if tournament_id in self.not_rated_anyway:
            return False
        return flag


@dataclass
class SubmissionSource:
    """``submissions`` is read once; ``rejected`` is complete when it has been read to the end.
    ``tournament_count`` is the number of submissions to expect (for a progress bar); a reader that
    rejects a tournament while reading lowers it."""

    format_name: str
    tournament_count: int
    submissions: Iterator[dict[str, Any]]
    explanations: dict[str, str]
    rejected: Counter[str] = field(default_factory=Counter)
    examples: dict[str, list[str]] = field(default_factory=dict)

    def reject(self, reason: str, example: str, count: int = 1) -> None:
        self.rejected[reason] += count
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
    return recorder.names


class _StartTags:
    """A parser target that keeps the names of the first elements it sees."""

    def __init__(self, count: int) -> None:
        self.count = count
        self.names: list[str] = []

    def start(self, tag: str, attributes: dict[str, str]) -> None:
        if len(self.names) < self.count:
            self.names.append(tag)
