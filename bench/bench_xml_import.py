"""Import of the renju.net database export (XML) at RIF size and beyond: time and peak memory.

    .venv/bin/python bench/bench_xml_import.py                      # 100k and 1M games (~10 min)
    .venv/bin/python bench/bench_xml_import.py --sizes 100k 300k

For each size: generates the federation history (`histories.py`), writes it in the export's structure
with moves of realistic length (`results_file.write_xml_export`; games in id order, so tournaments
interleave as in the real export), then imports it into a fresh SQLite file in a subprocess of its
own, through the same code as `python -m app.cli import` (detection, streaming into the staging file,
one submission per tournament through the submission service). The subprocess reports the time of the
streaming pass, the total time, its CPU time and its peak RSS: the high-water mark of its own address
space (`VmHWM` in /proc/self/status), so every size's memory is its own. (Not `getrusage().ru_maxrss`:
on Linux it keeps the high-water mark of the process image before `exec`, i.e. of the benchmark's
parent holding the generated history.) The import's memory must not grow with the file.
"""

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

SIZES = {  # games -> (players, regions); the RIF-sized and large histories of histories.py, and between
    "100k": (100_000, 5_000, 20, 1),
    "300k": (300_000, 15_000, 40, 3),
    "1M": (1_000_000, 50_000, 60, 2),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", nargs="+", choices=sorted(SIZES), default=["100k", "1M"])
    parser.add_argument("--child", nargs=2, metavar=("XML", "DATABASE"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        _child(Path(args.child[0]), Path(args.child[1]))
        return

    from bench.histories import federation_history
    from bench.results_file import write_xml_export

    print(
        f"{'size':>5} | {'games':>9} | {'players':>7} | {'tournaments':>11} | {'file MB':>7} | "
        f"{'write s':>7} | {'stream s':>8} | {'import s':>8} | {'CPU s':>6} | {'games/s':>7} | {'RSS after stream MB':>19} | "
        f"{'peak RSS MB':>11}"
    )
    for size in args.sizes:
        n_games, n_players, regions, seed = SIZES[size]
        workdir = Path(tempfile.mkdtemp(prefix=f"bench-xml-{size}-"))
        history = federation_history(n_players=n_players, n_games=n_games, years=35.0, seed=seed, regions=regions)
        started = time.perf_counter()
        export = workdir / "renjunet.xml"
        size_bytes = write_xml_export(history, export)
        written = time.perf_counter() - started
        n_games, n_tournaments = history.n_games, history.n_tournaments
        del history
        child = subprocess.run(
            [sys.executable, __file__, "--child", str(export), str(workdir / "bench.sqlite3")],
            cwd=ROOT,
            check=True,
            capture_output=True,
            text=True,
        )
        result = json.loads(child.stdout.strip().splitlines()[-1])
        assert result["games_stored"] == n_games, result
        print(
            f"{size:>5} | {n_games:>9,} | {n_players:>7,} | {n_tournaments:>11,} | "
            f"{size_bytes / 1e6:>7.0f} | {written:>7.1f} | {result['stream_s']:>8.1f} | {result['total_s']:>8.1f} | "
            f"{result['cpu_s']:>6.1f} | {n_games / result['total_s']:>7,.0f} | {result['stream_peak_rss_mb']:>19.0f} | {result['peak_rss_mb']:>11.0f}",
            flush=True,
        )
        export.unlink()
        for leftover in workdir.iterdir():
            leftover.unlink()
        workdir.rmdir()


def _child(export: Path, database: Path) -> None:
    """One import in this process: the CLI's path without the progress bar."""
    os.environ["DATABASE_URL"] = f"sqlite:///{database}"
    os.environ["LOG_LEVEL"] = "WARNING"
    os.environ["RUN_WORKER"] = "false"
    from app.cli import migrate
    from app.importers.formats import FileFormat, detect_format
    from app.services.importing import import_results_file

    migrate()
    started = time.perf_counter()
    detected = detect_format(export)
    stream_s = 0.0
    stream_peak_kb: list[int] = []

    def timed_read(path, options):  # type: ignore[no-untyped-def]
        nonlocal stream_s
        began = time.perf_counter()
        source = detected.read(path, options)
        stream_s = time.perf_counter() - began
        stream_peak_kb.append(_peak_rss_kb())
        return source

    report = import_results_file(export, file_format=FileFormat(detected.name, detected.looks_like, timed_read))
    total_s = time.perf_counter() - started
    usage = resource.getrusage(resource.RUSAGE_SELF)
    peak_kb = _peak_rss_kb()
    print(
        json.dumps(
            {
                "stream_s": stream_s,
                "total_s": total_s,
                "cpu_s": usage.ru_utime + usage.ru_stime,  # the process's, migrations included
                "peak_rss_mb": peak_kb / 1024,
                "stream_peak_rss_mb": stream_peak_kb[0] / 1024,
                "games_stored": report.games_stored,
                "rejected": sum(report.rejected.values()),
            }
        )
    )


def _peak_rss_kb() -> int:
    """The high-water mark of this process's resident memory since its exec."""
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    raise RuntimeError("no VmHWM in /proc/self/status")


if __name__ == "__main__":
    main()
