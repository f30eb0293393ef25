"""Secrets never reach a log line: a filter on every logger that writes requests.

The browser opens its socket with a one-time ticket, but non-browser clients may still pass
``?token=``; uvicorn's access log and error log print request paths with their query, so
both are scrubbed here, whatever the client sent.
"""

from __future__ import annotations

import logging
import re

_SECRET_QUERY = re.compile(r"((?:token|ticket)=)[^&\s\"']+", re.IGNORECASE)
_LOGGERS = ("uvicorn.access", "uvicorn.error", "uvicorn", "backend")


def redact(text: str) -> str:
    return _SECRET_QUERY.sub(r"\1[redacted]", text)


class SecretFilter(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        if record.args:
            record.args = tuple(redact(a) if isinstance(a, str) else a for a in record.args)
        if isinstance(record.msg, str):
            record.msg = redact(record.msg)
        return True


def install_secret_filter() -> None:
    for name in _LOGGERS:
        logger = logging.getLogger(name)
        if not any(isinstance(f, SecretFilter) for f in logger.filters):
            logger.addFilter(SecretFilter())
