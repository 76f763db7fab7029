"""Configuration from the environment (12-factor): one Settings object, read once per process."""

from functools import lru_cache
from pathlib import Path

from pydantic import Field, SecretStr, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

PROJECT_ROOT = Path(__file__).resolve().parent.parent


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=None, extra="ignore")

    database_url: str = Field(
        default=f"sqlite:///{PROJECT_ROOT / 'var' / 'rating.sqlite3'}",
        description="SQLAlchemy URL; unset, an embedded SQLite file under var/.",
    )
    # "name:secret,name2:secret2"; secrets are never logged (SecretStr hides them in repr).
    rating_api_keys: SecretStr = Field(default=SecretStr(""))
    cors_origins: list[str] = Field(default_factory=list)
    max_body_bytes: int = 10 * 1024 * 1024
    max_games_per_tournament: int = 20_000
    run_worker: bool = Field(default=True, description="Run a recompute worker inside the API process.")
    worker_poll_seconds: float = 0.5
    log_level: str = "INFO"

    @field_validator("cors_origins", mode="before")
    @classmethod
    def _split_origins(cls, value: object) -> object:
        if isinstance(value, str) and not value.startswith("["):
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
