"""The bot runner's real worker processes (issue 41): the computer's moves, the hints and the ratings each
have a pool of their own, every process forked from the fork server (never from the running server)
with the search core already in memory, and the hints' and the ratings' processes at a lower CPU
priority than the moves'."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator

import pytest

from backend.rooms.bots import BACKGROUND_NICE, ProcessBotRunner


def core_loaded() -> bool:
    """Runs in a worker: was the search core there before this task asked for it?"""
    return "backend.search.core" in sys.modules


@pytest.fixture
def runner() -> Iterator[ProcessBotRunner]:
    bots = ProcessBotRunner(workers=1, hint_workers=1, analysis_workers=1)
    try:
        yield bots
    finally:
        bots.shutdown()


def test_each_kind_of_task_has_its_own_processes_forked_from_the_fork_server(runner: ProcessBotRunner) -> None:
    moves, hints, ratings = runner._started()
    pids = [pool.submit(os.getpid).result(timeout=120) for pool in (moves, hints, ratings)]
    assert len(set(pids)) == 3  # three pools, three processes: a hint never holds a move's process
    parents = {pool.submit(os.getppid).result(timeout=120) for pool in (moves, hints, ratings)}
    assert len(parents) == 1 and os.getpid() not in parents  # all from one fork server, not this process
    assert all(pool.submit(core_loaded).result(timeout=120) for pool in (moves, hints, ratings))


def test_the_hints_and_the_ratings_run_at_a_lower_priority_than_the_moves(runner: ProcessBotRunner) -> None:
    moves, hints, ratings = runner._started()
    mine = os.nice(0)
    assert moves.submit(os.nice, 0).result(timeout=120) == mine
    lower = min(mine + BACKGROUND_NICE, 19)
    assert hints.submit(os.nice, 0).result(timeout=120) == lower
    assert ratings.submit(os.nice, 0).result(timeout=120) == lower
