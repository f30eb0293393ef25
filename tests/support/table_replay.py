"""Checks of a replay of any game of the family (two-hand 1001 and V2–V7), shared by the pure tests
(tests/rooms/test_replay.py) and the ones over sockets (tests/api/test_replay.py,
tests/api/test_table_replay.py, tests/api/test_variants.py): a deal's CLI document against its stored
result, and its frames (one shape for every game) against the document — every card accounted for
in every frame, the stock's included."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from backend.cli.replay import run
from backend.engine import Rules
from backend.engine.cards import names
from tests.support.client import Player

KINDS = ("play", "bid", "pass", "discard")


def check_cli_result(document: Mapping[str, Any], result: Mapping[str, Any] | None) -> dict[str, Any]:
    """Run a deal's document through the replay CLI (in process) and compare it with the stored result."""
    status, out = run(document)
    assert status == 0, out
    if result is None:  # a deal a resignation cut short: the CLI shows where it stopped
        assert out["deal_over"] is False and out["turn"] is not None
        return out
    assert out["deal_over"] is True
    assert out["declarations"] == result["declarations"] and out["card_points"] == result["card_points"]
    if Rules.from_dict(dict(document["rules"])).two_hand:  # the CLI's two-hand output (docs/engine-cli.md)
        assert out["score"] == result["score"]
        assert (result["declarer"], result["contract"], result["made"], result["thrown_in"]) == (
            None,
            None,
            None,
            False,
        )
        return out
    cli = out["result"]
    assert [s["score"] for s in cli["seats"]] == result["score"]
    assert [s["card_points"] for s in cli["seats"]] == result["card_points"]
    assert [s["declaration_points"] for s in cli["seats"]] == result["declaration_points"]
    for key in ("declarer", "contract", "made", "thrown_in"):  # a replay's V2–V7 result says them all
        assert cli[key] == result[key], (key, cli, result)
    return out


def frame_action(action: Mapping[str, Any]) -> dict[str, Any]:
    """A CLI action as a frame shows it."""
    [kind] = [k for k in KINDS if k in action]
    shown: dict[str, Any] = {"seat": action["seat"], "kind": kind}
    if kind == "play":
        shown |= {"card": action["play"], "declare": action["declare"]}
    elif kind == "bid":
        shown["amount"] = action["bid"]
    elif kind == "discard":
        shown["cards"] = action["discard"]
    return shown


def check_table_frames(
    frames: Sequence[Mapping[str, Any]], document: Mapping[str, Any], result: Mapping[str, Any] | None
) -> None:
    """The frames of one deal of any game: one before the first action and one after each (V0.6
    auction, V0.7 talon and discard, the play and R4's draws from the stock), every hand face up
    (R7), and no card lost or doubled."""
    rules = Rules.from_dict(dict(document["rules"]))
    n, layout = rules.n, rules.layout
    pack = Counter(names(layout.pack))
    dealt = document["deal"]
    actions = document["actions"]
    assert len(frames) == len(actions) + 1
    assert [f["step"] for f in frames] == list(range(len(frames)))

    first = frames[0]
    assert first["action"] is None and first["calls"] == [] and first["tricks_played"] == 0
    assert first["phase"] == ("auction" if rules.game.has_auction else "play")
    assert [sorted(h) for h in first["hands"]] == [sorted(h) for h in dealt["hands"]]  # R7: all face up
    assert all(len(h) == layout.hand_size for h in first["hands"])
    assert first["talon"] == dealt.get("talon", []) and not first["talon_taken"] and first["discards"] == []
    stock = list(dealt.get("stock", []))  # R2: top card first
    assert len(stock) == layout.stock_size and (not stock) is (not rules.two_hand)

    played: Counter[str] = Counter()
    for index, frame in enumerate(frames):
        if index:
            assert frame["action"] == frame_action(actions[index - 1])
            before = frames[index - 1]
            if frame["action"]["kind"] in ("bid", "pass"):  # V0.6: every call is kept, in order
                bid = frame["action"].get("amount")
                assert frame["calls"] == [*before["calls"], {"seat": frame["action"]["seat"], "bid": bid}]
            if frame["action"]["kind"] == "discard":  # V0.7: the declarer lays two cards away
                assert sorted(frame["discards"]) == sorted(frame["action"]["cards"]) and frame["phase"] == "play"
        assert len(frame["hands"]) == len(frame["tricks_won"]) == len(frame["card_points"]) == n
        bids = [c["bid"] for c in frame["calls"] if c["bid"] is not None]
        assert frame["high_bid"] == (bids[-1] if bids else None)
        if frame["trick_won"] is not None:
            last = frame["last_trick"]
            assert last["winner"] == frame["trick_won"]["seat"] and len(last["cards"]) == n
            played.update(last["cards"])
        drawn = frame["drawn"]  # R4 phase 1: after a trick each seat draws from the stock, the winner first
        if drawn:
            assert frame["trick_won"] is not None and [d["seat"] for d in drawn] == [
                (frame["trick_won"]["seat"] + i) % n for i in range(n)
            ]
        assert [d["card"] for d in drawn] == stock[: len(drawn)]
        stock = stock[len(drawn) :]
        assert frame["stock_count"] == len(stock)
        assert sum(frame["tricks_won"]) == frame["tricks_played"] == sum(played.values()) // n
        assert [c["seat"] for c in frame["trick"]] == [
            (frame["trick"][0]["seat"] + i) % n for i in range(len(frame["trick"]))
        ]
        if frame["talon_taken"]:  # V0.7: the talon is in the declarer's hand (or laid away) from now on
            assert frame["declarer"] is not None and frame["phase"] != "auction"
        if frame["phase"] == "discard":
            assert frame["talon_taken"] and len(frame["hands"][frame["declarer"]]) == layout.hand_size + 2
        if frame["declared"] is not None:  # R3, V0.5: the marriage's suit is trump at once
            assert frame["trump"] == frame["declared"]["suit"] and frame["declarations"][-1] == frame["declared"]
        cards = Counter(c for hand in frame["hands"] for c in hand)
        cards.update(stock)
        cards.update([] if frame["talon_taken"] else frame["talon"])
        cards.update(frame["discards"])
        cards.update(c["card"] for c in frame["trick"])
        cards.update(played)
        assert cards == pack, f"frame {index}: {cards - pack} doubled, {pack - cards} lost"
        over = frame["phase"] in ("over", "thrown_in")
        assert frame["deal_over"] is over and frame["thrown_in"] is (frame["phase"] == "thrown_in")
        assert (frame["score"] is None) is (not over) and (frame["turn"] is None) is over

    last = frames[-1]
    if result is None:
        assert not last["deal_over"]
        return
    assert last["deal_over"] and last["score"] == result["score"] and stock == []  # R4: the stock drawn to the end
    assert last["card_points"] == result["card_points"] and last["declarations"] == result["declarations"]
    for key in ("declarer", "contract", "made", "thrown_in"):
        assert last[key] == result[key], (key, last[key], result)
    if last["thrown_in"]:  # ruling V0.6a: every player passed, nobody scores
        assert all(c["bid"] is None for c in last["calls"]) and len(last["calls"]) == n
        assert last["score"] == [0] * n and last["made"] is None


async def check_match_replay(player: Player, match_id: str, seats: int, variant: str) -> dict[str, Any]:
    """Download a finished match of any game (``GET /api/matches/{id}/replay``), replay every deal
    through the CLI (in process) to its stored result, and check every deal's frames
    (``GET /api/matches/{id}/deals/{n}/replay``). Returns the download."""
    detail = await player.get(f"/api/matches/{match_id}")
    download: dict[str, Any] = await player.get(f"/api/matches/{match_id}/replay")
    assert download["match_id"] == match_id and len(download["players"]) == seats
    deals = download["deals"]
    assert [d["number"] for d in deals][: len(detail["deals"])] == [d["number"] for d in detail["deals"]]
    assert len(deals) in (len(detail["deals"]), len(detail["deals"]) + 1)  # + one a resignation cut short
    for deal in deals:
        document, result = deal["replay"], deal["result"]
        rules = Rules.from_dict(dict(document["rules"]))  # the CLI's shape: two-hand 1001's has no variant
        assert (rules.variant, rules.n) == (variant, seats)
        assert rules == Rules.from_dict({k: v for k, v in detail["options"].items() if k in document["rules"]})
        if result is not None:
            [stored] = [d for d in detail["deals"] if d["number"] == deal["number"]]
            assert {k: stored[k] for k in result} == result  # the download carries the stored result
        check_cli_result(document, result)
        replay = await player.get(f"/api/matches/{match_id}/deals/{deal['number']}/replay")
        assert (replay["seats"], replay["variant"], replay["deals"]) == (seats, variant, len(deals))
        assert replay["dealer"] == document["deal"]["dealer"] and replay["result"] == result
        check_table_frames(replay["frames"], document, result)
    return download
