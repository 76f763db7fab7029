"""Write a generated history in the renju.net results format (tests/data/renju-cn-2009-2019/README.md),
so it is imported exactly as real files are: through `python -m app.cli import`."""

from datetime import date, timedelta
from pathlib import Path

import numpy as np

from bench.histories import History

RESULT_CODE = {1.0: "B", 0.0: "W", 0.5: "D"}


def write_results_file(history: History, path: Path) -> None:
    """One `player` record per player, one `tournament` record per tournament (ending on the day its
    games are dated), one `game` record per game."""
    lines = ["country\t1\tGeneratia\tGEN"]
    lines += [f"player\t{p}\tFirst{p}\tLast{p}\t1\t1" for p in range(history.n_players)]
    order = np.argsort(history.tournament, kind="stable")
    tournaments, first = np.unique(history.tournament[order], return_index=True)
    for t, start_index in zip(tournaments.tolist(), first.tolist()):
        end = date.fromordinal(int(history.day[order[start_index]]))
        start = end - timedelta(days=2)
        lines.append(f"tournament\t{t + 1}\tGenerated {t + 1}\t1\t1\t{start.isoformat()}\t{end.isoformat()}\t1")
    for game_id, g in enumerate(order.tolist(), start=1):
        lines.append(
            f"game\t{game_id}\t{int(history.tournament[g]) + 1}\t1\t1\t{int(history.black[g])}"
            f"\t{int(history.white[g])}\t{RESULT_CODE[float(history.score[g])]}"
        )
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
