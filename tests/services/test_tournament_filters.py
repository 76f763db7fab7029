"""The website's tournaments page filters by category, country and year (issue 26), with the API's
meaning of each (GET /v1/tournaments), through a plain form."""

from fastapi.testclient import TestClient

from tests.helpers import AUTH, Page, go_body, tournament_body, with_player_ids


def _store(client: TestClient) -> None:
    for body in (
        tournament_body("est-2020", country="EST"),
        tournament_body("jpn-2020", country="JPN", players=[{"id": p} for p in ("p1", "p2", "p3", "p4")]),
        tournament_body("est-2021", country="EST", start="2021-12-30", end="2022-01-02", games=tournament_body()["games"][:4]),
    ):
        response = client.post("/v1/tournaments", json=body, headers=AUTH, params={"duplicate": "intended"})
        assert response.status_code == 201, response.text
    go = with_player_ids(go_body(country=None), "go-")
    assert client.post("/v1/tournaments", json=go, headers=AUTH).status_code == 201, go


def _shown(client: TestClient, query: str) -> tuple[list[str], Page]:
    response = client.get(f"/tournaments{query}")
    assert response.status_code == 200, response.text
    page = Page(response.text)
    rows = page.table("")["rows"] if "Tournaments" in response.text and "<tbody>" in response.text else []
    return [row[0][1].rsplit("/", 1)[1] for row in rows], page


def _api(client: TestClient, **params: object) -> list[str]:
    return [t["id"] for t in client.get("/v1/tournaments", params=params).json()["items"]]


def test_each_filter_shows_what_the_api_answers(client: TestClient):
    _store(client)
    for params in (
        {},
        {"category": "renju"},
        {"category": "go"},
        {"country": "EST"},
        {"year": 2022},
        {"year": 2020, "country": "EST"},
        {"category": "renju", "country": "JPN", "year": 2020},
    ):
        query = "?" + "&".join(f"{k}={v}" for k, v in params.items()) if params else ""
        ids, page = _shown(client, query)
        assert ids == _api(client, **params), params
        assert ids, params
    # est-2021 spans New Year: it belongs to both years, as in the API.
    assert "est-2021" in _shown(client, "?year=2021")[0] and "est-2021" in _shown(client, "?year=2022")[0]
    assert "2 tournaments held in EST, the latest first." in _shown(client, "?country=EST")[1].words
    assert "1 tournament of renju held in JPN played in 2020, the latest first." in (
        _shown(client, "?category=renju&country=JPN&year=2020")[1].words
    )


def test_the_form_offers_the_stored_countries_and_years_and_keeps_the_choice(client: TestClient):
    _store(client)
    html = client.get("/tournaments?country=JPN&category=renju").text
    assert '<form class="filters" action="/tournaments" method="get"' in html
    assert (
        '<option value="JPN" translate="no" selected>JPN</option>' in html
        and '<option value="EST" translate="no">EST</option>' in html
    )
    assert '<option value="renju" selected>Renju</option>' in html
    go_year = int(go_body()["end"][:4])
    for year in range(min(2020, go_year), max(2022, go_year) + 1):
        assert f'<option value="{year}">{year}</option>' in html
    # An empty choice is "all", as a plain form sends it.
    assert _shown(client, "?category=&country=&year=")[0] == _api(client)


def test_nothing_matching_says_so_and_a_bad_filter_is_a_422_naming_it(client: TestClient):
    _store(client)
    assert "No tournament matches these filters." in _shown(client, "?country=FRA")[1].words
    for query, name in (("?category=chess", "category"), ("?country=E1", "country"), ("?year=1800", "year"), ("?year=x", "year")):
        response = client.get(f"/tournaments{query}")
        assert response.status_code == 422, query
        assert f"query:{name}" in response.text
        assert client.get(f"/tournaments{query}", headers={"Accept": "application/json"}).json()["errors"][0]["pointer"] == (
            f"query:{name}"
        )


def test_the_pages_of_a_filtered_list_keep_the_filters(client: TestClient):
    for n in range(51):
        body = tournament_body(f"t{n:02d}", country="EST", games=[{"black": "p1", "white": "p2", "result": "B"}])
        response = client.post("/v1/tournaments", json=body, headers=AUTH, params={"duplicate": "intended"})
        assert response.status_code == 201, response.text
    page = Page(client.get("/tournaments?country=EST&year=2020").text)
    assert "/tournaments?country=EST&year=2020&page=2" in page.links
    ids, _ = _shown(client, "?country=EST&year=2020&page=2")
    assert ids == _api(client, country="EST", year=2020, offset=50)
