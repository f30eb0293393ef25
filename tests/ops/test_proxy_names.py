"""backend/serve.py's ``ProxiesByName``: X-Forwarded-For/-Proto believed from a proxy named by host name
(``FORWARDED_ALLOW_IPS=caddy`` in docker-compose.yml), looked up when its requests arrive — no server,
a made-up resolver. tests/ops/test_https_front.py runs the real thing behind Caddy."""

from __future__ import annotations

import asyncio
from typing import Any

from backend import serve

FORGED = [(b"x-forwarded-for", b"203.0.113.9"), (b"x-forwarded-proto", b"https")]


class Resolver:
    def __init__(self, answers: dict[str, set[str]]) -> None:
        self.answers = answers
        self.lookups = 0

    async def __call__(self, name: str) -> frozenset[str]:
        self.lookups += 1
        return frozenset(self.answers.get(name, set()))


class Recorder:
    """The app behind the middleware: keeps the client address and scheme of the last request."""

    def __init__(self) -> None:
        self.seen: tuple[str, str] = ("", "")

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        self.seen = (scope["client"][0], scope["scheme"])


def proxies(resolver: Resolver, entries: str = "caddy") -> serve.ProxiesByName:
    return serve.ProxiesByName(Recorder(), entries.split(","), resolver=resolver)


def seen_by_app(middleware: serve.ProxiesByName, peer: str) -> tuple[str, str]:
    """The client address and scheme the app sees for one request from ``peer`` carrying FORGED."""
    scope = {"type": "http", "scheme": "http", "client": (peer, 40000), "headers": FORGED}
    asyncio.run(middleware(scope, None, None))  # type: ignore[arg-type]
    assert isinstance(middleware.app, Recorder)
    return middleware.app.seen


def test_the_named_proxy_is_believed_and_nobody_else() -> None:
    resolver = Resolver({"caddy": {"10.89.0.6"}})
    middleware = proxies(resolver)
    assert seen_by_app(middleware, "10.89.0.6") == ("203.0.113.9", "https")
    assert seen_by_app(middleware, "10.89.0.7") == ("10.89.0.7", "http")
    assert seen_by_app(middleware, "10.89.0.6") == ("203.0.113.9", "https")


def test_a_proxy_that_starts_after_the_app_is_believed_from_its_first_request() -> None:
    """The app's own health checks (127.0.0.1) look the name up before the proxy's container exists;
    the proxy's first request, from an address not seen since, is looked up again at once."""
    resolver = Resolver({})
    middleware = proxies(resolver)
    assert seen_by_app(middleware, "127.0.0.1") == ("127.0.0.1", "http")
    assert seen_by_app(middleware, "127.0.0.1") == ("127.0.0.1", "http")
    assert resolver.lookups == 1  # the same peer again: no new lookup within refresh_s
    resolver.answers["caddy"] = {"10.89.0.11"}
    assert seen_by_app(middleware, "10.89.0.11") == ("203.0.113.9", "https")
    assert resolver.lookups == 2


def test_a_proxy_recreated_with_a_new_address_is_believed_again_and_a_lost_name_keeps_its_address() -> None:
    resolver = Resolver({"caddy": {"10.89.0.6"}})
    middleware = proxies(resolver)
    assert seen_by_app(middleware, "10.89.0.6") == ("203.0.113.9", "https")
    resolver.answers["caddy"] = {"10.89.0.12"}
    assert seen_by_app(middleware, "10.89.0.12") == ("203.0.113.9", "https")
    assert seen_by_app(middleware, "10.89.0.6") == ("10.89.0.6", "http")  # its old address is not
    resolver.answers.clear()  # a DNS hiccup: the last addresses stay
    middleware.refreshed_at = -float("inf")
    assert seen_by_app(middleware, "10.89.0.99") == ("10.89.0.99", "http")
    assert seen_by_app(middleware, "10.89.0.12") == ("203.0.113.9", "https")


def test_addresses_and_names_mix() -> None:
    middleware = proxies(Resolver({"caddy": {"10.89.0.6"}}), "127.0.0.1,caddy")
    assert seen_by_app(middleware, "127.0.0.1") == ("203.0.113.9", "https")
    assert seen_by_app(middleware, "10.89.0.6") == ("203.0.113.9", "https")


def test_names_replace_uvicorns_middleware_and_addresses_keep_it() -> None:
    args = serve.parse_args([], {})
    assert serve.app_and_options(args, {"FORWARDED_ALLOW_IPS": "127.0.0.1,10.0.0.0/8"})[0] == serve.APP
    assert serve.app_and_options(args, {"FORWARDED_ALLOW_IPS": "*"})[0] == serve.APP
    assert serve.app_and_options(args, {})[0] == serve.APP
    app, options = serve.app_and_options(args, {"FORWARDED_ALLOW_IPS": "caddy"})
    assert callable(app) and app != serve.APP
    assert options["proxy_headers"] is False and options["forwarded_allow_ips"] is None
    named = serve.parse_args(["--forwarded-allow-ips", "proxy.internal"], {})
    assert serve.app_and_options(named, {"FORWARDED_ALLOW_IPS": "127.0.0.1"})[0] != serve.APP
    off = serve.parse_args(["--no-proxy-headers"], {})
    assert serve.app_and_options(off, {"FORWARDED_ALLOW_IPS": "caddy"}) == (serve.APP, serve.uvicorn_options(off))
    assert serve.proxy_names(["caddy", "::1", "fd00::/8", "*", "app-2.example.org"]) == ["caddy", "app-2.example.org"]
