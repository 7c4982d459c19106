"""One table as the host service keeps it: the game it plays, and what to journal next.

``TableRuntime`` sits between the service's I/O and the pure ``TableSession``. Every call
that changes the table returns the ``Record`` list the service must append to the journal
(in one transaction) *before* anything leaves the host; the runtime itself never does I/O
and never reads a clock (``now_ns`` is the host's time base, ``wall_ms`` the venue's wall
clock for the messages). Records:

* ``host.assignment`` — the director's assignment a game was begun from (journal only);
* ``host.command`` — an arbiter command accepted (journal only: repeats are recognised
  by ``command_id``, also after a restart);
* ``in.*`` — a table input (journal only: the truth that ``TableSession.replay`` rebuilds);
* public and referee outputs (``move``, ``clock``, …, ``alert``) — journaled *and* put in
  the outbox, published with the journal entry id as the event id.

``TableRuntime.recover`` rebuilds a runtime from the journal entries of its current game,
so a host killed at any instant comes back with every table exactly as journaled.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from wuzi.bus.assignment import setup_from_assignment
from wuzi.bus.schemas import ALERT_KIND, Assignment, Cleared, MessageError, encode, parse_message
from wuzi.bus.topics import assignment as assignment_topic
from wuzi.host.publish import Audience, route
from wuzi.journal import JournalEntry
from wuzi.rules.board import Colour
from wuzi.table.alerts import AlertReason
from wuzi.table.checks import TableError
from wuzi.table.codec import decode_input, decode_output, encode_input, encode_output
from wuzi.table.inputs import HostRestarted, SessionStarted, TableInput, TableSetup
from wuzi.table.outputs import RefereeAlert, TableOutput
from wuzi.table.session import TableSession

__all__ = [
    "ASSIGNMENT_KIND",
    "COMMAND_KIND",
    "GAME_START_KIND",
    "Record",
    "TableRuntime",
    "table_id",
]

ASSIGNMENT_KIND = "host.assignment"
COMMAND_KIND = "host.command"
GAME_START_KIND = "host.game"
"""The first record of every game: the assignment it came from (or the config's
defaults) and the wall clock it began at (``wall_ms``: the record's start time), so
recovery finds where the current game starts with one indexed query."""

STANDALONE_GAME = "standalone"
MAX_OPEN_ALERTS = 50


def table_id(number: int) -> str:
    """The journal's id of table ``number``: ``t12``."""
    return f"t{number}"


@dataclass(frozen=True)
class Record:
    """One journal event to append: ``kind``, JSON ``payload``, whether it is published."""

    kind: str
    payload: dict[str, Any]
    publish: bool
    t_ms: int


@dataclass
class TableRuntime:
    """One table's game state inside the host; see the module docstring."""

    number: int
    venue: str
    session: TableSession | None = None
    assignment: Assignment | None = None
    game_id: str = ""
    waiting: Assignment | None = None  # a new assignment held until the referee starts it
    last_ns: int = 0
    commands_seen: set[str] = field(default_factory=set)
    public_seq: int = 0  # public events of this game, numbered without gaps
    open_alerts: list[tuple[str, RefereeAlert]] = field(default_factory=list)
    started_wall_ms: int | None = None  # the wall clock when the game began (its record's)

    @property
    def id(self) -> str:
        return table_id(self.number)

    # --- beginning a game -------------------------------------------------------------

    def offer_assignment(self, message: Assignment | Cleared) -> tuple[bool, str]:
        """A retained assignment arrived. Returns (changed, why) — the assignment is held
        as ``waiting`` until the referee's ``next-game`` begins it (a round starts at the
        arbiter's signal); a repeat of the current game's assignment changes nothing."""
        if isinstance(message, Cleared):
            changed = self.waiting is not None
            self.waiting = None
            return changed, "assignment withdrawn"
        if self.assignment is not None and message.game_id == self.assignment.game_id:
            return False, "the current game"
        if self.waiting is not None and message == self.waiting:
            return False, "already waiting"
        setup_from_assignment(message)  # refuse a bad assignment now (TableError)
        self.waiting = message
        return True, f"game {message.game_id} waits for the referee's start"

    def begin(self, now_ns: int, wall_ms: int, setup: TableSetup | None = None) -> list[Record]:
        """Begin the waiting assignment's game (or ``setup``, a standalone table's game
        from the config). The previous game must be over. Raises TableError."""
        now_ns = self._not_before(now_ns)
        if self.session is not None and not self.session.game.is_over:
            raise TableError(
                f"table {self.number}: game {self.game_id!r} is not over: set its result first"
            )
        chosen = self.waiting
        if chosen is not None:
            setup = setup_from_assignment(chosen)
        elif setup is None:
            raise TableError(f"table {self.number}: no game is assigned to this table")
        session = TableSession(setup, now_ns)
        # a standalone game's id is its table's and its start's: unique on the host (a
        # record file each), and journaled in the game's first record (stable on recovery)
        game_id = (
            chosen.game_id if chosen is not None else f"{STANDALONE_GAME}-t{self.number}-{now_ns}"
        )
        t_ms = now_ns // 1_000_000
        header: dict[str, Any] = {"game_id": game_id, "assignment": None, "wall_ms": wall_ms}
        if chosen is not None:
            header["assignment"] = json.loads(encode(chosen))
        records = [Record(GAME_START_KIND, header, False, t_ms)]
        kind, payload = encode_input(session.inputs[0])
        records.append(Record(kind, payload, False, t_ms))
        self.session, self.assignment, self.game_id = session, chosen, game_id
        self.started_wall_ms = wall_ms
        self.waiting = None
        self.commands_seen = set()
        self.public_seq = 0
        self.open_alerts = []
        self.last_ns = now_ns
        records += self._outputs(session.take_outputs(), wall_ms)
        return records

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

    def feed_command(
        self,
        command_id: str,
        meta: dict[str, Any],
        events: Iterable[TableInput],
        wall_ms: int,
        *,
        strict: bool = False,
    ) -> list[Record]:
        """Apply an arbiter command's inputs, all or nothing: if one is refused, the
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
        self.commands_seen.add(command_id)
        return Record(COMMAND_KIND, {"command_id": command_id, **meta}, False, t_ms)

    def alert(self, now_ns: int, wall_ms: int, reason: AlertReason, text: str) -> list[Record]:
        """A referee alert raised by the host itself (a refused command or assignment, a
        board or clock link problem while no game runs)."""
        return self._outputs([RefereeAlert(self._not_before(now_ns), reason, text)], wall_ms)

    def restarted(self, now_ns: int, wall_ms: int) -> list[Record]:
        """The host came back: pause the clocks (charged to nobody) and tell the referee."""
        if self.session is None:
            return []
        return self.feed(HostRestarted(now_ns=self._not_before(now_ns)), wall_ms)

    # --- what the service reads ---------------------------------------------------------

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

    # --- recovery -----------------------------------------------------------------------

    @classmethod
    def recover(
        cls,
        number: int,
        venue: str,
        entries: Iterable[JournalEntry],
        base: TableRuntime | None = None,
    ) -> TableRuntime:
        """The runtime the journal entries of the current game (from its ``host.game``
        record on) describe. Raises TableError naming the entry that cannot be replayed.

        ``base``: the runtime a snapshot holds (``wuzi.host.snapshot``); ``entries`` are
        then those after the snapshot's, and only their inputs are applied to its session
        (a ``host.game`` among them starts afresh, as always)."""
        runtime = base if base is not None else cls(number=number, venue=venue)
        resumed = base is not None and base.session is not None
        inputs: list[TableInput] = []
        for entry in entries:
            if entry.kind == GAME_START_KIND:
                inputs = []
                resumed = False
                runtime.session = None
                runtime.game_id = str(entry.payload.get("game_id", ""))
                runtime.assignment = _assignment(venue, number, entry.payload.get("assignment"))
                wall_ms = entry.payload.get("wall_ms")  # absent in an older host's journal
                runtime.started_wall_ms = (
                    wall_ms if isinstance(wall_ms, int) and not isinstance(wall_ms, bool) else None
                )
                runtime.commands_seen = set()
                runtime.public_seq = 0
                runtime.open_alerts = []
                continue
            runtime.note_journaled(entry.kind, entry.id, entry.payload)
            pseq = entry.payload.get("pseq")
            if isinstance(pseq, int):
                runtime.public_seq = max(runtime.public_seq, pseq)
            if entry.kind == COMMAND_KIND:
                runtime.commands_seen.add(str(entry.payload.get("command_id")))
            elif entry.kind.startswith("in."):
                try:
                    inputs.append(decode_input(entry.kind, entry.payload))
                except TableError as exc:
                    raise TableError(f"journal entry {entry.id}: {exc}") from None
        if resumed and inputs:
            session = runtime._session()
            for index, event in enumerate(inputs):
                try:
                    session.handle(event)
                except TableError as exc:
                    raise TableError(f"input {index} after the snapshot: {exc}") from None
            session.take_outputs()
            runtime.last_ns = inputs[-1].now_ns
        elif inputs:
            if not isinstance(inputs[0], SessionStarted):
                raise TableError(f"table {number}: the journaled game does not start a session")
            runtime.session = TableSession.replay(inputs)
            runtime.session.take_outputs()
            runtime.last_ns = inputs[-1].now_ns
        return runtime

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
            if route(kind) is Audience.TABLE:
                self.public_seq += 1
                payload["pseq"] = self.public_seq
            records.append(Record(kind, payload, True, out.at_ns // 1_000_000))
        return records

    def note_journaled(self, kind: str, event_id: str, payload: dict[str, Any]) -> None:
        """Keep the open alerts in step with what was journaled (the service calls this for
        every published entry; recovery calls it for every entry of the game)."""
        if kind == ALERT_KIND:
            alert = decode_output(kind, payload.get("data", {}))
            if isinstance(alert, RefereeAlert):
                self.open_alerts.append((event_id, alert))
                del self.open_alerts[:-MAX_OPEN_ALERTS]
        elif kind == COMMAND_KIND:
            self.open_alerts.clear()  # the referee has acted on the table


def _assignment(venue: str, number: int, obj: object) -> Assignment | None:
    if obj is None:
        return None
    try:
        message = parse_message(
            assignment_topic(venue, number), json.dumps(obj, separators=(",", ":")).encode()
        )
    except MessageError as exc:
        raise TableError(f"table {number}: journaled assignment: {exc}") from None
    return message if isinstance(message, Assignment) else None
