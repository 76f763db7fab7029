"""Write a generated history in the renju.net results format (tests/data/renju-cn-2009-2019/README.md),
so it is imported exactly as real files are: through `python -m app.cli import`."""

from datetime import date, timedelta
from pathlib import Path

import numpy as np

from bench.histories import History

RESULT_CODE = {1.0: "B", 0.0: "W", 0.5: "D"}


def write_results_file(history: History, path: Path, player_id_offset: int = 0) -> None:
    """One `player` record per player, one `tournament` record per tournament (ending on the day its
    games are dated), one `game` record per game. Player `p` is numbered `p + player_id_offset`: an
    offset keeps the generated players apart from renju.net's ids (the real files under tests/data
    number theirs from 254 to 4093), so both can be imported into one database."""
    lines = ["country\t1\tGeneratia\tGEN"]
    lines += [f"player\t{p + player_id_offset}\tFirst{p}\tLast{p}\t1\t1" for p in range(history.n_players)]
    order = np.argsort(history.tournament, kind="stable")
    tournaments, first = np.unique(history.tournament[order], return_index=True)
    for t, start_index in zip(tournaments.tolist(), first.tolist()):
        end = date.fromordinal(int(history.day[order[start_index]]))
        start = end - timedelta(days=2)
        lines.append(f"tournament\t{t + 1}\tGenerated {t + 1}\t1\t1\t{start.isoformat()}\t{end.isoformat()}\t1")
    for game_id, g in enumerate(order.tolist(), start=1):
        lines.append(
            f"game\t{game_id}\t{int(history.tournament[g]) + 1}\t1\t1\t{int(history.black[g]) + player_id_offset}"
            f"\t{int(history.white[g]) + player_id_offset}\t{RESULT_CODE[float(history.score[g])]}"
        )
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def write_xml_export(history: History, path: Path, seed: int = 7) -> int:
    """The history in the renju.net database export's structure (issue 15): one country, a few
    cities, the renju and gomoku rules, every player, one tournament per tournament (ending on the
    day its games are dated) and every game with the attributes and the ``move`` element the export
    carries, moves of realistic length (9 to 120 moves, about 45 on average). Written as a stream;
    returns the file's size in bytes."""
    rng = np.random.default_rng(seed)
    columns, rows = "abcdefghijklmno", range(1, 16)
    squares = [f"{c}{r}" for c in columns for r in rows]
    lengths = np.clip(rng.gamma(4.0, 11.0, 4096).astype(int) + 9, 9, 120)
    # A pool of move sequences (each game takes one): writing stays fast at a million games.
    pool = [" ".join(squares[i] for i in rng.permutation(225)[:n]) for n in lengths]
    score = {1.0: "1", 0.0: "0", 0.5: "0.5"}
    order = np.argsort(history.tournament, kind="stable")
    tournaments, first = np.unique(history.tournament[order], return_index=True)
    with open(path, "w", encoding="utf-8", newline="\n") as out:
        out.write('<?xml version="1.0" encoding="utf-8"?>\n<database>\n')
        out.write('<countries>\n<country id="1" name="Generatia" abbr="GEN"/>\n</countries>\n')
        out.write("<cities>\n" + "".join(f'<city id="{c}" country="1" name="City {c}"/>\n' for c in range(1, 21)) + "</cities>\n")
        out.write('<rules>\n<rule id="1" name="RIF" category="1"/>\n<rule id="2" name="Gomoku" category="2"/>\n</rules>\n')
        out.write("<players>\n")
        for p in range(history.n_players):
            native = f' native_name="玩家{p}"' if p % 3 == 0 else ""
            out.write(
                f'<player id="{p}" name="First{p}" surname="Last{p}" country="1" city="{p % 20 + 1}"'
                f' gender="{2 if p % 4 == 0 else 1}"{native}/>\n'
            )
        out.write("</players>\n<tournaments>\n")
        for t, start_index in zip(tournaments.tolist(), first.tolist()):
            end = date.fromordinal(int(history.day[order[start_index]]))
            start = end - timedelta(days=2)
            out.write(
                f'<tournament id="{t + 1}" name="Generated {t + 1}" country="1" city="{t % 20 + 1}"'
                f' start="{start.isoformat()}" end="{end.isoformat()}" year="{end.year}" month="{end.month}"'
                ' rule="1" rated="1"/>\n'
            )
        out.write("</tournaments>\n<games>\n")
        # Games in the order of their ids, as the export lists them: tournaments interleave.
        for game_id, g in enumerate(rng.permutation(len(order)).tolist(), start=1):
            moves = pool[game_id % len(pool)]
            out.write(
                f'<game id="{game_id}" tournament="{int(history.tournament[g]) + 1}" round="{game_id % 9 + 1}"'
                f' unrated="0" rule="1" black="{int(history.black[g])}" white="{int(history.white[g])}"'
                f' bresult="{score[float(history.score[g])]}" publisher="1" btime="0" wtime="0"'
                f' opening="{game_id % 26}" alt="{game_id % 5}" swap="">\n<move>{moves}</move>\n</game>\n'
            )
        out.write("</games>\n</database>\n")
        return out.tell()
