"""`python -m app.cli evaluate` (issue 45): the same service path as the API's evaluations, its job
run in the process, its scores printed; bad arguments refused with the field they name."""

import datetime as dt
import json

from app.cli import main
from tests.helpers import store_three_tournaments


def test_a_holdout_with_a_sweep_is_run_and_printed_and_is_what_the_api_reads(client, capsys):
    store_three_tournaments(client, dt.date(2024, 1, 1))
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
