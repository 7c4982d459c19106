"""The venue scoreboard's view model: bus messages in, what each page shows out.

Pure: no pyglet, no I/O, no clock. `VenueModel.apply` folds one bus message (with the
screen's local monotonic receive time) into the venue; `VenueModel.card` says what one
table's card shows at ``now_ms``; `build_pages` and `Pager` decide the rotating pages;
`bracket_columns`, `standing_rows` and `place_blocks` lay out the competition pages. The
renderer only draws what these return, so everything a spectator sees is tested here
without a window.

What the hall may see is exactly what is on the wood and the clocks: the model reads
`TableState` (never the referee topics) and draws no conclusions from the stones — no
five is highlighted and no point is called forbidden while a game runs.

Clocks: a running clock is extrapolated from the *local* receive time of its state (a
host's wall clock may be skewed against the screen's); ``at_ms`` only orders the states
of a table, so a late duplicate never turns the clock back.

Events: a hall may run several events at once (the 2019 open's men's, women's and open
groups), each director publishing its own retained summary on
``competition/<event>/state``; a one-event venue has one on ``competition/state``. The
model keeps one `CompetitionState` per event (``competitions``, keyed by the topic's event,
"" for the one-event topic) and knows each table's event from its state's ``event_id``,
else its assignment's, else the match that names it. `build_pages` then gives each event
its own run of pages (its tables, its bracket, its standings), one event after another;
``event=`` fixes one (``wuzi scoreboard --event``).

Stale: a table is marked stale when the host serving it says it is offline (its last
will), when its board or clock link is down (``links_down``), or while its clock runs
and nothing has been heard for ``stale_after_ms`` — or the running side's time is gone by
more than ``flag_grace_ms`` with no new state (a live host would have published the
flag).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace

from wuzi.bus.newest import supersedes
from wuzi.bus.schemas import (
    Assignment,
    BracketMatch,
    Cleared,
    CompetitionState,
    HostStatus,
    MatchSummary,
    Message,
    StandingLine,
    TableState,
)
from wuzi.bus.topics import TopicError, TopicKind, parse_topic
from wuzi.display.timefmt import (
    NEVER_MS,
    TENTHS_FROM_MS,
    format_clock,
    next_visible_change_ms,
)

__all__ = [
    "LABELS",
    "BracketBox",
    "ClockFace",
    "EventColumn",
    "Page",
    "Pager",
    "PlaceBlock",
    "PlaceRow",
    "StandingRow",
    "TableCard",
    "VenueModel",
    "bracket_columns",
    "build_pages",
    "event_columns",
    "format_score",
    "place_blocks",
    "standing_rows",
    "table_ranges",
]

STALE_AFTER_MS = 600_000
FLAG_GRACE_MS = 5_000
LOW_TIME_MS = 60_000

LABELS = {
    "table": "台 Table",
    "board": "第{n}台 Board {n}",
    "game": "第{n}局 Game {n}",
    "playoff": "加赛 Playoff",
    "stale": "离线 STALE",
    "paused": "暂停 Paused",
    "adjourned": "封盘 Adjourned",
    "waiting": "等待开始 Waiting",
    "idle": "空闲 Idle",
    "black_wins": "黑胜 1-0",
    "white_wins": "白胜 0-1",
    "draw": "和棋 0.5-0.5",  # not ½: the CJK font's ½ reads like 1⁄ (format_score)
    "event_of": "赛事 {n}/{m} Event {n}/{m}",
    "round": "第{n}轮 Round {n}",
    "round_of": "第{n}/{m}轮 Round {n}/{m}",
    "tables_page": "对局 Tables",
    "bracket_page": "排位赛 Placement bracket",
    "standings_page": "排名 Standings",
    "focus_page": "焦点 Focus",
    "events_page": "赛事 Events",
    "all_events": "赛事一览 All events",
    "event_tables": "台 Tables {t}",
    "event_play": "{p} 对局中 playing · {f} 已结束 finished",
    "places": "第{p}名 Places {p}",
    "one_place": "第{p}名 Place {p}",
    "place": "名次 Place",
    "entrant": "选手/队 Entrant",
    "points": "积分 Pts",
    "delayed": "延时 {m} 分钟 Delayed {m} min",
    "warming": "延时播放即将开始 Delayed feed starts soon",
    "no_data": "等待数据 Waiting for data",
    "flag": "超时 FLAG",
    "move": "第{n}手 Move {n}",
    "finished": "已结束 Finished",
}

TIEBREAK_LABELS = {
    "buchholz": "BH 布氏",
    "median_buchholz": "MBH 中布",
    "sonneborn_berger": "SB 索氏",
    "progressive": "累进 Prog",
    "direct_encounter": "直胜 DE",
    "wins": "胜局 Wins",
    "game_points": "局分 GP",
    "board_points": "台分 BP",
    "match_points": "场分 MP",
    "black_games": "黑局 Black",
    "rating": "等级 Rtg",
}


def format_score(value: float) -> str:
    """A score as the hall reads it: ``3``, ``2.5``, ``0.5``, ``0``; at most 2 decimals.

    Not ``2½``: the CJK font's ½ glyph reads like ``2⅟`` at screen sizes."""
    if value == int(value):
        return str(int(value))
    return f"{value:.2f}".rstrip("0").rstrip(".")


@dataclass(frozen=True)
class ClockFace:
    """One side's clock as shown."""

    text: str
    running: bool
    flagged: bool
    low: bool  # under a minute: drawn in a warning colour


@dataclass(frozen=True)
class TableCard:
    """Everything one table's card shows at one instant."""

    table: int
    title: str  # "12" or "12 · 第2台 Board 2"
    match: str  # "上海 1½ : ½ 北京" or ""
    match_label: str  # the match's label, e.g. "places 1-2"
    black: str
    white: str
    black_clock: ClockFace | None  # None: no game (idle table)
    white_clock: ClockFace | None
    black_stones: tuple[int, ...]
    white_stones: tuple[int, ...]
    offers: tuple[int, ...]  # offered stones not decided yet (drawn as rings)
    last_move: int | None
    status: str  # "" while playing, else a LABELS text
    stale: bool


@dataclass
class _Table:
    state: TableState | None = None
    base_ms: int = 0  # local monotonic receive time of ``state``
    assignment: Assignment | None = None


@dataclass
class VenueModel:
    """The venue as the hall sees it, folded from bus messages (see the module doc)."""

    stale_after_ms: int = STALE_AFTER_MS
    flag_grace_ms: int = FLAG_GRACE_MS
    venue: str | None = None
    competitions: dict[str, CompetitionState] = field(default_factory=dict)  # by event id
    version: int = 0  # bumped on every change that can show
    _tables: dict[int, _Table] = field(default_factory=dict)
    _hosts: dict[str, HostStatus] = field(default_factory=dict)
    _host_of: dict[int, str] = field(default_factory=dict)
    ignored: int = 0  # messages of other kinds or venues, and out-of-order states

    # input

    def apply(self, topic: str, message: Message, received_ms: int) -> bool:
        """Fold one parsed message in; True if anything shown may have changed."""
        try:
            where = parse_topic(topic)
        except TopicError:
            self.ignored += 1
            return False
        if self.venue is None:
            self.venue = where.venue
        elif where.venue != self.venue:
            self.ignored += 1
            return False
        kind = where.kind
        changed = False
        if kind in (TopicKind.TABLE_STATE, TopicKind.PUBLIC_STATE) and where.table is not None:
            changed = self._apply_state(where.table, message, received_ms)
        elif kind is TopicKind.HOST_STATUS and where.host is not None:
            changed = self._apply_host(where.host, message)
        elif kind is TopicKind.ASSIGNMENT and where.table is not None:
            changed = self._apply_assignment(where.table, message)
        elif kind is TopicKind.COMPETITION:
            event = where.event or ""
            if isinstance(message, CompetitionState):
                changed = message != self.competitions.get(event)
                self.competitions[event] = message
            elif isinstance(message, Cleared):
                changed = self.competitions.pop(event, None) is not None
        if changed:
            self.version += 1
        else:
            self.ignored += 1
        return changed

    def _apply_state(self, table: int, message: Message, received_ms: int) -> bool:
        slot = self._tables.setdefault(table, _Table())
        if isinstance(message, Cleared):
            changed = slot.state is not None
            slot.state = None
            return changed
        if not isinstance(message, TableState):
            return False
        if not supersedes(message, slot.state):
            return False  # an older state arriving late (wuzi.bus.newest): never go back
        if message == slot.state:
            return False  # a repeat (QoS 1 after a reconnect): keep the first receive time
        slot.state = message
        slot.base_ms = received_ms
        return True

    def _apply_host(self, host: str, message: Message) -> bool:
        if isinstance(message, Cleared):
            if self._hosts.pop(host, None) is None:
                return False
        elif isinstance(message, HostStatus):
            old = self._hosts.get(host)
            if old is not None and message.at_ms < old.at_ms and message.online:
                return False  # a stale birth after a newer status
            if old == message:
                return False
            self._hosts[host] = message
        else:
            return False
        self._rebuild_host_map()
        return True

    def _rebuild_host_map(self) -> None:
        """Each table belongs to the host whose status listing it is the newest."""
        owner: dict[int, tuple[int, str]] = {}
        for status in self._hosts.values():
            for table in status.tables:
                if table not in owner or status.at_ms > owner[table][0]:
                    owner[table] = (status.at_ms, status.host)
        self._host_of = {table: host for table, (_at, host) in owner.items()}

    def _apply_assignment(self, table: int, message: Message) -> bool:
        slot = self._tables.setdefault(table, _Table())
        if isinstance(message, Cleared):
            changed = slot.assignment is not None
            slot.assignment = None
            return changed
        if not isinstance(message, Assignment) or message == slot.assignment:
            return False
        slot.assignment = message
        return True

    # queries

    @property
    def competition(self) -> CompetitionState | None:
        """The venue's one competition: the one-event topic's, else the only event's (None
        with none, or with several: ask `competition_of`)."""
        if "" in self.competitions:
            return self.competitions[""]
        if len(self.competitions) == 1:
            return next(iter(self.competitions.values()))
        return None

    def competition_of(self, event: str | None) -> CompetitionState | None:
        """Event ``event``'s competition (None: the venue's one, see `competition`)."""
        if event is None:
            return self.competition
        return self.competitions.get(event)

    def event_of_table(self, table: int) -> str:
        """Table ``table``'s event id: its state's, else its assignment's, else that of the
        event whose matches name it; "" when none says (a one-event venue, an idle table)."""
        slot = self._tables.get(table)
        if slot is not None:
            if slot.state is not None and slot.state.event_id:
                return slot.state.event_id
            if slot.assignment is not None and slot.assignment.event_id:
                return slot.assignment.event_id
        for event, competition in self.competitions.items():
            if event and any(table in match.tables for match in competition.matches):
                return event
        return ""

    def events(self) -> list[str]:
        """The events of a venue of several, in the order of their lowest table (then id);
        [] for a one-event venue (no event topic and no table naming an event)."""
        known = {event for event in self.competitions if event}
        first: dict[str, int] = {}
        for table in self.tables():
            event = self.event_of_table(table)
            if event:
                known.add(event)
                first.setdefault(event, table)
        return sorted(known, key=lambda e: (first.get(e, 10_000), e))

    def event_name(self, event: str) -> str:
        """How the hall reads event ``event``: its competition's name, else its
        assignments' event name, else its id."""
        competition = self.competitions.get(event)
        if competition is not None and competition.event:
            return competition.event
        for slot in self._tables.values():
            a = slot.assignment
            if a is not None and a.event_id == event and a.event:
                return a.event
        return event

    def tables(self, event: str | None = None) -> list[int]:
        """Every table the venue knows of: with a state, an assignment, a host or a match;
        with ``event`` only that event's ("" : the tables of no event)."""
        known = {n for n, slot in self._tables.items() if slot.state or slot.assignment}
        known.update(self._host_of)
        for competition in self.competitions.values():
            for match in competition.matches:
                known.update(match.tables)
        if event is not None:
            known = {n for n in known if self.event_of_table(n) == event}
        return sorted(known)

    def state(self, table: int) -> TableState | None:
        slot = self._tables.get(table)
        return slot.state if slot is not None else None

    def host_of(self, table: int) -> str | None:
        return self._host_of.get(table)

    def _remaining(self, slot: _Table, now_ms: int) -> tuple[int, int]:
        state = slot.state
        assert state is not None
        elapsed = max(0, now_ms - slot.base_ms)
        black, white = state.black_ms, state.white_ms
        if state.status == "playing":
            if state.running == "black":
                black -= elapsed
            elif state.running == "white":
                white -= elapsed
        return black, white

    def _running(self, state: TableState) -> str | None:
        return state.running if state.status == "playing" else None

    def is_stale(self, table: int, now_ms: int) -> bool:
        host = self._host_of.get(table)
        if host is not None:
            status = self._hosts[host]
            if not status.online or table in status.links_down:
                return True
        slot = self._tables.get(table)
        if slot is None or slot.state is None or self._running(slot.state) is None:
            return False
        if now_ms - slot.base_ms >= self.stale_after_ms:
            return True
        black, white = self._remaining(slot, now_ms)
        remaining = black if slot.state.running == "black" else white
        return remaining <= -self.flag_grace_ms

    def _stale_due_ms(self, slot: _Table) -> int:
        """When a running table with no news turns stale (absolute, local ms)."""
        state = slot.state
        assert state is not None
        remaining = state.black_ms if state.running == "black" else state.white_ms
        return slot.base_ms + min(self.stale_after_ms, max(0, remaining + self.flag_grace_ms))

    def match_of(self, table: int) -> MatchSummary | None:
        """The match table ``table`` plays in, from its event's competition."""
        event = self.event_of_table(table)
        competition = self.competitions.get(event) if event else self.competition
        if competition is None:
            return None
        for match in competition.matches:
            if table in match.tables:
                return match
        return None

    def card(self, table: int, now_ms: int) -> TableCard:
        """What table ``table``'s card shows at ``now_ms``."""
        slot = self._tables.get(table) or _Table()
        state, assignment = slot.state, slot.assignment
        match = self.match_of(table)
        board = state.board if state is not None and state.board is not None else None
        if board is None and assignment is not None:
            board = assignment.board
        if board is None and match is not None and len(match.tables) > 1:
            board = match.tables.index(table) + 1
        title = f"{table}" if board is None else f"{table} · " + LABELS["board"].format(n=board)
        match_text = ""
        if match is not None:
            first, second = format_score(match.first_score), format_score(match.second_score)
            match_text = f"{match.first} {first} : {second} {match.second or '—'}"
        black = state.black if state is not None and state.black else ""
        white = state.white if state is not None and state.white else ""
        if assignment is not None and not black and not white:
            black, white = assignment.black, assignment.white
        stale = self.is_stale(table, now_ms)
        if state is None or state.status == "idle":
            return TableCard(
                table=table,
                title=title,
                match=match_text,
                match_label=match.label if match is not None else "",
                black=black,
                white=white,
                black_clock=None,
                white_clock=None,
                black_stones=(),
                white_stones=(),
                offers=(),
                last_move=None,
                status=LABELS["waiting"] if assignment is not None else LABELS["idle"],
                stale=stale,
            )
        black_ms, white_ms = self._remaining(slot, now_ms)
        running = self._running(state)
        return TableCard(
            table=table,
            title=title,
            match=match_text,
            match_label=match.label if match is not None else "",
            black=black,
            white=white,
            black_clock=_face(black_ms, running == "black"),
            white_clock=_face(white_ms, running == "white"),
            black_stones=state.moves[0::2],
            white_stones=state.moves[1::2],
            offers=state.offers,
            last_move=state.moves[-1] if state.moves else None,
            status=_status_text(state),
            stale=stale,
        )

    def clock_faces(self, table: int, now_ms: int) -> tuple[ClockFace | None, ClockFace | None]:
        """Black's and White's faces of ``table`` at ``now_ms`` (None, None with no game):
        what `card` would say about the clocks, for the screen's cheap per-tick update."""
        slot = self._tables.get(table)
        if slot is None or slot.state is None or slot.state.status == "idle":
            return None, None
        black_ms, white_ms = self._remaining(slot, now_ms)
        running = self._running(slot.state)
        return _face(black_ms, running == "black"), _face(white_ms, running == "white")

    def shows_tenths(self, tables: Iterable[int], now_ms: int) -> bool:
        """True if a running clock of ``tables`` is in its last ten seconds (tenths)."""
        for table in tables:
            slot = self._tables.get(table)
            if slot is None or slot.state is None or self._running(slot.state) is None:
                continue
            black, white = self._remaining(slot, now_ms)
            remaining = black if slot.state.running == "black" else white
            if 0 < remaining <= TENTHS_FROM_MS:
                return True
        return False

    def next_change_ms(self, tables: Iterable[int], now_ms: int) -> int:
        """The earliest instant (local ms) after ``now_ms`` at which a card of ``tables``
        shows something else with no new message: a clock face rolling over, or a table
        turning stale. ``now_ms + NEVER_MS`` when none can."""
        due = now_ms + NEVER_MS
        for table in tables:
            slot = self._tables.get(table)
            if slot is None or slot.state is None:
                continue
            running = self._running(slot.state)
            if running is None:
                continue
            black, white = self._remaining(slot, now_ms)
            remaining = black if running == "black" else white
            due = min(due, now_ms + next_visible_change_ms(remaining, True))
            if not self.is_stale(table, now_ms):
                due = min(due, max(now_ms + 1, self._stale_due_ms(slot)))
        return due


def _face(remaining_ms: int, running: bool) -> ClockFace:
    return ClockFace(
        text=format_clock(remaining_ms),
        running=running,
        flagged=remaining_ms <= 0,
        low=0 < remaining_ms < LOW_TIME_MS,
    )


def _status_text(state: TableState) -> str:
    if state.status == "finished":
        if state.result == "1-0":
            return LABELS["black_wins"]
        if state.result == "0-1":
            return LABELS["white_wins"]
        if state.result == "1/2-1/2":
            return LABELS["draw"]
        return LABELS["finished"]
    if state.status in ("paused", "adjourned"):
        return LABELS[state.status]
    return ""


# pages


@dataclass(frozen=True)
class Page:
    """One page of the rotation."""

    kind: str  # "tables", "bracket", "standings", "focus", "events" (a hall's overview)
    number: int  # 1-based among the pages of its kind
    of: int  # how many pages of its kind
    tables: tuple[int, ...] = ()  # tables / focus
    rows: tuple[int, int] = (0, 0)  # standings: [start, end) line indices
    event: str | None = None  # the event this page is of (None: the venue's one event)
    event_number: int = 0  # 1-based among the events cycled through (0: no cycling)
    events: int = 0  # how many events are cycled through

    @property
    def title(self) -> str:
        base = LABELS[f"{self.kind}_page"]
        return f"{base} {self.number}/{self.of}" if self.of > 1 else base


def build_pages(
    model: VenueModel,
    *,
    tables_per_page: int,
    standings_rows: int,
    focus: int | None = None,
    event: str | None = None,
) -> list[Page]:
    """The pages to rotate through: the tables (``tables_per_page`` a page), the bracket
    if there is one, the standings if there are any (``standings_rows`` a page). With
    ``focus`` one page: that table alone.

    A venue of several events cycles through them: an overview of every event side by side
    (`event_columns`), then each event's pages in turn (its tables, its bracket, its
    standings), in `VenueModel.events` order, then a page of the tables of no event if
    there are any. ``event`` keeps to that one event's pages. A one-event
    venue's pages are those of the venue as a whole, as before there were events."""
    if focus is not None:
        return [Page("focus", 1, 1, tables=(focus,), event=event)]
    if event is not None:
        return _event_pages(model, event, tables_per_page, standings_rows)
    events = model.events()
    if not events:
        return _event_pages(model, None, tables_per_page, standings_rows)
    pages: list[Page] = []
    if len(events) > 1:  # every event at a glance first
        pages.append(Page("events", 1, 1, events=len(events)))
    for number, name in enumerate(events, start=1):
        pages += [
            replace(page, event_number=number, events=len(events))
            for page in _event_pages(model, name, tables_per_page, standings_rows)
        ]
    if model.tables(""):
        pages += _event_pages(model, "", tables_per_page, standings_rows)
    return pages


def _event_pages(
    model: VenueModel, event: str | None, tables_per_page: int, standings_rows: int
) -> list[Page]:
    """One event's pages (``event`` None: the venue's, a one-event venue)."""
    pages: list[Page] = []
    tables = model.tables(event)
    per = max(1, tables_per_page)
    chunks = [tuple(tables[i : i + per]) for i in range(0, len(tables), per)]
    competition = model.competition_of(event) if event != "" else None
    if not chunks and (event is None or competition is None):
        chunks = [()]  # "waiting for data" rather than no page (an event: its standings)
    pages.extend(
        Page("tables", i + 1, len(chunks), tables=c, event=event) for i, c in enumerate(chunks)
    )
    if competition is not None and competition.bracket:
        pages.append(Page("bracket", 1, 1, event=event))
    if competition is not None and competition.standings:
        rows = max(1, standings_rows)
        count = len(competition.standings)  # a knockout's places page: a row per place too
        spans = [(i, min(count, i + rows)) for i in range(0, count, rows)]
        pages.extend(
            Page("standings", i + 1, len(spans), rows=s, event=event) for i, s in enumerate(spans)
        )
    return pages


@dataclass
class Pager:
    """Which page shows when: each ``page_ms`` the next one, counted from ``start_ms``.
    ``page_ms`` 0 holds the first page (turn pages by hand with `step`)."""

    page_ms: int
    start_ms: int
    offset: int = 0  # pages turned by hand

    def index(self, count: int, now_ms: int) -> int:
        if count <= 0:
            return 0
        turns = (now_ms - self.start_ms) // self.page_ms if self.page_ms > 0 else 0
        return (max(0, turns) + self.offset) % count

    def step(self, delta: int) -> None:
        self.offset += delta

    def next_turn_ms(self, now_ms: int) -> int:
        """When the page next turns by itself (``now_ms + NEVER_MS`` if it never does)."""
        if self.page_ms <= 0:
            return now_ms + NEVER_MS
        turns = max(0, (now_ms - self.start_ms) // self.page_ms)
        return self.start_ms + (turns + 1) * self.page_ms


# competition pages


@dataclass(frozen=True)
class BracketBox:
    """One match of the placement bracket as drawn."""

    places: str  # "第1-8名 Places 1-8"
    first: str
    second: str  # "—" for a bye
    first_score: str
    second_score: str
    winner: int  # 0 undecided, 1 first, 2 second


def _first_place(places: str) -> int:
    return int(places.split("-")[0])


def bracket_columns(bracket: Sequence[BracketMatch]) -> list[tuple[int, list[BracketBox]]]:
    """The bracket by round (one column each), matches ordered by the places they decide."""
    rounds: dict[int, list[BracketMatch]] = {}
    for match in bracket:
        rounds.setdefault(match.round, []).append(match)
    columns = []
    for number in sorted(rounds):
        boxes = []
        for m in sorted(rounds[number], key=lambda m: (_first_place(m.places), m.places)):
            winner = 0
            if m.winner is not None:
                winner = 1 if m.winner == m.first else 2 if m.winner == m.second else 0
            boxes.append(
                BracketBox(
                    places=LABELS["places"].format(p=m.places),
                    first=m.first,
                    second=m.second or "—",
                    first_score=format_score(m.first_score),
                    second_score=format_score(m.second_score) if m.second else "",
                    winner=winner,
                )
            )
        columns.append((number, boxes))
    return columns


@dataclass(frozen=True)
class StandingRow:
    place: str  # "3" or "3-4"
    entrant: str
    points: str
    tiebreaks: tuple[str, ...]


def tiebreak_header(name: str) -> str:
    return TIEBREAK_LABELS.get(name, name)


def _number(value: float) -> str:
    return format_score(value) if value >= 0 else "-" + format_score(-value)


def standing_rows(lines: Sequence[StandingLine], start: int, end: int) -> list[StandingRow]:
    """Lines ``start``..``end`` of the standings as the table shows them."""
    rows = []
    for line in lines[start:end]:
        place = str(line.place) if line.place_to == line.place else f"{line.place}-{line.place_to}"
        rows.append(
            StandingRow(
                place=place,
                entrant=line.entrant,
                points=_number(line.points),
                tiebreaks=tuple(_number(v) for v in line.tiebreaks),
            )
        )
    return rows


@dataclass(frozen=True)
class PlaceRow:
    """One place of the places page: the place's number and an entrant still contending
    for the block it is in (the block's entrants fill its places in the order of the
    matches deciding them), with that match's score so far."""

    place: int
    entrant: str
    score: str  # the entrant's score in the match now deciding the block ("" if none)
    mark: int  # 0 open, 1 won its match (the upper half), 2 lost it (the lower half)


@dataclass(frozen=True)
class PlaceBlock:
    """A block of places of a placement knockout as far as it is decided: the entrants
    who will share places ``low``..``high`` between them (one entrant: the place is
    theirs). After round 1 of a 16-team final the blocks are 1-8 and 9-16; after the
    last round, sixteen single places."""

    low: int
    high: int
    label: str  # "第5-8名 Places 5-8", "第5名 Place 5"
    rows: tuple[PlaceRow, ...]

    @property
    def decided(self) -> bool:
        return self.low == self.high

    @property
    def entrants(self) -> tuple[str, ...]:
        return tuple(row.entrant for row in self.rows)


def place_blocks(
    lines: Sequence[StandingLine], bracket: Sequence[BracketMatch] = ()
) -> list[PlaceBlock]:
    """The knockout's standings as blocks of places (the places page: the bracket of
    places as it fills), best places first. Within a block the entrants stand in the
    order of the matches now deciding those places (the bracket's latest matches for
    them), each pair together with its score; the others follow in the standings' order."""
    groups: dict[tuple[int, int], list[StandingLine]] = {}
    for line in lines:
        groups.setdefault((line.place, line.place_to), []).append(line)
    blocks = []
    for (low, high), members in sorted(groups.items()):
        names = [m.entrant for m in members]
        deciding = [m for m in bracket if m.places == f"{low}-{high}" and m.first in names]
        if deciding:
            last = max(m.round for m in deciding)
            deciding = [m for m in deciding if m.round == last]
        ordered: list[tuple[str, str, int]] = []
        for match in deciding:
            pair = [(match.first, match.first_score), (match.second, match.second_score)]
            if match.winner is not None and match.winner == match.second:
                pair.reverse()  # the winner first: bound for the block's upper half
            for name, score in pair:
                if name in names and name not in (o[0] for o in ordered):
                    mark = 0
                    if match.winner is not None and match.second:
                        mark = 1 if match.winner == name else 2
                    ordered.append((name, format_score(score) if match.second else "", mark))
        ordered += [(n, "", 0) for n in names if n not in (o[0] for o in ordered)]
        if low == high:
            label = LABELS["one_place"].format(p=low)
            ordered = [(name, "", 0) for name, _score, _mark in ordered]
        else:
            label = LABELS["places"].format(p=f"{low}-{high}")
        rows = tuple(
            PlaceRow(low + k, name, score, mark) for k, (name, score, mark) in enumerate(ordered)
        )
        blocks.append(PlaceBlock(low, high, label, rows))
    return blocks


# a hall of several events: the overview


@dataclass(frozen=True)
class EventColumn:
    """One event on the overview page of a hall of several: its name and round, where it
    plays, how far its round is, and its leaders."""

    event: str
    name: str
    round: str  # "第5/7轮 Round 5/7", "" before the first pairing
    tables: str  # "台 Tables 1-8, 20"
    play: str  # "6 对局中 playing · 2 已结束 finished"
    leaders: tuple[StandingRow, ...]
    finished: bool


def table_ranges(tables: Sequence[int]) -> str:
    """``1-8, 20``: runs of consecutive tables as ranges (the venue file's own syntax)."""
    runs: list[list[int]] = []
    for table in sorted(tables):
        if runs and table == runs[-1][1] + 1:
            runs[-1][1] = table
        else:
            runs.append([table, table])
    return ", ".join(str(a) if a == b else f"{a}-{b}" for a, b in runs)


def event_columns(model: VenueModel, leaders: int) -> list[EventColumn]:
    """Every event of the hall for the overview page, in `VenueModel.events` order, each
    with its first ``leaders`` standings lines."""
    columns = []
    for event in model.events():
        competition = model.competitions.get(event)
        tables = model.tables(event)
        playing = finished = 0
        for table in tables:
            state = model.state(table)
            if state is None:
                continue
            if state.status == "finished":
                finished += 1
            elif state.status in ("playing", "paused", "adjourned"):
                playing += 1
        rnd = ""
        lines: tuple[StandingLine, ...] = ()
        if competition is not None:
            if competition.round:
                rnd = LABELS["round_of"].format(n=competition.round, m=competition.rounds)
            lines = competition.standings
        columns.append(
            EventColumn(
                event=event,
                name=model.event_name(event),
                round=rnd,
                tables=LABELS["event_tables"].format(t=table_ranges(tables)) if tables else "",
                play=LABELS["event_play"].format(p=playing, f=finished),
                leaders=tuple(standing_rows(lines, 0, max(0, leaders))),
                finished=competition is not None and competition.finished,
            )
        )
    return columns
