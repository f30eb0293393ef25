"""The one object the app makes from a database URL: the engine, and the repositories over it, one
per aggregate, each of its reads and writes one short transaction.

Repositories are synchronous (SQLAlchemy's ordinary engine); the rooms layer runs them in a
worker thread so the event loop never waits on the database.
"""

from __future__ import annotations

from sqlalchemy import Engine, select

from .action_log import ActionLog
from .analyses import AnalysisRepository
from .database import Database
from .groups import GroupRepository
from .history import HistoryRepository
from .players import PlayerRepository
from .rating_repository import RatingRepository
from .rooms import RoomRepository


class Store:
    def __init__(self, url: str) -> None:
        self.database = Database(url)
        self.engine: Engine = self.database.engine
        self.players = PlayerRepository(self.database)  # accounts, tokens, tickets, device links
        self.rooms = RoomRepository(self.database)  # tables and every change of one but its moves
        self.actions = ActionLog(self.database)  # the moves (group commit) and a room's rebuild
        self.history = HistoryRepository(self.database)  # matches played, deals, the ledger
        self.ratings = RatingRepository(self.database)
        self.groups = GroupRepository(self.database)  # head to head
        self.analyses = AnalysisRepository(self.database)  # the computer analyses of finished deals

    def dispose(self) -> None:
        self.engine.dispose()

    def ping(self) -> bool:
        with self.database.sessions() as session:
            session.execute(select(1))
        return True
