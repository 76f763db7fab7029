"""Configuration from the environment (12-factor): one Settings object, read once per process."""

import json
from functools import lru_cache
from pathlib import Path
from typing import Annotated, Literal

from pydantic import ByteSize, Field, SecretStr, field_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

PROJECT_ROOT = Path(__file__).resolve().parent.parent


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=None, extra="ignore")

    database_url: str = Field(
        default=f"sqlite:///{PROJECT_ROOT / 'var' / 'rating.sqlite3'}",
        description="SQLAlchemy URL; unset, an embedded SQLite file under var/.",
    )
    # "name:secret,name2:secret2"; secrets are never logged (SecretStr hides them in repr).
    rating_api_keys: SecretStr = Field(default=SecretStr(""))
    # The documented form is comma-separated (CORS_ORIGINS=https://a.example,https://b.example);
    # NoDecode keeps pydantic-settings from reading it as JSON first (a JSON list still works).
    cors_origins: Annotated[list[str], NoDecode] = Field(default_factory=list)
    max_body_bytes: int = 10 * 1024 * 1024
    # Anonymous /v1/calc requests: a smaller body, a wall-clock budget, and few at once, so that
    # nobody can pin the CPU the rating lists and the writers need.
    max_calc_body_bytes: int = 2 * 1024 * 1024
    calc_time_budget_seconds: float = 10.0
    calc_max_concurrent: int = 1
    calc_queue_seconds: float = 2.0
    # Transactions that fail on a deadlock, a serialization failure or a busy SQLite are re-run
    # this many times in all before the request gets a 503.
    transaction_attempts: int = 5
    max_games_per_tournament: int = 20_000
    run_worker: bool = Field(default=True, description="Run a recompute worker inside the API process.")
    worker_poll_seconds: float = 0.5
    snapshot_watch_seconds: float = Field(
        default=1.0,
        ge=0,
        description="How often an API process looks for lists' new snapshots written by another process, to read"
        " them before its readers do (app.snapshots.snapshot_preparation); 0: never.",
    )
    warm_up: bool = Field(
        default=True, description="Answer one read of each kind of the stored data before serving (app.warm_up)."
    )
    # Snapshots each rating list keeps besides its current and its published ones (app.recompute.pruning).
    keep_snapshots: int = Field(default=20, ge=1)
    # Each per-process cache's limit in bytes (app.caches; README "Configuration"): a number of bytes
    # or pydantic's units ("64MiB", "1GB").
    cache_responses_bytes: ByteSize = Field(default=ByteSize(32 * 2**20), ge=0)
    cache_timelines_bytes: ByteSize = Field(default=ByteSize(64 * 2**20), ge=0)
    cache_changes_bytes: ByteSize = Field(default=ByteSize(32 * 2**20), ge=0)
    cache_drift_bytes: ByteSize = Field(default=ByteSize(16 * 2**20), ge=0)
    log_level: str = "INFO"
    # The discipline the service is run for (README "Configuration"): its main list comes first on the
    # home page and on a player's page, before the other disciplines' (docs/decisions.md 135).
    main_discipline: Literal["renju", "gomoku", "go", "shogi"] = "renju"

    @field_validator("cors_origins", mode="before")
    @classmethod
    def _split_origins(cls, value: object) -> object:
        if isinstance(value, str):
            if value.lstrip().startswith("["):
                return json.loads(value)
            return [origin.strip() for origin in value.split(",") if origin.strip()]
        return value

    def api_keys(self) -> dict[str, str]:
        """Map secret -> key name, from RATING_API_KEYS."""
        keys: dict[str, str] = {}
        for pair in self.rating_api_keys.get_secret_value().split(","):
            name, separator, secret = pair.strip().partition(":")
            if separator and name and secret:
                keys[secret] = name
        return keys


@lru_cache
def get_settings() -> Settings:
    return Settings()
