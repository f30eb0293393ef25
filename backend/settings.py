"""Settings from the environment (pydantic-settings). Every variable is listed in README.md."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import Field, SecretStr
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
    spectators_per_room: int = Field(default=50, description="Spectator sockets one table accepts")
    spectators_per_process: int = Field(default=2000, description="Spectator sockets one process accepts")
    rate_limit_intents: int = Field(default=30, description="Intents allowed per rate window per socket")
    rate_limit_window_s: float = Field(default=10.0, description="The rate window in seconds")
    bot_workers: int = Field(default=1, description="Worker processes in which computer opponents think")
    bot_delay_s: float = Field(default=0.6, description="Pause before the computer plays, so people can follow")
    rematch_timeout_s: float = Field(default=120.0, description="Seconds before an unanswered rematch offer lapses")
    reaction_limit: int = Field(default=3, ge=1, description="Quick reactions one seat may send per reaction window")
    reaction_window_s: float = Field(default=10.0, gt=0, description="The quick reactions' window in seconds")
    match_seed: int | None = Field(
        default=None,
        description="Tests only: every new match is shuffled from this seed instead of a random one",
    )
    device_link_ttl_s: int = Field(
        default=600, ge=30, le=86_400, description="Seconds a one-time sign-in link for another device stays valid"
    )
    crash_after_commits: int | None = Field(
        default=None,
        description="Fault injection for the chaos tests only: exit hard after this many stored actions, "
        "between the database commit and the broadcast",
    )
    frontend_dir: Path = Field(default=ROOT / "frontend", description="The static client served at /")
    frontend_reload: bool = Field(
        default=True, description="Rebuild the client when its files change, checked at each page load; 0 in production"
    )
    # Operating (docs/operating.md)
    metrics: bool = Field(default=False, description="Serve Prometheus metrics at /metrics (off by default)")
    metrics_token: str | None = Field(
        default=None,
        description="If set, /metrics asks for `Authorization: Bearer <token>`; unset, it answers loopback only",
    )
    log_format: Literal["text", "json"] = Field(default="text", description="One line per event: text or JSON")
    log_level: str = Field(default="info", description="The level of the app's own log lines")
    shutdown_timeout_s: float = Field(
        default=10.0, description="On SIGTERM: at most this long to finish commits and hand rooms over, then exit"
    )
    open_table_ttl_s: float = Field(
        default=86400.0, description="An open table nobody joined is closed after this many seconds"
    )
    housekeeping_interval_s: float = Field(default=60.0, description="How often expired tables are looked for")
    # Limits on what anyone can ask (backend/api/limits.py, docs/operating.md "Limits")
    rest_limits: bool = Field(default=True, description="Rate-limit every REST write per address and per player")
    rate_limits: dict[str, dict[str, list[float]]] = Field(
        default_factory=dict,
        description='Override limit groups as JSON, e.g. {"rooms": {"player": [5, 60]}} (a count per seconds)',
    )
    max_open_tables: int = Field(
        default=3, ge=1, description="Open tables (waiting for players) one player may have; one more is refused"
    )
    max_sockets_per_address: int = Field(
        default=40, ge=1, description="WebSockets one client address may hold open on one process"
    )
    # The computer analysis of finished deals (backend/rooms/analysis.py, docs/operating.md "Analyses")
    analysis_per_hour: int = Field(
        default=20, ge=1, description="Deal analyses one asker (a player, or an address) may start in any hour"
    )
    analysis_queue: int = Field(
        default=8, ge=1, description="Deal analyses queued or running in one process; one more: 503 analysis_queue_full"
    )
    analysis_concurrent: int = Field(
        default=1, ge=1, description="Deal analyses one process rates at once, each in a pool process of its own"
    )
    analysis_stale_s: float = Field(
        default=600.0, gt=0, description="A queued or running analysis unchanged this long is started again"
    )
    analysis_retry_after_s: int = Field(
        default=30, ge=1, description="The Retry-After of a refusal for a full analysis queue"
    )
    lobby_heartbeat_s: float = Field(
        default=20.0, gt=0, description="Seconds between the heartbeat comments of an idle lobby event stream"
    )
    # Web Push (backend/push, docs/operating.md "Notifications")
    push: bool = Field(
        default=True, description="Send Web Push notifications (your turn, reminders, ends, invitations)"
    )
    vapid_private_key: SecretStr | None = Field(
        default=None,
        description="The VAPID private key (PEM, or raw base64url); unset: made on first start, kept in the database",
    )
    vapid_subject: str = Field(
        default="mailto:operator@example.invalid",
        description="The VAPID contact (mailto: or https:) sent to push services",
    )
    push_services: list[str] = Field(
        default=[
            "https://fcm.googleapis.com",
            "https://updates.push.services.mozilla.com",
            "https://web.push.apple.com",
            "https://*.notify.windows.com",
        ],
        description="The push services a subscription's endpoint may name (scheme://host[:port], * for one label)",
    )
    push_max_subscriptions: int = Field(default=10, ge=1, description="Devices one player may subscribe")
    push_poll_s: float = Field(default=5.0, gt=0, description="How often a process looks for due notifications")
    push_timeout_s: float = Field(default=10.0, gt=0, description="How long a push service's answer is waited for")
    push_retries: int = Field(default=5, ge=1, description="Sends of one notification before it is given up")
    push_backoff_s: float = Field(default=30.0, gt=0, description="The first retry's wait (doubled each time)")
    lobby_tables_s: float = Field(
        default=5.0,
        gt=0,
        description="How often a process with lobby streams reads the public tables again (changes here: at once)",
    )


@lru_cache
def get_settings() -> Settings:
    return Settings()
