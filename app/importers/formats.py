"""Which reader a file needs, recognised from its content (never its name).

``FORMATS`` is tried in order with the file's first bytes; the first format whose ``looks_like``
answers yes reads the file. A new format is one line here: a module with
``looks_like(head: bytes) -> bool`` and ``read(path: Path, options: ImportOptions) -> SubmissionSource``
(see ``app/importers/source.py``). XML formats tell each other apart by their elements
(``source.xml_element_names``: the root, then its first child).
"""

import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from app.importers import directory, egd_h9, opengotha, renju_tsv, renju_xml
from app.importers.renju_tsv import RejectedRow
from app.importers.source import FileRefused, ImportOptions, SubmissionSource, xml_element_names

__all__ = ["FORMATS", "HEAD_BYTES", "FileFormat", "UnknownFormat", "detect_format"]

HEAD_BYTES = 64 * 1024
# Formats read whole into memory are bounded by size, so that the import's memory is: a Go
# tournament's table or XML is well under a megabyte (EGC 2013, 594 players: 90 KB). The renju.net
# XML export and results files are streamed: no file limit.
GO_FILE_MAX_BYTES = 8 * 1024 * 1024


@dataclass(frozen=True)
class FileFormat:
    name: str
    looks_like: Callable[[bytes], bool]
    read: Callable[[Path, ImportOptions], SubmissionSource]
    max_bytes: int | None = None  # None: streamed, any size


def whole_file_reader(
    name: str,
    read_path: Callable[[Path], tuple[list[dict[str, Any]], list[RejectedRow]]],
    explanations: dict[str, str],
    aside_reasons: frozenset[str] = frozenset(),
) -> Callable[[Path, ImportOptions], SubmissionSource]:
    """A reader for a format whose files are small enough to parse whole into submissions and
    the rows left out (a Go tournament's table); ``aside_reasons``: those left aside, not rejected."""

    def read(path: Path, options: ImportOptions) -> SubmissionSource:
        submissions, rows_left_out = read_path(path)
        source = SubmissionSource(name, len(submissions), iter(submissions), explanations, aside_reasons=aside_reasons)
        for row in rows_left_out:
            source.note(row.reason, f"line {row.line_number}: {row.detail}" if row.detail else f"line {row.line_number}")
        return source

    return read


FORMATS: tuple[FileFormat, ...] = (
    FileFormat("renju.net database export (XML)", renju_xml.looks_like, renju_xml.read),
    FileFormat(
        "OpenGotha tournament (XML)",
        opengotha.looks_like,
        whole_file_reader("OpenGotha tournament (XML)", opengotha.read_path, opengotha.REASONS, opengotha.ASIDE),
        GO_FILE_MAX_BYTES,
    ),
    FileFormat(
        "EGD results table (h9)",
        egd_h9.looks_like,
        whole_file_reader("EGD results table (h9)", egd_h9.read_path, egd_h9.REASONS, egd_h9.ASIDE),
        GO_FILE_MAX_BYTES,
    ),
    FileFormat("renju.net results (tab-separated)", renju_tsv.looks_like, renju_tsv.read),
)


class UnknownFormat(ValueError):
    """No format recognises the file; the message says what it looked like instead."""


def detect_format(path: Path) -> FileFormat:
    """Raises OSError when the file cannot be read, UnknownFormat when no reader knows it,
    FileRefused when it is larger than its format allows or declares an XML document type."""
    with open(path, "rb") as stream:
        head = stream.read(HEAD_BYTES)
        size = os.fstat(stream.fileno()).st_size
    for file_format in FORMATS:
        if file_format.looks_like(head):
            if file_format.max_bytes is not None and size > file_format.max_bytes:
                raise FileRefused(
                    f"{size:,} bytes, and a file of the format {file_format.name} may have at most"
                    f" {file_format.max_bytes:,} (it is read whole into memory); split it"
                )
            return file_format
    # The player directories too: the command reads them as well (app.cli), and a file meant as one
    # that it did not recognise is what this message answers (issue 47 item 7).
    known = "; ".join([*(f.name for f in FORMATS), *directory.FORMAT_NAMES])
    elements = xml_element_names(head, 2)
    if elements:
        raise UnknownFormat(
            f"an XML file of an unknown kind (root element <{'>, first child <'.join(elements)}>); known formats: {known}"
        )
    if not head.strip():
        raise UnknownFormat(f"the file is empty; known formats: {known}")
    raise UnknownFormat(f"not a file format the importer knows; known formats: {known}")
