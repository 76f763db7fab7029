"""The import stores new tournaments in batches, each under a savepoint of a transaction that
commits several: a tournament the submission service refuses stores nothing of itself and the
batch's others are stored, each as a submission through the API would be."""

import copy
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.exc import IntegrityError

from app.db import begin_writing, bulk_session_scope, get_engine
from app.services import importing
from app.services.bulk_load import leaves_for_later
from app.services.importing import import_results_file
from tests.helpers import AUTH, tournament_body

# Four tournaments in one batch (far fewer games than BATCH_GAMES): 900 and 903 are stored; 901 is
# refused (a player plays himself) and its own player 3 with it; 902 repeats 900's games, which the
# batch has checked but not stored yet when 902 is checked.
RESULTS = (
    "player\t1\tAnts\tSoosorv\t5\t1\n"
    "player\t2\tAndo\tMeritee\t5\t1\n"
    "player\t3\tOnly\tRefused\t5\t1\n"
    "player\t4\tTunnet\tTaimla\t5\t1\n"
    "tournament\t900\tCup\t5\t1\t2020-01-01\t2020-01-02\t1\n"
    "tournament\t901\tBroken\t5\t1\t2020-02-01\t2020-02-02\t1\n"
    "tournament\t902\tCup again\t5\t1\t2020-01-01\t2020-01-02\t1\n"
    "tournament\t903\tOpen\t5\t1\t2020-03-01\t2020-03-02\t1\n"
    "game\t1\t900\t1\t1\t1\t2\tB\n"
    "game\t2\t900\t2\t1\t2\t1\tW\n"
    "game\t3\t900\t3\t1\t1\t2\tD\n"
    "game\t4\t901\t1\t1\t3\t1\tB\n"
    "game\t5\t901\t2\t1\t1\t1\tB\n"
    "game\t6\t902\t1\t1\t1\t2\tB\n"
    "game\t7\t902\t2\t1\t2\t1\tW\n"
    "game\t8\t902\t3\t1\t1\t2\tD\n"
    "game\t9\t903\t1\t1\t4\t1\tW\n"
    "game\t10\t903\t2\t1\t1\t2\tB\n"
)


@pytest.fixture
def results_file(tmp_path: Path) -> Path:
    path = tmp_path / "results.tsv"
    path.write_text(RESULTS, encoding="utf-8")
    return path


def test_a_refused_tournament_stores_nothing_and_the_batch_s_others_are_stored(client: TestClient, results_file: Path):
    report = import_results_file(results_file)
    assert (report.tournaments_stored, report.players_stored, report.games_stored) == (2, 3, 5)
    assert report.rejected[importing.TOURNAMENT_REFUSED] == 1
    assert report.rejected[importing.GAME_OF_REFUSED_TOURNAMENT] == 2
    assert report.examples[importing.TOURNAMENT_REFUSED] == [
        "tournament 901: /games/1/white: player '1' cannot play against himself"
    ]
    assert report.rejected[importing.REPEATED_TOURNAMENT] == 1
    assert "'900'" in report.examples[importing.REPEATED_TOURNAMENT][0]
    assert list(report.jobs_queued) == ["rif-whr"]
    _assert_stored(client)

    again = import_results_file(results_file)
    assert (again.tournaments_stored, again.tournaments_unchanged, again.games_stored) == (0, 2, 0)
    assert again.rejected[importing.TOURNAMENT_REFUSED] == 1
    assert again.rejected[importing.REPEATED_TOURNAMENT] == 1
    _assert_stored(client)


@pytest.mark.parametrize("batch_games", [importing.BATCH_GAMES, 4])
def test_a_batch_the_database_refuses_is_stored_again_one_tournament_a_savepoint_on_postgresql(
    client: TestClient, results_file: Path, monkeypatch: pytest.MonkeyPatch, batch_games: int
):
    """All four tournaments in one batch, then two batches of two in one transaction: each batch
    written, then refused by the database.

    On PostgreSQL each is rolled back to its savepoint (the first batch's rollback leaves nothing of
    it for the second's checks to find) and stored again one tournament at a time. On SQLite, where
    the import's transaction holds the write lock and batches have no savepoint, the error stops the
    import and its transaction is rolled back whole: nothing of the file is stored."""
    monkeypatch.setattr(importing, "BATCH_GAMES", batch_games)
    store, import_batch = importing.store_new_tournaments, importing._import_batch
    batch_sizes: list[int] = []

    def importing_batch(session: Any, batch: list[Any], max_games: int, left: Any) -> Any:
        batch_sizes.append(len(batch))
        return import_batch(session, batch, max_games, left)

    def refusing_batches(session: Any, submissions: list[Any], **kwargs: Any) -> Any:
        stored = store(session, submissions, **kwargs)
        if batch_sizes[-1] > 1:  # written, then refused: the batch's writes roll back
            raise IntegrityError("INSERT", {}, Exception("refused for the test"))
        return stored

    monkeypatch.setattr(importing, "_import_batch", importing_batch)
    monkeypatch.setattr(importing, "store_new_tournaments", refusing_batches)
    if get_engine().dialect.name == "sqlite":
        with pytest.raises(IntegrityError, match="refused for the test"):
            import_results_file(results_file)
        assert client.get("/v1/tournaments", params={"category": "renju"}).json()["items"] == []
        assert client.get("/v1/players/1").status_code == 404
        return
    report = import_results_file(results_file)
    assert batch_sizes == ([4, 1, 1, 1, 1] if batch_games > 4 else [2, 1, 1, 2, 1, 1])
    assert (report.tournaments_stored, report.players_stored, report.games_stored) == (2, 3, 5)
    assert report.rejected[importing.TOURNAMENT_REFUSED] == 1
    assert report.rejected[importing.REPEATED_TOURNAMENT] == 1
    _assert_stored(client)


def test_batches_are_committed_together(client: TestClient, results_file: Path, monkeypatch: pytest.MonkeyPatch):
    """Batches of one tournament, two batches' games (or more) a transaction: the progress moves once a
    transaction has committed, by its tournaments. A last transaction builds what the batches left for
    the import's end (app.services.bulk_load)."""
    monkeypatch.setattr(importing, "BATCH_GAMES", 1)
    monkeypatch.setattr(importing, "COMMIT_GAMES", 5)
    commits: list[int] = []
    monkeypatch.setattr(importing, "begin_writing", lambda session: commits.append(1) or begin_writing(session))
    progress: list[int] = []
    import_results_file(results_file, on_progress=lambda done, total: progress.append(done))
    # 900 (3 games) and 901 (2) in the first transaction, 902 (3) and 903 (2) in the second.
    assert (len(commits), progress) == (2 + 1, [2, 4, 4])
    _assert_stored(client)


def _assert_stored(client: TestClient) -> None:
    page = client.get("/v1/tournaments", params={"category": "renju"}).json()
    assert [(t["id"], t["games_count"]) for t in page["items"]] == [("903", 2), ("900", 3)]
    assert client.get("/v1/tournaments/901").status_code == 404
    assert client.get("/v1/tournaments/902").status_code == 404
    assert client.get("/v1/players/3").status_code == 404
    assert client.get("/v1/players/4").json()["surname"] == "Taimla"
    for tournament_id in ("900", "903"):
        revisions = client.get(f"/v1/tournaments/{tournament_id}/revisions").json()
        assert [(r["number"], r["kind"], r["actor"]) for r in revisions["items"]] == [(1, "submitted", "import")]
    found = client.get("/v1/players", params={"q": "taimla"}).json()
    assert [player["id"] for player in found["items"]] == ["4"]


def test_a_tournament_given_twice_in_one_batch_is_stored_once_and_then_left_alone(client: TestClient):
    """The second copy of an id the batch stored itself is "unchanged", as it was when each tournament
    had its own transaction (it is looked up once the batch's pending tournaments are written)."""
    raw = tournament_body("T1")
    outcome = _stored_in_a_transaction([copy.deepcopy(raw), copy.deepcopy(raw)])
    assert (outcome.stored, outcome.unchanged, outcome.rejections) == (1, 1, [])
    corrected = copy.deepcopy(raw)
    corrected["name"] = "Corrected"
    outcome = _stored_in_a_transaction([copy.deepcopy(raw), corrected])
    assert (outcome.stored, outcome.unchanged, outcome.rejections) == (1, 1, [])
    assert client.get("/v1/tournaments/T1").json()["name"] == "Corrected"


def _stored_in_a_transaction(batch: list[dict[str, Any]]) -> Any:
    with bulk_session_scope() as session:
        begin_writing(session)
        return importing._import_batch(session, batch, 20_000, importing._LeftForEnd(leaves_for_later(session)))


@pytest.mark.parametrize("fails", [False, True])
def test_the_objects_frozen_for_the_import_are_unfrozen_after_it(
    client: TestClient, results_file: Path, monkeypatch: pytest.MonkeyPatch, fails: bool
):
    """The import freezes the objects alive before its batches out of the collector's full passes
    while it stores them, and unfreezes them after, also when a batch fails; a process that froze its
    objects already (the service's) is left frozen."""
    import gc

    frozen_before = gc.get_freeze_count() > 0  # (the service's startup freezes the test process's objects)
    gc.unfreeze()
    frozen_while_storing = []
    store = importing._import_batch

    def storing(*args: Any, **kwargs: Any) -> Any:
        frozen_while_storing.append(gc.get_freeze_count() > 0)
        if fails:
            raise RuntimeError("a batch failed for the test")
        return store(*args, **kwargs)

    monkeypatch.setattr(importing, "_import_batch", storing)
    try:
        if fails:
            with pytest.raises(RuntimeError, match="for the test"):
                import_results_file(results_file)
        else:
            import_results_file(results_file)
        assert frozen_while_storing and all(frozen_while_storing)
        assert gc.get_freeze_count() == 0
        gc.freeze()  # a process frozen already stays frozen (some of its objects freed meanwhile)
        if fails:
            with pytest.raises(RuntimeError, match="for the test"):
                import_results_file(results_file)
        else:
            import_results_file(results_file)
        assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()
        if frozen_before:
            gc.freeze()


def test_a_player_a_batch_creates_is_stored_once_whichever_way_its_tournaments_are_stored(client: TestClient):
    """A batch's players are read at once (``KnownPlayers``): one created by a tournament stored with
    the batch's pending ones, then named by one stored alone (an external id) and by one after it,
    is found stored by both, created once and recorded once (decisions 108)."""
    first = tournament_body("B1")
    alone = tournament_body("B2", start="2020-06-01", end="2020-06-02")
    alone["players"][0]["external_ids"] = ["renjunet:1"]
    last = tournament_body("B3", start="2020-07-01", end="2020-07-02")
    for body in (alone, last):
        for game in body["games"]:
            game.pop("date", None)
    with bulk_session_scope() as session:
        begin_writing(session)
        outcome = importing._import_batch(session, [first, alone, last], 20_000, importing._LeftForEnd(False))
    assert outcome.stored == 3 and not outcome.rejections, outcome.rejections
    assert sorted(outcome.created) == ["p1", "p2", "p3", "p4"]
    trail = client.get("/v1/audit", params={"kind": "player_created", "limit": 50}, headers=AUTH).json()
    assert sorted(r["subject_id"] for r in trail["items"]) == ["p1", "p2", "p3", "p4"]
    # The external id B2 gives p1, created by B1 before it, is a detail for an officer.
    assert [(kind, example.split(":")[0]) for kind, example in outcome.player_reviews] == [("details", "tournament B2")]
