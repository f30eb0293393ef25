"""Security headers on every response the app sends (issue 23): the client's files, API answers
and errors alike, from the app itself (no proxy in front here)."""

from __future__ import annotations

import re

import httpx
import pytest

from backend.api.headers import app_policy, script_hashes
from tests.support.client import Player
from tests.support.services import ServerProcess

EVERY_RESPONSE = {
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
    "referrer-policy": "no-referrer",
    "cross-origin-opener-policy": "same-origin",
}


def directives(policy: str) -> dict[str, str]:
    return {part.split()[0]: part.partition(" ")[2] for part in (p.strip() for p in policy.split(";")) if part}


def assert_strict(answer: httpx.Response, socket_origin: str) -> None:
    for name, value in EVERY_RESPONSE.items():
        assert answer.headers.get(name) == value, (answer.url, name)
    assert "camera=()" in answer.headers["permissions-policy"]
    policy = directives(answer.headers["content-security-policy"])
    assert policy["script-src"] == "'self'" and policy["style-src"] == "'self'"  # no inline script or style
    assert policy["connect-src"] == f"'self' {socket_origin}"
    assert (policy["frame-ancestors"], policy["base-uri"], policy["object-src"]) == ("'none'", "'none'", "'none'")
    assert "unsafe" not in answer.headers["content-security-policy"]


async def test_every_kind_of_response_carries_the_headers(shared_server: ServerProcess) -> None:
    anna = await Player(shared_server.url, "Anna").register()
    host = shared_server.url.removeprefix("http://")
    async with httpx.AsyncClient(base_url=shared_server.url) as http:
        answers = [
            await http.get("/"),  # the page
            await http.get("/manifest.webmanifest"),
            await http.get("/sw.js"),
            await http.get("/api/health"),
            await http.get("/api/rooms"),
            await http.get("/api/me"),  # 401
            await http.get("/api/rooms/no-such-room", headers=anna.headers),  # 404
            await http.post("/api/players", json={"name": ""}),  # 422
            await http.post("/api/players", content=b"{not json", headers={"content-type": "application/json"}),
            await http.get("/openapi.json"),
            await http.get("/no/such/file.js"),
        ]
    assert {answer.status_code for answer in answers} >= {200, 401, 404, 422}
    for answer in answers:
        assert_strict(answer, f"ws://{host}")


async def test_behind_the_proxy_the_sockets_are_allowed_over_wss(shared_server: ServerProcess) -> None:
    async with httpx.AsyncClient(base_url=shared_server.url) as http:
        answer = await http.get("/", headers={"X-Forwarded-Proto": "https", "Host": "cards.example.org"})
    assert_strict(answer, "wss://cards.example.org")


@pytest.mark.parametrize("host", ["evil.example; script-src *", "a b", "x\tscript-src"])
def test_a_host_that_could_end_a_directive_is_left_out_of_the_policy(host: str) -> None:
    assert directives(app_policy("https", host))["connect-src"] == "'self'"


async def test_the_rest_reference_allows_exactly_its_own_inline_script(shared_server: ServerProcess) -> None:
    async with httpx.AsyncClient(base_url=shared_server.url) as http:
        docs = await http.get("/docs")
        assert (await http.get("/redoc")).status_code == 404
    policy = directives(docs.headers["content-security-policy"])
    [inline] = script_hashes(docs.text)
    assert policy["script-src"] == f"https://cdn.jsdelivr.net {inline}"
    assert policy["default-src"] == "'none'" and policy["frame-ancestors"] == "'none'"
    assert docs.headers["x-frame-options"] == "DENY"


async def test_the_page_has_no_inline_script_or_style(shared_server: ServerProcess) -> None:
    async with httpx.AsyncClient(base_url=shared_server.url) as http:
        page = (await http.get("/")).text
    # A data block (type="application/json", the module graph) is not run, and the policy allows it.
    assert not re.search(r"<script(?![^>]*\b(?:src=|type=\"application/json\"))[^>]*>", page), "an inline script"
    assert "<style" not in page and not re.search(r"\sstyle=", page), "an inline style"
