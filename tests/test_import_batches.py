"""The import stores new tournaments in batches, one transaction each: a tournament the submission
service refuses stores nothing of itself and the batch's others are stored, each as a submission
through the API would be."""

import copy
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.exc import IntegrityError

from app.services import importing
from app.services.importing import import_results_file
from tests.helpers import tournament_body

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


def test_a_batch_the_database_refuses_is_imported_again_one_tournament_a_transaction(
    client: TestClient, results_file: Path, monkeypatch: pytest.MonkeyPatch
):
    store = importing.store_new_tournaments

    def refusing_batches(session: Any, submissions: list[Any], **kwargs: Any) -> Any:
        if len(submissions) > 1:
            store(session, submissions, **kwargs)  # written, then refused: the batch's transaction rolls back
            raise IntegrityError("INSERT", {}, Exception("refused for the test"))
        return store(session, submissions, **kwargs)

    monkeypatch.setattr(importing, "store_new_tournaments", refusing_batches)
    report = import_results_file(results_file)
    assert (report.tournaments_stored, report.players_stored, report.games_stored) == (2, 3, 5)
    assert report.rejected[importing.TOURNAMENT_REFUSED] == 1
    assert report.rejected[importing.REPEATED_TOURNAMENT] == 1
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
    outcome = importing._import_batch([copy.deepcopy(raw), copy.deepcopy(raw)], 20_000)
    assert (outcome.stored, outcome.unchanged, outcome.rejections) == (1, 1, [])
    corrected = copy.deepcopy(raw)
    corrected["name"] = "Corrected"
    outcome = importing._import_batch([copy.deepcopy(raw), corrected], 20_000)
    assert (outcome.stored, outcome.unchanged, outcome.rejections) == (1, 1, [])
    assert client.get("/v1/tournaments/T1").json()["name"] == "Corrected"


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

    def storing(*args: Any) -> Any:
        frozen_while_storing.append(gc.get_freeze_count() > 0)
        if fails:
            raise RuntimeError("a batch failed for the test")
        return store(*args)

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
