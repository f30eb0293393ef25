"""A finished match of any game downloads as replay-CLI documents that reproduce every stored deal
(issue 12), and its frames show every position (R7: every card once the match is over); who may
read a replay follows who could watch the table."""

from __future__ import annotations

import asyncio
import json
import random
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest

from backend.engine import Rules
from tests.support.client import Player, create_table, play_moves
from tests.support.services import ServerProcess
from tests.support.table_replay import check_cli_result, check_match_replay
from tests.support.tables import play_some, play_to_the_end, table

ROOT = Path(__file__).resolve().parents[2]


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


# Two-hand 1001 (R3 `by_order` declarations, R4's stock) and V7 for four (V0.6 auction, V0.7 talon
# and discard, V6): whole matches of people only.
DOWNLOADED = [
    pytest.param("twohand", 2, {"declaration_scoring": "by_order"}, id="twohand"),
    pytest.param("bidding", 4, {"jungfrau": True}, id="bidding4"),
]


@pytest.mark.parametrize(("variant", "seats", "options"), DOWNLOADED)
async def test_a_downloaded_match_replays_through_the_cli_command_to_the_stored_results(
    shared_server: ServerProcess, variant: str, seats: int, options: dict[str, Any]
) -> None:
    people = await table(shared_server, variant, seats, 301, people=seats, visibility="private", **options)
    anna = people[0]
    match_id = anna.state["room"]["match_id"]  # type: ignore[index]
    for path in _replay_paths(match_id):
        running = await anna.player.request("GET", path)
        assert running.status_code == 409 and running.json()["detail"]["code"] == "match_in_progress"

    await play_to_the_end(people, random.Random(12))
    download = await check_match_replay(anna.player, match_id, seats, variant)  # every deal and its frames
    assert download == await people[1].player.get(f"/api/matches/{match_id}/replay")
    assert [p["id"] for p in download["players"]] == [seat.player.id for seat in people]
    deals = download["deals"]
    assert [d["number"] for d in deals] == list(range(len(deals))) and len(deals) >= 2
    assert deals[-1]["result"]["totals"] == anna.view["totals"]
    rules = Rules(variant, seats=seats, target=301, **options)
    for deal in deals:
        document, result = deal["replay"], deal["result"]
        out = await _cli(document)
        assert out == check_cli_result(document, result)  # the command prints what run() gives
        assert document["rules"] == rules.to_dict()  # the CLI's rules, the table's options
        assert len(document["deal"]["hands"]) == seats
        if rules.two_hand:  # R2: the stock, top first; the totals before the deal are not two-hand's
            assert len(document["deal"]["stock"]) == 8 and "talon" not in document["deal"]
            assert "totals" not in document
        else:
            assert len(document["deal"]["talon"]) == 2 and "stock" not in document["deal"]
            assert document["totals"] == (deals[deal["number"] - 1]["result"]["totals"] if deal["number"] else [0] * 4)
        for action in document["actions"]:  # exactly the CLI's keys, nothing null
            assert set(action) in ({"seat", "play", "declare"}, {"seat", "bid"}, {"seat", "pass"}, {"seat", "discard"})
            assert None not in action.values()

    missing = await anna.player.request("GET", f"/api/matches/{match_id}/deals/{len(deals)}/replay")
    assert missing.status_code == 404


@pytest.mark.parametrize(("variant", "seats"), [("twohand", 2), ("thousand3", 3)])
async def test_r6_2_v0_10a_a_resigned_match_keeps_the_deal_it_cut_short(
    shared_server: ServerProcess, variant: str, seats: int
) -> None:
    """The deal a resignation cut short comes last with no result, and the CLI and the frames show
    where it stopped. Two-hand 1001 and V4 play 24 cards a deal (no auction; V4 has no talon: none in
    the documents, [] in the frames); the target of 1001 is out of one deal's reach."""
    people = await table(shared_server, variant, seats, 1001, people=seats)
    assert await play_some(people, random.Random(5), 31) == 31  # into the second deal
    resigned = await people[0].resign()
    assert resigned["type"] == "state" and resigned["view"]["end_reason"] == "resign"
    match_id = resigned["room"]["match_id"]
    download = await check_match_replay(people[1].player, match_id, seats, variant)
    deals = download["deals"]
    assert len(deals) == 2 and deals[0]["result"] is not None and deals[-1]["result"] is None
    assert sum(len(d["replay"]["actions"]) for d in deals) == 31
    last = deals[-1]
    assert "talon" not in last["replay"]["deal"]
    out = await _cli(last["replay"])
    assert out["deal_over"] is False and out["turn"] is not None
    frames = (await people[1].player.get(f"/api/matches/{match_id}/deals/{last['number']}/replay"))["frames"]
    assert frames[-1]["hands"] == out["hands"] and frames[-1]["turn"] == out["turn"]
    assert all(frame["talon"] == [] and not frame["talon_taken"] and frame["phase"] == "play" for frame in frames)


async def _match_id(player: Player) -> str:
    page = await player.get("/api/matches")
    match_id: str = page["items"][0]["id"]
    return match_id


def _replay_paths(match_id: str) -> tuple[str, str]:
    return f"/api/matches/{match_id}/replay", f"/api/matches/{match_id}/deals/0/replay"


async def _anonymous_get(base_url: str, path: str, **params: str) -> httpx.Response:
    """A visitor with no account: no token, no cookie."""
    async with httpx.AsyncClient(base_url=base_url) as http:
        return await http.get(path, params=params)


def _refused(answer: httpx.Response, code: str = "match_not_found") -> bool:
    return answer.status_code == (404 if code == "match_not_found" else 409) and answer.json()["detail"]["code"] == code


async def test_a_private_match_replays_for_its_players_and_its_watch_link_only(shared_server: ServerProcess) -> None:
    anna, ben = await create_table(shared_server.url, shared_server.ws_url, {"visibility": "private"})
    match_id = await _match_id(anna.player)
    code = (await anna.player.post(f"/api/rooms/{anna.room_id}/watch-link"))["code"]
    carl = await Player(shared_server.url, "Carl").register()
    for path in _replay_paths(match_id):  # the watch code does not open a match being played
        assert _refused(await _anonymous_get(shared_server.url, path, code=code), "match_in_progress")
        assert _refused(await carl.request("GET", path))

    await play_moves((anna, ben), random.Random(3), max_moves=5)
    assert (await anna.intent({"type": "resign"}))["type"] == "state"
    for path in _replay_paths(match_id):
        assert await anna.player.get(path) == await ben.player.get(path)
        for refused in (
            await carl.request("GET", path),  # a stranger with an account
            await _anonymous_get(shared_server.url, path),  # a stranger without one
            await _anonymous_get(shared_server.url, path, code="0" * len(code)),  # a wrong code
            await _anonymous_get(shared_server.url, path, code="é" * 5),  # not even ASCII
        ):
            assert _refused(refused), refused.text
        watched = await _anonymous_get(shared_server.url, path, code=code)
        assert watched.status_code == 200 and watched.json() == await anna.player.get(path)
        assert await carl.get(path, params={"code": code}) == watched.json()


async def test_a_public_match_replays_for_anyone_once_it_is_over(shared_server: ServerProcess) -> None:
    anna, ben = await create_table(shared_server.url, shared_server.ws_url)  # tables are public by default
    match_id = await _match_id(anna.player)
    for path in _replay_paths(match_id):
        assert _refused(await _anonymous_get(shared_server.url, path), "match_in_progress")

    await play_moves((anna, ben), random.Random(4), max_moves=5)
    assert (await ben.intent({"type": "resign"}))["type"] == "state"
    carl = await Player(shared_server.url, "Carl").register()
    for path in _replay_paths(match_id):
        anonymous = await _anonymous_get(shared_server.url, path)
        assert anonymous.status_code == 200 and anonymous.json() == await anna.player.get(path)
        assert await carl.get(path) == anonymous.json()
    room = (await _anonymous_get(shared_server.url, _replay_paths(match_id)[0])).text
    assert (await anna.player.get(f"/api/rooms/{anna.room_id}"))["invite_code"] not in room
    assert _refused(await _anonymous_get(shared_server.url, "/api/matches/no-such-match/replay"))


async def test_a_table_that_forbids_watching_replays_for_its_players_only(shared_server: ServerProcess) -> None:
    anna, ben = await create_table(shared_server.url, shared_server.ws_url, {"spectators": False})
    match_id = await _match_id(anna.player)
    code = (await anna.player.post(f"/api/rooms/{anna.room_id}/watch-link"))["code"]
    await play_moves((anna, ben), random.Random(5), max_moves=5)
    assert (await anna.intent({"type": "resign"}))["type"] == "state"
    for path in _replay_paths(match_id):
        assert (await ben.player.request("GET", path)).status_code == 200
        # a public table whose players turned watching off is no more open afterwards than live
        assert _refused(await _anonymous_get(shared_server.url, path))
        assert _refused(await _anonymous_get(shared_server.url, path, code=code))
