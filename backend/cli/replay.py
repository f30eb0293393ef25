"""Replay one deal from JSON: ``python -m backend.cli.replay FILE`` (``-`` reads stdin).

A thin layer over the engine (parsing and output only); the contract is in docs/engine-cli.md.

Input::

    {"rules": {...},                                  # optional; every field optional (Rules.from_dict)
     "deal": {"dealer": 0, "hands": [[...], [...]], "stock": [...]},   # stock[0] is the top card
     "actions": [{"seat": 1, "play": "KH", "declare": true}, ...]}

``deal`` may be replaced by ``"seed": N`` (the engine shuffles and deals, R2); the dealer is then the
optional top-level ``"dealer"`` (default 0).

With ``rules.variant`` (V2–V7, RULES-VARIANTS.md) the deal has n hands and a ``talon``, an optional
top-level ``"totals"`` gives the match totals before the deal (V7.7), and the actions are also
``{"seat": s, "bid": 60}``, ``{"seat": s, "pass": true}`` and ``{"seat": s, "discard": ["9H", "JC"]}``.

Exit status: 0 and the final state when every action is legal; 3 and the first illegal action;
2 and a one-line message on standard error for malformed input (nothing on standard output).
"""

from __future__ import annotations

import json
import sys
from typing import Any, TextIO

from backend.engine import (
    Action,
    Bid,
    DealState,
    Discard,
    IllegalAction,
    Pass,
    Play,
    Rules,
    apply_deal,
    deal_from_hands,
    deal_result,
    declarable_suits,
    legal_bids,
    legal_mask,
    new_deal,
)
from backend.engine.cards import CARD_NAMES, SUITS, cards_in, names
from backend.engine.kernel import NO_TRUMP

EXIT_OK = 0
EXIT_MALFORMED = 2
EXIT_ILLEGAL = 3

USAGE = "usage: python -m backend.cli.replay FILE   (FILE '-' reads standard input)"


class Malformed(ValueError):
    """The input is not a replay document; the message names the problem."""


def _object(value: Any, where: str, required: set[str], optional: set[str]) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise Malformed(f"{where} must be an object")
    missing = sorted(required - value.keys())
    if missing:
        raise Malformed(f"{where} is missing {', '.join(repr(k) for k in missing)}")
    unknown = sorted(value.keys() - required - optional)
    if unknown:
        raise Malformed(f"{where} has unknown field(s) {', '.join(repr(k) for k in unknown)}")
    return value


def _seat(value: Any, where: str, seats: int = 2) -> int:
    if type(value) is not int or not 0 <= value < seats:
        shown = "0 or 1" if seats == 2 else f"a seat from 0 to {seats - 1}"
        raise Malformed(f"{where} must be {shown}, not {json.dumps(value)}")
    return value


def _card(value: Any, where: str, pack: int, deck_size: int) -> int:
    if not isinstance(value, str):
        raise Malformed(f'{where} must be a card name such as "TH", not {json.dumps(value)}')
    try:
        card_id = CARD_NAMES.index(value)
    except ValueError:
        raise Malformed(f"{where}: unknown card {json.dumps(value)}") from None
    if not pack >> card_id & 1:
        raise Malformed(f"{where}: {value} is not in the {deck_size}-card pack")
    return card_id


def _cards(value: Any, where: str, pack: int, deck_size: int) -> list[int]:
    if not isinstance(value, list):
        raise Malformed(f"{where} must be a list of card names")
    return [_card(v, f"{where}[{i}]", pack, deck_size) for i, v in enumerate(value)]


# The fields of a document and of an action, in the two shapes the contract has: two-hand 1001's
# (no ``rules.variant``) and a game of three or four's (docs/engine-cli.md).
_DOCUMENT = {
    True: ({"actions"}, {"rules", "deal", "seed", "dealer"}),
    False: ({"actions", "rules"}, {"deal", "seed", "dealer", "totals"}),
}
_DEALT = {True: ({"dealer", "hands", "stock"}, set()), False: ({"dealer", "hands"}, {"talon"})}
_ACTION = {True: ({"seat", "play"}, {"declare"}), False: ({"seat"}, {"play", "declare", "bid", "pass", "discard"})}


def _is_two_hand(doc: Any) -> bool:
    return not (isinstance(doc, dict) and isinstance(doc.get("rules"), dict) and "variant" in doc["rules"])


def parse(doc: Any) -> tuple[DealState, list[tuple[int, Action]]]:
    """Check a replay document; return the starting deal and the actions. Raises ``Malformed``."""
    two_hand = _is_two_hand(doc)
    doc = _object(doc, "the input", *_DOCUMENT[two_hand])
    rules_data = doc.get("rules", {})
    if not isinstance(rules_data, dict):
        raise Malformed("rules must be an object")
    try:
        rules = Rules.from_dict(rules_data)
    except (TypeError, ValueError) as exc:
        raise Malformed(f"rules: {exc}") from None
    n, pack, size = rules.n, rules.pack, rules.layout.deck_size
    totals = doc.get("totals")
    if totals is not None and (
        not isinstance(totals, list) or len(totals) != n or any(type(t) is not int for t in totals)
    ):
        raise Malformed(f"totals must be a list of {n} integers")

    if ("deal" in doc) == ("seed" in doc):
        raise Malformed("give either 'deal' or 'seed', not both or neither")
    if "seed" in doc:
        seed = doc["seed"]
        if type(seed) is not int or seed < 0:
            raise Malformed(f"seed must be a non-negative integer, not {json.dumps(seed)}")
        state = new_deal(rules, seed, _seat(doc.get("dealer", 0), "dealer", n), totals)
    else:
        if "dealer" in doc:
            raise Malformed("a top-level 'dealer' goes with 'seed'; with 'deal' give deal.dealer")
        deal = _object(doc["deal"], "deal", *_DEALT[two_hand])
        dealer = _seat(deal["dealer"], "deal.dealer", n)
        hands = deal["hands"]
        if not isinstance(hands, list) or len(hands) != n:
            raise Malformed(f"deal.hands must be a list of {'two' if n == 2 else n} hands")
        cards = [_cards(hands[seat], f"deal.hands[{seat}]", pack, size) for seat in range(n)]
        stock = _cards(deal.get("stock", []), "deal.stock", pack, size)
        talon = _cards(deal.get("talon", []), "deal.talon", pack, size)
        try:
            state = deal_from_hands(rules, dealer, cards, stock=stock, talon=talon, totals=totals)
        except ValueError as exc:
            raise Malformed(f"deal: {exc}") from None

    actions = doc["actions"]
    if not isinstance(actions, list):
        raise Malformed("actions must be a list")
    return state, [_action(action, f"actions[{i}]", two_hand, n, pack, size) for i, action in enumerate(actions)]


def _action(value: Any, where: str, two_hand: bool, n: int, pack: int, size: int) -> tuple[int, Action]:
    action = _object(value, where, *_ACTION[two_hand])
    seat = _seat(action["seat"], f"{where}.seat", n)
    kinds = sorted({"play", "bid", "pass", "discard"} & action.keys())
    if len(kinds) != 1:
        raise Malformed(f"{where} needs exactly one of 'play', 'bid', 'pass', 'discard'")
    if "declare" in action and kinds != ["play"]:
        raise Malformed(f"{where}.declare goes with 'play'")
    if kinds == ["play"]:
        declare = action.get("declare", False)
        if not isinstance(declare, bool):
            raise Malformed(f"{where}.declare must be true or false, not {json.dumps(declare)}")
        return seat, Play(_card(action["play"], f"{where}.play", pack, size), declare)
    if kinds == ["bid"]:
        amount = action["bid"]
        if type(amount) is not int:
            raise Malformed(f"{where}.bid must be an integer, not {json.dumps(amount)}")
        return seat, Bid(amount)
    if kinds == ["pass"]:
        if action["pass"] is not True:
            raise Malformed(f"{where}.pass must be true")
        return seat, Pass()
    two = action["discard"]
    if not isinstance(two, list) or len(two) != 2:
        raise Malformed(f"{where}.discard must be a list of two card names")
    a, b = _cards(two, f"{where}.discard", pack, size)
    return seat, Discard(a, b)


def summary(state: DealState) -> dict[str, Any]:
    """The state after the actions, as the CLI prints it: two-hand 1001's shape (with its stock and
    score), or a game of three or four's (its variant, phase and bids, the talon and the auction where
    it has them, and its result) — docs/engine-cli.md."""
    rules, turn = state.rules, state.turn
    two_hand = rules.two_hand
    out: dict[str, Any] = {"ok": True}
    if not two_hand:
        out |= {"variant": rules.variant, "seats": state.n, "phase": state.phase}
    out["turn"] = turn
    if not two_hand:
        out["bids"] = [] if turn is None else list(legal_bids(state, turn))
    out["legal"] = [CARD_NAMES[c] for c in cards_in(legal_mask(state))]
    out["declarable"] = [] if turn is None else [SUITS[s] for s in declarable_suits(state, turn)]
    out["trump"] = None if state.trump == NO_TRUMP else SUITS[state.trump]
    out["hands"] = [names(h) for h in state.hands]
    if state.initial_stock:
        out["stock"] = [CARD_NAMES[c] for c in state.stock]
    if rules.layout.talon_size:  # V2, V7: the talon as dealt, and what the declarer laid away
        out["talon"] = [CARD_NAMES[c] for c in state.talon]
        out["discards"] = names(state.discards)
    if rules.game.has_auction:
        out["auction"] = {
            "calls": [
                {"seat": c.seat, "bid": c.bid} if c.bid is not None else {"seat": c.seat, "pass": True}
                for c in state.calls
            ],
            "declarer": state.declarer,
            "contract": state.contract,
        }
    out["tricks"] = [
        {"leader": t.leader, "cards": [CARD_NAMES[c] for c in t.cards], "winner": t.winner} for t in state.tricks
    ]
    out["declarations"] = [{"seat": d.seat, "suit": SUITS[d.suit], "points": d.points} for d in state.declarations]
    out["card_points"] = [state.seat_card_points(s) for s in range(state.n)]
    out["deal_over"] = state.over
    result = deal_result(state) if state.over else None
    if two_hand:
        out["score"] = None if result is None else list(result.score)
        return out
    out["result"] = None
    if result is not None:
        out["result"] = {
            "thrown_in": result.thrown_in,
            "declarer": result.declarer,
            "contract": result.contract,
            "made": result.made,
            "seats": [
                {
                    "seat": s,
                    "tricks": result.tricks_won[s],
                    "card_points": result.card_points[s],
                    "declaration_points": result.declaration_points[s],
                    "deal_points": result.deal_points[s],
                    "rounded": result.rounded[s],
                    "jungfrau": result.jungfrau[s],
                    "score": result.score[s],
                }
                for s in range(state.n)
            ],
        }
    return out


def run(doc: Any) -> tuple[int, dict[str, Any]]:
    """Replay a parsed JSON document: ``(exit status, object to print)``. Raises ``Malformed``."""
    state, actions = parse(doc)
    for index, (seat, action) in enumerate(actions):
        try:
            state, _ = apply_deal(state, seat, action)
        except IllegalAction as exc:
            return EXIT_ILLEGAL, {"ok": False, "index": index, "code": exc.code, "message": exc.message}
    return EXIT_OK, summary(state)


def _read(path: str, stdin: TextIO) -> Any:
    try:
        if path == "-":
            text = stdin.read()
        else:
            with open(path, encoding="utf-8") as handle:
                text = handle.read()
    except (OSError, UnicodeDecodeError) as exc:
        raise Malformed(f"cannot read {path}: {exc}") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise Malformed(f"not valid JSON: {exc}") from None


def main(argv: list[str] | None = None, stdin: TextIO | None = None, stdout: TextIO | None = None) -> int:
    """The command line; returns the exit status (0 legal, 3 illegal action, 2 malformed input)."""
    args = sys.argv[1:] if argv is None else list(argv)
    stdin = sys.stdin if stdin is None else stdin
    stdout = sys.stdout if stdout is None else stdout
    if args in (["-h"], ["--help"]):
        print(USAGE, file=stdout)
        return EXIT_OK
    if len(args) != 1:
        print(USAGE, file=sys.stderr)
        return EXIT_MALFORMED
    try:
        status, out = run(_read(args[0], stdin))
    except Malformed as exc:
        print(f"replay: {exc}".replace("\n", " "), file=sys.stderr)
        return EXIT_MALFORMED
    print(json.dumps(out), file=stdout)
    return status


if __name__ == "__main__":
    sys.exit(main())
