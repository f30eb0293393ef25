"""Secrets never reach a log line: one redaction, used by the filter the app puts on the loggers
that write requests and by the formatters of ``logs.py``.

The browser opens its socket with a one-time ticket, but non-browser clients may still pass
``?token=``; uvicorn's access log and error log print request paths with their query, so both
are scrubbed here, whatever the client sent. An invite code is a secret too (it lets anybody
take the free seat of a private table): it is scrubbed from ``/api/invites/{code}`` paths, and
so is a private table's watch code (``/ws/rooms/{id}/watch?code=…``, a replay's ``?code=``), and
``Bearer`` credentials from anything that quotes a header.
"""

from __future__ import annotations

import logging
import re

REDACTED = "[redacted]"
_SECRETS = (
    re.compile(r"((?:token|ticket|invite_code|invite|code)=)[^&\s\"']+", re.IGNORECASE),
    re.compile(r"(/invites?/)[^/\s\"'?#]+", re.IGNORECASE),
    re.compile(r"(Bearer\s+)[^\s\"',]+", re.IGNORECASE),
    re.compile(r"((?:\"|')(?:token|ticket|invite_code)(?:\"|')\s*:\s*(?:\"|'))[^\"']+", re.IGNORECASE),
)
_LOGGERS = ("uvicorn.access", "uvicorn.error", "uvicorn", "backend")


def redact(text: str) -> str:
    for pattern in _SECRETS:
        text = pattern.sub(rf"\1{REDACTED}", text)
    return text


class SecretFilter(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        if record.args:
            if isinstance(record.args, dict):
                record.args = {k: redact(v) if isinstance(v, str) else v for k, v in record.args.items()}
            else:
                record.args = tuple(redact(a) if isinstance(a, str) else a for a in record.args)
        if isinstance(record.msg, str):
            record.msg = redact(record.msg)
        return True


def install_secret_filter() -> None:
    for name in _LOGGERS:
        logger = logging.getLogger(name)
        if not any(isinstance(f, SecretFilter) for f in logger.filters):
            logger.addFilter(SecretFilter())
