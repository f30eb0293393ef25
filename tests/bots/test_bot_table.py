"""bench/bot_table.py (issue 25): the one command that prints every game × every step of the ladder; each
game plays to the nearest target it offers (V2.10, ruling V3.9a)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from backend.engine import Rules

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
import bot_table


@pytest.mark.parametrize(
    ("spec", "expected"),
    [
        ("twohand", Rules(target=1001)),
        ("twohand-v1", Rules(target=1001, deck_size=32)),
        ("mcleod", Rules(variant="mcleod", target=1001)),
        ("rassel", Rules(variant="rassel", target=1000)),
        ("thousand3+v6", Rules(variant="thousand3", target=1001, jungfrau=True)),
        ("thousand4+simplified", Rules(variant="thousand4", target=None, scoring="simplified")),
        ("bidding3", Rules(variant="bidding", seats=3, target=1001)),
        ("bidding4+v6", Rules(variant="bidding", seats=4, target=1001, jungfrau=True)),
    ],
)
def test_game_specs_name_the_rules_of_every_game(spec: str, expected: Rules) -> None:
    assert bot_table.rules_of(spec, 1000) == expected


def test_every_listed_game_has_rules_and_an_unknown_one_is_refused() -> None:
    assert {bot_table.rules_of(game, 300).variant for game in bot_table.ALL_GAMES} >= {
        "twohand",
        "mcleod",
        "rassel",
        "thousand3",
        "thousand4",
        "bidding",
    }
    for bad in ("poker", "mcleod+v7"):
        with pytest.raises(ValueError, match="unknown"):
            bot_table.rules_of(bad, 1000)


def test_a_small_table_prints_a_row_per_game_and_pairing(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--games", "twohand,bidding4", "--pairs", "easy:medium,medium:nobody", "--deals", "2"]
    with pytest.raises(ValueError, match="unknown bot level"):
        bot_table.main(argv)
    argv = ["--games", "twohand,bidding4", "--pairs", "easy:medium", "--deals", "2", "--matches", "1"]
    assert bot_table.main([*argv, "--target", "300", "--workers", "1"]) == 0
    out = capsys.readouterr().out
    rows = [line for line in out.splitlines() if line.startswith(("| twohand ", "| bidding4 "))]
    assert [row.split(" | ")[:3] for row in rows] == [
        ["| twohand", "medium vs easy", "2"],
        ["| bidding4", "medium vs easy", "2"],
    ]
    for row in rows:
        cells = row.strip("|").split(" | ")
        assert cells[5].endswith("/1")  # one match played
        assert cells[8].strip() in ("50%", "25%")  # the chance: 1/seats
