"""The replay command line (docs/engine-cli.md): ``python -m backend.cli.replay FILE``."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

import backend.cli.replay as replay_cli
from backend.engine import DealState, Rules, deal_result, name, names, new_deal
from backend.engine import apply_deal as apply
from backend.engine import deal_actions as legal_actions
from backend.engine.cards import cards_in
from tests.engine.support import reach_phase2

REPO = Path(__file__).resolve().parents[2]

EXAMPLE = {
    "rules": {"declaration_scoring": "by_suit", "show_stock_bottom": False, "target": 1001},
    "deal": {
        "dealer": 0,
        "hands": [["AC", "TC", "KC", "QC", "JC", "9C", "AS", "TS"], ["KS", "QS", "JS", "9S", "AH", "TH", "KH", "QH"]],
        "stock": ["JH", "9H", "AD", "TD", "KD", "QD", "JD", "9D"],
    },
    "actions": [{"seat": 1, "play": "KH", "declare": True}, {"seat": 0, "play": "9C"}],
}
EXAMPLE_OUTPUT = {
    "ok": True,
    "turn": 1,
    "legal": ["KS", "QS", "JS", "9S", "AH", "TH", "QH", "JH"],
    "declarable": ["S"],
    "trump": "H",
    "hands": [["AC", "TC", "KC", "QC", "JC", "AS", "TS", "9H"], ["KS", "QS", "JS", "9S", "AH", "TH", "QH", "JH"]],
    "stock": ["AD", "TD", "KD", "QD", "JD", "9D"],
    "tricks": [{"leader": 1, "cards": ["KH", "9C"], "winner": 1}],
    "declarations": [{"seat": 1, "suit": "H", "points": 60}],
    "card_points": [0, 4],
    "deal_over": False,
    "score": None,
}


def with_actions(*actions, **changes):
    doc = json.loads(json.dumps(EXAMPLE))
    doc["actions"] = list(actions)
    doc.update(changes)
    return doc


def run_main(doc, capsys, raw: str | None = None):
    """Call ``main`` in-process on ``doc`` given on standard input; return (status, stdout object, stderr)."""
    text = raw if raw is not None else json.dumps(doc)
    status = replay_cli.main(["-"], stdin=io.StringIO(text))
    out, err = capsys.readouterr()
    return status, (json.loads(out) if out else None), err


def test_example_from_the_contract(capsys):
    status, out, err = run_main(EXAMPLE, capsys)
    assert (status, out, err) == (0, EXAMPLE_OUTPUT, "")
    assert list(out) == list(EXAMPLE_OUTPUT)  # the documented key order


def test_file_argument(tmp_path, capsys):
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(EXAMPLE))
    assert replay_cli.main([str(path)]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out) == EXAMPLE_OUTPUT and out.count("\n") == 1 and err == ""


def test_no_actions_forehand_to_lead(capsys):
    status, out, _ = run_main(with_actions(), capsys)
    assert status == 0
    assert out["turn"] == 1 and out["legal"] == EXAMPLE["deal"]["hands"][1]
    assert out["declarable"] == ["S", "H"] and out["trump"] is None  # R3: K and Q of spades and of hearts
    assert out["tricks"] == [] and out["card_points"] == [0, 0] and out["score"] is None


def test_whole_deal_reports_score(capsys):
    actions, state = play_out(77, 1, lambda legal: legal[-1])  # declares whenever it can
    status, out, _ = run_main({"seed": 77, "dealer": 1, "actions": actions}, capsys)
    assert status == 0 and out["deal_over"] is True and out["turn"] is None
    assert out["legal"] == [] and out["declarable"] == [] and out["hands"] == [[], []] and out["stock"] == []
    assert out["score"] == list(deal_result(state).score)
    assert sum(out["card_points"]) == 120 and len(out["tricks"]) == 12


@pytest.mark.parametrize("dealer", [None, 0, 1])
def test_seed_deals_with_the_engine_and_dealer_defaults_to_0(dealer, capsys):
    doc = {"seed": 123, "actions": []}
    if dealer is not None:
        doc["dealer"] = dealer
    state = new_deal(Rules(), 123, dealer or 0)
    status, out, _ = run_main(doc, capsys)
    assert status == 0 and out["turn"] == 1 - (dealer or 0)
    assert out["hands"] == [[name(c) for c in cards_in(state.hands[s])] for s in (0, 1)]
    assert out["stock"] == [name(c) for c in state.stock]


def test_v1_32_card_deal(capsys):
    status, out, _ = run_main({"rules": {"deck_size": 32}, "seed": 5, "actions": []}, capsys)
    assert status == 0 and [len(h) for h in out["hands"]] == [6, 6] and len(out["stock"]) == 20


@pytest.mark.parametrize(
    ("actions", "index", "code"),
    [
        ([{"seat": 0, "play": "AC"}], 0, "not_your_turn"),
        ([{"seat": 1, "play": "AC"}], 0, "card_not_held"),
        ([{"seat": 1, "play": "AH", "declare": True}], 0, "cannot_declare"),
        ([{"seat": 1, "play": "KS"}, {"seat": 0, "play": "KC", "declare": True}], 1, "cannot_declare"),
    ],
)
def test_illegal_action_exit_3(actions, index, code, capsys):
    status, out, err = run_main(with_actions(*actions), capsys)
    assert status == 3 and err == ""
    assert list(out) == ["ok", "index", "code", "message"]
    assert out["ok"] is False and out["index"] == index and out["code"] == code and out["message"]


def phase2_doc():
    """A hand-built deal whose four phase-1 tricks are in the actions; hearts are trump (seat 1 declared).

    In phase 2 seat 1 leads from JC AS 9S KH 9H AD TD 9D; seat 0 holds TC 9C KC TS QS JS JH AH.
    """
    state = reach_phase2("JC AS 9S KH 9H AD TD 9D", "TC 9C KC TS QS JS JH AH", declare="QH")
    actions = []
    for number, trick in enumerate(state.tricks):
        lead, follow = (name(c) for c in trick.cards)
        actions.append({"seat": trick.leader, "play": lead, "declare": number == 0})
        actions.append({"seat": 1 - trick.leader, "play": follow})
    return {
        "deal": {
            "dealer": state.dealer,
            "hands": [names(state.initial_hands[0]), names(state.initial_hands[1])],
            "stock": [name(c) for c in state.initial_stock],
        },
        "actions": actions,
    }


@pytest.mark.parametrize(
    ("lead", "follow", "code"),
    [
        ("JC", "9C", "must_beat"),
        ("JC", "TS", "must_follow_suit"),
        ("AS", "AH", "must_follow_suit"),
        ("AD", "TC", "must_trump"),
        ("KH", "JH", "must_beat"),
    ],
)
def test_phase2_codes_exit_3(lead, follow, code, capsys):
    doc = phase2_doc()
    status, out, _ = run_main(doc, capsys)
    assert status == 0 and out["stock"] == [] and out["trump"] == "H" and out["turn"] == 1
    doc["actions"] += [{"seat": 1, "play": lead}, {"seat": 0, "play": follow}]
    status, out, _ = run_main(doc, capsys)
    assert (status, out["index"], out["code"]) == (3, 9, code)


def play_out(seed: int, dealer: int, pick) -> tuple[list[dict], DealState]:
    """Actions of a whole deal from ``seed``, choosing ``pick(legal_actions)`` each time."""
    state = new_deal(Rules(), seed, dealer)
    actions = []
    while not state.over:
        action = pick(legal_actions(state, state.turn))
        actions.append({"seat": state.turn, "play": name(action.card), "declare": action.declare})
        state, _ = apply(state, state.turn, action)
    return actions, state


def test_deal_over_exit_3(capsys):
    actions, _ = play_out(9, 0, lambda legal: legal[0])
    actions.append({"seat": 0, "play": "AC"})
    status, out, _ = run_main({"seed": 9, "actions": actions}, capsys)
    assert (status, out["index"], out["code"]) == (3, 24, "deal_over")


@pytest.mark.parametrize(
    ("change", "needle"),
    [
        ({"rules": {"colour": "red"}}, "colour"),
        ({"rules": {"target": 1000}}, "target"),
        ({"rules": {"declaration_scoring": "by_rank"}}, "declaration_scoring"),
        ({"rules": []}, "rules"),
        ({"seed": 5}, "seed"),  # both a deal and a seed
        ({"dealer": 1}, "dealer"),  # a top-level dealer with an explicit deal
        ({"actions": {}}, "actions"),
        ({"actions": [{"seat": 1}]}, "play"),
        ({"actions": [{"seat": 1, "play": "KH", "declare": "yes"}]}, "declare"),
        ({"actions": [{"seat": "1", "play": "KH"}]}, "seat"),
        ({"actions": [{"seat": 2, "play": "KH"}]}, "seat"),
        ({"actions": [{"seat": True, "play": "KH"}]}, "seat"),
        ({"actions": [{"seat": 1, "play": "XH"}]}, "XH"),
        ({"actions": [{"seat": 1, "play": "10H"}]}, "10H"),
        ({"actions": [{"seat": 1, "play": "7H"}]}, "7H"),  # not a card of the 24-card pack
        ({"actions": [{"seat": 1, "play": 18}]}, "play"),
        ({"actions": [{"seat": 1, "play": "KH", "trump": "H"}]}, "trump"),
        ({"actions": [{"seat": 0, "play": "AC"}, {"seat": 1, "play": "ZZ"}]}, "actions[1]"),  # checked before playing
    ],
)
def test_malformed_input_exit_2(change, needle, capsys):
    doc = with_actions({"seat": 1, "play": "KH"})
    doc.update(change)
    status, out, err = run_main(doc, capsys)
    assert status == 2 and out is None
    assert err.count("\n") == 1 and needle in err


@pytest.mark.parametrize(
    ("deal", "needle"),
    [
        ({"dealer": 0, "hands": [["AC"], ["TC"]]}, "stock"),
        ({"hands": EXAMPLE["deal"]["hands"], "stock": EXAMPLE["deal"]["stock"]}, "dealer"),
        ({"dealer": 2, "hands": EXAMPLE["deal"]["hands"], "stock": EXAMPLE["deal"]["stock"]}, "dealer"),
        ({"dealer": 0, "hands": EXAMPLE["deal"]["hands"], "stock": EXAMPLE["deal"]["stock"][:7]}, "partition"),
        ({"dealer": 0, "hands": EXAMPLE["deal"]["hands"], "stock": [*EXAMPLE["deal"]["stock"][:7], "JH"]}, "twice"),
        ({"dealer": 0, "hands": EXAMPLE["deal"]["hands"][:1], "stock": EXAMPLE["deal"]["stock"]}, "two hands"),
        ({"dealer": 0, "hands": "AC TC", "stock": EXAMPLE["deal"]["stock"]}, "hands"),
        ({"dealer": 0, "hands": EXAMPLE["deal"]["hands"], "stock": "JH"}, "stock"),
        (
            {
                "dealer": 0,
                "hands": [EXAMPLE["deal"]["hands"][0] + ["JH"], EXAMPLE["deal"]["hands"][1][:7]],
                "stock": ["QH", *EXAMPLE["deal"]["stock"][1:]],
            },
            "8 cards",
        ),
        ([], "deal"),
    ],
)
def test_malformed_deal_exit_2(deal, needle, capsys):
    status, out, err = run_main(with_actions(deal=deal), capsys)
    assert status == 2 and out is None and err.count("\n") == 1 and needle in err


@pytest.mark.parametrize(
    ("raw", "needle"),
    [
        ("{not json", "JSON"),
        ("", "JSON"),
        ("[]", "object"),
        ('{"actions": []}', "'deal' or 'seed'"),
        ('{"seed": 1}', "actions"),
        ('{"seed": -1, "actions": []}', "seed"),
        ('{"seed": 1.5, "actions": []}', "seed"),
        ('{"seed": "1", "actions": []}', "seed"),
    ],
)
def test_malformed_json_exit_2(raw, needle, capsys):
    status, out, err = run_main(None, capsys, raw=raw)
    assert status == 2 and out is None and err.count("\n") == 1 and needle in err


def test_missing_file_and_usage_exit_2(tmp_path, capsys):
    assert replay_cli.main([str(tmp_path / "nope.json")]) == 2
    out, err = capsys.readouterr()
    assert out == "" and "nope.json" in err
    assert replay_cli.main([]) == 2
    assert replay_cli.main(["a", "b"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and "usage" in err


def cli(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "backend.cli.replay", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=60,
    )


def test_subprocess_exit_codes_and_stdin():
    ok = cli("-", stdin=json.dumps(EXAMPLE))
    assert ok.returncode == 0 and json.loads(ok.stdout) == EXAMPLE_OUTPUT and ok.stderr == ""
    illegal = cli("-", stdin=json.dumps(with_actions({"seat": 0, "play": "AC"})))
    assert illegal.returncode == 3 and json.loads(illegal.stdout)["code"] == "not_your_turn"
    malformed = cli("-", stdin="{")
    assert malformed.returncode == 2 and malformed.stdout == "" and len(malformed.stderr.splitlines()) == 1


def test_subprocess_file(tmp_path):
    path = tmp_path / "deal.json"
    path.write_text(json.dumps({"seed": 123, "actions": []}))
    done = cli(str(path))
    assert done.returncode == 0 and json.loads(done.stdout)["turn"] == 1


def test_the_engine_package_holds_no_cli_and_replays_matches():
    import importlib.util

    import backend.engine
    from backend.engine.match import replay

    assert importlib.util.find_spec("backend.engine.replay") is None  # the pure engine does no I/O
    assert not hasattr(backend.engine, "replay")
    assert backend.engine.replay_match is replay
    rebuilt = backend.engine.replay_match(Rules(), 3, [])
    assert rebuilt.seed == 3 and rebuilt.totals == (0, 0)
