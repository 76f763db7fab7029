"""What a process reports to Prometheus at ``/metrics`` (the ecosystem's client, prometheus-client):
requests by route template and status with their latencies, recompute jobs by list and outcome with
their durations, the database connection pool, and the per-process caches (``app.caches``).

Every process counts its own: each API replica answers ``/metrics`` with what it served, and a worker
process (``python -m app.cli worker --metrics-port 9100``) serves the jobs it ran on a port of its
own. Prometheus scrapes each process as a target and sums across them (``sum by (route, status)``);
a counter starts again at zero when its process restarts, which ``rate()`` allows for. Labels are
templates and lists, never raw paths or ids, so their number stays bounded."""

from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Histogram,
    disable_created_metrics,
    generate_latest,
    start_http_server,
)
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector
from sqlalchemy import Engine
from sqlalchemy.pool import QueuePool

from app import caches
from app.db import get_engine

if TYPE_CHECKING:
    from starlette.requests import Request
    from starlette.responses import Response

# No `_created` series beside each counter: nobody graphs them, and they double the page.
disable_created_metrics()  # type: ignore[no-untyped-call]  # prometheus-client leaves it unannotated
REGISTRY = CollectorRegistry(auto_describe=True)

# A route's label when no route matched (a 404, a 405): one value, whatever the path was.
UNMATCHED = "unmatched"

REQUESTS = Counter(
    "rating_http_requests",
    "HTTP requests answered, by method, route template and status",
    ("method", "route", "status"),
    registry=REGISTRY,
)
REQUEST_SECONDS = Histogram(
    "rating_http_request_duration_seconds",
    "Time from a request's arrival to its answer's last byte, by method and route template",
    ("method", "route"),
    # Reads are answered in milliseconds, submissions and pages in tens of them, calculations in seconds.
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0),
    registry=REGISTRY,
)
JOBS = Counter(
    "rating_jobs",
    "Recompute jobs this process ran to an end, by rating list and outcome (succeeded, failed, requeued)",
    ("list", "outcome"),
    registry=REGISTRY,
)
JOB_SECONDS = Histogram(
    "rating_job_duration_seconds",
    "Time from a job's claim to its end, by rating list and outcome",
    ("list", "outcome"),
    buckets=(0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 120.0, 300.0),
    registry=REGISTRY,
)
JOB_QUEUED_SECONDS = Histogram(
    "rating_job_queued_seconds",
    "Time a job waited in the queue before a worker claimed it, by rating list",
    ("list",),
    buckets=(0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0),
    registry=REGISTRY,
)
SNAPSHOT_PREPARATION_SECONDS = Histogram(
    "rating_snapshot_preparation_seconds",
    "Time an API process spent reading a list's new snapshot, written by another process, before its readers asked",
    ("list",),
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5),
    registry=REGISTRY,
)


async def metrics_page(_: "Request") -> "Response":
    """``GET /metrics``: this process's metrics in Prometheus's text format (outside the API contract)."""
    from starlette.responses import Response  # here: the worker and the import count jobs without serving HTTP

    return Response(generate_latest(REGISTRY), media_type=CONTENT_TYPE_LATEST)


def serve_on_port(port: int) -> None:
    """Serve ``/metrics`` from a thread on a port of its own: the worker process, which has no HTTP server."""
    start_http_server(port, registry=REGISTRY)


def observe_request(method: str, route: str, status: int, seconds: float) -> None:
    REQUESTS.labels(method, route, str(status)).inc()
    REQUEST_SECONDS.labels(method, route).observe(seconds)


def observe_job(list_id: str, outcome: str, seconds: float) -> None:
    JOBS.labels(list_id, outcome).inc()
    JOB_SECONDS.labels(list_id, outcome).observe(seconds)


def observe_snapshot_preparation(list_id: str, seconds: float) -> None:
    SNAPSHOT_PREPARATION_SECONDS.labels(list_id).observe(seconds)


class DatabasePoolCollector(Collector):
    """The connection pool of the process's engine, read at each scrape (SQLAlchemy's QueuePool)."""

    def __init__(self, engines: Callable[[], Iterable[Engine]]) -> None:
        self.engines = engines

    def describe(self) -> Iterable[Metric]:
        return ()  # registered at import, before the process has an engine; described at each scrape

    def collect(self) -> Iterator[Metric]:
        size = GaugeMetricFamily("rating_db_pool_size", "Connections the pool keeps open at most, overflow aside")
        checked_out = GaugeMetricFamily("rating_db_pool_checked_out", "Connections in use by a request or a job now")
        idle = GaugeMetricFamily("rating_db_pool_idle", "Open connections waiting in the pool")
        overflow = GaugeMetricFamily("rating_db_pool_overflow", "Connections open beyond the pool's size (negative: unopened)")
        for engine in self.engines():
            pool = engine.pool
            if isinstance(pool, QueuePool):
                size.add_metric([], pool.size())
                checked_out.add_metric([], pool.checkedout())
                idle.add_metric([], pool.checkedin())
                overflow.add_metric([], pool.overflow())
        yield from (size, checked_out, idle, overflow)


class CacheCollector(Collector):
    """Each per-process cache (``app.caches``), read at each scrape: the bytes it holds against its
    limit, its entries, hits, misses and evictions; and the memo caches' entries and hits. The hit
    ratio is there for a glance; ``rate()`` of the counters gives it over a window."""

    def describe(self) -> Iterable[Metric]:
        return ()

    def collect(self) -> Iterator[Metric]:
        held = GaugeMetricFamily("rating_cache_bytes", "Bytes a per-process cache holds now", labels=("cache",))
        limit = GaugeMetricFamily(
            "rating_cache_limit_bytes", "The cache's limit in bytes (its CACHE_*_BYTES setting)", labels=("cache",)
        )
        entries = GaugeMetricFamily("rating_cache_entries", "Entries the cache holds now", labels=("cache",))
        hits = CounterMetricFamily("rating_cache_hits", "Look-ups the cache answered", labels=("cache",))
        misses = CounterMetricFamily(
            "rating_cache_misses", "Look-ups the cache could not answer (then built and kept)", labels=("cache",)
        )
        evictions = CounterMetricFamily("rating_cache_evictions", "Entries dropped to stay within the limit", labels=("cache",))
        ratio = GaugeMetricFamily("rating_cache_hit_ratio", "Hits over look-ups since the process started", labels=("cache",))
        for cache in caches.ALL:
            statistics = cache.statistics()
            held.add_metric([cache.name], statistics.bytes)
            limit.add_metric([cache.name], statistics.limit_bytes)
            entries.add_metric([cache.name], statistics.entries)
            hits.add_metric([cache.name], statistics.hits)
            misses.add_metric([cache.name], statistics.misses)
            evictions.add_metric([cache.name], statistics.evictions)
            ratio.add_metric([cache.name], _ratio(statistics.hits, statistics.misses))
        for name, memo in caches.MEMOS.items():
            information = memo.cache_info()
            entries.add_metric([name], information.currsize)
            hits.add_metric([name], information.hits)
            misses.add_metric([name], information.misses)
            ratio.add_metric([name], _ratio(information.hits, information.misses))
        yield from (held, limit, entries, hits, misses, evictions, ratio)


def _ratio(hits: int, misses: int) -> float:
    return hits / (hits + misses) if hits + misses else 0.0


REGISTRY.register(DatabasePoolCollector(lambda: [get_engine()]))
REGISTRY.register(CacheCollector())
