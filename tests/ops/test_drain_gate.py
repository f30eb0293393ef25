"""The drain gate while a process hands its rooms over (SIGTERM): the health check and new socket
handshakes get 503, so a proxy sends them to another replica; everything else passes."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

from backend.ops.shutdown import DrainGate


def _run(scope: dict[str, Any], draining: bool) -> tuple[list[dict[str, Any]], bool]:
    sent: list[dict[str, Any]] = []
    reached = False

    async def inner(scope: dict[str, Any], receive: Any, send: Any) -> None:
        nonlocal reached
        reached = True

    async def receive() -> dict[str, Any]:
        return {}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    scope["app"] = SimpleNamespace(state=SimpleNamespace(rooms=SimpleNamespace(draining=draining)))
    asyncio.run(DrainGate(inner)(scope, receive, send))
    return sent, reached


def test_a_socket_handshake_while_draining_gets_503_for_the_proxy_to_retry() -> None:
    scope = {"type": "websocket", "path": "/ws/rooms/r1", "extensions": {"websocket.http.response": {}}}
    sent, reached = _run(scope, draining=True)
    assert not reached
    assert sent[0]["type"] == "websocket.http.response.start"
    assert sent[0]["status"] == 503


def test_a_server_without_denial_responses_closes_the_handshake_with_1012() -> None:
    sent, reached = _run({"type": "websocket", "path": "/ws/rooms/r1", "extensions": {}}, draining=True)
    assert not reached
    assert sent == [{"type": "websocket.close", "code": 1012, "reason": "server restarting"}]


def test_health_says_draining_and_other_requests_pass() -> None:
    sent, reached = _run({"type": "http", "path": "/api/health"}, draining=True)
    assert not reached and sent[0]["status"] == 503
    sent, reached = _run({"type": "http", "path": "/api/lobby"}, draining=True)
    assert reached and sent == []
    sent, reached = _run({"type": "websocket", "path": "/ws/rooms/r1", "extensions": {}}, draining=False)
    assert reached and sent == []
