"""Structured (JSON) logs carrying the request id of the request being served."""

import logging
import sys
from contextvars import ContextVar

from pythonjsonlogger.json import JsonFormatter

request_id: ContextVar[str | None] = ContextVar("request_id", default=None)


class _RequestIdFilter(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        record.request_id = request_id.get()
        return True


def configure(level: str = "INFO") -> None:
    # Every request logs an access line; our JSON lines never show the caller's file and line, the
    # thread, the process or the asyncio task, so do not collect them for each record (the logging
    # HOWTO's "Optimization" section): about a third of the cost of a record.
    logging._srcfile = None
    logging.logThreads = False
    logging.logProcesses = False
    logging.logMultiprocessing = False
    if sys.version_info >= (3, 12):  # (3.12 added the asyncio task name; 3.11 has none to collect)
        logging.logAsyncioTasks = False
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter("%(asctime)s %(levelname)s %(name)s %(message)s %(request_id)s"))
    handler.addFilter(_RequestIdFilter())
    root = logging.getLogger("app")
    root.handlers[:] = [handler]
    root.setLevel(level)
    root.propagate = False
