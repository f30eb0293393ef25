"""REST: players, the lobby, invites, joining races and leaving (on SQLite and PostgreSQL)."""

from __future__ import annotations

import asyncio
from datetime import datetime, timedelta
from typing import Any

import httpx
import pytest
from pydantic import TypeAdapter

from backend.engine import Rules
from tests.support.client import Player, Seat
from tests.support.services import ServerProcess


async def test_players_and_who_am_i(shared_server: ServerProcess) -> None:
    async with httpx.AsyncClient(base_url=shared_server.url) as http:
        created = await http.post("/api/players", json={"name": "  Anna  "})
        assert created.status_code == 201
        body = created.json()
        assert body["name"] == "Anna" and len(body["token"]) >= 43
        me = await http.get("/api/me", headers={"Authorization": f"Bearer {body['token']}"})
        assert me.json() == {"id": body["id"], "name": "Anna"}
    async with httpx.AsyncClient(base_url=shared_server.url, cookies={"token": body["token"]}) as http:
        assert (await http.get("/api/me")).status_code == 200
    async with httpx.AsyncClient(base_url=shared_server.url) as http:
        assert (await http.get("/api/me")).status_code == 401
        assert (await http.get("/api/me", headers={"Authorization": "Bearer nope"})).status_code == 401
        for bad in ["", "   ", "x" * 25, "tab\there", None, 5]:
            answer = await http.post("/api/players", json={"name": bad})
            assert answer.status_code == 422, bad
        assert (await http.post("/api/players", json={"name": "Ann", "admin": True})).status_code == 422
        assert (await http.post("/api/players", content=b"{not json")).status_code == 422


async def test_public_and_private_tables_in_the_lobby(shared_server: ServerProcess) -> None:
    anna = await Player(shared_server.url, "Anna").register()
    ben = await Player(shared_server.url, "Ben").register()
    public = await anna.post("/api/rooms", json={"target": 501, "stake_per_point": "0.01", "currency": "EUR"})
    private = await anna.post("/api/rooms", json={"visibility": "private", "declaration_scoring": "by_order"})
    assert public["players"][0]["name"] == "Anna" and public["players"][1] is None
    assert public["options"]["stake_per_point"] == "0.01" and public["options"]["target"] == 501

    listed = await ben.get("/api/rooms")
    ids = [room["id"] for room in listed]
    assert public["id"] in ids and private["id"] not in ids
    assert all(room["invite_code"] is None for room in listed)  # only seated players see invite codes

    assert (await ben.request("GET", f"/api/rooms/{private['id']}")).status_code == 404
    assert (await ben.request("POST", f"/api/rooms/{private['id']}/join")).status_code == 404
    invite = await ben.get(f"/api/invites/{private['invite_code']}")
    assert invite["id"] == private["id"] and invite["options"]["declaration_scoring"] == "by_order"
    joined = await ben.post(f"/api/invites/{private['invite_code']}/join")
    assert joined["status"] == "playing" and joined["players"][1]["name"] == "Ben"
    assert (await ben.request("GET", "/api/invites/nope")).status_code == 404

    mine = await anna.get("/api/rooms/mine")
    assert {room["id"] for room in mine} == {public["id"], private["id"]}


RULES_FIELDS = {
    "variant",
    "seats",
    "target",
    "scoring",
    "jungfrau",
    "open_scores",
    "declaration_scoring",
    "show_stock_bottom",
    "deck_size",
}


@pytest.mark.parametrize(
    ("body", "rules"),
    [
        pytest.param({"target": 501, "deck_size": 32}, Rules(target=501, deck_size=32), id="twohand-v1"),
        pytest.param(
            {"variant": "thousand3", "scoring": "simplified"}, Rules("thousand3", scoring="simplified"), id="v4"
        ),
        pytest.param(
            {"variant": "bidding", "seats": 4, "jungfrau": True}, Rules("bidding", seats=4, jungfrau=True), id="v7"
        ),
    ],
)
async def test_every_table_shows_its_whole_rules_in_one_shape(
    shared_server: ServerProcess, body: dict[str, Any], rules: Rules
) -> None:
    """Protocol 2: ``room.options`` and ``view.rules`` carry every rules field in every game — two-hand
    1001 with ``variant: "twohand"``, a variant with two-hand's own options at their defaults."""
    expected = TypeAdapter(Rules).dump_python(rules, mode="json")
    assert set(expected) == RULES_FIELDS
    people = [await Player(shared_server.url, name).register() for name in ("Anna", "Ben", "Cleo", "Dan")[: rules.n]]
    room = await people[0].post("/api/rooms", json=body)
    assert {key: room["options"][key] for key in RULES_FIELDS} == expected
    [listed] = [r for r in await people[1].get("/api/rooms") if r["id"] == room["id"]]  # the lobby's copy
    assert listed["options"] == room["options"]
    # What room.options says is a body that makes the same game again (variant "twohand" included).
    again = await people[0].post("/api/rooms", json={key: room["options"][key] for key in RULES_FIELDS})
    assert {key: again["options"][key] for key in RULES_FIELDS} == expected
    await people[0].post(f"/api/rooms/{again['id']}/leave")
    for player in people[1:]:
        await player.post(f"/api/invites/{room['invite_code']}/join")
    seat = Seat(people[0], room["id"], shared_server.ws_url)
    state = await seat.connect()
    assert state["view"]["rules"] == expected and state["room"]["options"] == room["options"]
    assert state["view"]["deal"]["variant"] == rules.variant and len(state["view"]["totals"]) == rules.n
    await seat.close()


async def test_table_options_are_validated(shared_server: ServerProcess) -> None:
    anna = await Player(shared_server.url, "Anna").register()
    for bad in [
        {"target": 1000},
        {"declaration_scoring": "by_mood"},
        {"stake_per_point": "-1"},
        {"stake_per_point": "abc"},
        {"currency": ""},
        {"visibility": "secret"},
        {"reconnect_grace_s": 1},
        {"unknown": 1},
        {"pace": "5d"},  # R6.3: live or 1, 2, 3, 7 days per move, nothing else
        {"pace": 1},
        {"pace": "1D"},
    ]:
        answer = await anna.request("POST", "/api/rooms", json=bad)
        assert answer.status_code == 422, bad
    assert (await httpx.AsyncClient(base_url=shared_server.url).post("/api/rooms", json={})).status_code == 401


async def test_r6_3_a_turn_based_table_shows_its_pace_turn_and_deadline_in_the_lobby(
    shared_server: ServerProcess,
) -> None:
    anna = await Player(shared_server.url, "Anna").register()
    ben = await Player(shared_server.url, "Ben").register()
    created = await anna.post("/api/rooms", json={"pace": "2d", "target": 501})
    assert created["options"]["pace"] == "2d" and created["turn"] is None and created["turn_deadline"] is None
    listed = {room["id"]: room for room in await ben.get("/api/rooms")}
    assert listed[created["id"]]["options"]["pace"] == "2d"
    joined = await ben.post(f"/api/rooms/{created['id']}/join")
    assert joined["status"] == "playing" and joined["turn"] in (0, 1)
    [mine] = [room for room in await anna.get("/api/rooms/mine") if room["id"] == created["id"]]
    # Read from the room row (no room in memory is needed): the seat on turn and its deadline.
    assert mine["turn"] == joined["turn"] and mine["turn_deadline"] == joined["turn_deadline"]
    started = datetime.fromisoformat(mine["created_at"])
    deadline = datetime.fromisoformat(mine["turn_deadline"])
    assert timedelta(days=2) <= deadline - started < timedelta(days=2, minutes=5)
    live = await anna.post("/api/rooms", json={})
    assert live["options"]["pace"] == "live" and live["turn_deadline"] is None


async def test_two_players_racing_for_one_seat_get_one_seat_and_one_clear_error(shared_server: ServerProcess) -> None:
    anna = await Player(shared_server.url, "Anna").register()
    racers = [await Player(shared_server.url, f"Racer {i}").register() for i in range(6)]
    room = await anna.post("/api/rooms", json={})
    answers = await asyncio.gather(*(r.request("POST", f"/api/rooms/{room['id']}/join") for r in racers))
    codes = sorted(a.status_code for a in answers)
    assert codes == [200] + [409] * 5
    assert {a.json()["detail"]["code"] for a in answers if a.status_code == 409} == {"room_full"}
    seated = (await anna.get(f"/api/rooms/{room['id']}"))["players"][1]["id"]
    assert seated in {r.id for r in racers}


async def test_join_own_table_and_leave(shared_server: ServerProcess) -> None:
    anna = await Player(shared_server.url, "Anna").register()
    ben = await Player(shared_server.url, "Ben").register()
    room = await anna.post("/api/rooms", json={})
    own = await anna.request("POST", f"/api/rooms/{room['id']}/join")
    assert own.status_code == 409 and own.json()["detail"]["code"] == "already_seated"
    assert (await ben.request("POST", f"/api/rooms/{room['id']}/leave")).status_code == 403
    assert (await anna.request("POST", f"/api/rooms/{room['id']}/leave")).status_code == 204
    assert room["id"] not in [r["id"] for r in await ben.get("/api/rooms")]
    assert (await ben.request("POST", f"/api/rooms/{room['id']}/join")).status_code == 404

    started = await anna.post("/api/rooms", json={})
    await ben.post(f"/api/rooms/{started['id']}/join")
    late = await anna.request("POST", f"/api/rooms/{started['id']}/leave")
    assert late.status_code == 409 and late.json()["detail"]["code"] == "room_started"


async def test_history_is_private_and_paged(shared_server: ServerProcess) -> None:
    anna = await Player(shared_server.url, "Anna").register()
    ben = await Player(shared_server.url, "Ben").register()
    cleo = await Player(shared_server.url, "Cleo").register()
    room = await anna.post("/api/rooms", json={})
    joined = await ben.post(f"/api/rooms/{room['id']}/join")
    page = await anna.get("/api/matches?limit=5")
    assert page["total"] == 1 and page["items"][0]["status"] == "playing"
    match_id = joined["match_id"]
    assert (await cleo.request("GET", f"/api/matches/{match_id}")).status_code == 404
    assert (await cleo.get("/api/matches"))["total"] == 0
    assert (await anna.request("GET", "/api/matches?limit=0")).status_code == 422
    assert (await anna.request("GET", "/api/matches?offset=-1")).status_code == 422
    assert (await anna.get(f"/api/matches/{match_id}"))["deals"] == []  # nothing of a live deal is shown


async def test_health_and_the_client_are_served(shared_server: ServerProcess) -> None:
    async with httpx.AsyncClient(base_url=shared_server.url) as http:
        assert (await http.get("/api/health")).json() == {"status": "ok", "database": "ok"}
        page = await http.get("/")
        assert page.status_code == 200 and "<html" in page.text.lower()
        assert (await http.get("/openapi.json")).json()["info"]["title"] == "1001 online"


async def test_an_invitation_tells_who_invites_to_what_before_a_name_is_chosen(shared_server: ServerProcess) -> None:
    """``GET /api/invites/{code}/preview`` needs no player: the host's name, the game, target and
    stake, the seats taken — and nothing to reach the table or anyone by (no id, no code)."""
    anna = await Player(shared_server.url, "Anna").register()
    room = await anna.post(
        "/api/rooms",
        json={
            "variant": "mcleod",
            "target": 501,
            "stake_per_point": "0.05",
            "currency": "EUR",
            "visibility": "private",
        },
    )
    async with httpx.AsyncClient(base_url=shared_server.url) as http:
        answer = await http.get(f"/api/invites/{room['invite_code']}/preview")
        assert answer.status_code == 200
        preview = answer.json()
        assert preview["host"] == "Anna" and preview["seats_taken"] == 1 and preview["status"] == "open"
        assert preview["options"]["variant"] == "mcleod" and preview["options"]["seats"] == 3
        assert (preview["options"]["target"], preview["options"]["stake_per_point"]) == (501, "0.05")
        assert preview["options"]["currency"] == "EUR"
        for secret in (room["id"], room["invite_code"], anna.id, anna.token):
            assert secret not in answer.text
        unknown = await http.get("/api/invites/nope/preview")
        assert unknown.status_code == 404 and unknown.json()["detail"]["code"] == "room_not_found"
