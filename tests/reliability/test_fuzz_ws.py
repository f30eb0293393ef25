"""Fuzzing the WebSocket protocol of a live server (hypothesis, one server per test function).

Thousands of generated and mutated frames: junk JSON, wrong types, missing and extra fields, huge
numbers, unicode, nested junk, binary frames, stale versions, the other seat's moves, replays of
old message ids, plays of cards not held. After every frame:

* it got exactly one answer — a ``rejected`` with a documented code and a message, or a ``state``
  / ``chat`` echo carrying its id (or a plain ``state`` for a ``hello``);
* the socket is still usable (a ``hello`` is answered with the state);
* a refused frame changed nothing: the state before and after is the same, and so are the row
  counts of every table and the room's version in the database; an accepted one moved the room
  exactly one version on and wrote exactly one action.

How an answer is delimited: after each frame the fuzzer sends a chat line with a fresh id. The
server handles one socket's frames in order and its outbox is FIFO, so everything the frame
caused arrives before that chat's echo.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from tests.support.services import ServerProcess

from .helpers import (
    ALL_CARDS,
    REJECTION_CODES,
    Database,
    SyncSeat,
    SyncTable,
    check_action_log,
    comparable,
    sync_table,
)

pytestmark = pytest.mark.slow

FUZZ = settings(
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow, HealthCheck.data_too_large],
    print_blob=True,
)
MARKER_BASE = 7 * 10**15  # chat ids used to delimit answers; the fuzzer's own ids stay below this
MAX_FRAME = 4096


def message_id(frame: str | bytes) -> int | None:
    """The id the server should echo in a refusal: an ``int`` ``id`` of a JSON object, else None."""
    if isinstance(frame, bytes):
        return None
    try:
        data = json.loads(frame)
    except ValueError:
        return None
    value = data.get("id") if isinstance(data, dict) else None
    return value if type(value) is int else None


def encode(value: Any, ascii_only: bool = True) -> str:
    try:
        text = json.dumps(value, ensure_ascii=ascii_only)
        text.encode()
    except UnicodeEncodeError:  # a lone surrogate: only the escaped form is valid UTF-8
        text = json.dumps(value)
    return text


class Harness:
    """A live table on a live server, plus everything the fuzzer has learned about it."""

    def __init__(self, server: ServerProcess, db: Database) -> None:
        self.server = server
        self.db = db
        self.table: SyncTable | None = None
        self.markers = MARKER_BASE
        self.frames = 0
        self.accepted = 0
        self.codes: dict[str, int] = {}
        self.matches: list[str] = []
        self.new_table()

    # ---- the table

    def new_table(self) -> None:
        if self.table is not None:
            self.table.close()
        self.table = sync_table(self.server.url, self.server.ws_url, {"target": 301})
        self.history: dict[int, list[tuple[dict[str, Any], dict[str, Any]]]] = {0: [], 1: []}  # (sent, answer)
        self.matches.append(self.table.room["match_id"])
        self.states: dict[int, dict[str, Any]] = {}
        self.clean: set[int] = set()  # seats whose cached state is current and whose socket holds nothing unread
        self.counts = self.db.counts()

    @property
    def seats(self) -> list[SyncSeat]:
        assert self.table is not None
        return self.table.seats

    def current(self, index: int) -> dict[str, Any]:
        """Seat ``index``'s current state, read so that nothing older is left on its socket."""
        if index not in self.clean:
            between = self.exchange(index, encode({"type": "hello"}))
            self.states[index] = [m for m in between if m["type"] == "state"][-1]
            self.clean.add(index)
        return self.states[index]

    def finish_example(self) -> None:
        for seat in self.seats:
            seat.drain()
        self.clean.clear()
        view = self.current(0)["view"]
        if view is None or view["winner"] is not None:
            self.new_table()

    # ---- one frame, judged

    def exchange(self, index: int, frame: str | bytes) -> list[dict[str, Any]]:
        """Send ``frame`` then a marker chat; return what arrived in between (presence left out)."""
        seat = self.seats[index]
        self.markers += 1
        marker = {"type": "chat", "id": self.markers, "version": 0, "text": "·"}
        seat.send_text(frame)
        seat.send(marker)
        between: list[dict[str, Any]] = []
        while True:
            message = seat.receive(timeout=10)
            if message["type"] == "chat" and message["reply_to"] == marker["id"]:
                self.history[index].append((marker, message))
                return between
            if message["type"] == "presence" or (message["type"] == "chat" and message["reply_to"] is None):
                continue  # the opponent's comings and goings, and its own marker lines
            between.append(message)

    def send(self, index: int, frame: str | bytes) -> dict[str, Any]:
        """Send one frame from seat ``index``, check its answer and every invariant; returns the answer."""
        before, counts = self.current(index), self.counts
        expected_id = message_id(frame)
        replayed = expected_id in {sent.get("id") for sent, _ in self.history[index]}
        between = self.exchange(index, frame)
        self.frames += 1
        assert between, f"no answer to {frame!r}"
        answer, rest = between[0], between[1:]
        after = self.seats[index].hello()
        counts_after = self.db.counts()
        assert self.db.room_version(after["room"]["id"]) == after["version"]

        if answer["type"] == "rejected":
            assert answer["code"] in REJECTION_CODES, (frame, answer)
            assert isinstance(answer["message"], str) and answer["message"], (frame, answer)
            assert answer["id"] == expected_id, (frame, answer)
            assert answer["version"] <= before["version"], (frame, answer)
            # stale_version is followed by the current state; nothing else ever follows a refusal
            assert all(m["type"] == "state" and m["reply_to"] is None for m in rest), (frame, between)
            assert len(rest) <= (1 if answer["code"] == "stale_version" else 0), (frame, between)
            assert comparable(after) == comparable(before), frame
            assert counts_after == counts, frame
            self.codes[answer["code"]] = self.codes.get(answer["code"], 0) + 1
        elif answer["type"] == "chat":
            assert not rest, (frame, between)
            assert expected_id is not None and answer["reply_to"] == expected_id, (frame, answer)
            assert comparable(after) == comparable(before), frame
            assert counts_after == counts, frame
            sent = json.loads(frame)
            if not replayed:
                assert answer["text"] == sent["text"].strip()  # verbatim: escaping is the client's job
            self.codes["chat"] = self.codes.get("chat", 0) + 1
        else:
            assert answer["type"] == "state", (frame, answer)
            if answer["reply_to"] is None:  # a hello: the state, then the match's chat log
                assert [m["type"] for m in rest] == ["chat_log"], (frame, between)
                assert json.loads(frame)["type"] == "hello", (frame, answer)
                assert comparable(after) == comparable(before), frame
                assert counts_after == counts, frame
            else:
                assert not rest, (frame, between)
                assert expected_id is not None and answer["reply_to"] == expected_id, (frame, answer)
                assert after["version"] in (before["version"], before["version"] + 1), (frame, answer)
                if after["version"] == before["version"]:  # a replayed id: answered again, applied once
                    assert replayed, (frame, answer)
                    assert counts_after == counts, frame
                else:
                    sent = json.loads(frame)
                    assert sent["type"] in ("play", "resign", "rematch"), frame
                    assert sent["version"] == before["version"], frame
                    grew = {k: counts_after[k] - counts[k] for k in counts}
                    assert grew["actions"] == (0 if sent["type"] == "rematch" else 1), (frame, grew)
                    assert grew["players"] == grew["rooms"] == 0, (frame, grew)
                    self.accepted += 1
        sent_json = _as_object(frame)
        if sent_json is not None and expected_id is not None and not replayed:  # the cache keeps first answers
            self.history[index].append((sent_json, answer))
        self.states[index], self.counts = after, counts_after
        self.clean = {index}  # the other seat may have been sent a broadcast or a chat line
        return answer

    def close(self) -> None:
        if self.table is not None:
            self.table.close()


def _as_object(frame: str | bytes) -> dict[str, Any] | None:
    if isinstance(frame, bytes):
        return None
    try:
        data = json.loads(frame)
    except ValueError:
        return None
    return data if isinstance(data, dict) else None


@pytest.fixture
def harness(sqlite_server: ServerProcess, sqlite_url: str) -> Iterator[Harness]:
    db = Database(sqlite_url)
    fuzz = Harness(sqlite_server, db)
    yield fuzz
    fuzz.close()
    for match_id in fuzz.matches:
        check_action_log(db, match_id)
    db.dispose()
    assert not sqlite_server.errors()
    print(f"frames={fuzz.frames} accepted={fuzz.accepted} codes={fuzz.codes}")


# ------------------------------------------------------------------ strategies

SURROGATES = st.sampled_from(["\ud800", "\udfff", "a\ud83d", "\ud83d\ude00"])
TEXT = st.one_of(
    st.text(max_size=40),
    st.text(alphabet=st.characters(codec="utf-8"), min_size=190, max_size=205),
    st.sampled_from(
        [
            "<script>alert(1)</script>",
            '"><img src=x onerror=alert(1)>',
            "\u202eevil\u202c",
            "zero\u200bwidth",
            "   ",
            "\x00\x01\x1b[31m",
            "ÄÖÜß 🂡🂮 中文 עברית",
            "${jndi:ldap://x}",
            "' OR 1=1 --",
        ]
    ),
    SURROGATES,
)
NUMBERS = st.one_of(
    st.integers(min_value=-5, max_value=60),
    st.integers(),
    st.sampled_from([2**53, 2**53 + 1, 2**63, -(2**63), 10**30, -1]),
    st.floats(allow_nan=True, allow_infinity=True),
)
SCALARS = st.one_of(st.none(), st.booleans(), NUMBERS, TEXT, st.sampled_from([*ALL_CARDS, "ZZ", "", "A", "ACE"]))
JUNK = st.recursive(
    SCALARS,
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=16,
)
TYPES = st.sampled_from(["play", "resign", "rematch", "chat", "hello", "PLAY", "dance", "", "state", "rejected"])


def templates(version: int, next_id: int) -> list[dict[str, Any]]:
    return [
        {"type": "play", "id": next_id, "version": version, "card": "AC", "declare": False},
        {"type": "resign", "id": next_id, "version": version - 1},
        {"type": "rematch", "id": next_id, "version": version, "action": "offer"},
        {"type": "chat", "id": next_id, "version": version, "text": "hi"},
        {"type": "hello", "last_version": version},
    ]


@st.composite
def mutated(draw: st.DrawFn, version: int, next_id: int) -> str:
    """A well-formed message with one to three things wrong with it."""
    message = dict(draw(st.sampled_from(templates(version, next_id))))
    for _ in range(draw(st.integers(1, 3))):
        how = draw(st.sampled_from(["drop", "junk", "extra", "type", "number", "text"]))
        keys = sorted(message)
        if how == "drop" and keys:
            message.pop(draw(st.sampled_from(keys)))
        elif how == "junk" and keys:
            message[draw(st.sampled_from(keys))] = draw(JUNK)
        elif how == "extra":
            message[draw(st.text(max_size=10))] = draw(JUNK)
        elif how == "type":
            message["type"] = draw(TYPES | JUNK)
        elif how == "number":
            message[draw(st.sampled_from(["id", "version", "last_version"]))] = draw(NUMBERS)
        else:
            message[draw(st.sampled_from(["text", "card", "action"]))] = draw(TEXT)
    frame = encode(message, ascii_only=draw(st.booleans()))
    if draw(st.integers(0, 9)) == 0:  # now and then: cut it short
        frame = frame[: draw(st.integers(0, max(0, len(frame) - 1)))]
    return frame


@st.composite
def junk_frame(draw: st.DrawFn, version: int, next_id: int) -> str | bytes:
    kind = draw(st.sampled_from(["mutated", "mutated", "mutated", "json", "text", "binary", "chat"]))
    if kind == "mutated":
        return draw(mutated(version, next_id))
    if kind == "json":
        return encode(draw(JUNK), ascii_only=draw(st.booleans()))
    if kind == "text":
        return draw(st.text(max_size=300))
    if kind == "binary":
        return draw(st.binary(max_size=64))
    text = draw(TEXT)
    return encode({"type": "chat", "id": next_id, "version": draw(NUMBERS | st.just(version)), "text": text})


# ------------------------------------------------------------------ the tests


@settings(FUZZ, max_examples=250)
@given(data=st.data())
def test_junk_frames_are_refused_and_change_nothing(harness: Harness, data: st.DataObject) -> None:
    seat = data.draw(st.integers(0, 1), label="seat")
    for _ in range(data.draw(st.integers(1, 5), label="frames")):
        version = harness.current(seat)["version"]
        frame = data.draw(junk_frame(version, data.draw(st.integers(1, 10**6))), label="frame")
        assume(len(frame if isinstance(frame, bytes) else frame.encode()) <= MAX_FRAME)
        harness.send(seat, frame)
    harness.finish_example()


INTENT_KINDS = [
    "legal",
    "other_seat",
    "not_held",
    "stale",
    "ahead",
    "replay",
    "replay",
    "declare_wrong",
    "wrong_follow",
    "resign_stale",
    "rematch",
    "hello",
]


class GameFuzz:
    """State-dependent intents whose refusal code is known in advance."""

    def __init__(self, harness: Harness) -> None:
        self.h = harness
        self.next_id = 1

    def take_id(self) -> int:
        self.next_id += 1
        return self.next_id

    def step(self, data: st.DataObject) -> None:
        # Draw a fixed shape of plain numbers first and map them onto the live state afterwards:
        # hypothesis must see the same sequence of draws whatever the server's state is.
        kind = data.draw(st.sampled_from(INTENT_KINDS), label="kind")
        pick = data.draw(st.integers(0, 2**32), label="pick")
        side = data.draw(st.integers(0, 1), label="side")
        flag = data.draw(st.booleans(), label="flag")
        far = data.draw(st.integers(1, 2**53), label="far")

        def one(items: list[Any]) -> Any:
            return items[pick % len(items)]

        h = self.h
        views = [h.current(i)["view"] for i in (0, 1)]
        version = h.current(0)["version"]
        turn = next((i for i, v in enumerate(views) if v["legal"]), None)
        if turn is None:  # the match is over
            return
        mv, wv = views[turn], views[1 - turn]
        message: dict[str, Any] = {"id": self.take_id(), "version": version}
        seat, expect = turn, None
        if kind == "legal":
            chosen = one(mv["legal"])
            card = chosen["card"]
            declare = chosen["declare"] is not None and flag
            message |= {"type": "play", "card": card, "declare": declare}
            expect = "state"
        elif kind == "other_seat":
            seat = 1 - turn
            if not wv["deal"]["hand"]:  # it led the last trick of the deal
                return
            message |= {"type": "play", "card": one(wv["deal"]["hand"]), "declare": flag}
            expect = "not_your_turn"
        elif kind == "not_held":
            unheld = [c for c in ALL_CARDS if c not in mv["deal"]["hand"]] + ["ZZ", "A♠", "0C"]
            message |= {"type": "play", "card": one(unheld)}
            expect = "card_not_held"
        elif kind in ("stale", "ahead"):
            message["version"] = pick % version if kind == "stale" else version + 1 + far % (2**53 - version)
            message |= {"type": "play", "card": one(mv["legal"])["card"]}
            expect = "stale_version"
        elif kind == "replay":
            seat = side
            past = h.history[seat][-100:]  # the server remembers the last 256 refusals and chat lines per room
            if not past:
                return
            sent, first = one(past)
            answer = h.send(seat, encode(sent))
            assert answer["type"] == first["type"], (sent, first, answer)
            if first["type"] == "rejected":
                assert answer["code"] == first["code"], (sent, first, answer)
            else:
                assert answer["reply_to"] == first["reply_to"] == sent["id"]
            if first["type"] == "state":
                assert answer["version"] == version  # answered again, not applied again
            return
        elif kind == "declare_wrong":
            plain = [p["card"] for p in mv["legal"] if p["declare"] is None]
            if not plain:
                return
            message |= {"type": "play", "card": one(plain), "declare": True}
            expect = "cannot_declare"
        elif kind == "wrong_follow":
            illegal = [c for c in mv["deal"]["hand"] if c not in [p["card"] for p in mv["legal"]]]
            if not illegal:
                return
            message |= {"type": "play", "card": one(illegal)}
            expect = "must_*"
        elif kind == "resign_stale":
            seat = side
            message |= {"type": "resign", "version": pick % version}
            expect = "stale_version"
        elif kind == "rematch":
            seat = side
            message |= {"type": "rematch", "action": one(["offer", "accept", "withdraw", "decline"])}
            expect = "rematch_invalid"
        else:
            message = {"type": "hello", "last_version": far}
            expect = "state"
        answer = h.send(seat, encode(message))
        if expect == "state":
            assert answer["type"] == "state", (message, answer)
            if message["type"] == "play":
                assert answer["version"] == version + 1 and answer["reply_to"] == message["id"]
        elif expect == "must_*":
            assert answer["type"] == "rejected" and answer["code"] in ("must_follow_suit", "must_beat", "must_trump")
        else:
            assert answer["type"] == "rejected" and answer["code"] == expect, (message, answer)


@pytest.fixture
def game(harness: Harness) -> GameFuzz:
    return GameFuzz(harness)


@settings(FUZZ, max_examples=250)
@given(data=st.data())
def test_game_intents_get_the_documented_answer(game: GameFuzz, data: st.DataObject) -> None:
    for _ in range(data.draw(st.integers(1, 4), label="intents")):
        game.step(data)
    game.h.finish_example()


def test_frame_size_limit_is_exact(sqlite_server: ServerProcess) -> None:
    """4096 bytes is still answered (refused as a chat too long); 4097 bytes closes the socket with 1009."""
    table = sync_table(sqlite_server.url, sqlite_server.ws_url)
    seat = table.seats[0]
    head = '{"type":"chat","id":1,"version":0,"text":"'
    fits = head + "x" * (MAX_FRAME - len(head) - 2) + '"}'
    assert len(fits.encode()) == MAX_FRAME
    seat.send_text(fits)
    answer = seat.answer(1)
    assert answer["type"] == "rejected" and answer["code"] == "bad_message"
    assert seat.hello()["type"] == "state"
    # multi-byte characters count as bytes, not characters
    too_big = head + "é" * ((MAX_FRAME - len(head)) // 2) + '"}'
    assert len(too_big) < MAX_FRAME < len(too_big.encode())
    seat.send_text(too_big)
    with pytest.raises(Exception) as closed:
        seat.receive_until(lambda m: False)
    assert seat.close_code == 1009, closed.value
    table.close()


def test_deeply_nested_json_is_refused_like_any_bad_message(sqlite_url: str, tmp_path: Path) -> None:
    server = ServerProcess(sqlite_url, tmp_path / "nested.log")
    server.start()
    try:
        table = sync_table(server.url, server.ws_url)
        seat = table.seats[0]
        for frame in ["[" * 1000 + "]" * 1000, '{"id": 5, "x": ' + "[" * 1500 + "]" * 1500 + "}"]:
            assert len(frame) <= MAX_FRAME
            seat.send_text(frame)
            answer = seat.receive_until(lambda m: m["type"] == "rejected", timeout=5)
            assert answer["code"] == "bad_message"
            assert seat.hello()["type"] == "state"
        assert not server.errors()
        table.close()
    finally:
        server.stop()
