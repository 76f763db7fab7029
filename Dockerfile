# The rating service: migrations (under the database's migration lock, so replicas starting together
# migrate once), then uvicorn. DATABASE_URL selects the database (unset: an SQLite file under
# /app/var); RATING_API_KEYS holds the write keys. compose.yaml runs the same image as the one-shot
# `migrate` service, the API replicas and the worker. Only the runtime set is installed, pinned
# (requirements.lock); the development tools are in requirements-dev.lock.
FROM python:3.11.7-slim-bookworm

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /app
RUN groupadd --system --gid 10001 rating \
    && useradd --system --uid 10001 --gid 10001 --home-dir /app rating

COPY requirements.lock ./
RUN pip install --no-cache-dir -r requirements.lock

COPY alembic.ini ./
COPY migrations ./migrations
COPY app ./app
RUN mkdir -p /app/var && chown 10001:10001 /app/var

USER 10001:10001
EXPOSE 8000
# Healthy = ready for traffic: the database answers and is at this version's schema (/v1/health/ready).
HEALTHCHECK --interval=10s --timeout=5s --start-period=30s CMD ["python", "-c", "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8000/v1/health/ready')"]
CMD ["sh", "-c", "python -m app.cli migrate && exec uvicorn app.main:app --host 0.0.0.0 --port 8000 --http httptools --loop uvloop --no-access-log"]
