"""A generated federation history written in the renju.net file format, imported with the CLI,
recomputed through the API, and compared with the whr package: the real-data check on a history
whose shape (many tournaments over decades, Swiss and round robins, draws) we control."""

import os
import subprocess
import sys

import pytest
import whr as reference

from bench.histories import federation_history
from bench.results_file import RESULT_CODE, write_results_file
from tests.helpers import ROOT, recompute_now

# 4,000 generated games imported through the CLI and rated by both WHR implementations.
pytestmark = pytest.mark.slow


def test_generated_history_imported_and_rated_like_the_reference(client, tmp_path):
    history = federation_history(n_players=300, n_games=4000, years=12, seed=7)
    source = tmp_path / "generated.tsv"
    write_results_file(history, source)
    result = subprocess.run(
        [sys.executable, "-m", "app.cli", "import", "--no-progress", str(source)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=os.environ.copy(),
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    assert f"games stored:       {len(history.black)}" in result.stdout

    job = recompute_now(client)
    assert job["result"]["games"] == len(history.black)

    base = reference.Base(config={"w2": 12.9, "virtual_games": 2})
    for b, w, s, d in zip(history.black.tolist(), history.white.tolist(), history.score.tolist(), history.day.tolist()):
        base.create_game(str(b), str(w), RESULT_CODE[s], d)
    base.iterate_until_converge(verbose=False)

    played = sorted(set(history.black.tolist()) | set(history.white.tolist()))
    assert client.get("/v1/rating-lists/rif-whr/ratings", params={"status": "all"}).json()["total"] == len(played)
    worst_rating = worst_deviation = 0.0
    for player in played:
        points = client.get(f"/v1/players/{player}/history").json()["points"]
        expected = base.ratings_for_player(str(player))
        assert len(points) == len(expected)
        for point, (_, elo, uncertainty) in zip(points, expected):
            worst_rating = max(worst_rating, abs(point["rating"] - (elo + 1900.0)))
            worst_deviation = max(worst_deviation, abs(point["deviation"] - uncertainty))
    assert worst_rating < 0.01 and worst_deviation < 0.1, (worst_rating, worst_deviation)
