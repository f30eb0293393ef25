"""Delivery benchmark: what a first and a repeat visit cost on a slow phone link.

    python bench/delivery.py [--runs 3] [--verbose] [--json out.json]

It starts its own uvicorn server (the real app on a temporary SQLite file) and opens the lobby
(``/#/``), the rules page (``/#/rules``) and the history (``/#/history``, a page whose view is
loaded on demand) in Debian's chromium (``/usr/bin/chromium``, headless, through Playwright) with
Chromium's network emulation (``Network.emulateNetworkConditions`` over CDP: 1.6 Mbit/s down,
750 kbit/s up, 150 ms latency). Each first visit uses a new browser context (cold cache, no
service worker); the repeat visit opens the same page again in that context after the first one
settled (HTTP cache and service worker warm). The server answers a few requests before the
browser comes (a deployed server is warm).

Printed per page and visit: bytes transferred (the sum of ``encodedDataLength`` of every response
the page received, headers included; what the service worker fetches itself is not seen by the
page — on a repeat visit that is the revalidation of ``/``, a few hundred bytes), the number of
requests, DOMContentLoaded and the moment the app first drew its view (both in ms from the start
of the navigation; the median of ``--runs``), then whether the goals of issue 11 are met: at most
80 KB (81,920 bytes) transferred on a first visit and DOMContentLoaded within 1 s. Not a timed
test: the figures depend on the machine.

What a first visit transfers is shaped by ``backend/api/static.py`` (``frontend/README.md``,
"Delivery"): one combined stylesheet of the sheets every page needs (``css/_all.css``; the
views' own sheets, ``data-for`` in ``index.html``, come in bundles with their view), the modules
of the lobby and the rules with their comments and indentation stripped, and the page's
dictionary. Issue 22 measured the lobby at 93,429 bytes before those bundles and the stripping,
68,254 after (the rules 92,763 → 69,356).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import httpx

if TYPE_CHECKING:
    from playwright.sync_api import ViewportSize

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking"]
# Chromium's network emulation (CDP): throughput in bytes per second, latency in ms.
NETWORK = {
    "offline": False,
    "latency": 150,
    "downloadThroughput": 1_600_000 / 8,
    "uploadThroughput": 750_000 / 8,
}
PAGES = {"lobby": "/#/", "rules": "/#/rules", "history": "/#/history"}
PHONE: ViewportSize = {"width": 390, "height": 844}
GOAL_BYTES = 80 * 1024
GOAL_DCL_MS = 1000.0
# Records when the app first put something in #app (its first view drawn).
READY_SCRIPT = """
new MutationObserver((_, observer) => {
  const app = document.getElementById('app');
  if (app && app.childElementCount > 0 && !window.__appReadyAt) {
    window.__appReadyAt = performance.now();
    observer.disconnect();
  }
}).observe(document, { childList: true, subtree: true });
"""


@dataclass
class Visit:
    page: str
    kind: str  # "first" or "repeat"
    bytes: int
    requests: int
    dcl_ms: float
    ready_ms: float
    files: list[tuple[str, int]] = field(default_factory=list)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def start_server(folder: Path) -> tuple[subprocess.Popen[bytes], str]:
    from backend.db.migrate import upgrade

    database_url = f"sqlite:///{folder / 'delivery.db'}"
    upgrade(database_url)
    port = free_port()
    env = {**os.environ, "DATABASE_URL": database_url}
    command = [
        sys.executable, "-m", "uvicorn", "backend.api.app:create_app", "--factory",
        "--host", "127.0.0.1", "--port", str(port), "--log-level", "warning",
    ]  # fmt: skip
    log = (folder / "server.log").open("ab")
    process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError((folder / "server.log").read_text()[-3000:])
        try:
            if httpx.get(f"{url}/api/health", timeout=1).status_code == 200:
                return process, url
        except httpx.HTTPError:
            pass
        time.sleep(0.05)
    process.terminate()
    raise RuntimeError("the server did not start")


def warm_up(base_url: str) -> None:
    """A served page first (the server's first answers pay for imports and caches): a deployed
    server is warm when a visitor comes."""
    with httpx.Client(base_url=base_url, headers={"accept-encoding": "gzip"}) as client:
        for _ in range(3):
            page = client.get("/").text
            for path in re.findall(r'(?:href|src)="(/v/[^"]+)"', page):
                client.get(path)


def visit(context: Any, base_url: str, name: str, kind: str) -> Visit:
    """Open one page on the emulated link and return what it cost."""
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.emulateNetworkConditions", NETWORK)
    urls: dict[str, str] = {}
    sizes: dict[str, int] = {}

    def on_request(event: dict[str, Any]) -> None:
        urls[event["requestId"]] = event["request"]["url"]

    def on_finished(event: dict[str, Any]) -> None:
        sizes[event["requestId"]] = int(event["encodedDataLength"])

    cdp.on("Network.requestWillBeSent", on_request)
    cdp.on("Network.loadingFinished", on_finished)
    page.add_init_script(READY_SCRIPT)
    page.goto(base_url + PAGES[name], wait_until="load")
    page.wait_for_function("() => window.__appReadyAt !== undefined")
    page.wait_for_load_state("networkidle")
    timing = page.evaluate(
        """() => {
          const nav = performance.getEntriesByType('navigation')[0];
          return { dcl: nav.domContentLoadedEventEnd - nav.startTime, ready: window.__appReadyAt - nav.startTime };
        }"""
    )
    # The service worker installs after the first load: the repeat visit starts once it is active.
    page.evaluate("() => navigator.serviceWorker && navigator.serviceWorker.ready.then(() => true)")
    files = sorted(
        ((urls.get(rid, "?").removeprefix(base_url), size) for rid, size in sizes.items()), key=lambda f: -f[1]
    )
    page.close()
    return Visit(name, kind, sum(sizes.values()), len(sizes), float(timing["dcl"]), float(timing["ready"]), files)


def run(base_url: str, runs: int) -> list[list[Visit]]:
    from playwright.sync_api import sync_playwright

    results: list[list[Visit]] = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            for _ in range(runs):
                round_: list[Visit] = []
                for name in PAGES:
                    context = browser.new_context(viewport=PHONE, base_url=base_url)
                    round_.append(visit(context, base_url, name, "first"))
                    round_.append(visit(context, base_url, name, "repeat"))
                    context.close()
                results.append(round_)
        finally:
            browser.close()
    return results


def median_visits(results: list[list[Visit]]) -> list[Visit]:
    out = []
    for column in zip(*results, strict=True):
        middle = sorted(column, key=lambda v: v.dcl_ms)[len(column) // 2]
        out.append(
            Visit(
                middle.page,
                middle.kind,
                int(statistics.median(v.bytes for v in column)),
                int(statistics.median(v.requests for v in column)),
                statistics.median(v.dcl_ms for v in column),
                statistics.median(v.ready_ms for v in column),
                middle.files,
            )
        )
    return out


def report(visits: list[Visit], runs: int, verbose: bool) -> bool:
    down, up = NETWORK["downloadThroughput"] * 8 / 1e6, NETWORK["uploadThroughput"] * 8 / 1e3
    print(f"network: {down:.1f} Mbit/s down, {up:.0f} kbit/s up, {NETWORK['latency']} ms latency", end="")
    print(f"; median of {runs} run(s)")
    print(f"{'page':<8}{'visit':<8}{'bytes':>9}{'KB':>8}{'requests':>10}{'DCL ms':>9}{'drawn ms':>10}")
    for v in visits:
        figures = f"{v.bytes:>9}{v.bytes / 1024:>8.1f}{v.requests:>10}{v.dcl_ms:>9.0f}{v.ready_ms:>10.0f}"
        print(f"{v.page:<8}{v.kind:<8}{figures}")
        if verbose:
            for url, size in v.files:
                print(f"{'':<15}{size:>9}  {url}")
    first = [v for v in visits if v.kind == "first"]
    bytes_ok = all(v.bytes <= GOAL_BYTES for v in first)
    dcl_ok = all(v.dcl_ms <= GOAL_DCL_MS for v in first)
    worst_bytes = max(v.bytes for v in first)
    worst_dcl = max(v.dcl_ms for v in first)
    verdict = {True: "met", False: "NOT met"}
    print(f"goal: first visit <= {GOAL_BYTES // 1024} KB: {verdict[bytes_ok]} (largest {worst_bytes / 1024:.1f} KB)")
    print(f"goal: DOMContentLoaded <= {GOAL_DCL_MS:.0f} ms: {verdict[dcl_ok]} (slowest {worst_dcl:.0f} ms)")
    return bytes_ok and dcl_ok


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3, help="repeat everything this many times; medians are printed")
    parser.add_argument("--verbose", action="store_true", help="list every response and its size")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    args = parser.parse_args()
    if not Path(CHROMIUM).exists():
        sys.exit(f"Debian's chromium is not installed at {CHROMIUM} (apt-get install chromium)")
    with tempfile.TemporaryDirectory(prefix="bench-delivery-") as folder:
        process, base_url = start_server(Path(folder))
        try:
            warm_up(base_url)
            visits = median_visits(run(base_url, args.runs))
        finally:
            process.terminate()
            process.wait(timeout=10)
    met = report(visits, args.runs, args.verbose)
    if args.json:
        args.json.write_text(json.dumps({"visits": [asdict(v) for v in visits], "goals_met": met}, indent=2))


if __name__ == "__main__":
    main()
