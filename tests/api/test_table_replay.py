"""Replays of finished V2–V7 matches over a real server: the download's deal documents run through
``python -m backend.cli.replay -`` to the stored results, and a resignation's unfinished deal
replays too (ruling V0.10a). Every variant's whole match is checked the same way in
tests/api/test_variants.py (``check_match_replay``)."""

from __future__ import annotations

import asyncio
import json
import random
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.api.test_variants import choose, my_turn, play_to_the_end, table
from tests.support.services import ServerProcess, serving
from tests.support.table_replay import check_cli_result, check_match_replay

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with serving("sqlite", tmp_path_factory.mktemp("table_replay"), BOT_DELAY_S="0") as process:
        yield process


async def _cli(document: dict[str, Any]) -> dict[str, Any]:
    """``python -m backend.cli.replay -`` on one deal document: its exit 0 output."""
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "backend.cli.replay",
        "-",
        cwd=ROOT,
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await asyncio.wait_for(process.communicate(json.dumps(document).encode()), 60)
    assert process.returncode == 0, (process.returncode, out, err)
    answer: dict[str, Any] = json.loads(out)
    return answer


async def test_a_downloaded_1001_with_bidding_match_replays_through_the_cli_command(server: ServerProcess) -> None:
    """V0.6 auction, V0.7 talon and discard: each deal of the download, run by the CLI as a command,
    scores as the server stored it; R7: the download shows every hand and the talon as dealt."""
    [anna] = await table(server, "bidding", 4, 301, people=1, jungfrau=True)
    await play_to_the_end([anna], random.Random(41))
    match_id = anna.state["room"]["match_id"]  # type: ignore[index]
    download = await check_match_replay(anna.player, match_id, 4, "bidding")
    deals = download["deals"]
    assert deals[-1]["result"]["totals"] == anna.view["totals"]
    outs = await asyncio.gather(*(_cli(deal["replay"]) for deal in deals))
    for deal, out in zip(deals, outs, strict=True):
        document, result = deal["replay"], deal["result"]
        assert out == check_cli_result(document, result)  # the command prints what run() gives
        assert [s["score"] for s in out["result"]["seats"]] == result["score"]
        assert {k: out["result"][k] for k in ("declarer", "contract", "made", "thrown_in")} == {
            k: result[k] for k in ("declarer", "contract", "made", "thrown_in")
        }
        assert document["rules"] == {
            "variant": "bidding",
            "seats": 4,
            "target": 301,
            "scoring": "original",
            "jungfrau": True,
            "open_scores": False,
        }
        assert len(document["deal"]["hands"]) == 4 and len(document["deal"]["talon"]) == 2
        for action in document["actions"]:  # exactly the CLI's keys, nothing null
            assert set(action) in ({"seat", "play", "declare"}, {"seat", "bid"}, {"seat", "pass"}, {"seat", "discard"})
            assert None not in action.values()


async def test_a_resigned_table_match_replays_the_deal_it_cut_short(server: ServerProcess) -> None:
    """Ruling V0.10a: the one who resigns loses alone; the deal the resignation cut short comes last
    with no result, and the CLI and the frames show where it stopped. V4 has no talon: none in the
    documents, [] in the frames."""
    [anna] = await table(server, "thousand3", 3, 301, people=1)
    rng, moves = random.Random(7), 0
    while moves < 5:
        if not my_turn(anna):
            await asyncio.sleep(0.01)
            continue
        answer = await anna.intent(choose(anna.view, rng))
        moves += answer["type"] == "state"
    resigned = await anna.resign()  # the computers may have moved since: sent again if stale
    assert resigned["type"] == "state" and resigned["view"]["end_reason"] == "resign"
    match_id = resigned["room"]["match_id"]
    download = await check_match_replay(anna.player, match_id, 3, "thousand3")
    last = download["deals"][-1]
    assert last["result"] is None and last["replay"]["actions"]
    assert "talon" not in last["replay"]["deal"]
    out = await _cli(last["replay"])
    assert out["deal_over"] is False and out["phase"] == "play"
    frames = (await anna.player.get(f"/api/matches/{match_id}/deals/{last['number']}/replay"))["frames"]
    assert frames[-1]["hands"] == out["hands"] and frames[-1]["turn"] == out["turn"]
    assert all(frame["talon"] == [] and not frame["talon_taken"] for frame in frames)
