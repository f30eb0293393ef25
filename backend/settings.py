"""Settings from the environment (pydantic-settings). Every variable is listed in README.md."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict

ROOT = Path(__file__).resolve().parent.parent


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="", extra="ignore")

    database_url: str = Field(
        default=f"sqlite:///{ROOT / 'data' / '1001.db'}",
        description="SQLAlchemy URL: SQLite (the default, a file under ./data/) or postgresql+psycopg://…",
    )
    redis_url: str | None = Field(default=None, description="Redis for sharing rooms across processes")
    allowed_origins: list[str] = Field(
        default_factory=list,
        description="Origins allowed to open a WebSocket; empty means the server's own origin only",
    )
    max_frame_bytes: int = Field(default=4096, description="Largest WebSocket frame accepted")
    rate_limit_intents: int = Field(default=30, description="Intents allowed per rate window per socket")
    rate_limit_window_s: float = Field(default=10.0, description="The rate window in seconds")
    bot_workers: int = Field(default=1, description="Worker processes in which computer opponents think")
    bot_delay_s: float = Field(default=0.6, description="Pause before the computer plays, so people can follow")
    rematch_timeout_s: float = Field(default=120.0, description="Seconds before an unanswered rematch offer lapses")
    crash_after_commits: int | None = Field(
        default=None,
        description="Fault injection for the chaos tests only: exit hard after this many stored actions, "
        "between the database commit and the broadcast",
    )
    frontend_dir: Path = Field(default=ROOT / "frontend", description="The static client served at /")


@lru_cache
def get_settings() -> Settings:
    return Settings()
