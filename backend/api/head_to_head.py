"""``GET /api/head-to-head``: the figures of two people, or of the three or four of a table; and
``GET /api/head-to-head/series``: every one of their people-only matches as final totals (the chart).

Who may read them: a member of the group only (any signed-in player who is one of ``players``).
Every entry to the page — a match, an opponent in the history, a ledger line — is the asking
player's own, and the history and the ledger are private to their players today; a stranger is
answered ``403 not_in_group`` before any id is looked up, so the answer tells nothing about them.
Both routes check it in one place, ``asked_group``.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Annotated

from fastapi import APIRouter, Depends, Query

from backend.db.common import decimal_text
from backend.db.group_series import SERIES_CAP
from backend.db.head_to_head import Figures, HeadToHead, MatchLine
from backend.db.models import Player
from backend.rooms.options import TableOptions

from .codes import TransportCode
from .deps import CurrentPlayer, StoreDep, api_error
from .schemas import (
    BiggestWinOut,
    FiguresBlock,
    GroupDebt,
    GroupMatch,
    GroupMatchPage,
    GroupMatchSeat,
    GroupPlayer,
    HeadToHeadOut,
    HeadToHeadSeriesOut,
    KindFigures,
    MemberFigures,
    SeriesPointOut,
)

router = APIRouter(prefix="/api")
GROUP_SIZES = range(2, 5)  # a pair, or the people of a table of three or four
ID_LENGTH = 40


def group_ids(text: str) -> list[str]:
    """The comma-separated ids of ``players``: 2 to 4 of them, all different (else ``422 bad_message``)."""
    ids = [part.strip() for part in text.split(",")]
    if len(ids) not in GROUP_SIZES or len(set(ids)) != len(ids) or not all(0 < len(i) <= ID_LENGTH for i in ids):
        raise api_error(422, TransportCode.BAD_MESSAGE, "players: 2 to 4 different player ids, comma-separated")
    return ids


@dataclass(frozen=True)
class AskedGroup:
    """The group a member asked about: its ids in the order asked, and each one's person."""

    ids: list[str]
    people: dict[str, Player]


async def asked_group(
    player: CurrentPlayer,
    store: StoreDep,
    players: Annotated[str, Query(max_length=4 * (ID_LENGTH + 1), description="2–4 player ids, comma-separated")],
) -> AskedGroup:
    """Every head-to-head read's access rule: ``players`` well formed (``422 bad_message``), the
    asker one of them (``403 not_in_group``, before any id is looked up), each a person
    (``404 player_not_found``, a computer's id too)."""
    ids = group_ids(players)
    if player.id not in ids:
        raise api_error(403, TransportCode.NOT_IN_GROUP, "only a member of the group may read its figures")
    people = await asyncio.to_thread(store.players.by_ids, ids)
    unknown = [i for i in ids if i not in people or people[i].bot_level is not None]
    if unknown:
        raise api_error(404, TransportCode.PLAYER_NOT_FOUND, f"no person {unknown[0]!r}")
    return AskedGroup(ids=ids, people=people)


GroupDep = Annotated[AskedGroup, Depends(asked_group)]


@router.get("/head-to-head", response_model=HeadToHeadOut, tags=["history"])
async def head_to_head(
    group: GroupDep,
    store: StoreDep,
    computers: Annotated[bool, Query(description="list the matches with a computer seat instead")] = False,
    limit: Annotated[int, Query(ge=1, le=200)] = 50,
    offset: Annotated[int, Query(ge=0, le=1_000_000)] = 0,
) -> HeadToHeadOut:
    """The finished matches at which every one of ``players`` sat: per game kind and member the
    matches won and lost, deals, points, marriages, contracts, the biggest win and the current
    streak — people-only matches and matches with a computer seat apart — the stakes between the
    members, and one page of the matches, newest first."""
    ids, people = group.ids, group.people
    found = await asyncio.to_thread(store.groups.head_to_head, ids, computers, limit, offset)
    return HeadToHeadOut(
        players=[GroupPlayer(id=i, name=people[i].name) for i in ids],
        people=_block(found, False, found.people_matches),
        computers=_block(found, True, found.computer_matches),
        money=[
            GroupDebt(
                debtor_id=d.debtor_id, creditor_id=d.creditor_id, currency=d.currency, amount=decimal_text(d.amount)
            )
            for d in found.money
        ],
        matches=GroupMatchPage(
            computers=computers,
            total=found.computer_matches if computers else found.people_matches,
            limit=limit,
            offset=offset,
            items=[_match(line) for line in found.page],
        ),
    )


@router.get("/head-to-head/series", response_model=HeadToHeadSeriesOut, tags=["history"])
async def head_to_head_series(group: GroupDep, store: StoreDep) -> HeadToHeadSeriesOut:
    """Every people-only match of ``players`` (the latest ``SERIES_CAP``), oldest first: its end,
    game kind and each member's final total — what the page's chart draws, whatever the number."""
    found = await asyncio.to_thread(store.groups.series, group.ids)
    return HeadToHeadSeriesOut(
        players=group.ids,
        points=[
            SeriesPointOut(finished_at=p.finished_at, kind=p.kind, totals=p.totals, won=p.won) for p in found.points
        ],
        cap=SERIES_CAP,
        truncated=found.truncated,
    )


def _block(found: HeadToHead, computers: bool, matches: int) -> FiguresBlock:
    kinds: dict[str, list[Figures]] = {}
    for figures in found.figures:
        if figures.computers == computers:
            kinds.setdefault(figures.kind, []).append(figures)
    return FiguresBlock(
        matches=matches,
        kinds=[
            KindFigures(kind=kind, matches=members[0].matches, members=[_member(f) for f in members])
            for kind, members in kinds.items()
        ],
    )


def _member(f: Figures) -> MemberFigures:
    win = f.biggest_win
    return MemberFigures(
        player_id=f.player_id,
        matches=f.matches,
        won=f.won,
        shared=f.shared,
        lost=f.matches - f.won - f.shared,
        deals=f.deals,
        points=f.points,
        average_points=round(f.points / f.deals, 1) if f.deals else None,
        marriages=f.marriages,
        marriage_points=f.marriage_points,
        contracts=f.contracts,
        contracts_made=f.contracts_made,
        biggest_win=None
        if win is None
        else BiggestWinOut(match_id=win.match_id, total=win.total, margin=win.margin, finished_at=win.finished_at),
        streak=f.streak,
    )


def _match(line: MatchLine) -> GroupMatch:
    return GroupMatch(
        id=line.match_id,
        kind=line.kind,
        finished_at=line.finished_at,
        target=TableOptions.from_json(line.options).rules.goal,
        end_reason=line.end_reason,
        computers=line.computers,
        players=[
            GroupMatchSeat(
                seat=s.seat, id=s.player_id, name=s.name, bot_level=s.bot_level, total=s.total, place=s.place
            )
            for s in line.seats
        ],
        winners=[s.player_id for s in line.seats if s.place == 1],
    )
