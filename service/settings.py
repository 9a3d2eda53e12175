"""Configuration from the environment (pydantic-settings). Every knob has a safe default, so
`python -m service serve` needs nothing set: the in-memory cache, loopback, port 8000."""

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict

__all__ = ["Settings"]


class Settings(BaseSettings):
    model_config = SettingsConfigDict(frozen=True, extra="ignore")

    redis_url: str | None = Field(
        default=None, description="Share odds tables through Redis; unset: in-memory LRU."
    )
    redis_timeout_seconds: float = Field(default=0.05, gt=0, le=5)
    redis_retry_after_seconds: float = Field(default=1.0, ge=0, le=60)
    cache_max_entries: int = Field(default=4096, ge=1, le=1_000_000)
    max_body_bytes: int = Field(default=64 * 1024, ge=1024, le=16 * 1024 * 1024)
    graphql_max_depth: int = Field(default=12, ge=2, le=64)
    graphql_max_aliases: int = Field(default=16, ge=1, le=1000)
    graphql_max_tokens: int = Field(default=2000, ge=100, le=100_000)
    log_level: str = Field(default="INFO")
    log_requests: bool = Field(default=True, description="One JSON log line per request.")
