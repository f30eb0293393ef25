"""The HTTPS front of docker-compose.yml: Caddy running ``deploy/Caddyfile`` itself (its ports, upstreams
and state folders set through the environment, as the file allows) in front of the app started the way
the image starts it (``python -m backend.serve``, the proxy named by host name in ``FORWARDED_ALLOW_IPS``).

No internet here, so the certificate is the one a laptop gets without ``DOMAIN``: ``localhost`` from
Caddy's internal CA. Chromium trusts that CA's root (its key is pinned with
``--ignore-certificate-errors-spki-list``, as a person would import the root), so the page is a secure
context for real: the service worker registers and Copy invite writes through ``navigator.clipboard``.
Without a ``caddy`` binary the tests skip, unless ``REQUIRE_SERVICES=1`` (apt-get install caddy).
"""

from __future__ import annotations

import base64
import hashlib
import http.server
import os
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from backend.api.codes import PROTOCOL
from tests.support.services import ROOT, SERVER_LOG_PROBLEMS, database, free_port, missing_service, port_open

CADDYFILE = ROOT / "deploy" / "Caddyfile"
STARTUP_S = 20.0


class App:
    """The app as the image runs it: ``python -m backend.serve`` (uvicorn with the options of serve.py)."""

    def __init__(self, folder: Path, database_url: str, **env: str) -> None:
        self.port = free_port()
        self.log_path = folder / "app.log"
        self.env = {**os.environ, "DATABASE_URL": database_url, "BOT_DELAY_S": "0.05", **env}
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        command = [sys.executable, "-m", "backend.serve", "--host", "127.0.0.1", "--port", str(self.port)]
        log = self.log_path.open("ab")
        self.process = subprocess.Popen(command, cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + STARTUP_S
        while True:
            assert self.process.poll() is None, f"the app exited early:\n{self.log()[-3000:]}"
            try:
                if httpx.get(f"{self.url}/api/health", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline, f"the app did not start:\n{self.log()[-3000:]}"
            time.sleep(0.05)

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=5)


class Caddy:
    """``caddy run`` with the project's Caddyfile; the site is ``localhost`` on a free HTTPS port."""

    def __init__(self, folder: Path, upstreams: list[str], host: str = "localhost") -> None:
        self.folder = folder
        self.host = host
        self.https_port, self.http_port, self.plain_port = free_port(), free_port(), free_port()
        self.env = {
            **os.environ,
            "DOMAIN": f"{host}:{self.https_port}",
            "HTTP_PORT": str(self.http_port),
            "PLAIN_PORT": str(self.plain_port),
            "UPSTREAMS": " ".join(upstreams),
            "CADDY_ADMIN": "off",
            # Certificates, the internal CA and Caddy's own state stay in the test's folder.
            "XDG_DATA_HOME": str(folder / "data"),
            "XDG_CONFIG_HOME": str(folder / "config"),
            "HOME": str(folder),
        }
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def https_url(self) -> str:
        return f"https://{self.host}:{self.https_port}"

    @property
    def http_url(self) -> str:
        return f"http://{self.host}:{self.http_port}"

    @property
    def plain_url(self) -> str:
        return f"http://127.0.0.1:{self.plain_port}"

    @property
    def root_crt(self) -> Path:
        return self.folder / "data" / "caddy" / "pki" / "authorities" / "local" / "root.crt"

    def tls(self) -> ssl.SSLContext:
        """A client context that trusts Caddy's internal CA and nothing else."""
        return ssl.create_default_context(cafile=str(self.root_crt))

    def start(self) -> None:
        binary = shutil.which("caddy")
        if binary is None:
            missing_service("caddy is not installed (Debian: apt-get install caddy)")
        assert binary is not None
        self.folder.mkdir(parents=True, exist_ok=True)
        command = [binary, "run", "--config", str(CADDYFILE), "--adapter", "caddyfile"]
        log = (self.folder / "caddy.log").open("ab")
        self.process = subprocess.Popen(command, env=self.env, stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + STARTUP_S
        while not (port_open("127.0.0.1", self.plain_port) and self.root_crt.exists() and self._tls_ready()):
            assert self.process.poll() is None, f"caddy exited:\n{self.log()[-3000:]}"
            assert time.monotonic() < deadline, f"caddy did not start:\n{self.log()[-3000:]}"
            time.sleep(0.1)

    def https_get(self, path: str, headers: dict[str, str] | None = None, **transport: Any) -> httpx.Response:
        """GET over HTTPS to the site's name (any of them resolves here), verified against the internal CA."""
        with httpx.Client(transport=httpx.HTTPTransport(verify=self.tls(), **transport), timeout=5) as client:
            return client.get(
                f"https://127.0.0.1:{self.https_port}{path}",
                headers={**(headers or {}), "host": f"{self.host}:{self.https_port}"},
                extensions={"sni_hostname": self.host},
            )

    def _tls_ready(self) -> bool:
        """The site's certificate is issued and valid (a TLS handshake only: no request reaches a replica)."""
        try:
            with (
                socket.create_connection(("127.0.0.1", self.https_port), timeout=2) as raw,
                self.tls().wrap_socket(raw, server_hostname=self.host),
            ):
                return True
        except OSError:
            return False

    def log(self) -> str:
        path = self.folder / "caddy.log"
        return path.read_text(errors="replace") if path.exists() else ""

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=5)


def spki_sha256(certificate: Path) -> str:
    """base64(SHA-256(SubjectPublicKeyInfo)) of a PEM certificate: Chromium's certificate key pin."""
    der = ssl.PEM_cert_to_DER_cert(certificate.read_text())

    def element(at: int) -> tuple[int, int, int]:  # tag, start of the content, end
        tag, length, at = der[at], der[at + 1], at + 2
        if length & 0x80:
            size = length & 0x7F
            length, at = int.from_bytes(der[at : at + size], "big"), at + size
        return tag, at, at + length

    _, tbs_header, _ = element(0)  # Certificate ::= SEQUENCE { tbsCertificate, ... }
    _, at, _ = element(tbs_header)  # tbsCertificate ::= SEQUENCE { [0] version, serial, ..., subjectPublicKeyInfo
    fields: list[tuple[int, int, int]] = []
    while len(fields) < 7:
        tag, _, end = element(at)
        fields.append((tag, at, end))
        at = end
    _, start, end = fields[6] if fields[0][0] == 0xA0 else fields[5]
    return base64.b64encode(hashlib.sha256(der[start:end]).digest()).decode()


@pytest.fixture(scope="module")
def front(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Caddy, App]]:
    folder = tmp_path_factory.mktemp("https-front")
    caddy = Caddy(folder / "caddy", [])
    if shutil.which("caddy") is None:
        missing_service("caddy is not installed (Debian: apt-get install caddy)")
    with database("sqlite", folder) as url:
        # As in docker-compose.yml: the proxy by name (there `caddy`, here this machine's `localhost`).
        app = App(folder, url, FORWARDED_ALLOW_IPS="localhost")
        app.start()
        caddy.env["UPSTREAMS"] = f"127.0.0.1:{app.port}"
        try:
            caddy.start()
            yield caddy, app
        finally:
            caddy.stop()
            app.stop()
    problems = [line for line in app.log().splitlines() if any(word in line for word in SERVER_LOG_PROBLEMS)]
    assert not problems, problems


def test_http_redirects_to_https_and_localhost_gets_no_hsts(front: tuple[Caddy, App]) -> None:
    caddy, _ = front
    answer = httpx.get(f"{caddy.http_url}/v/1/js/app.js?x=1", follow_redirects=False)
    assert answer.status_code == 308
    assert answer.headers["location"] == f"{caddy.https_url}/v/1/js/app.js?x=1"
    page = caddy.https_get("/")
    assert page.status_code == 200 and "<html" in page.text.lower()
    assert "strict-transport-security" not in page.headers  # a browser would pin every port of localhost
    # The host's own plain port answers as it is: no redirect (health checks, container-check's probes).
    assert httpx.get(f"{caddy.plain_url}/api/health").status_code == 200


def test_the_app_believes_forwarded_headers_from_the_proxy_named_by_host_name_only(front: tuple[Caddy, App]) -> None:
    """backend/serve.py resolves the proxy's name (``localhost`` here) and believes its X-Forwarded-*:
    behind Caddy the app sees the player's address. Caddy replaces what a client forged; straight to the
    app, from an address that is not the proxy's, nothing forwarded is believed."""
    caddy, app = front
    forged = {"x-forwarded-for": "203.0.113.9", "x-forwarded-proto": "http"}
    # From 127.0.0.2, an address that is not the proxy's (127.0.0.1, where Caddy connects from).
    assert caddy.https_get("/api/health?via=proxy", forged, local_address="127.0.0.2").status_code == 200
    with httpx.Client(transport=httpx.HTTPTransport(local_address="127.0.0.2")) as client:
        assert client.get(f"{app.url}/api/health?via=direct", headers=forged).status_code == 200
    log = app.log()
    assert "forwarded headers believed from localhost (127.0.0.1" in log
    (via_proxy,) = [line for line in log.splitlines() if "via=proxy" in line]
    (direct,) = [line for line in log.splitlines() if "via=direct" in line]
    assert "127.0.0.2:0 -" in via_proxy  # the player's address, from Caddy's X-Forwarded-For (it has no port)
    assert "127.0.0.2:" in direct and "127.0.0.2:0 -" not in direct  # the peer itself, its headers ignored
    assert "203.0.113.9" not in log


@pytest.fixture(scope="module")
def browser(front: tuple[Caddy, App]) -> Iterator[Any]:
    """Debian's chromium, trusting Caddy's internal CA (the front must have created it first)."""
    from tests.e2e.conftest import CHROMIUM, CHROMIUM_ARGS

    if not Path(CHROMIUM).exists():
        missing_service(f"Debian's chromium is not installed at {CHROMIUM} (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    caddy, _ = front
    # The chain Caddy sends is its leaf and the CA's intermediate (the root never travels): pin both keys.
    keys = [spki_sha256(caddy.root_crt), spki_sha256(caddy.root_crt.with_name("intermediate.crt"))]
    pin = f"--ignore-certificate-errors-spki-list={','.join(keys)}"
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=[*CHROMIUM_ARGS, pin])
        try:
            yield chromium
        finally:
            chromium.close()


# Records what the client hands to the asynchronous clipboard (its only path in a secure context).
RECORD_CLIPBOARD = """
window.__written = [];
const original = navigator.clipboard && navigator.clipboard.writeText.bind(navigator.clipboard);
if (original) navigator.clipboard.writeText = (text) => { window.__written.push(text); return original(text); };
"""


@pytest.mark.browser
def test_through_https_the_page_is_secure_with_its_service_worker_wss_and_the_clipboard(
    front: tuple[Caddy, App], browser: Any
) -> None:
    from playwright.sync_api import expect

    from tests.e2e.conftest import DESKTOP
    from tests.e2e.helpers import choose_name, create_table

    caddy, _ = front
    context = browser.new_context(viewport=DESKTOP, base_url=caddy.https_url)
    context.set_default_timeout(10_000)
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=caddy.https_url)
    context.add_init_script(RECORD_CLIPBOARD)
    page = context.new_page()
    sockets: list[str] = []
    errors: list[str] = []
    page.on("websocket", lambda ws: sockets.append(ws.url))
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        page.goto(f"{caddy.http_url}/")  # plain http: Caddy sends the browser to https
        assert page.url == f"{caddy.https_url}/"
        assert page.evaluate("window.isSecureContext") is True
        state = page.evaluate("navigator.serviceWorker.ready.then((r) => r.active && r.active.state)")
        assert state in ("activating", "activated")
        page.reload()
        assert page.evaluate("navigator.serviceWorker.controller !== null")

        choose_name(page, "Secure")
        link = create_table(page)
        assert link.startswith(f"{caddy.https_url}/#/invite/")
        page.get_by_test_id("copy-invite").click()
        expect(page.get_by_test_id("copy-status")).to_have_text("Copied!")
        assert page.evaluate("window.__written") == [link]  # navigator.clipboard, not the fallback
        assert page.evaluate("navigator.clipboard.readText()") == link
        page.wait_for_function("() => document.querySelector('[data-testid=table-page]')")
        assert sockets and all(url.startswith(f"wss://{caddy.host}:{caddy.https_port}/ws/") for url in sockets)
        assert not errors, errors
    finally:
        context.close()


class Draining:
    """A replica in the middle of a restart: 503 to everything (docs/operating.md, "Restarts")."""

    def __init__(self) -> None:
        self.hits = 0
        outer = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                outer.hits += 1
                self.send_response(503)
                self.send_header("content-length", "0")
                self.end_headers()

            def log_message(self, *_: Any) -> None:
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.mark.parametrize("request_kind", ["socket handshake", "GET"])
def test_a_draining_replica_never_answers_a_player_and_a_named_domain_gets_hsts(
    front: tuple[Caddy, App], tmp_path: Path, request_kind: str
) -> None:
    """The 503 of a draining replica to a socket handshake or a GET goes to the other replica at once
    (as nginx's proxy_next_upstream did); and a site that is not localhost gets Strict-Transport-Security.

    Round robin sends one of two requests in a row to each replica; the first 503 marks the draining
    one down, so exactly one request of the kind under test reaches it, and none may fail."""
    _, app = front
    draining = Draining()
    caddy = Caddy(tmp_path / "caddy", [f"127.0.0.1:{draining.port}", f"127.0.0.1:{app.port}"], host="game.localhost")
    player = httpx.post(f"{app.url}/api/players", json={"name": "Drain"}).json()
    headers = {"authorization": f"Bearer {player['token']}"}
    room = httpx.post(f"{app.url}/api/rooms", json={"opponent": "computer", "bot_level": "easy"}, headers=headers)
    url = f"ws://127.0.0.1:{caddy.plain_port}/ws/rooms/{room.json()['id']}?token={player['token']}&protocol={PROTOCOL}"
    try:
        caddy.start()  # its readiness check is a TLS handshake: no request has reached a replica yet
        for _ in range(2):
            if request_kind == "GET":
                assert httpx.get(f"{caddy.plain_url}/api/health").status_code == 200
            else:
                with connect(url, open_timeout=10) as game:
                    assert '"type":"state"' in str(game.recv(timeout=10)).replace(" ", "")
        assert draining.hits == 1
        page = caddy.https_get("/")
        assert page.status_code == 200
        assert page.headers["strict-transport-security"] == "max-age=31536000"
    finally:
        caddy.stop()
        draining.stop()
