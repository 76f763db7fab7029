"""The ASGI application: ``app.main:app``, built by ``create_app()``."""

import collections
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import Depends, FastAPI
from fastapi.middleware.cors import CORSMiddleware
from fastapi.routing import iter_route_contexts

from app import contract, metrics, performance, problems
from app import logging as app_logging
from app.api import (
    audit,
    calculators,
    evaluations,
    health,
    jobs,
    player_reviews,
    players,
    publications,
    rating_lists,
    reviews,
    tournaments,
)
from app.api.conditional import ConditionalReads
from app.api.deps import reject_undeclared_query_parameters
from app.middleware import BodySizeLimitMiddleware, HeadAsGetMiddleware, RequestContextMiddleware, SecurityHeadersMiddleware
from app.schema_migrations import head_revisions
from app.settings import Settings, get_settings
from app.snapshots.snapshot_preparation import SnapshotWatcher
from app.version import VERSION
from app.warm_up import warm_up
from app.web import router as website
from app.web.router import prepare as prepare_website

DESCRIPTION = """Rating service of the renju world. Tournament-management software submits tournaments
and games; the service stores them and rates them under RIF Elo (1995, 1997), RIF Whole-History
Rating and other rule systems. Errors are RFC 9457 problem+json; writes need a Bearer API key."""


def create_app(settings: Settings | None = None, *, start_worker: bool | None = None) -> FastAPI:
    settings = settings or get_settings()
    app_logging.configure(settings.log_level)
    run_worker = settings.run_worker if start_worker is None else start_worker

    @asynccontextmanager
    async def lifespan(started: FastAPI) -> AsyncIterator[None]:
        # What every process pays once, paid before it serves (and so before /v1/health/ready
        # answers), not by the first reader of each page.
        prepare_routes(started)
        prepare_website()
        head_revisions()  # the readiness check's (Alembic's script directory, read once a process)
        if run_worker:
            from app.worker import load_rating_libraries

            load_rating_libraries()
        if settings.warm_up:
            await warm_up(started)  # (before the freeze: what it builds lives as long as the process)
        performance.freeze_what_lives_as_long_as_the_process()
        worker = None
        if run_worker:
            from app.worker import BackgroundWorker

            worker = BackgroundWorker(poll_seconds=settings.worker_poll_seconds)
            worker.start()
        watcher = None
        if settings.snapshot_watch_seconds > 0:
            watcher = SnapshotWatcher(poll_seconds=settings.snapshot_watch_seconds)
            watcher.start()
        try:
            yield
        finally:
            if watcher is not None:
                watcher.stop()
            if worker is not None:
                worker.stop()

    app = FastAPI(
        # A query parameter the operation does not declare is a 422, as an unknown body field is:
        # a misspelt filter (`?contry=EST`) would otherwise silently answer the unfiltered list.
        dependencies=[Depends(reject_undeclared_query_parameters)],
        title="Renju rating service",
        version=VERSION,
        description=DESCRIPTION,
        lifespan=lifespan,
        separate_input_output_schemas=False,
        docs_url=None,  # served offline by app/contract.py
        redoc_url=None,
    )
    problems.install(app)
    # Routes are matched in order, one by one: the ones asked most often (health probes,
    # calculations, list pages and histories) come first. The calculators' routes are built from
    # the registry (app/api/calculators.py).
    for router in (
        health.router,
        calculators.router(asked_often=True),
        rating_lists.router,
        evaluations.router,
        publications.router,
        reviews.router,
        tournaments.router,
        players.router,
        player_reviews.router,
        jobs.router,
        audit.router,
        calculators.router(asked_often=False),
        website,  # the HTML pages (app/web), outside the contract
    ):
        app.include_router(router)
    contract.install(app)
    # Prometheus scrapes this process's own figures; outside the contract, as the website is.
    app.add_route("/metrics", metrics.metrics_page, methods=["GET"], include_in_schema=False)
    app.add_middleware(ConditionalReads)  # innermost: a 304 still gets its CORS headers and its log line
    app.add_middleware(HeadAsGetMiddleware)  # (inside the log and the headers, which see the HEAD)
    app.add_middleware(
        BodySizeLimitMiddleware,
        max_bytes=settings.max_body_bytes,
        path_limits={"/v1/calc/": settings.max_calc_body_bytes},
        suffix_limits={"/what-if": settings.max_calc_body_bytes},  # open to anyone, bounded like /v1/calc
    )
    if settings.cors_origins:
        app.add_middleware(
            CORSMiddleware,
            allow_origins=settings.cors_origins,
            # Every method and request header the contract names, so that a browser client may use them all.
            allow_methods=["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"],
            allow_headers=["Authorization", "Content-Type", "Idempotency-Key", "If-Match", "If-None-Match"],
            expose_headers=["ETag", "Location", "Retry-After", "X-Request-ID"],
        )
    app.add_middleware(SecurityHeadersMiddleware)  # around every answer the middlewares above make too
    app.add_middleware(RequestContextMiddleware)
    return app


def prepare_routes(app: FastAPI) -> None:
    """Build each route's request parsing and response serialization. FastAPI builds those of an
    included router when a request is first matched against it, all its routes at once: the first
    request to the website's routes paid a tenth of a second for them."""
    collections.deque(iter_route_contexts(app.routes), maxlen=0)


app = create_app()
