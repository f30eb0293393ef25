"""One line per event, as text or JSON (``LOG_FORMAT``), and never a secret.

``configure`` gives the root logger one handler on stderr and routes uvicorn's loggers (its
access log included) through it, so every line has the same shape and passes the same
redaction (``backend.ops.redaction.redact``): players' tokens, socket tickets and invite codes are
replaced, whatever the message or its arguments held. A line about a room or a player names them
by id: ``log.info("…", extra=ids(room=…, player=…))``.
"""

from __future__ import annotations

import json
import logging
import sys
from datetime import UTC, datetime
from typing import Any

from .redaction import SecretFilter, redact

CONTEXT = ("room", "player", "node", "code", "event")
_UVICORN = ("uvicorn", "uvicorn.error", "uvicorn.access")


def ids(**values: str | int | None) -> dict[str, Any]:
    """``extra`` for a log call: the room, player, … a line is about."""
    return {key: value for key, value in values.items() if value is not None}


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "ts": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "msg": redact(record.getMessage()),
        }
        for key in CONTEXT:
            value = getattr(record, key, None)
            if value is not None:
                line[key] = value
        if record.exc_info:
            line["exc"] = redact(self.formatException(record.exc_info))
        return json.dumps(line, ensure_ascii=False, default=str)


class TextFormatter(logging.Formatter):
    def __init__(self) -> None:
        super().__init__("%(asctime)s %(levelname)s %(name)s: %(message)s")

    def format(self, record: logging.LogRecord) -> str:
        text = super().format(record)
        context = " ".join(f"{key}={getattr(record, key)}" for key in CONTEXT if getattr(record, key, None) is not None)
        text = f"{text} {context}" if context else text
        return redact(text)


class _Stderr(logging.StreamHandler):  # type: ignore[type-arg]
    """Whatever ``sys.stderr`` is when a line is written (a test runner may swap it)."""

    @property
    def stream(self) -> Any:
        return sys.stderr

    @stream.setter
    def stream(self, value: Any) -> None:
        pass


def configure(log_format: str, level: str) -> None:
    """Install the one handler (idempotent: a second call replaces it)."""
    handler = _Stderr()
    handler.setFormatter(JsonFormatter() if log_format == "json" else TextFormatter())
    handler.addFilter(SecretFilter())
    handler.set_name("thousand")
    root = logging.getLogger()
    for old in [h for h in root.handlers if h.get_name() == "thousand"]:
        root.removeHandler(old)
    root.addHandler(handler)
    logging.getLogger("backend").setLevel(level.upper())
    for name in _UVICORN:
        logger = logging.getLogger(name)
        logger.handlers.clear()  # uvicorn's own formatters: their lines go through ours instead
        logger.propagate = True
