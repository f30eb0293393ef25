"""Message and request schemas (pydantic). Client messages are a union discriminated by
``type`` with extra fields forbidden, so anything unexpected is refused as ``bad_message``."""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    TypeAdapter,
    field_validator,
    model_validator,
)

from backend.analysis.model import Grade
from backend.engine import Rules
from backend.engine.deal import Phase
from backend.engine.variants import TWO_HAND, VariantId
from backend.history.models import DealDeclaration as DealDeclaration
from backend.history.models import DealOut as DealOut
from backend.history.models import MatchDetail as MatchDetail
from backend.history.models import MatchOut as MatchOut
from backend.history.models import MatchPlayer as MatchPlayer
from backend.history.models import MatchStake as MatchStake
from backend.history.models import RatingChangeOut as RatingChangeOut
from backend.history.models import ReplayResult as ReplayResult
from backend.history.models import SeatedMatchPlayer as SeatedMatchPlayer
from backend.history.models import SettlementOut as SettlementOut
from backend.rooms.bots import level_problem
from backend.rooms.messages import (
    FrameAction,  # one model of an action as a frame shows it: replays, analyses, hints
    OptionsOut,
)
from backend.rooms.options import Pace

MAX_CHAT = 200
MAX_VERSION = 2**53  # what a JavaScript client can count exactly


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


# ---------------------------------------------------------------- REST bodies


def _printable(value: str, what: str) -> str:
    if not value.isprintable():
        raise ValueError(f"{what} must contain printable characters only")
    return value


class PlayerCreate(Strict):
    name: str = Field(min_length=1, max_length=24, examples=["Anna"])

    @field_validator("name")
    @classmethod
    def _name(cls, value: str) -> str:
        value = value.strip()
        if not value:
            raise ValueError("name must not be blank")
        return _printable(value, "name")


class PlayerOut(BaseModel):
    id: str
    name: str


class PlayerCreated(PlayerOut):
    token: str = Field(description="The player's secret: shown once, send it as `Authorization: Bearer …`")


class SignedOut(BaseModel):
    devices: int = Field(description="How many other devices were signed out")


# The computer's levels (backend.bots.LEVELS; which of them play a game: rooms.bots.computer_levels).
BotLevel = Literal["easy", "medium", "hard", "expert"]


class RoomCreate(Strict):
    # Every target some game offers; which ones a game takes is the engine's (R5, V2.10, ruling V3.9a, V4.9a).
    target: Literal[1001, 501, 301, 1000, 500, 300, 100] = 1001
    declaration_scoring: Literal["by_suit", "by_order"] = "by_suit"
    show_stock_bottom: bool = False
    open_scores: bool = False
    deck_size: int | None = Field(
        default=None, description="the pack: two-hand 1001 24 (the default) or 32 (V1); the others their own (GAMES)"
    )
    stake_per_point: Decimal = Field(default=Decimal(0), ge=0, max_digits=18, decimal_places=6)
    currency: str = Field(default="chips", min_length=1, max_length=12)
    visibility: Literal["public", "private"] = "public"
    reconnect_grace_s: int = Field(default=120, ge=5, le=3600, description="R6.2: seconds a dropped seat is held")
    opponent: Literal["human", "computer"] = "human"
    bot_level: BotLevel = "medium"
    spectators: bool = Field(default=True, description="others may watch (private tables: with a watch link)")
    variant: VariantId | None = Field(
        default=None,
        description="twohand (the default, R1–R7 and V1) or a game for three or four (RULES-VARIANTS.md V2–V7): "
        "room.options.variant, sent back as it came",
    )
    seats: int | None = Field(default=None, ge=2, le=4, description="V7: 3 or 4; every other game has one count")
    scoring: Literal["original", "simplified"] = Field(default="original", description="V4.9 (V4 and V5 only)")
    jungfrau: bool = Field(default=False, description="V6: 100 (10 simplified) to a player who took no trick")
    computer_seats: int = Field(default=0, ge=0, le=3, description="V2–V7: seats the computer plays, at bot_level")
    rated: bool = Field(default=True, description="a finished match between people changes their ratings")
    reactions_for_spectators: bool = Field(
        default=False, description="spectators see the players' quick reactions too (off: players only)"
    )
    pace: Pace = Field(
        default="live",
        description="R6.3: live (a dropped seat is held reconnect_grace_s, R6.2), or days per move (1d, 2d, 3d, 7d): "
        "no socket needed; a person who does not act in time has abandoned the match",
    )
    auto_play: bool = Field(
        default=False,
        description="turn-based tables only (refused at a live one): a person's only legal card is played by itself",
    )
    hints: bool | None = Field(
        default=None,
        description="hints at my turn (backend/rooms/hints.py): unset, on wherever they may be offered (one "
        "person against the computer, no stake); false, off; true where they may not be offered: hints_unavailable",
    )

    @model_validator(mode="after")
    def _computer_games_are_friendly(self) -> RoomCreate:
        if self.auto_play and self.pace == "live":
            raise ValueError("auto_play is for turn-based tables (pace 1d, 2d, 3d or 7d)")
        if self.computers and self.stake_per_point != 0:
            raise ValueError("games against the computer are played for no stake (stake_per_point must be 0)")
        rules = self.rules()  # the engine judges the combination (e.g. a target the game does not offer)
        if not self.two_hand and self.computer_seats >= rules.n:
            raise ValueError("at least one seat is a person's")
        problem = level_problem(rules, self.bot_level) if self.computers else None
        if problem is not None:
            raise ValueError(problem)
        return self

    @property
    def computers(self) -> int:
        """How many seats the computer plays."""
        if self.two_hand:
            return 1 if self.opponent == "computer" or self.computer_seats else 0
        return self.computer_seats

    @property
    def two_hand(self) -> bool:
        return self.variant in (None, TWO_HAND.id)

    def rules(self) -> Rules:
        """The engine's rules for this table; ``ValueError`` if the engine refuses the combination."""
        if self.two_hand:
            if self.seats not in (None, 2):
                raise ValueError("two-hand 1001 is played by two")
            return Rules(
                declaration_scoring=self.declaration_scoring,
                show_stock_bottom=self.show_stock_bottom,
                target=self.target,
                open_scores=self.open_scores,
                deck_size=self.deck_size,
                jungfrau=self.jungfrau,
            )
        assert self.variant is not None  # not two-hand 1001
        return Rules(  # two-hand 1001's own options at other values are refused by the engine (ruling V0.5b)
            variant=self.variant,
            seats=self.seats,
            declaration_scoring=self.declaration_scoring,
            show_stock_bottom=self.show_stock_bottom,
            deck_size=self.deck_size,
            target=self.target if "target" in self.model_fields_set else None,
            scoring=self.scoring,
            jungfrau=self.jungfrau,
            open_scores=self.open_scores,
        )

    @field_validator("stake_per_point", mode="before")
    @classmethod
    def _no_floats(cls, value: Any) -> Any:
        if isinstance(value, float):
            # R6.1: a JSON float may already have lost digits; ask for a string.
            return Decimal(repr(value))
        return value

    @field_validator("currency")
    @classmethod
    def _currency(cls, value: str) -> str:
        value = value.strip()
        if not value:
            raise ValueError("currency must not be blank")
        return _printable(value, "currency")


class ComputersIn(Strict):
    """The creator of an open table fills its empty seats with the computer."""

    level: BotLevel = "medium"


class RoomPatch(Strict):
    """What the players may change at their table at any time (at least one of them)."""

    spectators: bool | None = Field(default=None, description="others may watch (private tables: with a watch link)")
    reactions_for_spectators: bool | None = Field(default=None, description="spectators see the quick reactions too")

    @model_validator(mode="after")
    def _something(self) -> RoomPatch:
        if self.spectators is None and self.reactions_for_spectators is None:
            raise ValueError("give spectators or reactions_for_spectators")
        return self


class WatchLink(BaseModel):
    """A private table's watch code: ``/ws/rooms/{id}/watch?code=…``, in the client ``#/watch/{id}/{code}``."""

    room_id: str
    code: str


class Health(BaseModel):
    status: Literal["ok"]
    database: Literal["ok"]
    redis: Literal["ok"] | None = Field(default=None, description="set when the process runs in a cluster (REDIS_URL)")
    process: str | None = Field(default=None, description="this process's id in the cluster")


class SocketTicket(BaseModel):
    ticket: str = Field(description="Opens one WebSocket: /ws/rooms/{room_id}?ticket=…; single use")
    expires_in: int = Field(description="Seconds the ticket stays valid")


class DeviceLinkCreated(BaseModel):
    code: str = Field(description="One-time code: the link is <origin>/#/signin/<code>; single use")
    expires_at: datetime = Field(description="The code is refused from this moment on")
    qr_svg: str = Field(description="The link as a QR code, an SVG document (for an <img> data: URL)")


class DeviceLinkRedeem(Strict):
    code: str = Field(min_length=1, max_length=100)


class RatingOut(BaseModel):
    """A person's rating in one game kind."""

    kind: str = Field(description="the game kind (RATING_KINDS)")
    rating: int = Field(description="the rating shown: 1000 + 40 × (mu − 3σ), rounded")
    mu: float
    sigma: float
    matches: int = Field(description="rated matches played in this kind")


class PlayerRatings(BaseModel):
    player_id: str
    ratings: list[RatingOut] = Field(description="one per kind the player has been rated in, by kind")


# ---------------------------------------------------------------- replays (backend/rooms/replay.py)


class ReplayAction(BaseModel):
    """One action of the replay CLI: exactly one of ``play`` (with ``declare``), ``bid``, ``pass``
    (always true) and ``discard`` (two cards) is present."""

    seat: int
    play: str | None = None
    declare: bool | None = None
    bid: int | None = None
    pass_: Literal[True] | None = Field(default=None, alias="pass")
    discard: list[str] | None = Field(default=None, min_length=2, max_length=2)

    model_config = ConfigDict(populate_by_name=True, serialize_by_alias=True)


class ReplayDealt(BaseModel):
    dealer: int
    hands: list[list[str]] = Field(description="one hand per seat, as dealt")
    stock: list[str] | None = Field(default=None, description="two-hand 1001: the stock, top card first (R2)")
    talon: list[str] | None = Field(default=None, description="the talon as dealt (V0.7); absent without one")


class ReplayDocument(BaseModel):
    """One deal in the input format of ``python -m backend.cli.replay`` (docs/engine-cli.md)."""

    rules: dict[str, Any] = Field(description="the table's rules as the CLI reads them (Rules.to_dict)")
    deal: ReplayDealt
    totals: list[int] | None = Field(default=None, description="the match totals before the deal (V7.7); not two-hand")
    actions: list[ReplayAction]


# The replay routes answer with ``response_model_exclude_unset``: an optional field above that the
# builder (backend/rooms/replay.py) leaves out is left out of the answer, not sent as null — the
# replay CLI refuses an action with more than one of play, bid, pass and discard.


class ReplayDeal(BaseModel):
    number: int
    replay: ReplayDocument
    result: ReplayResult | None = Field(description="the stored result; null for a deal a resignation cut short")


class MatchReplay(BaseModel):
    match_id: str
    players: list[SeatedMatchPlayer]
    deals: list[ReplayDeal]


class FrameCard(BaseModel):
    seat: int
    card: str


class FrameTrick(BaseModel):
    leader: int
    cards: list[str]
    winner: int


class FrameTrickWon(BaseModel):
    seat: int
    points: int


class FrameCall(BaseModel):
    """One turn of the auction (V0.6): ``bid`` points, or null for a pass."""

    seat: int
    bid: int | None


class ReplayFrame(BaseModel):
    """The whole position of a deal after ``step`` actions (every hand: the match is over, R7)."""

    step: int
    action: FrameAction | None
    phase: Phase = Field(description="the engine's phase (DealState.phase)")
    hands: list[list[str]]
    stock_count: int = Field(description="two-hand 1001: the cards left in the stock (R4 phase 1 while above 0)")
    drawn: list[FrameCard] = Field(description="the cards this step drew from the stock (R4), the winner's first")
    talon: list[str] = Field(description="the talon as dealt (V0.7); [] without one")
    talon_taken: bool
    discards: list[str] = Field(description="the two cards the declarer laid away (V0.7); [] before")
    calls: list[FrameCall]
    high_bid: int | None
    declarer: int | None
    contract: int | None
    trick: list[FrameCard]
    last_trick: FrameTrick | None
    trick_won: FrameTrickWon | None
    tricks_played: int
    tricks_won: list[int]
    trump: str | None
    declared: DealDeclaration | None
    declarations: list[DealDeclaration]
    card_points: list[int] = Field(description="per seat; the declarer's include the discards (V0.7)")
    turn: int | None
    deal_over: bool
    thrown_in: bool
    made: bool | None
    score: list[int] | None


class DealReplay(BaseModel):
    match_id: str
    number: int
    deals: int = Field(description="how many deals the match replays (an unfinished last one too): 0 … deals - 1")
    seats: int
    variant: VariantId = Field(description="the game (Rules.variant): twohand, or one of V2–V7")
    dealer: int
    players: list[SeatedMatchPlayer]
    result: ReplayResult | None
    frames: list[ReplayFrame]


# ---------------------------------------------------------------- analyses (backend/rooms/analysis.py)

AnalysisStatus = Literal["none", "queued", "running", "done", "failed"]


class DecisionRating(BaseModel):
    """One decision of the deal rated from what its player knew then (``backend.analysis.model.Rating``)."""

    step: int = Field(description="the replay frame after the action (1: the deal's first action)")
    seat: int
    taken: FrameAction = Field(description="the action taken, as the replay's frame shows it")
    best: FrameAction = Field(description="the best action found (the one taken when it is as good as any)")
    taken_scores: list[float] = Field(description="per seat, the expected written deal score after the action taken")
    best_scores: list[float] = Field(description="per seat, the expected written deal score after the best one")
    given_away: float = Field(description="points the action gave away against the best one (0 or more)")
    grade: Grade | None = Field(description="slip, mistake or blunder (GRADES), null when not marked")
    exact: bool = Field(description="every world the player could not tell apart was searched to the deal's end")
    worlds: int = Field(
        description="how many worlds the figures average: 1 in a position of perfect information, 0 for a forced action"
    )
    forced: bool = Field(description="the only legal action: nothing to choose")


class DealAnalysisOut(BaseModel):
    version: int = Field(description="the ANALYSIS_VERSION it was computed by")
    seats: int
    given_away: list[float] = Field(description="per seat, the points given away in the deal")
    ratings: list[DecisionRating] = Field(description="every decision of the deal, in order")


class DealAnalysisState(BaseModel):
    """A finished deal's computer analysis: not asked for, on its way (``done`` of ``total`` decisions
    rated: the progress bar), done, or failed (``message`` says why)."""

    match_id: str
    number: int
    status: AnalysisStatus
    done: int
    total: int = Field(description="the decisions to rate; 0 until the analysis has planned them")
    analysis: DealAnalysisOut | None = Field(description="once done")
    message: str | None = Field(description="once failed: why")


class MatchAnalysisDeal(BaseModel):
    number: int
    status: AnalysisStatus
    given_away: list[float] | None = Field(description="per seat, once the deal's analysis is done")


class MatchAnalysis(BaseModel):
    """The analyses of a match's finished deals: each deal's status, and per seat the points given away
    summed over the analysed ones."""

    match_id: str
    seats: int
    deals: list[MatchAnalysisDeal] = Field(description="every finished deal, in order")
    given_away: list[float] = Field(description="per seat, summed over the analysed deals")
    analysed: int = Field(description="the finished deals whose analysis is done")
    finished_deals: int


class Page(BaseModel):
    total: int
    limit: int
    offset: int
    items: list[MatchOut]


class InvitePreview(BaseModel):
    """``GET /api/invites/{code}/preview``: an invitation before a name is chosen (no ids, no code)."""

    host: str | None = Field(description="the name of the person who invites (the first person seated)")
    options: OptionsOut = Field(description="the game, target, stake and the table's other options")
    seats_taken: int = Field(description="seats taken of options.seats")
    status: Literal["open", "playing", "finished", "closed"]


class LedgerEntry(BaseModel):
    opponent_id: str
    opponent_name: str
    opponent_bot_level: str | None
    played: int
    won: int = Field(description="matches the player won and the opponent lost (R5, V0.9; R6.2 / V0.10a)")
    shared: int = Field(description="matches where both were first (V0.10a: both stayed when another left)")
    last_played: str | None
    balance: dict[str, str] = Field(description="net balance per currency, + owed to the player (exact, R6.1)")


# ---------------------------------------------------------------- head to head


class GroupPlayer(BaseModel):
    id: str
    name: str


class BiggestWinOut(BaseModel):
    match_id: str
    total: int = Field(description="the member's final total in that match")
    margin: int = Field(description="that total less the best of the others' (> 0: a win without a lead is none)")
    finished_at: datetime | None


class MemberFigures(BaseModel):
    player_id: str
    matches: int
    won: int = Field(
        description="first place with no other member first (R5, V0.9; R6.2 / V0.10a: whoever left is last)"
    )
    shared: int = Field(description="first place together with another member (V0.10a: they stayed when another left)")
    lost: int = Field(description="matches - won - shared")
    deals: int = Field(description="the deals stored for these matches (thrown-in ones too: V0.6a, all 0)")
    points: int = Field(description="the sum of the member's scores over those deals")
    average_points: float | None = Field(description="points / deals, to one decimal; null without a deal")
    marriages: int = Field(description="marriages declared (R3, V0.5): the declaring plays of the action log")
    marriage_points: int = Field(description="what the member's marriages counted (R3: none without a trick)")
    contracts: int = Field(description="auctions won (V0.6); 0 in games without an auction")
    contracts_made: int = Field(description="contracts made of them (V0.8)")
    biggest_win: BiggestWinOut | None
    streak: int = Field(
        description="+n: the latest n matches won in a row; -n: lost in a row; 0: none (or a shared first)"
    )


class KindFigures(BaseModel):
    kind: str = Field(description="the game kind (RATING_KINDS)")
    matches: int
    members: list[MemberFigures] = Field(description="in the order the players were asked for")


class FiguresBlock(BaseModel):
    matches: int
    kinds: list[KindFigures]


class GroupDebt(BaseModel):
    debtor_id: str
    creditor_id: str
    currency: str
    amount: str = Field(description="net, exact decimal text (R6.1), > 0")


class GroupMatchSeat(BaseModel):
    seat: int
    id: str
    name: str
    bot_level: str | None
    total: int
    place: int | None


class GroupMatch(BaseModel):
    id: str
    kind: str = Field(description="the game kind (RATING_KINDS)")
    finished_at: datetime | None
    target: int
    end_reason: str | None
    computers: bool
    players: list[GroupMatchSeat] = Field(description="every seat, in seat order, members or not")
    winners: list[str] = Field(description="the ids in first place")


class GroupMatchPage(BaseModel):
    computers: bool = Field(description="the matches with a computer seat (true) or those of people only")
    total: int
    limit: int
    offset: int
    items: list[GroupMatch]


class HeadToHeadOut(BaseModel):
    players: list[GroupPlayer]
    people: FiguresBlock = Field(description="matches at which every seat was a person's")
    computers: FiguresBlock = Field(description="matches with at least one computer seat, apart")
    money: list[GroupDebt] = Field(description="the stakes between members, netted per pair and currency")
    matches: GroupMatchPage


class SeriesPointOut(BaseModel):
    finished_at: datetime | None
    kind: str = Field(description="the game kind (RATING_KINDS)")
    totals: list[int] = Field(description="each member's final total, in the order of players")
    won: list[bool] = Field(description="per member, in the order of players: first place")


class HeadToHeadSeriesOut(BaseModel):
    players: list[str] = Field(description="the members' ids in the order asked: the order of totals and won")
    points: list[SeriesPointOut] = Field(description="every people-only match of the group, oldest first")
    cap: int = Field(description="the most matches a series holds (the latest ones)")
    truncated: bool = Field(description="the group has more matches than cap: the oldest are left out")


# ---------------------------------------------------------------- WebSocket: client → server


class Hello(Strict):
    type: Literal["hello"]
    last_version: StrictInt | None = Field(default=None, ge=0, le=MAX_VERSION)


class Ping(Strict):
    """The app's own keep-alive: answered at once with a ``pong`` (``PongMessage``), outside the rooms
    and the intent rate limit; pings have a small allowance of their own (``PING_ALLOWANCE``)."""

    type: Literal["ping"]


class Intent(Strict):
    id: StrictInt = Field(ge=0, le=MAX_VERSION)
    version: StrictInt = Field(ge=0, le=MAX_VERSION)


class PlayIntent(Intent):
    type: Literal["play"]
    card: str = Field(min_length=2, max_length=2)
    declare: StrictBool = False


class BidIntent(Intent):
    """V0.6: bid ``amount`` points in the auction (the engine judges steps, minimum and cap)."""

    type: Literal["bid"]
    amount: StrictInt = Field(ge=0, le=1000)


class PassIntent(Intent):
    """V0.6: pass in the auction (final)."""

    type: Literal["pass"]


class DiscardIntent(Intent):
    """V0.7: the declarer lays two cards away."""

    type: Literal["discard"]
    cards: list[Annotated[str, Field(min_length=2, max_length=2)]] = Field(min_length=2, max_length=2)


class ResignIntent(Intent):
    type: Literal["resign"]


class RematchIntent(Intent):
    type: Literal["rematch"]
    action: Literal["offer", "accept", "decline", "withdraw"]


class ChatIntent(Intent):
    type: Literal["chat"]
    text: str = Field(min_length=1, max_length=MAX_CHAT)

    @field_validator("text")
    @classmethod
    def _text(cls, value: str) -> str:
        value = value.strip()
        if not value:
            raise ValueError("an empty chat line")
        return value


class ReactIntent(Intent):
    """A quick reaction: a code of the fixed set (``REACTIONS``; an unknown one is refused ``unknown_reaction``)."""

    type: Literal["react"]
    reaction: str = Field(min_length=1, max_length=32)


class MuteReactionsIntent(Intent):
    """Stop (``true``) or start again receiving the others' quick reactions at this table."""

    type: Literal["mute_reactions"]
    muted: StrictBool


class HintIntent(Intent):
    """The expert's choice at my turn, where the table offers hints (``room.hints``): answered by a
    ``hint`` message, or ``rejected`` (``hints_off``, ``not_your_turn``, ``hint_pending``, ``stale_version``…)."""

    type: Literal["hint"]


ClientMessage = Annotated[
    Hello
    | PlayIntent
    | BidIntent
    | PassIntent
    | DiscardIntent
    | ResignIntent
    | RematchIntent
    | ChatIntent
    | ReactIntent
    | MuteReactionsIntent
    | HintIntent,
    Field(discriminator="type"),
]
client_message = TypeAdapter(ClientMessage)
