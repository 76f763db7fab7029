"""The website (issue 14) on real data: the Chinese renju results (rif-whr, and rif-elo started from
its bootstrap rating) and the Go files (rivne), plus the Olufsen shogi tables of
tests/api/test_olufsen_list_api.py (tests/helpers.py) for a grade change. Every page is rendered and read back as HTML
tables, against the API's own answers for the same data."""

import csv
import datetime as dt
import io
import re
from collections.abc import Iterator
from dataclasses import replace

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, or_, select, text

from app import db
from app.models import Game
from app.services import player_record
from app.snapshots import snapshot_changes
from app.web import pages
from app.web.charts import ChartPoint, rating_chart
from app.web.crosstable import CrossGame, Standing, crosstable
from app.web.i18n import shown_date
from tests.helpers import DATA, SITE_EARLIER, SITE_LIST_DATE, Page, cells, empty_database, load_site
from tests.rating_changes_scenario import shown, shown_difference, why_section

EGC = "egc2013main-2013-07-28"
EGC_FILE = DATA / "go" / "egc2013.h9"


@pytest.fixture(autouse=True)
def _clean_tables() -> Iterator[None]:
    """The module's tests only read: the data is loaded once (``site``) and cleaned at its end."""
    yield


@pytest.fixture(scope="module")
def site(app) -> Iterator[TestClient]:  # type: ignore[no-untyped-def]
    empty_database()
    with TestClient(app) as client:
        load_site(client)
        yield client
    empty_database()


# --- reading pages back -------------------------------------------------------------------------


def get_page(client: TestClient, url: str, status: int = 200) -> Page:
    response = client.get(url)
    assert response.status_code == status, (url, response.status_code, response.text[:500])
    if status == 200:
        assert response.headers["content-type"].startswith("text/html")
    return Page(response.text)


def api_rows(client: TestClient, list_id: str, **params: object) -> list[dict]:
    page = client.get(f"/v1/rating-lists/{list_id}/ratings", params={"limit": 500, **params})
    assert page.status_code == 200, page.text
    return page.json()["items"]


def day(iso: str | dt.date | None) -> str:
    """A day as the English pages show it (CLDR's medium format: Dec 31, 2019)."""
    if iso is None:
        return ""
    return shown_date(dt.date.fromisoformat(iso) if isinstance(iso, str) else iso, "en")


# --- the pages ------------------------------------------------------------------------------------


@pytest.mark.slow
def test_home_shows_each_list_with_its_date_count_and_top_ten(site):
    page = get_page(site, "/")
    words = page.words
    lists = site.get("/v1/rating-lists").json()
    for rating_list in lists:
        assert rating_list["name"] in words
    assert "Not computed yet." in words  # rif-whr-gomoku was never recomputed
    assert f"As of {day(SITE_LIST_DATE)}: 526 players" in words
    top = api_rows(site, "rif-whr", status="active", limit=10)
    whr = page.table("Top ten established players: RIF rating (Whole-History Rating), renju")
    assert [row[1][1] for row in whr["rows"]] == [f"/players/{r['player_id']}" for r in top]
    assert [c["Rating"] for c in cells(whr)] == [shown(r["rating"]) for r in top]
    assert "/players" in page.sources and 'role="search"' in site.get("/").text  # the search form


@pytest.mark.slow
def test_a_list_page_shows_the_api_rows_with_the_columns_its_system_has(site):
    page = get_page(site, "/lists/rif-whr?status=all&per_page=500")
    table = page.table()
    assert table["headers"] == ["#", "Player", "Rating", "Deviation", "Status", "Games", "Last played", "ID"]
    expected = api_rows(site, "rif-whr", status="all")
    assert len(table["rows"]) == len(expected) == 500
    for row, (text_and_links, api) in zip(cells(table), zip(table["rows"], expected)):
        assert row["#"] == str(api["rank"]) and row["ID"] == api["player_id"]
        assert row["Player"] == (api["name"] or api["player_id"]) and text_and_links[1][1] == f"/players/{api['player_id']}"
        assert (row["Rating"], row["Deviation"]) == (shown(api["rating"]), f"±\u202f{shown(api['deviation'])}")
        assert (row["Games"], row["Last played"], row["Status"]) == (str(api["games"]), day(api["last_played"]), api["status"])
    assert "Players 1 to 500 of 526" in page.words
    # Elo: integers, no deviation; Rivne: countries and declared ranks.
    assert get_page(site, "/lists/rif-elo?status=all").table()["headers"] == [
        "#",
        "Player",
        "Rating",
        "Status",
        "Games",
        "Last played",
        "ID",
    ]
    rivne = get_page(site, "/lists/rivne")
    assert rivne.table()["headers"] == [
        "#",
        "Player",
        "Rating",
        "Status",
        "Grade or rank",
        "Games",
        "Last played",
        "Country",
        "ID",
    ]
    first = cells(rivne.table())[0]
    api_first = api_rows(site, "rivne")[0]
    assert (first["Country"], first["Grade or rank"], first["Rating"]) == (
        api_first["country"],
        api_first["title"],
        shown(api_first["rating"]),
    )


@pytest.mark.slow
def test_filters_and_pagination_read_what_the_api_reads(site):
    # Country: only French players, as many as the API counts; the EGD's two-letter FR is stored as FRA.
    page = get_page(site, "/lists/rivne?country=FR&per_page=500")
    expected = api_rows(site, "rivne", country="FR")
    assert [c["ID"] for c in cells(page.table())] == [r["player_id"] for r in expected] and expected
    assert {c["Country"] for c in cells(page.table())} == {"FRA"}
    assert '<option value="FRA" translate="no" selected>' in site.get("/lists/rivne?country=FR").text
    # Status: the default is active, as in the API; inactive players only on request.
    default = cells(get_page(site, "/lists/rif-whr?per_page=500").table())
    assert {c["Status"] for c in default} == {"active"}
    assert len(default) == len(api_rows(site, "rif-whr"))
    inactive = cells(get_page(site, "/lists/rif-whr?status=inactive&per_page=500").table())
    assert {c["Status"] for c in inactive} == {"inactive"}
    # As of a date: the list as it stood then, answered from the stored points.
    as_of = cells(get_page(site, "/lists/rif-whr?status=all&as_of=2014-01-01&per_page=500").table())
    expected_then = api_rows(site, "rif-whr", status="all", as_of="2014-01-01")
    assert [(c["ID"], c["Rating"], c["Status"]) for c in as_of] == [
        (r["player_id"], shown(r["rating"]), r["status"]) for r in expected_then
    ]
    # Pagination: page 3 of 50 begins at rank 101 and links to its neighbours with the same filters.
    third = get_page(site, "/lists/rif-whr?status=all&per_page=50&page=3")
    assert cells(third.table())[0]["#"] == "101" and "Players 101 to 150 of 526" in third.words
    assert "/lists/rif-whr?status=all&per_page=50&page=2" in third.links
    assert "/lists/rif-whr?status=all&per_page=50&page=4" in third.links
    assert "/lists/rif-whr?status=all&per_page=50" in third.links  # the first page


@pytest.mark.slow
def test_an_empty_selection_says_so_and_offers_the_list_on_its_last_day(site):
    # On today's date every renju player is inactive (five years without a game, RIF 2021 #10).
    page = get_page(site, "/lists/rif-whr?as_of=2030-01-01")
    assert "No player with the status “active” matches these filters." in page.words and not page.tables
    assert "/lists/rif-whr?status=all&as_of=2030-01-01" in page.links


@pytest.mark.slow
@pytest.mark.parametrize(
    "query",
    ["status=all&per_page=50&page=2", "country=FRA", "status=all&as_of=2012-06-01&per_page=200", "status=inactive"],
)
def test_the_csv_download_is_exactly_the_table_shown(site, query):
    list_id = "rivne" if "country" in query else "rif-whr"
    html = site.get(f"/lists/{list_id}?{query}")
    page = Page(html.text)
    table = page.table()
    assert f"/lists/{list_id}/ratings.csv?{query}" in page.links
    download = site.get(f"/lists/{list_id}/ratings.csv?{query}")
    assert download.status_code == 200 and download.headers["content-type"] == "text/csv; charset=utf-8"
    assert download.headers["content-disposition"].startswith(f'attachment; filename="{list_id}-')
    rows = list(csv.reader(io.StringIO(download.text)))
    assert rows[0] == table["headers"]
    # The same cells, as data: a day as ISO 8601 where the page writes it in the reader's language.
    last_played = table["headers"].index("Last played")
    data = [[day(cell) if index == last_played else cell for index, cell in enumerate(row)] for row in rows[1:]]
    # A change as a number a spreadsheet reads: +45 and −51 as shown, 45 and -51 as data; a deviation
    # shown ± 40 is 40.
    shown = [[signed_as_data(text.removeprefix("±\u202f")) for text, _ in row] for row in table["rows"]]
    assert data == shown and len(rows) > 1
    change = table["headers"].index("Change") if "Change" in table["headers"] else None
    changes = [row[change] for row in rows[1:] if change is not None and row[change] not in ("", "new", "returned")]
    assert all(float(value) == int(value) for value in changes)


def signed_as_data(text: str) -> str:
    return text.replace("\u2212", "-").removeprefix("+") if re.fullmatch("[+\u2212][0-9]+", text) else text


@pytest.mark.slow
def test_snapshots_are_listed_by_date_and_each_reads_as_it_was(site):
    page = get_page(site, "/lists/rif-whr/snapshots")
    rows = cells(page.table())
    assert [row["List date"] for row in rows] == [f"{day(SITE_LIST_DATE)} (current)", day(SITE_EARLIER)]
    snapshots = site.get("/v1/rating-lists/rif-whr/snapshots").json()["items"]
    earlier = next(s for s in snapshots if s["list_date"] == str(SITE_EARLIER))
    assert f"/lists/rif-whr?snapshot={earlier['id']}" in page.links
    old = site.get(f"/lists/rif-whr?snapshot={earlier['id']}&status=all&per_page=500")
    assert old.headers["cache-control"] == "public, max-age=31536000, immutable"
    old_page = Page(old.text)
    assert f"Snapshot of {day(SITE_EARLIER)}, as it was computed" in old_page.words
    expected = api_rows(site, "rif-whr", status="all", snapshot_id=earlier["id"])
    assert [(c["ID"], c["Rating"]) for c in cells(old_page.table())] == [(r["player_id"], shown(r["rating"])) for r in expected]
    assert len(expected) < 526  # the players of 2019 were not on it yet
    # The download keeps the snapshot.
    csv_rows = list(csv.reader(io.StringIO(site.get(f"/lists/rif-whr/ratings.csv?status=all&snapshot={earlier['id']}").text)))
    assert len(csv_rows) == 1 + min(100, len(expected))


@pytest.mark.slow
def test_a_player_page_has_a_chart_and_the_tournaments_of_each_list_and_his_games(site):
    top = api_rows(site, "rif-whr", status="all", limit=1)[0]["player_id"]
    response = site.get(f"/players/{top}")
    page = Page(response.text)
    html = response.text
    # WHR: a line in a band of one deviation; Elo: steps, no band.
    whr_chart = html[html.index('id="chart-rif-whr-title"') : html.index("</svg>", html.index('id="chart-rif-whr-title"'))]
    elo_chart = html[html.index('id="chart-rif-elo-title"') : html.index("</svg>", html.index('id="chart-rif-elo-title"'))]
    assert 'class="band"' in whr_chart and "<polyline" in whr_chart
    assert 'class="band"' not in elo_chart and re.search(r'<path class="line" d="M[\d.,]+(H[\d.]+V[\d.]+)+"', elo_chart)
    history = site.get(f"/v1/players/{top}/history", params={"list": "rif-whr"}).json()["points"]
    assert whr_chart.count('class="dot"') == len(history)
    assert f"{len(history)} rating points from {day(history[0]['date'])}" in whr_chart
    # His tournaments on each list: before, after and change as the tournament's own page says.
    for list_id in ("rif-whr", "rif-elo"):
        name = site.get(f"/v1/rating-lists/{list_id}").json()["name"]
        table = page.table(f"Tournaments rated on {name}")
        rows = table["rows"]
        ids = [link.rsplit("/", 1)[1] for (_, link), *_ in rows]
        assert ids and len(ids) == len(set(ids))
        for (_, link), *rest in rows:
            row = dict(zip(table["headers"][1:], (text for text, _ in rest)))
            tournament = site.get(f"/v1/{link.lstrip('/')}").json()
            change = next(c for c in tournament["rating_changes"] if c["list_id"] == list_id and c["player_id"] == top)
            assert (row["Before"], row["After"]) == (shown(change["rating_before"]), shown(change["rating_after"]))
            if change["rating_before"] is not None:
                assert int(row["Change"].replace("\u2212", "-")) == int(row["After"]) - int(row["Before"])
    # His games, each with the opponent linked, a hundred to a page, the latest first.
    games = page.table("games, the latest first")
    total = int(re.search(r"Games (\d+)", page.words).group(1))  # type: ignore[union-attr]
    assert len(games["rows"]) == pages.GAMES_PAGE_SIZE < total < 2 * pages.GAMES_PAGE_SIZE
    assert "Page 1 of 2" in page.words and f"/players/{top}?page=2#games" in page.links
    second = Page(site.get(f"/players/{top}", params={"page": 2}).text)
    assert "Page 2 of 2" in second.words and f"/players/{top}#games" in second.links
    rows = games["rows"] + second.table("games, the latest first")["rows"]
    assert len(rows) == total
    played_on = [dt.datetime.strptime(row[3][0], "%b %d, %Y").date() for row in rows]
    assert played_on == sorted(played_on, reverse=True)
    for row in rows:
        opponent_link = row[0][1]
        assert opponent_link and opponent_link.startswith("/players/") and opponent_link != f"/players/{top}"
        assert row[1][0].split(" (")[0] in ("won", "lost", "drawn")
    # The place links to the list page that holds him.
    assert f"/lists/rif-whr?status=inactive#p-{top}" in page.links or f"/lists/rif-whr#p-{top}" in page.links


@pytest.mark.slow
def test_a_players_games_page_by_page_are_his_games_in_the_pages_order(site):
    """Each page is read through the colours' indexes (decision 94); together the pages are every game
    of his once, in the order the page promises, ties on a day broken by tournament then submission."""
    with db.session_scope() as session:
        busiest = session.execute(
            select(Game.black_id, func.count()).group_by(Game.black_id).order_by(func.count().desc()).limit(3)
        ).all()
        for player_id, _ in busiest:
            stored = session.scalars(select(Game).where(or_(Game.black_id == player_id, Game.white_id == player_id))).all()
            expected = [
                (game.date, game.tournament_id, game.round, game.white_id if game.black_id == player_id else game.black_id)
                for game in sorted(stored, key=lambda game: (game.date, game.tournament_id, game.seq), reverse=True)
            ]
            assert len({(date, tournament) for date, tournament, *_ in expected}) < len(expected)  # ties to break
            paged = [
                (game.date, game.tournament_id, game.round, game.opponent_id)
                for offset in range(0, len(expected) + 7, 7)
                for game in player_record.games(session, player_id, limit=7, offset=offset)
            ]
            assert (
                paged
                == expected
                == [
                    (game.date, game.tournament_id, game.round, game.opponent_id)
                    for game in player_record.games(session, player_id, limit=len(expected))
                ]
            )
            assert player_record.game_count(session, player_id) == len(expected)
        if session.get_bind().dialect.name == "sqlite":
            # Each colour's index gives his games in the page's order: nothing sorts all his games.
            statement = str(
                select(Game.pk)
                .where(Game.black_id == busiest[0][0])
                .order_by(Game.date.desc(), Game.tournament_id.desc(), Game.seq.desc())
                .limit(100)
                .compile(compile_kwargs={"literal_binds": True})
            )
            plan = " ".join(row[-1] for row in session.execute(text(f"EXPLAIN QUERY PLAN {statement}")))
            assert "COVERING INDEX ix_games_black_id_date_tournament_id_seq" in plan and "TEMP B-TREE" not in plan, plan


@pytest.mark.slow
def test_a_games_handicap_and_a_game_not_played_are_said_in_its_row(site):
    with db.session_scope() as session:
        # The first of each as stored, on both databases: unordered, PostgreSQL gave the first its pages
        # held, which after other modules' writes could be a game of a pair that met twice in the round.
        first = select(Game).order_by(Game.pk).limit(1)
        handicapped = session.scalars(first.where(Game.handicap > 1)).one()
        not_played = session.scalars(first.where(Game.played.is_(False))).one()
    for game, said in ((handicapped, f"(handicap {handicapped.handicap})"), (not_played, "(not played)")):
        page = Page(site.get(f"/players/{game.white_id}").text)
        rows = [row for row in page.table("the latest first")["rows"] if row[4][1] == f"/tournaments/{game.tournament_id}"]
        (row,) = [row for row in rows if row[0][1] == f"/players/{game.black_id}" and row[5][0] == (game.round or "")]
        assert row[2 if game is handicapped else 1][0].endswith(said), row
    russian = Page(site.get(f"/players/{handicapped.white_id}", headers={"accept-language": "ru"}).text)
    assert f"(фора {handicapped.handicap})" in russian.words


@pytest.mark.slow
def test_a_players_changes_are_his_rows_of_each_tournaments_changes_without_details(site):
    """``of_player`` reads neither the rows' player ids nor the details' columns: what it gives is
    what each tournament's changes say of him, but the details (every list, every player)."""
    with db.session_scope() as session:
        for list_id, _, changes in snapshot_changes.current_changes(session):
            by_tournament = [change for tournament in changes.tournaments() for change in changes.of_tournament(tournament)]
            assert by_tournament, list_id
            for player_id in {change.player_id for change in by_tournament}:
                expected = sorted(
                    (replace(change, details=None) for change in by_tournament if change.player_id == player_id),
                    key=lambda change: change.tournament_id,
                )
                assert changes.of_player(player_id) == expected, (list_id, player_id)


@pytest.mark.slow
def test_a_grade_change_is_marked_on_the_chart(site):
    html = site.get("/players/s1").text
    chart = html[html.index('id="chart-olufsen-title"') : html.index("</svg>", html.index('id="chart-olufsen-title"'))]
    assert chart.count('class="mark"') == 1 and '<text class="mark-label"' in chart and ">3d</text>" in chart
    assert "Starts at 2d. 2d to 3d on Jun 2, 2024." in chart
    table = Page(html).table("Tournaments rated on Shogi rating (Olufsen)")
    assert table["headers"][-1] == "Grade or rank after" and table["rows"][-1][-1][0] == "3d"


@pytest.mark.slow
def test_a_tournament_page_has_its_crosstable_and_each_lists_changes(site):
    tournament = site.get("/v1/tournaments/T0001").json()
    assert tournament["standings"] == []
    page = get_page(site, "/tournaments/T0001")
    assert "The tournament gave no standings of its own: players are placed by score alone" in page.words
    table = page.table("Crosstable of")
    rows = cells(table)
    played = {g["black"] for g in tournament["games"]} | {g["white"] for g in tournament["games"]}
    assert len(rows) == len(played)
    rounds = sorted({g["round"] for g in tournament["games"]}, key=int)
    lists = sorted({c["list_id"] for c in tournament["rating_changes"]})
    assert lists == ["rif-elo", "rif-whr"]
    countries = {p["id"]: p["country"] or "" for p in tournament["players"]}
    country = ["Country"] if any(countries.values()) else []
    rating_headers = [f"Rating ({list_id})" for list_id in lists]
    assert table["headers"] == ["No.", "Place", "Player", *country, *rating_headers, *[f"R{r}" for r in rounds], "Score"]
    # Scores add up to the games played, best first; each cell is answered by the opponent's.
    scores = [float(row["Score"].replace("\u00bd", ".5")) for row in rows]
    assert sum(scores) == len(tournament["games"]) and scores == sorted(scores, reverse=True)
    by_number = {row["No."]: row for row in rows}
    opposite = {"+": "\u2212", "\u2212": "+", "=": "="}
    for row in rows:
        for r in rounds:
            for cell in row[f"R{r}"].split():
                number, result, colour = re.fullmatch(r"(\d+)([+=\u2212])([bw])", cell).groups()  # type: ignore[union-attr]
                answer = f"{row['No.']}{opposite[result]}{'w' if colour == 'b' else 'b'}"
                assert answer in by_number[number][f"R{r}"].split()
    # Each player's rating before the tournament on each list that rates it, and his country.
    before = {(c["list_id"], c["player_id"]): c["rating_before"] for c in tournament["rating_changes"]}
    for row, shown_row in zip(rows, table["rows"], strict=True):
        player_id = shown_row[2][1].rsplit("/", 1)[1]
        for list_id in lists:
            assert row[f"Rating ({list_id})"] == shown(before.get((list_id, player_id)))
        if country:
            assert row["Country"] == countries[player_id]
    # Every list's changes, as the API gives them.
    for list_id in ("rif-whr", "rif-elo"):
        name = site.get(f"/v1/rating-lists/{list_id}").json()["name"]
        shown_rows = page.table(f"Each player's change on {name}")["rows"]
        expected = {c["player_id"]: c for c in tournament["rating_changes"] if c["list_id"] == list_id}
        assert {link.rsplit("/", 1)[1] for (_, link), *_ in shown_rows} == set(expected)
        for (_, link), after, _change, before_cell, *_ in shown_rows:
            change = expected[link.rsplit("/", 1)[1]]
            assert (before_cell[0], after[0]) == (shown(change["rating_before"]), shown(change["rating_after"]))


@pytest.mark.slow
def test_the_go_tournament_crosstable_has_every_player_and_his_declared_rank(site):
    tournament = site.get(f"/v1/tournaments/{EGC}").json()
    table = get_page(site, f"/tournaments/{EGC}").table("Crosstable of")
    assert len(table["rows"]) == len(tournament["players"]) == 594
    assert table["headers"][:5] == ["No.", "Place", "Player", "Country", "Rank or grade"]
    assert [h for h in table["headers"] if h.startswith("R") and h[1:].isdigit()] == [f"R{n}" for n in range(1, 11)]
    ranks = {p["id"]: p["rank"] for p in tournament["players"]}
    countries = {p["id"]: p["country"] for p in tournament["players"]}
    for row in table["rows"]:
        player_id = row[2][1].rsplit("/", 1)[1]
        assert (row[3][0], row[4][0]) == (countries[player_id], ranks[player_id])


@pytest.mark.slow
def test_the_egc_2013_page_shows_the_files_own_places_and_mms(site):
    """Issue 26: the EGC 2013 main tournament is placed by McMahon score and SOS as its h9 file says,
    not by wins; the "No." column is the file's line number, which its round cells refer to."""
    page = get_page(site, f"/tournaments/{EGC}")
    assert "Places as the tournament decided them, with its tie-breaks (MMS, SOS)" in page.words
    table = page.table("Crosstable of")
    assert table["headers"][-3:] == ["Score", "MMS", "SOS"]
    rows = cells(table)
    file_lines = [line for line in EGC_FILE.read_text(encoding="ascii").splitlines() if line.strip() and not line.startswith(";")]
    assert len(rows) == len(file_lines) == 594
    for number, (row, line) in enumerate(zip(rows, file_lines, strict=True), start=1):
        columns = line.split()
        assert row["No."] == str(number)
        if line[:4].strip():  # a blank place is tied with the line above
            place = line[:4].strip()
        assert row["Place"] == place
        rank_column = next(i for i, c in enumerate(columns) if re.fullmatch(r"\d{1,2}[kKdDpP]", c))
        assert (row["MMS"], row["SOS"]) == (columns[rank_column + 3].rstrip("?"), columns[rank_column + 4].rstrip("?")), line
        # The round cells name opponents by the file's own numbering.
        first_round = re.fullmatch(r"(\d+)([+=-])[/!]([wb])\d*|0[+=-]", columns[rank_column + 7])
        assert first_round is not None, line
        if first_round.group(1) is not None:
            opponent, result, colour = first_round.groups()
            symbol = {"+": "+", "=": "=", "-": "\u2212"}[result]
            assert row["R1"].startswith(f"{opponent}{symbol}{colour}"), (row, line)
    # Fan Hui first with 44 MMS; the 17 kyu who won most of his games is far below.
    assert (rows[0]["Place"], rows[0]["MMS"], rows[0]["SOS"]) == ("1", "44", "404")
    assert rows[1]["Place"] == "2" and "Tormanen" in table["rows"][1][2][0]
    api = site.get(f"/v1/tournaments/{EGC}").json()["standings"]
    assert [s["place"] for s in api] == sorted(s["place"] for s in api) and len(api) == 594
    assert api[0] == {
        "player": "fan-hui",
        "place": 1,
        "tie_breaks": [{"name": "MMS", "value": 44.0}, {"name": "SOS", "value": 404.0}],
    }


@pytest.mark.slow
def test_search_finds_players_by_name_and_the_index_lists_tournaments(site):
    page = get_page(site, "/players?q=zha")
    found = page.table()
    assert "/players/2487" in [row[0][1] for row in found["rows"]]
    # Each hit shows his disciplines and his rating on every list that rates him, as the API's search does.
    hits = {hit["id"]: hit for hit in site.get("/v1/players", params={"q": "zha", "limit": 100}).json()["items"]}
    rows = {row[0][1].rsplit("/", 1)[1]: row for row in found["rows"]}
    for player_id, row in rows.items():
        hit = hits[player_id]
        assert all(shown(r["rating"]) in row[1][0] for r in hit["ratings"])  # each beside its list's name (below)
        assert row[2][0] == ", ".join(d.capitalize() for d in hit["disciplines"])
    assert any(hits[player_id]["ratings"] for player_id in rows)
    assert "No player matches" in get_page(site, "/players?q=nobody-at-all").words
    index = get_page(site, "/tournaments")
    assert "61 tournaments" in index.words or "tournaments, the latest first" in index.words
    total = site.get("/v1/tournaments", params={"limit": 1}).json()["total"]
    assert f"{total} tournaments, the latest first" in index.words
    assert [row[0][1] for row in index.table()["rows"]][0].startswith("/tournaments/")


@pytest.mark.slow
def test_every_link_resolves_and_nothing_comes_from_outside(site):
    """From the home page, one step into every list, a player, a tournament and their links."""
    top = api_rows(site, "rif-whr", status="all", limit=1)[0]["player_id"]
    start = [
        "/",
        "/lists/rif-whr?status=all",
        "/lists/rivne",
        "/lists/olufsen?status=all",
        f"/players/{top}",
        "/players/s1",
        "/tournaments/T0001",
        "/tournaments",
        "/players?q=wang",
        "/lists/rif-whr/snapshots",
    ]
    seen: set[str] = set()
    for url in start:
        response = site.get(url)
        assert response.status_code == 200, url
        page = Page(response.text)
        assert "http:" not in response.text and "https:" not in response.text and "//" not in "".join(page.sources)
        for link in page.links + page.sources:
            assert link.startswith(("/", "#", "data:")) and not link.startswith("//"), (url, link)
            target = link.split("#")[0]
            if target.startswith("/") and target not in seen and not target.startswith("/docs"):
                seen.add(target)
                assert site.get(target).status_code == 200, (url, link)
    assert len(seen) > 100
    css = site.get(next(s for s in Page(site.get("/").text).links if s.startswith("/static/")))
    assert css.headers["cache-control"] == "public, max-age=31536000, immutable" and "url(" not in css.text


@pytest.mark.slow
def test_pages_send_etags_and_answer_304(site):
    for url in (
        "/",
        "/lists/rif-whr",
        "/lists/rif-whr/ratings.csv",
        "/lists/rif-whr/snapshots",
        "/players/s1",
        "/tournaments/T0001",
    ):
        first = site.get(url)
        assert first.headers["cache-control"] == "public, max-age=60, stale-while-revalidate=600", url
        again = site.get(url, headers={"If-None-Match": first.headers["etag"]})
        assert again.status_code == 304 and again.content == b"" and again.headers["etag"] == first.headers["etag"], url
        assert site.get(url, headers={"If-None-Match": '"other"'}).status_code == 200
    # A list page's tag follows its query and snapshot.
    tags = {site.get(url).headers["etag"] for url in ("/lists/rif-whr", "/lists/rif-whr?status=all", "/lists/rif-whr?page=2")}
    assert len(tags) == 3


@pytest.mark.slow
def test_wrong_input_and_missing_things_are_pages_that_say_so(site):
    site.cookies.set("lang", "en")  # (a test before followed the language switch's links)
    missing = get_page(site, "/players/nobody", status=404)
    assert "Player 'nobody' does not exist." in missing.words
    assert "does not exist" in get_page(site, "/lists/nope", status=404).words
    assert "does not exist" in get_page(site, "/tournaments/nope", status=404).words
    assert "does not exist" in get_page(site, "/lists/rif-whr?snapshot=999999", status=404).words
    bad = site.get("/lists/rif-whr?as_of=2019-13-01&page=0&status=best")
    assert bad.status_code == 422 and bad.headers["content-type"].startswith("text/html")
    words = Page(bad.text).words
    assert "as_of must be a date" in words and "page must be a whole number" in words and "status must be one of" in words
    assert site.get("/lists/rif-whr/ratings.csv?per_page=501").status_code == 422
    assert site.get("/lists/rif-whr?page=%C2%B2").status_code == 422  # a superscript two
    assert site.get("/tournaments?page=x").status_code == 422 and site.get("/players?page=-1").status_code == 422


def test_the_pages_are_not_in_the_contract(app):
    paths = app.openapi()["paths"]
    assert all(path.startswith("/v1/") for path in paths), [p for p in paths if not p.startswith("/v1/")]


# --- the pure parts --------------------------------------------------------------------------------


def test_csv_cells_a_spreadsheet_would_run_are_made_inert():
    from app.web.pages import ALL_COLUMNS, ShownRow, csv_rows

    columns = [c for c in ALL_COLUMNS if c.key in ("rank", "player", "rating")]
    row = ShownRow("x", "/players/x", {"rank": "1", "player": '=HYPERLINK("http://x")', "rating": "2100"})
    assert csv_rows({"columns": columns, "rows": [row]})[1] == ["1", '\'=HYPERLINK("http://x")', "2100"]


def test_chart_draws_steps_without_deviation_and_escapes_its_names():
    points = [ChartPoint(dt.date(2020, 1, 1), 1800), ChartPoint(dt.date(2021, 6, 1), 1850), ChartPoint(dt.date(2022, 3, 1), 1820)]
    svg = str(rating_chart(points, chart_id="c", subject="<Ann> & Bo"))
    assert "&lt;Ann&gt; &amp; Bo" in svg and "<Ann>" not in svg
    assert re.search(r'd="M[\d.]+,[\d.]+H[\d.]+V[\d.]+H[\d.]+V[\d.]+"', svg) and "band" not in svg
    assert ">2021<" in svg and ">2022<" in svg  # year ticks
    assert rating_chart([], chart_id="c", subject="x") == ""


def test_crosstable_shares_places_and_counts_a_walkover():
    games = [CrossGame("1", "a", "b", "B"), CrossGame("1", "c", "d", "D"), CrossGame("2", "a", "c", "W", played=False)]
    table = crosstable(["a", "b", "c", "d", "e"], games, order_key=str)
    assert table.rounds == ["1", "2"]
    assert [(r.player_id, r.place, r.score) for r in table.rows] == [
        ("c", "1", 1.5),
        ("a", "2", 1.0),
        ("d", "3", 0.5),
        ("b", "4\u20135", 0.0),
        ("e", "4\u20135", 0.0),
    ]
    assert table.rows[1].cells["2"][0].text == "1\u2212b f"


def test_crosstable_follows_the_tournaments_own_standings_and_places_the_rest_by_score():
    games = [CrossGame("1", "a", "b", "B"), CrossGame("1", "c", "d", "W"), CrossGame("2", "a", "d", "W")]
    standings = [Standing("c", 1, (3.0, 12.5)), Standing("a", 2, (3.0, 11.0)), Standing("b", 2, (2.0, 11.0))]
    table = crosstable(["a", "b", "c", "d", "e"], games, order_key=str, standings=standings, tie_break_names=["MMS", "SOS"])
    assert table.by_standings and table.tie_break_names == ("MMS", "SOS")
    # The tournament's order and places (c lost both games and is still first), then d and e by score.
    assert [(r.player_id, r.number, r.place, r.tie_breaks) for r in table.rows] == [
        ("c", 1, "1", (3.0, 12.5)),
        ("a", 2, "2", (3.0, 11.0)),
        ("b", 3, "2", (2.0, 11.0)),
        ("d", 4, "4", ()),
        ("e", 5, "5", ()),
    ]
    assert table.rows[0].cells["1"][0].text == "4\u2212b"  # the opponent by his number in this order
    assert not crosstable(["a"], [], order_key=str).by_standings


# --- why his rating changed (issue 47 item 1) ---------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize(
    ("player_id", "asked"),
    [
        ("952", {"from_day": "2018-01-01", "to_day": "2019-12-31"}),  # the question: no games in between
        ("498", {"from_day": "2018-01-01", "to_day": "2019-12-31"}),  # T0015 in July 2018
        ("498", {"from_day": "2016-01-01"}),  # to the live list
        ("498", {"from": "snapshot:earlier", "to": "snapshot:later"}),  # rif-whr's two computations
    ],
)
def test_why_a_rating_changed_shows_the_apis_answer_in_its_numbers(site, player_id, asked):
    site.cookies.clear()  # in English, whichever language an earlier test chose
    snapshots = [item["id"] for item in site.get("/v1/rating-lists/rif-whr/snapshots").json()["items"]]
    names = {"snapshot:later": f"snapshot:{snapshots[0]}", "snapshot:earlier": f"snapshot:{snapshots[1]}"}
    asked = {key: names.get(value, value) for key, value in asked.items()}
    query = {"from": asked.get("from_day", asked.get("from")), "to": asked.get("to_day", asked.get("to"))}
    answer = site.get(f"/v1/players/{player_id}/changes", params={"list": "rif-whr", **{k: v for k, v in query.items() if v}})
    assert answer.status_code == 200, answer.text
    api = answer.json()
    html = site.get(f"/players/{player_id}", params={"list": "rif-whr", **asked}).text
    section = why_section(html, "rif-whr")
    figures = dict(re.findall(r'data-why="(\w+)">(?:<strong>)?([^<]*)', section))
    start, end = api["from"], api["to"]
    assert figures["from"] == shown(start["rating"]) and figures["to"] == shown(end["rating"])
    assert figures["change"] == shown_difference(end["rating"], start["rating"])
    assert figures["past_revised"] == shown_difference(api["past_rating_now"], start["rating"])
    assert figures["new_games"] == shown_difference(end["rating"], api["past_rating_now"])
    # The parts shown add up to the change shown, as the API's parts add up to its change.
    as_number = {key: int(value.replace("\u2212", "-").lstrip("+")) for key, value in figures.items()}
    assert as_number["past_revised"] + as_number["new_games"] == as_number["change"] == as_number["to"] - as_number["from"]
    page = Page(section)
    if api["steps"]:
        rows = cells(page.table("day by day"))
        assert [row["Date"] for row in rows] == [day(step["date"]) for step in api["steps"]]
        assert [(row["Before"], row["After"]) for row in rows] == [
            (shown(step["rating_before"]), shown(step["rating_after"])) for step in api["steps"]
        ]
        assert [row["Change"] for row in rows] == [
            shown_difference(step["rating_after"], step["rating_before"]) for step in api["steps"]
        ]
        assert {link for link in page.links if link.startswith("/tournaments/")} == {
            f"/tournaments/{i}" for step in api["steps"] for i in step["tournament_ids"]
        }
    else:
        assert "day by day" not in page.words
    # Each reading is said in words, and the same question asked of the API is a link.
    assert f"From {day(start['date'])} to" in page.words or start["source"] != "rating_day"
    rating_day = "A day before the list was first computed is read as the later reading rates that day."
    assert (rating_day in page.words) == ("rating_day" in (start["source"], end["source"]))
    same = "Both readings are of the same computation of the list: nothing of his past was read again"
    assert (same in page.words) == (start["snapshot_id"] == end["snapshot_id"])
    api_link = next(link for link in page.links if link.startswith("/v1/players/"))
    assert site.get(api_link).json() == api


@pytest.mark.slow
def test_why_a_rating_changed_offers_its_form_and_says_what_the_list_cannot_answer(site):
    site.cookies.clear()
    page = get_page(site, "/players/498")
    section = Page(why_section(site.get("/players/498").text, "rif-whr"))
    assert "The list has no publication yet to compare with: choose two days." in section.words
    assert "/players/498#why-rif-whr" in page.sources  # the form's action
    # The API's refusal, in its words: `from` after `to`.
    backwards = site.get("/players/498", params={"list": "rif-whr", "from_day": "2019-01-01", "to_day": "2018-01-01"})
    assert backwards.status_code == 200
    words = Page(why_section(backwards.text, "rif-whr")).words
    assert "The list cannot explain it: `from` is after `to`" in words
    # Only the list asked about answers the days asked; the others keep their default.
    assert "The list has no publication yet" in Page(why_section(backwards.text, "rif-elo")).words
    # A day the API's pattern refuses is a 422 page naming the field, as the API answers.
    bad = site.get("/players/498", params={"list": "rif-whr", "from_day": "2019-13-01", "to": "publication:x"})
    assert bad.status_code == 422 and bad.headers["content-type"].startswith("text/html")
    assert "from_day must be a day YYYY-MM-DD" in Page(bad.text).words and "to must be publication:N" in Page(bad.text).words
    unknown = site.get("/players/498", params={"list": "no such list!"})
    assert unknown.status_code == 422 and "list is a list's id" in Page(unknown.text).words


# --- issue 47 items 4 and 5: tables read whole, the service's discipline first, every word translated --


def list_order(html: str) -> list[str]:
    """The lists' sections of a page, in their order (``id="list-…"``)."""
    return re.findall(r'<h2 id="list-([^"]+)"', html)


@pytest.mark.slow
def test_the_services_own_discipline_comes_first_and_is_a_setting(site, monkeypatch):
    """A renju service opens on renju: each discipline's main list first, renju's first of all, on the
    home page and a player's page (docs/decisions.md 135); MAIN_DISCIPLINE=go puts the Go list first."""
    from app.settings import get_settings

    home = list_order(site.get("/").text)
    # The main lists that rate someone by discipline (renju, go, shogi), then gomoku's, never computed.
    assert home[:4] == ["rif-whr", "rivne", "olufsen", "rif-whr-gomoku"], home
    assert home.index("rif-elo") > home.index("olufsen")  # renju's other list after every main list
    player = list_order(site.get("/players/952").text)
    assert player[0] == "rif-whr" and player.index("rif-elo") == 1, player
    monkeypatch.setattr(get_settings(), "main_discipline", "go")
    assert list_order(site.get("/").text)[0] == "rivne"


@pytest.mark.slow
def test_a_home_card_counts_the_active_players_of_the_day_it_shows(site):
    active = site.get("/v1/rating-lists/rif-whr/ratings", params={"status": "active", "limit": 1}).json()["total"]
    assert active > 10
    assert f"As of {day(SITE_LIST_DATE)}: 526 players, {active} active on the list's date." in get_page(site, "/").words


@pytest.mark.slow
def test_search_names_each_ratings_list_beside_it(site):
    """Issue 47 item 4: a phone has no hover, so the list of each rating is written beside it."""
    names = {rating_list["id"]: rating_list["name"] for rating_list in site.get("/v1/rating-lists").json()}
    page = get_page(site, "/players?q=zha")
    hits = {hit["id"]: hit for hit in site.get("/v1/players", params={"q": "zha", "limit": 100}).json()["items"]}
    rated = 0
    for row in page.table()["rows"]:
        for rating in hits[row[0][1].rsplit("/", 1)[1]]["ratings"]:
            assert f"{shown(rating['rating'])} {names[rating['list_id']]}" in row[1][0], row
            rated += 1
    assert rated


@pytest.mark.slow
def test_a_go_players_page_shows_the_club_his_file_declared(site):
    """EGC 2013's h9 line "Fan Hui 7D FR 75Op": his club (the file carries no EGF PIN: none shown)."""
    page = get_page(site, "/players/fan-hui")
    assert "Club75Op" in page.words.replace(" ", "") and "EGF PIN" not in page.words
    with db.session_scope() as session:
        assert player_record.declared(session, "fan-hui") == player_record.Declared("75Op", None)


@pytest.mark.slow
def test_a_players_place_names_his_status(site):
    rows = api_rows(site, "rif-whr", status="inactive", limit=1)
    page = get_page(site, f"/players/{rows[0]['player_id']}")
    assert "Place 1 of" in page.words and "inactive players" in page.words
    assert "with this status" not in page.words


@pytest.mark.slow
def test_a_format_is_a_word_of_the_readers_language(site):
    assert "face to face" in get_page(site, "/tournaments/T0003").words
    site.cookies.set("lang", "ru")
    try:
        russian = Page(site.get("/tournaments/T0003").text)
    finally:
        site.cookies.set("lang", "en")
    assert "Формат" in russian.words and "очно" in russian.words and "face-to-face" not in russian.words


@pytest.mark.slow
def test_a_list_page_shows_its_players_when_nobody_is_active_on_its_date(site):
    """Issue 47 item 4 (docs/decisions.md 136): rif-whr recomputed as of 2030, when every renju player of
    the file is inactive: its page shows the list of its last game's day, and the home card counts that
    day's active players; status=active chosen shows the list's own date, empty. Restored after."""
    from app.recompute.jobs import run_pending_jobs
    from tests.helpers import AUTH

    try:
        assert site.post("/v1/rating-lists/rif-whr/recompute", headers=AUTH).status_code == 202
        run_pending_jobs(list_date=dt.date(2030, 1, 1))
        last_day = "2019-12-15"  # the file's last tournament's end
        expected = api_rows(site, "rif-whr", status="active", as_of=last_day, limit=100)
        page = get_page(site, "/lists/rif-whr")
        assert [row[1][1] for row in page.table()["rows"]] == [f"/players/{r['player_id']}" for r in expected]
        assert f"it is shown as it stood on its last game's day, {day(last_day)}" in page.words
        assert "/lists/rif-whr?status=active" in page.links
        strict = get_page(site, "/lists/rif-whr?status=active")
        assert not strict.tables and "No player with the status “active”" in strict.words
        total = site.get("/v1/rating-lists/rif-whr/ratings", params={"status": "active", "as_of": last_day, "limit": 1})
        home = get_page(site, "/").words
        assert f"526 players, {total.json()['total']} active on its last game's day." in home
    finally:
        assert site.post("/v1/rating-lists/rif-whr/recompute", headers=AUTH).status_code == 202
        run_pending_jobs(list_date=SITE_LIST_DATE)
