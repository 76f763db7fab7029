"""bench/bench_soak.py's report: percentiles, the windows it judges growth and p99 on, and its verdict."""

import json

from bench.bench_soak import (
    MB,
    Request,
    Sample,
    Submitted,
    percentile,
    refusal_reason,
    status_counts,
    submission_problem,
    verdict,
    windows,
)


def test_percentiles_interpolate_between_ranks_as_numpy_does():
    assert percentile([3.0, 1.0, 2.0, 4.0], 50) == 2.5
    assert percentile([1.0, 2.0, 3.0, 4.0, 5.0], 99) == 4.96
    assert percentile([7.0], 95) == 7.0
    assert percentile([], 50) != percentile([], 50)  # nan


def test_short_runs_judge_their_last_third_and_an_hour_the_issues_windows():
    assert windows(600) == (200, 200)
    assert windows(3600) == (1200, 600)


def _samples(api: list[int], database: list[int]) -> list[Sample]:
    return [Sample(at * 60.0, a * MB, 150 * MB, d * MB, 0, 0, 0) for at, (a, d) in enumerate(zip(api, database))]


def test_the_verdict_flags_growth_slow_reads_and_5xx_but_not_a_503_with_retry_after():
    fast = [Request(t, "read", "list page", 200, 0.010) for t in range(0, 600, 2)]
    steady = verdict(_samples([300] * 11, [100] * 11), [*fast, Request(5, "read", "what-if", 503, 0.1, True)], 600, 0, 0, 5)
    assert all(check.met for check in steady), steady
    slow = [Request(t, "read", "list page", 200, 0.010 if t < 300 else 0.030) for t in range(0, 600, 2)]
    growing = verdict(
        _samples([300 + 10 * m for m in range(11)], [100 + 5 * m for m in range(11)]),
        [*slow, Request(9, "write", "x", 500, 1)],
        600,
        1,
        2,
        5,
    )
    unmet = {check.what.split(":")[0].split(",")[0] for check in growing if not check.met}
    assert unmet == {
        "API process RSS",
        "API RSS",
        "database size",
        "read p99",
        "5xx (a 503 with Retry-After excepted) or no answer",
        "failed jobs",
        "submitted tournaments not as rated as they should be",
    }
    assert status_counts([Request(0, "read", "x", 503, 0.1, True), Request(0, "read", "x", 0, 60)]) == {
        "503+Retry-After": 1,
        "no answer": 1,
    }


def test_a_submission_is_rated_by_each_list_that_queued_its_recompute():
    body = {"games": [{"black": "a", "white": "b", "result": "B"}]}
    lists = [{"id": "rif-whr", "rated": True, "job_id": 7}, {"id": "rif-elo", "rated": True, "job_id": None}]
    state = Submitted(body, '"v2"', lists=lists)
    rated = {"rating_changes": [{"list_id": "rif-whr", "player_id": p} for p in "ab"], "withdrawn_at": None}
    assert submission_problem(state, rated, '"v2"') is None
    assert (
        submission_problem(state, {**rated, "rating_changes": rated["rating_changes"][:1]}, '"v2"')
        == "rif-whr: no change for ['b']"
    )
    assert submission_problem(state, rated, '"v3"') == 'stored as "v3", the soak\'s last write left "v2"'
    stale = {**rated, "stale_lists": [{"list_id": "rif-whr"}]}
    assert submission_problem(state, stale, '"v2"') == "rif-whr is stale for it"
    withdrawn = Submitted(body, '"v3"', withdrawn=True, lists=lists)
    assert submission_problem(withdrawn, {**rated, "withdrawn_at": "2026-12-02T08:00:00Z"}, '"v3"').startswith("withdrawn, but")


def test_a_refusal_is_told_by_its_problems_title_pointer_and_detail_whatever_its_numbers():
    def problem(detail: str) -> bytes:
        errors = [{"pointer": "/games/3/black", "detail": detail}]
        return json.dumps({"title": "Invalid input", "status": 422, "errors": errors}).encode()

    first = refusal_reason("submit", 422, problem("player p123 is not among the 40 players"))
    assert first == refusal_reason("submit", 422, problem("player p9 is not among the 12 players"))
    assert first == "submit 422: Invalid input at /games/3/black: player pN is not among the N players"
    assert first != refusal_reason("correct", 422, problem("player p123 is not among the 40 players"))
    assert refusal_reason("correct", 412, b'{"title": "Precondition failed", "detail": "the ETag is stale"}') == (
        "correct 412: Precondition failed: the ETag is stale"
    )
    assert refusal_reason("read", 404, b"<html>") == "read 404: (not problem+json)"
