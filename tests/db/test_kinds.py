"""The game kind of a stored match (``backend.ratings.kinds.options_kind``), which ratings and head
to head both keep figures by: two-hand 1001 (R1–R7) and V1 apart, V7 for three and for four apart,
every other variant by the engine's id, whatever its target or options (V6 Jungfrau included)."""

from __future__ import annotations

import pytest

from backend.engine import Rules
from backend.ratings import RATING_KINDS, options_kind
from backend.rooms.options import TableOptions


@pytest.mark.parametrize(
    ("rules", "kind"),
    [
        (Rules(), "twohand24"),
        (Rules(target=501, declaration_scoring="by_order"), "twohand24"),
        (Rules(deck_size=32, jungfrau=True), "twohand32"),  # V1
        (Rules("mcleod"), "mcleod"),
        (Rules("rassel", target=500), "rassel"),
        (Rules("thousand3", scoring="simplified"), "thousand3"),
        (Rules("thousand4"), "thousand4"),
        (Rules("bidding", seats=3), "bidding3"),
        (Rules("bidding", seats=4, jungfrau=True), "bidding4"),
    ],
)
def test_a_match_s_kind_comes_from_its_stored_options(rules: Rules, kind: str) -> None:
    assert options_kind(TableOptions(rules=rules).to_json()) == kind
    assert kind in RATING_KINDS


def test_an_unknown_game_has_no_kind() -> None:
    with pytest.raises(ValueError):
        options_kind({"variant": "skat"})
