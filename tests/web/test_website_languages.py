"""The website in its five languages (issue 26 item 4) and its publications (issue 22 item 6).

Every message of the templates and of the website's Python is in every catalogue, translated, with
the same placeholders (extracted with Babel as ``babel.cfg`` says, as a translator's update would);
the language comes from the switch's cookie, else Accept-Language, else English; dates and counts
follow the language; a player with a native spelling in the reader's script is shown in it, beside
the Latin name. A list's page offers its latest publication, whose page shows the change since the
previous one with its "new" markers, and CSV; a player's page shows his change since it."""

import csv
import datetime as dt
import io
import re

import pytest
from babel.dates import format_date
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po
from babel.numbers import format_decimal

from app.recompute.jobs import run_pending_jobs
from app.web.i18n import LANGUAGES, LOCALE_DIRECTORY, shown_date
from tests.helpers import AUTH, ROOT, Page, cells, tournament_body

TRANSLATED = [code for code in LANGUAGES if code != "en"]


def extracted_messages() -> dict[str | tuple[str, ...], set[str]]:
    """Every message the website can show, as Babel extracts it (``babel.cfg``), with where it is."""
    with (ROOT / "babel.cfg").open() as config:
        method_map, options_map = parse_mapping_cfg(config)
    found: dict[str | tuple[str, ...], set[str]] = {}
    for filename, _, message, _, _ in extract_from_dir(
        ROOT, method_map, options_map, keywords={"_": None, "gettext": None, "ngettext": (1, 2), "N_": None}
    ):
        found.setdefault(message, set()).add(filename)
    return found


def test_there_are_messages_to_translate():
    messages = extracted_messages()
    assert len(messages) > 150
    assert "Rating lists" in messages and ("%(num)s player", "%(num)s players") in messages
    assert "Grade or rank" in messages  # from app/web/pages.py (N_)


@pytest.mark.parametrize("code", TRANSLATED)
def test_every_message_is_translated_in_every_catalogue(code):
    """A message missing from a catalogue, left empty, fuzzy, with other placeholders, or one the
    site no longer has, fails here: run `make messages` and translate what it adds."""
    with (LOCALE_DIRECTORY / code / "LC_MESSAGES" / "messages.po").open("rb") as po:
        catalog = read_po(po, locale=LANGUAGES[code].locale)
    messages = extracted_messages()
    in_catalog = {message.id: message for message in catalog if message.id}
    missing = sorted(str(m) for m in messages if m not in in_catalog)
    assert not missing, f"{code}: not in the catalogue: {missing}"
    stale = sorted(str(m) for m in in_catalog if m not in messages)
    assert not stale, f"{code}: no longer on the site: {stale}"
    for message in in_catalog.values():
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        assert all(strings) and len(strings) == (catalog.num_plurals if message.pluralizable else 1), (code, message.id)
        assert not message.fuzzy, (code, message.id)
    problems = [(message.id, [str(error) for error in errors]) for message, errors in catalog.check() if errors]
    assert not problems, (code, problems)


def test_the_language_is_the_switchs_then_the_browsers_then_english(client):
    english = client.get("/")
    assert 'lang="en"' in english.text and "Rating lists" in Page(english.text).words
    assert english.headers["vary"] == "Accept-Language, Cookie"
    russian = client.get("/", headers={"Accept-Language": "de-DE,ru;q=0.8,en;q=0.5"})
    assert '<html lang="ru">' in russian.text and "Рейтинг-листы" in Page(russian.text).words
    assert russian.headers["etag"] != english.headers["etag"]
    chinese = client.get("/tournaments", headers={"Accept-Language": "zh-CN"})
    assert '<html lang="zh-Hans">' in chinese.text and "尚无赛事记录。" in Page(chinese.text).words
    # The switch: remembered in a cookie, back to the page it was chosen on, stronger than the browser.
    switch = client.get("/language/ja", params={"next": "/tournaments?page=1"}, follow_redirects=False)
    assert switch.status_code == 303 and switch.headers["location"] == "/tournaments?page=1"
    assert "lang=ja" in switch.headers["set-cookie"] and "Max-Age=31536000" in switch.headers["set-cookie"]
    japanese = client.get("/tournaments", headers={"Accept-Language": "ru"})
    assert '<html lang="ja">' in japanese.text and "大会はまだ登録されていません。" in Page(japanese.text).words
    # Every page links to every language, each named in itself.
    links = Page(japanese.text).links
    assert {f"/language/{code}?next=%2Ftournaments" for code in LANGUAGES} <= set(links)
    # Only this site's paths: never another site's address.
    for away in ("//example.com/x", "https://example.com/", "/\\example.com"):
        answer = client.get("/language/et", params={"next": away}, follow_redirects=False)
        assert answer.headers["location"] == "/", away
    assert client.get("/language/xx", headers={"Accept": "application/json"}).status_code == 404
    client.cookies.clear()


NATIVE_PLAYERS = [
    {"id": "p1", "name": "Xin", "surname": "Wang", "native_name": "王鑫", "country": "CHN"},
    {"id": "p2", "name": "Ivan", "surname": "Petrov", "native_name": "Иван Петров", "country": "RUS"},
    {"id": "p3", "name": "Tunnet", "surname": "Taimla", "country": "EST"},
    {"id": "p4", "name": "Yusui", "surname": "Nakamura", "native_name": "中村優水", "country": "JPN"},
]


def test_dates_counts_and_names_follow_the_language(client):
    assert client.post("/v1/tournaments", json=tournament_body(players=NATIVE_PLAYERS), headers=AUTH).status_code == 201
    client.post("/v1/rating-lists/rif-whr/recompute", headers=AUTH)
    run_pending_jobs(list_date=dt.date(2020, 6, 1))

    def page(path: str, language: str) -> Page:
        answer = client.get(path, headers={"Accept-Language": language})
        assert answer.status_code == 200, (path, language, answer.text[:300])
        return Page(answer.text)

    for code, language in LANGUAGES.items():
        shown = page("/lists/rif-whr?status=all", code)
        # The list's date in the language's own format (2020年6月1日, 1 июн. 2020 г., Jun 1, 2020).
        assert " ".join(shown_date(dt.date(2020, 6, 1), language.locale).split()) in shown.words, code
        assert len(shown.table()["rows"]) == 4
    assert "Jun 1, 2020" in page("/lists/rif-whr?status=all", "en").words
    assert "2020年6月1日" in page("/lists/rif-whr?status=all", "zh").words
    assert "1. juuni 2020" in page("/lists/rif-whr?status=all", "et").words
    # Names: the native spelling beside the Latin where it is in the reader's script.
    names = {code: {row[1][0] for row in page("/lists/rif-whr?status=all", code).table()["rows"]} for code in LANGUAGES}
    assert names["en"] == names["et"] == {"Xin Wang", "Ivan Petrov", "Tunnet Taimla", "Yusui Nakamura"}
    assert names["zh"] == names["ja"] == {"王鑫 (Xin Wang)", "Ivan Petrov", "Tunnet Taimla", "中村優水 (Yusui Nakamura)"}
    assert names["ru"] == {"Xin Wang", "Иван Петров (Ivan Petrov)", "Tunnet Taimla", "Yusui Nakamura"}
    assert "王鑫 (Xin Wang)" in page("/players/p1", "zh").words and "Xin Wang" in page("/players/p1", "en").words
    assert "Иван Петров (Ivan Petrov)" in page("/tournaments/T1", "ru").words
    opponents = page("/players/p3", "ja").table("局（新しい順）")  # his games: the opponents as the reader writes them
    assert {row[0][0] for row in opponents["rows"]} == {"Ivan Petrov", "王鑫 (Xin Wang)", "中村優水 (Yusui Nakamura)"}
    # Status cells and headers in the language; the CSV stays data, whatever the language.
    russian = cells(page("/lists/rif-whr?status=all", "ru").table())
    assert {row["Статус"] for row in russian} == {"предварительный"}
    download = client.get("/lists/rif-whr/ratings.csv?status=all", headers={"Accept-Language": "ru"})
    rows = list(csv.reader(io.StringIO(download.text)))
    assert rows[0][:3] == ["#", "Player", "Rating"] and {row[rows[0].index("Status")] for row in rows[1:]} == {"provisional"}
    assert {row[rows[0].index("Last played")] for row in rows[1:]} == {"2020-05-03"}


def test_counts_are_grouped_as_the_language_groups_them():
    from app.web.i18n import shown_count

    for code, language in LANGUAGES.items():
        assert shown_count(12345, language.locale) == format_decimal(12345, locale=language.locale)
    assert shown_count(12345, "en") == "12,345" and shown_count(12345, "ru") == "12\u00a0345"


def test_a_list_offers_its_latest_publication_whose_page_shows_the_change_since_the_previous(client):
    assert client.post("/v1/tournaments", json=tournament_body(players=NATIVE_PLAYERS), headers=AUTH).status_code == 201
    run_pending_jobs(list_date=dt.date(2020, 6, 1))
    first = client.post("/v1/rating-lists/rif-whr/publications", json={"date": "2020-06-01", "title": "June 2020"}, headers=AUTH)
    assert first.status_code == 201, first.text
    later = tournament_body(
        "T2",
        start="2020-07-01",
        end="2020-07-02",
        players=[*NATIVE_PLAYERS, {"id": "p5", "name": "Mari", "surname": "Kask", "country": "EST"}],
        games=[
            {"id": "h1", "round": "1", "black": "p1", "white": "p5", "result": "B"},
            {"id": "h2", "round": "1", "black": "p2", "white": "p3", "result": "W"},
        ],
    )
    assert client.post("/v1/tournaments", json=later, headers=AUTH).status_code == 201
    run_pending_jobs(list_date=dt.date(2020, 8, 1))
    second = client.post(
        "/v1/rating-lists/rif-whr/publications", json={"date": "2020-08-01", "title": "August 2020"}, headers=AUTH
    )
    assert second.status_code == 201, second.text

    live = Page(client.get("/lists/rif-whr?status=all").text)
    assert "/lists/rif-whr/publications/2" in live.links and "/lists/rif-whr/publications" in live.links
    assert "The latest publication: August 2020, as of Aug 1, 2020." in live.words
    assert {row["Change"] for row in cells(live.table())} == {"0"}  # nothing moved since it was published

    index = Page(client.get("/lists/rif-whr/publications").text)
    assert [row[0] for row in index.table()["rows"]] == [
        ("August 2020", "/lists/rif-whr/publications/2"),
        ("June 2020", "/lists/rif-whr/publications/1"),
    ]

    answer = client.get("/lists/rif-whr/publications/2?status=all")
    assert answer.headers["cache-control"] == "public, max-age=31536000, immutable"
    shown = cells(Page(answer.text).table())
    api = client.get("/v1/rating-lists/rif-whr/publications/2/ratings", params={"status": "all"}).json()["items"]
    assert [row["ID"] for row in shown] == [row["player_id"] for row in api]
    for row, expected in zip(shown, api):
        if isinstance(expected["change"], str):
            assert row["Change"] == expected["change"]
        else:
            assert int(row["Change"].replace("\u2212", "-")) == round(expected["rating"]) - round(expected["previous_rating"])
    assert {row["ID"]: row["Change"] for row in shown}["p5"] == "new"
    assert any(row["Change"] not in ("0", "new") for row in shown)  # the players of T2 moved
    assert "новый" in Page(client.get("/lists/rif-whr/publications/2?status=all", headers={"Accept-Language": "ru"}).text).words
    assert "/lists/rif-whr/publications/1" in Page(answer.text).links  # compared with its previous
    download = client.get("/lists/rif-whr/publications/2/ratings.csv?status=all")
    rows = list(csv.reader(io.StringIO(download.text)))
    assert rows[0] == list(cells(Page(answer.text).table())[0]) and len(rows) == 1 + len(api)
    # Its changes are numbers a spreadsheet reads (ASCII minus, no plus, no apostrophe), or a marker.
    downloaded = [row[rows[0].index("Change")] for row in rows[1:]]
    assert all(re.fullmatch(r"-?[0-9]+|new|returned", value) for value in downloaded), downloaded
    assert any(value.startswith("-") for value in downloaded) or any(value not in ("0", "new") for value in downloaded)
    assert client.get("/lists/rif-whr/publications/3").status_code == 404
    assert client.get("/lists/rif-whr/publications/x").status_code == 422

    # A player's page: his move since the latest publication, with a link to it.
    player = Page(client.get("/players/p1").text)
    assert "Since the latest publication, August 2020:" in player.words and "/lists/rif-whr/publications/2" in player.links


@pytest.mark.parametrize(
    ("cookie", "accept", "expected"),
    [
        (None, None, "en"),
        (None, "", "en"),
        (None, "fr-FR,fr;q=0.9", "en"),  # none the site has
        (None, "zh-TW,zh;q=0.9,en;q=0.8", "zh"),  # the nearest the site has: simplified Chinese
        (None, "en;q=0.5,ja;q=0.8", "ja"),  # by quality, not by order
        (None, "et,ru", "et"),  # equal qualities: the first named
        (None, "ru;q=0,et;q=0.1", "et"),  # q=0 is "not this one"
        (None, "ru;q=abc,ja", "ja"),  # a quality that is no number counts as 0
        ("ru", "ja", "ru"),  # the switch's choice first
        ("xx", "ja", "ja"),  # a cookie naming no language the site has is ignored
    ],
)
def test_chosen_language(cookie, accept, expected):
    from app.web.i18n import chosen_language

    assert chosen_language(cookie, accept).code == expected


def test_an_error_page_is_in_the_readers_language_with_the_services_detail(client):
    """Issue 47 item 5: the service's own detail is written in the reader's language, what it names
    (the id asked for) set apart as data; the API's problem+json keeps the contract's English."""
    answer = client.get("/players/nobody", headers={"Accept-Language": "ja"})
    assert answer.status_code == 404 and '<html lang="ja">' in answer.text
    page = Page(answer.text)
    assert "見つかりません" in page.words and "レーティング表に戻る" in page.words
    assert '選手 <span translate="no">&#x27;nobody&#x27;</span> は存在しません。' in answer.text
    assert '<p lang="en">' not in answer.text and "does not exist" not in answer.text
    api = client.get("/players/nobody", headers={"Accept-Language": "ja", "Accept": "application/json"})
    assert api.json()["detail"] == "Player 'nobody' does not exist."


def test_a_refused_query_is_explained_in_the_readers_language_part_by_part(client):
    """A page's 422 joins one sentence a parameter; each is written in the reader's language."""
    answer = client.get("/lists/rif-whr?status=best&page=x", headers={"Accept-Language": "ru"})
    assert answer.status_code == 422
    page = Page(answer.text)
    assert "status — одно из значений" in page.words and "целое число от 1 до" in page.words, page.words
    assert "must be" not in answer.text


def test_a_detail_the_website_does_not_know_stays_english_and_says_so(client):
    from app.web.i18n import LANGUAGES
    from app.web.service_words import shown_detail

    shown = shown_detail("Something the pages never wrote.", LANGUAGES["ru"])
    assert not shown.translated and shown.text == "Something the pages never wrote."


@pytest.mark.parametrize("code", list(LANGUAGES))
def test_a_day_reads_as_babels_medium_date_in_every_language(code):
    """``shown_date`` applies the locale's pattern looked up once; it must read as Babel's
    ``format_date`` would, on days of every month, leap days and the calendar's ends included."""
    locale = LANGUAGES[code].locale
    days = [dt.date(1, 1, 1), dt.date(9999, 12, 31), dt.date(2024, 2, 29)]
    days += [dt.date(2013, 7, 28) + dt.timedelta(days=step) for step in range(0, 800, 7)]
    for day in days:
        assert shown_date(day, locale) == format_date(day, format="medium", locale=locale), (code, day)
