"""The game kind of a match (``backend.db.kinds.game_kind``): two-hand 1001 (R1–R7) and V1 apart, each
variant by the engine's id, whatever its seats, target or options."""

from __future__ import annotations

import pytest

from backend.db.kinds import GAME_KINDS, game_kind
from backend.engine import VARIANTS, Rules
from backend.rooms.options import TableOptions


@pytest.mark.parametrize(
    ("rules", "kind"),
    [
        (Rules(), "twohand"),
        (Rules(target=501, declaration_scoring="by_order"), "twohand"),
        (Rules(deck_size=32, jungfrau=True), "twohand32"),  # V1
        (Rules("mcleod"), "mcleod"),
        (Rules("rassel", target=500), "rassel"),
        (Rules("thousand3", scoring="simplified"), "thousand3"),
        (Rules("thousand4"), "thousand4"),
        (Rules("bidding", seats=4, jungfrau=True), "bidding"),
    ],
)
def test_a_match_s_kind_comes_from_its_stored_options(rules: Rules, kind: str) -> None:
    assert game_kind(TableOptions(rules=rules).to_json()) == kind
    assert game_kind({**rules.to_dict(), "variant": rules.variant}) == kind  # the wire's shape too


def test_every_game_of_the_engine_has_a_kind() -> None:
    assert {game_kind({"variant": v}) for v in VARIANTS} | {"twohand32"} == set(GAME_KINDS)
    with pytest.raises(ValueError):
        game_kind({"variant": "skat"})
