"""A list that does not recompute itself says so whenever a change it would rate lands (docs/decisions.md
7.106): the change's answer names no job and why, and the list is stale from that change until a
recompute that read it commits its snapshot, in its own reads, its ratings, the tournament's read,
their ETags and the website's pages."""

import datetime as dt
import threading

from app.recompute import compute, staleness
from app.recompute.jobs import run_pending_jobs
from app.services import importing
from app.services.importing import import_results_file
from tests.helpers import (
    AUTH,
    RIF_ELO_PLAYERS,
    RIF_ELO_SEEDS,
    RIF_ELO_TOURNAMENTS,
    recompute_rif_elo,
    round_robin,
    store_rif_elo_history,
    tournament_body,
)

ELO_DAY = dt.date(2021, 8, 7)  # the list's last day (recompute_rif_elo's list date)


def _seeded_and_recomputed(client) -> None:  # type: ignore[no-untyped-def]
    store_rif_elo_history(client)
    assert client.put("/v1/rating-lists/rif-elo/seeds", json={"seeds": RIF_ELO_SEEDS}, headers=AUTH).status_code == 200
    recompute_rif_elo(client)


def _t1998(first_result: str) -> dict:
    """t1998 of the small Elo history, its first game (a, black, against b) with this result."""
    tid, start, end, ids, results = RIF_ELO_TOURNAMENTS[2]
    games = round_robin(ids, first_result + results[1:])
    return {"id": tid, "name": tid, "category": "renju", "start": start, "end": end, "players": RIF_ELO_PLAYERS, "games": games}


def _elo_change(client, tournament_id: str, player_id: str) -> float:  # type: ignore[no-untyped-def]
    changes = client.get(f"/v1/tournaments/{tournament_id}").json()["rating_changes"]
    return next(c["change"] for c in changes if c["list_id"] == "rif-elo" and c["player_id"] == player_id)


def _stale_since(client) -> str | None:  # type: ignore[no-untyped-def]
    return client.get("/v1/rating-lists/rif-elo").json()["stale_since"]


def test_a_correction_the_historical_list_rates_makes_it_stale_until_it_is_recomputed(client):
    _seeded_and_recomputed(client)
    assert _stale_since(client) is None  # the recompute read every change before it
    won = _elo_change(client, "t1998", "a")  # his change with the win

    # a's win against b becomes a loss
    corrected = client.put("/v1/tournaments/t1998", json=_t1998("W"), headers=AUTH)
    assert corrected.status_code == 200, corrected.text
    elo = next(outcome for outcome in corrected.json()["lists"] if outcome["id"] == "rif-elo")
    assert elo["rated"] is True and elo["job_id"] is None
    assert "does not recompute itself (auto_recompute false)" in elo["no_recompute_reason"]
    assert "POST /v1/rating-lists/rif-elo/recompute" in elo["no_recompute_reason"]
    whr = next(outcome for outcome in corrected.json()["lists"] if outcome["id"] == "rif-whr")
    assert whr["job_id"] is not None and whr["no_recompute_reason"] is None
    [mark] = corrected.json()["stale_lists"]
    assert mark["list_id"] == "rif-elo" and mark["stale_reason"] == "tournament t1998 corrected"

    listed = client.get("/v1/rating-lists/rif-elo").json()
    assert listed["stale_since"] == mark["stale_since"] and listed["stale_reason"] == "tournament t1998 corrected"
    assert dt.datetime.fromisoformat(listed["stale_since"]) <= dt.datetime.now(dt.UTC)
    page = client.get("/v1/rating-lists/rif-elo/ratings", params={"status": "all"}).json()
    assert (page["stale_since"], page["stale_reason"]) == (listed["stale_since"], "tournament t1998 corrected")
    history = client.get("/v1/players/a/history", params={"list": "rif-elo"}).json()
    assert history["stale_since"] == listed["stale_since"]
    read = client.get("/v1/tournaments/t1998").json()
    assert read["stale_lists"] == [mark]
    assert _elo_change(client, "t1998", "a") == won  # the list still shows the win
    # the lists that recompute themselves are not stale, and a pinned snapshot says nothing
    assert client.get("/v1/rating-lists/rif-whr").json()["stale_since"] is None
    pinned = client.get("/v1/rating-lists/rif-elo/ratings", params={"snapshot_id": page["snapshot_id"]}).json()
    assert pinned["stale_since"] is None and pinned["stale_reason"] is None

    recompute_rif_elo(client)
    assert _stale_since(client) is None and client.get("/v1/rating-lists/rif-elo").json()["stale_reason"] is None
    assert client.get("/v1/rating-lists/rif-elo/ratings").json()["stale_since"] is None
    assert client.get("/v1/tournaments/t1998").json()["stale_lists"] == []
    assert _elo_change(client, "t1998", "a") < won  # the loss shows


def test_a_change_made_while_a_recompute_runs_leaves_the_list_stale(client, monkeypatch):
    _seeded_and_recomputed(client)
    won = _elo_change(client, "t1998", "a")
    original = compute.compute_snapshot
    corrected = []

    def read_then_corrected(*args, **kwargs):  # type: ignore[no-untyped-def]
        data = original(*args, **kwargs)  # the inputs are read: the correction lands after
        if not corrected:  # (once: not in the recompute of rif-whr it queues)
            corrected.append(client.put("/v1/tournaments/t1998", json=_t1998("W"), headers=AUTH))
        return data

    monkeypatch.setattr(compute, "compute_snapshot", read_then_corrected)
    job = client.post("/v1/rating-lists/rif-elo/recompute", headers=AUTH).json()["job_id"]
    run_pending_jobs(list_date=ELO_DAY)
    assert corrected[0].status_code == 200, corrected[0].text
    assert client.get(f"/v1/jobs/{job}").json()["status"] == "succeeded"
    listed = client.get("/v1/rating-lists/rif-elo").json()
    assert listed["stale_reason"] == "tournament t1998 corrected" and listed["stale_since"] is not None
    assert listed["current_snapshot_id"] == client.get(f"/v1/jobs/{job}").json()["snapshot_id"]
    assert _elo_change(client, "t1998", "a") == won  # the snapshot read the win

    monkeypatch.setattr(compute, "compute_snapshot", original)
    recompute_rif_elo(client)
    assert _stale_since(client) is None and _elo_change(client, "t1998", "a") < won


def test_a_snapshot_written_while_a_change_holds_the_list_leaves_it_stale(client, monkeypatch):
    """The race the row lock settles: the recompute has read its inputs, a correction marks the list
    and has not committed yet, the snapshot is written. The snapshot's write waits for the correction
    (its row lock on PostgreSQL, the write lock on SQLite) and then finds the list's count changed."""
    _seeded_and_recomputed(client)
    won = _elo_change(client, "t1998", "a")
    marked, release = threading.Event(), threading.Event()
    mark, computed = staleness.mark, compute.compute_snapshot
    corrected: list = []

    def mark_and_hold(*args, **kwargs):  # type: ignore[no-untyped-def]
        mark(*args, **kwargs)
        marked.set()  # the list's row is changed; the correction's transaction is still open
        assert release.wait(30)
        monkeypatch.setattr(staleness, "mark", mark)

    def computed_then_corrected(*args, **kwargs):  # type: ignore[no-untyped-def]
        data = computed(*args, **kwargs)
        if marked.is_set():
            return data  # (the recompute of rif-whr the correction queued)
        monkeypatch.setattr(staleness, "mark", mark_and_hold)
        correction = threading.Thread(
            target=lambda: corrected.append(client.put("/v1/tournaments/t1998", json=_t1998("W"), headers=AUTH))
        )
        correction.start()
        assert marked.wait(30)
        threading.Timer(0.5, release.set).start()  # while the snapshot's write waits for it
        return data

    monkeypatch.setattr(compute, "compute_snapshot", computed_then_corrected)
    job = client.post("/v1/rating-lists/rif-elo/recompute", headers=AUTH).json()["job_id"]
    run_pending_jobs(list_date=ELO_DAY)
    assert corrected and corrected[0].status_code == 200, corrected
    assert client.get(f"/v1/jobs/{job}").json()["status"] == "succeeded"
    assert client.get("/v1/rating-lists/rif-elo").json()["stale_reason"] == "tournament t1998 corrected"
    assert _elo_change(client, "t1998", "a") == won


def test_the_stale_mark_is_part_of_the_etags_and_the_kept_answers(client):
    _seeded_and_recomputed(client)
    paths = ("/v1/rating-lists/rif-elo/ratings?status=all", "/v1/players/a/history?list=rif-elo")
    before = {}
    for path in paths:
        first = client.get(path)
        assert first.json()["stale_since"] is None
        before[path] = first.headers["etag"]
        # the copy is current: 304 (before routing), and the kept answer is the same
        assert client.get(path, headers={"If-None-Match": before[path]}).status_code == 304
        assert client.get(path).content == first.content

    assert client.put("/v1/tournaments/t1998", json=_t1998("W"), headers=AUTH).status_code == 200
    after = {}
    for path in paths:
        again = client.get(path, headers={"If-None-Match": before[path]})
        assert again.status_code == 200, path  # no 304 hiding the mark
        assert again.json()["stale_since"] is not None and again.headers["etag"] != before[path]
        assert client.get(path).json()["stale_since"] is not None  # not the answer kept from before
        after[path] = again.headers["etag"]
        assert client.get(path, headers={"If-None-Match": after[path]}).status_code == 304
    # the website's list page too
    page = client.get("/lists/rif-elo")
    assert client.get("/lists/rif-elo", headers={"If-None-Match": page.headers["etag"]}).status_code == 304

    recompute_rif_elo(client)
    for path in paths:
        fresh = client.get(path, headers={"If-None-Match": after[path]})
        assert fresh.status_code == 200 and fresh.json()["stale_since"] is None
    assert client.get("/lists/rif-elo", headers={"If-None-Match": page.headers["etag"]}).status_code == 200


def test_the_website_says_a_list_is_stale_on_its_tournament_and_player_pages(client):
    _seeded_and_recomputed(client)
    notice = "does not yet include changes made since"
    for path in ("/lists/rif-elo", "/tournaments/t1998", "/players/a"):
        assert notice not in client.get(path).text, path
    assert client.put("/v1/tournaments/t1998", json=_t1998("W"), headers=AUTH).status_code == 200
    for path in ("/lists/rif-elo", "/tournaments/t1998", "/players/a"):
        text = client.get(path).text
        assert notice in text and "it is recomputed when an officer asks" in text, path
    assert notice not in client.get("/lists/rif-whr").text  # it recomputes itself: a job was queued
    estonian = client.get("/lists/rif-elo", headers={"Accept-Language": "et"}).text
    assert notice not in estonian and 'class="stale"' in estonian
    recompute_rif_elo(client)
    for path in ("/lists/rif-elo", "/tournaments/t1998", "/players/a"):
        assert notice not in client.get(path).text, path


def test_every_change_that_queues_no_recompute_marks_the_list(client):
    """Seeds, parameters, a withdrawal and a restore; a pending review queues nothing and marks
    nothing; a list that recomputes itself is marked by a change that queues nothing for it."""
    _seeded_and_recomputed(client)
    seed = {"rating": 2310, "as_of": "1994-12-31"}
    put = client.put("/v1/rating-lists/rif-elo/seeds/a", json=seed, headers=AUTH)
    assert put.status_code == 200 and put.json()["job_id"] is None
    assert client.get("/v1/rating-lists/rif-elo").json()["stale_reason"] == "seed of a changed"
    first_since = _stale_since(client)
    withdrawn = client.delete("/v1/tournaments/t1995", params={"reason": "test"}, headers=AUTH).json()
    elo = next(outcome for outcome in withdrawn["lists"] if outcome["id"] == "rif-elo")
    assert elo["rated"] is False and elo["job_id"] is None and "does not recompute itself" in elo["no_recompute_reason"]
    # the first change is the one named, and since when
    assert (_stale_since(client), client.get("/v1/rating-lists/rif-elo").json()["stale_reason"]) == (
        first_since,
        "seed of a changed",
    )
    recompute_rif_elo(client)
    restored = client.post("/v1/tournaments/t1995/restore", headers=AUTH).json()
    assert restored["stale_lists"][0]["stale_reason"] == "tournament t1995 restored"
    recompute_rif_elo(client)
    assert client.put("/v1/rating-lists/rif-elo/seeds", json={"seeds": RIF_ELO_SEEDS}, headers=AUTH).status_code == 200
    assert client.get("/v1/rating-lists/rif-elo").json()["stale_reason"] == "seeds replaced"
    recompute_rif_elo(client)
    changed = client.patch("/v1/rating-lists/rif-elo/params", json={"bootstrap_rating": 1800}, headers=AUTH).json()
    assert changed["stale_reason"] == "parameters changed: bootstrap_rating None → 1800" and changed["stale_since"]
    # rif-whr recomputes itself after submissions, but a change of its parameters queues nothing
    assert client.get("/v1/rating-lists/rif-whr").json()["stale_since"] is None
    whr = client.patch("/v1/rating-lists/rif-whr/params", json={"w2": 200}, headers=AUTH).json()
    assert whr["stale_reason"].startswith("parameters changed: w2 ") and whr["stale_reason"].endswith(" → 200")
    submitted = client.post("/v1/tournaments", json=tournament_body("T1"), headers=AUTH).json()
    job = next(outcome["job_id"] for outcome in submitted["lists"] if outcome["id"] == "rif-whr")
    run_pending_jobs()
    assert client.get(f"/v1/jobs/{job}").json()["status"] == "succeeded"
    assert client.get("/v1/rating-lists/rif-whr").json()["stale_since"] is None  # the job read the parameters

    # A list that reviews: a pending tournament changes none of its ratings
    assert client.patch("/v1/rating-lists/rif-whr", json={"requires_review": True}, headers=AUTH).status_code == 200
    one_game = [{"black": "p1", "white": "p2", "result": "B"}]
    pending = client.post(
        "/v1/tournaments", json=tournament_body("T2", start="2021-01-01", end="2021-01-01", games=one_game), headers=AUTH
    )
    assert pending.status_code == 201, pending.text
    whr_outcome = next(outcome for outcome in pending.json()["lists"] if outcome["id"] == "rif-whr")
    assert whr_outcome["review"] == "pending" and whr_outcome["job_id"] is None
    assert "waits for the review of an officer" in whr_outcome["no_recompute_reason"]
    assert "/v1/rating-lists/rif-whr/reviews/T2" in whr_outcome["no_recompute_reason"]
    assert client.get("/v1/rating-lists/rif-whr").json()["stale_since"] is None
    # ... until the list stops reviewing: what waited counts from the next recompute, which nothing queues
    assert client.patch("/v1/rating-lists/rif-whr", json={"requires_review": False}, headers=AUTH).status_code == 200
    assert client.get("/v1/rating-lists/rif-whr").json()["stale_reason"] == "reviews no longer required"
    # a tournament a list does not rate moves none of its ratings
    blitz = tournament_body("T3", start="2022-01-01", end="2022-01-01", time_control_minutes=10, games=one_game)
    outcomes = client.post("/v1/tournaments", json=blitz, headers=AUTH).json()["lists"]
    whr_outcome = next(outcome for outcome in outcomes if outcome["id"] == "rif-whr")
    assert whr_outcome["rated"] is False and whr_outcome["job_id"] is None
    assert whr_outcome["no_recompute_reason"].startswith("the list does not rate the tournament")


# Three renju tournaments of 2005 (the Elo list's years): the import names the lists it did not
# recompute and why, as a submission's answer does.
RESULTS = (
    "player\t1\tAnts\tSoosorv\t5\t1\n"
    "player\t2\tAndo\tMeritee\t5\t1\n"
    "player\t3\tTunnet\tTaimla\t5\t1\n"
    "tournament\t920\tCup\t5\t1\t2005-01-01\t2005-01-02\t1\n"
    "tournament\t921\tOpen\t5\t1\t2005-02-01\t2005-02-02\t1\n"
    "tournament\t922\tFinal\t5\t1\t2005-03-01\t2005-03-02\t1\n"
    "game\t1\t920\t1\t1\t1\t2\tB\n"
    "game\t2\t921\t1\t1\t2\t3\tW\n"
    "game\t3\t922\t1\t1\t3\t1\tD\n"
)


def test_an_import_names_the_lists_it_did_not_recompute(client, tmp_path):
    path = tmp_path / "results.tsv"
    path.write_text(RESULTS, encoding="utf-8")
    report = import_results_file(path)
    assert report.tournaments_stored == 3 and "rif-whr" in report.jobs_queued
    assert set(report.not_recomputed) == {"rif-elo"}
    assert "does not recompute itself" in report.not_recomputed["rif-elo"]
    listed = client.get("/v1/rating-lists/rif-elo").json()
    assert listed["stale_reason"] == "tournament 920 submitted, and 2 more tournaments"
    assert importing.IMPORT_ACTOR == "import"
