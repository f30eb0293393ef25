"""Run the Alembic migrations from code (tests, tools); the CLI equivalent is ``alembic upgrade head``."""

from __future__ import annotations

from alembic import command
from alembic.config import Config

from backend.settings import ROOT


def upgrade(database_url: str, revision: str = "head") -> None:
    config = Config(str(ROOT / "alembic.ini"))
    config.set_main_option("script_location", str(ROOT / "migrations"))
    config.attributes["database_url"] = database_url
    config.attributes["configure_logger"] = False
    command.upgrade(config, revision)
