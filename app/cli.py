"""Command line: ``python -m app.cli serve | migrate | worker | export-openapi | import FILE | submission FILE |
keys … | verify LIST PUBLICATION | backup FILE | restore FILE``."""

import argparse
import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from app.settings import PROJECT_ROOT, get_settings

if TYPE_CHECKING:
    from collections import Counter

    from app.schema_migrations import MigrationRun

OPENAPI_PATH = PROJECT_ROOT / "openapi" / "openapi.json"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m app.cli", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)

    serve = commands.add_parser("serve", help="apply migrations, then serve HTTP (with an in-process worker)")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument("--no-worker", action="store_true", help="do not run a recompute worker in this process")

    commands.add_parser("migrate", help="apply every Alembic migration to DATABASE_URL")
    worker = commands.add_parser("worker", help="run a recompute worker (beside API replicas on PostgreSQL)")
    worker.add_argument(
        "--metrics-port", type=int, default=None, help="serve this process's Prometheus metrics (its jobs) on this port"
    )

    export = commands.add_parser("export-openapi", help="write the OpenAPI document (the committed contract)")
    export.add_argument("--output", type=Path, default=OPENAPI_PATH)

    importer = commands.add_parser(
        "import",
        help="import a results file (renju.net results, tab-separated; the renju.net database export, XML; EGD h9;"
        " OpenGotha XML) or a player directory (the renju WHR site's ljinfo.tsv and female.tsv; the directory CSV), recognised"
        " from the content",
    )
    importer.add_argument("path", type=Path)
    importer.add_argument("--no-progress", action="store_true")
    importer.add_argument(
        "--rated-anyway", type=Path, metavar="FILE", help="tournament ids (one a line) to rate whatever the file says"
    )
    importer.add_argument("--not-rated-anyway", type=Path, metavar="FILE", help="tournament ids (one a line) never to rate")
    importer.add_argument(
        "--no-recompute",
        action="store_true",
        help="leave the queued recomputes to the service's worker instead of running them before returning",
    )

    submission = commands.add_parser("submission", help="print one tournament of a results file as a POST /v1/tournaments body")
    submission.add_argument("path", type=Path)
    submission.add_argument("--tournament", required=True, help="the tournament's id in the file")

    keys = commands.add_parser("keys", help="create, list and revoke the API keys stored in the database")
    key_commands = keys.add_subparsers(dest="keys_command", required=True)
    create = key_commands.add_parser(
        "create", help="store a new key and print its secret, once (only its SHA-256 digest is stored)"
    )
    create.add_argument("name", help="the key's name: the actor its changes are recorded under; never reused")
    create.add_argument(
        "--role",
        required=True,
        metavar="organiser|officer",
        help="organiser: submits tournaments and changes those it submitted; officer: changes everything (within its limits)",
    )
    create.add_argument(
        "--lists", default="", metavar="LIST,…", help="limit an officer to these rating lists (and their tournaments)"
    )
    create.add_argument(
        "--categories", default="", metavar="CATEGORY,…", help="limit an officer to the tournaments of these categories"
    )
    key_commands.add_parser("list", help="every stored key: name, role, limits, created, revoked (never a secret)")
    revoke = key_commands.add_parser("revoke", help="revoke a key: it is refused (403) from then on")
    revoke.add_argument("name")
    backup = commands.add_parser(
        "backup", help="copy the SQLite database into a new file, consistently, while the service runs (SQLite's backup API)"
    )
    backup.add_argument("file", type=Path)
    restore = commands.add_parser(
        "restore", help="replace the SQLite database's contents with a backup (stop the service first), then migrate it"
    )
    restore.add_argument("file", type=Path)
    verify = commands.add_parser(
        "verify",
        help="compute a publication's snapshot again from the stored data and compare: 'identical' (exit 0) or every "
        "player whose rating differs (exit 1), and whether the inputs changed since",
    )
    verify.add_argument("list_id", metavar="LIST")
    verify.add_argument("number", metavar="PUBLICATION", type=int)
    verify.add_argument("--tolerance", type=float, default=None, help="ratings closer than this are the same (default 0.001)")
    evaluate = commands.add_parser(
        "evaluate",
        help="evaluate how well a list's ratings predict its games, as POST /v1/rating-lists/{id}/evaluations does, and "
        "print the scores (the job runs here, or in the service's worker if it takes it first); changes nothing",
    )
    evaluate.add_argument("list_id", metavar="LIST")
    evaluate.add_argument("--mode", choices=("forward", "holdout"), default="forward")
    evaluate.add_argument("--period-months", type=int, default=1, help="forward: months between two WHR refits (1)")
    evaluate.add_argument("--every", type=int, default=10, help="holdout: one game in this many held out (10)")
    evaluate.add_argument("--offset", type=int, default=0, help="holdout: which game of each `every` (0)")
    evaluate.add_argument(
        "--sweep",
        metavar="PARAMETER=V1,V2,...",
        action="append",
        help="also evaluate each value of one parameter; given twice, each pair of values of two parameters",
    )
    evaluate.add_argument(
        "--side-by-side", action="store_true", help="also evaluate the category's other lists on the games both rate"
    )
    evaluate.add_argument("--json", action="store_true", help="print the whole answer as JSON")

    args = parser.parse_args(argv)
    if args.command == "serve":
        return _serve(args.host, args.port, worker=not args.no_worker)
    if args.command == "migrate":
        run = migrate()
        if run.applied:
            print(f"migrated {_safe_url()} from {_revisions(run.before)} to {_revisions(run.after)}")
        else:
            print(f"{_safe_url()} is already at {_revisions(run.after)}: nothing to do")
        return 0
    if args.command == "worker":
        from app import logging as app_logging
        from app.worker import run_forever

        app_logging.configure(get_settings().log_level)
        migrate()
        if args.metrics_port is not None:
            from app.metrics import serve_on_port

            serve_on_port(args.metrics_port)
        run_forever()
        return 0
    if args.command == "export-openapi":
        return _export_openapi(args.output)
    if args.command == "import":
        return _import(
            args.path, args.rated_anyway, args.not_rated_anyway, progress=not args.no_progress, recompute=not args.no_recompute
        )
    if args.command == "submission":
        return _print_submission(args.path, args.tournament)
    if args.command == "keys":
        return _keys(args)
    if args.command in ("backup", "restore"):
        return _backup_or_restore(args.command, args.file)
    if args.command == "verify":
        return _verify(args.list_id, args.number, args.tolerance)
    if args.command == "evaluate":
        return _evaluate(args)
    return 2


def migrate() -> "MigrationRun":
    """Apply every migration to DATABASE_URL, once however many processes ask at the same time
    (app/schema_migrations.py); then build what an import killed midway left for its end
    (app.services.bulk_load), so that every process's start leaves the database whole."""
    from app.db import begin_writing, session_scope
    from app.schema_migrations import migrate as migrate_under_lock
    from app.services.bulk_load import finish_import

    run = migrate_under_lock()
    with session_scope() as session:
        begin_writing(session)
        finish_import(session)
    return run


def _revisions(revisions: tuple[str, ...]) -> str:
    return ", ".join(revisions) or "an empty database"


def openapi_document() -> dict[str, Any]:
    from app.main import create_app

    return create_app(start_worker=False).openapi()


def _serve(host: str, port: int, *, worker: bool) -> int:
    import os

    import uvicorn

    migrate()
    if not worker:
        os.environ["RUN_WORKER"] = "false"
        get_settings.cache_clear()
    if not get_settings().api_keys() and not _stored_keys():
        print(
            "No API key is set, so writes will answer 401/403. For local use, start with e.g.\n"
            "  RATING_API_KEYS=local:change-me make run\n"
            "and send: Authorization: Bearer change-me (or make keys with roles: python -m app.cli keys create)",
            file=sys.stderr,
        )
    # httptools and uvloop: uvicorn's fast HTTP parser and event loop (pinned dependencies). No
    # uvicorn access log: the app writes its own, structured, with the request id (app.middleware).
    uvicorn.run("app.main:app", host=host, port=port, log_level="info", http="httptools", loop="uvloop", access_log=False)
    return 0


def _stored_keys() -> bool:
    from sqlalchemy import select

    from app import db
    from app.models import ApiKey

    with db.session_scope() as session:
        return session.scalar(select(ApiKey.name).where(ApiKey.revoked_at.is_(None)).limit(1)) is not None


def _export_openapi(output: Path) -> int:
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text(json.dumps(openapi_document(), indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {output}")
    return 0


def _import(
    path: Path, rated_anyway: Path | None, not_rated_anyway: Path | None, *, progress: bool, recompute: bool = True
) -> int:
    from tqdm import tqdm

    from app.importers.formats import detect_format
    from app.importers.source import ImportOptions
    from app.services.importing import import_results_file

    if _is_directory(path):
        return _import_directory(path)
    with _file_errors(path) as failed:
        options = ImportOptions(_id_list(rated_anyway), _id_list(not_rated_anyway))
        file_format = detect_format(path)
        migrate()
        bars: list[tqdm[None]] = []

        def advance(done: int, total: int) -> None:
            # Made at the first report, when the file's count of tournaments is known: a bar made
            # before with no total printed "0tournament [00:00, ?tournament/s]" first (issue 47 item 7).
            if not bars:
                bars.append(tqdm(total=total, unit=" tournaments", disable=not progress, file=sys.stderr, leave=True))
            bar = bars[0]
            bar.total = total
            bar.update(done - bar.n)

        try:
            report = import_results_file(path, on_progress=advance, options=options, file_format=file_format)
        finally:
            for bar in bars:
                bar.close()
    if failed:
        return 1
    print(f"Import of {path} ({report.format_name})")
    new = report.tournaments_stored - report.tournaments_corrected
    corrected = (
        f"; corrected, as the file gives them otherwise: {report.tournaments_corrected}" if report.tournaments_corrected else ""
    )
    print(f"  tournaments stored: {new} (already present, unchanged: {report.tournaments_unchanged}{corrected})")
    print(f"  players stored:     {report.players_stored}")
    not_rated = (
        f" ({report.games_not_rated} of them not played or unrated: stored, never rated)" if report.games_not_rated else ""
    )
    print(f"  games stored:       {report.games_stored}{not_rated}")
    if report.left_aside:
        print(
            f"  left aside:         {report.left_aside.total()} (what the file means as it is and holds nothing to store; no error)"
        )
        _print_reasons(report.left_aside, report.explanations, report.examples)
    print(f"  rows rejected:      {report.rejected.total()}")
    _print_reasons(report.rejected, report.explanations, report.examples)
    if report.player_reviews:
        print(f"  players to review:  {sum(report.player_reviews.values())} (stored as they were; GET /v1/player-reviews)")
        for kind, count in sorted(report.player_reviews.items()):
            print(f"    {count:>7}  {PLAYER_REVIEW_KINDS[kind]}")
            print(f"             e.g. {'; '.join(report.player_review_examples.get(kind, []))}")
    if report.jobs_queued:
        print(
            f"  recomputes queued:  {', '.join(f'{list_id} (job {job})' for list_id, job in sorted(report.jobs_queued.items()))}"
        )
        if recompute:
            from app.recompute.jobs import FAILED, run_or_await_jobs

            ended = run_or_await_jobs(report.jobs_queued.values())
            here = len(ended.statuses.keys() & ended.ran_here)
            print(
                f"  recomputes run:     {len(ended.statuses)} of {len(report.jobs_queued)}"
                f" ({here} here, {len(ended.statuses) - here} by the service's worker)"
            )
            failed = sorted(list_id for list_id, job in report.jobs_queued.items() if ended.statuses.get(job) == FAILED)
            if failed:
                print(f"  recomputes failed:  {', '.join(failed)} (GET /v1/jobs/{{id}} says why)")
    for list_id, why in sorted(report.not_recomputed.items()):
        print(f"  not recomputed:     {list_id}: {why}")
    return 0


def _print_reasons(counts: "Counter[str]", explanations: dict[str, str], examples: dict[str, list[str]]) -> None:
    for reason, count in sorted(counts.items(), key=lambda item: -item[1]):
        print(f"    {count:>7}  {reason}")
        if reason in explanations:
            print(f"             means: {explanations[reason]}")
        print(f"             e.g. {'; '.join(examples.get(reason, []))}")


# What each kind of review of a player means, in the import's report.
PLAYER_REVIEW_KINDS = {
    "details": "stored players the file gives other details (kept as stored until an officer accepts them)",
    "possible_duplicate": "new players whose name is a stored player's (perhaps one person: an officer merges them)",
}


def _is_directory(path: Path) -> bool:
    from app.importers import directory
    from app.importers.formats import HEAD_BYTES

    try:
        with open(path, "rb") as stream:
            return directory.looks_like(stream.read(HEAD_BYTES))
    except OSError:
        return False  # said by the results import's own file errors


def _import_directory(path: Path) -> int:
    """A player directory: every player created or updated, all or nothing, and a report."""
    from app.services.player_directory import DirectoryRefused, DirectoryReport, import_directory_file

    report: DirectoryReport | None = None
    with _file_errors(path) as failed:
        migrate()
        try:
            report = import_directory_file(path)
        except DirectoryRefused as refused:
            report = refused.report
            failed.append(f"{path}: {refused}")
    if report is None:
        return 1
    print(f"Import of {path} ({report.format_name})")
    print(f"  players in the file: {report.rows}")
    if not failed:
        print(f"  players created:     {report.created}")
        print(f"  players updated:     {report.updated}")
        print(f"  players unchanged:   {report.unchanged}")
        print(f"  external ids added:  {report.external_ids_added}")
    if report.skipped:
        print(f"  lines left aside:    {sum(report.skipped.values())}")
        for reason, count in sorted(report.skipped.items(), key=lambda item: -item[1]):
            print(f"    {count:>7}  {reason}")
            print(f"             means: {report.explanations[reason]}")
            print(f"             e.g. {'; '.join(report.examples.get(reason, []))}")
    print(f"  lines refused:       {sum(report.rejected.values())}{' (nothing was stored)' if failed else ''}")
    for reason, count in sorted(report.rejected.items(), key=lambda item: -item[1]):
        print(f"    {count:>7}  {reason}")
        if reason in report.explanations:
            print(f"             means: {report.explanations[reason]}")
        print(f"             e.g. {'; '.join(report.examples.get(reason, []))}")
    return 1 if failed else 0


def _keys(args: argparse.Namespace) -> int:
    from app import db
    from app.services import api_keys
    from app.services.importing import IMPORT_ACTOR

    migrate()
    try:
        with db.session_scope() as session:
            if args.keys_command == "create":
                reserved = frozenset(get_settings().api_keys().values()) | {IMPORT_ACTOR}
                created = api_keys.create_key(
                    session,
                    args.name,
                    args.role,
                    lists=_names(args.lists),
                    categories=_names(args.categories),
                    reserved_names=reserved,
                )
                key = created.key
                print(
                    f"created the {key.role} key {key.name!r}{_limits(key.lists, key.categories)}; its secret, shown only"
                    " this once (send it as Authorization: Bearer <secret>):",
                    file=sys.stderr,
                )
                print(created.secret)
            elif args.keys_command == "list":
                rows = [("name", "role", "limited to", "created", "revoked")]
                for key in api_keys.list_keys(session):
                    limits = _limits(key.lists, key.categories).removeprefix(", limited to ") or "-"
                    revoked = f"{key.revoked_at:%Y-%m-%d %H:%M:%S}" if key.revoked_at else "-"
                    rows.append((key.name, key.role, limits, f"{key.created_at:%Y-%m-%d %H:%M:%S}", revoked))
                widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
                for row in rows:
                    print("  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip())
            else:
                key = api_keys.revoke_key(session, args.name)
                print(f"revoked the key {key.name!r}")
    except api_keys.KeyRefused as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    return 0


def _backup_or_restore(command: str, file: Path) -> int:
    from app import backup

    try:
        if command == "backup":
            pages = backup.backup(get_settings().database_url, file)
            print(f"backed up {_safe_url()} into {file} ({pages} pages)")
            return 0
        revision = backup.restore(get_settings().database_url, file)
    except backup.BackupRefused as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    print(f"restored {_safe_url()} from {file} (at revision {revision})")
    run = migrate()  # a backup made by an earlier version is brought to this version's schema
    if run.applied:
        print(f"migrated it from {_revisions(run.before)} to {_revisions(run.after)}")
    return 0


def _names(value: str) -> list[str]:
    return [name.strip() for name in value.split(",") if name.strip()]


def _limits(lists: list[str], categories: list[str]) -> str:
    limits = [f"lists {','.join(lists)}"] if lists else []
    limits += [f"categories {','.join(categories)}"] if categories else []
    return f", limited to {' and '.join(limits)}" if limits else ""


def _verify(list_id: str, number: int, tolerance: float | None) -> int:
    from app.db import session_scope
    from app.problems import Problem
    from app.services import verification

    tolerance = verification.TOLERANCE if tolerance is None else tolerance
    try:
        with session_scope() as session:
            result = verification.verify(session, list_id, number, tolerance)
            lines = verification.report(result, tolerance)
            session.rollback()  # reads only
    except Problem as problem:
        print(f"error: {problem.detail}", file=sys.stderr)
        return 2
    print("\n".join(lines))
    return 0 if result.identical else 1


def _evaluate(args: argparse.Namespace) -> int:
    from pydantic import ValidationError

    from app.db import session_scope
    from app.problems import Problem, json_pointer
    from app.recompute.jobs import SUCCEEDED, run_or_await_jobs
    from app.schemas.evaluations import EvaluationRequest
    from app.services import evaluations

    asked: dict[str, Any] = {
        "mode": args.mode,
        "period_months": args.period_months,
        "every": args.every,
        "offset": args.offset,
        "side_by_side": args.side_by_side,
    }
    if args.sweep:
        if len(args.sweep) > 2:
            print(f"error: --sweep given {len(args.sweep)} times: a sweep takes one parameter or two", file=sys.stderr)
            return 2
        swept = []
        for given in args.sweep:
            parameter, _, values = given.partition("=")
            try:
                swept.append({"parameter": parameter, "values": [float(value) for value in values.split(",")]})
            except ValueError:
                print(f"error: --sweep {given!r}: give PARAMETER=V1,V2,... with numbers", file=sys.stderr)
                return 2
        asked["sweep"] = {**swept[0], "and_parameter": swept[1] if len(swept) == 2 else None}
    try:
        request = EvaluationRequest.model_validate(asked)
        with session_scope() as session:
            job, _new = evaluations.request_evaluation(session, args.list_id, request)
            job_id = job.id
    except ValidationError as error:
        for detail in error.errors():
            print(f"error: {json_pointer(detail['loc']) or '/'}: {detail['msg']}", file=sys.stderr)
        return 2
    except Problem as problem:
        print(f"error: {problem.detail}", file=sys.stderr)
        for field_error in problem.errors:
            print(f"  {field_error.pointer}: {field_error.detail}", file=sys.stderr)
        return 2
    run_or_await_jobs([job_id])
    with session_scope() as session:
        answer = evaluations.evaluation_read(evaluations.get_evaluation(session, args.list_id, job_id))
    if args.json:
        print(answer.model_dump_json(indent=2))
    else:
        print("\n".join(evaluations.report(answer)))
    return 0 if answer.status == SUCCEEDED else 1


def _print_submission(path: Path, tournament_id: str) -> int:
    from app.importers.formats import detect_format
    from app.importers.source import ImportOptions

    with _file_errors(path) as failed:
        source = detect_format(path).read(path, ImportOptions())
        for body in source.submissions:
            if body["id"] == tournament_id:
                print(json.dumps(body, ensure_ascii=False, indent=2))
                return 0
    if failed:
        return 1
    print(f"error: no tournament {tournament_id!r} in {path}", file=sys.stderr)
    return 1


@contextmanager
def _file_errors(path: Path) -> Iterator[list[str]]:
    """Turns what can go wrong with an input file into one line on stderr (no traceback); the list
    yielded is not empty afterwards when that happened."""
    from xml.etree.ElementTree import ParseError

    from app.importers.formats import UnknownFormat
    from app.importers.source import FileRefused

    failed: list[str] = []
    try:
        yield failed
    except UnicodeDecodeError as error:
        byte = error.object[error.start : error.start + 1].hex().upper()
        failed.append(f"{path}: not UTF-8 text (byte 0x{byte}; Latin-1 perhaps): save the file as UTF-8 and import it again")
    except ParseError as error:
        failed.append(f"{path}: not well-formed XML ({error})")
    except (UnknownFormat, FileRefused) as error:
        failed.append(f"{path}: {error}")
    except OSError as error:
        failed.append(f"{error.filename or path}: {error.strerror or error}")
    for message in failed:
        print(f"error: {message}", file=sys.stderr)


def _id_list(path: Path | None) -> frozenset[str]:
    """Ids one a line; blank lines and lines starting with # are skipped."""
    if path is None:
        return frozenset()
    with open(path, encoding="utf-8") as lines:
        return frozenset(line.strip() for line in lines if line.strip() and not line.lstrip().startswith("#"))


def _safe_url() -> str:
    from sqlalchemy.engine import make_url

    return make_url(get_settings().database_url).render_as_string(hide_password=True)


if __name__ == "__main__":
    sys.exit(main())
