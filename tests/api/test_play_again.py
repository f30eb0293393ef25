""" "Play again" (issue 27): recent opponents, a new private table with the same options for one of
them, and the lobby's event stream that shows the invitation at once (on SQLite and PostgreSQL)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.support.client import Player
from tests.support.lobby_stream import LobbyStream
from tests.support.services import ServerProcess, serving

# The fields of a table's options the next table takes over unchanged (``room.options``).
SAME = ("variant", "seats", "target", "scoring", "jungfrau", "open_scores", "declaration_scoring")
SAME += ("show_stock_bottom", "deck_size", "stake_per_point", "currency", "reconnect_grace_s", "spectators")


async def played(host: Player, guest: Player, options: dict[str, Any]) -> dict[str, Any]:
    """``host`` makes a table, ``guest`` joins it through its invite: a match between them begins."""
    room = await host.post("/api/rooms", json={"visibility": "private", **options})
    await guest.post(f"/api/invites/{room['invite_code']}/join")
    return dict(room)


async def friends(server: ServerProcess, *names: str) -> list[Player]:
    return [await Player(server.url, name).register() for name in names]


async def test_recent_opponents_are_people_each_once_newest_first_with_the_last_options(
    shared_server: ServerProcess,
) -> None:
    anna, ben, cleo = await friends(shared_server, "Anna", "Ben", "Cleo")
    await played(anna, ben, {"target": 501, "stake_per_point": "0.01", "currency": "EUR"})
    await played(cleo, anna, {"target": 301, "declaration_scoring": "by_order"})
    last_with_ben = await played(ben, anna, {"deck_size": 32, "show_stock_bottom": True, "reconnect_grace_s": 300})
    await anna.post("/api/rooms", json={"opponent": "computer", "bot_level": "easy"})  # a computer: never listed
    three = await played(anna, cleo, {"variant": "bidding", "seats": 3, "computer_seats": 1, "bot_level": "easy"})

    listed = await anna.get("/api/me/opponents")
    assert [(o["id"], o["name"]) for o in listed] == [(cleo.id, "Cleo"), (ben.id, "Ben")]
    assert listed[0]["room_id"] == three["id"] and listed[0]["options"]["variant"] == "bidding"
    assert listed[0]["options"]["computer_seats"] == [2]
    assert listed[1]["room_id"] == last_with_ben["id"]
    assert {k: listed[1]["options"][k] for k in SAME} == {k: last_with_ben["options"][k] for k in SAME}
    assert listed[0]["last_played"] > listed[1]["last_played"]
    assert [o["id"] for o in await ben.get("/api/me/opponents")] == [anna.id]
    async with httpx.AsyncClient(base_url=shared_server.url) as http:
        assert (await http.get("/api/me/opponents")).status_code == 401


async def test_the_invite_makes_a_private_table_with_the_same_options_and_the_friend_sees_it_at_once(
    shared_server: ServerProcess,
) -> None:
    anna, ben, dan = await friends(shared_server, "Anna", "Ben", "Dan")
    last = await played(
        ben, anna, {"target": 501, "stake_per_point": "0.05", "currency": "EUR", "visibility": "public"}
    )
    ben_sees = await LobbyStream(ben, ticket=True).open()
    stranger = await LobbyStream(dan).open()
    try:
        assert ben_sees.headers is not None and ben_sees.headers["content-type"].startswith("text/event-stream")
        assert ben_sees.headers["x-accel-buffering"] == "no" and "no-cache" in ben_sees.headers["cache-control"]

        answer = await anna.request("POST", f"/api/me/opponents/{ben.id}/invite")
        assert answer.status_code == 201, answer.text
        invited = answer.json()
        room = invited["room"]
        assert invited["invitee"] == {"id": ben.id, "name": "Ben"} and invited["online"] is True
        assert room["visibility"] == "private" and room["status"] == "open" and room["invite_code"]
        assert room["players"][0]["id"] == anna.id and room["players"][1] is None
        assert {k: room["options"][k] for k in SAME} == {k: last["options"][k] for k in SAME}
        assert room["id"] not in [r["id"] for r in await dan.get("/api/rooms")]  # private: not listed

        invitation = await ben_sees.wait_for(lambda name, _: name == "invitation")
        assert invitation["room_id"] == room["id"] and invitation["invite_code"] == room["invite_code"]
        assert invitation["inviter"] == {"id": anna.id, "name": "Anna"}
        assert invitation["options"] == room["options"]

        # The invitee joins through the invite: the table starts, and the invitation is done with.
        joined = await ben.post(f"/api/invites/{invitation['invite_code']}/join")
        assert joined["status"] == "playing"
        gone = await ben_sees.wait_for(lambda name, _: name == "invitation_gone")
        assert gone == {"room_id": room["id"], "reason": "accepted"}
        assert stranger.invitation_events() == ["ready"]  # a stranger's stream heard nothing

        # Only a recent opponent can be invited; a computer or a stranger cannot.
        refused = await anna.request("POST", f"/api/me/opponents/{dan.id}/invite")
        assert refused.status_code == 404 and refused.json()["detail"]["code"] == "opponent_unknown"
        assert (await anna.request("POST", "/api/me/opponents/bot_easy/invite")).status_code == 404
    finally:
        await ben_sees.close()
        await stranger.close()


async def test_a_waiting_invitation_comes_first_on_connect_and_not_now_dismisses_it(
    shared_server: ServerProcess,
) -> None:
    anna, ben = await friends(shared_server, "Anna", "Ben")
    await played(anna, ben, {"target": 301})
    invited = await anna.post(f"/api/me/opponents/{ben.id}/invite")
    assert invited["online"] is False  # Ben has no lobby open: he sees it when he opens one
    room_id = invited["room"]["id"]
    stream = await LobbyStream(ben).open()
    other_device = await LobbyStream(ben).open()
    try:
        assert stream.invitation_events() == ["invitation", "ready"]
        assert stream.events[0][1]["room_id"] == room_id
        assert (await ben.request("POST", f"/api/me/invitations/{room_id}/decline")).status_code == 204
        for device in (stream, other_device):
            gone = await device.wait_for(lambda name, _: name == "invitation_gone")
            assert gone == {"room_id": room_id, "reason": "declined"}
        again = await ben.request("POST", f"/api/me/invitations/{room_id}/decline")
        assert again.status_code == 404 and again.json()["detail"]["code"] == "invitation_unknown"
    finally:
        await stream.close()
        await other_device.close()
    reopened = await LobbyStream(ben).open()
    await reopened.close()
    assert reopened.invitation_events() == ["ready"]
    # The table is still Anna's, waiting (she can share its link another way).
    assert [r["status"] for r in await anna.get("/api/rooms/mine") if r["id"] == room_id] == ["open"]


async def test_at_a_table_of_three_the_invitation_lapses_for_whoever_takes_a_seat_then_when_it_starts(
    shared_server: ServerProcess,
) -> None:
    anna, ben, cleo, dan = await friends(shared_server, "Anna", "Ben", "Cleo", "Dan")
    three = await anna.post("/api/rooms", json={"variant": "bidding", "seats": 3, "visibility": "private"})
    for friend in (ben, cleo):
        await friend.post(f"/api/invites/{three['invite_code']}/join")
    ben_sees, cleo_sees = await LobbyStream(ben).open(), await LobbyStream(cleo).open()
    try:
        for_ben = (await anna.post(f"/api/me/opponents/{ben.id}/invite"))["room"]
        for_cleo = (await anna.post(f"/api/me/opponents/{cleo.id}/invite"))["room"]
        assert for_ben["options"]["variant"] == "bidding" and len(for_ben["players"]) == 3
        await ben_sees.wait_for(lambda name, _: name == "invitation")
        await cleo_sees.wait_for(lambda name, _: name == "invitation")
        # Ben takes a seat at his table, which still waits for a third: his invitation is done with.
        waiting = await ben.post(f"/api/invites/{for_ben['invite_code']}/join")
        assert waiting["status"] == "open"
        gone = await ben_sees.wait_for(lambda name, _: name == "invitation_gone")
        assert gone == {"room_id": for_ben["id"], "reason": "accepted"}
        # Dan fills Cleo's table through its link (shared by hand): it starts, and her invitation lapses.
        await dan.post(f"/api/invites/{for_cleo['invite_code']}/join")
        await ben.post(f"/api/invites/{for_cleo['invite_code']}/join")
        gone = await cleo_sees.wait_for(lambda name, _: name == "invitation_gone")
        assert gone == {"room_id": for_cleo["id"], "reason": "started"}
    finally:
        await ben_sees.close()
        await cleo_sees.close()


async def test_the_invitation_lapses_when_its_table_closes(shared_server: ServerProcess) -> None:
    anna, ben = await friends(shared_server, "Anna", "Ben")
    await played(ben, anna, {})
    stream = await LobbyStream(ben).open()
    try:
        room = (await anna.post(f"/api/me/opponents/{ben.id}/invite"))["room"]
        await stream.wait_for(lambda name, data: name == "invitation" and data["room_id"] == room["id"])
        await anna.post(f"/api/rooms/{room['id']}/leave")
        gone = await stream.wait_for(lambda name, _: name == "invitation_gone")
        assert gone == {"room_id": room["id"], "reason": "closed"}
    finally:
        await stream.close()


async def test_the_stream_needs_a_ticket_or_a_token_and_a_ticket_opens_one_stream(
    shared_server: ServerProcess,
) -> None:
    (anna,) = await friends(shared_server, "Anna")
    nobody = await LobbyStream(Player(shared_server.url, "Nobody")).open()
    assert nobody.status == 401
    ticket = (await anna.post("/api/socket-ticket"))["ticket"]
    first = await LobbyStream(anna).open(ticket=ticket)
    second = await LobbyStream(anna).open(ticket=ticket)
    try:
        assert first.status == 200 and first.named("ready")[0]["player_id"] == anna.id
        assert second.status == 401  # single use, as for a socket
    finally:
        await first.close()
        await second.close()


@pytest.fixture
def limited_server(tmp_path: Path) -> Any:
    limits = {"invites": {"player": [2, 60]}}
    with serving(
        "sqlite",
        tmp_path,
        REST_LIMITS="1",
        RATE_LIMITS=json.dumps(limits),
        MAX_OPEN_TABLES="1",
        MAX_SOCKETS_PER_ADDRESS="3",
        LOBBY_HEARTBEAT_S="0.2",
    ) as process:
        yield process


async def test_limits_open_tables_rate_streams_per_address_and_the_heartbeat(limited_server: ServerProcess) -> None:
    anna, ben = await friends(limited_server, "Anna", "Ben")
    await played(anna, ben, {})  # the match started: no open table left
    first = await anna.request("POST", f"/api/me/opponents/{ben.id}/invite")
    assert first.status_code == 201
    # A table like any other: counted against MAX_OPEN_TABLES (1 here).
    second = await anna.request("POST", f"/api/me/opponents/{ben.id}/invite")
    assert second.status_code == 409 and second.json()["detail"]["code"] == "too_many_tables"
    third = await anna.request("POST", f"/api/me/opponents/{ben.id}/invite")
    assert third.status_code == 429 and third.json()["detail"]["code"] == "rate_limited"
    assert int(third.headers["retry-after"]) >= 1

    streams = [await LobbyStream(ben).open() for _ in range(3)]
    try:
        refused = await LobbyStream(ben).open()
        assert refused.status == 429
        await streams[0].close()
        for _ in range(100):  # a closed stream gives its place back once the server has seen it go
            again = await LobbyStream(ben).open()
            if again.status == 200:
                break
            await again.close()
        streams[0] = again
        assert again.status == 200
        await again.wait_comment()
        assert again.comments[0] == ": heartbeat"
    finally:
        for stream in streams:
            await stream.close()
