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


def test_a_sweep_of_two_parameters_prints_its_grid_and_the_best_pair(client, capsys):
    store_three_tournaments(client, dt.date(2024, 1, 1))
    argv = ["evaluate", "rif-whr", "--mode", "holdout", "--every", "2", "--sweep", "w2=6,12.9,25", "--sweep", "virtual_games=1,2"]
    assert main(argv) == 0
    lines = capsys.readouterr().out.splitlines()
    [listed] = client.get("/v1/rating-lists/rif-whr/evaluations").json()["items"]
    sweep = listed["result"]["sweep"]
    assert any(line.startswith("  sweep of w2 (the list's 12.9) and virtual_games (the list's 2.0)") for line in lines)
    # A row per value of w2, a column per number of virtual games, each cell the pair's mean
    # log-likelihood; the best pair marked *, the list's own (12.9, 2) marked =.
    header = next(i for i, line in enumerate(lines) if "w2 / virtual_games" in line)
    assert lines[header].split()[-2:] == ["1", "2"]
    rows = [line.split() for line in lines[header + 1 : header + 4]]
    assert [row[0] for row in rows] == ["6", "12.9", "25"]
    for row, w2 in zip(rows, (6.0, 12.9, 25.0), strict=True):
        for shown, virtual in zip(row[1:], (1.0, 2.0), strict=True):
            [cell] = [c for c in sweep["grid"] if (c["value"], c["second_value"]) == (w2, virtual)]
            marks = ("*" if (w2, virtual) == (sweep["best"], sweep["and_parameter"]["best"]) else "") + (
                "=" if (w2, virtual) == (12.9, 2.0) else ""
            )
            assert shown == f"{cell['mean_log_likelihood']:.4f}{marks}"
    assert f"  best pair w2 = {sweep['best']}, virtual_games = {sweep['and_parameter']['best']}" in lines
    second = sweep["and_parameter"]
    assert any(
        line.startswith(f"  virtual_games: best {second['best']}, 95 % interval {second['interval_low']} to ") for line in lines
    )


def test_bad_arguments_name_what_is_wrong_and_queue_nothing(client, capsys):
    assert main(["evaluate", "rif-whr", "--every", "1"]) == 2
    assert "/every" in capsys.readouterr().err
    assert main(["evaluate", "rif-whr", "--sweep", "w2=a,b"]) == 2
    assert "PARAMETER=V1,V2" in capsys.readouterr().err
    assert main(["evaluate", "rif-whr", "--sweep", "w3=1,2"]) == 2
    assert "/sweep/parameter" in capsys.readouterr().err
    assert main(["evaluate", "rif-whr", "--sweep", "w2=1,2", "--sweep", "w2=3,4"]) == 2
    assert "/sweep/and_parameter/parameter" in capsys.readouterr().err
    assert main(["evaluate", "rif-whr", "--sweep", "w2=1,2", "--sweep", "virtual_games=1,2", "--sweep", "start_rating=1,2"]) == 2
    assert "one parameter or two" in capsys.readouterr().err
    assert main(["evaluate", "no-such-list"]) == 2
    assert client.get("/v1/jobs").json()["total"] == 0
