"""A player's own account (issue 23): sign out every other device, or delete the account — finished
matches then show "Deleted player", and the stakes ledger keeps its rows for the other player."""

from __future__ import annotations

import httpx

from backend.db.common import DELETED_NAME
from tests.support.client import Player
from tests.support.services import ServerProcess
from tests.support.tables import table


async def _device(server: ServerProcess, player: Player) -> Player:
    link = await player.post("/api/device-links", headers={"Origin": server.url})
    async with httpx.AsyncClient(base_url=server.url) as http:
        redeemed = (await http.post("/api/device-links/redeem", json={"code": link["code"]})).json()
    return Player(server.url, player.name, redeemed["id"], redeemed["token"])


async def _status(player: Player, path: str = "/api/me") -> int:
    return (await player.request("GET", path)).status_code


async def test_signing_out_other_devices_keeps_only_this_one(shared_server: ServerProcess) -> None:
    laptop = await Player(shared_server.url, "Anna").register()
    phone, tablet = await _device(shared_server, laptop), await _device(shared_server, laptop)
    unused_link = await laptop.post("/api/device-links", headers={"Origin": shared_server.url})

    assert await phone.post("/api/me/sign-out-others") == {"devices": 2}  # the laptop and the tablet
    assert [await _status(device) for device in (phone, laptop, tablet)] == [200, 401, 401]
    async with httpx.AsyncClient(base_url=shared_server.url) as http:
        late = await http.post("/api/device-links/redeem", json={"code": unused_link["code"]})
    assert late.status_code == 404  # a link not yet used signs nobody in any more
    assert await phone.post("/api/me/sign-out-others") == {"devices": 0}
    assert await phone.get("/api/me") == {"id": laptop.id, "name": "Anna"}


async def test_a_deleted_account_leaves_its_matches_and_ledger_to_the_others(shared_server: ServerProcess) -> None:
    anna, ben = await table(shared_server, "twohand", 2, 1001, 2, stake_per_point="0.5")
    await anna.resign()
    await ben.wait_for(lambda m: m["type"] == "state" and m["view"]["end_reason"] is not None)
    for seat in (anna, ben):
        await seat.close()
    open_table = await anna.player.post("/api/rooms", json={"target": 1001})
    ledger_before = await ben.player.get("/api/ledger")

    gone = await anna.player.request("DELETE", "/api/me")
    assert gone.status_code == 204
    assert await _status(anna.player) == 401
    assert all(room["id"] != open_table["id"] for room in await ben.player.get("/api/rooms"))
    [match] = (await ben.player.get("/api/matches"))["items"]
    names = {player["id"]: player["name"] for player in match["players"]}
    assert names == {anna.player.id: DELETED_NAME, ben.player.id: "Ben"}
    ledger_after = await ben.player.get("/api/ledger")
    assert len(ledger_after) == len(ledger_before) == 1
    assert ledger_after[0]["opponent_id"] == anna.player.id and ledger_after[0]["opponent_name"] == DELETED_NAME
    assert ledger_after[0]["balance"] == ledger_before[0]["balance"]


async def test_an_account_cannot_be_deleted_in_the_middle_of_a_match(shared_server: ServerProcess) -> None:
    anna, ben = await table(shared_server, "twohand", 2, 1001, 2)
    refused = await anna.player.request("DELETE", "/api/me")
    assert refused.status_code == 409 and refused.json()["detail"]["code"] == "room_started"
    assert await _status(anna.player) == 200
    assert anna.state is not None and anna.state["view"]["end_reason"] is None
    for seat in (anna, ben):
        await seat.close()
