"""`python -m app.cli evaluate` (issue 45): the same service path as the API's evaluations, its job
run in the process, its scores printed; bad arguments refused with the field they name."""

import json

from app.cli import main
from tests.helpers import AUTH, tournament_body


def _store(client) -> None:  # type: ignore[no-untyped-def]
    for number, start in enumerate(("2020-05-01", "2020-08-01", "2021-02-01"), start=1):
        body = tournament_body(f"T{number}", start=start, end=start)
        for game in body["games"]:
            game.pop("date", None)  # (the body's one dated game is dated in 2020-05)
        assert client.post("/v1/tournaments", json=body, headers=AUTH).status_code == 201


def test_a_holdout_with_a_sweep_is_run_and_printed_and_is_what_the_api_reads(client, capsys):
    _store(client)
    assert main(["evaluate", "rif-whr", "--mode", "holdout", "--every", "2", "--sweep", "w2=6,12.9,25"]) == 0
    printed = capsys.readouterr().out
    assert printed.splitlines()[0].endswith("of rif-whr: succeeded")
    assert "holdout, 1 game in 2 (offset 0)" in printed
    assert "sweep of w2 (the list's 12.9):" in printed and "best " in printed
    [listed] = client.get("/v1/rating-lists/rif-whr/evaluations").json()["items"]
    assert listed["status"] == "succeeded"
    assert f"mean log-likelihood {listed['result']['scores']['mean_log_likelihood']:.4f}" in printed
    assert main(["evaluate", "rif-whr", "--json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["result"]["manifest"]["request"]["mode"] == "forward"


def test_bad_arguments_name_what_is_wrong_and_queue_nothing(client, capsys):
    assert main(["evaluate", "rif-whr", "--every", "1"]) == 2
    assert "/every" in capsys.readouterr().err
    assert main(["evaluate", "rif-whr", "--sweep", "w2=a,b"]) == 2
    assert "PARAMETER=V1,V2" in capsys.readouterr().err
    assert main(["evaluate", "rif-whr", "--sweep", "w3=1,2"]) == 2
    assert "/sweep/parameter" in capsys.readouterr().err
    assert main(["evaluate", "no-such-list"]) == 2
    assert client.get("/v1/jobs").json()["total"] == 0
