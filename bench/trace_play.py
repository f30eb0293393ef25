"""One play traced: where a tapped card's time goes on a phone (issue 42, point 3).

    python bench/trace_play.py [--seats 4] [--cpu 4] [--plays 3] [--out trace.json]

Serves the working tree like ``bench/table_speed.py`` (same server, phone, seeded match and probe),
plays until ``--plays`` cards of mine were tapped, and records a Chrome trace (CDP ``Tracing``)
of each play from just before the tap to two frames after the card is drawn and the answer arrived.
Prints, per play, the main thread's events from the tap on: the input events (pointerdown, pointerup,
click: when each began after the pointerdown and how long its handler ran), every style pass
(``UpdateLayoutTree``: elements restyled) and layout (``Layout``: objects laid out of the total, and
the root it began at), and paints, with their durations; then the sums. ``--out`` keeps the last
trace for chrome://tracing or Perfetto.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from table_speed import (
    CHROMIUM,
    CHROMIUM_ARGS,
    PHONE,
    PROBE,
    ROOT,
    SNAPSHOT,
    Server,
    answer_other_than_a_card,
    new_table,
    tap_point,
)

CATEGORIES = "devtools.timeline,disabled-by-default-devtools.timeline,blink.user_timing,v8.execute"


def trace_play(page: Any, cdp: Any, card: str, point: tuple[float, float]) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = []
    done: dict[str, bool] = {"done": False}

    def collect(params: dict[str, Any]) -> None:
        events.extend(params.get("value", []))

    def complete(_params: dict[str, Any]) -> None:
        done["done"] = True

    cdp.on("Tracing.dataCollected", collect)
    cdp.on("Tracing.tracingComplete", complete)
    cdp.send("Tracing.start", {"categories": CATEGORIES, "transferMode": "ReportEvents"})
    cdp.send("Profiler.enable")
    cdp.send("Profiler.setSamplingInterval", {"interval": 200})
    cdp.send("Profiler.start")
    page.evaluate(
        "(card) => { window.__bench.cur = { card, t0: null, inserted: null, drawn: null, answer: null }; }", card
    )
    page.touchscreen.tap(point[0], point[1])
    page.wait_for_function(
        "() => { const c = window.__bench.cur; return c.t0 !== null && c.drawn !== null && c.answer !== null; }",
        timeout=30_000,
        polling=20,
    )
    page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(null))))")
    profile = cdp.send("Profiler.stop")["profile"]
    cdp.send("Tracing.end")
    deadline = time.monotonic() + 30
    while not done["done"] and time.monotonic() < deadline:
        page.wait_for_timeout(50)
    cur = page.evaluate("() => { const c = window.__bench.cur; window.__bench.cur = null; return c; }")
    drawn, answer = cur["drawn"] - cur["t0"], cur["answer"] - cur["t0"]
    print(f"\nplay {card}: tap → drawn {drawn:.0f} ms, answer at +{answer:.0f} ms")
    print("  script self time by function (CPU profile, ms): " + ", ".join(f"{k} {v:.1f}" for k, v in hot(profile)))
    return events


def hot(profile: dict[str, Any], top: int = 14) -> list[tuple[str, float]]:
    """The functions that ran longest themselves in a CPU profile (samples × their interval)."""
    nodes = {n["id"]: n for n in profile["nodes"]}
    deltas = profile.get("timeDeltas", [])
    self_ms: dict[str, float] = {}
    for sample, delta in zip(profile.get("samples", []), [*deltas[1:], 0], strict=False):
        frame = nodes[sample]["callFrame"]
        url = frame.get("url", "").rsplit("/", 1)[-1]
        name = (
            f"{frame.get('functionName') or '(anonymous)'}@{url}:{frame.get('lineNumber', 0) + 1}"
            if url
            else frame["functionName"]
        )
        self_ms[name] = self_ms.get(name, 0) + delta / 1000
    return sorted(self_ms.items(), key=lambda kv: -kv[1])[:top]


def report(events: list[dict[str, Any]]) -> dict[str, float]:
    names = {(e["pid"], e["tid"]): e["args"]["name"] for e in events if e.get("name") == "thread_name"}
    main = [k for k, v in names.items() if v == "CrRendererMain"]
    mine = [e for e in events if (e.get("pid"), e.get("tid")) in main and e.get("ph") in ("X", "B", "E")]
    mine.sort(key=lambda e: e["ts"])
    # B/E pairs as complete events
    stack: dict[str, list[dict[str, Any]]] = {}
    spans: list[dict[str, Any]] = []
    for e in mine:
        if e["ph"] == "X":
            spans.append(e)
        elif e["ph"] == "B":
            stack.setdefault(e["name"], []).append(e)
        elif stack.get(e["name"]):
            b = stack[e["name"]].pop()
            spans.append({**b, "dur": e["ts"] - b["ts"], "endArgs": e.get("args", {})})
    kind = lambda s: s.get("args", {}).get("data", {}).get("type")  # noqa: E731
    down = [s for s in spans if s["name"] == "EventDispatch" and kind(s) == "pointerdown"]
    t0 = down[0]["ts"] if down else (spans[0]["ts"] if spans else 0)
    sums: dict[str, float] = {}
    for s in sorted(spans, key=lambda s: s["ts"]):
        if s["ts"] < t0:
            continue
        name = s["name"]
        dur = s.get("dur", 0) / 1000
        at = (s["ts"] - t0) / 1000
        data = s.get("args", {}).get("data", {}) or {}
        if name == "EventDispatch":
            kind = data.get("type")
            if kind in ("pointerdown", "pointerup", "click", "touchstart", "touchend", "message"):
                print(f"  +{at:7.1f} ms  {kind:<16} {dur:6.1f} ms")
                sums[f"event {kind}"] = sums.get(f"event {kind}", 0) + dur
        elif name == "UpdateLayoutTree":
            count = s.get("args", {}).get("elementCount") or (s.get("endArgs", {}) or {}).get("elementCount")
            print(f"  +{at:7.1f} ms  style pass       {dur:6.1f} ms  elements {count}")
            sums["style"] = sums.get("style", 0) + dur
        elif name == "Layout":
            begin = s.get("args", {}).get("beginData", {}) or {}
            end = s.get("endArgs", {}).get("endData", {}) or s.get("args", {}).get("endData", {}) or {}
            print(
                f"  +{at:7.1f} ms  layout           {dur:6.1f} ms  dirty {begin.get('dirtyObjects')}"
                f" of {begin.get('totalObjects')} partial {begin.get('partialLayout')}"
                f" root {end.get('layoutRoots', [{}])[0].get('nodeId') if end.get('layoutRoots') else '?'}"
            )
            sums["layout"] = sums.get("layout", 0) + dur
            sums["layouts"] = sums.get("layouts", 0) + 1
        elif name in ("Paint", "PrePaint", "Layerize", "UpdateLayer", "CompositeLayers", "Commit"):
            sums[name] = sums.get(name, 0) + dur
        elif name == "RunTask" and dur > 8:
            print(f"  +{at:7.1f} ms  task             {dur:6.1f} ms")
            sums["tasks>8ms"] = sums.get("tasks>8ms", 0) + dur
    print("  sums: " + ", ".join(f"{k} {v:.1f}" for k, v in sums.items()))
    return sums


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seats", type=int, default=4, choices=[2, 3, 4])
    parser.add_argument("--cpu", type=float, default=4.0)
    parser.add_argument("--plays", type=int, default=3)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory(prefix="table-trace-") as tmp:
        server = Server(ROOT, Path(tmp), 0.8)
        server.start()
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                context = browser.new_context(
                    viewport=PHONE, base_url=server.url, has_touch=True, is_mobile=True, reduced_motion="no-preference"
                )
                context.set_default_timeout(30_000)
                context.add_init_script(PROBE)
                page = context.new_page()
                new_table(page, args.seats)
                cdp = context.new_cdp_session(page)
                cdp.send("Emulation.setCPUThrottlingRate", {"rate": args.cpu})
                rng = random.Random(100)
                traced = 0
                last: list[dict[str, Any]] = []
                deadline = time.monotonic() + 120 + args.plays * 30
                while traced < args.plays and time.monotonic() < deadline:
                    now = page.evaluate(SNAPSHOT)
                    if now["over"]:
                        break
                    if not answer_other_than_a_card(page, now) and now["legal"]:
                        plain = [c for c in now["legal"] if c not in now["declarable"]] or now["legal"]
                        card = plain[rng.randrange(len(plain))]
                        point = tap_point(page, card)
                        if point is not None:
                            last = trace_play(page, cdp, card, point)
                            report(last)
                            traced += 1
                    page.wait_for_timeout(40)
                if args.out and last:
                    args.out.write_text(json.dumps({"traceEvents": last}))
                browser.close()
        finally:
            server.stop()


if __name__ == "__main__":
    main()
