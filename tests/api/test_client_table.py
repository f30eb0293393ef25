"""The client's pure logic under node: the table's store, the hand's layout, the n-seat helpers and
the replay's frames (``frontend/js/table/``), and the race chart's numbers (``frontend/js/components/``).
Skipped where node is not installed."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def test_table_store_and_layout_pass_their_node_tests() -> None:
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    result = subprocess.run(
        [node, "--test", "frontend/js/table/", "frontend/js/components/"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
    assert "# fail 0" in result.stdout and "# pass 0" not in result.stdout
