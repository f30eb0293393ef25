"""bench/engine_bench.py runs from a checkout (uninstalled), prints one line per game of three and four,
and ends with two-hand 1001's ``deals_per_second=N``."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
GAMES = {("mcleod", 3), ("rassel", 3), ("thousand3", 3), ("thousand4", 4), ("bidding", 3), ("bidding", 4)}


def test_engine_bench_last_line(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-I", "-S", str(REPO / "bench" / "engine_bench.py"), "--seconds", "0.3"],
        capture_output=True,
        text=True,
        cwd=tmp_path,  # -S: no site-packages, so not the installed package; the script finds the engine itself
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    last = lines[-1]
    assert re.fullmatch(r"deals_per_second=\d+", last)
    assert int(last.split("=")[1]) > 0
    per_game = [re.fullmatch(r"game=(\w+) .*seats=(\d) .*deals_per_second=(\d+)", line) for line in lines[:-1]]
    rates = {(m[1], int(m[2])): int(m[3]) for m in per_game if m}
    assert set(rates) == GAMES
    assert all(rate > 0 for rate in rates.values())
