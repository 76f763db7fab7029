"""Every per-process cache stays within its limit in bytes, whatever is read (issue 48 item 1): the
answers kept as bytes, the snapshots' timelines and change tables (app/caches.py), each reported at
/metrics with its limit, hits, misses and evictions; reads answered after an eviction are the same."""

import tracemalloc
from collections.abc import Callable, Iterator

import pytest
from fastapi.testclient import TestClient
from prometheus_client.parser import text_string_to_metric_families

from app import caches
from app.names import folded
from app.rating.system import object_column
from app.settings import get_settings
from app.snapshots import stored_columns
from tests.helpers import AUTH, recompute_now, tournament_body, with_player_ids

CACHES = ("responses", "timelines", "change_tables")
ROUNDS = 6


def test_each_cache_stays_within_its_limit_when_more_is_read_than_it_holds(client, monkeypatch):
    snapshots = _rounds(client, range(ROUNDS))
    unlimited = [read(client) for read in _pinned_reads(snapshots)]
    held, entries = _metric(client, "rating_cache_bytes"), _metric(client, "rating_cache_entries")
    # Limits that hold about two and a half of the entries each cache kept: the reads and rounds
    # below fill them several times over.
    for name, setting in (
        ("responses", "CACHE_RESPONSES_BYTES"),
        ("timelines", "CACHE_TIMELINES_BYTES"),
        ("change_tables", "CACHE_CHANGES_BYTES"),
    ):
        assert entries[name] >= ROUNDS, (name, entries)  # without a limit in reach, every snapshot's was kept
        monkeypatch.setenv(setting, str(int(2.5 * held[name] / entries[name])))
    _read_limits_again()
    limits = _metric(client, "rating_cache_limit_bytes")
    assert {name: limits[name] for name in CACHES} == {
        "responses": int(get_settings().cache_responses_bytes),
        "timelines": int(get_settings().cache_timelines_bytes),
        "change_tables": int(get_settings().cache_changes_bytes),
    }

    def within_limits() -> None:
        held = _metric(client, "rating_cache_bytes")
        assert all(held[name] <= limits[name] for name in CACHES), (held, limits)

    limited = []
    for read in _pinned_reads(snapshots):
        limited.append(read(client))
        within_limits()
    assert limited == unlimited  # an entry dropped is built again, the same
    _rounds(client, range(ROUNDS, 2 * ROUNDS), after_each=within_limits)
    evictions = _metric(client, "rating_cache_evictions_total")
    assert all(evictions[name] > 0 for name in CACHES), evictions
    hits, misses = _metric(client, "rating_cache_hits_total"), _metric(client, "rating_cache_misses_total")
    assert all(misses[name] > 0 for name in CACHES) and hits["timelines"] > 0 and hits["change_tables"] > 0


def test_a_value_larger_than_the_whole_limit_is_answered_and_not_kept(monkeypatch):
    cache: caches.BoundedCache[bytes] = caches.BoundedCache("test_whole_limit", "cache_responses_bytes", len)
    try:
        monkeypatch.setenv("CACHE_RESPONSES_BYTES", "100")
        _read_limits_again()
        cache.put("small", b"x" * 60)
        cache.put("large", b"y" * 101)
        assert "large" not in cache and cache.get("small") == b"x" * 60
        cache.put("second", b"z" * 60)  # 120 bytes: the least recently used goes
        assert "small" not in cache and cache.get("second") == b"z" * 60
        statistics = cache.statistics()
        assert (statistics.bytes, statistics.entries, statistics.evictions, statistics.hits) == (60, 1, 1, 2)
    finally:
        caches.ALL.remove(cache)


def test_an_entry_that_grows_as_it_is_read_counts_against_the_limit_at_the_next_look_up(monkeypatch):
    class Growing:
        def __init__(self) -> None:
            self.size = 10

    cache: caches.BoundedCache[Growing] = caches.BoundedCache(
        "test_growing", "cache_timelines_bytes", lambda value: value.size, grow=True
    )
    try:
        monkeypatch.setenv("CACHE_TIMELINES_BYTES", "100")
        _read_limits_again()
        old, new = Growing(), Growing()
        cache.put("old", old)
        cache.put("new", new)
        old.size = 90  # a reader read more of it after it was kept
        assert cache.statistics().bytes == 100  # measured again: still within
        assert cache.get("new") is new  # lent to a reader, who reads into it
        new.size = 20
        assert cache.get("another") is None and "old" not in cache  # the next look-up counts it: over, the LRU went
        assert cache.statistics().bytes == 20
    finally:
        caches.ALL.remove(cache)


def test_nested_values_an_archive_decodes_count_as_much_as_they_hold():
    """A RIF Elo change's details (a dict of lists of dicts of numbers), decoded whole when first read,
    count against a cache's limit what tracemalloc sees them hold, not their first level's bytes
    (which were a twentieth of it: a change table cache of 32 MiB held some 100 MB)."""
    details = [
        {"start_rating": 1800.0 + i, "games": [{"round": str(r), "R": 1.0, "delta_R": r / 3 + i} for r in range(i % 9 + 1)]}
        for i in range(500)
    ]
    archive = stored_columns.Archive(stored_columns.pack({"details": object_column(details)}))
    before = archive.nbytes()
    tracemalloc.start()
    try:
        column = archive.column(None, "details")
        held, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert column.tolist() == details
    assert 0.9 * held <= archive.nbytes() - before <= 1.2 * held, (archive.nbytes() - before, held)


def test_nested_bytes_counts_a_shared_object_once():
    shared = ["x" * 1000]
    assert caches.nested_bytes([shared, shared]) == caches.nested_bytes([shared]) + 8


def test_the_name_memo_keeps_short_names_only(client):
    before = folded_names_entries = _metric(client, "rating_cache_entries")["folded_names"]
    assert folded("Ä" * 500) == "a" * 500
    assert _metric(client, "rating_cache_entries")["folded_names"] == before  # a long text is folded afresh
    assert folded(f"Soosõrv {folded_names_entries}") == f"soosorv {folded_names_entries}"
    assert _metric(client, "rating_cache_entries")["folded_names"] == min(before + 1, 4096)


def _rounds(client, numbers: range, after_each: Callable[[], None] = lambda: None) -> list[int]:  # type: ignore[no-untyped-def]
    """A tournament of new players each round, the rif-whr list recomputed after it, its players'
    histories and the tournament read (the new snapshot's timeline and change table): the snapshots' ids."""
    snapshots = []
    for number in numbers:
        year = 2000 + number
        body = with_player_ids(tournament_body(f"T{number}", start=f"{year}-05-01", end=f"{year}-05-03"), f"r{number}")
        for game in body["games"]:
            game.pop("date", None)
        assert client.post("/v1/tournaments", json=body, headers=AUTH).status_code == 201
        snapshots.append(recompute_now(client)["snapshot_id"])
        for earlier in range(numbers.start, number + 1):
            _json(client, f"/v1/tournaments/T{earlier}", {})
            _json(client, f"/v1/players/r{earlier}p1/history", {})
            after_each()
    return snapshots


def _pinned_reads(snapshots: list[int]) -> Iterator[Callable[[TestClient], object]]:
    """Each snapshot's list as of a day (its timeline) and as computed (kept as bytes)."""
    for snapshot_id in snapshots:
        for params in ({"as_of": "2003-06-01"}, {}):
            yield lambda client, params=params, snapshot_id=snapshot_id: _json(
                client, "/v1/rating-lists/rif-whr/ratings", {"snapshot_id": snapshot_id, "status": "all", **params}
            )


def _json(client, path: str, params: dict) -> object:  # type: ignore[no-untyped-def]
    response = client.get(path, params=params)
    assert response.status_code == 200, response.text
    return response.json()


def _read_limits_again() -> None:
    """Every cache emptied, to read its limit from the settings again at its next use."""
    get_settings.cache_clear()
    for cache in caches.ALL:
        cache.clear()


@pytest.fixture(autouse=True)
def _limits_as_configured() -> Iterator[None]:
    yield
    _read_limits_again()  # (monkeypatch has restored the environment by now)


def _metric(client, name: str) -> dict[str, float]:  # type: ignore[no-untyped-def]
    """One metric's samples on /metrics by their ``cache`` label."""
    response = client.get("/metrics")
    assert response.status_code == 200
    return {
        sample.labels["cache"]: sample.value
        for family in text_string_to_metric_families(response.text)
        for sample in family.samples
        if sample.name == name
    }
