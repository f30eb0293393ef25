"""``python -m backend.admin COMMAND``: look after a running server (docs/operating.md).

    rooms                          live rooms (open and playing) and their players
    close ROOM [--loser PLAYER]    close a stuck room: an open table is closed; a match ends as
                                   abandoned by PLAYER (default: the player the game waits for), R6.2
    ledger PLAYER                  what a player won and owes, per opponent
    ratings --rebuild [--write]    recompute every rating from the stored matches and say whether
                                   the stored ratings equal them (exit 1 if not); --write stores
                                   the recomputed ones in their place (e.g. to rate older matches)
    backup FILE                    a consistent copy of the database, taken while the game runs
    restore FILE                   replace the database with a backup (stop the server first)

The database is ``DATABASE_URL`` (``--database-url`` overrides it); with ``REDIS_URL`` the room
list shows each room's owner and connected players, and ``close`` goes through the room's owner.
"""

from __future__ import annotations

import argparse
import asyncio
import json
from collections.abc import Sequence
from dataclasses import asdict
from pathlib import Path

from backend.db.store import Store
from backend.settings import get_settings

from . import backup, rooms


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m backend.admin", description="Look after a 1001 online server.")
    parser.add_argument("--database-url", default=None, help="default: DATABASE_URL")
    parser.add_argument("--json", action="store_true", help="print JSON instead of text")
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("rooms", help="live rooms and their players")
    close = commands.add_parser("close", help="close a stuck room, settling it as R6.2 says")
    close.add_argument("room")
    close.add_argument("--loser", default=None, help="the player who abandoned the match (a player id)")
    ledger = commands.add_parser("ledger", help="a player's balance with each opponent")
    ledger.add_argument("player")
    ratings = commands.add_parser("ratings", help="recompute the ratings from the stored matches")
    ratings.add_argument("--rebuild", action="store_true", required=True, help="replay every rated match")
    ratings.add_argument("--write", action="store_true", help="store the recomputed ratings in place of the stored")
    for name, text in (("backup", "write a backup to FILE"), ("restore", "restore the database from FILE")):
        sub = commands.add_parser(name, help=text)
        sub.add_argument("file", type=Path)
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    settings = get_settings()
    url = args.database_url or settings.database_url
    if args.command == "backup":
        backup.backup(url, args.file)
        print(f"backed up to {args.file}")
        return 0
    if args.command == "restore":
        backup.restore(url, args.file)
        print(f"restored from {args.file}")
        return 0
    store = Store(url)
    try:
        if args.command == "rooms":
            found = asyncio.run(rooms.list_rooms(store, settings.redis_url))
            if args.json:
                print(json.dumps([asdict(room) for room in found], indent=2))
            for room in [] if args.json else found:
                owner = f" owner={room.owner}" if room.owner else ""
                print(f"{room.id} {room.status} v{room.version} created {room.created_at}{owner}")
                for p in room.players:
                    here = " connected" if p["id"] in room.connected else ""
                    bot = f" (computer, {p['bot']})" if p["bot"] else ""
                    print(f"  seat {p['seat']}: {p['name']}{bot} {p['id']}{here}")
            if not found and not args.json:
                print("no live rooms")
            return 0
        if args.command == "close":
            try:
                print(asyncio.run(rooms.close_room(store, settings.redis_url, args.room, args.loser)))
            except ValueError as error:
                print(f"cannot close {args.room}: {error}")
                return 1
            return 0
        if args.command == "ratings":
            return _ratings(store, args.write, args.json)
        assert args.command == "ledger"
        player = store.players.by_ids([args.player]).get(args.player)
        if player is None:
            print(f"no player {args.player}")
            return 1
        entries = store.history.ledger(args.player)
        if args.json:
            print(json.dumps({"player": player.id, "name": player.name, "opponents": entries}, indent=2, default=str))
            return 0
        print(f"{player.name} ({player.id})")
        for entry in entries:
            balance = ", ".join(f"{amount} {currency}" for currency, amount in entry["balance"].items()) or "0"
            print(
                f"  vs {entry['opponent_name']} ({entry['opponent_id']}): {entry['played']} played, "
                f"{entry['won']} won, {entry['shared']} shared, balance {balance}"
            )
        if not entries:
            print("  no finished match")
        return 0
    finally:
        store.dispose()


def _ratings(store: Store, write: bool, as_json: bool) -> int:
    """Rebuild the ratings; 0 if the stored ones equal the rebuilt ones (or were replaced by them)."""
    report = store.ratings.rebuild(write=write)
    if as_json:
        print(json.dumps(asdict(report), indent=2))
    else:
        print(f"replayed {report.matches} rated matches: {report.ratings} ratings")
        for line in report.differences:
            print(f"  differs: {line}")
        if not report.differences:
            print("the stored ratings equal the rebuilt ones")
        elif write:
            print(f"stored the rebuilt ratings in place of {len(report.differences)} differing")
    return 0 if write or not report.differences else 1


if __name__ == "__main__":
    raise SystemExit(main())
