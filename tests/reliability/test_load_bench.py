"""bench/load.py keeps working: a tiny run against the real server and the echo app, with no errors."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]


def test_load_bench_smoke(tmp_path: Path) -> None:
    out = tmp_path / "load.json"
    command = [sys.executable, "bench/load.py", "--rooms", "4", "--seconds", "1.5", "--warmup", "0.5"]
    command += ["--think", "0.2", "--client-procs", "1", "--target", "301", "--json", str(out)]
    finished = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert finished.returncode == 0, finished.stdout + finished.stderr
    report = json.loads(out.read_text())
    game, echo = report["game"], report["echo"]
    assert game["errors"] == {} and game["server_log_errors"] == 0 and echo["errors"] == {}
    assert game["moves"] > 10 and echo["moves"] > 10
    assert game["p99_ms"] > 0 and report["ratio_p99"] > 0
    assert game["server_kb_per_room"] > 0


def test_load_bench_memory_steps_smoke(tmp_path: Path) -> None:
    """``--memory``: RSS per room at each count on one server, and the echo app's, in one run."""
    out = tmp_path / "memory.json"
    command = [sys.executable, "bench/load.py", "--memory", "2,4", "--step-seconds", "0.5", "--warmup", "0.3"]
    command += ["--think", "0.2", "--client-procs", "1", "--target", "301", "--json", str(out)]
    finished = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=180)
    assert finished.returncode == 0, finished.stdout + finished.stderr
    report = json.loads(out.read_text())
    for side in ("game", "echo"):
        first, second = report[side]["memory"]["steps"]
        assert (first["rooms"], second["rooms"]) == (2, 4) and not first["errors"] and not second["errors"]
        assert "kb_per_added_room" in second
    assert "memory at 4 rooms: 1001 server" in finished.stdout
