"""Keys with roles (issue 23 item 5, docs/decisions.md 7.18–7.20): every role against every write,
through HTTP; the `keys` commands; keys stored hashed; a key made by the command used over a live
server."""

import hashlib
import os
import subprocess
import sys
from collections.abc import Callable

import httpx
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import delete, func, select

from app import db
from app.cli import main as cli
from app.models import ApiKey, Revision
from app.problems import RoleForbidden
from app.security import Caller, require_unlimited_officer
from app.services import api_keys
from tests.helpers import AUTH, ROOT, tournament_body
from tests.live_server import running_server

# name -> (role, lists, categories) of the stored keys; "environment" is RATING_API_KEYS' tester.
KEYS: dict[str, tuple[str, list[str], list[str]]] = {
    "owner": ("organiser", [], []),
    "other-organiser": ("organiser", [], []),
    "officer-of-another-list": ("officer", ["rivne"], []),
    "officer-of-another-category": ("officer", [], ["go"]),
    "officer-of-this-list": ("officer", ["rif-elo"], []),
    "officer-of-this-category": ("officer", [], ["renju"]),
    "officer": ("officer", [], []),
}
CALLERS = [*KEYS, "environment"]

SEEDS = [
    {"player_id": p, "rating": 2000 + 50 * i, "status": "established", "as_of": "2020-01-01"}
    for i, p in enumerate(("p1", "p2", "p3", "p4"))
]

# Each write operation on the tournament T1 (renju, submitted by "owner") and the list rif-elo (renju).
OPERATIONS: dict[str, Callable[[TestClient, dict[str, str]], httpx.Response]] = {
    "submit": lambda c, h: c.post("/v1/tournaments", json=tournament_body("T2"), headers=h, params={"duplicate": "intended"}),
    "correct": lambda c, h: c.put("/v1/tournaments/T1", json=tournament_body("T1", name="Corrected Open"), headers=h),
    "withdraw": lambda c, h: c.delete("/v1/tournaments/T1", params={"reason": "entered twice"}, headers=h),
    "restore": lambda c, h: c.post("/v1/tournaments/T1/restore", headers=h),
    "create player": lambda c, h: c.post("/v1/players", json={"id": "p9", "name": "New", "surname": "Player"}, headers=h),
    "update player": lambda c, h: c.patch("/v1/players/p1", json={"city": "Tallinn"}, headers=h),
    "merge player": lambda c, h: c.post("/v1/players/p5/merge", json={"into": "p1"}, headers=h),
    "unmerge player": lambda c, h: c.post("/v1/players/p6/unmerge", headers=h),
    "rename player": lambda c, h: c.post("/v1/players/p1/rename", json={"surname": "Renamed", "since": "2024-01-01"}, headers=h),
    "list settings": lambda c, h: c.patch("/v1/rating-lists/rif-elo", json={"auto_recompute": True}, headers=h),
    "list params": lambda c, h: c.patch("/v1/rating-lists/rif-elo/params", json={"bootstrap_rating": 1800}, headers=h),
    "list seeds": lambda c, h: c.put("/v1/rating-lists/rif-elo/seeds", json={"seeds": SEEDS}, headers=h),
    "one seed": lambda c, h: c.put("/v1/rating-lists/rif-elo/seeds/p1", json={"rating": 2100, "as_of": "2020-01-01"}, headers=h),
    "remove seed": lambda c, h: c.delete("/v1/rating-lists/rif-elo/seeds/p2", headers=h),
    "recompute": lambda c, h: c.post("/v1/rating-lists/rif-elo/recompute", headers=h),
    "review": lambda c, h: c.post(
        "/v1/rating-lists/rif-elo/reviews/T1", json={"decision": "confirm", "reason": "checked"}, headers=h
    ),
    "audit": lambda c, h: c.get("/v1/audit", headers=h),
    "player reviews": lambda c, h: c.get("/v1/player-reviews", headers=h),
    "decide player review": lambda c, h: c.post(f"/v1/player-reviews/{_review(c)}", json={"decision": "accept"}, headers=h),
}
TOURNAMENT_CHANGES = {"correct", "withdraw", "restore"}
# Who a player is: an officer's to change (docs/decisions.md 108), within its scope (109): T1's
# players play a tournament rif-whr, rif-elo and eru rate, so only an officer of renju answers for them.
PLAYER_IDENTITY = {"update player", "rename player", "merge player", "unmerge player", "decide player review"}
LIST_CHANGES = {"list settings", "list params", "list seeds", "one seed", "remove seed", "recompute", "review"}
# Reads of an officer, each limited one's of its own scope.
OFFICERS_READS = {"audit", "player reviews"}
EVERYTHING = set(OPERATIONS)
ALLOWED: dict[str, set[str]] = {
    "owner": {"submit", *TOURNAMENT_CHANGES, "create player"},
    "other-organiser": {"submit", "create player"},
    "officer-of-another-list": {"create player", *OFFICERS_READS},
    "officer-of-another-category": {"create player", *OFFICERS_READS},
    # rif-elo alone: T1 and T2 are rated by rif-whr and eru too, and T1's players with them.
    "officer-of-this-list": {"create player", *LIST_CHANGES, *OFFICERS_READS},
    "officer-of-this-category": {"submit", *TOURNAMENT_CHANGES, "create player", *PLAYER_IDENTITY, *OFFICERS_READS},  # no list
    "officer": EVERYTHING,
    "environment": EVERYTHING,
}


def _review(client: TestClient) -> int:
    """The id of the review the fixture queued (ids are not reset between tests on PostgreSQL)."""
    pending = client.get("/v1/player-reviews", params={"status": "pending"}, headers=AUTH).json()["items"]
    return int(pending[0]["id"])


def _store_keys() -> dict[str, dict[str, str]]:
    headers = {"environment": AUTH}
    with db.session_scope() as session:
        for name, (role, lists, categories) in KEYS.items():
            created = api_keys.create_key(session, name, role, lists=lists, categories=categories)
            headers[name] = {"Authorization": f"Bearer {created.secret}"}
    return headers


def _revisions() -> int:
    with db.session_scope() as session:
        return session.scalar(select(func.count()).select_from(Revision)) or 0


@pytest.fixture
def keys(client: TestClient) -> dict[str, dict[str, str]]:
    """The stored keys' headers by name, and T1 submitted by the organiser "owner"."""
    headers = _store_keys()
    assert client.post("/v1/tournaments", json=tournament_body("T1"), headers=headers["owner"]).status_code == 201
    # Records to merge (p5) and to unmerge (p6, merged into p2).
    for player_id in ("p5", "p6"):
        assert client.post("/v1/players", json={"id": player_id}, headers=AUTH).status_code == 201
    assert client.post("/v1/players/p6/merge", json={"into": "p2"}, headers=AUTH).status_code == 200
    # A review of p1: another tournament gave him another city.
    other = tournament_body("T0", start="2019-05-01", end="2019-05-03")
    other["players"][0]["city"] = "Tartu"
    for game in other["games"]:
        game.pop("date", None)
    submitted = client.post("/v1/tournaments", json=other, headers=AUTH)
    assert [review["player_id"] for review in submitted.json()["player_reviews"]] == ["p1"], submitted.text
    return headers


@pytest.mark.parametrize("operation", list(OPERATIONS))
@pytest.mark.parametrize("caller", CALLERS)
def test_role_matrix(client: TestClient, keys: dict[str, dict[str, str]], caller: str, operation: str) -> None:
    if operation == "restore":
        assert client.delete("/v1/tournaments/T1", params={"reason": "to restore"}, headers=AUTH).status_code == 200
    if operation == "review":  # rif-elo reviews what is corrected from now on: T1 waits for its officer
        assert client.patch("/v1/rating-lists/rif-elo", json={"requires_review": True}, headers=AUTH).status_code == 200
        corrected = client.put("/v1/tournaments/T1", json=tournament_body("T1"), headers=AUTH).json()
        assert {rating["id"]: rating["review"] for rating in corrected["lists"]}["rif-elo"] == "pending"
    if operation == "remove seed":
        assert client.put("/v1/rating-lists/rif-elo/seeds", json={"seeds": SEEDS}, headers=AUTH).status_code == 200
    before = _revisions()
    response = OPERATIONS[operation](client, keys[caller])
    if operation in ALLOWED[caller]:
        assert 200 <= response.status_code < 300, response.text
        return
    assert response.status_code == 403, response.text
    assert response.headers["content-type"] == "application/problem+json"
    problem = response.json()
    assert problem["type"].endswith("/role-required") and problem["status"] == 403
    # The detail names the role the operation needs and what the key is.
    assert " needs " in problem["detail"] and "an officer's" in problem["detail"]
    assert f"the key {caller!r} is an" in problem["detail"]
    if operation in TOURNAMENT_CHANGES:
        assert "organiser's key that submitted it" in problem["detail"]
    if caller.startswith("officer-of") and operation in {"submit", *TOURNAMENT_CHANGES, *PLAYER_IDENTITY}:
        assert "rif-whr" in problem["detail"], problem["detail"]  # the list beyond its limits
    assert _revisions() == before, "a refused change recorded nothing"


def test_the_submitter_is_the_owner_even_after_an_officer_corrected_it(client, keys) -> None:  # type: ignore[no-untyped-def]
    assert client.put("/v1/tournaments/T1", json=tournament_body("T1", name="By the officer"), headers=keys["officer"]).is_success
    corrected = client.put("/v1/tournaments/T1", json=tournament_body("T1", name="By the owner"), headers=keys["owner"])
    assert corrected.status_code == 200 and corrected.json()["name"] == "By the owner"
    actors = [r["actor"] for r in client.get("/v1/tournaments/T1/revisions").json()["items"]]
    assert actors == ["owner", "officer", "owner"]


def test_an_officer_cannot_move_a_tournament_out_of_its_categories(client, keys) -> None:  # type: ignore[no-untyped-def]
    moved = tournament_body("T1", category="gomoku", rule=None)
    refused = client.put("/v1/tournaments/T1", json=moved, headers=keys["officer-of-this-category"])
    assert refused.status_code == 403 and "rif-whr-gomoku" in refused.json()["detail"]
    assert client.put("/v1/tournaments/T1", json=moved, headers=keys["owner"]).status_code == 200


def test_a_tournament_stored_before_the_trail_is_an_officers_to_change(client, keys) -> None:  # type: ignore[no-untyped-def]
    with db.session_scope() as session:
        session.execute(delete(Revision))
    refused = client.put("/v1/tournaments/T1", json=tournament_body("T1"), headers=keys["owner"])
    assert refused.status_code == 403 and "stored before keys were recorded" in refused.json()["detail"]
    assert client.put("/v1/tournaments/T1", json=tournament_body("T1"), headers=keys["officer-of-this-category"]).is_success


def test_a_missing_tournament_is_404_for_an_organiser_too(client, keys) -> None:  # type: ignore[no-untyped-def]
    assert client.put("/v1/tournaments/T9", json=tournament_body("T9"), headers=keys["other-organiser"]).status_code == 404
    assert client.post("/v1/tournaments/T9/restore", headers=keys["other-organiser"]).status_code == 404


def test_missing_and_unknown_keys_are_401s(client) -> None:  # type: ignore[no-untyped-def]
    _store_keys()
    assert client.post("/v1/tournaments", json=tournament_body()).status_code == 401
    unknown = client.post("/v1/tournaments", json=tournament_body(), headers={"Authorization": "Bearer not-a-key"})
    assert unknown.status_code == 401 and unknown.json()["type"].endswith("/invalid-key")
    assert unknown.headers["www-authenticate"].startswith('Bearer error="invalid_token"')


def test_writer_without_a_declared_role_needs_an_unlimited_officer() -> None:
    assert require_unlimited_officer(Caller("env", "officer")).name == "env"
    for caller in (Caller("o", "organiser"), Caller("x", "officer", lists=frozenset({"eru"}))):
        with pytest.raises(RoleForbidden):
            require_unlimited_officer(caller)


def test_keys_are_stored_hashed(client) -> None:  # type: ignore[no-untyped-def]
    with db.session_scope() as session:
        secret = api_keys.create_key(session, "hashed", "organiser").secret
    assert len(secret) >= 43  # 256 random bits
    with db.session_scope() as session:
        stored = session.get(ApiKey, "hashed")
        assert stored is not None
        row = [str(getattr(stored, column.key)) for column in ApiKey.__table__.columns]
        assert stored.digest == hashlib.sha256(secret.encode()).hexdigest()
    assert not any(secret in value for value in row)
    assert client.post("/v1/players", json={"id": "p9"}, headers={"Authorization": f"Bearer {secret}"}).status_code == 201


def test_cli_creates_lists_and_revokes_keys(client, capsys) -> None:  # type: ignore[no-untyped-def]
    assert cli(["keys", "create", "est-officer", "--role", "officer", "--lists", "eru", "--categories", "renju,go"]) == 0
    created = capsys.readouterr()
    secret = created.out.strip()
    assert "\n" not in secret and "shown only this once" in created.err
    headers = {"Authorization": f"Bearer {secret}"}
    assert client.patch("/v1/rating-lists/eru", json={"auto_recompute": True}, headers=headers).status_code == 200
    assert client.patch("/v1/rating-lists/rif-whr", json={"auto_recompute": True}, headers=headers).status_code == 403

    assert cli(["keys", "create", "club", "--role", "organiser"]) == 0
    capsys.readouterr()
    assert cli(["keys", "list"]) == 0
    listed = capsys.readouterr().out
    assert secret not in listed
    lines = listed.splitlines()
    assert lines[0].split() == ["name", "role", "limited", "to", "created", "revoked"]
    assert lines[1].startswith("club ") and " organiser " in lines[1] and lines[1].endswith("-")
    assert "lists eru and categories go,renju" in lines[2] and lines[2].startswith("est-officer ")

    assert cli(["keys", "revoke", "est-officer"]) == 0
    assert "revoked the key 'est-officer'" in capsys.readouterr().out
    revoked = client.patch("/v1/rating-lists/eru", json={"auto_recompute": False}, headers=headers)
    assert revoked.status_code == 401 and "was revoked" in revoked.json()["detail"]
    assert revoked.headers["www-authenticate"] == 'Bearer error="invalid_token", error_description="the key was revoked"'
    assert cli(["keys", "list"]) == 0
    assert capsys.readouterr().out.splitlines()[2].split()[-2:] != ["-"]


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["create", "x", "--role", "chief"], "unknown role 'chief'"),
        (["create", "x", "--role", "officer", "--lists", "nope"], "unknown rating lists nope"),
        (["create", "x", "--role", "officer", "--categories", "chess"], "unknown categories chess"),
        (["create", "x", "--role", "organiser", "--lists", "eru"], "limit officers only"),
        (["create", "tester", "--role", "officer"], "the name 'tester' is taken"),
        (["create", "import", "--role", "organiser"], "the name 'import' is taken"),
        (["create", "bad:name", "--role", "officer"], "invalid key name"),
        # A key's name is the actor the audit trail shows: no bidi override, no line break (decision 105).
        (["create", "club\u202eevil", "--role", "officer"], "invalid key name 'club\\u202eevil'"),
        (["create", "club\r\nevil", "--role", "officer"], "invalid key name 'club\\r\\nevil'"),
        (["create", "twice", "--role", "officer"], "exists already"),
        (["revoke", "nobody"], "no key named 'nobody'"),
        (["revoke", "twice"], "revoked already"),
    ],
)
def test_cli_errors_are_one_line_and_status_1(capsys, arguments: list[str], message: str) -> None:  # type: ignore[no-untyped-def]
    if "twice" in arguments:
        assert cli(["keys", "create", "twice", "--role", "officer"]) == 0
        if arguments[0] == "revoke":
            assert cli(["keys", "revoke", "twice"]) == 0
        capsys.readouterr()
    assert cli(["keys", *arguments]) == 1
    output = capsys.readouterr()
    assert output.out == "" and output.err.count("\n") == 1 and message in output.err, output.err


def _cli(*arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "app.cli", "keys", *arguments],
        cwd=ROOT,
        env=dict(os.environ),
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )


@pytest.mark.slow
def test_a_key_created_with_the_command_works_over_a_live_server() -> None:
    secret = _cli("create", "live-organiser", "--role", "organiser").stdout.strip()
    headers = {"Authorization": f"Bearer {secret}"}
    with running_server() as server:
        submitted = httpx.post(f"{server.url}/v1/tournaments", json=tournament_body("LIVE"), headers=headers, timeout=30)
        assert submitted.status_code == 201, submitted.text
        revisions = httpx.get(f"{server.url}/v1/tournaments/LIVE/revisions", timeout=30).json()["items"]
        assert [r["actor"] for r in revisions] == ["live-organiser"]
        audit = httpx.get(f"{server.url}/v1/audit", headers=headers, timeout=30)
        assert audit.status_code == 403 and "needs an officer's key" in audit.json()["detail"]
        _cli("revoke", "live-organiser")
        refused = httpx.post(f"{server.url}/v1/tournaments/LIVE/restore", headers=headers, timeout=30)
        assert refused.status_code == 401 and "was revoked" in refused.json()["detail"]
