"""The README is a contract (issue 27 item 5): every ```sh block of README.md runs, in the README's
order, against a live server on a fresh database, and must succeed as written.

How a block is run, and why:
- By bash with `set -euo pipefail`, each block in a shell of its own (no variable is carried from one
  block to the next, as none is in the README), from a scratch directory that has the repository's
  files a command names (`.venv`, `app`, `tests`, `openapi`, ...) linked in, so that the files the
  blocks write (`T0017.json`, a generated client, a backup) land there, not in the repository.
- `DATABASE_URL` names the server's fresh SQLite file (the README's default database) and the server
  holds the README's key (`RATING_API_KEYS=local:change-me`) and runs its worker, as `make run` does.
  The README's address, http://127.0.0.1:8000, is replaced by the live server's (a free port: this
  machine runs other servers); nothing else in a block is changed.
- Every curl call reports its HTTP status on stderr (a `.curlrc` with a `%{stderr}` write-out), and a
  block succeeds only when each call answered a 2xx or 3xx, except a call whose line ends in a
  comment naming the status it demonstrates (`curl … /v1/audit   # 403: needs an officer's key`),
  which must answer exactly that status. A call is matched to its line by order: one curl command a
  line, at the line's start.
- A block preceded by `<!-- readme-test: not run, because … -->` is left out, and the marker says why
  (it starts the server itself, runs the test suite, or needs docker and a PostgreSQL server); any
  other block runs. The test fails on a marker without a reason.
"""

import os
import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

from app.schema_migrations import migrate
from tests.helpers import ROOT
from tests.live_server import running_server

README = ROOT / "README.md"
README_ORIGIN = "http://127.0.0.1:8000"
README_KEY = "local:change-me"
NOT_RUN = re.compile(r"<!--\s*readme-test:\s*not run(?P<reason>[^>]*?)\s*-->")
# What a block may read from the repository, linked into the scratch directory it runs in.
LINKED = (".venv", "app", "tests", "openapi", "migrations", "alembic.ini", "bench", "docs", "Makefile", "pyproject.toml")


@dataclass
class Block:
    line: int  # of the opening fence, 1-based
    text: str
    not_run_because: str | None

    def expected_statuses(self) -> list[str]:
        """For each curl command, in order: the status its line's comment names, or "2xx/3xx"."""
        expected = []
        for line in self.text.splitlines():
            if re.match(r"\s*(\S+=\S+\s+)*curl\s", line) or re.match(r"\s*\w+=\$\(curl\s", line):
                named = re.search(r"#\s*(\d{3})\b", line)
                expected.append(named.group(1) if named else "2xx/3xx")
        return expected


def readme_blocks(text: str) -> list[Block]:
    blocks = []
    lines = text.splitlines()
    index = 0
    while index < len(lines):
        if lines[index].strip() == "```sh":
            start = index
            index += 1
            body = []
            while lines[index].strip() != "```":
                body.append(lines[index])
                index += 1
            previous = next((lines[i] for i in range(start - 1, -1, -1) if lines[i].strip()), "")
            marker = NOT_RUN.search(previous)
            blocks.append(Block(start + 1, "\n".join(body) + "\n", marker.group("reason").strip(" ,:") if marker else None))
        index += 1
    return blocks


def test_the_blocks_are_found_and_only_marked_ones_are_left_out():
    blocks = readme_blocks(README.read_text(encoding="utf-8"))
    assert len(blocks) >= 10
    for block in blocks:
        if block.not_run_because is not None:
            assert block.not_run_because.startswith("because "), f"README line {block.line}: say why the block is not run"
    assert sum(block.not_run_because is None for block in blocks) >= 8
    # The marker is honoured only right before a fence: one on a line of its own elsewhere would be a
    # block meant to be left out that runs after all, or a typo; either way, say so.
    markers = [line for line in README.read_text(encoding="utf-8").splitlines() if NOT_RUN.fullmatch(line.strip())]
    assert len(markers) == sum(block.not_run_because is not None for block in blocks)


@pytest.mark.slow
def test_every_shell_block_of_the_readme_succeeds_as_written_in_order(tmp_path: Path):
    blocks = [block for block in readme_blocks(README.read_text(encoding="utf-8")) if block.not_run_because is None]
    scratch = tmp_path / "reader"
    scratch.mkdir()
    for name in LINKED:
        (scratch / name).symlink_to(ROOT / name)
    curl_home = tmp_path / "curl"
    curl_home.mkdir()
    (curl_home / ".curlrc").write_text('write-out = "%{stderr}HTTP-STATUS %{http_code}\\n"\n', encoding="utf-8")
    database_url = f"sqlite:///{tmp_path / 'var' / 'rating.sqlite3'}"
    migrate(database_url)  # as `make run` does before it serves
    environment = {
        **os.environ,
        "DATABASE_URL": database_url,
        "RATING_API_KEYS": README_KEY,
        "RUN_WORKER": "true",
        "CURL_HOME": str(curl_home),
    }
    with running_server(DATABASE_URL=database_url, RATING_API_KEYS=README_KEY, RUN_WORKER="true") as server:
        for block in blocks:
            script = "set -euo pipefail\n" + block.text.replace(README_ORIGIN, server.url)
            result = subprocess.run(
                ["bash", "-c", script], cwd=scratch, env=environment, capture_output=True, text=True, timeout=600
            )
            where = (
                f"README.md line {block.line}:\n{block.text}\nstdout:\n{result.stdout[-3000:]}\nstderr:\n{result.stderr[-3000:]}"
            )
            assert result.returncode == 0, where
            statuses = re.findall(r"HTTP-STATUS (\d{3})", result.stderr)
            expected = block.expected_statuses()
            assert len(statuses) == len(expected), f"{where}\n(one curl command a line, at its start)"
            for status, wanted in zip(statuses, expected):
                assert status == wanted if wanted != "2xx/3xx" else status[0] in "23", (
                    f"{where}\nstatuses {statuses}, expected {expected}"
                )
