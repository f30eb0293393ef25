"""Schemathesis against the live server's own OpenAPI document: no operation answers 5xx.

Every operation in /openapi.json is fuzzed with cases that fit the schema (positive) and cases
that do not (negative), without credentials, with a valid player's token, and with the real ids
of a room, an invite and a match that player owns, so that handlers get past their lookups.
The examples per operation are bounded so the whole run stays well under a minute.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import schemathesis
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from hypothesis.errors import Unsatisfiable
from schemathesis.generation.modes import GenerationMode

from tests.support.services import ServerProcess, serving

from .helpers import SyncSeat, auth, register

pytestmark = pytest.mark.slow

EXAMPLES = 25
REAL_IDS = ("room_id", "code", "match_id", "player_id")


@pytest.fixture(scope="module")
def api_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with serving("sqlite", tmp_path_factory.mktemp("openapi")) as process:
        yield process


def _owned_things(server: ServerProcess) -> tuple[dict[str, str], dict[str, str]]:
    """A player with a finished match, an open private table; returns (player, real path ids)."""
    anna, ben = register(server.url, "Anna"), register(server.url, "Ben")
    room = httpx.post(f"{server.url}/api/rooms", json={"target": 301}, headers=auth(anna["token"])).json()
    joined = httpx.post(f"{server.url}/api/rooms/{room['id']}/join", headers=auth(ben["token"])).json()
    seat = SyncSeat.open(server.ws_url, room["id"], anna["token"])
    seat.intent({"type": "resign", "version": seat.hello()["version"]})
    seat.close()
    private = httpx.post(f"{server.url}/api/rooms", json={"visibility": "private"}, headers=auth(anna["token"]))
    ids = {
        "room_id": private.json()["id"],
        "code": private.json()["invite_code"],
        "match_id": joined["match_id"],
        "player_id": anna["id"],
    }
    return anna, ids


# Answers that never end (a Server-Sent Events stream, tests/api/test_play_again.py tests it): a
# fuzzer's request would wait for its end.
ENDLESS = {"/api/me/events"}


def _fuzz(
    operation: Any, mode: GenerationMode, path_parameters: dict[str, str], base_url: str, token: str
) -> tuple[int, list[str]]:
    """Bounded cases of one operation, half of them with the player's token; returns (calls, 5xx seen)."""
    strategy = operation.as_strategy(generation_mode=mode, path_parameters=path_parameters or None)
    failures: list[str] = []
    calls = 0

    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        database=None,
        phases=[Phase.explicit, Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @given(case=strategy, authorized=st.booleans())
    def run(case: Any, authorized: bool) -> None:
        nonlocal calls
        response = case.call(base_url=base_url, headers=auth(token) if authorized else None, timeout=10)
        calls += 1
        if response.status_code >= 500:
            failures.append(
                f"{operation.label} [{mode}, auth={authorized}] -> {response.status_code}: "
                f"{case.as_curl_command()} :: {response.text[:300]}"
            )

    run()
    return calls, failures


def test_no_operation_answers_5xx(api_server: ServerProcess) -> None:
    schema = schemathesis.openapi.from_url(f"{api_server.url}/openapi.json")
    anna, ids = _owned_things(api_server)
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) >= 12, [op.label for op in operations]
    failures: list[str] = []
    calls = 0
    skipped: list[str] = []
    for operation in operations:
        if operation.path in ENDLESS:
            continue
        params = {p.name for p in operation.path_parameters}
        variants: list[dict[str, str]] = [{}]
        if params and params <= set(REAL_IDS):
            variants.append({name: ids[name] for name in params})
        for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):
            for path_parameters in variants:
                try:
                    made, failed = _fuzz(operation, mode, path_parameters, api_server.url, anna["token"])
                except Unsatisfiable:  # nothing to get wrong (an operation with no inputs, in negative mode)
                    assert mode == GenerationMode.NEGATIVE, operation.label
                    skipped.append(f"{operation.label} {sorted(path_parameters)}")
                    continue
                calls += made
                failures += failed

    print(f"schemathesis: {len(operations)} operations, {calls} calls; no negative cases for {skipped}")
    assert not failures, "\n".join(failures[:20])
    assert calls >= 10 * len(operations)  # operations without inputs have only a few distinct cases
    problems = api_server.errors()
    assert not problems, "\n".join(problems[:20])
