"""The arbiter view's model: every table's alerts by urgency, and one table's full board.

A referee watches the whole hall on one screen. `ArbiterModel` folds what the bus says
into that picture:

* **alerts** — the open alerts of each table's retained `RefereeState`, plus alert events
  (``arbiter/table/<n>/alerts``) that arrived after the last state (the state is the
  truth: an event it has folded in but no longer lists was dealt with); plus alerts the
  model makes itself: a host whose status says offline, a board or clock link that is
  down (``links_down``), and a **stale clock** — a running clock whose state is older
  than ``stale_after_ms``, or whose extrapolated time has been gone for
  ``flag_grace_ms`` without the host reporting the flag (then the host or the link is
  not telling us what happens);
* **urgency** — `TIERS`: a five or a forbidden move made or a flag first, then claims,
  then infractions and other table trouble, then boards and hosts offline, then stale
  clocks; within a tier the oldest first. Acknowledging is local to this screen (no
  command is sent): an acknowledged alert moves below the others, grey, and stays until
  it closes. Keys are per occurrence, so the same trouble coming back alerts again;
* **the focused table** — its board with the stone numbers, the last stone, offers, the
  stone waiting for its press, the points the open alerts name and Black's forbidden
  points computed here with the rules engine (`wuzi.rules.forbidden.forbidden_points`)
  from the table's moves, when its rule set has forbidden moves. The arbiter view is
  referee-only (it reads ``arbiter/#``), so it may show them; nothing here is published.

Events: in a hall of several events (the 2019 open's three groups at once) each table's
event is its state's ``event_id``, else its assignment's, else the venue file's (given as
``table_events``); each alert line and the focused board name it (by the event's retained
`CompetitionState` name when ``competition/#`` is read, else the assignment's, else the
id). With ``event`` set (``wuzi arbiter --event ID``) the view keeps to that event's
tables: the alerts, the tables counted and cycled through, a host's alert only if it
serves one of them. A table whose event nothing says (no game yet, no venue file) stays
in view: trouble there may be this referee's.

Time is an argument (``now_ms``, the screen's monotonic time); receive times come with
every message. `frame` returns a frozen `ArbiterFrame`; equal frames look the same, so
the app redraws only when the frame changes or `next_change_ms` comes due. Pure.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from wuzi.bus.newest import supersedes
from wuzi.bus.schemas import (
    ALERT_KIND,
    ALERT_REASONS,
    Assignment,
    Cleared,
    HostStatus,
    Message,
    OpenAlert,
    RefereeState,
    TableEvent,
    TableState,
)
from wuzi.bus.topics import TopicError, TopicKind, parse_topic
from wuzi.display.clock_model import (
    ClockFace,
    clock_change_ms,
    clock_face,
    event_name,
    note_event_name,
)
from wuzi.display.timefmt import NEVER_MS
from wuzi.rules.board import Board
from wuzi.rules.errors import RulesError
from wuzi.rules.forbidden import forbidden_points
from wuzi.rules.ruleset import RuleSet

__all__ = [
    "REASON_LABELS",
    "TIERS",
    "AlertLine",
    "ArbiterFrame",
    "ArbiterModel",
    "BoardView",
    "tier_of",
]

# Urgency tiers, most urgent first (0).
CRITICAL, CLAIM, INFRACTION, OFFLINE, STALE = range(5)
TIERS: dict[str, int] = {
    "five": CRITICAL,
    "forbidden": CRITICAL,
    "flag": CRITICAL,
    "claim": CLAIM,
    "claim_judged": CLAIM,
    "loss_pending": CLAIM,  # a second infraction: a loss waits for the referee's word
    "press_without_stone": INFRACTION,
    "unpressed": INFRACTION,
    "wrong_colour": INFRACTION,
    "two_stones": INFRACTION,
    "removed": INFRACTION,
    "moved": INFRACTION,
    "not_allowed": INFRACTION,
    "offer_not_removed": INFRACTION,
    "refused": INFRACTION,
    "board": OFFLINE,
    "mirroring": OFFLINE,  # a linked game's board to put right: never a player's infraction
    "host_restarted": OFFLINE,
    "board_offline": OFFLINE,
    "host_offline": OFFLINE,
    "stale_clock": STALE,
}
REASON_LABELS: dict[str, str] = {
    "five": "五连 five made",
    "forbidden": "禁手 forbidden move",
    "flag": "超时 flag fell",
    "claim": "申诉 claim",
    "claim_judged": "申诉 claim judged",
    "loss_pending": "判负待定 loss pending",
    "press_without_stone": "违规 press without stone",
    "unpressed": "未按钟 clock not pressed",
    "wrong_colour": "颜色错误 wrong colour",
    "two_stones": "两子 two stones",
    "removed": "提子 stone removed",
    "moved": "移子 stone moved",
    "not_allowed": "不允许 stone not allowed",
    "offer_not_removed": "未撤子 offer not removed",
    "refused": "拒绝 refused",
    "board": "棋盘 board",
    "mirroring": "摆子 mirroring",
    "host_restarted": "主机重启 host restarted",
    "board_offline": "棋盘离线 board offline",
    "host_offline": "主机离线 host offline",
    "stale_clock": "时钟停滞 stale clock",
}
DEFAULT_STALE_AFTER_MS = 10 * 60_000
DEFAULT_FLAG_GRACE_MS = 5_000
MAX_ACKED = 10_000  # acknowledged keys remembered (they are per occurrence)
_FORBIDDEN_CACHE = 64


def tier_of(kind: str) -> int:
    """The urgency tier of an alert kind (an unknown reason counts as an infraction)."""
    return TIERS.get(kind, INFRACTION)


@dataclass(frozen=True)
class AlertLine:
    """One line of the alert list."""

    key: str  # unique per occurrence: an event id, or "host:…", "link:…", "stale:…"
    table: int | None  # None: a host serving no table
    kind: str  # an ALERT_REASONS value, or host_offline / board_offline / stale_clock
    tier: int
    label: str  # "禁手 forbidden move"
    text: str
    points: tuple[int, ...]
    seat: str | None
    since_ms: int  # screen time it was first seen
    age_min: int  # whole minutes since then, as drawn
    acknowledged: bool
    event: str = ""  # the name of the table's event ("" for none, a one-event venue)


@dataclass(frozen=True)
class BoardView:
    """The focused table as the referee sees it (forbidden points included)."""

    table: int
    stones: tuple[tuple[int, str, int], ...]  # (point, "black"/"white", move number)
    last: int | None
    offers: tuple[int, ...]
    pending: int | None  # a settled stone waiting for its clock press
    forbidden: tuple[tuple[int, str], ...]  # (point, "33"/"44"/"ol"), sorted by point
    marked: tuple[int, ...]  # points named by this table's open alerts
    rule_set: str
    clock: ClockFace | None
    infractions: tuple[int, int]  # first seat, second seat
    alerts: int  # open (unacknowledged) alerts of this table
    note: str  # why something is missing, or ""
    event: str = ""  # the name of the table's event ("" for none)


@dataclass(frozen=True)
class ArbiterFrame:
    """Everything the arbiter view draws."""

    alerts: tuple[AlertLine, ...]
    selected: int | None  # index into alerts
    board: BoardView | None
    tables: tuple[int, ...]  # tables heard of
    hosts_online: int
    hosts_offline: int
    prompt: str | None  # the command being typed, or None
    status: str  # the last command's outcome, errors, help
    event: str = ""  # the name of the event the view keeps to ("" every table)


@dataclass
class _Table:
    state: TableState | None = None
    state_ms: int = 0
    referee: RefereeState | None = None
    referee_ms: int = 0
    assignment: Assignment | None = None
    events: dict[str, tuple[TableEvent, int]] = field(default_factory=dict)
    seen_ms: dict[str, int] = field(default_factory=dict)  # alert event id -> first seen
    link_down_ms: int | None = None  # since when the host says its link is down


def _event_alert(event: TableEvent) -> OpenAlert:
    """An alert event's data as an `OpenAlert`; odd data is shown, never fatal."""
    data = event.data
    reason = data.get("reason")
    text = data.get("text")
    points = data.get("points")
    seat = data.get("seat")
    return OpenAlert(
        event_id=event.event_id,
        reason=reason if isinstance(reason, str) and reason in ALERT_REASONS else "board",
        text=text if isinstance(text, str) and text.strip() else f"alert {event.event_id}",
        points=tuple(
            p
            for p in (points if isinstance(points, list) else [])
            if isinstance(p, int) and not isinstance(p, bool) and 0 <= p < 225
        ),
        seat=seat if seat in ("first", "second") else None,
    )


class ArbiterModel:
    """All tables' alerts and one focused board (see the module doc)."""

    def __init__(
        self,
        *,
        focus: int | None = None,
        default_rule_set: RuleSet | None = None,
        stale_after_ms: int = DEFAULT_STALE_AFTER_MS,
        flag_grace_ms: int = DEFAULT_FLAG_GRACE_MS,
        event: str | None = None,
        table_events: dict[int, str] | None = None,
        table_rules: dict[int, RuleSet] | None = None,
    ) -> None:
        if stale_after_ms <= 0 or flag_grace_ms < 0:
            raise ValueError("stale_after_ms must be positive and flag_grace_ms not negative")
        self.focus = focus
        self.event = event  # keep to this event's tables (None: every table)
        self.table_events = dict(table_events or {})  # the venue file's: table -> event id
        self.table_rules = dict(table_rules or {})  # the venue file's default per table
        self.event_names: dict[str, str] = {}  # event id -> its competition's name
        self.default_rule_set = default_rule_set or RuleSet.renju()
        self.stale_after_ms = stale_after_ms
        self.flag_grace_ms = flag_grace_ms
        self.tables: dict[int, _Table] = {}
        self.hosts: dict[str, tuple[HostStatus, int]] = {}
        self.acknowledged: set[str] = set()
        self.selected_key: str | None = None
        self.prompt: str | None = None
        self.status = ""
        self._forbidden: dict[tuple[int, ...], tuple[tuple[int, str], ...]] = {}

    # --- messages -----------------------------------------------------------------------

    def _table(self, number: int) -> _Table:
        return self.tables.setdefault(number, _Table())

    def apply(self, topic: str, message: Message, received_ms: int) -> bool:
        """Fold one message in; True if the model changed. Unrelated topics are ignored."""
        try:
            where = parse_topic(topic)
        except TopicError:
            return False
        kind, number = where.kind, where.table
        if kind is TopicKind.COMPETITION:
            return self._competition(where.event or "", message)
        if kind is TopicKind.HOST_STATUS and where.host is not None:
            return self._host(where.host, message, received_ms)
        if number is None:
            return False
        if kind is TopicKind.TABLE_STATE:
            return self._state(number, message, received_ms)
        if kind is TopicKind.ARBITER_STATE:
            return self._referee(number, message, received_ms)
        if kind is TopicKind.ARBITER_ALERTS and isinstance(message, TableEvent):
            return self._alert_event(number, message, received_ms)
        if kind is TopicKind.ASSIGNMENT:
            table = self._table(number)
            new = message if isinstance(message, Assignment) else None
            changed = new != table.assignment
            table.assignment = new
            return changed
        return False

    def _competition(self, event: str, message: Message) -> bool:
        """An event's summary: its name, for the lines and the board of its tables."""
        return note_event_name(self.event_names, event, message)

    # --- events -------------------------------------------------------------------------

    def event_of(self, number: int) -> str:
        """Table ``number``'s event id: its state's, its assignment's, the venue file's;
        "" when nothing says."""
        table = self.tables.get(number)
        if table is not None:
            if table.state is not None and table.state.event_id:
                return table.state.event_id
            if table.assignment is not None and table.assignment.event_id:
                return table.assignment.event_id
        return self.table_events.get(number, "")

    def event_name_of(self, number: int) -> str:
        """The name of table ``number``'s event ("" for none)."""
        table = self.tables.get(number)
        assignment = table.assignment if table is not None else None
        return event_name(self.event_of(number), self.event_names, assignment)

    def in_view(self, number: int | None) -> bool:
        """Whether table ``number`` is in this view: every table without ``event``; with
        it, the event's tables and those whose event nothing says."""
        if self.event is None or number is None:
            return True
        return self.event_of(number) in (self.event, "")

    def view_tables(self) -> list[int]:
        """The tables heard of that are in this view, ascending."""
        return sorted(n for n in self.tables if self.in_view(n))

    def _state(self, number: int, message: Message, received_ms: int) -> bool:
        table = self._table(number)
        if isinstance(message, Cleared):
            changed = table.state is not None
            table.state = None
            return changed
        if isinstance(message, TableState) and supersedes(message, table.state):
            table.state, table.state_ms = message, received_ms
            return True
        return False

    def _referee(self, number: int, message: Message, received_ms: int) -> bool:
        table = self._table(number)
        if isinstance(message, Cleared):
            changed = table.referee is not None or bool(table.events)
            table.referee, table.events = None, {}
            return changed
        if not isinstance(message, RefereeState):
            return False
        if not supersedes(message, table.referee):
            return False  # an older copy (wuzi.bus.newest): the screen never goes back
        table.referee, table.referee_ms = message, received_ms
        # Events the state has folded in are either listed in it or closed.
        table.events = {k: v for k, v in table.events.items() if v[0].seq > message.seq}
        listed = {a.event_id for a in message.alerts} | set(table.events)
        for alert in message.alerts:
            table.seen_ms.setdefault(alert.event_id, received_ms)
        table.seen_ms = {k: v for k, v in table.seen_ms.items() if k in listed}
        self._prune_acks()
        return True

    def _alert_event(self, number: int, event: TableEvent, received_ms: int) -> bool:
        if event.kind != ALERT_KIND:
            return False
        table = self._table(number)
        if table.referee is not None and event.seq <= table.referee.seq:
            return False  # already folded into the state (listed there, or closed)
        if event.event_id in table.events:
            return False  # a repeat (at least once delivery)
        table.events[event.event_id] = (event, received_ms)
        table.seen_ms.setdefault(event.event_id, received_ms)
        return True

    def _host(self, host: str, message: Message, received_ms: int) -> bool:
        if isinstance(message, Cleared):
            return self.hosts.pop(host, None) is not None
        if not isinstance(message, HostStatus):
            return False
        old = self.hosts.get(host)
        if old is not None and old[0] == message:
            return False
        self.hosts[host] = (message, received_ms)
        down = set(message.links_down) if message.online else set()
        for number in message.tables:
            table = self._table(number)
            if number in down and table.link_down_ms is None:
                table.link_down_ms = received_ms
            elif number not in down:
                table.link_down_ms = None
        self._prune_acks()
        return True

    # --- alerts -------------------------------------------------------------------------

    def _offline_tables(self) -> set[int]:
        return {
            n for status, _ms in self.hosts.values() if not status.online for n in status.tables
        }

    def _raw_alerts(self, now_ms: int) -> list[AlertLine]:
        lines: list[AlertLine] = []

        def add(
            key: str,
            table: int | None,
            kind: str,
            text: str,
            since_ms: int,
            points: tuple[int, ...] = (),
            seat: str | None = None,
        ) -> None:
            lines.append(
                AlertLine(
                    key=key,
                    table=table,
                    kind=kind,
                    tier=tier_of(kind),
                    label=REASON_LABELS.get(kind, kind),
                    text=text,
                    points=points,
                    seat=seat,
                    since_ms=since_ms,
                    age_min=max(0, now_ms - since_ms) // 60_000,
                    acknowledged=key in self.acknowledged,
                    event="" if table is None else self.event_name_of(table),
                )
            )

        offline = self._offline_tables()
        for number, table in self.tables.items():
            if not self.in_view(number):
                continue
            open_alerts = list(table.referee.alerts) if table.referee is not None else []
            open_alerts += [_event_alert(event) for event, _ms in table.events.values()]
            for alert in open_alerts:
                since = table.seen_ms.get(alert.event_id, table.referee_ms)
                add(
                    alert.event_id,
                    number,
                    alert.reason,
                    alert.text,
                    since,
                    alert.points,
                    alert.seat,
                )
            if table.link_down_ms is not None and number not in offline:
                add(
                    f"link:{number}:{table.link_down_ms}",
                    number,
                    "board_offline",
                    f"第 {number} 桌棋盘或棋钟离线 table {number}: board or clock link down",
                    table.link_down_ms,
                )
            stale = self._stale(number, table, now_ms)
            if stale is not None and number not in offline:
                add(f"stale:{number}:{table.state_ms}", number, "stale_clock", *stale)
        for host, (status, received_ms) in sorted(self.hosts.items()):
            if status.online:
                continue
            if status.tables and not any(self.in_view(n) for n in status.tables):
                continue  # serves none of this view's tables
            tables = ", ".join(str(n) for n in status.tables) or "none"
            add(
                f"host:{host}:{status.boot_id}:{received_ms}",
                min(status.tables) if status.tables else None,
                "host_offline",
                f"主机 {host} 离线 host {host} offline (tables {tables})",
                received_ms,
            )
        return lines

    def _stale(self, number: int, table: _Table, now_ms: int) -> tuple[str, int] | None:
        """(text, since_ms) if the table's running clock is stale at ``now_ms``."""
        state = table.state
        if state is None or state.status != "playing" or state.running is None:
            return None
        age = now_ms - table.state_ms
        if age >= self.stale_after_ms:
            minutes = age // 60_000
            return (
                f"第 {number} 桌时钟 {minutes} 分钟无更新 table {number}: "
                f"running clock not updated for {minutes} min",
                table.state_ms + self.stale_after_ms,
            )
        remaining = state.black_ms if state.running == "black" else state.white_ms
        if remaining > 0:
            gone_at = table.state_ms + remaining
            if now_ms >= gone_at + self.flag_grace_ms:
                return (
                    f"第 {number} 桌 {state.running} 时间已到但主机未报告 table {number}: "
                    f"{state.running}'s time is gone but the host has not reported a flag",
                    gone_at + self.flag_grace_ms,
                )
        return None

    def alerts(self, now_ms: int) -> tuple[AlertLine, ...]:
        """Every alert, unacknowledged first, then by tier, then oldest first."""
        lines = self._raw_alerts(now_ms)
        lines.sort(key=lambda a: (a.acknowledged, a.tier, a.since_ms, a.table or 0, a.key))
        return tuple(lines)

    def _prune_acks(self) -> None:
        if len(self.acknowledged) > MAX_ACKED:
            self.acknowledged = set(sorted(self.acknowledged)[-MAX_ACKED // 2 :])

    def game_of(self, number: int | None) -> str | None:
        """The game table ``number`` plays as its host last said (the referee state, else
        the table state), which a command for it is signed for; None for every table
        (``number`` None) or a table with no game known."""
        if number is None:
            return None
        table = self.tables.get(number)
        if table is None:
            return None
        if table.referee is not None:
            return table.referee.game_id
        return table.state.game_id if table.state is not None else None

    # --- the referee's hands ------------------------------------------------------------

    def acknowledge(self, key: str) -> None:
        """Mark one alert seen on this screen (or unmark it: it toggles)."""
        if key in self.acknowledged:
            self.acknowledged.discard(key)
        else:
            self.acknowledged.add(key)
            self._prune_acks()

    def acknowledge_selected(self, now_ms: int) -> AlertLine | None:
        """Toggle the selected alert; the selection stays on it. Returns it, or None."""
        alert = self.selected_alert(now_ms)
        if alert is not None:
            self.acknowledge(alert.key)
        return alert

    def selected_alert(self, now_ms: int) -> AlertLine | None:
        for alert in self.alerts(now_ms):
            if alert.key == self.selected_key:
                return alert
        return None

    def move_selection(self, step: int, now_ms: int) -> None:
        """Select the next (``step`` 1) or previous (-1) alert; the focus follows it."""
        alerts = self.alerts(now_ms)
        if not alerts:
            self.selected_key = None
            return
        keys = [a.key for a in alerts]
        if self.selected_key in keys:
            index = min(max(keys.index(self.selected_key) + step, 0), len(keys) - 1)
        else:
            index = 0 if step >= 0 else len(keys) - 1
        self.select(alerts[index])

    def select(self, alert: AlertLine) -> None:
        self.selected_key = alert.key
        if alert.table is not None:
            self.focus = alert.table

    def cycle_focus(self, step: int) -> None:
        """Focus the next or previous table heard of."""
        numbers = self.view_tables()
        if not numbers:
            return
        if self.focus not in numbers:
            self.focus = numbers[0]
            return
        index = (numbers.index(self.focus) + step) % len(numbers)
        self.focus = numbers[index]

    # --- the board ----------------------------------------------------------------------

    def rule_set(self, number: int) -> RuleSet:
        table = self.tables.get(number)
        assignment = table.assignment if table is not None else None
        state = table.state if table is not None else None
        if assignment is not None and (state is None or state.game_id == assignment.game_id):
            try:
                return RuleSet.parse(assignment.rule_set)
            except RulesError:
                pass
        return self.table_rules.get(number, self.default_rule_set)

    def forbidden(self, moves: tuple[int, ...]) -> tuple[tuple[int, str], ...]:
        """Black's forbidden points after ``moves`` (Black first, alternating), cached."""
        moves = tuple(moves)
        found = self._forbidden.get(moves)
        if found is None:
            try:
                points = forbidden_points(Board.from_moves(moves))
            except RulesError:
                points = {}
            found = tuple(sorted((p, kind.value) for p, kind in points.items()))
            if len(self._forbidden) >= _FORBIDDEN_CACHE:
                self._forbidden.pop(next(iter(self._forbidden)))
            self._forbidden[moves] = found
        return found

    def board(self, now_ms: int, alerts: tuple[AlertLine, ...] | None = None) -> BoardView | None:
        number = self.focus
        if number is None:
            return None
        table = self.tables.get(number, _Table())
        state, referee = table.state, table.referee
        if alerts is None:
            alerts = self.alerts(now_ms)
        mine = [a for a in alerts if a.table == number]
        marked = sorted(
            {p for a in mine if not a.acknowledged or a.key == self.selected_key for p in a.points}
        )
        rules = self.rule_set(number)
        moves = state.moves if state is not None else ()
        note = "" if state is not None else f"第 {number} 桌无数据 no state for table {number} yet"
        return BoardView(
            table=number,
            stones=tuple(
                (p, "black" if i % 2 == 0 else "white", i + 1) for i, p in enumerate(moves)
            ),
            last=moves[-1] if moves else None,
            offers=state.offers if state is not None else (),
            pending=referee.pending_stone if referee is not None else None,
            forbidden=self.forbidden(moves) if rules.forbidden and state is not None else (),
            marked=tuple(marked),
            rule_set=str(rules),
            clock=None
            if state is None
            else clock_face(
                state, table.state_ms, now_ms, table.assignment, self.event_name_of(number)
            ),
            infractions=(
                (referee.infractions_first, referee.infractions_second) if referee else (0, 0)
            ),
            alerts=sum(1 for a in mine if not a.acknowledged),
            note=note,
            event=self.event_name_of(number),
        )

    def frame(self, now_ms: int) -> ArbiterFrame:
        alerts = self.alerts(now_ms)
        keys = [a.key for a in alerts]
        online = sum(1 for status, _ in self.hosts.values() if status.online)
        return ArbiterFrame(
            alerts=alerts,
            selected=keys.index(self.selected_key) if self.selected_key in keys else None,
            board=self.board(now_ms, alerts),
            tables=tuple(self.view_tables()),
            hosts_online=online,
            hosts_offline=len(self.hosts) - online,
            prompt=self.prompt,
            status=self.status,
            event="" if self.event is None else event_name(self.event, self.event_names),
        )

    def next_change_ms(self, now_ms: int) -> int:
        """Milliseconds (≥ 1) until the frame changes with no new message: the focused
        clock's next visible change, or a running clock turning stale; `NEVER_MS` if none.
        The alerts' ages are drawn in whole minutes, so a minute is the longest sleep
        while any alert is shown."""
        due = NEVER_MS
        if self.focus is not None:
            table = self.tables.get(self.focus)
            if table is not None and table.state is not None:
                due = min(due, clock_change_ms(table.state, table.state_ms, now_ms))
        for number, table in self.tables.items():
            state = table.state
            if state is None or state.status != "playing" or state.running is None:
                continue
            if not self.in_view(number):
                continue
            candidates = [table.state_ms + self.stale_after_ms]
            remaining = state.black_ms if state.running == "black" else state.white_ms
            if remaining > 0:
                candidates.append(table.state_ms + remaining + self.flag_grace_ms)
            for at in candidates:
                if at > now_ms:
                    due = min(due, at - now_ms)
        for alert in self._raw_alerts(now_ms):
            due = min(due, 60_000 - max(0, now_ms - alert.since_ms) % 60_000)
        return max(1, due)
