""" "Your turn" by Web Push in a browser (issue 45), on a phone: the lobby asks for the permission only
after a tap (never on load); the real server then sends Anna's turn to the loopback push service,
which checks the VAPID signature and decrypts it as a browser's push service would; that payload is
delivered to the page's service worker through the DevTools protocol
(``ServiceWorker.deliverPushMessage``), which shows the notification, and its click opens the table.

Headless Chromium has no push service of its own to subscribe with (it would need Google's), so
the page's ``PushManager`` is given the loopback service's subscription; everything after the
subscription is the real thing."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import expect

from tests.support.push_service import LoopbackPushService
from tests.support.services import ServerProcess, serving

from .conftest import PHONE
from .helpers import choose_name, open_seat
from .test_my_games import play_first_legal

pytestmark = pytest.mark.browser

FAKE_PUSH_MANAGER = """
window.__permissionAsks = 0;
const ask = Notification.requestPermission.bind(Notification);
Notification.requestPermission = (...args) => { window.__permissionAsks += 1; return ask(...args); };
const SUB = %s;
let fake = null;
PushManager.prototype.getSubscription = async function () { return fake; };
PushManager.prototype.subscribe = async function (options) {
  window.__serverKey = btoa(String.fromCharCode(...new Uint8Array(options.applicationServerKey)));
  fake = {
    endpoint: SUB.endpoint,
    toJSON: () => ({ endpoint: SUB.endpoint, keys: SUB.keys }),
    unsubscribe: async () => { fake = null; return true; },
  };
  return fake;
};
"""


class PushThread:
    """The loopback push service on an event loop of its own (Playwright's sync API owns this one)."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.service: LoopbackPushService = self.run(LoopbackPushService().start())

    def run(self, coroutine: Any, timeout: float = 30) -> Any:
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(timeout)

    def close(self) -> None:
        self.run(self.service.stop())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)


@pytest.fixture
def push_site(tmp_path: Path) -> Iterator[tuple[ServerProcess, PushThread]]:
    push = PushThread()
    try:
        with serving(
            "sqlite",
            tmp_path,
            PUSH_SERVICES=json.dumps([push.service.origin]),
            PUSH_POLL_S="0.1",
            BOT_DELAY_S="0.05",
        ) as server:
            push.service.server_key = httpx.get(f"{server.url}/api/push/key").json()["public_key"]
            yield server, push
    finally:
        push.close()


def test_a_push_shows_your_turn_and_its_click_opens_the_table(
    browser: Any, push_site: tuple[ServerProcess, PushThread], artifacts: Path
) -> None:
    server, push = push_site
    base = server.url
    subscriber = push.service.subscription("anna-phone")
    anna = open_seat(browser, base, "Anna", PHONE)
    anna.context.grant_permissions(["notifications"], origin=base)
    anna.context.add_init_script(FAKE_PUSH_MANAGER % json.dumps(subscriber.json()))
    page = anna.page
    try:
        page.goto("/")
        choose_name(page, "Anna")
        expect(page.get_by_test_id("my-rooms")).to_be_visible()
        toggle = page.get_by_test_id("push-toggle")
        expect(toggle).to_have_text("Notify me when it is my turn")
        assert page.evaluate("() => window.__permissionAsks") == 0  # never asked on a page load
        toggle.click()
        expect(toggle).to_have_text("Turn notifications off")
        assert page.evaluate("() => window.__permissionAsks") == 1
        assert page.evaluate("() => window.__serverKey")  # subscribed with the server's VAPID key

        # A turn-based table with Ben; Ben moves until it is Anna's turn (she is in the lobby).
        me = page.evaluate("() => JSON.parse(localStorage.getItem('1001.player'))")
        ben = httpx.post(f"{base}/api/players", json={"name": "Ben"}).json()
        mine = {"Authorization": f"Bearer {me['token']}"}
        room = httpx.post(f"{base}/api/rooms", json={"pace": "1d"}, headers=mine).json()
        httpx.post(
            f"{base}/api/invites/{room['invite_code']}/join", headers={"Authorization": f"Bearer {ben['token']}"}
        )
        for _ in range(30):
            state = httpx.get(f"{base}/api/rooms/{room['id']}", headers=mine).json()
            if state["players"][state["turn"]]["id"] == me["id"]:
                break
            play_first_legal(base, ben["token"], room["id"])
        received = push.run(subscriber.next(timeout=15))
        assert received.payload["kind"] == "turn" and received.payload["url"] == f"/#/table/{room['id']}"
        assert push.service.refused == []

        # The push service hands it to the browser: the service worker shows it.
        worker = (
            anna.context.service_workers[0]
            if anna.context.service_workers
            else anna.context.wait_for_event("serviceworker")
        )
        cdp = anna.context.new_cdp_session(page)
        registrations: list[dict[str, Any]] = []
        cdp.on("ServiceWorker.workerRegistrationUpdated", lambda event: registrations.extend(event["registrations"]))
        cdp.send("ServiceWorker.enable")
        deadline = time.monotonic() + 10
        while not registrations and time.monotonic() < deadline:
            page.wait_for_timeout(50)
        [registration] = [r for r in registrations if not r.get("isDeleted")]
        cdp.send(
            "ServiceWorker.deliverPushMessage",
            {"origin": base, "registrationId": registration["registrationId"], "data": json.dumps(received.payload)},
        )
        shown: list[dict[str, Any]] = []
        while not shown and time.monotonic() < deadline + 10:
            shown = worker.evaluate(
                "async () => (await self.registration.getNotifications())"
                ".map((n) => ({ title: n.title, body: n.body, tag: n.tag, url: n.data && n.data.url }))"
            )
            if not shown:
                page.wait_for_timeout(50)
        assert shown == [
            {"title": "Your turn", "body": received.payload["body"], "tag": room["id"], "url": f"/#/table/{room['id']}"}
        ]
        assert received.payload["body"].startswith("Against Ben: ")

        # A tap on it opens the table in the game's window.
        worker.evaluate(
            "async () => { const [n] = await self.registration.getNotifications();"
            " self.dispatchEvent(new NotificationEvent('notificationclick', { notification: n })); }"
        )
        expect(page).to_have_url(f"{base}/#/table/{room['id']}")
        expect(page.get_by_test_id("hand").locator("button.card").first).to_be_visible()
        assert worker.evaluate("async () => (await self.registration.getNotifications()).length") == 0
        page.screenshot(path=str(artifacts / "push-opened-table.png"))
    finally:
        anna.context.close()
