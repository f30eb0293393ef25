"""bench/analysis.py runs from a checkout (uninstalled) and prints one row per game asked for, with its
CPU figures and shares of exact and forced ratings (issue 26)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def test_analysis_bench_prints_a_row_per_game(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-I", str(REPO / "bench" / "analysis.py"), "--deals", "1", "--games", "thousand4,twohand"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    header, *rows = done.stdout.splitlines()
    assert header.split()[:2] == ["game", "deal"] and header.split()[-3:] == ["exact", "forced", "given"]
    assert [row.split()[0] for row in rows] == ["thousand4", "twohand"]
    for row in rows:
        cells = row.split()
        assert float(cells[1]) > 0 and cells[6].endswith("%") and cells[7].endswith("%")
