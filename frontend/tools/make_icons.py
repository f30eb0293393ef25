"""Draws the app icons (frontend/icons/*.png) from frontend/favicon.svg with Debian's chromium.

    .venv/bin/python frontend/tools/make_icons.py

Run once after changing the favicon; the PNGs are committed. ``icon-<n>.png`` is the favicon as it
is (transparent corners), ``maskable-512.png`` fills the square with the felt green and keeps the
card inside the safe circle that launchers crop to (80 % of the size).
"""

from __future__ import annotations

import re
from pathlib import Path

from playwright.sync_api import sync_playwright

FRONTEND = Path(__file__).resolve().parents[1]
CHROMIUM = "/usr/bin/chromium"


def maskable(svg: str) -> str:
    """The favicon on a full square, its content scaled to 80 % around the centre."""
    body = re.sub(r"^<svg[^>]*>|</svg>$", "", svg.strip())
    background = re.search(r'<rect width="64" height="64"[^>]*fill="([^"]+)"', body)
    fill = background.group(1) if background else "#0d4d2e"
    body = re.sub(r'<rect width="64" height="64"[^>]*/>', "", body, count=1)
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64">'
        f'<rect width="64" height="64" fill="{fill}"/>'
        f'<g transform="translate(32 32) scale(0.8) translate(-32 -32)">{body}</g></svg>'
    )


def main() -> None:
    svg = (FRONTEND / "favicon.svg").read_text()
    out = FRONTEND / "icons"
    out.mkdir(exist_ok=True)
    jobs = [(f"icon-{n}.png", svg, n) for n in (192, 512)] + [("maskable-512.png", maskable(svg), 512)]
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 512, "height": 512})
        for name, source, size in jobs:
            sized = source.replace("<svg ", f'<svg width="{size}" height="{size}" ', 1)
            page.set_content(f"<html><body style='margin:0;background:transparent'>{sized}</body></html>")
            page.locator("svg").screenshot(path=str(out / name), omit_background=True)
            print(out / name)
        browser.close()


if __name__ == "__main__":
    main()
