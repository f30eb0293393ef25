"""Run the Alembic migrations from code (tests, tools); the CLI equivalent is ``alembic upgrade head``."""

from __future__ import annotations

from alembic import command
from alembic.config import Config

from backend.settings import ROOT


def _config(database_url: str) -> Config:
    config = Config(str(ROOT / "alembic.ini"))
    config.set_main_option("script_location", str(ROOT / "migrations"))
    config.attributes["database_url"] = database_url
    config.attributes["configure_logger"] = False
    return config


def upgrade(database_url: str, revision: str = "head") -> None:
    command.upgrade(_config(database_url), revision)


def downgrade(database_url: str, revision: str) -> None:
    """Down to ``revision`` (``alembic downgrade``): the migration tests go down and up again."""
    command.downgrade(_config(database_url), revision)
