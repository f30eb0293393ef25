""" "My games" (issue 45): ``GET /api/me/games`` and the lobby stream's ``games`` and ``tables`` events,
which replace the lobby's polling — on a real server, over real sockets, on SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import httpx

from tests.support.client import Player, Seat
from tests.support.lobby_stream import LobbyStream
from tests.support.services import ServerProcess


def ws_url(server: ServerProcess) -> str:
    return server.url.replace("http", "ws", 1)


async def turn_based_table(server: ServerProcess, anna: Player, ben: Player) -> tuple[dict[str, Any], Seat, Seat]:
    room = await anna.post("/api/rooms", json={"pace": "1d", "visibility": "private"})
    await ben.post(f"/api/invites/{room['invite_code']}/join")
    seats = Seat(anna, room["id"], ws_url(server)), Seat(ben, room["id"], ws_url(server))
    for seat in seats:
        assert (await seat.connect())["view"] is not None  # the match began with the join
    return room, *seats


def ids(games: dict[str, Any]) -> list[str]:
    return [game["room"]["id"] for game in games["games"]]


async def test_my_games_lists_the_players_turn_first_with_the_time_left_then_the_others_then_open_tables(
    shared_server: ServerProcess,
) -> None:
    anna, ben, cleo = [await Player(shared_server.url, n).register() for n in ("Anna", "Ben", "Cleo")]
    waiting = await anna.post("/api/rooms", json={"visibility": "public"})  # nobody joined yet
    with_ben, a1, b1 = await turn_based_table(shared_server, anna, ben)
    with_cleo, a2, c2 = await turn_based_table(shared_server, anna, cleo)
    on_turn = {with_ben["id"]: (a1, b1), with_cleo["id"]: (a2, c2)}

    games = await anna.get("/api/me/games")
    mine = [g["room"]["id"] for g in games["games"] if g["my_turn"]]
    theirs = [g["room"]["id"] for g in games["games"] if not g["my_turn"] and g["room"]["status"] == "playing"]
    assert ids(games) == [*mine, *theirs, waiting["id"]] and games["waiting"] == len(mine)
    assert sorted(mine + theirs) == sorted(on_turn)
    for game in games["games"]:
        room = game["room"]
        assert game["seat"] == [p and p["id"] for p in room["players"]].index(anna.id)
        if room["status"] == "playing":
            assert game["my_turn"] == (room["turn"] == game["seat"])
            left = datetime.fromisoformat(room["turn_deadline"]) - datetime.fromisoformat(room["created_at"])
            assert timedelta(days=1) <= left < timedelta(days=1, minutes=5)
            assert game["last_move"] is None  # nothing played yet
    # Ben sees only his table; nobody else's.
    assert ids(await ben.get("/api/me/games")) == [with_ben["id"]]
    async with httpx.AsyncClient(base_url=shared_server.url) as http:
        assert (await http.get("/api/me/games")).status_code == 401

    # The one on turn at Ben's table plays: both lobbies are sent their games again, with the move.
    anna_sees = await LobbyStream(anna, ticket=True).open()
    ben_sees = await LobbyStream(ben).open()
    try:
        [first] = anna_sees.named("games")
        assert ids(first) == ids(games)
        [tables] = anna_sees.named("tables")
        assert waiting["id"] in [r["id"] for r in tables["open"]]
        names = [name for name, _ in anna_sees.events]
        assert names.index("games") < names.index("ready") and names.index("tables") < names.index("ready")

        mover = a1 if a1.my_turn() else b1
        card = mover.legal_cards[0]
        answer = await mover.intent({"type": "play", "card": card, "declare": False})
        assert answer["type"] == "state", answer

        def moved(name: str, data: dict[str, Any]) -> bool:
            return name == "games" and any(
                g["room"]["id"] == with_ben["id"] and g["last_move"] is not None for g in data["games"]
            )

        for stream, who in ((anna_sees, anna), (ben_sees, ben)):
            after = await stream.wait_for(moved)
            [game] = [g for g in after["games"] if g["room"]["id"] == with_ben["id"]]
            assert game["last_move"]["kind"] == "play" and game["last_move"]["card"] == card
            assert game["last_move"]["seat"] == game["room"]["players"].index(
                next(p for p in game["room"]["players"] if p["id"] == mover.player.id)
            )
            assert game["my_turn"] == (game["room"]["turn"] == game["seat"])
            assert after["waiting"] == sum(g["my_turn"] for g in after["games"])
            assert who.id in [p["id"] for p in game["room"]["players"]]
        assert not [g for _, g in ben_sees.events if _ == "games" and with_cleo["id"] in ids(g)]

        # A new public table is sent to every open lobby as ``tables`` (no polling).
        dan = await Player(shared_server.url, "Dan").register()
        fresh = await dan.post("/api/rooms", json={"visibility": "public"})
        listed = await anna_sees.wait_for(lambda n, d: n == "tables" and fresh["id"] in [r["id"] for r in d["open"]])
        assert waiting["id"] in [r["id"] for r in listed["open"]]
    finally:
        await anna_sees.close()
        await ben_sees.close()
        for seat in (a1, b1, a2, c2):
            await seat.close()
