"""Names, titles, labels and reasons are one line of text shown to people (docs/decisions.md 105): a
control character (CR and LF among them) or a bidirectional override in any of them is a 422 pointing
at it, in every request that stores one, and a line the player directory's import refuses (nothing
stored); names in any script are stored as written. The one pattern that says so in the contract is
read alike by pydantic's regex engine, which checks it, and by ECMA-262's, which the contract's
readers use."""

import json
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import pytest
from fastapi.testclient import TestClient
from pydantic import StringConstraints, TypeAdapter, ValidationError
from sqlalchemy import func, select

from app import db
from app.cli import main
from app.models import Player, Revision, Tournament
from app.names import DISPLAY_TEXT_PATTERN
from app.schemas.common import NO_NUL_PATTERN, DisplayText
from tests.helpers import AUTH, go_body, recompute_now, tournament_body

PROBLEM = "application/problem+json"
# What the rule refuses, range by range (the brief of issue 42 item 2, in code points).
REFUSED = [(0x00, 0x1F), (0x7F, 0x9F), (0x61C, 0x61C), (0x200E, 0x200F), (0x202A, 0x202E), (0x2066, 0x2069), (0x2028, 0x2029)]
# The two that spoof a list most easily, tried on every path: letters shown reversed, a row split in two.
BIDI_OVERRIDE, LINE_BREAK = "Ants\u202eTõnu", "Ants\r\nTõnu"
# Real names in the scripts of the service's players (Latin with diacritics, Chinese, Cyrillic,
# Arabic, Vietnamese), short enough for every field (tie-break names hold 20 characters, classes 10).
NAMES = ["Soosõrv", "汪清清", "Ткаченко", "محمد", "Nguyễn", "O'Brien"]


def _refused(code: int) -> bool:
    return any(low <= code <= high for low, high in REFUSED)


# --- the pattern, in both regex engines ----------------------------------------------------------


def _every_character() -> list[str]:
    """Every code point of the Basic Multilingual Plane but the surrogates, and some beyond it."""
    return [chr(code) for code in [*range(0xD800), *range(0xE000, 0x10000), 0x1F600, 0x20000, 0x10FFFF]]


def test_pydantics_regex_engine_refuses_exactly_the_characters_of_the_rule():
    checked = TypeAdapter(Annotated[str, StringConstraints(pattern=DISPLAY_TEXT_PATTERN)])
    accepted = TypeAdapter(DisplayText)
    wrong = []
    for character in _every_character():
        for text in (character, f"a{character}b", f"ab{character}"):
            try:
                checked.validate_python(text)
                accepted.validate_python(text)
                taken = True
            except ValidationError:
                taken = False
            if taken == _refused(ord(character)):
                wrong.append((hex(ord(character)), text))
    assert wrong == []


def test_the_pattern_is_ecma_262_and_refuses_the_same_characters_there():
    """The contract's patterns are ECMA-262 regular expressions (JSON Schema 2020-12): node's engine,
    with and without the u flag, refuses exactly the rule's characters too. A trailing line feed is
    refused as well (Python's re would let `$` match before it; neither engine that reads the
    pattern does)."""
    node = shutil.which("node")
    if node is None:
        pytest.fail("node is needed to read the pattern as ECMA-262 (apt-get install nodejs)")
    script = """
        const [pattern, refused] = JSON.parse(require("fs").readFileSync(0, "utf8"));
        const wrong = [];
        for (const flags of ["", "u"]) {
            const expression = new RegExp(pattern, flags);
            const codes = [];
            for (let code = 0; code < 0x10000; code++) if (code < 0xd800 || code > 0xdfff) codes.push(code);
            codes.push(0x1f600, 0x20000, 0x10ffff);
            for (const code of codes) {
                const character = String.fromCodePoint(code);
                const isRefused = refused.some(([low, high]) => low <= code && code <= high);
                for (const text of [character, "a" + character + "b", "ab" + character]) {
                    if (expression.test(text) === isRefused) wrong.push([flags, code.toString(16)]);
                }
            }
        }
        process.stdout.write(JSON.stringify(wrong));
    """
    found = subprocess.run(
        [node, "-e", script], input=json.dumps([DISPLAY_TEXT_PATTERN, REFUSED]), capture_output=True, text=True
    )
    assert found.returncode == 0, found.stderr
    assert json.loads(found.stdout) == []


def test_every_free_text_a_stored_write_takes_is_display_text(app):
    """In the contract: each string of a key-holder's write, and of the what-if body (the same
    submission), body fields and query parameters alike, is an enum, a date, an id or code of a
    pattern of its own, or shown text of the rule's pattern; none is the looser text that refuses
    NUL only. Headers (Idempotency-Key, If-Match) are tokens, not text anybody reads."""
    document = app.openapi()
    schemas = document["components"]["schemas"]
    seen: set[str] = set()
    loose: list[str] = []

    def walk(schema: dict[str, Any], where: str) -> None:
        if "$ref" in schema:
            name = schema["$ref"].rsplit("/", 1)[-1]
            if name not in seen:
                seen.add(name)
                walk(schemas[name], name)
            return
        for inner in [*schema.get("anyOf", []), *([schema["items"]] if "items" in schema else [])]:
            walk(inner, where)
        for field, inner in schema.get("properties", {}).items():
            walk(inner, f"{where}.{field}")
        if schema.get("type") == "string" and not {"enum", "format", "const"} & set(schema):
            if schema.get("pattern") in (None, NO_NUL_PATTERN):
                loose.append(where)

    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            if not (method in ("post", "put", "patch", "delete") and operation.get("security")) and not path.endswith("/what-if"):
                continue
            for parameter in operation.get("parameters", []):
                if parameter["in"] != "header":
                    walk(parameter["schema"], f"{method} {path} {parameter['in']}:{parameter['name']}")
            for content in operation.get("requestBody", {}).get("content", {}).values():
                walk(content["schema"], f"{method} {path}")
    assert "TournamentIn" in seen and "PublicationIn" in seen and "ReviewDecision" in seen
    assert loose == []


# --- every request that stores one -------------------------------------------------------------------


def _stored_counts() -> tuple[int, int, int]:
    with db.session_scope() as session:
        return tuple(session.scalar(select(func.count()).select_from(m)) or 0 for m in (Player, Tournament, Revision))  # type: ignore[return-value]


def _tournament(client: TestClient) -> None:
    assert client.post("/v1/tournaments", json=tournament_body("T1"), headers=AUTH).status_code == 201


def _snapshot(client: TestClient) -> None:
    _tournament(client)
    recompute_now(client)


def _review(client: TestClient) -> None:
    assert client.patch("/v1/rating-lists/rif-whr", json={"requires_review": True}, headers=AUTH).status_code == 200
    _tournament(client)


def _nothing(client: TestClient) -> None:
    pass


def _submission(change: Callable[[dict[str, Any], str], None]) -> Callable[[TestClient, str], Any]:
    """A Go tournament (its rule is free text) with one field set to the text."""

    def send(client: TestClient, text: str) -> Any:
        body = go_body(standings=[{"player": "p1", "place": 1, "tie_breaks": [{"name": "MMS", "value": 3}]}])
        change(body, text)
        return client.post("/v1/tournaments", json=body, headers=AUTH)

    return send


def _set(*path: str | int) -> Callable[[dict[str, Any], str], None]:
    def change(body: dict[str, Any], text: str) -> None:
        inner: Any = body
        for step in path[:-1]:
            inner = inner[step]
        inner[path[-1]] = text

    return change


# (what, what it needs stored first, the request with the text, the pointer at it)
PATHS: list[tuple[str, Callable[[TestClient], None], Callable[[TestClient, str], Any], str]] = [
    *[
        (
            f"player {field}",
            _nothing,
            lambda c, t, f=field: c.post("/v1/players", json={"id": "n1", f: t}, headers=AUTH),
            f"/{field}",
        )
        for field in ("name", "surname", "native_name", "city")
    ],
    ("player patch", _tournament, lambda c, t: c.patch("/v1/players/p1", json={"surname": t}, headers=AUTH), "/surname"),
    (
        "player rename",
        _tournament,
        lambda c, t: c.post("/v1/players/p1/rename", json={"native_name": t, "since": "2021-01-01"}, headers=AUTH),
        "/native_name",
    ),
    *[
        (f"submission {'/'.join(map(str, path))}", _nothing, _submission(_set(*path)), "/" + "/".join(map(str, path)))
        for path in [
            ("name",),
            ("city",),
            ("rule",),
            ("tournament_class",),
            ("handicap_rule",),
            ("players", 0, "name"),
            ("players", 0, "surname"),
            ("players", 0, "native_name"),
            ("players", 0, "city"),
            ("players", 0, "club"),
            ("players", 0, "rating_origin"),
            ("games", 0, "round"),
            ("standings", 0, "tie_breaks", 0, "name"),
        ]
    ],
    (
        "correction",
        _tournament,
        lambda c, t: c.put("/v1/tournaments/T1", json=tournament_body("T1", name=t), headers=AUTH),
        "/name",
    ),
    (
        "what-if",
        _nothing,
        lambda c, t: c.post("/v1/rating-lists/rif-whr/what-if", json=_with_surname(tournament_body("W1"), t)),
        "/players/1/surname",
    ),
    (
        "publication title",
        _snapshot,
        lambda c, t: c.post("/v1/rating-lists/rif-whr/publications", json={"date": "2020-05-03", "title": t}, headers=AUTH),
        "/title",
    ),
    (
        "review reason",
        _review,
        lambda c, t: c.post("/v1/rating-lists/rif-whr/reviews/T1", json={"decision": "confirm", "reason": t}, headers=AUTH),
        "/reason",
    ),
    (
        "withdrawal reason",
        _tournament,
        lambda c, t: c.delete("/v1/tournaments/T1", params={"reason": t}, headers=AUTH),
        "query:reason",
    ),
]
# A seed's title is a grade or rank its system checks, and its status a word of the system's: shown
# text all the same, but no name is one.
SEED = (
    "seed title",
    _tournament,
    lambda c, t: c.put("/v1/rating-lists/rivne/seeds/p1", json={"rating": 1500, "as_of": "2020-01-01", "title": t}, headers=AUTH),
    "/title",
)


def _with_surname(body: dict[str, Any], surname: str) -> dict[str, Any]:
    body["players"][1]["surname"] = surname
    return body


@pytest.mark.parametrize(("what", "setup", "send", "pointer"), [*PATHS, SEED], ids=[path[0] for path in [*PATHS, SEED]])
@pytest.mark.parametrize(("text", "character"), [(BIDI_OVERRIDE, "U+202E"), (LINE_BREAK, "U+000D")], ids=["U+202E", "CR LF"])
def test_a_control_or_bidi_character_is_a_422_pointing_at_it_and_nothing_is_stored(
    client: TestClient, what, setup, send, pointer, text: str, character: str
):
    setup(client)
    before = _stored_counts()
    response = send(client, text)
    assert response.status_code == 422, response.text
    assert response.headers["content-type"] == PROBLEM
    errors = {error["pointer"]: error["detail"] for error in response.json()["errors"]}
    assert pointer in errors, errors
    assert character in errors[pointer] and "one line of text" in errors[pointer]
    assert _stored_counts() == before


@pytest.mark.parametrize(("what", "setup", "send", "pointer"), PATHS, ids=[path[0] for path in PATHS])
@pytest.mark.parametrize("name", NAMES)
def test_a_name_in_any_script_is_taken(client: TestClient, what, setup, send, pointer, name: str):
    setup(client)
    response = send(client, name)
    assert response.status_code in (200, 201, 202), response.text


@pytest.mark.parametrize(
    "text",
    ["a\tb", "a\nb", "ab\n", "a\x00b", "a\x1bb", "a\x7fb", "a\x85b", "a\u061cb", "a\u200eb", "a\u200fb"]
    + ["a\u202ab", "a\u202db", "a\u2066b", "a\u2069b", "a\u2028b", "a\u2029b"],
    ids=repr,
)
def test_each_kind_of_character_the_rule_names_is_refused(client: TestClient, text: str):
    response = client.post("/v1/players", json={"id": "n1", "name": text}, headers=AUTH)
    assert response.status_code == 422
    [error] = response.json()["errors"]
    refused = next(character for character in text if _refused(ord(character)))
    assert error["pointer"] == "/name" and f"U+{ord(refused):04X}" in error["detail"]
    assert client.get("/v1/players/n1").status_code == 404


def test_names_are_stored_and_read_back_as_written(client: TestClient):
    """Combining marks, joiners, a no-break space and the ideographic space are text, not controls."""
    names = {"name": "Zoë\u0301", "surname": "Ka\u200dra", "native_name": "汪清清\u3000محمد", "city": "Saint\u00a0Petersburg"}
    assert client.post("/v1/players", json={"id": "n1", **names}, headers=AUTH).status_code == 201
    player = client.get("/v1/players/n1").json()
    assert {field: player[field] for field in names} == names


# --- the files that store names --------------------------------------------------------------------

CSV_HEADER = "id,name,surname,native_name,country,city,gender,external_ids\n"


def _import(path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    status = main(["import", "--no-progress", str(path)])
    captured = capsys.readouterr()
    return status, captured.out + captured.err


@pytest.mark.parametrize(
    ("line", "example"),
    [
        ("1,Ants,Soos\u202erv,,EST,,,\n", "line 3: player 1's surname holds U+202E"),
        # (The file is read with universal newlines: the quoted cell's CR LF arrives as LF.)
        ('1,Ants,Soosõrv,,EST,"Tal\r\nlinn",,\n', "player 1's city holds U+000A"),
        ("1,Ants\tX,Soosõrv,,EST,,,\n", "line 3: player 1's name holds U+0009"),
    ],
    ids=["U+202E", "CR LF in a quoted cell", "TAB"],
)
def test_a_directory_line_with_such_a_name_is_refused_and_nothing_is_stored(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], line: str, example: str
):
    directory = tmp_path / "players.csv"
    directory.write_bytes((CSV_HEADER + "2,Ando,Meritee,,EST,,,\n" + line).encode())
    before = _stored_counts()
    status, output = _import(directory, capsys)
    assert status == 1, output
    assert "1  name or city with a control or bidirectional formatting character" in output and example in output, output
    assert "nothing was stored" in output and _stored_counts() == before


def test_a_line_of_the_whr_sites_directory_with_such_a_name_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    directory = tmp_path / "ljinfo.tsv"
    directory.write_text(
        "952\tWang Qingqing\t汪清清\t中国\t?\t+\t2000\n953\tLi Mo\t李\u202e墨\t中国\t?\t+\t1900\n", encoding="utf-8"
    )
    status, output = _import(directory, capsys)
    assert status == 1 and "line 2: player 953's native_name holds U+202E" in output, output
    assert _stored_counts() == (0, 0, 0)


def test_a_directory_of_names_in_every_script_is_stored(tmp_path: Path, capsys: pytest.CaptureFixture[str], client):
    directory = tmp_path / "players.csv"
    rows = [f"{index},{name},{name},{name},EST,{name},," for index, name in enumerate(NAMES, start=1)]
    directory.write_text(CSV_HEADER + "\n".join(rows) + "\n", encoding="utf-8")
    status, output = _import(directory, capsys)
    assert status == 0, output
    for index, name in enumerate(NAMES, start=1):
        player = client.get(f"/v1/players/{index}").json()
        assert (player["name"], player["surname"], player["native_name"], player["city"]) == (name, name, name, name)


def test_an_imported_tournament_with_such_a_name_is_refused_with_the_pointer(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    """The results files go through the submission's own checks: the report gives the pointer."""
    results = tmp_path / "results.tsv"
    results.write_text(
        "player\t1\tAnts\tSoosõrv\t5\t1\nplayer\t2\tAndo\tMeritee\t5\t1\n"
        "tournament\t9\tCup\u202e\t5\t1\t2020-01-01\t2020-01-02\t1\ngame\t1\t9\t1\t1\t1\t2\tB\n",
        encoding="utf-8",
    )
    status, output = _import(results, capsys)
    assert status == 0 and "1  tournament refused by the submission service" in output, output
    assert "tournament 9: /name: holds U+202E" in output
    assert _stored_counts() == (0, 0, 0)
