"""Table speed benchmark: how soon a tapped card is in the trick, on a phone (issue 42).

    python bench/table_speed.py [--seats 2 4] [--cpu 4 1] [--plays 24] [--rounds 1]
                                [--compare <git ref>] [--bot-delay 0.8] [--json out.json]

It serves the real app (uvicorn on a temporary SQLite file, ``MATCH_SEED`` so every match deals the
same cards) and plays whole games against the computer (easy) in Debian's chromium
(``/usr/bin/chromium``, headless, through Playwright) on an emulated phone: 390×844, touch, the
main thread slowed by CDP's ``Emulation.setCPUThrottlingRate`` (``--cpu``: 4 is a mid-range phone,
1 this machine). The person taps a legal card (the same seeded choice for every run) at its index
corner with ``page.touchscreen.tap``; an auction is passed, a talon laid away, a summary closed.

Measured per play (a card tap whose card needs no marriage question), from the page itself:

- **tap → card in the trick**: from the tap's ``pointerdown`` (its event time) to the first
  animation frame after the card is in the felt's trick (a ``MutationObserver`` sees it; the frame
  is when it is painted);
- **drawn before the answer**: the card was in the trick before the state that answers the play
  (the first ``state`` whose events hold my ``card_played``) reached the page's socket;
- **layouts** and **main-thread task time** per play: CDP ``Performance.getMetrics``
  (``LayoutCount``, ``RecalcStyleCount``, ``TaskDuration``) from just before the tap to two frames
  after both the card is drawn and the answer arrived;
- **longest task**: the longest ``longtask`` entry (PerformanceObserver) inside a play's window.

``--compare <ref>`` also serves the client and server of an older commit (a ``git worktree`` of it
in a temporary folder, with its own server and database) and runs old and new alternated in one
run, so that both see the same machine load; the table prints them side by side with the load
average. ``--new <ref>`` serves that commit as the new side instead of the working tree (editing
may go on while it runs: a served checkout's edited file shows at the next page load). Not a
timed test: the figures depend on the machine (the goals of issue 42 are printed for reading,
never asserted).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking"]
PHONE = {"width": 390, "height": 844}
MATCH_SEED = "6"
GAMES = {2: None, 3: "bidding", 4: "thousand4"}  # the lobby's `create-variant` (two seats: the computer form)

# Installed before the page's own scripts: watches the tap, the trick and the socket.
PROBE = """
(() => {
  const B = (window.__bench = { cur: null, longtasks: [] });
  document.addEventListener('pointerdown', (e) => {
    if (B.cur && B.cur.t0 === null) B.cur.t0 = e.timeStamp;
  }, true);
  const seen = () => {
    const c = B.cur;
    if (!c || c.inserted !== null || c.t0 === null) return;
    const where = `[data-testid="trick"] [data-card="${c.card}"]`;
    if (!document.querySelector(where)) return;
    c.inserted = performance.now();
    requestAnimationFrame(() => { c.drawn = performance.now(); });
  };
  new MutationObserver(seen).observe(document, { childList: true, subtree: true });
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) B.longtasks.push([e.startTime, e.duration]);
    }).observe({ type: 'longtask', buffered: true });
  } catch (e) { /* no longtask timing */ }
  const Native = window.WebSocket;
  class Watched extends Native {
    constructor(...args) {
      super(...args);
      // added before the page's own listener: the time is the message's arrival in the page
      this.addEventListener('message', (e) => {
        const c = B.cur;
        if (!c || c.answer !== null) return;
        let m;
        try { m = JSON.parse(e.data); } catch { return; }
        if (!m || m.type !== 'state' || !m.view || !Array.isArray(m.events)) return;
        const mine = (x) => x && x.kind === 'card_played' && x.card === c.card && x.seat === m.view.seat;
        if (m.events.some(mine)) c.answer = performance.now();
      });
    }
  }
  window.WebSocket = Watched;
})();
"""

SNAPSHOT = """() => {
  const q = (s) => document.querySelector(s);
  const shown = (el) => Boolean(el && el.getClientRects().length && getComputedStyle(el).visibility !== 'hidden');
  const cards = (sel) => [...document.querySelectorAll(sel)].map((e) => e.dataset.card);
  const table = q('[data-testid=table-page]');
  return {
    version: table && table.dataset.version ? Number(table.dataset.version) : -1,
    over: Boolean(q('[data-testid=match-over]')),
    summary: shown(q('[data-testid=deal-summary-close]')),
    dialog: Boolean(q('[data-testid=declare-dialog]')),
    pass: shown(q('[data-testid=pass]')) && !q('[data-testid=pass]').disabled,
    discard: shown(q('[data-testid=discard-submit]')),
    legal: cards('[data-testid="hand"] button[data-legal="true"]:not([disabled])'),
    declarable: cards('[data-testid="hand"] button[data-declarable="true"]:not([disabled])'),
  };
}"""


@dataclass
class Play:
    tap_ms: float  # pointerdown → the frame after the card is in the trick
    before_answer: bool
    layouts: int
    styles: int
    task_s: float
    longest_ms: float


@dataclass
class Run:
    label: str
    seats: int
    cpu: float
    plays: list[Play] = field(default_factory=list)
    load: float = 0.0


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Server:
    """The app of one checkout (``root``) on its own port and SQLite file."""

    def __init__(self, root: Path, folder: Path, bot_delay: float) -> None:
        self.root = root
        self.folder = folder
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        db = f"sqlite:///{folder / 'bench.db'}"
        self.env = {
            **os.environ,
            "PYTHONPATH": str(root),
            "DATABASE_URL": db,
            "BOT_DELAY_S": str(bot_delay),
            "MATCH_SEED": MATCH_SEED,
            "RATE_LIMIT_INTENTS": "100000",
            "REST_LIMITS": "0",
            "MAX_OPEN_TABLES": "1000",
            "MAX_SOCKETS_PER_ADDRESS": "100000",
        }
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        migrate = "from backend.db.migrate import upgrade; import os; upgrade(os.environ['DATABASE_URL'])"
        subprocess.run([sys.executable, "-c", migrate], cwd=self.root, env=self.env, check=True)
        command = [
            sys.executable, "-m", "uvicorn", "backend.api.app:create_app", "--factory",
            "--host", "127.0.0.1", "--port", str(self.port), "--log-level", "warning",
        ]  # fmt: skip
        log = (self.folder / "server.log").open("ab")
        self.process = subprocess.Popen(command, cwd=self.root, env=self.env, stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError((self.folder / "server.log").read_text()[-3000:])
            try:
                if httpx.get(f"{self.url}/api/health", timeout=1).status_code == 200:
                    httpx.get(f"{self.url}/", timeout=10)  # warm: the first page builds the static bundle
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        raise RuntimeError("the server did not start")

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=20)


def new_table(page: Any, seats: int) -> None:
    page.goto("/")
    page.get_by_test_id("name-input").fill("Bench")
    page.get_by_test_id("save-name").click()
    page.goto("/#/")
    if seats == 2:
        page.get_by_test_id("opt-opponent-computer").check()
        page.get_by_test_id("opt-bot-level").select_option("easy")
    else:
        page.get_by_test_id("create-variant").select_option(GAMES[seats])
        if page.get_by_test_id("create-seats").count():
            seat_select = page.get_by_test_id("create-seats")
            if seat_select.is_visible() and seat_select.is_enabled():
                options = seat_select.evaluate("s => [...s.options].map(o => o.value)")
                if str(seats) in options:
                    seat_select.select_option(str(seats))
        page.get_by_test_id("create-computer-seats").select_option(str(seats - 1))
        page.get_by_test_id("opt-bot-level").select_option("easy")
    page.get_by_test_id("opt-target").select_option("301")
    page.get_by_test_id("create-table").click()
    page.get_by_test_id("ring").wait_for(timeout=30_000)


def tap_point(page: Any, card: str) -> tuple[float, float] | None:
    """The card's index corner as a thumb taps it, if the card itself is there; else its middle."""
    found: list[float] | None = page.evaluate(
        """(card) => {
          const b = document.querySelector(`[data-testid="hand"] button[data-card="${card}"]`);
          if (!b) return null;
          const r = b.getBoundingClientRect();
          for (const [x, y] of [[r.left + 14, r.top + 14], [r.left + r.width / 2, r.top + r.height / 2]]) {
            const hit = document.elementFromPoint(x, y);
            if (hit && hit.closest('button') === b) return [x, y];
          }
          return null;
        }""",
        card,
    )
    return (found[0], found[1]) if found else None


def metrics(cdp: Any) -> dict[str, float]:
    return {m["name"]: float(m["value"]) for m in cdp.send("Performance.getMetrics")["metrics"]}


def measure_play(page: Any, cdp: Any, card: str, point: tuple[float, float]) -> Play | None:
    page.evaluate(
        "(card) => { window.__bench.cur = { card, t0: null, inserted: null, drawn: null, answer: null }; }", card
    )
    m0 = metrics(cdp)
    page.touchscreen.tap(point[0], point[1])
    try:
        page.wait_for_function(
            "() => { const c = window.__bench.cur; return c.t0 !== null && c.drawn !== null && c.answer !== null; }",
            timeout=30_000,
            polling=20,
        )
    except Exception:
        return None
    page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(null))))")
    m1 = metrics(cdp)
    cur = page.evaluate(
        """() => {
          const B = window.__bench, c = B.cur;
          B.cur = null;
          const end = performance.now();
          const longest = Math.max(0, ...B.longtasks.filter(([s, d]) => s + d >= c.t0 && s <= end).map(([, d]) => d));
          return { ...c, longest };
        }"""
    )
    return Play(
        tap_ms=float(cur["drawn"] - cur["t0"]),
        before_answer=bool(cur["inserted"] < cur["answer"]),
        layouts=int(m1.get("LayoutCount", 0) - m0.get("LayoutCount", 0)),
        styles=int(m1.get("RecalcStyleCount", 0) - m0.get("RecalcStyleCount", 0)),
        task_s=float(m1.get("TaskDuration", 0) - m0.get("TaskDuration", 0)),
        longest_ms=float(cur["longest"]),
    )


def play_game(browser: Any, server: Server, seats: int, cpu: float, plays: int, seed: int) -> list[Play]:
    """One person against the computer until ``plays`` plays are measured or the match is over."""
    context = browser.new_context(
        viewport=PHONE, base_url=server.url, has_touch=True, is_mobile=True, reduced_motion="no-preference"
    )
    context.set_default_timeout(30_000)
    context.add_init_script(PROBE)
    page = context.new_page()
    out: list[Play] = []
    try:
        new_table(page, seats)
        cdp = context.new_cdp_session(page)
        cdp.send("Performance.enable", {"timeDomain": "threadTicks"})
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": cpu})
        rng = random.Random(seed)
        deadline = time.monotonic() + 60 + plays * 30
        while len(out) < plays and time.monotonic() < deadline:
            now = page.evaluate(SNAPSHOT)
            if now["over"]:
                break
            if not answer_other_than_a_card(page, now) and now["legal"]:
                plain = [c for c in now["legal"] if c not in now["declarable"]]
                if not plain:  # only a marriage to play: asked, not measured
                    point = tap_point(page, now["legal"][0])
                    if point:
                        page.touchscreen.tap(*point)
                    page.wait_for_timeout(100)
                    continue
                card = plain[rng.randrange(len(plain))]
                point = tap_point(page, card)
                if point is None:
                    page.wait_for_timeout(50)
                    continue
                play = measure_play(page, cdp, card, point)
                if play:
                    out.append(play)
            page.wait_for_timeout(40)
    finally:
        context.close()
    return out


def answer_other_than_a_card(page: Any, now: dict[str, Any]) -> bool:
    """What the table asks of the person besides a card (a marriage question, a deal's summary, the
    auction, the talon), answered the same way every run; False when it asks none of these."""
    if now["dialog"]:
        page.get_by_test_id("declare-yes").click()
    elif now["summary"]:
        page.get_by_test_id("deal-summary-close").click()
    elif now["pass"]:
        page.get_by_test_id("pass").click()
    elif now["discard"]:
        cards = page.locator('[data-testid="hand"] button.card')
        cards.nth(0).click()
        cards.nth(1).click()
        page.get_by_test_id("discard-submit").click()
    else:
        return False
    return True


def load_average() -> float:
    return os.getloadavg()[0]


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


def summary(run: list[Run]) -> dict[str, Any]:
    plays = [p for r in run for p in r.plays]
    if not plays:
        return {"plays": 0}
    taps = [p.tap_ms for p in plays]
    return {
        "plays": len(plays),
        "median_ms": statistics.median(taps),
        "p95_ms": pct(taps, 0.95),
        "before_answer": f"{sum(p.before_answer for p in plays)}/{len(plays)}",
        "layouts": statistics.median(p.layouts for p in plays),
        "styles": statistics.median(p.styles for p in plays),
        "task_s": statistics.median(p.task_s for p in plays),
        "longest_ms": max(p.longest_ms for p in plays),
        "load": statistics.mean(r.load for r in run),
    }


ROWS = (
    ("plays", "plays measured", "{:.0f}"),
    ("median_ms", "tap → in trick, median ms", "{:.0f}"),
    ("p95_ms", "tap → in trick, p95 ms", "{:.0f}"),
    ("before_answer", "drawn before the answer", "{}"),
    ("layouts", "layouts per play (median)", "{:.0f}"),
    ("styles", "style passes per play (median)", "{:.0f}"),
    ("task_s", "main-thread task s per play (median)", "{:.3f}"),
    ("longest_ms", "longest task in a play, ms", "{:.0f}"),
    ("load", "load average (1 min)", "{:.2f}"),
)


def print_table(results: list[Run], labels: list[str]) -> None:
    keys = sorted({(r.seats, r.cpu) for r in results}, key=lambda k: (k[0], -k[1]))
    for seats, cpu in keys:
        print(f"\n{seats} seats, CPU {cpu:g}×")
        cols = {
            label: summary([r for r in results if r.label == label and (r.seats, r.cpu) == (seats, cpu)])
            for label in labels
        }
        print(f"  {'':38}" + "".join(f"{label:>16}" for label in labels))
        for key, name, fmt in ROWS:
            cells = []
            for label in labels:
                value = cols[label].get(key)
                cells.append(f"{(fmt.format(value) if value is not None else '-'):>16}")
            print(f"  {name:38}" + "".join(cells))
    print(
        "\nGoals (issue 42; read, not asserted): p95 ≤ 100 ms at 4×, ≤ 50 ms at 1×; every play drawn before the answer;"
        " median layouts ≤ 4; median task ≤ 0.3 s at four seats 4×; no task over 50 ms at 1×."
    )


def checkout(ref: str, folder: Path, name: str) -> Path:
    target = folder / f"{name}-tree"
    subprocess.run(
        ["git", "-C", str(ROOT), "worktree", "add", "--detach", str(target), ref], check=True, capture_output=True
    )
    return target


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seats", type=int, nargs="+", default=[2, 4], choices=[2, 3, 4])
    parser.add_argument("--cpu", type=float, nargs="+", default=[4.0, 1.0], help="CPU slow-down rates")
    parser.add_argument("--plays", type=int, default=24, help="plays measured per game")
    parser.add_argument("--rounds", type=int, default=1, help="games per checkout, seat count and rate")
    parser.add_argument("--compare", metavar="REF", help="also run this git ref, alternated with the working tree")
    parser.add_argument("--new", metavar="REF", help="run this git ref as the new side instead of the working tree")
    parser.add_argument("--bot-delay", type=float, default=0.8, help="the computer's pause before its card (s)")
    parser.add_argument("--json", type=Path, help="write every play's figures here")
    args = parser.parse_args()
    # a stopped run (SIGTERM) still stops its servers and removes its checkouts (the finally below)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))

    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory(prefix="table-speed-") as tmp:
        folder = Path(tmp)
        new_root = checkout(args.new, folder, "new") if args.new else ROOT
        roots: dict[str, Path] = {"new": new_root}
        if args.compare:
            roots = {"old": checkout(args.compare, folder, "old"), "new": new_root}
        servers: dict[str, Server] = {}
        results: list[Run] = []
        try:
            for label, root in roots.items():
                (folder / label).mkdir(exist_ok=True)
                servers[label] = Server(root, folder / label, args.bot_delay)
                servers[label].start()
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                try:
                    labels = list(roots)
                    step = 0
                    for r in range(args.rounds):
                        for seats in args.seats:
                            for cpu in args.cpu:
                                order = labels if step % 2 == 0 else labels[::-1]  # alternated: old, new, new, old …
                                step += 1
                                for label in order:
                                    run = Run(label, seats, cpu, load=load_average())
                                    run.plays = play_game(browser, servers[label], seats, cpu, args.plays, seed=100 + r)
                                    results.append(run)
                                    s = summary([run])
                                    print(
                                        f"[{label}] {seats} seats {cpu:g}×: {s.get('plays')} plays,"
                                        f" p95 {s.get('p95_ms', 0):.0f} ms, load {run.load:.2f}",
                                        flush=True,
                                    )
                finally:
                    browser.close()
        finally:
            for server in servers.values():
                server.stop()
            for root in roots.values():
                if root != ROOT:
                    subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(root)], check=False)
        labels = list(roots)
        if args.compare:
            print(f"\nold = {args.compare}, new = {args.new or f'the working tree ({ROOT})'}")
        print_table(results, labels)
        if args.json:
            args.json.write_text(json.dumps([{**asdict(r)} for r in results], indent=1))


if __name__ == "__main__":
    main()
