"""The three faults under load at a small size (bench/faults.py; docs/reliability.md, "Faults"): a
Redis restart from empty, the busiest owner paused for twice the lease, a PostgreSQL crash
(`pg_ctl -m immediate`), each with intents in flight. A private redis-server and a private
PostgreSQL cluster (initdb in a temporary folder), loopback only; the shared services are not
touched. Every goal count must be 0 and every room must move again after each fault; how fast is
the benchmark's figure, not asserted here."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.services import missing_service

pytestmark = [pytest.mark.slow, pytest.mark.redis, pytest.mark.postgres]

ROOT = Path(__file__).resolve().parents[2]
NO_PRIVATE_POSTGRES = 77  # bench/faults.py's exit status when no initdb is found


@pytest.mark.timeout(600)
def test_three_faults_under_load_leave_every_answer_true_and_every_room_moving() -> None:
    command = [sys.executable, "bench/faults.py", "--rooms", "4", "--processes", "2", "--pace", "0.5"]
    command += ["--warm", "4", "--recover", "8", "--settle", "20"]
    finished = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=580)
    if finished.returncode == NO_PRIVATE_POSTGRES:
        missing_service(finished.stderr.strip())
    assert finished.returncode == 0, finished.stdout[-3000:] + finished.stderr[-3000:]
    report = json.loads(finished.stdout)
    assert report["goals"] == dict.fromkeys(report["goals"], 0), report
    for fault, first in report["first_move_after_s"].items():
        assert first["rooms_moved"] == report["rooms"], (fault, report)
