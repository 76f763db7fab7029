"""The renju.net results file is read streamed (issue 27 item 6): two passes over the file, one
tournament's games in memory at a time, and exactly the submissions and rejected rows of the
whole-file parse (`to_submissions(parse_path(...))`), whatever order the file's records come in."""

import random
from collections import Counter
from pathlib import Path

from app.importers.renju_tsv import ASIDE, parse_path, read, to_submissions
from app.importers.source import ImportOptions
from tests.helpers import RENJU_CN


def assert_same_as_the_whole_file_parse(path: Path) -> list[dict]:
    streamed = read(path, ImportOptions())
    submissions = list(streamed.submissions)
    whole, rejected = to_submissions(parse_path(path))
    assert submissions == whole
    assert streamed.tournament_count == len(whole)
    assert streamed.rejected + streamed.left_aside == Counter(row.reason for row in rejected)
    assert set(streamed.left_aside) <= ASIDE and not set(streamed.rejected) & ASIDE
    examples: dict[str, list[str]] = {}
    for row in rejected:
        kept = examples.setdefault(row.reason, [])
        if len(kept) < 3:
            kept.append(f"line {row.line_number}: {row.detail}" if row.detail else f"line {row.line_number}")
    assert streamed.examples == examples
    return submissions


def test_the_real_file_streamed_gives_what_the_whole_file_parse_gives():
    submissions = assert_same_as_the_whole_file_parse(RENJU_CN)
    assert len(submissions) == 59 and sum(len(s["games"]) for s in submissions) == 4644


def test_records_in_any_order_with_bad_lines_stream_the_same(tmp_path: Path):
    lines = RENJU_CN.read_text(encoding="utf-8").splitlines()
    rng = random.Random(27)
    games = [line for line in lines if line.startswith("game\t")]
    others = [line for line in lines if not line.startswith("game\t")]
    rng.shuffle(games)  # every tournament's games scattered over the file
    first_game = games[0].split("\t")
    bad = [
        "game\t900001\t" + "\t".join(first_game[2:7]) + "\tX",  # a result no rule knows, in a known tournament
        "game\t900002\tNO-SUCH\t1\t1\t1\t2\tB",  # a tournament no record defines
        "game\t900003\tNO-SUCH\t1\t1\t1\t2\tQ",  # both: the undefined tournament is the reason
        "game\t900004\t17",  # too few columns
        "tournament\t77\tBroken\t1\t1\t2020-13-01\t2020-13-02\t1",  # no such month
        "match\t1\t2",  # no such record type
        "",
        "   ",
    ]
    # A player and a tournament described twice: the last record's values, the first record's place.
    player = next(line for line in others if line.startswith("player\t")).split("\t")
    tournament = next(line for line in others if line.startswith("tournament\t")).split("\t")
    repeated = [
        "\t".join([*player[:2], "Renamed", *player[3:]]),
        "\t".join([*tournament[:2], "Renamed Open", *tournament[3:]]),
    ]
    mixed = others[:3] + games[:500] + bad + others[3:] + games[500:] + repeated  # games before their tournaments' records
    path = tmp_path / "mixed.tsv"
    path.write_bytes(("\r\n".join(mixed) + "\r\n").encode("utf-8"))
    submissions = assert_same_as_the_whole_file_parse(path)
    assert sum(len(s["games"]) for s in submissions) == 4644
    renamed = [s for s in submissions if s["name"] == "Renamed Open"]
    assert [s["id"] for s in renamed] == [tournament[1]] and submissions.index(renamed[0]) == 0
    assert any(p["name"] == "Renamed" for s in submissions for p in s["players"] if p["id"] == player[1])


def test_a_file_that_groups_each_tournaments_games_is_located_by_one_run_each(tmp_path: Path):
    from app.importers.renju_tsv import _index

    index = _index(RENJU_CN)
    runs = [index.records.runs_of(tournament.id) for tournament in index.records.tournaments()]
    index.records.close()
    assert len(runs) == 59 and all(len(each) == 1 for each in runs)
    # the first pass keeps no game, and its players and tournaments are in the temporary database
    assert not index.parsed.games and not index.parsed.players and not index.parsed.tournaments
