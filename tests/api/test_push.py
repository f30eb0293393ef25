"""Web Push (issue 45) end to end: the real app on a real socket (uvicorn in the test's loop, so that
its clock is the test's: deadlines and reminders without sleeping), real SQLite and PostgreSQL, and
a loopback push service that checks every request's VAPID signature against the server's public
key and decrypts the payload as a browser's push service and browser would."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest

from backend.db.store import Store
from backend.push.store import PushRepository
from tests.support.app_server import AppServer, FakeClock, app_serving
from tests.support.client import Player, Seat
from tests.support.push_service import LoopbackPushService, PushSubscriber


async def _no_rater(*args: Any) -> Any:
    raise AssertionError("no analysis here")


@dataclass
class Site:
    server: AppServer
    clock: FakeClock
    push: LoopbackPushService
    repo: PushRepository

    async def player(self, name: str) -> Player:
        return await Player(self.server.url, name).register()

    async def subscribe(self, player: Player, name: str, lang: str = "en") -> PushSubscriber:
        sub = self.push.subscription(name)
        answer = await player.request("POST", "/api/me/push-subscriptions", json=sub.json(lang))
        assert answer.status_code == 201, answer.text
        return sub


@pytest.fixture
async def site(database_url: str, tmp_path: Path) -> AsyncIterator[Site]:
    push = await LoopbackPushService().start()
    clock = FakeClock(datetime.now(UTC).replace(microsecond=0))
    settings = {"push_services": [push.origin], "push_poll_s": 0.05, "push_backoff_s": 30.0}
    try:
        async with app_serving(database_url, tmp_path, clock=clock, rater=_no_rater, **settings) as server:
            async with httpx.AsyncClient(base_url=server.url) as http:
                push.server_key = (await http.get("/api/push/key")).json()["public_key"]
            store = Store(database_url)
            try:
                yield Site(server, clock, push, PushRepository(store.database))
            finally:
                store.dispose()
    finally:
        await push.stop()


async def turn_based(site: Site, anna: Player, ben: Player, pace: str = "1d") -> dict[str, Any]:
    """A turn-based table of Anna and Ben, nobody at it (no socket): the match starts with the join."""
    room = await anna.post("/api/rooms", json={"pace": pace, "visibility": "private"})
    joined: dict[str, Any] = await ben.post(f"/api/invites/{room['invite_code']}/join")
    assert joined["status"] == "playing" and joined["turn_deadline"] is not None
    return joined


def on_turn(room: dict[str, Any], players: dict[str, Player]) -> Player:
    return players[room["players"][room["turn"]]["id"]]


async def test_a_subscription_is_untrusted_input_only_known_push_services_and_sound_keys_are_kept(site: Site) -> None:
    anna = await site.player("Anna")
    good = site.push.subscription("good").json()
    host = site.push.origin.removeprefix("http://")

    def sub(**changes: Any) -> dict[str, Any]:
        keys = {**good["keys"], **changes.pop("keys", {})}
        return {**good, **changes, "keys": keys}

    bad = {
        "https, not http": sub(endpoint=f"https://{host}/push/x"),
        "another port": sub(endpoint="http://127.0.0.1:1/push/x"),
        "another host": sub(endpoint="https://evil.example/push/x"),
        "a look-alike host": sub(endpoint="https://fcm.googleapis.com.evil.example/x"),
        "user info": sub(endpoint=f"http://user@{host}/push/x"),
        "not a URL": sub(endpoint="javascript:alert(1)//"),
        "p256dh not a point": sub(keys={"p256dh": "B" + "A" * 86}),
        "p256dh not base64": sub(keys={"p256dh": "!" * 87}),
        "p256dh compressed": sub(keys={"p256dh": good["keys"]["p256dh"][:44]}),
        "auth too short": sub(keys={"auth": "AAAAAAAAAAAAAAAAAAAA"}),
        "no keys": {"endpoint": good["endpoint"]},
        "another language": sub(lang="xx"),
    }
    for why, body in bad.items():
        answer = await anna.request("POST", "/api/me/push-subscriptions", json=body)
        assert answer.status_code == 422, (why, answer.text)
        assert answer.json()["detail"]["code"] == "push_subscription_invalid", why
    oversized = await anna.request("POST", "/api/me/push-subscriptions", json={**good, "padding": "x" * 5000})
    assert oversized.status_code == 422 and "larger" in oversized.json()["detail"]["message"]
    assert site.repo.of_player(anna.id) == []  # nothing stored

    # The default allow-list (a server without the test's setting) names only the known services.
    from backend.api.push import allowed_endpoint
    from backend.settings import Settings

    services = Settings().push_services
    assert allowed_endpoint("https://fcm.googleapis.com/fcm/send/abc", services)
    assert allowed_endpoint("https://wns2-by3p.notify.windows.com/w/?token=1", services)
    assert not allowed_endpoint("https://a.b.notify.windows.com/w", services)
    assert not allowed_endpoint("http://fcm.googleapis.com/fcm/send/abc", services)
    assert not allowed_endpoint("https://127.0.0.1/x", services)

    # Ten devices, then 409; the same device again is the same subscription.
    for n in range(10):
        await site.subscribe(anna, f"device{n}")
    again = await anna.request("POST", "/api/me/push-subscriptions", json=site.push.subscriptions["device0"].json())
    assert again.status_code == 201
    answer = await anna.request("POST", "/api/me/push-subscriptions", json=site.push.subscription("eleventh").json())
    assert answer.status_code == 409 and answer.json()["detail"]["code"] == "too_many_subscriptions"
    assert len(site.repo.of_player(anna.id)) == 10
    endpoint = site.push.subscriptions["device3"].endpoint
    gone = await anna.request("DELETE", "/api/me/push-subscriptions", params={"endpoint": endpoint})
    assert gone.status_code == 204 and len(site.repo.of_player(anna.id)) == 9
    async with httpx.AsyncClient(base_url=site.server.url) as http:
        assert (await http.post("/api/me/push-subscriptions", json=good)).status_code == 401


async def test_your_turn_in_your_language_with_a_topic_per_table_a_ttl_within_the_time_left_and_a_reminder(
    site: Site,
) -> None:
    anna, ben = await site.player("Anna"), await site.player("Ben")
    subs = {anna.id: await site.subscribe(anna, "anna", "de"), ben.id: await site.subscribe(ben, "ben", "en")}
    room = await turn_based(site, anna, ben)
    first = on_turn(room, {anna.id: anna, ben.id: ben})
    got = await subs[first.id].next()
    payload, headers = got.payload, got.headers
    assert payload["kind"] == "turn" and payload["url"] == f"/#/table/{room['id']}" and payload["tag"] == room["id"]
    assert payload["title"] == ("Du bist dran" if first is anna else "Your turn")
    assert ("Gegen Ben" if first is anna else "Against Anna") in payload["body"]
    assert headers["topic"] == room["id"][:32]
    assert 86400 - 60 <= int(headers["ttl"]) <= 86400  # no longer than the time left (1 day per move)
    assert headers["urgency"] == "high"
    other = ben if first is anna else anna
    assert subs[other.id].received == []  # not the other's turn

    # The one on turn moves from an open table: the next person on turn is told unless at the table.
    seat = Seat(first, room["id"], site.server.ws_url)
    await seat.connect()
    started = time.perf_counter()
    answer = await seat.intent({"type": "play", "card": seat.legal_cards[0], "declare": False})
    assert answer["type"] == "state" and time.perf_counter() - started < 2
    now_on = answer["room"]["players"][answer["room"]["turn"]]["id"]
    if now_on == other.id:
        assert (await subs[other.id].next()).payload["kind"] == "turn"
    else:  # the same player again (a trick won): at the table, so no "your turn" for them
        await asyncio.sleep(0.3)
        assert [r.payload["kind"] for r in subs[first.id].received] == ["turn"]
    await seat.close()

    # Three quarters of the day pass: the person on turn is reminded (TTL: the quarter left), once;
    # the reminder of the turn that was played meanwhile is never sent.
    site.clock.advance(timedelta(hours=18, minutes=1))
    reminded = await subs[now_on].next()
    assert reminded.payload["kind"] == "reminder" and int(reminded.headers["ttl"]) <= 6 * 3600 - 60
    await asyncio.sleep(0.5)
    kinds = {pid: [r.payload["kind"] for r in sub.received] for pid, sub in subs.items()}
    assert sum(k.count("reminder") for k in kinds.values()) == 1, kinds
    assert site.push.refused == []
    assert site.repo.pending() == 0


async def test_a_match_end_reaches_the_player_away_and_an_invitation_the_player_not_in_the_lobby(
    site: Site,
) -> None:
    anna, ben = await site.player("Anna"), await site.player("Ben")
    subs = {anna.id: await site.subscribe(anna, "anna2"), ben.id: await site.subscribe(ben, "ben2", "ru")}
    room = await turn_based(site, anna, ben, "3d")
    await subs[on_turn(room, {anna.id: anna, ben.id: ben}).id].next()
    seat = Seat(anna, room["id"], site.server.ws_url)
    await seat.connect()
    assert (await seat.resign())["type"] == "state"
    end = await subs[ben.id].next()
    assert end.payload["kind"] == "end" and end.payload["title"] == "Партия окончена"
    assert "выиграли" in end.payload["body"]  # Ben won: Anna resigned
    await seat.close()
    assert [r.payload["kind"] for r in subs[anna.id].received if r.payload["kind"] == "end"] == []  # she was there

    # "Play again": Anna invites Ben, whose lobby is not open; the notification opens the invitation.
    answer = await anna.request("POST", f"/api/me/opponents/{ben.id}/invite")
    assert answer.status_code == 201 and answer.json()["online"] is False
    invite = await subs[ben.id].next()
    assert invite.payload["kind"] == "invite" and invite.payload["title"] == "Anna зовёт вас сыграть ещё"
    assert invite.payload["url"] == f"/#/invite/{answer.json()['room']['invite_code']}"


async def test_404_and_410_drop_the_subscription_500_is_retried_with_backoff_and_a_slow_service_delays_no_move(
    site: Site,
) -> None:
    anna, ben = await site.player("Anna"), await site.player("Ben")
    players = {anna.id: anna, ben.id: ben}
    room = await turn_based(site, anna, ben)  # before subscribing: the first turn is told to nobody
    other_room = await turn_based(site, anna, ben)
    slow = await site.subscribe(ben, "slow")
    slow.delay_s = 2.0

    # Anna resigns at the first table: Ben, away, is told — by a push service that takes 2 s to
    # answer; meanwhile every move is answered at once (the push is off the rooms' path).
    seat = Seat(anna, room["id"], site.server.ws_url)
    await seat.connect()
    started = time.perf_counter()
    assert (await seat.resign())["type"] == "state"
    assert time.perf_counter() - started < 1.0
    await seat.close()
    mover = on_turn(other_room, players)
    moving = Seat(mover, other_room["id"], site.server.ws_url)
    await moving.connect()
    started = time.perf_counter()
    reply = await moving.intent({"type": "play", "card": moving.legal_cards[0], "declare": False})
    assert reply["type"] == "state" and time.perf_counter() - started < 1.0
    assert slow.received == []  # still on its way
    await moving.close()
    assert (await slow.next(timeout=10)).payload["kind"] in ("end", "turn")

    # 500: kept, sent again once the backoff passed (the clock moves, nobody sleeps 30 s).
    flaky = {anna.id: await site.subscribe(anna, "flaky-a"), ben.id: await site.subscribe(ben, "flaky-b")}
    for sub in flaky.values():
        sub.status = 500
    third = await turn_based(site, anna, ben)
    retry = flaky[on_turn(third, players).id]
    for _ in range(100):
        if retry.answered:
            break
        await asyncio.sleep(0.05)
    assert retry.answered == [500] and site.repo.pending() >= 1
    retry.status = 201
    site.clock.advance(timedelta(seconds=20))
    await asyncio.sleep(0.3)
    assert retry.answered == [500]  # not before the backoff (30 s)
    site.clock.advance(timedelta(seconds=11))
    assert (await retry.next()).payload["kind"] == "turn"
    assert retry.answered == [500, 201]

    # 410 and 404: the subscription is dropped, with whatever waited for it.
    for status in (410, 404):
        lost = await site.subscribe(anna, f"lost{status}")
        lost.status = status
        again = await turn_based(site, ben, anna)
        if on_turn(again, players) is not anna:
            seat = Seat(ben, again["id"], site.server.ws_url)
            await seat.connect()
            while seat.my_turn():
                reply = await seat.intent({"type": "play", "card": seat.legal_cards[0], "declare": False})
                assert reply["type"] == "state"
            await seat.close()
        for _ in range(100):
            if lost.endpoint not in [s.endpoint for s in site.repo.of_player(anna.id)]:
                break
            await asyncio.sleep(0.05)
        assert lost.answered[:1] == [status]
        assert lost.endpoint not in [s.endpoint for s in site.repo.of_player(anna.id)]
    assert site.push.refused == []


async def test_sign_out_on_every_device_and_account_deletion_remove_the_subscriptions(site: Site) -> None:
    anna, ben = await site.player("Anna"), await site.player("Ben")
    for name in ("a1", "a2"):
        await site.subscribe(anna, name)
    await site.subscribe(ben, "b1")
    answer = await anna.request("POST", "/api/me/sign-out-others")
    assert answer.status_code == 200 and site.repo.of_player(anna.id) == []
    assert (await ben.request("DELETE", "/api/me")).status_code == 204
    assert site.repo.of_player(ben.id) == []
