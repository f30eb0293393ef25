"""A finished match downloads as replay-CLI documents that reproduce every stored deal (issue 12)."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx

from tests.support.client import Player, Seat, create_table, play_moves
from tests.support.services import ServerProcess

ROOT = Path(__file__).resolve().parents[2]


def _cli(document: dict[str, Any]) -> dict[str, Any]:
    """Run ``python -m backend.cli.replay -`` on one deal document; its exit 0 output."""
    done = subprocess.run(
        [sys.executable, "-m", "backend.cli.replay", "-"],
        input=json.dumps(document),
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, (done.returncode, done.stdout, done.stderr)
    out: dict[str, Any] = json.loads(done.stdout)
    return out


async def _match_id(player: Player) -> str:
    page = await player.get("/api/matches")
    match_id: str = page["items"][0]["id"]
    return match_id


async def _check_deal_frames(player: Player, match_id: str, deal: dict[str, Any]) -> None:
    replay = await player.get(f"/api/matches/{match_id}/deals/{deal['number']}/replay")
    frames = replay["frames"]
    document = deal["replay"]
    assert len(frames) == len(document["actions"]) + 1
    assert [f["step"] for f in frames] == list(range(len(frames)))
    first, last = frames[0], frames[-1]
    assert sorted(first["hands"][0]) == sorted(document["deal"]["hands"][0])
    assert sorted(first["hands"][1]) == sorted(document["deal"]["hands"][1])
    assert first["stock_count"] == len(document["deal"]["stock"]) and first["action"] is None
    for frame, action in zip(frames[1:], document["actions"], strict=True):
        assert frame["action"] == {"seat": action["seat"], "card": action["play"], "declare": action["declare"]}
    result = deal["result"]
    assert replay["result"] == result
    if result is not None:
        assert last["deal_over"] and last["card_points"] == result["card_points"]
        assert last["score"] == result["score"] and last["declarations"] == result["declarations"]
        drawn = [card["card"] for frame in frames for card in frame["drawn"]]
        assert drawn == document["deal"]["stock"]  # phase 1 draws the whole stock, top first (R4)


def _replay_paths(match_id: str) -> tuple[str, str]:
    return f"/api/matches/{match_id}/replay", f"/api/matches/{match_id}/deals/0/replay"


async def _anonymous_get(base_url: str, path: str, **params: str) -> httpx.Response:
    """A visitor with no account: no token, no cookie."""
    async with httpx.AsyncClient(base_url=base_url) as http:
        return await http.get(path, params=params)


def _refused(answer: httpx.Response, code: str = "match_not_found") -> bool:
    return answer.status_code == (404 if code == "match_not_found" else 409) and answer.json()["detail"]["code"] == code


async def test_a_downloaded_match_replays_through_the_cli_to_the_stored_results(shared_server: ServerProcess) -> None:
    anna, ben = await create_table(
        shared_server.url,
        shared_server.ws_url,
        {"target": 301, "declaration_scoring": "by_order", "visibility": "private"},
    )
    match_id = await _match_id(anna.player)
    for path in (f"/api/matches/{match_id}/replay", f"/api/matches/{match_id}/deals/0/replay"):
        running = await anna.player.request("GET", path)
        assert running.status_code == 409 and running.json()["detail"]["code"] == "match_in_progress"

    await play_moves((anna, ben), random.Random(12))
    detail = await anna.player.get(f"/api/matches/{match_id}")
    download = await anna.player.get(f"/api/matches/{match_id}/replay")
    assert download == await ben.player.get(f"/api/matches/{match_id}/replay")
    assert download["match_id"] == match_id
    assert [p["id"] for p in download["players"]] == [anna.player.id, ben.player.id]
    deals = download["deals"]
    assert [d["number"] for d in deals] == [d["number"] for d in detail["deals"]] == list(range(len(deals)))
    assert len(deals) >= 2
    for deal, stored in zip(deals, detail["deals"], strict=True):
        assert deal["replay"]["rules"]["declaration_scoring"] == "by_order"
        out = _cli(deal["replay"])
        assert out["deal_over"] is True
        assert out["card_points"] == stored["card_points"] == deal["result"]["card_points"]
        assert out["declarations"] == stored["declarations"]
        assert out["score"] == stored["score"]
        await _check_deal_frames(anna.player, match_id, deal)
    assert deals[-1]["result"]["totals"] == anna.view["totals"]

    missing = await anna.player.request("GET", f"/api/matches/{match_id}/deals/{len(deals)}/replay")
    assert missing.status_code == 404


async def test_a_resigned_match_keeps_its_unfinished_deal(shared_server: ServerProcess) -> None:
    anna, ben = await create_table(shared_server.url, shared_server.ws_url)  # 1001: one deal cannot end it
    await play_moves((anna, ben), random.Random(5), max_moves=31)  # a deal is 24 plays: into the second
    seats: tuple[Seat, Seat] = (anna, ben)
    resigned = await seats[0].intent({"type": "resign"})
    assert resigned["type"] == "state"
    match_id = await _match_id(anna.player)
    detail = await anna.player.get(f"/api/matches/{match_id}")
    download = await ben.player.get(f"/api/matches/{match_id}/replay")
    deals = download["deals"]
    assert len(deals) == len(detail["deals"]) + 1 and deals[-1]["result"] is None
    played = sum(len(d["replay"]["actions"]) for d in deals)
    assert played == 31
    for deal in deals:
        out = _cli(deal["replay"])
        assert out["deal_over"] is (deal["result"] is not None)
        if deal["result"] is not None:
            assert out["score"] == deal["result"]["score"]
        await _check_deal_frames(ben.player, match_id, deal)


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
