"""Migration 0005 and the seat tables, on SQLite and PostgreSQL: a database with finished matches,
deals and stakes keeps its history and ledger through the upgrade (and back down); tables of 3
seats are stored, joined, settled (one row per loser) and read back."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from backend.db.action_log import action_record
from backend.db.engine import make_engine
from backend.db.migrate import downgrade, upgrade
from backend.db.store import Store
from backend.db.writes import (
    ActionRecord,
    ActionWrite,
    DealRow,
    JoinWrite,
    MatchEnd,
    NewMatch,
    RematchOfferWrite,
    SeatTaken,
    SettlementRow,
)
from backend.history.entries import deal_result, match_entry
from backend.rooms.model import RematchOffer
from backend.rooms.sql_store import record_state
from tests.support.services import database_at

BEFORE = "7d3e2a9b4c10"  # 0004: two seat columns
T0 = datetime(2026, 11, 1, 18, 0, tzinfo=UTC)
OPTIONS = {"target": 1001, "stake_per_point": "0.01", "currency": "EUR"}


@pytest.fixture(params=["sqlite", "postgres"])
def old_database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A database migrated to 0004 only, holding the rows a two-seat server wrote."""
    with database_at(request.param, tmp_path, BEFORE, _fill_0004) as url:
        yield url


def _at(hours: float) -> datetime:
    return T0 + timedelta(hours=hours)


def _deal(match_id: str, number: int, dealer: int, values: tuple[int, ...], declarations: list[Any]) -> dict[str, Any]:
    cp0, cp1, dp0, dp1, s0, s1, t0, t1 = values
    return {
        "match_id": match_id, "number": number, "dealer": dealer, "seed": str(1000 + number),
        "card_points0": cp0, "card_points1": cp1, "declaration_points0": dp0, "declaration_points1": dp1,
        "score0": s0, "score1": s1, "total0": t0, "total1": t1, "declarations": declarations,
    }  # fmt: skip


def _fill_0004(url: str) -> None:
    engine = make_engine(url)
    meta = sa.MetaData()
    meta.reflect(bind=engine)
    t = meta.tables
    players = [
        {"id": pid, "name": name, "token_hash": f"h_{pid}", "bot_level": bot, "created_at": T0}
        for pid, name, bot in [
            ("p_anna", "Anna", None),
            ("p_ben", "Ben", None),
            ("p_cleo", "Cleo", None),
            ("p_bot_easy", "Computer (easy)", "easy"),
        ]
    ]
    rooms = [
        {"id": rid, "invite_code": f"i_{rid}", "visibility": "public", "options": OPTIONS, "status": status,
         "seat0_id": s0, "seat1_id": s1, "match_id": mid, "version": version,
         "created_at": _at(n), "updated_at": _at(n)}
        for n, (rid, status, s0, s1, mid, version) in enumerate([
            ("r1", "finished", "p_anna", "p_ben", "m1", 40),
            ("r2", "finished", "p_cleo", "p_anna", "m3", 90),  # after a rematch: the seats swapped
            ("r3", "open", "p_cleo", None, None, 0),
            ("r4", "playing", "p_ben", "p_bot_easy", "m4", 7),
        ])
    ]  # fmt: skip
    matches = [
        {"id": mid, "room_id": rid, "options": OPTIONS, "seed": str(12345678901234567890 + n), "first_dealer": n % 2,
         "seat0_id": s0, "seat1_id": s1, "status": status, "winner_seat": winner, "end_reason": reason,
         "total0": t0, "total1": t1, "started_at": _at(2 * n),
         "finished_at": None if status == "playing" else _at(2 * n + 1)}
        for n, (mid, rid, s0, s1, status, winner, reason, t0, t1) in enumerate([
            ("m1", "r1", "p_anna", "p_ben", "finished", 0, "target", 1012, 640),
            ("m2", "r2", "p_anna", "p_cleo", "finished", 1, "resign", 300, 455),
            ("m3", "r2", "p_cleo", "p_anna", "finished", 0, "absence", 500, 210),
            ("m4", "r4", "p_ben", "p_bot_easy", "playing", None, None, 120, 80),
        ])
    ]  # fmt: skip
    marriage = [{"seat": 1, "suit": "H", "points": 100}]
    deals = [
        _deal("m1", 1, 0, (70, 50, 0, 100, 70, 150, 70, 150), marriage),
        _deal("m1", 2, 1, (120, 0, 200, 0, 320, 0, 390, 150), [{"seat": 0, "suit": "C", "points": 200}]),
        _deal("m1", 3, 0, (62, 58, 560, 432, 622, 490, 1012, 640), []),
        _deal("m2", 1, 1, (55, 65, 0, 0, 55, 65, 55, 65), []),
        _deal("m4", 1, 1, (40, 80, 80, 0, 120, 80, 120, 80), [{"seat": 0, "suit": "S", "points": 80}]),
    ]
    actions = [
        {"match_id": mid, "seq": seq, "seat": seat, "kind": kind, "card": card_, "declare": declare,
         "reason": reason, "room_version": seq + 1, "client_msg_id": seq, "created_at": T0}
        for mid, seq, seat, kind, card_, declare, reason in [
            ("m1", 1, 1, "play", "AC", False, None),
            ("m1", 2, 0, "play", "KH", True, None),
            ("m2", 1, 0, "play", "TS", False, None),
            ("m2", 2, 0, "resign", None, False, "resign"),
            ("m3", 1, 1, "resign", None, False, "absence"),
            ("m4", 1, 0, "play", "QD", False, None),
        ]
    ]  # fmt: skip
    settlements = [
        {"match_id": mid, "winner_id": w, "loser_id": lo, "points_short": short, "stake_per_point": stake,
         "currency": currency, "amount": amount, "created_at": T0}
        for mid, w, lo, short, stake, currency, amount in [
            ("m1", "p_anna", "p_ben", 361, "0.01", "EUR", "3.61"),
            ("m2", "p_cleo", "p_anna", 701, "0.01", "EUR", "7.01"),
            ("m3", "p_cleo", "p_anna", 791, "0.5", "chips", "395.5"),
        ]
    ]  # fmt: skip
    with engine.begin() as connection:
        for name, rows in [
            ("players", players),
            ("rooms", rooms),
            ("matches", matches),
            ("deals", deals),
            ("actions", actions),
            ("settlements", settlements),
        ]:
            connection.execute(t[name].insert(), rows)
    engine.dispose()


def _old_view(url: str) -> dict[str, Any]:
    """What the two-seat columns of 0004 say, per room, match and deal."""
    engine = make_engine(url)
    with engine.connect() as connection:

        def rows(sql: str) -> list[tuple[Any, ...]]:
            return [tuple(row) for row in connection.execute(sa.text(sql))]

        view = {
            "rooms": rows("SELECT id, seat0_id, seat1_id, status, version FROM rooms ORDER BY id"),
            "matches": rows(
                "SELECT id, seat0_id, seat1_id, total0, total1, status, winner_seat, end_reason"
                " FROM matches ORDER BY id"
            ),
            "deals": rows(
                "SELECT match_id, number, card_points0, card_points1, declaration_points0, declaration_points1,"
                " score0, score1, total0, total1 FROM deals ORDER BY match_id, number"
            ),
            "settlements": rows(
                "SELECT id, match_id, winner_id, loser_id, points_short, stake_per_point, currency, amount"
                " FROM settlements ORDER BY id"
            ),
            "actions": rows(
                "SELECT match_id, seq, seat, kind, card, declare, reason FROM actions ORDER BY match_id, seq"
            ),
        }
    engine.dispose()
    return view


def _new_view(store: Store) -> dict[str, Any]:
    """The same, read through the Store from the seat tables."""
    rooms = []
    for room_id in ("r1", "r2", "r3", "r4"):
        record = store.rooms.record(room_id)
        assert record is not None and record.room.seats == 2
        rooms.append((room_id, *record.room.seat_ids, record.room.status, record.room.version))
    matches, deals, actions = [], [], []
    for match_id in ("m1", "m2", "m3", "m4"):
        match = store.history.match(match_id)
        assert match is not None
        matches.append((match_id, *match.player_ids, *match.totals, match.status, match.winner_seat, match.end_reason))
        for deal in store.history.deals_of(match_id):
            assert (deal.declarer, deal.contract, deal.made, deal.thrown_in, deal.extra) == (
                None,
                None,
                None,
                False,
                None,
            )
            per_seat = [*deal.card_points, *deal.declaration_points, *deal.score, *deal.totals]
            deals.append((match_id, deal.number, *per_seat))
        for row in store.history.actions_of(match_id):
            record = action_record(row)
            assert record.amount is None and record.cards is None
            actions.append((match_id, row.seq, record.seat, record.kind, record.card, record.declare, record.reason))
    settled = store.history.settlements_for(["m1", "m2", "m3", "m4"])
    settlements = sorted(
        (s.id, s.match_id, s.winner_id, s.loser_id, s.points_short, s.stake_per_point, s.currency, s.amount)
        for rows in settled.values()
        for s in rows
    )
    return {"rooms": rooms, "matches": matches, "deals": deals, "settlements": settlements, "actions": actions}


def test_0005_keeps_history_and_ledger_and_goes_back_down(old_database: str) -> None:
    before = _old_view(old_database)
    upgrade(old_database)
    store = Store(old_database)
    try:
        assert _new_view(store) == before
        ledger = store.history.ledger("p_anna")
        for entry in ledger:
            entry["last_played"] = entry["last_played"].replace(tzinfo=entry["last_played"].tzinfo or UTC)
        assert ledger == [
            {"opponent_id": "p_cleo", "played": 2, "won": 0, "shared": 0, "last_played": _at(5),
             "opponent_name": "Cleo", "opponent_bot_level": None, "balance": {"EUR": "-7.01", "chips": "-395.5"}},
            {"opponent_id": "p_ben", "played": 1, "won": 1, "shared": 0, "last_played": _at(1),
             "opponent_name": "Ben",
             "opponent_bot_level": None, "balance": {"EUR": "3.61"}},
        ]  # fmt: skip
        [entry] = store.history.ledger("p_ben")
        assert (entry["opponent_id"], entry["played"], entry["won"], entry["balance"]) == (
            "p_anna",
            1,
            0,
            {"EUR": "-3.61"},
        )

        # The history endpoint's JSON, as the two-seat columns gave it.
        matches, total = store.history.matches_of("p_anna", 10, 0)
        assert total == 3 and [m.id for m in matches] == ["m3", "m2", "m1"]
        players = store.players.by_ids(["p_anna", "p_ben", "p_cleo"])
        m1 = store.history.match("m1")
        assert m1 is not None
        out = match_entry(m1, "p_ben", players, store.history.settlements_for(["m1"])["m1"]).model_dump()
        assert {k: out[k] for k in ("players", "my_seat", "opponent", "totals", "winner_seat", "result", "stake")} == {
            "players": [  # with the places of migration 0006
                {"seat": 0, "id": "p_anna", "name": "Anna", "bot_level": None, "place": 1, "result": "won"},
                {"seat": 1, "id": "p_ben", "name": "Ben", "bot_level": None, "place": 2, "result": "lost"},
            ],
            "my_seat": 1,
            "opponent": {"id": "p_anna", "name": "Anna", "bot_level": None},
            "totals": [1012, 640],
            "winner_seat": 0,
            "result": "lost",
            "stake": {"amount": "3.61", "currency": "EUR", "stake_per_point": "0.01", "points_short": 361,
                      "debtor_id": "p_ben", "creditor_id": "p_anna", "balance": "-3.61"},
        }  # fmt: skip
        assert deal_result(store.history.deals_of("m1")[1]).model_dump() == {  # two-hand: no auction
            "card_points": [120, 0],
            "declarations": [{"seat": 0, "suit": "C", "points": 200}],
            "declaration_points": [200, 0],
            "score": [320, 0],
            "totals": [390, 150],
            "declarer": None,
            "contract": None,
            "made": None,
            "thrown_in": False,
        }

        # The rooms read as before: an open table with a free seat, a live one.
        assert [r.room.id for r in store.rooms.open_public()] == ["r3"]
        assert [r.room.id for r in store.rooms.of_player("p_ben")] == ["r4"]
        assert store.rooms.playing_elsewhere("r1", ["p_anna", "p_ben"]) == "Ben"
        assert store.rooms.playing_elsewhere("r4", ["p_ben"]) is None
    finally:
        store.dispose()

    downgrade(old_database, BEFORE)
    assert _old_view(old_database) == before
    upgrade(old_database)  # and up again
    store = Store(old_database)
    try:
        # New rows after the migration: ids and sequences go on from the copied ones.
        match = NewMatch(id="m5", options=OPTIONS, seed=5, first_dealer=1, seat_ids=("p_cleo", "p_anna"))
        store.rooms.write(JoinWrite("r3", "p_anna", match))
        end = MatchEnd(
            1,
            (2, 1),
            "resign",
            (0, 0),
            Decimal("0.01"),
            "EUR",
            (SettlementRow("p_anna", "p_cleo", 1001, Decimal("10.01")),),
        )
        resign = ActionRecord(0, "resign", reason="resign")
        store.actions.commit([ActionWrite("r3", 1, "m5", 1, resign, 1, (), end, (0, 0))])
        cleo = {e["opponent_id"]: e for e in store.history.ledger("p_anna")}["p_cleo"]
        assert (cleo["played"], cleo["won"], cleo["balance"]) == (3, 1, {"EUR": "3.00", "chips": "-395.5"})
    finally:
        store.dispose()


@pytest.fixture
def store(database_url: str) -> Iterator[Store]:
    store = Store(database_url)
    yield store
    store.dispose()


def test_a_table_of_three_seats_is_joined_played_and_settled_per_loser(store: Store, database_url: str) -> None:
    anna, ben, cleo, dora = (store.players.create(name)[0] for name in ("Anna", "Ben", "Cleo", "Dora"))
    room = store.rooms.create(anna.id, OPTIONS, "public", seats=3)
    assert room.seat_ids == [anna.id, None, None]
    store.rooms.write(JoinWrite(room.id, ben.id, None))  # a seat of three: no match yet
    record = store.rooms.record(room.id)
    assert record is not None and record.room.seat_ids == [anna.id, ben.id, None] and record.room.status == "open"
    assert record.room.version == 1 and set(record.players) == {anna.id, ben.id}
    with pytest.raises(SeatTaken):
        store.rooms.write(JoinWrite(room.id, ben.id, None))  # one seat per player
    seat_ids = (anna.id, ben.id, cleo.id)
    match = NewMatch(id="m3seats", options=OPTIONS, seed=9, first_dealer=2, seat_ids=seat_ids)
    store.rooms.write(JoinWrite(room.id, cleo.id, match))
    with pytest.raises(SeatTaken):
        store.rooms.write(JoinWrite(room.id, dora.id, None))  # every seat is taken
    record = store.rooms.record(room.id)
    assert record is not None and record.room.status == "playing" and record.room.seat_ids == list(seat_ids)
    assert [r.room.id for r in store.rooms.of_player(cleo.id)] == [room.id]
    assert store.rooms.playing_elsewhere("another", [cleo.id]) == "Cleo"

    bid = ActionRecord(0, "bid", amount=120)
    discard = ActionRecord(0, "discard", cards=("9C", "JD"))
    deal = DealRow(
        number=0, dealer=2, seed=11, card_points=(80, 20, 20), declaration_points=(100, 0, 0), score=(120, 20, 20),
        totals=(120, 20, 20), declarations=[{"seat": 0, "suit": "H", "points": 100}], declarer=0, contract=120,
        made=True, extra={"rounded": [120, 20, 20]},
    )  # fmt: skip
    owed = (
        SettlementRow(anna.id, ben.id, 981, Decimal("9.81")),
        SettlementRow(anna.id, cleo.id, 981, Decimal("9.81")),
    )
    end = MatchEnd(0, (1, 2, 2), "target", (1001, 20, 20), Decimal("0.01"), "EUR", owed)
    outcomes = store.actions.commit(
        [
            ActionWrite(room.id, 2, match.id, 1, bid, 1, (), None, (0, 0, 0)),
            ActionWrite(room.id, 3, match.id, 2, ActionRecord(1, "pass"), 2, (), None, (0, 0, 0)),
            ActionWrite(room.id, 4, match.id, 3, discard, 3, (deal,), None, (120, 20, 20)),
            ActionWrite(room.id, 5, match.id, 4, ActionRecord(0, "play", "AH"), 4, (), end, (1001, 20, 20)),
        ]
    )
    assert outcomes == [None] * 4
    stored = store.actions.load_room(room.id)
    assert stored is not None and stored.match is not None
    assert stored.match.player_ids == list(seat_ids) and stored.match.totals == [1001, 20, 20]
    assert [action_record(a) for a in stored.actions][:3] == [bid, ActionRecord(1, "pass"), discard]
    [row] = store.history.deals_of(match.id)
    assert (row.card_points, row.score, row.totals) == ([80, 20, 20], [120, 20, 20], [120, 20, 20])
    assert (row.declarer, row.contract, row.made, row.thrown_in, row.extra) == (
        0,
        120,
        True,
        False,
        {"rounded": [120, 20, 20]},
    )
    assert len(store.history.settlements_for([match.id])[match.id]) == 2

    winner = {e["opponent_id"]: (e["played"], e["won"], e["balance"]) for e in store.history.ledger(anna.id)}
    assert winner == {ben.id: (1, 1, {"EUR": "9.81"}), cleo.id: (1, 1, {"EUR": "9.81"})}
    losers = {e["opponent_id"]: (e["played"], e["won"], e["balance"]) for e in store.history.ledger(ben.id)}
    assert losers == {anna.id: (1, 0, {"EUR": "-9.81"}), cleo.id: (1, 0, {})}  # the two losers owe each other nothing

    players = store.players.by_ids(list(seat_ids))
    out = match_entry(stored.match, cleo.id, players, store.history.settlements_for([match.id])[match.id]).model_dump()
    assert [p["seat"] for p in out["players"]] == [0, 1, 2] and out["totals"] == [1001, 20, 20]
    assert out["my_seat"] == 2 and out["result"] == "lost" and out["stake"]["balance"] == "-9.81"
    out = match_entry(stored.match, anna.id, players, store.history.settlements_for([match.id])[match.id]).model_dump()
    assert out["result"] == "won" and out["stake"]["amount"] == "19.62" and out["stake"]["balance"] == "19.62"

    # A rematch offer keeps who has accepted it so far (every person must, at three or four).
    record = store.rooms.record(room.id)
    assert record is not None
    deadline = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
    store.rooms.write(RematchOfferWrite(room.id, record.room.version, 0, deadline, (2,)))
    record = store.rooms.record(room.id)
    assert record is not None and record_state(record).rematch == RematchOffer(0, deadline, frozenset({2}))
    store.rooms.write(RematchOfferWrite(room.id, record.room.version, None, None))
    record = store.rooms.record(room.id)
    assert record is not None and record_state(record).rematch is None and not record.deadlines

    # A database with a table of three seats cannot go back to two seat columns.
    with pytest.raises(RuntimeError, match="more than two seats"):
        downgrade(database_url, BEFORE)


def test_v0_10a_the_one_who_abandons_owes_every_other_player(store: Store) -> None:
    anna, ben, cleo = (store.players.create(name)[0] for name in ("Anna", "Ben", "Cleo"))
    room = store.rooms.create(anna.id, OPTIONS, "private", seats=3)
    store.rooms.write(JoinWrite(room.id, cleo.id, None, seat=2))  # a seat of one's own choice
    with pytest.raises(SeatTaken):
        store.rooms.write(JoinWrite(room.id, ben.id, None, seat=2))
    match = NewMatch(id="m_abandon", options=OPTIONS, seed=3, first_dealer=0, seat_ids=(anna.id, ben.id, cleo.id))
    store.rooms.write(JoinWrite(room.id, ben.id, match))  # the first free seat: 1
    record = store.rooms.record(room.id)
    assert record is not None and record.room.seat_ids == [anna.id, ben.id, cleo.id] and record.room.version == 2
    owed = (
        SettlementRow(anna.id, ben.id, 1001, Decimal("10.01")),
        SettlementRow(cleo.id, ben.id, 1001, Decimal("10.01")),
    )
    end = MatchEnd(None, (1, 3, 1), "absence", (0, 0, 0), Decimal("0.01"), "EUR", owed)
    resign = ActionRecord(1, "resign", reason="absence")
    assert store.actions.commit([ActionWrite(room.id, 2, match.id, 1, resign, None, (), end, (0, 0, 0))]) == [None]
    debts = {e["opponent_id"]: e["balance"] for e in store.history.ledger(ben.id)}
    assert debts == {anna.id: {"EUR": "-10.01"}, cleo.id: {"EUR": "-10.01"}}
    shared = {
        e["opponent_id"]: (e["played"], e["won"], e["shared"], e["balance"]) for e in store.history.ledger(cleo.id)
    }
    # Cleo won against Ben; she and Anna shared first place and owe each other nothing
    assert shared == {ben.id: (1, 1, 0, {"EUR": "10.01"}), anna.id: (1, 0, 1, {})}
