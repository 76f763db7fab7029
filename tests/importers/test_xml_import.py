"""`python -m app.cli import` of the renju.net database export (XML): the real renju-cn results
written in the export's structure import exactly as the tab-separated file does; the export's date
rules, rated flags and rejected rows; the CLI's one-line errors."""

import datetime as dt
import os
import subprocess
import sys
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from app import db
from app.importers.renju_tsv import parse_path
from app.importers.renju_xml import Undatable, tournament_dates
from app.models import Game, Player, Tournament
from app.services.importing import import_results_file
from tests.helpers import RENJU_CN, ROOT, empty_database, export_xml, recompute_now

# Each test runs the CLI in a subprocess (about a second each), one imports the real file twice.
pytestmark = pytest.mark.slow

MOVES = "h8 i9 j8 i8 i7 h6 j9 j7 k8 l8 k9 k10 g8 f8 j10 h7 g6 l10 f6 e5 g7 g9 h10 i11 k11"


def renju_cn_as_export(path: Path) -> Path:
    """The real renju-cn results in the export's structure: the same countries, players, tournaments
    and games (also those of tournaments the file does not define), with moves and the optional and
    rating-free attributes present; cities named after their ids, a few women and native names."""
    parsed = parse_path(RENJU_CN)
    city_ids = {p.city_id for p in parsed.players.values()} | {t.city_id for t in parsed.tournaments.values()}
    scores = {"B": "1", "W": "0", "D": "0.5"}
    return export_xml(
        path,
        countries=[{"id": cid, "name": name, "abbr": abbr} for cid, (name, abbr) in parsed.countries.items()],
        cities=[{"id": cid, "country": "5", "name": f"City {cid}"} for cid in sorted(c for c in city_ids if c)],
        rules=[
            {"id": "1", "name": "RIF", "category": "1"},
            {"id": "5", "name": "RIF (2009)", "category": "1"},
            {"id": "2", "name": "Gomoku", "category": "2"},
        ],
        players=[
            {
                "id": p.id,
                "name": p.name,
                "surname": p.surname,
                "country": p.country_id or "",
                "city": p.city_id or "",
                "gender": "2" if int(p.id) % 5 == 0 else "1",
                **({"native_name": f"{p.surname}{p.name}本"} if int(p.id) % 2 == 0 else {}),
            }
            for p in parsed.players.values()
        ],
        tournaments=[
            {
                "id": t.id,
                "name": t.name,
                "country": t.country_id or "",
                "city": t.city_id or "",
                "start": t.start.isoformat(),
                "end": t.end.isoformat(),
                "year": t.end.year,
                "month": t.end.month,
                "rule": t.rule_id,
                "rated": "1",
            }
            for t in parsed.tournaments.values()
        ],
        games=[
            {
                "id": g.id,
                "tournament": g.tournament_id,
                "round": g.round,
                "unrated": "0",
                "rule": g.rule_id,
                "black": g.black,
                "white": g.white,
                "bresult": scores.get(g.result, ""),
                "publisher": "1",
                "btime": "0",
                "wtime": "0",
                "opening": "2",
                "alt": "",
                "swap": "",
                "moves": MOVES,
            }
            for g in parsed.games
        ],
    )


def run_cli(*arguments: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "app.cli", *arguments],
        check=False,
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=os.environ.copy(),
        timeout=300,
    )


def run_import(path: Path, *options: str) -> str:
    result = run_cli("import", "--no-progress", *options, str(path))
    assert result.returncode == 0, result.stderr
    return result.stdout


def stored_state() -> dict:
    with db.session_scope() as session:
        tournaments = {
            t.id: {
                c: getattr(t, c)
                for c in (
                    "name",
                    "category",
                    "rule",
                    "start",
                    "end",
                    "country",
                    "city",
                    "rated",
                    "time_control_minutes",
                    "format",
                    "complete_records",
                    "board_size",
                )
            }
            for t in session.scalars(select(Tournament))
        }
        players = {
            p.id: {c: getattr(p, c) for c in ("name", "surname", "native_name", "country", "city", "gender", "birth_year")}
            for p in session.scalars(select(Player))
        }
        games = sorted(
            (
                g.tournament_id,
                g.seq,
                g.game_id,
                g.round,
                g.black_id,
                g.white_id,
                g.result,
                g.played,
                g.date,
                g.handicap,
                g.board_size,
            )
            for g in session.scalars(select(Game))
        )
    return {"tournaments": tournaments, "players": players, "games": games}


def whole_list(client: TestClient) -> dict[str, tuple]:
    rows: dict[str, tuple] = {}
    while True:
        page = client.get("/v1/rating-lists/rif-whr/ratings", params={"status": "all", "limit": 500, "offset": len(rows)}).json()
        rows.update(
            (r["player_id"], (r["rank"], r["rating"], r["deviation"], r["games"], r["last_played"], r["status"]))
            for r in page["items"]
        )
        if len(rows) >= page["total"]:
            return rows


def test_real_results_as_the_export_import_exactly_as_the_tab_separated_file(tmp_path: Path, client: TestClient):
    import_results_file(RENJU_CN)
    from_tsv = stored_state()
    recompute_now(client)
    list_from_tsv = whole_list(client)
    empty_database()

    export = renju_cn_as_export(tmp_path / "renjunet.xml")
    first = run_import(export, "--no-recompute")  # recomputed below, cold as the first
    assert "(renju.net database export (XML))" in first
    assert "tournaments stored: 59" in first
    assert "players stored:     526" in first
    assert "games stored:       4644" in first
    assert "17510  game of a tournament the file does not define" in first
    assert "rows rejected:      17510" in first
    from_xml = stored_state()
    recompute_now(client)
    list_from_xml = whole_list(client)

    # Identical games; identical tournaments and players but for what only the export holds.
    assert from_xml["games"] == from_tsv["games"] and len(from_xml["games"]) == 4644
    assert from_xml["tournaments"].keys() == from_tsv["tournaments"].keys()
    for tournament_id, fields in from_xml["tournaments"].items():
        city_id = parse_path(RENJU_CN).tournaments[tournament_id].city_id
        assert fields.pop("city") == f"City {city_id}"
        assert from_tsv["tournaments"][tournament_id].pop("city") is None
        assert fields == from_tsv["tournaments"][tournament_id]
    assert from_xml["players"].keys() == from_tsv["players"].keys()
    described = parse_path(RENJU_CN).players
    for player_id, fields in from_xml["players"].items():
        extra = {name: fields.pop(name) for name in ("native_name", "gender", "city")}
        tsv_fields = from_tsv["players"][player_id]
        assert {name: tsv_fields.pop(name) for name in extra} == {"native_name": None, "gender": None, "city": None}
        assert fields == tsv_fields
        if player_id in described:
            assert extra["gender"] == ("F" if int(player_id) % 5 == 0 else "M")
            player = described[player_id]
            assert extra["native_name"] == (f"{player.surname}{player.name}本" if int(player_id) % 2 == 0 else None)
            assert extra["city"] == f"City {player.city_id}"
        else:
            assert extra == {"native_name": None, "gender": None, "city": None}
    assert client.get("/v1/players/2487").json()["gender"] == "M"

    # The same WHR list after a recompute.
    assert len(list_from_xml) == 526
    assert list_from_xml == list_from_tsv

    second = run_import(export)
    assert "tournaments stored: 0 (already present, unchanged: 59)" in second
    assert "games stored:       0" in second and "players stored:     0" in second


def test_date_rules():
    # Both unknown: the tournament's year and month give the first and last day of that month.
    assert tournament_dates("0000-00-00", "0000-00-00", "2019", "2") == (dt.date(2019, 2, 1), dt.date(2019, 2, 28))
    assert tournament_dates("0000-00-00", "0000-00-00", "2020", "2") == (dt.date(2020, 2, 1), dt.date(2020, 2, 29))
    assert tournament_dates("0000-00-00", "0000-00-00", "2019", "12") == (dt.date(2019, 12, 1), dt.date(2019, 12, 31))
    # One unknown: the other.
    assert tournament_dates("0000-00-00", "2019-05-04", "2019", "5") == (dt.date(2019, 5, 4), dt.date(2019, 5, 4))
    assert tournament_dates("2019-05-02", "0000-00-00", "0", "0") == (dt.date(2019, 5, 2), dt.date(2019, 5, 2))
    # A day of 00: the 1st.
    assert tournament_dates("2019-05-00", "2019-06-00", "2019", "5") == (dt.date(2019, 5, 1), dt.date(2019, 6, 1))
    # A start after the end: the end.
    assert tournament_dates("2019-05-09", "2019-05-04", "2019", "5") == (dt.date(2019, 5, 4), dt.date(2019, 5, 4))
    assert tournament_dates("2019-05-03", "2019-05-00", "2019", "5") == (dt.date(2019, 5, 1), dt.date(2019, 5, 1))
    # A year of 0: the tournament cannot be dated.
    for start, end, year, month in (
        ("0000-00-00", "0000-00-00", "0", "5"),
        ("0000-05-01", "0000-05-03", "2019", "5"),
        ("0000-00-00", "0000-05-03", "2019", "5"),
        ("0000-00-00", "0000-00-00", "2019", "0"),  # nor a month of 0
        ("2019-00-00", "2019-00-00", "2019", "0"),
        ("", "2019-05-03", "2019", "5"),  # nor a date that is not one
        ("2019-02-30", "2019-03-01", "2019", "2"),
        ("0000-00-00", "0000-00-00", None, None),
    ):
        with pytest.raises(Undatable):
            tournament_dates(start, end, year, month)


def _small_export(path: Path, tournaments: list[dict], games: list[dict], players: list[dict] | None = None) -> Path:
    return export_xml(
        path,
        countries=[{"id": "1", "name": "Estonia", "abbr": "EST"}, {"id": "2", "name": "Japan", "abbr": "JPN"}],
        cities=[{"id": "10", "country": "1", "name": "Tallinn"}],
        rules=[
            {"id": "1", "name": "RIF", "category": "1"},
            {"id": "7", "name": "Yamaguchi", "category": "renju"},
            {"id": "2", "name": "Gomoku", "category": "2"},
            {"id": "9", "name": "Connect6", "category": "3"},
        ],
        players=players
        if players is not None
        else [
            {"id": "1", "name": "Ants", "surname": "Soosõrv", "country": "1", "city": "10", "gender": "1"},
            {
                "id": "2",
                "name": "Yusui",
                "surname": "Nakamura",
                "country": "2",
                "city": "",
                "gender": "1",
                "native_name": "中村茂",
            },
            {"id": "3", "name": "Kaisa", "surname": "Kask", "country": "1", "city": "10", "gender": "2"},
        ],
        tournaments=tournaments,
        games=games,
    )


def _tournament(tournament_id: str, **fields: str) -> dict:
    return {
        "id": tournament_id,
        "name": f"Cup {tournament_id}",
        "country": "1",
        "city": "10",
        "start": "2019-05-01",
        "end": "2019-05-03",
        "year": "2019",
        "month": "5",
        "rule": "1",
        "rated": "1",
        **fields,
    }


def _game(game_id: str, tournament_id: str, black: str, white: str, bresult: str = "1", **fields: str) -> dict:
    return {
        "id": game_id,
        "tournament": tournament_id,
        "rule": "1",
        "black": black,
        "white": white,
        "bresult": bresult,
        "moves": MOVES,
        **fields,
    }


def test_rejected_rows_by_reason_and_what_each_means(tmp_path: Path, client: TestClient):
    export = _small_export(
        tmp_path / "export.xml",
        tournaments=[
            _tournament("100"),
            _tournament("101", start="0000-00-00", end="0000-00-00", year="0", month="0"),
            _tournament("102", rule="4"),
            _tournament("103", rule="9"),
            _tournament("104", name=""),
            {"id": "105", "name": "No dates"},
            _tournament("106", country="9", name="x" * 301),  # the submission service refuses it
        ],
        games=[
            _game("1", "100", "1", "2", "1", round="1", unrated="0"),
            _game("2", "100", "2", "3", "0.5"),
            _game("3", "100", "1", "1", "1"),
            _game("4", "100", "3", "1", ""),
            _game("5", "100", "3", "2", "2"),
            _game("6", "100", "2", "1", "0", unrated="1"),
            _game("7", "999", "1", "2"),
            _game("8", "101", "1", "2"),
            _game("9", "102", "1", "2"),
            _game("10", "103", "1", "2"),
            _game("11", "104", "1", "2"),
            _game("12", "106", "1", "2"),
            _game("13", "106", "2", "3"),
            {"id": "14", "tournament": "100", "black": "1"},
        ],
    )
    report = run_import(export)
    assert "tournaments stored: 1 " in report
    assert "games stored:       3" in report
    expected = {
        "game of a player against himself": 1,
        "game without a result": 1,
        "unknown result code": 1,
        "game of a tournament the file does not define": 2,  # of 999, and of 104 (malformed)
        "tournament that cannot be dated": 1,
        "tournament of a rule the file does not define": 1,
        "tournament of a rule of neither the renju nor the gomoku category": 1,
        "game of a tournament rejected by the import": 3,
        "malformed tournament record": 2,
        "malformed game record": 1,
        "tournament refused by the submission service": 1,
        "game of a tournament the submission service refused": 2,
    }
    for reason, count in expected.items():
        assert f"{count:>7}  {reason}\n             means: " in report, reason
    assert f"rows rejected:      {sum(expected.values())}" in report
    assert "e.g. tournament 106: /name:" in report
    assert "e.g. game 3: player '1'" in report
    assert "e.g. game 5: bresult '2'" in report
    assert "e.g. tournament 101: dates unknown and year '0', month '0'" in report

    stored = client.get("/v1/tournaments/100").json()
    assert [(g["id"], g["result"], g["played"], g["round"]) for g in stored["games"]] == [
        ("1", "B", True, "1"),
        ("2", "D", True, None),
        ("6", "W", False, None),
    ]
    assert stored["category"] == "renju" and stored["rule"] == "RIF" and stored["country"] == "EST"
    assert stored["city"] == "Tallinn" and stored["rated"] is True
    players = {p["id"]: p for p in stored["players"]}
    assert players["2"]["native_name"] == "中村茂" and players["2"]["country"] == "JPN" and players["2"]["city"] is None
    assert players["3"]["gender"] == "F" and players["1"]["gender"] == "M" and players["1"]["city"] == "Tallinn"
    assert client.get("/v1/tournaments/106").status_code == 404


def test_rules_decide_the_list_and_rated_flags_follow_the_file_and_the_override_lists(tmp_path: Path, client: TestClient):
    export = _small_export(
        tmp_path / "export.xml",
        tournaments=[
            _tournament("200", rule="2"),
            _tournament("201", rule="7", rated="0"),
            # (a month each: the same one game on the same days would repeat 201's, decision 107)
            _tournament("202", rated="0", start="2019-06-01", end="2019-06-03", month="6"),
            _tournament("203", rated="1", start="2019-07-01", end="2019-07-03", month="7"),
            _tournament("204", rated="1", start="2019-08-01", end="2019-08-03", month="8"),
            _tournament("205", start="0000-00-00", end="0000-00-00", year="2018", month="2"),
        ],
        games=[_game(str(n), tid, "1", "2") for n, tid in enumerate(["200", "201", "202", "203", "204", "205"])],
    )
    rated_anyway = tmp_path / "rated"
    rated_anyway.write_text("202\n\n# a comment\n204\n", encoding="utf-8")
    not_rated_anyway = tmp_path / "unrated"
    not_rated_anyway.write_text("203\n204\n", encoding="utf-8")
    report = run_import(export, "--rated-anyway", str(rated_anyway), "--not-rated-anyway", str(not_rated_anyway))
    assert "tournaments stored: 6 " in report and "rows rejected:      0" in report
    read = {tid: client.get(f"/v1/tournaments/{tid}").json() for tid in ("200", "201", "202", "203", "204", "205")}
    assert (read["200"]["category"], read["200"]["rule"]) == ("gomoku", "Gomoku")
    assert (read["201"]["category"], read["201"]["rule"]) == ("renju", "Yamaguchi")
    # the file's flag; rated anyway; not rated anyway; in both lists: rated (as the official computation)
    assert [read[t]["rated"] for t in ("200", "201", "202", "203", "204")] == [True, False, True, False, True]
    assert (read["205"]["start"], read["205"]["end"]) == ("2018-02-01", "2018-02-28")
    assert {g["date"] for g in read["205"]["games"]} == {"2018-02-28"}

    # Run again without the list that unrated 203: only that tournament changes, and is corrected.
    again = run_import(export, "--rated-anyway", str(rated_anyway))
    assert "tournaments stored: 0 (already present, unchanged: 5; corrected, as the file gives them otherwise: 1)" in again
    assert client.get("/v1/tournaments/203").json()["rated"] is True


def test_players_only_named_by_games_are_created_with_their_id_alone(tmp_path: Path, client: TestClient):
    export = _small_export(tmp_path / "export.xml", [_tournament("300")], [_game("1", "300", "1", "77")])
    assert "players stored:     2" in run_import(export)
    assert client.get("/v1/players/77").json() == {
        "id": "77",
        "name": None,
        "surname": None,
        "native_name": None,
        "country": None,
        "city": None,
        "gender": None,
        "birth_year": None,
        "external_ids": [],
        "earlier_names": [],
        "merged_into": None,
    }


def test_move_data_of_any_length_is_skipped(tmp_path: Path, client: TestClient):
    long_moves = " ".join(["h8 i9 j10"] * 200_000)  # 2 MB of moves in one game
    export = _small_export(tmp_path / "export.xml", [_tournament("400")], [_game("1", "400", "1", "2", moves=long_moves)])
    assert "games stored:       1" in run_import(export)


def test_submission_command_reads_the_export(tmp_path: Path):
    export = _small_export(tmp_path / "export.xml", [_tournament("500")], [_game("1", "500", "1", "2", "0.5")])
    result = run_cli("submission", str(export), "--tournament", "500")
    assert result.returncode == 0, result.stderr
    assert '"result": "D"' in result.stdout and '"city": "Tallinn"' in result.stdout


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "No such file or directory"),
        ("player\t1\tJürgen\tMüller\t1\t1\n".encode("latin-1"), "not UTF-8 text (byte 0xFC; Latin-1 perhaps)"),
        (
            b'<?xml version="1.0"?>\n<catalog><book id="1"/></catalog>\n',
            "an XML file of an unknown kind (root element <catalog>, first child <book>)",
        ),
        (b"%PDF-1.4 something else\n", "not a file format the importer knows"),
        (b"", "the file is empty"),
        (
            b'<?xml version="1.0"?>\n<database><countries><country id="1" abbr="EST"></countries></database>\n',
            "not well-formed XML (mismatched tag: line 2",
        ),
    ],
    ids=["missing", "latin-1", "unknown-xml", "unknown-format", "empty", "broken-xml"],
)
def test_cli_errors_are_one_line_and_a_failing_exit(tmp_path: Path, content: bytes | None, message: str):
    path = tmp_path / "input.dat"
    if content is not None:
        path.write_bytes(content)
    result = run_cli("import", "--no-progress", str(path))
    assert result.returncode == 1
    assert result.stdout == ""
    assert result.stderr.count("\n") == 1 and result.stderr.startswith(f"error: {path}: "), result.stderr
    assert message in result.stderr
    assert "Traceback" not in result.stderr


def test_a_missing_override_list_is_one_line_too(tmp_path: Path):
    export = _small_export(tmp_path / "export.xml", [_tournament("600")], [_game("1", "600", "1", "2")])
    result = run_cli("import", "--no-progress", "--rated-anyway", str(tmp_path / "nope.txt"), str(export))
    assert result.returncode == 1 and result.stderr.count("\n") == 1
    assert result.stderr.startswith(f"error: {tmp_path / 'nope.txt'}: No such file or directory")
