"""What more than one test module uses: the test data's paths, the write key, sample bodies, the
reference histories some lists are checked on, and the steps that store and recompute them. Test
modules import from here (and from ``live_server`` / ``browser``), never from another test module or
from conftest.py; tests/project/test_suite_layout.py checks it. Fixtures stay in conftest.py.

Imported by conftest.py after it has set the test environment (DATABASE_URL, keys), so the app
modules below read that environment."""

import datetime as dt
import functools
import importlib.util
import os
import re
import subprocess
import sys
import time
from html.parser import HTMLParser
from pathlib import Path
from types import ModuleType
from xml.sax.saxutils import escape, quoteattr

import httpx
import numpy as np
from fastapi.testclient import TestClient
from prometheus_client.parser import text_string_to_metric_families
from sqlalchemy import delete, func, insert, select

from app import db
from app.models import Base, Job, RatingList
from app.recompute.jobs import run_pending_jobs
from app.services.importing import import_results_file
from tests.slow import require_slow

ROOT = Path(__file__).resolve().parents[1]
# Test data ships inside the repository, each set with its source and licence (tests/data/*/README.md).
DATA = Path(__file__).resolve().parent / "data"
RENJU_CN = DATA / "renju-cn-2009-2019" / "source.tsv"
# Go tournament files from OpenGotha's public repository (GPL): see tests/data/go/README.md.
GO_DATA = DATA / "go"
AUTH = {"Authorization": "Bearer secret-key"}


# --- the database ---------------------------------------------------------------------------------


def migration_module(file_name: str) -> ModuleType:
    """One file of migrations/versions/ loaded as a module (they are not a package)."""
    path = ROOT / "migrations" / "versions" / file_name
    spec = importlib.util.spec_from_file_location(f"migration_{path.stem}", path)
    module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module


def default_lists() -> list[dict]:
    """The lists the migrations create, as they leave them: every migration module's DEFAULT_LISTS
    in order (a new rating system's migration adds its list the same way), with the auto_recompute
    setting migration 0013 gives the lists that existed before it (a later list's row says its own) and
    the publication schedule migration 0020 gives. Read from the migrations once a process (loading
    them is some 40 ms, paid after every test otherwise); each caller gets rows of its own."""
    return [dict(rating_list) for rating_list in _default_lists_from_the_migrations()]


@functools.cache
def _default_lists_from_the_migrations() -> tuple[dict, ...]:
    versions = ROOT / "migrations" / "versions"
    lists: list[dict] = []
    for path in sorted(versions.glob("*.py")):
        lists += getattr(migration_module(path.name), "DEFAULT_LISTS", [])
    auto_recompute = migration_module("0013_auto_recompute_and_idempotency_in_progress.py").AUTO_RECOMPUTE_LISTS
    schedules = migration_module("0020_publications_and_provenance.py").PUBLICATION_DAYS
    return tuple(
        {
            "auto_recompute": rating_list["id"] in auto_recompute,
            "publication_days": schedules.get(rating_list["id"]),
            **rating_list,
        }
        for rating_list in lists
    )


def empty_database() -> None:
    """Every table emptied and the default rating lists put back, as the migrations leave them."""
    with db.get_engine().begin() as connection:
        for table in reversed(Base.metadata.sorted_tables):
            connection.execute(delete(table))
        connection.execute(insert(RatingList), default_lists())


def wait_until_no_job_runs(timeout_seconds: float = 60) -> None:
    """Until no recompute is queued or running: a live server's worker that still writes a snapshot
    while ``empty_database`` deletes would insert a row the deletes no longer see (on PostgreSQL, a
    foreign key violation when the lists go, and the next test's tables not empty)."""
    deadline = time.monotonic() + timeout_seconds
    with db.get_engine().connect() as connection:
        while connection.scalar(select(func.count()).select_from(Job).where(Job.status.in_(("queued", "running")))):
            connection.rollback()
            assert time.monotonic() < deadline, f"a job still ran after {timeout_seconds} s"
            time.sleep(0.05)


def alembic_runner(engine):  # type: ignore[no-untyped-def]
    """``run(direction, revision)``: Alembic's upgrade or downgrade on ``engine``, in one transaction."""
    from alembic import command
    from alembic.config import Config

    def run(direction: str, revision: str) -> None:
        config = Config(str(ROOT / "alembic.ini"))
        with engine.begin() as connection:
            config.attributes["connection"] = connection
            getattr(command, direction)(config, revision)

    return run


def random_history(
    seed: int,
    n_players: int,
    n_games: int,
    n_days: int,
    draw_rate: float = 0.15,
    *,
    spacing: int = 40,
    first_day: int = 730_000,
    in_day_order: bool = False,
):  # type: ignore[no-untyped-def]
    """Unstructured random games (black, white, black's score, day ordinal): several days per player,
    draws, repeated pairs on a day; ``n_days`` days drawn from ``spacing * n_days`` after
    ``first_day``, the games in day order when ``in_day_order`` (tournament order follows the days)."""
    rng = np.random.default_rng(seed)
    black = rng.integers(0, n_players, n_games)
    white = rng.integers(0, n_players - 1, n_games)
    white = np.where(white >= black, white + 1, white)
    strength = rng.normal(0.0, 1.0, n_players)
    p = 1.0 / (1.0 + np.exp(strength[white] - strength[black]))
    score = np.where(rng.random(n_games) < draw_rate, 0.5, (rng.random(n_games) < p).astype(float))
    days = np.sort(rng.choice(np.arange(0, spacing * n_days), n_days, replace=False)) + first_day
    day = days[rng.integers(0, n_days, n_games)]
    return black, white, score, np.sort(day) if in_day_order else day


# --- bodies and steps through the API -------------------------------------------------------------


def metric_sum(url: str, name: str, **labels: str) -> float:
    """The sum of the samples of a metric on a live server's ``/metrics`` whose labels include ``labels``."""
    text = httpx.get(f"{url}/metrics", timeout=10).text
    return sum(
        sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
        if sample.name == name and labels.items() <= sample.labels.items()
    )


def tournament_body(tournament_id: str = "T1", **overrides: object) -> dict:
    """A small valid renju tournament: four players, a round robin of six games."""
    body: dict = {
        "id": tournament_id,
        "name": "Test Open",
        "category": "renju",
        "rule": "RIF",
        "start": "2020-05-01",
        "end": "2020-05-03",
        "country": "EST",
        "time_control_minutes": 60,
        "players": [
            {"id": "p1", "name": "Ants", "surname": "Soosõrv", "country": "EST"},
            {"id": "p2", "name": "Ando", "surname": "Meritee", "country": "EST"},
            {"id": "p3", "name": "Tunnet", "surname": "Taimla", "country": "EST"},
            {"id": "p4", "name": "Yusui", "surname": "Nakamura", "country": "JPN"},
        ],
        "games": [
            {"id": "g1", "round": "1", "black": "p1", "white": "p2", "result": "B"},
            {"id": "g2", "round": "1", "black": "p3", "white": "p4", "result": "W"},
            {"id": "g3", "round": "2", "black": "p1", "white": "p3", "result": "D"},
            {"id": "g4", "round": "2", "black": "p2", "white": "p4", "result": "W"},
            {"id": "g5", "round": "3", "black": "p4", "white": "p1", "result": "B", "date": "2020-05-03"},
            {"id": "g6", "round": "3", "black": "p2", "white": "p3", "result": "B", "played": False},
        ],
    }
    body.update(overrides)
    return body


def store_three_tournaments(client, list_date: dt.date) -> None:  # type: ignore[no-untyped-def]
    """``tournament_body``'s round robin played three times, months apart (2020-05, 2020-08, 2021-02),
    each on one day, and the recomputes it queued run as of ``list_date``: a small history whose
    later tournaments an evaluation can predict from the earlier ones."""
    for number, start in enumerate(("2020-05-01", "2020-08-01", "2021-02-01"), start=1):
        body = tournament_body(f"T{number}", start=start, end=start)
        for game in body["games"]:
            game.pop("date", None)  # (the body's one dated game is dated in 2020-05)
        assert client.post("/v1/tournaments", json=body, headers=AUTH).status_code == 201
    run_pending_jobs(list_date=list_date)


def with_player_ids(body: dict, prefix: str) -> dict:
    """The tournament with its players' ids prefixed (in ``players``, games and standings): other
    people than the sample tournaments' p1…p4, whose stored names a submission may not contradict
    (docs/decisions.md 108)."""
    for player in body.get("players", []):
        player["id"] = f"{prefix}{player['id']}"
    for game in body["games"]:
        game["black"], game["white"] = f"{prefix}{game['black']}", f"{prefix}{game['white']}"
    for standing in body.get("standings", []):
        standing["player"] = f"{prefix}{standing['player']}"
    return body


def go_body(**overrides):  # type: ignore[no-untyped-def]
    """A Go tournament whose players declare rank, rating, club and EGF pin (or some of them)."""
    body = tournament_body("G1", category="go", rule=None, board_size=19)
    body["players"] = [
        {
            "id": "p1",
            "name": "Artem",
            "surname": "Kachanovskyi",
            "country": "UA",
            "rank": "6D",
            "rating": 2650.5,
            "club": "Rivn",
            "egf_pin": "13219100",
        },
        {"id": "p2", "name": "Andrii", "surname": "Kravets", "country": "UA", "rank": "6d", "club": "Rivn"},
        {"id": "p3", "name": "Ants"},
        {"id": "p4", "rank": "30k", "rating": -900},
    ]
    body.update(overrides)
    return body


def recompute_now(client, list_id: str = "rif-whr", list_date: dt.date | None = None) -> dict:  # type: ignore[no-untyped-def]
    """The list recomputed through the API, its job run in this process; the finished job."""
    accepted = client.post(f"/v1/rating-lists/{list_id}/recompute", headers=AUTH)
    assert accepted.status_code == 202, accepted.text
    run_pending_jobs(list_date=list_date)
    job = client.get(f"/v1/jobs/{accepted.json()['job_id']}").json()
    assert job["status"] == "succeeded", job
    return job


def ratings(client, **params):  # type: ignore[no-untyped-def]
    """The rif-whr list's rows (every status, up to 500) by player id."""
    response = client.get("/v1/rating-lists/rif-whr/ratings", params={"status": "all", "limit": 500, **params})
    assert response.status_code == 200, response.text
    return {row["player_id"]: row for row in response.json()["items"]}


def cli_import_renju_cn() -> str:
    """`python -m app.cli import` of the Chinese results file in a subprocess, its recomputes left
    queued (the tests that follow recompute when they choose); its output."""
    require_slow("the real Chinese results imported through the CLI")
    result = subprocess.run(
        [sys.executable, "-m", "app.cli", "import", "--no-progress", "--no-recompute", str(RENJU_CN)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=os.environ.copy(),
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


# --- a small RIF Elo history (rif-elo list) -------------------------------------------------------

RIF_ELO_PLAYERS = [{"id": pid, "name": pid.upper()} for pid in ("a", "b", "c", "d", "n1", "n2")]


def round_robin(ids: list[str], results: str) -> list[dict]:
    """Every pair of ``ids`` once, in order, with the results of ``results`` (one letter a game)."""
    pairs = [(x, y) for i, x in enumerate(ids) for y in ids[i + 1 :]]
    return [{"black": x, "white": y, "result": r} for (x, y), r in zip(pairs, results)]


RIF_ELO_TOURNAMENTS = [
    ("t1995", "1995-03-01", "1995-03-05", ["a", "b", "c", "n1"], "BWDBWD"),
    ("t1996", "1996-05-01", "1996-05-04", ["a", "b", "d", "n1", "n2"], "BDWBWBDWBW"),
    ("t1998", "1998-07-01", "1998-07-03", ["a", "b", "c", "d", "n1", "n2"], "BWDBWDBWDBWDBWD"),
    ("t2022", "2022-01-01", "2022-01-02", ["a", "b"], "B"),
]
RIF_ELO_SEEDS = [
    {"player_id": "a", "rating": 2300, "status": "established", "as_of": "1994-12-31"},
    {"player_id": "b", "rating": 2150, "status": "established", "as_of": "1994-12-31"},
    {"player_id": "c", "rating": 2050, "status": "established", "as_of": "1994-12-31"},
    {"player_id": "d", "rating": 1980, "status": "established", "as_of": "1994-12-31"},
]


def store_rif_elo_history(client) -> None:  # type: ignore[no-untyped-def]
    for tid, start, end, ids, results in RIF_ELO_TOURNAMENTS:
        body = {
            "id": tid,
            "name": tid,
            "category": "renju",
            "start": start,
            "end": end,
            "players": RIF_ELO_PLAYERS,
            "games": round_robin(ids, results),
        }
        assert client.post("/v1/tournaments", json=body, headers=AUTH).status_code == 201


def recompute_rif_elo(client) -> dict:  # type: ignore[no-untyped-def]
    job_id = client.post("/v1/rating-lists/rif-elo/recompute", headers=AUTH).json()["job_id"]
    run_pending_jobs(list_date=dt.date(2021, 8, 7))
    job = client.get(f"/v1/jobs/{job_id}").json()
    assert job["status"] == "succeeded", job
    return job


# --- Olufsen shogi tables (olufsen list) ----------------------------------------------------------

SHOGI_PLAYERS = [{"id": pid, "name": pid.upper()} for pid in ("e1", "e2", "s1", "s2", "n1", "n2", "x", "y")]
SHOGI_SEEDS = [
    # e1, e2: two established 2000s for the hand-worked game; s1 an established 2d close to 3d's UB
    # (2080); s2 provisional with 12 games.
    {"player_id": "e1", "rating": 2000, "as_of": "2024-01-01", "title": "2d", "counters": {"rated_games": 30}},
    {"player_id": "e2", "rating": 2000, "as_of": "2024-01-01", "title": "2d"},
    {"player_id": "s1", "rating": 2070, "as_of": "2024-01-01", "title": "2d", "counters": {"rated_games": 40}},
    {
        "player_id": "s2",
        "rating": 1500,
        "status": "provisional",
        "as_of": "2024-01-01",
        "title": "3k",
        "counters": {"rated_games": 12},
    },
]
# (id, start, end, games as (black, white, result), handicap games as (black, white, result, handicap))
SHOGI_TOURNAMENTS = [
    ("shogi-a", "2024-02-01", "2024-02-01", [("e1", "e2", "B")], []),
    (
        "shogi-b",
        "2024-03-01",
        "2024-03-03",
        [("s1", "s2", "B"), ("s1", "n1", "B"), ("n2", "s1", "W"), ("s2", "n1", "D"), ("n2", "s2", "B"), ("n1", "n2", "B")],
        # s2 beats s1 at a handicap: not rated (INTERPRETATIONS 2.17)
        [("s1", "s2", "W", 2)],
    ),
    (
        "shogi-c",
        "2024-06-01",
        "2024-06-02",
        [("s1", "n1", "D"), ("s2", "n2", "B"), ("n1", "s2", "W"), ("n2", "s1", "W")],
        [],
    ),
]
# 17 games for x in one table: 001 (13) and INTERPRETATIONS 2.16 want it split; the replay skips it.
SHOGI_TOO_MANY = ("shogi-17", "2024-09-01", "2024-09-01", [("x", "n1" if i % 2 else "y", "B") for i in range(17)], [])


def shogi_body(tid, start, end, games, handicap_games, players=SHOGI_PLAYERS):  # type: ignore[no-untyped-def]
    """One shogi table as a submission: its games as (black, white, result), handicap games with their handicap."""
    return {
        "id": tid,
        "name": tid,
        "category": "shogi",
        "start": start,
        "end": end,
        "board_size": 9,
        "players": players,
        "games": [{"black": b, "white": w, "result": r} for b, w, r in games]
        + [{"black": b, "white": w, "result": r, "handicap": h} for b, w, r, h in handicap_games],
    }


def submit_shogi(client, tid, start, end, games, handicap_games):  # type: ignore[no-untyped-def]
    response = client.post("/v1/tournaments", json=shogi_body(tid, start, end, games, handicap_games), headers=AUTH)
    assert response.status_code == 201, response.text


# --- the website on real data -----------------------------------------------------------------

SITE_LIST_DATE = dt.date(2019, 12, 31)  # the Chinese file ends 2019-12-15: its players are still active then
SITE_EARLIER = dt.date(2018, 12, 31)  # rif-whr's first snapshot, superseded by the one of SITE_LIST_DATE


def load_site(client: TestClient) -> None:
    """The renju and Go files imported, every list with data recomputed (rif-whr twice)."""
    require_slow("every real file imported and rated (the website's data)")
    import_results_file(RENJU_CN)
    for name in ("egc2013.h9", "juvisy2019.h9"):
        import_results_file(GO_DATA / name)
    for tournament in [*SHOGI_TOURNAMENTS, SHOGI_TOO_MANY]:
        submit_shogi(client, *tournament)
    assert client.put("/v1/rating-lists/olufsen/seeds", json={"seeds": SHOGI_SEEDS}, headers=AUTH).status_code == 200
    assert client.patch("/v1/rating-lists/rif-elo/params", json={"bootstrap_rating": 1800}, headers=AUTH).status_code == 200
    for lists, day in (
        (["rif-whr"], SITE_EARLIER),
        (["rif-whr", "rif-elo", "rivne"], SITE_LIST_DATE),
        (["olufsen"], dt.date(2024, 12, 31)),
    ):
        for list_id in lists:
            assert client.post(f"/v1/rating-lists/{list_id}/recompute", headers=AUTH).status_code == 202
        run_pending_jobs(list_date=day)


class Page(HTMLParser):
    """A page's tables (header cells, then each row's cell texts and first link), every link,
    form action and source, and its text."""

    def __init__(self, html: str) -> None:
        super().__init__()
        self.tables: list[dict] = []
        self.links: list[str] = []
        self.sources: list[str] = []
        self.text: list[str] = []
        self._cell: list[str] | None = None
        self._cell_link: str | None = None
        self._row: list[tuple[str, str | None]] | None = None
        self._in_head = False
        self._in_caption = False
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        for name in ("href", "src", "action"):
            if values.get(name) is not None:
                (self.links if name == "href" else self.sources).append(values[name])  # type: ignore[arg-type]
        if tag == "table":
            self.tables.append({"headers": [], "rows": [], "caption": ""})
        elif tag == "thead":
            self._in_head = True
        elif tag == "caption":
            self._in_caption = True
        elif tag == "tr":
            self._row = []
        elif tag in ("td", "th"):
            self._cell, self._cell_link = [], None
        elif tag == "a" and self._cell is not None and self._cell_link is None:
            self._cell_link = values.get("href")

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self._cell is not None and self._row is not None:
            self._row.append(("".join(self._cell).strip(), self._cell_link))
            self._cell = None
        elif tag == "tr" and self._row is not None:
            if self._in_head:
                self.tables[-1]["headers"] = [text for text, _ in self._row]
            else:
                self.tables[-1]["rows"].append(self._row)
            self._row = None
        elif tag == "thead":
            self._in_head = False
        elif tag == "caption":
            self._in_caption = False

    def handle_data(self, data: str) -> None:
        self.text.append(data)
        if self._in_caption:
            self.tables[-1]["caption"] += data
        if self._cell is not None:
            self._cell.append(data)

    def table(self, caption_part: str = "") -> dict:
        found = [t for t in self.tables if caption_part in t.get("caption", "")] if caption_part else self.tables
        assert found, f"no table {caption_part!r}"
        return found[0]

    @property
    def words(self) -> str:
        return re.sub(r"\s+", " ", "".join(self.text))


def cells(table: dict) -> list[dict[str, str]]:
    """A table's rows as {header: cell text}."""
    return [dict(zip(table["headers"], (text for text, _ in row))) for row in table["rows"]]


def export_xml(path: Path, **sections: list[dict]) -> Path:
    """The export's structure: a root with six sections of records whose fields are attributes; a
    game's ``moves`` become a ``move`` child."""
    with open(path, "w", encoding="utf-8") as out:
        out.write('<?xml version="1.0" encoding="utf-8"?>\n<database>\n')
        for section, record in (
            ("countries", "country"),
            ("cities", "city"),
            ("rules", "rule"),
            ("players", "player"),
            ("tournaments", "tournament"),
            ("games", "game"),
        ):
            out.write(f"<{section}>\n")
            for attributes in sections.get(section, []):
                moves = attributes.get("moves")
                fields = " ".join(f"{k}={quoteattr(str(v))}" for k, v in attributes.items() if k != "moves")
                if moves is None:
                    out.write(f"<{record} {fields}/>\n")
                else:
                    out.write(f"<{record} {fields}>\n<move>{escape(moves)}</move>\n</{record}>\n")
            out.write(f"</{section}>\n")
        out.write("</database>\n")
    return path
