"""One table as its host serves it, pure: the game, the equipment's rules, what to journal.

A ``Table`` takes time-stamped inputs — the board's reports with the board's own instants,
a press with the clock unit's instant, what the host read off its devices (link up or
down, refused, silent), an assignment, a verified referee command — and returns what the
host must journal, publish and show (``Outcome``: journal ``Record`` values, each marked
whether it is published; questions for the board; lines to log; whether the host status
or the clock unit's faces change). It owns:

* the game (``TableSession``: rules and clock) and its journal records — ``host.game``
  first, then ``in.*`` inputs (the truth ``TableSession.replay`` rebuilds), accepted
  ``host.command`` ids and the outputs, the public ones numbered without gaps (``pseq``);
* the press rule and the outage's order (``wuzi.table.press_gate``): a press is judged
  with its own instant once the board has vouched for it, a press made while the board
  is not heard is kept until its log is back;
* the fault holds (``wuzi.table.faults``): one alert each way per device, the clock held
  for the equipment once a spell (``EquipmentHeld``), as of the first waiting press;
* the clock unit's buttons (``wuzi.table.buttons``: the first seat's button follows the
  assignment's game in the match);
* the commands' checks: a command id is taken once per game (the host's guard keeps ids
  across games and restarts).

It never reads a clock and never does I/O: ``now_ns`` is the host's monotonic time base,
``wall_ms`` the venue's wall clock for the messages. The director's assignment is opaque
here (``A``: the host's bus message, with a ``game_id`` and a ``game_in_match``); the host
gives its ``TableSetup`` and the JSON journaled with it (``host.table_runtime``).
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, Self, TypeVar

from wuzi.rules.board import Colour
from wuzi.table.alerts import ALERT_KIND, AlertReason
from wuzi.table.buttons import CLAIM_BUTTON, REFEREE_CALLED, ButtonMapper
from wuzi.table.checks import TableError
from wuzi.table.codec import decode_input, decode_output, encode_input, encode_output
from wuzi.table.commands import CommandMemory, Ticket, Verdict, game_problem
from wuzi.table.faults import DeviceFaults, DeviceLook
from wuzi.table.inputs import (
    BoardAlert,
    EquipmentHeld,
    HostRestarted,
    SessionStarted,
    StoneSettled,
    TableInput,
    TableSetup,
    Tick,
)
from wuzi.table.outputs import RefereeAlert, TableOutput
from wuzi.table.press_gate import AskBoard, BoardView, Decision, Feed, Judge, NotJudged, PressGate
from wuzi.table.session import TableSession

__all__ = [
    "ALERT_KIND",
    "COMMAND_KIND",
    "GAME_START_KIND",
    "Assigned",
    "JournaledEntry",
    "Outcome",
    "Record",
    "Report",
    "Table",
    "table_id",
]

GAME_START_KIND = "host.game"
"""The first record of every game: the assignment it came from (or none: standalone) and
the wall clock it began at (``wall_ms``), so recovery finds where the current game starts
with one indexed query."""
COMMAND_KIND = "host.command"
STANDALONE_GAME = "standalone"
MAX_OPEN_ALERTS = 50

Report = StoneSettled | BoardAlert
"""A board's report, in the table's words, stamped with the instant the board read it."""


def table_id(number: int) -> str:
    """The journal's id of table ``number``: ``t12``."""
    return f"t{number}"


class Assigned(Protocol):
    """What the table reads of an assignment: its game and the game's place in a match
    (in game 2, 4 … of a match the players keep their chairs and change colours)."""

    @property
    def game_id(self) -> str: ...

    @property
    def game_in_match(self) -> int: ...


A = TypeVar("A", bound=Assigned)


class JournaledEntry(Protocol):
    """A journal entry as recovery reads it (``wuzi.journal.JournalEntry`` is one)."""

    @property
    def id(self) -> str: ...

    @property
    def kind(self) -> str: ...

    @property
    def payload(self) -> dict[str, Any]: ...


@dataclass(frozen=True)
class Record:
    """One journal event to append: ``kind``, JSON ``payload``, whether it is published."""

    kind: str
    payload: dict[str, Any]
    publish: bool
    t_ms: int


@dataclass
class Outcome:
    """What one input changed: the records to journal (in one transaction, before anything
    leaves the host), questions for the board, lines for the log (``(level, text)``:
    ``info`` or ``warning``), whether the set of faulted devices changed (the host
    status) and whether the clock unit's faces may have changed."""

    records: list[Record] = field(default_factory=list)
    asks: list[AskBoard] = field(default_factory=list)
    notes: list[tuple[str, str]] = field(default_factory=list)
    faults_changed: bool = False
    show: bool = False

    def add(self, other: Outcome) -> None:
        self.records += other.records
        self.asks += other.asks
        self.notes += other.notes
        self.faults_changed |= other.faults_changed
        self.show |= other.show


@dataclass
class Table(Generic[A]):
    """One table; see the module docstring. The fields up to ``started_wall_ms`` are what
    recovery rebuilds from the journal (and a snapshot keeps); the rest is the equipment's
    state of this run of the host, which starts afresh."""

    number: int
    venue: str
    session: TableSession | None = None
    assignment: A | None = None
    game_id: str = ""
    waiting: A | None = None  # a new assignment held until the referee starts it
    last_ns: int = 0
    public_seq: int = 0  # public events of this game, numbered without gaps
    open_alerts: list[tuple[str, RefereeAlert]] = field(default_factory=list)
    started_wall_ms: int | None = None  # the wall clock when the game began (its record's)
    gate: PressGate[Report] = field(default_factory=lambda: PressGate(CLAIM_BUTTON))
    faults: DeviceFaults = field(default_factory=DeviceFaults)
    buttons: ButtonMapper = field(default_factory=ButtonMapper)
    commands: CommandMemory = field(default_factory=CommandMemory)  # carried out, by age
    _waiting_setup: tuple[TableSetup, dict[str, Any]] | None = None  # (setup, journal JSON)

    @property
    def id(self) -> str:
        return table_id(self.number)

    @property
    def first_button(self) -> int:
        """The button of the first seat (Black at the start): 1 in game 2, 4 … of a match."""
        a = self.assignment
        return 1 if a is not None and a.game_in_match % 2 == 0 else 0

    # --- beginning a game -------------------------------------------------------------

    def known(self, message: A) -> str | None:
        """Why ``message`` changes nothing (None: it is news): the current game's or the
        waiting one's assignment again."""
        if self.assignment is not None and message.game_id == self.assignment.game_id:
            return "the current game"
        if self.waiting is not None and message == self.waiting:
            return "already waiting"
        return None

    def offer(self, message: A, setup: TableSetup, header: dict[str, Any]) -> tuple[bool, str]:
        """An assignment arrived, already checked (``setup``: the game it starts, ``header``
        its JSON for the journal). Returns (changed, why): it is held as ``waiting`` until
        the referee's ``next-game`` begins it (a round starts at the chief referee's signal); a
        repeat of the current or the waiting game changes nothing."""
        known = self.known(message)
        if known is not None:
            return False, known
        self.waiting, self._waiting_setup = message, (setup, header)
        return True, f"game {message.game_id} waits for the referee's start"

    def withdraw(self) -> tuple[bool, str]:
        """The assignment was withdrawn: the waiting game is forgotten."""
        changed = self.waiting is not None
        self.waiting, self._waiting_setup = None, None
        return changed, "assignment withdrawn"

    def begin(self, now_ns: int, wall_ms: int, setup: TableSetup | None = None) -> list[Record]:
        """Begin the waiting assignment's game (or ``setup``, a standalone table's game
        from the venue's defaults). The previous game must be over. Raises TableError."""
        now_ns = self._not_before(now_ns)
        if self.session is not None and not self.session.game.is_over:
            raise TableError(
                f"table {self.number}: game {self.game_id!r} is not over: set its result first"
            )
        chosen, header_json = self.waiting, None
        if chosen is not None and self._waiting_setup is not None:
            setup, header_json = self._waiting_setup
        elif setup is None:
            raise TableError(f"table {self.number}: no game is assigned to this table")
        session = TableSession(setup, now_ns)
        # a standalone game's id is its table's and its start's: unique on the host (a
        # record file each), and journaled in the game's first record (stable on recovery)
        game_id = (
            chosen.game_id if chosen is not None else f"{STANDALONE_GAME}-t{self.number}-{now_ns}"
        )
        t_ms = now_ns // 1_000_000
        header = {"game_id": game_id, "assignment": header_json, "wall_ms": wall_ms}
        records = [Record(GAME_START_KIND, header, False, t_ms)]
        kind, payload = encode_input(session.inputs[0])
        records.append(Record(kind, payload, False, t_ms))
        self.session, self.assignment, self.game_id = session, chosen, game_id
        self.started_wall_ms = wall_ms
        self.waiting, self._waiting_setup = None, None
        self.public_seq = 0
        self.open_alerts = []
        self.last_ns = now_ns
        self.sync_buttons()
        records += self._outputs(session.take_outputs(), wall_ms)
        return records

    def sync_buttons(self) -> None:
        """A new mapper when the first seat's button changed (a new game of a match)."""
        if self.buttons.first_button != self.first_button:
            self.buttons = ButtonMapper(self.first_button)

    # --- feeding the session ----------------------------------------------------------

    def feed(self, event: TableInput, wall_ms: int, *, strict: bool = False) -> list[Record]:
        """Apply one input; the records to journal. A refused input raises TableError and
        changes nothing (nothing to journal). ``strict``: an action the game refuses (a
        ``refused`` alert, which a player's button gets) raises TableError too; the session
        has taken the input then, so only ``feed_command``, which rebuilds it, passes it."""
        session = self._session()
        outputs = session.handle(event)
        self.last_ns = event.now_ns
        session.take_outputs()
        refused = [
            o for o in outputs if isinstance(o, RefereeAlert) and o.reason is AlertReason.REFUSED
        ]
        if strict and refused:
            raise TableError(refused[0].text)
        kind, payload = encode_input(event)
        records = [Record(kind, payload, False, event.now_ns // 1_000_000)]
        return records + self._outputs(outputs, wall_ms)

    def feed_all(self, events: Iterable[TableInput], wall_ms: int) -> Outcome:
        """Feed the inputs of one happening (a press, a stone): an input the session
        refuses changes nothing and is logged; the others stand."""
        out = Outcome()
        for event in events:
            try:
                out.records += self.feed(event, wall_ms)
            except TableError as exc:
                out.notes.append(("warning", f"input refused: {exc}"))
        out.show = bool(out.records)
        return out

    def feed_command(
        self,
        command_id: str,
        meta: dict[str, Any],
        events: Iterable[TableInput],
        wall_ms: int,
        *,
        strict: bool = False,
    ) -> list[Record]:
        """Apply a referee command's inputs, all or nothing: if one is refused, the
        session is rebuilt as it was (nothing is journaled) and the TableError raised.
        ``strict``: a player's action the referee enters (a decision, a claim) that the
        game refuses is the command's refusal, not a ``refused`` alert that stands."""
        session = self._session()
        before = session.inputs
        records: list[Record] = []
        try:
            for event in events:
                records += self.feed(event, wall_ms, strict=strict)
        except TableError:
            if len(session.inputs) != len(before):
                self.session = TableSession.replay(before)
                self.session.take_outputs()
                self.last_ns = before[-1].now_ns
            raise
        t_ms = records[0].t_ms if records else self.last_ns // 1_000_000
        return [self._command_record(command_id, meta, t_ms), *records]

    def begin_by_command(
        self,
        command_id: str,
        meta: dict[str, Any],
        now_ns: int,
        wall_ms: int,
        setup: TableSetup | None = None,
    ) -> list[Record]:
        """``begin`` the waiting game (or ``setup``'s, a standalone table's next game) on
        the referee's ``next-game``. The command's record goes after the game's first
        record, so it belongs to the new game: a repeat of the command is recognised, also
        after a restart (recovery reads the current game)."""
        records = self.begin(now_ns, wall_ms, setup)
        command = self._command_record(command_id, meta, records[0].t_ms)
        return [records[0], command, *records[1:]]

    def _command_record(self, command_id: str, meta: dict[str, Any], t_ms: int) -> Record:
        return Record(COMMAND_KIND, {"command_id": command_id, **meta}, False, t_ms)

    # --- the referee's commands: once, in their own game ------------------------------

    @property
    def shown_game(self) -> str | None:
        """The game the table's states show, which a referee's command for it is signed
        for: its game (running or over), or while it has none the assignment waiting for
        the referee's ``next-game``, else None."""
        if self.session is None and self.waiting is not None:
            return self.waiting.game_id
        return self.game_id or None

    def check_command(self, ticket: Ticket, now_ms: int) -> Verdict | str:
        """What to do with a verified command on this table at the host's wall clock
        ``now_ms``: carry it out, drop it as a repeat, or the refusal's text. The game is
        checked first, so a command replayed into the next game is refused loudly, not
        dropped in silence (``wuzi.table.commands``)."""
        problem = game_problem(ticket, self.number, self.shown_game)
        if problem is not None:
            return problem
        if self.commands.seen(ticket.command_id, now_ms):
            return Verdict.REPEAT
        return Verdict.CARRY_OUT

    def carried_out(self, ticket: Ticket) -> None:
        """Remember the command as carried out here (once its record is journaled)."""
        self.commands.remember(ticket.command_id, ticket.issued_ms)

    @staticmethod
    def command_fields(ticket: Ticket, now_ms: int) -> dict[str, Any]:
        """What a ``host.command`` record of the command, accepted at the host's wall clock
        ``now_ms``, holds besides its id, for ``CommandMemory.recall`` after a restart."""
        return {"issued_ms": ticket.issued_ms, "game_id": ticket.game_id, "wall_ms": now_ms}

    def alert(self, now_ns: int, wall_ms: int, reason: AlertReason, text: str) -> list[Record]:
        """A referee alert raised by the host itself (a refused command or assignment, a
        device fault, a press not judged)."""
        return self._outputs([RefereeAlert(self._not_before(now_ns), reason, text)], wall_ms)

    def restarted(self, now_ns: int, wall_ms: int) -> list[Record]:
        """The host came back: pause the clocks (charged to nobody) and tell the referee."""
        if self.session is None:
            return []
        return self.feed(HostRestarted(now_ns=self._not_before(now_ns)), wall_ms)

    # --- the equipment: presses, the board's reports, device faults -------------------

    def press(
        self,
        button: int,
        at_ns: int,
        now_ns: int,
        wall_ms: int,
        board: BoardView | None,
        *,
        needs_board: bool = True,
        ticket: int = 0,
    ) -> Outcome:
        """A button of the clock unit pressed at ``at_ns`` (the unit's instant on the host's
        time base), seen at ``now_ns``. ``needs_board``: the table has a board (without
        one a press is judged at once); ``board``: its link (None: not opened yet). A
        player's press waits for the board to vouch for its instant (``ticket``: the
        question asked at its arrival); the claim button goes through at once unless
        presses wait before it."""
        if self.session is None:
            return Outcome()
        if not needs_board or (button == CLAIM_BUTTON and not self.gate.waiting):
            return self._button(button, at_ns, now_ns, wall_ms)
        self.gate.press(button, at_ns, now_ns, ticket)
        out = self.release(now_ns, wall_ms, board)
        out.show = True  # a press kept during an outage shows on its display
        return out

    def report(self, report: Report, now_ns: int, wall_ms: int, board: BoardView) -> Outcome:
        """A board's report (``report.now_ns``: the instant the board read it), seen at
        ``now_ns``: fed now, as of a waiting press, or kept behind it (``PressGate``)."""
        return self._decide(self.gate.report(report, report.now_ns, now_ns, board), now_ns, wall_ms)

    def release(self, now_ns: int, wall_ms: int, board: BoardView | None) -> Outcome:
        """Judge the waiting presses the board now vouches for (``PressGate.release``)."""
        if not self.gate.waiting:
            return Outcome()
        return self._decide(self.gate.release(now_ns, board), now_ns, wall_ms)

    def link_changed(self, device: str, *, down: bool, why: str = "") -> Outcome:
        """A device's link went down or came up (its own event); the referees hear of it,
        and the clock is held, at the next ``look``."""
        out = Outcome()
        if self.faults.link_changed(device, down=down, why=why):
            out.notes.append(("warning", f"{device}: {why}"))
        return out

    def look(
        self,
        now_ns: int,
        wall_ms: int,
        open_errors: dict[str, str],
        looks: Iterable[DeviceLook],
    ) -> Outcome:
        """What the host saw of the table's devices (see ``DeviceFaults.look``): the
        alerts each way, and a running clock held for the equipment once a spell."""
        news = self.faults.look(open_errors, looks)
        out = Outcome(faults_changed=news.changed)
        out.notes += [("info", line) for line in news.logged]
        for text in news.alerts:
            out.records += self.alert(now_ns, wall_ms, AlertReason.BOARD, text)
        out.add(self._hold_for_faults(now_ns, wall_ms))
        return out

    def tick(self, now_ns: int, wall_ms: int) -> Outcome:
        """Time passed: a stone overdue for its press, a flag fallen (never while a press
        waits for the board: a flag then could only fall because the press is not judged
        yet), a menu or claim window lapsed."""
        out = Outcome()
        session = self.session
        due_ns = session.next_due_ns() if session is not None else None
        if (
            session is not None
            and due_ns is not None
            and now_ns >= due_ns
            and not self.gate.waiting
            and session.due(now_ns)
        ):
            out.add(self.feed_all([Tick(now_ns=self._not_before(now_ns))], wall_ms))
        deadline = self.buttons.deadline_ns
        if deadline is not None and now_ns >= deadline and self.buttons.expire(now_ns):
            out.show = True
        return out

    def next_due_ns(self) -> int | None:
        """The earliest instant ``tick`` has something to do (None: nothing scheduled)."""
        session = self.session
        due = (
            session.next_due_ns() if session is not None else None,
            self.buttons.deadline_ns,
        )
        known = [d for d in due if d is not None]
        return min(known) if known else None

    def _hold_for_faults(self, now_ns: int, wall_ms: int) -> Outcome:
        """A game cannot be played on a table that cannot see its stones or presses: its
        running clock is held once per spell (the referee resumes it), as of the first
        press still waiting for the board if earlier (the mover's clock stops at the
        press, not when the outage was found)."""
        session = self.session
        running = session is not None and session.clock.state.running is not None
        reason = self.faults.hold_reason(clock_running=running)
        if reason is None:
            return Outcome()
        at = self._not_before(self.gate.hold_at(now_ns))
        return self.feed_all([EquipmentHeld(now_ns=at, reason=reason)], wall_ms)

    def _decide(self, decisions: Iterable[Decision[Report]], now_ns: int, wall_ms: int) -> Outcome:
        """Carry out what the press gate decided, in its order."""
        out = Outcome()
        for decision in decisions:
            if isinstance(decision, Feed):
                out.add(self._board(decision.report, decision.at_ns, wall_ms))
            elif isinstance(decision, Judge):
                out.add(self._button(decision.button, decision.at_ns, now_ns, wall_ms))
            elif isinstance(decision, NotJudged):
                out.add(self._not_judged(decision, now_ns, wall_ms))
            else:
                out.asks.append(decision)
        if not self.gate.waiting:
            out.show = True
        return out

    def _board(self, report: Report, at_ns: int, wall_ms: int) -> Outcome:
        event = _restamped(report, self._not_before(at_ns))
        if self.session is None:
            out = Outcome()
            if isinstance(event, BoardAlert):
                text = f"board {event.kind} (no game running)"
                out.records += self.alert(at_ns, wall_ms, AlertReason.BOARD, text)
            return out
        return self.feed_all([event], wall_ms)

    def _button(self, button: int, at_ns: int, now_ns: int, wall_ms: int) -> Outcome:
        """A press judged: the buttons' meaning (``ButtonMapper``) fed as one happening (a
        menu's confirmation is the action and the press that closes it: one transaction,
        so a crash never leaves the action without its press)."""
        out = Outcome(show=True)
        session = self.session
        if session is None:
            return out
        now = self._not_before(min(at_ns, now_ns))
        try:
            inputs = self.buttons.press(button, now, session)
        except TableError as exc:
            out.records += self.alert(now, wall_ms, AlertReason.REFUSED, f"button {button}: {exc}")
            return out
        out.add(self.feed_all(inputs, wall_ms))
        for signal in self.buttons.take_signals():
            if signal == REFEREE_CALLED:
                text = "the players call the referee"
                out.records += self.alert(now, wall_ms, AlertReason.CLAIM, text)
            else:
                out.notes.append(("info", f"button signal {signal}"))
        return out

    def _not_judged(self, press: NotJudged, now_ns: int, wall_ms: int) -> Outcome:
        """Tell the referee a press was not judged (named by its button and wall-clock
        instant, so the referee can match it with what the players say) and hold a
        running clock: the player whose press was lost must not lose time."""
        at_wall_ms = wall_ms - (now_ns - press.at_ns) // 1_000_000
        stamp = time.strftime("%H:%M:%S", time.localtime(at_wall_ms / 1000))
        text = (
            f"button {press.button} at {stamp}.{at_wall_ms % 1000:03d} {press.why}: "
            "not judged, no infraction"
        )
        out = Outcome(notes=[("warning", text)], show=True)
        out.records += self.alert(now_ns, wall_ms, AlertReason.BOARD, text)
        session = self.session
        if session is None or session.game.is_over or session.clock.state.running is None:
            return out
        reason = f"button {press.button} {press.why}: not judged"
        at = self._not_before(press.at_ns)
        out.add(self.feed_all([EquipmentHeld(now_ns=at, reason=reason)], wall_ms))
        return out

    # --- what the host reads ------------------------------------------------------------

    def clamp(self, now_ns: int) -> int:
        """An input instant that is not earlier than the previous one (a press stamped by
        the MCU a little before the last input was handled)."""
        return self._not_before(now_ns)

    def board_cells(self) -> bytes:
        """What should be on the board now (recovery sets the reconciler to it)."""
        if self.session is None:
            return bytes(225)
        session, game = self.session, self.session.game
        cells = bytearray(game.board.cells)
        physical = game.opening.state.board.cells
        for point in (*game.offers, *session.unremoved_offers):
            cells[point] = physical[point] or Colour.BLACK.value  # offers are Black's fifth
        pending = session.pending_stone
        if pending is not None and game.colour_to_move is not None:
            cells[pending] = game.colour_to_move.value
        return bytes(cells)

    @property
    def expected_colour(self) -> Colour | None:
        """The colour of the board's next stone (its wrong-colour check; None: none)."""
        return None if self.session is None else self.session.expected_colour

    # --- recovery -----------------------------------------------------------------------

    @classmethod
    def recover(
        cls,
        number: int,
        venue: str,
        entries: Iterable[JournaledEntry],
        base: Self | None = None,
    ) -> Self:
        """The table the journal entries of the current game (from its ``host.game``
        record on) describe (``parse_assignment`` reads a journaled assignment back).
        Raises TableError naming the entry that cannot be replayed.

        ``base``: the table a snapshot holds; ``entries`` are then those after the
        snapshot's, and only their inputs are applied to its session (a ``host.game``
        among them starts afresh, as always)."""
        table = base if base is not None else cls(number=number, venue=venue)
        resumed = base is not None and base.session is not None
        inputs: list[TableInput] = []
        for entry in entries:
            if entry.kind == GAME_START_KIND:
                inputs = []
                resumed = False
                table.session = None
                table.game_id = str(entry.payload.get("game_id", ""))
                table.assignment = table.parse_assignment(entry.payload.get("assignment"))
                wall_ms = entry.payload.get("wall_ms")  # absent in an older host's journal
                table.started_wall_ms = (
                    wall_ms if isinstance(wall_ms, int) and not isinstance(wall_ms, bool) else None
                )
                table.public_seq = 0
                table.open_alerts = []
                continue
            table.note_journaled(entry.kind, entry.id, entry.payload)
            pseq = entry.payload.get("pseq")
            if isinstance(pseq, int):
                table.public_seq = max(table.public_seq, pseq)
            if entry.kind.startswith("in."):
                try:
                    inputs.append(decode_input(entry.kind, entry.payload))
                except TableError as exc:
                    raise TableError(f"journal entry {entry.id}: {exc}") from None
        if resumed and inputs:
            session = table._session()
            for index, event in enumerate(inputs):
                try:
                    session.handle(event)
                except TableError as exc:
                    raise TableError(f"input {index} after the snapshot: {exc}") from None
            session.take_outputs()
            table.last_ns = inputs[-1].now_ns
        elif inputs:
            if not isinstance(inputs[0], SessionStarted):
                raise TableError(f"table {number}: the journaled game does not start a session")
            table.session = TableSession.replay(inputs)
            table.session.take_outputs()
            table.last_ns = inputs[-1].now_ns
        table.sync_buttons()
        return table

    def parse_assignment(self, obj: object) -> A | None:
        """A journaled assignment read back (None: the game had none). The host's bus
        knows assignments: its table (``wuzi.host.table_runtime``) reads them; here, a
        game begun from an assignment cannot be recovered."""
        if obj is None:
            return None
        raise TableError(f"table {self.number}: a journaled assignment needs the host's reader")

    # --- internals ----------------------------------------------------------------------

    def _session(self) -> TableSession:
        if self.session is None:
            raise TableError(f"table {self.number}: no game is running (start one first)")
        return self.session

    def _not_before(self, now_ns: int) -> int:
        return max(now_ns, self.last_ns)

    def _outputs(self, outputs: Iterable[TableOutput], wall_ms: int) -> list[Record]:
        """Records of outputs. Public events get their own gap-free number (``pseq``): the
        journal's seq also counts inputs and referee alerts, so a gap in it after Black's
        stone would tell the hall (and a watching player) that an alert was raised."""
        records = []
        for out in outputs:
            kind, data = encode_output(out)
            payload: dict[str, Any] = {"game_id": self.game_id, "wall_ms": wall_ms, "data": data}
            if kind != ALERT_KIND:
                self.public_seq += 1
                payload["pseq"] = self.public_seq
            records.append(Record(kind, payload, True, out.at_ns // 1_000_000))
        return records

    def note_journaled(self, kind: str, event_id: str, payload: dict[str, Any]) -> None:
        """Keep the open alerts in step with what was journaled (the host calls this for
        every published entry; recovery calls it for every entry of the game)."""
        if kind == ALERT_KIND:
            alert = decode_output(kind, payload.get("data", {}))
            if isinstance(alert, RefereeAlert):
                self.open_alerts.append((event_id, alert))
                del self.open_alerts[:-MAX_OPEN_ALERTS]
        elif kind == COMMAND_KIND:
            self.open_alerts.clear()  # the referee has acted on the table


def _restamped(report: Report, now_ns: int) -> Report:
    """The report as seen at ``now_ns`` (the table's inputs come in time order)."""
    if isinstance(report, StoneSettled):
        return StoneSettled(now_ns=now_ns, point=report.point, colour=report.colour)
    return BoardAlert(
        now_ns=now_ns,
        kind=report.kind,
        points=report.points,
        colour=report.colour,
        detail=report.detail,
    )
