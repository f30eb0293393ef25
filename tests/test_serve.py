"""backend.serve: the options `make run` and the Docker image start uvicorn with (no server is started)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import uvicorn

from backend import serve

ROOT = Path(__file__).resolve().parent.parent


def options(argv: list[str], env: dict[str, str] | None = None) -> dict[str, Any]:
    return serve.uvicorn_options(serve.parse_args(argv, env or {}))


def test_websocket_options_are_the_documented_ones() -> None:
    got = options([])
    assert got["ws_per_message_deflate"] is False
    assert got["ws_max_size"] == 65536
    assert got["ws_ping_interval"] == 10
    assert got["ws_ping_timeout"] == 15
    assert got["factory"] is True


def test_defaults_then_environment_then_command_line() -> None:
    assert (options([])["host"], options([])["port"]) == ("127.0.0.1", 8000)
    env = {"HOST": "0.0.0.0", "PORT": "9000"}
    assert (options([], env)["host"], options([], env)["port"]) == ("0.0.0.0", 9000)
    got = options(["--host", "::1", "--port", "8123"], env)
    assert (got["host"], got["port"]) == ("::1", 8123)


def test_proxy_headers() -> None:
    # uvicorn's own default: on, believing only the addresses in FORWARDED_ALLOW_IPS (127.0.0.1).
    assert options([])["proxy_headers"] is True
    assert options([])["forwarded_allow_ips"] is None
    assert options(["--no-proxy-headers"])["proxy_headers"] is False
    assert options(["--proxy-headers", "--forwarded-allow-ips", "*"])["forwarded_allow_ips"] == "*"


def test_migrate_flag_and_environment() -> None:
    assert serve.parse_args([], {}).migrate is False
    assert serve.parse_args([], {"MIGRATE": "1"}).migrate is True
    assert serve.parse_args(["--no-migrate"], {"MIGRATE": "1"}).migrate is False
    assert serve.parse_args(["--migrate"], {"MIGRATE": "0"}).migrate is True
    with pytest.raises(SystemExit):
        serve.parse_args([], {"MIGRATE": "maybe"})


def test_every_option_is_one_uvicorn_run_knows() -> None:
    import inspect

    parameters = inspect.signature(uvicorn.run).parameters
    assert set(options([])) <= set(parameters)


def test_main_migrates_then_runs_the_factory(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[str, Any]] = []

    def fake_subprocess_run(command: list[str], **kwargs: Any) -> subprocess.CompletedProcess[bytes]:
        calls.append(("migrate", (command, kwargs)))
        return subprocess.CompletedProcess(command, 0)

    def fake_uvicorn_run(app: str, **kwargs: Any) -> None:
        calls.append(("serve", (app, kwargs)))

    monkeypatch.setattr(serve.subprocess, "run", fake_subprocess_run)
    monkeypatch.setattr(uvicorn, "run", fake_uvicorn_run)
    for name in ("HOST", "PORT", "MIGRATE", "FORWARDED_ALLOW_IPS"):
        monkeypatch.delenv(name, raising=False)

    serve.main(["--migrate", "--host", "0.0.0.0", "--port", "8000"])

    assert [kind for kind, _ in calls] == ["migrate", "serve"]
    command, kwargs = calls[0][1]
    assert command == [sys.executable, "-m", "alembic", "-c", str(ROOT / "alembic.ini"), "upgrade", "head"]
    assert kwargs["cwd"] == ROOT
    app, run_kwargs = calls[1][1]
    assert app == "backend.api.app:create_app"
    assert run_kwargs == options(["--host", "0.0.0.0", "--port", "8000"])


def test_a_failed_migration_stops_the_start(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(serve.subprocess, "run", lambda command, **_: subprocess.CompletedProcess(command, 3))
    monkeypatch.setattr(uvicorn, "run", lambda *_, **__: pytest.fail("served after a failed migration"))
    with pytest.raises(SystemExit) as exit_info:
        serve.main(["--migrate"])
    assert exit_info.value.code == 3


def test_the_image_and_make_run_start_the_server_through_backend_serve() -> None:
    dockerfile = (ROOT / "Dockerfile").read_text()
    makefile = (ROOT / "Makefile").read_text()
    assert '"-m", "backend.serve"' in dockerfile
    assert "-m backend.serve" in makefile
    for text in (dockerfile, makefile):
        assert "--ws-" not in text, "the WebSocket options live in backend/serve.py only"


def test_health_check_url() -> None:
    assert serve.health_url(serve.parse_args(["--health-check"], {})) == "http://127.0.0.1:8000/api/health"
    wildcard = serve.parse_args(["--health-check", "--host", "0.0.0.0", "--port", "8001"], {})
    assert serve.health_url(wildcard) == "http://127.0.0.1:8001/api/health"
    assert serve.health_url(serve.parse_args(["--host", "::1"], {})) == "http://[::1]:8000/api/health"


def test_health_check_answers_like_the_server(monkeypatch: pytest.MonkeyPatch) -> None:
    import http.server
    import threading

    status = {"code": 200}

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self.send_response(status["code"] if self.path == "/api/health" else 404)
            self.end_headers()

        def log_message(self, *_: Any) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        args = serve.parse_args(["--health-check", "--port", str(server.server_address[1])], {})
        assert serve.health_check(args) == 0
        status["code"] = 503
        assert serve.health_check(args) == 1
        monkeypatch.setattr(uvicorn, "run", lambda *_, **__: pytest.fail("a health check must not serve"))
        with pytest.raises(SystemExit) as exit_info:
            serve.main(["--health-check", "--port", str(server.server_address[1])])
        assert exit_info.value.code == 1
    finally:
        server.shutdown()
        server.server_close()
    assert serve.health_check(args) == 1  # nothing listens any more
