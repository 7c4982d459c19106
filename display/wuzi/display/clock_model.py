"""The table clock display's view model: what the screen beside a table shows, and when.

A `ClockModel` folds the bus messages of one table — its retained `TableState` (and,
when the display subscribes to it, the table's `Assignment` for the time control and the
match) — into a `ClockFace`: two big faces with whose clock runs, the flags, the move
number, the pause state and the result, in Chinese and English. It never reads the
clock: every call takes ``now_ms`` on the screen's own monotonic time base, and a running
side is extrapolated from the local receive time of its state (`timefmt.extrapolate_ms`),
not from the host's wall-clock ``at_ms`` (the two machines' clocks may disagree).

Drawing only when something changes: `ClockModel.next_change_ms` says how long until the
face would look different if no message arrived (the running face's next second or
tenth, or never), and faces compare equal when they look the same, so the app redraws
only when ``face(now) != last_face``.

What the TableState does not say, the face does not invent: the state carries each
side's time until the flag, not the byo-yomi period, the moves left in a period or a
delay marker (`wuzi.clock.snapshot.SideView` has them on the host), so this face shows
the time control's text from the assignment and the move counts, and no period.

Events: in a hall of several events (the 2019 open's three groups at once) the face names
the event of the table's game in its title bar — from the state's ``event_id``, named by
that event's retained `CompetitionState` (``competition/<event>/state``, its ``event``)
when the display reads ``competition/#``, else by the assignment's ``event``, else the id
itself. A one-event venue (``event_id`` "") shows no event, as before.

`clock_face` is the same computation for any state (the arbiter view shows the focused
table's clocks with it). Pure: no I/O, no clock.
"""

from __future__ import annotations

from dataclasses import dataclass

from wuzi.bus.newest import supersedes
from wuzi.bus.schemas import Assignment, Cleared, CompetitionState, Message, TableState
from wuzi.bus.topics import TopicError, TopicKind, parse_topic
from wuzi.display.timefmt import (
    NEVER_MS,
    TENTHS_FROM_MS,
    extrapolate_ms,
    format_clock,
    next_visible_change_ms,
)

__all__ = [
    "RESULT_LABELS",
    "STATUS_LABELS",
    "ClockFace",
    "ClockModel",
    "SideFace",
    "clock_face",
    "event_name",
    "waiting_face",
]

STATUS_LABELS = {
    "idle": "等待对局 WAITING",
    "playing": "对局中 PLAYING",
    "paused": "暂停 PAUSED",
    "adjourned": "封盘 ADJOURNED",
    "finished": "终局 FINISHED",
}
RESULT_LABELS = {
    "1-0": "黑胜 Black wins 1-0",
    "0-1": "白胜 White wins 0-1",
    "1/2-1/2": "和棋 Draw 0.5-0.5",  # not ½: the CJK font's ½ reads like 1⁄
}
COLOUR_LABELS = {"black": "黑 Black", "white": "白 White"}
FLAG_LABEL = "超时 FLAG"


@dataclass(frozen=True)
class SideFace:
    """One side's clock as shown: ``text`` is the face (``12:34``, ``9.8``, ``0.0``)."""

    colour: str  # "black" or "white"
    label: str  # "黑 Black"
    name: str  # the player holding this colour ("" when not known)
    text: str
    running: bool
    flagged: bool  # the time is gone (the face shows 0.0)
    low: bool  # ten seconds or less: the face shows tenths
    stones: int  # this colour's stones on the board


@dataclass(frozen=True)
class ClockFace:
    """Everything the clock display draws; equal faces look the same on screen."""

    table: int
    title: str  # "第 3 桌 Table 3", "第 3 桌 Table 3 · 男子组 Men's group" in a hall of events
    black: SideFace
    white: SideFace
    status: str  # one of TABLE_STATUSES, or "waiting" before any state arrived
    status_label: str
    paused: bool  # the clocks are held by the referee or adjourned
    moves: int  # stones standing on the board
    move_label: str  # "第 24 手 · move 24" (the next stone's number), "" when idle
    result_label: str  # "" until finished
    detail: str  # time control and match: "2700+30 · board 2 · game 1", or ""

    @property
    def sides(self) -> tuple[SideFace, SideFace]:
        return self.black, self.white


def _title(table: int, event: str = "") -> str:
    title = f"第 {table} 桌 Table {table}"
    return f"{title} · {event}" if event else title


def note_event_name(names: dict[str, str], event: str, message: Message) -> bool:
    """Keep event ``event``'s name from its competition summary (a `CompetitionState`, or
    `Cleared` to forget it) in ``names``; whether the name changed. The clock screen and
    the arbiter view name each table's event by it (`event_name`)."""
    old = names.get(event)
    if isinstance(message, CompetitionState):
        names[event] = message.event
    elif isinstance(message, Cleared):
        names.pop(event, None)
    return names.get(event) != old


def event_name(event_id: str, names: dict[str, str], assignment: Assignment | None = None) -> str:
    """How a screen names event ``event_id`` ("" for none): its competition's name from
    ``names`` (event id to `CompetitionState.event`), else the assignment's of that event,
    else the id itself."""
    if not event_id:
        return ""
    if names.get(event_id):
        return names[event_id]
    if assignment is not None and assignment.event_id == event_id and assignment.event:
        return assignment.event
    return event_id


def _detail(state: TableState | None, assignment: Assignment | None) -> str:
    parts: list[str] = []
    if assignment is not None and (state is None or assignment.game_id == state.game_id):
        parts.append(f"时限 {assignment.time_control}")
    board = state.board if state is not None else None
    game = state.game_in_match if state is not None else None
    if board is not None:
        parts.append(f"台次 board {board}")
    if game is not None:
        parts.append(f"第 {game} 局 game {game}")
    return " · ".join(parts)


def _side(colour: str, name: str, remaining_ms: int, running: bool, stones: int) -> SideFace:
    return SideFace(
        colour=colour,
        label=COLOUR_LABELS[colour],
        name=name,
        text=format_clock(remaining_ms),
        running=running,
        flagged=remaining_ms <= 0,
        low=remaining_ms <= TENTHS_FROM_MS,
        stones=stones,
    )


def waiting_face(table: int) -> ClockFace:
    """The face before any state of ``table`` arrived (or after it was cleared)."""
    blank = SideFace("black", COLOUR_LABELS["black"], "", "-:--", False, False, False, 0)
    return ClockFace(
        table=table,
        title=_title(table),
        black=blank,
        white=SideFace("white", COLOUR_LABELS["white"], "", "-:--", False, False, False, 0),
        status="waiting",
        status_label="等待数据 NO DATA",
        paused=False,
        moves=0,
        move_label="",
        result_label="",
        detail="",
    )


def clock_face(
    state: TableState,
    base_ms: int,
    now_ms: int,
    assignment: Assignment | None = None,
    event: str = "",
) -> ClockFace:
    """The face of ``state`` received at ``base_ms`` (screen time), seen at ``now_ms``.

    Only the side named by ``state.running`` is extrapolated; a paused, adjourned or
    finished table shows the times as the state gave them. Colours alternate Black first
    in ``state.moves`` (every opening keeps that order), which gives the stone counts.
    ``event``: the name of the game's event, shown in the title ("" none)."""
    moves = len(state.moves)
    idle = state.status == "idle"
    sides = []
    for colour, remaining, name, stones in (
        ("black", state.black_ms, state.black, (moves + 1) // 2),
        ("white", state.white_ms, state.white, moves // 2),
    ):
        running = state.running == colour and state.status == "playing"
        now_remaining = extrapolate_ms(remaining, running, base_ms, now_ms)
        side = _side(colour, name, now_remaining, running, stones)
        if idle:  # no game: the host reports 0, which is no flag
            side = SideFace(colour, side.label, name, "-:--", False, False, False, 0)
        sides.append(side)
    result = RESULT_LABELS.get(state.result or "", "") if state.status == "finished" else ""
    return ClockFace(
        table=state.table,
        title=_title(state.table, event),
        black=sides[0],
        white=sides[1],
        status=state.status,
        status_label=STATUS_LABELS[state.status],
        paused=state.status in ("paused", "adjourned"),
        moves=moves,
        move_label="" if idle else f"第 {moves + 1} 手 · move {moves + 1}",
        result_label=result,
        detail=_detail(state, assignment),
    )


def clock_change_ms(state: TableState, base_ms: int, now_ms: int) -> int:
    """Milliseconds (≥ 1) until `clock_face` of ``state`` looks different, or `NEVER_MS`."""
    if state.status != "playing" or state.running is None:
        return NEVER_MS
    remaining = state.black_ms if state.running == "black" else state.white_ms
    return next_visible_change_ms(extrapolate_ms(remaining, True, base_ms, now_ms), True)


class ClockModel:
    """The clock display of one table, fed message by message (see the module doc)."""

    def __init__(self, table: int) -> None:
        self.table = table
        self.state: TableState | None = None
        self.base_ms = 0  # screen time the state was received at
        self.assignment: Assignment | None = None
        self.event_names: dict[str, str] = {}  # event id -> its competition's name

    def apply(self, topic: str, message: Message, received_ms: int) -> bool:
        """Fold one message in; True if it changed what the model holds. Messages of
        other tables or kinds, repeats and older states (`wuzi.bus.newest`) are ignored
        (False)."""
        try:
            where = parse_topic(topic)
        except TopicError:
            return False
        if where.kind is TopicKind.COMPETITION:
            return self._apply_competition(where.event or "", message)
        if where.table != self.table:
            return False
        if where.kind is TopicKind.TABLE_STATE:
            if isinstance(message, Cleared):
                changed = self.state is not None
                self.state = None
                return changed
            if isinstance(message, TableState) and supersedes(message, self.state):
                self.state, self.base_ms = message, received_ms
                return True
            return False
        if where.kind is TopicKind.ASSIGNMENT:
            if isinstance(message, Cleared):
                changed = self.assignment is not None
                self.assignment = None
                return changed
            if isinstance(message, Assignment) and message != self.assignment:
                self.assignment = message
                return True
        return False

    def _apply_competition(self, event: str, message: Message) -> bool:
        """An event's summary: only its name matters here (the title)."""
        return note_event_name(self.event_names, event, message)

    @property
    def event(self) -> str:
        """The name of the event of the table's game ("" in a one-event venue)."""
        event_id = self.state.event_id if self.state is not None else ""
        if not event_id and self.assignment is not None:
            event_id = self.assignment.event_id
        return event_name(event_id, self.event_names, self.assignment)

    def face(self, now_ms: int) -> ClockFace:
        if self.state is None:
            return waiting_face(self.table)
        return clock_face(self.state, self.base_ms, now_ms, self.assignment, self.event)

    def next_change_ms(self, now_ms: int) -> int:
        """Milliseconds (≥ 1) until the face changes with no new message, or `NEVER_MS`."""
        if self.state is None:
            return NEVER_MS
        return clock_change_ms(self.state, self.base_ms, now_ms)
