"""bench/engine_bench.py runs from a checkout (uninstalled) and ends with ``deals_per_second=N``."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def test_engine_bench_last_line(tmp_path):
    done = subprocess.run(
        [sys.executable, "-I", "-S", str(REPO / "bench" / "engine_bench.py"), "--seconds", "0.3"],
        capture_output=True,
        text=True,
        cwd=tmp_path,  # -S: no site-packages, so not the installed package; the script finds the engine itself
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    last = done.stdout.splitlines()[-1]
    assert re.fullmatch(r"deals_per_second=\d+", last)
    assert int(last.split("=")[1]) > 0
