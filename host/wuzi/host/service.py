"""``wuzi host``: the table host service — boards, clocks, rules, journal and bus in one loop.

One thread runs everything that changes a table (the ``LinkLoop`` of the serial drivers,
the local control socket, the bus's inbox, the timers), so a table is never touched by
two threads and the order of its journal is the order things happened. paho's network
thread and gpiozero's pin threads only put messages in the inbox and wake the loop.

The rule that makes the host crash-safe: every change is appended to the journal (one
SQLite transaction, fsync'd) *before* it is published, shown or acknowledged. On start
the host recovers each table from its journal (``TableRuntime.recover``), pauses the
clocks of games that were running (``HostRestarted``: the time base continues from the
last instant the journal knew the host alive, so the outage is charged to nobody), and
sends whatever the broker had not acknowledged, in order.

A table's hardware that cannot be used — a missing port, a port where no Wuzi device
answers, a device of the wrong kind, serial or protocol, a board or clock unit whose link
went down (cable pulled, port vanished or stalled, silence), a missing GPIO backend, a
busy pin — is that table's fault, never the host's: the other tables play on, the
referees get one ``board`` alert naming the device and the reason, the host status lists
the table in ``links_down``, a running clock is held at once, and the device is tried
again (serial ports by their drivers, the rest with a back-off); the referees are told
when it is served again.

No press costs a player because of the equipment: a stone reaches the host only after
the board's debounce, its 150 ms settle and a confirmation, so a player's clock press on
a table with a board is held until the board has reported every stone that lay on it at
the press (``BoardDriver.settled_through``; the board is asked at once), then judged with
its own time. A press the board cannot vouch for (its link down, or never settling) is
not judged: the referee is told and the clock held.
"""

from __future__ import annotations

import contextlib
import logging
import os
import queue
import time
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from wuzi.bus import topics
from wuzi.bus.auth import AuthError, verify
from wuzi.bus.client import BusClient, RetainedMessage
from wuzi.bus.schemas import (
    DIRECTOR_ACTIONS,
    ArbiterCommand,
    Assignment,
    Cleared,
    HostStatus,
    Message,
    MessageError,
    parse_message,
)
from wuzi.config import TableConfig, VenueConfig
from wuzi.config.credentials import referee_keys
from wuzi.host import publish, records
from wuzi.host import snapshot as snapshots
from wuzi.host.board_recovery import RecoveringBoardLink
from wuzi.host.command_window import CommandWindow, Verdict, shown_game
from wuzi.host.commands import CommandError, to_inputs
from wuzi.host.control import GAMES_QUERY, ControlServer, games_message
from wuzi.host.displays import faces, leds
from wuzi.host.link_events import board_input, clock_unit_alert, link_down_why
from wuzi.host.snapshot import SNAPSHOT_EVERY
from wuzi.host.systemd import Notifier
from wuzi.host.table_runtime import COMMAND_KIND, GAME_START_KIND, Record, TableRuntime, table_id
from wuzi.host.timebase import HostTime
from wuzi.io.serial_link import BoardDriver, ClockDriver, LinkLoop
from wuzi.journal import Journal, JournalEntry
from wuzi.link.reconciler import LINK_DOWN, LINK_UP, Alert, StoneEvent
from wuzi.link.session import ClockSession, LinkDown, LinkUp, Press, PressesLost
from wuzi.table.alerts import AlertReason
from wuzi.table.buttons import CLAIM_BUTTON, REFEREE_CALLED, ButtonMapper, button_of
from wuzi.table.checks import TableError
from wuzi.table.inputs import (
    BoardAlert,
    RefereePause,
    TableInput,
    TableSetup,
    Tick,
)
from wuzi.table.referee import HOST_REFEREE

if TYPE_CHECKING:
    # gpiozero (and colorzero) take ~25 ms to import: only a table with a GPIO clock pays
    from wuzi.io.gpio_clock import GpioClock

__all__ = ["HostService", "ServiceOptions"]

log = logging.getLogger("wuzi.host")

HEARTBEAT_NS = 1_000_000_000
STATUS_AGAIN_NS = 10_000_000_000
"""While tables are faulted the host status is published again this often: the birth
message a broker reconnect sends was made at start and lists no faulted table."""
STATUS_AFTER_CONNECT_NS = 200_000_000
"""And this long after each (re)connection, once that stale birth message has gone out."""
COMMAND_MAX_AGE_MS = 120_000
MAX_WAIT_MS = 50
DEVICE_FAULT_MS = 3000
"""A device that has not served this long (never opened, or no Wuzi device answered on
its port) is a fault told to the referees: long enough for a board to boot and answer
its first HELLO, short enough that a table is not left silently dead."""
RETRY_MIN_MS = 1000
RETRY_MAX_MS = 30_000
"""The back-off between tries to build a table's device that could not be built (a GPIO
clock, a driver): it doubles from the first to the second."""
PRESS_SETTLE_MAX_MS = 3000
"""How long a clock press may wait for its board to settle (a stone settles within its
debounce, the 150 ms settle and a round trip; a hand hovering over the board delays it):
past this the board cannot vouch for the press, which is then not judged."""
HELD_PRESS_WAKE_MS = 5
"""While a press waits for the board the loop wakes this often to look again."""
PLAYER_ACTIONS = frozenset({"decide", "choose", "declare", "claim"})
"""Players' actions a referee enters for them: one the game refuses refuses the command
(nothing is journaled but the alert), where a player's button gets a ``refused`` alert."""


@dataclass(frozen=True)
class ServiceOptions:
    """How one host runs (from the command line; the venue file says what it serves)."""

    host_id: str
    journal_path: Path
    control_path: Path | None = None
    standalone: bool = False  # tables play the config's [defaults] without a director
    command_max_age_ms: int = COMMAND_MAX_AGE_MS
    unpressed_alert_ms: int = 10_000
    pin_factory: Any = None  # gpiozero pin factory (MockFactory in tests)
    # where the venue file's relative paths start, for a venue parsed without a folder
    # (``load_venue`` already made them relative to the file's own: then unused)
    base_dir: Path | None = None
    records_dir: Path | None = None  # each finished game's JSON record (None: not written)
    broker_url: str | None = None  # instead of the venue file's (how this Pi reaches it)


@dataclass
class _Table:
    """One table's runtime and the devices it is served by."""

    runtime: TableRuntime
    config: TableConfig
    mapper: ButtonMapper
    board: BoardDriver | None = None
    clock: ClockDriver | None = None
    gpio: GpioClock | None = None
    faces_sent: tuple[bytes, bytes] | None = None
    leds_sent: int | None = None
    display_due_ns: int | None = 0
    first_button: int = 0
    seq: int = 0  # the journal seq of the table's last event
    snapshot_seq: int = 0  # the seq its journaled snapshot was taken at (0: none)
    record_saved: str | None = None  # the game id whose finished record is on disk
    refused_assignment: Assignment | Cleared | None = None  # told once, not at each delivery
    # the devices that could not be built (device -> why), retried at ``retry_at_ns``
    open_errors: dict[str, str] = field(default_factory=dict)
    retry_at_ns: int | None = None
    retry_ms: int = 0
    faults: dict[str, str] = field(default_factory=dict)  # what the referees were told
    fault_held: bool = False  # the clock was held for the current faults (once)
    # devices whose link went down (device -> why), from their LINK_DOWN/LinkDown events
    links_lost: dict[str, str] = field(default_factory=dict)
    # clock presses waiting for the board to settle, in the order they came
    held_presses: deque[_HeldPress] = field(default_factory=deque)


@dataclass(frozen=True)
class _HeldPress:
    """A press waiting for the board: its button, its own instant, when it was held, and
    the board's question asked once it had arrived (``BoardDriver.vouch_now``)."""

    button: int
    at_ns: int
    held_ns: int
    ticket: int = 0


@dataclass(frozen=True)
class _Sent:
    key: str


@dataclass(frozen=True)
class _Incoming:
    topic: str
    message: Message


@dataclass(frozen=True)
class _GpioPress:
    table: int
    button: int
    at_ms: int


@dataclass(frozen=True)
class _Rejected:
    error: MessageError


_Item = _Sent | _Incoming | _GpioPress | _Rejected


@dataclass
class _Inbox:
    """What other threads hand to the loop: bus messages, acknowledgements, gpio presses."""

    items: queue.SimpleQueue[_Item] = field(default_factory=queue.SimpleQueue)
    wake_r: int = -1
    wake_w: int = -1

    def put(self, item: _Item) -> None:
        self.items.put(item)
        with contextlib.suppress(OSError):  # the pipe is full: the loop is awake anyway
            os.write(self.wake_w, b"\0")


class HostService:
    """The table host; ``start`` then ``run`` (or ``step`` from a test or a benchmark)."""

    def __init__(
        self,
        venue: VenueConfig,
        options: ServiceOptions,
        *,
        notifier: Notifier | None = None,
        wall_ms: Callable[[], int] = lambda: time.time_ns() // 1_000_000,
    ) -> None:
        self.venue = venue
        self.options = options
        self.host_config = venue.host(options.host_id)
        self.notifier = notifier or Notifier(None, None)
        self.wall_ms = wall_ms
        self.boot_id = os.urandom(8).hex()  # not uuid: its import (platform) costs a start 2 ms
        self.journal: Journal | None = None
        self.time = HostTime()
        self.loop: LinkLoop | None = None
        self.bus: BusClient | None = None
        self.control: ControlServer | None = None
        self.tables: dict[int, _Table] = {}
        self._by_driver: dict[object, _Table] = {}
        self._inbox = _Inbox()
        self._keys: dict[str, bytes] = {}
        self.commands = CommandWindow(options.command_max_age_ms)  # once, in their own game
        self._next_heartbeat_ns = 0
        self._stopping = False
        self.recovered_tables = 0
        self._status: Callable[[bool], RetainedMessage] | None = None  # the host's status
        self.links_down: tuple[int, ...] = ()  # tables with a device fault (host status)
        self._status_again_ns = 0
        self._bus_connected = False  # as last seen by the loop (a reconnect re-tells faults)

    # --- starting and stopping ----------------------------------------------------------

    def start(self) -> None:
        """Open the journal, recover every table, open the devices, connect the bus."""
        self.journal = Journal.open(self.options.journal_path, self.options.host_id)
        self.time = HostTime.after(self._last_known_ns(self.journal))
        self.loop = LinkLoop(clock=self.time.now_ms)
        self._keys = referee_keys(self.venue, self._base_dir())
        self._inbox.wake_r, self._inbox.wake_w = os.pipe()
        os.set_blocking(self._inbox.wake_r, False)
        os.set_blocking(self._inbox.wake_w, False)
        self.loop.watch(self._inbox.wake_r, self._drain_wake)
        # connecting (TCP, CONNACK, the subscriptions) while the tables recover: the bus
        # is up when the first message leaves, so each goes out from this thread at once,
        # not held and flushed later by the bus thread (~20 ms of a 24-table restart)
        self._connect_bus()
        # every table's restart (or first game) in one journal transaction: one fsync
        # for the host, not one per table (each was a few ms of a start's time); what it
        # adds leaves with the outbox, below
        recovered = [self._recover_table(config) for config in self.host_config.tables]
        self._commit_many(recovered, publish=False)
        for table in self.tables.values():
            self._open_devices(table)
        if self.options.control_path is not None:
            self.control = ControlServer(self.options.control_path)
            self._watch_control()
        self._resend_outbox()
        for table in self.tables.values():
            self._publish_state(table)
        self.notifier.ready(f"serving {len(self.tables)} tables")
        log.info("host %s serving tables %s", self.options.host_id, sorted(self.tables))

    def _last_known_ns(self, journal: Journal) -> int | None:
        """The latest instant the journal knows of: the last heartbeat, or a later event
        (an event's ``t_ms`` is floored, so its instant is below ``(t_ms + 1) ms``)."""
        last = journal.alive_ns()
        for config in self.host_config.tables:
            tid = table_id(config.number)
            for entry in journal.entries(tid, since_seq=max(0, journal.last_seq(tid) - 1)):
                upper = (entry.t_ms + 1) * 1_000_000
                last = upper if last is None else max(last, upper)
        return last

    def _recover_table(self, config: TableConfig) -> tuple[_Table, list[Record]]:
        """The table as its journal left it, and the records its start adds (the
        restart of a game in progress, or a standalone table's first game): the caller
        commits them."""
        assert self.journal is not None
        tid = table_id(config.number)
        start = self.journal.last_seq_of_kind(tid, GAME_START_KIND)
        runtime, snapshot_seq = self._recover_runtime(config.number, start)
        table = _Table(runtime=runtime, config=config, mapper=ButtonMapper(0))
        table.seq = self.journal.last_seq(tid)
        table.snapshot_seq = snapshot_seq
        commands = self.journal.newest_of_kind(tid, COMMAND_KIND)
        self.commands.recall(config.number, commands, self.wall_ms())
        self._set_first_button(table)
        self.tables[config.number] = table
        now, wall = self.time.now_ns(), self.wall_ms()
        if runtime.session is not None:
            self.recovered_tables += 1
            if not runtime.session.game.is_over:
                return table, runtime.restarted(now, wall)
            self._save_record(table)
        elif self.options.standalone and start == 0:
            return table, runtime.begin(now, wall, self._default_setup())
        return table, []

    def _recover_runtime(self, number: int, start: int) -> tuple[TableRuntime, int]:
        """The table's runtime from its current game's events (``start``: the seq of its
        ``host.game`` record, 0 for none), and the seq of the snapshot it began from (0:
        none). A usable snapshot of the current game spares the replay of the events it
        covers; one written by other code, unreadable, or whose tail does not apply is
        set aside and every event replayed (``wuzi.host.snapshot``)."""
        assert self.journal is not None
        tid = table_id(number)
        if not start:
            return TableRuntime.recover(number, self.venue.id, iter(())), 0
        kept = self.journal.snapshot(tid)
        if kept is not None and kept.seq >= start and kept.format == snapshots.format_id():
            base = snapshots.load(kept.data, number, self.venue.id)
            if base is not None:
                tail = self.journal.entries(tid, since_seq=kept.seq)
                try:
                    return TableRuntime.recover(number, self.venue.id, tail, base), kept.seq
                except TableError as exc:
                    log.warning("table %d: snapshot set aside (%s); replaying", number, exc)
        entries = self.journal.entries(tid, since_seq=start - 1)
        return TableRuntime.recover(number, self.venue.id, entries), 0

    def _snapshot(self, table: _Table) -> None:
        """Keep the table's state in the journal as of its last event (no fsync: a cache).
        A failure is logged and costs nothing but a longer replay after a restart."""
        assert self.journal is not None
        runtime = table.runtime
        if runtime.session is None or table.seq <= table.snapshot_seq:
            return
        try:
            data = snapshots.dump(runtime)
            self.journal.save_snapshot(runtime.id, table.seq, snapshots.format_id(), data)
        except Exception as exc:  # never the table's fault: the events are the truth
            log.warning("table %d: no snapshot (%s)", runtime.number, exc)
            return
        table.snapshot_seq = table.seq

    def _snapshot_stalest(self) -> None:
        """Renew the snapshot of the one table furthest behind its events, if at least
        ``SNAPSHOT_EVERY`` behind: one table a heartbeat (a few ms), so the loop never
        stalls on all of them at once while presses wait."""
        behind = [t for t in self.tables.values() if t.seq - t.snapshot_seq >= SNAPSHOT_EVERY]
        if behind:
            self._snapshot(max(behind, key=lambda t: t.seq - t.snapshot_seq))

    def _default_setup(self) -> TableSetup:
        d = self.venue.defaults
        base = TableSetup(unpressed_alert_ms=self.options.unpressed_alert_ms)
        return TableSetup(
            ruleset=str(d.ruleset) if d.ruleset is not None else base.ruleset,
            opening=d.opening or base.opening,
            time_control=str(d.time_control) if d.time_control is not None else base.time_control,
            unpressed_alert_ms=base.unpressed_alert_ms,
        )

    def _set_first_button(self, table: _Table) -> None:
        """In game 2 (and 4 …) of a match the players keep their chairs and change colours:
        the first seat (Black at the start) is then behind button 1."""
        a = table.runtime.assignment
        first = 1 if a is not None and a.game_in_match % 2 == 0 else 0
        if first != table.first_button:
            table.first_button = first
            table.mapper = ButtonMapper(first)

    def _connect_bus(self) -> None:
        from wuzi.config.credentials import login

        broker = self.venue.broker
        venue, host = self.venue.id, self.options.host_id
        # the host's own account, wuzi.<venue>.host.<id>: the generated ACL lets it publish
        # only its own tables' topics, and the broker binds the client id to it
        account = login(self.venue, "host", host)
        status_topic = topics.host_status(venue, host)
        tables = tuple(sorted(config.number for config in self.host_config.tables))

        def status(online: bool) -> RetainedMessage:
            down = self.links_down if online else ()
            message = HostStatus(host, online, tables, self.boot_id, self.wall_ms(), down)
            return RetainedMessage(status_topic, message)

        self._status = status

        self.bus = BusClient(
            self.options.broker_url or broker.url,
            account.client_id,  # wuzi.<venue>.host.<id>: unique across venues
            username=account.username,
            password=account.password,
            login_source=account.source,
            ca_file=self._path(broker.ca_file) if broker.ca_file else None,
            will=status(False),
            birth=status(True),
            on_sent=lambda key: self._inbox.put(_Sent(key)),
            on_rejected=lambda topic, exc: self._inbox.put(_Rejected(exc)),
        )
        for number in tables:
            self.bus.subscribe(
                topics.assignment(venue, number),
                lambda topic, message: self._inbox.put(_Incoming(topic, message)),
            )
        self.bus.subscribe(
            topics.arbiter_commands(venue),
            lambda topic, message: self._inbox.put(_Incoming(topic, message)),
        )
        self.bus.connect()

    def _base_dir(self) -> Path | None:
        """The folder the venue's relative paths are taken from: None when ``load_venue``
        has already joined them to the venue file's folder (joining them to it again
        would name a folder inside the folder)."""
        return None if self.venue.base_dir is not None else self.options.base_dir

    def _path(self, name: str) -> str:
        base = self._base_dir()
        return str(base / name) if base is not None and not Path(name).is_absolute() else name

    def _open_devices(self, table: _Table) -> None:
        """Build whichever of the table's devices is not built yet. A device that cannot
        be built is noted (``open_errors``: the referees hear of it from ``_check_devices``)
        and tried again after a back-off; it never stops the host or the other tables."""
        assert self.loop is not None
        config = table.config
        table.open_errors = {}
        if config.board_port and not config.simulated_board and table.board is None:
            self._try_device(table, f"board {config.board_port}", self._open_board)
        if config.clock_port and config.clock_port != "sim":
            if table.clock is None:
                self._try_device(table, f"clock unit {config.clock_port}", self._open_clock)
        elif config.clock_gpio is not None and table.gpio is None:
            self._try_device(table, _gpio_name(config), self._open_gpio)
        if table.open_errors:
            table.retry_ms = min(max(RETRY_MIN_MS, table.retry_ms * 2), RETRY_MAX_MS)
            table.retry_at_ns = self.time.now_ns() + table.retry_ms * 1_000_000
        else:
            table.retry_at_ns, table.retry_ms = None, 0
        self._expect(table)
        table.display_due_ns = 0

    def _try_device(self, table: _Table, device: str, build: Callable[[_Table], None]) -> None:
        try:
            build(table)
        except Exception as exc:  # whatever a backend raises is this table's fault only
            why = f"{type(exc).__name__}: {exc}"
            if table.open_errors.get(device) is None:
                log.warning("table %d: %s cannot be used: %s", table.config.number, device, why)
            table.open_errors[device] = why

    def _open_board(self, table: _Table) -> None:
        assert self.loop is not None
        port = table.config.board_port
        # what lies on the board now, not its log since boot, compared with the journal
        link = RecoveringBoardLink(
            port_name=port,
            board=table.runtime.board_cells(),
            expected_serial=table.config.board_serial,  # another board is refused
        )
        board = BoardDriver(port, link)
        self._by_driver[board] = table
        self.loop.add(board)
        table.board = board

    def _open_clock(self, table: _Table) -> None:
        assert self.loop is not None and table.config.clock_port is not None
        port = table.config.clock_port
        session = ClockSession(  # never old presses; another unit is refused
            port_name=port, skip_history=True, expected_serial=table.config.clock_serial
        )
        clock = ClockDriver(port, session)
        self._by_driver[clock] = table
        self.loop.add(clock)
        table.clock = clock

    def _open_gpio(self, table: _Table) -> None:
        from wuzi.io.gpio_clock import GpioClock

        pins = table.config.clock_gpio
        assert pins is not None
        number = table.config.number
        table.gpio = GpioClock(
            buttons=(pins.black_button, pins.white_button, pins.claim_button),
            displays=((pins.clk, pins.dio),),
            pin_factory=self.options.pin_factory,  # None: gpiozero's default (the env's)
            clock=self.time.now_ms,
            on_press=lambda button, at_ms: self._inbox.put(_GpioPress(number, button, at_ms)),
        )
        table.faces_sent, table.leds_sent = None, None  # a new display shows nothing yet

    def _check_devices(self, table: _Table, now: int) -> None:
        """Tell the referees when a device of the table stops or starts serving (one alert
        each way, not one per retry), hold a running clock once per fault, keep the host
        status's ``links_down`` in step, and retry what could not be built.

        A device's fault is, first found first: its refusal (a wrong kind, serial or
        protocol answered: told at once, and told again if another wrong device is put
        there), its link gone down (its LINK_DOWN event: at once), or its not serving for
        ``DEVICE_FAULT_MS`` (never opened, nothing answered). Within one outage the reason
        may change (a lost port that cannot be reopened): the referee was told already."""
        board, clock = table.board, table.clock
        if (
            not table.faults
            and not table.open_errors
            and not table.links_lost
            and table.retry_at_ns is None
            and (board is None or board.serving)
            and (clock is None or clock.serving)
        ):
            return  # every device serves, none was at fault: nothing to tell or hold
        if table.retry_at_ns is not None and now >= table.retry_at_ns:
            self._open_devices(table)
        faults = dict(table.open_errors)
        refusals: set[str] = set()
        now_ms = now // 1_000_000
        drivers: tuple[tuple[str, BoardDriver | ClockDriver | None], ...] = (
            ("board", table.board),
            ("clock unit", table.clock),
        )
        for name, driver in drivers:
            if driver is None:
                continue
            device = f"{name} {driver.url}"
            if device in table.links_lost and not driver.link_down:
                del table.links_lost[device]  # served again (also if its LINK_UP was missed)
            why = driver.refused or table.links_lost.get(device)
            why = why or driver.fault(now_ms, DEVICE_FAULT_MS)
            if why is not None:
                faults[device] = why
                if why == driver.refused:
                    refusals.add(device)
        if faults == table.faults:
            self._hold_for_faults(table, now)
            return
        told, table.faults = table.faults, faults
        # the host status first: whoever reads the alert finds the table in links_down
        self._update_links_down()
        for device, why in faults.items():
            before = told.get(device)
            if before is None or (before != why and device in refusals):
                self._host_alert(table, AlertReason.BOARD, f"{device} cannot be used: {why}")
            elif before != why:
                log.info("table %d: %s: now %s", table.runtime.number, device, why)
        for device in told.keys() - faults.keys():
            log.info("table %d: %s is served again", table.runtime.number, device)
            self._host_alert(table, AlertReason.BOARD, f"{device} is served again")
        if not faults:
            table.fault_held = False
        self._hold_for_faults(table, now)

    def _link_changed(self, table: _Table, device: str, *, down: bool, why: str) -> None:
        """A device's link went down (the first reason of the outage is kept) or up; the
        referees hear of it, and the clock is held, from ``_check_devices`` in this very
        turn of the loop (``step`` runs it right after the devices)."""
        if down:
            if device not in table.links_lost:
                log.warning("table %d: %s: %s", table.runtime.number, device, why)
            table.links_lost.setdefault(device, why)
        else:
            table.links_lost.pop(device, None)

    def _hold_for_faults(self, table: _Table, now: int) -> None:
        """A game cannot be played on a table that cannot see its stones or presses: its
        running clock is held once (the referee resumes it; a second fault of the same
        spell does not hold it again after that)."""
        session = table.runtime.session
        if not table.faults or table.fault_held or session is None or session.game.is_over:
            return
        if session.clock.state.running is None:
            return
        table.fault_held = True
        devices = ", ".join(sorted(table.faults))
        self._feed(
            table,
            RefereePause(
                now_ns=table.runtime.clamp(now),
                reason=f"{devices} cannot be used",
                referee=HOST_REFEREE,
            ),
        )

    def _update_links_down(self, *, again: bool = False) -> None:
        """Publish the host status when the faulted tables change (``again``: also when
        they did not — the birth message a reconnect sends knows of none)."""
        down = tuple(sorted(n for n, t in self.tables.items() if t.faults))
        if down == self.links_down and not again:
            return
        self.links_down = down
        if self.bus is not None and self._status is not None:
            status = self._status(True)
            self.bus.publish(status.topic, status.message)

    def _watch_control(self) -> None:
        assert self.loop is not None and self.control is not None
        self.loop.watch(self.control.fileno(), self._on_control)

    def close(self) -> None:
        """Stop cleanly: the bus says offline (not the last will), devices and journal close."""
        self.notifier.stopping()
        if self.bus is not None:
            if self._status is not None:
                # a clean DISCONNECT makes the broker drop the last will: say it ourselves
                offline = self._status(False)
                self.bus.publish(offline.topic, offline.message)
            self.bus.wait_drained(2.0)
            self.bus.close()
            self.bus = None
        if self.control is not None:
            self.control.close()
            self.control = None
        for table in self.tables.values():
            if table.gpio is not None:
                table.gpio.close()
        if self.loop is not None:
            self.loop.close()
            self.loop = None
        if self.journal is not None:
            for table in self.tables.values():  # the next start replays nothing
                self._snapshot(table)
            self.journal.close()
            self.journal = None
        for fd in (self._inbox.wake_r, self._inbox.wake_w):
            if fd >= 0:
                os.close(fd)
        self._inbox.wake_r = self._inbox.wake_w = -1
        self.notifier.close()

    # --- the loop ----------------------------------------------------------------------

    def run(self, stop: Callable[[], bool] | None = None) -> None:
        while not self._stopping and (stop is None or not stop()):
            self.step()

    def request_stop(self) -> None:
        self._stopping = True
        with contextlib.suppress(OSError):
            os.write(self._inbox.wake_w, b"\0")

    def step(self, max_wait_ms: int = MAX_WAIT_MS) -> None:
        """One turn of the loop: wait for a device, the inbox or a timer, then serve."""
        assert self.loop is not None
        now = self.time.now_ns()
        due = [d for d in (self._next_due(t) for t in self.tables.values()) if d is not None]
        due.append(self._next_heartbeat_ns)
        wait_ms = max(0, min(max_wait_ms, (min(due) - now) // 1_000_000 + 1))
        self.loop.run_once(self._on_device, max_wait_ms=wait_ms)
        self._drain_inbox()
        now = self.time.now_ns()
        for table in self.tables.values():
            self._check_devices(table, now)
            self._release_presses(table, now)
            self._timers(table, now)
        self._status_again(now)
        if now >= self._next_heartbeat_ns:
            self._heartbeat(now)

    def _status_again(self, now: int) -> None:
        """Publish the host status again while tables are faulted: shortly after each
        (re)connection of the bus, whose birth message lists none, then every
        ``STATUS_AGAIN_NS``."""
        connected = self.bus is not None and self.bus.connected
        if connected and not self._bus_connected:
            self._status_again_ns = now + STATUS_AFTER_CONNECT_NS
        self._bus_connected = connected
        if self.links_down and now >= self._status_again_ns:
            self._update_links_down(again=True)
            self._status_again_ns = now + STATUS_AGAIN_NS

    def _next_due(self, table: _Table) -> int | None:
        session = table.runtime.session
        tick = session.next_due_ns() if session is not None else None
        display = table.display_due_ns if (table.clock or table.gpio) else None
        held = self.time.now_ns() + HELD_PRESS_WAKE_MS * 1_000_000 if table.held_presses else None
        due = (tick, display, table.mapper.deadline_ns, table.retry_at_ns, held)
        known = [d for d in due if d is not None]
        return min(known) if known else None

    def _timers(self, table: _Table, now: int) -> None:
        session = table.runtime.session
        # no tick while a press waits for the board: a flag it would tell could only fall
        # because the press is not judged yet (the press, at its own time, comes first)
        due_ns = session.next_due_ns() if session is not None else None
        # the session's own due time first (known since its last input): a host asks at
        # every turn of its loop, and ``due`` itself runs the clock forward to now
        due = session is not None and due_ns is not None and now >= due_ns
        if due and session is not None and not table.held_presses and session.due(now):
            self._feed(table, Tick(now_ns=table.runtime.clamp(now)))
        deadline = table.mapper.deadline_ns
        if deadline is not None and now >= deadline and table.mapper.expire(now):
            table.display_due_ns = 0
        if table.display_due_ns is not None and now >= table.display_due_ns:
            self._refresh_displays(table, now)

    def _heartbeat(self, now: int) -> None:
        assert self.journal is not None
        self.journal.note_alive(now)
        self._snapshot_stalest()
        self.notifier.watchdog()
        self._next_heartbeat_ns = now + HEARTBEAT_NS

    # --- devices -------------------------------------------------------------------------

    def _on_device(self, driver: object, event: object) -> None:
        table = self._by_driver.get(driver)
        if table is None:
            return
        now = self.time.now_ns()
        if isinstance(event, Alert) and event.kind in (LINK_DOWN, LINK_UP):
            device = f"board {table.config.board_port}"
            down = event.kind == LINK_DOWN
            self._link_changed(table, device, down=down, why=link_down_why(event))
        elif isinstance(event, StoneEvent | Alert):
            at = now
            if isinstance(event, StoneEvent) and table.held_presses:
                # the stone a held press waits for: it lay there at the press, so the press
                # judges it with its own time and the mover's clock stops at the press
                at = min(now, table.held_presses[0].at_ns)
            self._board_input(table, board_input(event, table.runtime.clamp(at)))
        elif isinstance(event, Press):
            self._press(table, event.button, event.at_ms * 1_000_000)
        elif isinstance(event, LinkDown | LinkUp):
            device = f"clock unit {table.config.clock_port}"
            down = isinstance(event, LinkDown)
            why = link_down_why(event) if isinstance(event, LinkDown) else ""
            self._link_changed(table, device, down=down, why=why)
            if isinstance(event, LinkUp):  # the unit may have lost its faces: send them again
                table.faces_sent = None
                table.display_due_ns = 0
        elif isinstance(event, PressesLost):
            self._host_alert(table, *clock_unit_alert(event))

    def _board_input(self, table: _Table, event: TableInput) -> None:
        if table.runtime.session is None:
            if isinstance(event, BoardAlert):
                self._host_alert(table, AlertReason.BOARD, f"board {event.kind} (no game running)")
            return
        self._feed(table, event)

    def _press(self, table: _Table, button: int, at_ns: int) -> None:
        """A button of the table's clock (a serial unit's or the GPIO header's), pressed at
        ``at_ns``. A player's press on a table with a board is judged against the board as
        it was at the press: held until the board has reported everything up to then (the
        board is asked at once), in order; the claim button goes through at once unless
        presses wait before it. See ``_release_presses``."""
        session = table.runtime.session
        if session is None:
            return
        needs_board = bool(table.config.board_port) and not table.config.simulated_board
        if not needs_board or (button == CLAIM_BUTTON and not table.held_presses):
            self._button(table, button, at_ns)
            return
        now = self.time.now_ns()
        ticket = table.board.vouch_now(now // 1_000_000) if table.board is not None else 0
        table.held_presses.append(_HeldPress(button, min(at_ns, now), now, ticket))
        self._release_presses(table, now)

    def _release_presses(self, table: _Table, now: int) -> None:
        """Judge the held presses the board now vouches for, in order: each once the board
        has reported every stone that lay on it at the press (with the press's own time).
        A press the board cannot vouch for — its link is down, or it has not settled within
        ``PRESS_SETTLE_MAX_MS`` — is not judged (no infraction, no clock switch): the
        referee is told and a running clock is held."""
        held = table.held_presses
        while held:
            first = held[0]
            board = table.board
            if first.button == CLAIM_BUTTON:
                held.popleft()
                self._button(table, first.button, first.at_ns)
                continue
            if board is None or board.link_down:
                held.popleft()
                self._not_judged(table, first, "while the board link was down")
                continue
            if board.settled_through(first.at_ns // 1_000_000, first.ticket):
                held.popleft()
                self._button(table, first.button, first.at_ns)
                continue
            if now - first.held_ns >= PRESS_SETTLE_MAX_MS * 1_000_000:
                held.popleft()
                seconds = PRESS_SETTLE_MAX_MS / 1000
                self._not_judged(table, first, f"while the board did not settle for {seconds:g} s")
                continue
            board.ask_now(now // 1_000_000, first.at_ns // 1_000_000)  # again: ASK_RETRY_MS
            return

    def _not_judged(self, table: _Table, press: _HeldPress, why: str) -> None:
        """Tell the referee a press was not judged (named by its button and wall-clock
        instant, so the referee can match it with what the players say) and hold a
        running clock: the player whose press was lost must not lose time."""
        wall_ms = self.wall_ms() - (self.time.now_ns() - press.at_ns) // 1_000_000
        stamp = time.strftime("%H:%M:%S", time.localtime(wall_ms / 1000))
        text = (
            f"button {press.button} at {stamp}.{wall_ms % 1000:03d} {why}: "
            "not judged, no infraction"
        )
        log.warning("table %d: %s", table.runtime.number, text)
        self._host_alert(table, AlertReason.BOARD, text)
        session = table.runtime.session
        if session is None or session.game.is_over or session.clock.state.running is None:
            return
        reason = f"button {press.button} {why}: not judged"
        self._feed(
            table,
            RefereePause(
                now_ns=table.runtime.clamp(self.time.now_ns()), reason=reason, referee=HOST_REFEREE
            ),
        )

    def _button(self, table: _Table, button: int, at_ns: int) -> None:
        session = table.runtime.session
        if session is None:
            return
        now = table.runtime.clamp(min(at_ns, self.time.now_ns()))
        try:
            inputs = table.mapper.press(button, now, session)
        except TableError as exc:
            self._host_alert(table, AlertReason.REFUSED, f"button {button}: {exc}")
            return
        # A menu's confirmation is the action and the press that closes it: one journal
        # transaction, so a crash never leaves the action without its press.
        self._feed_all(table, inputs)
        for signal in table.mapper.take_signals():
            if signal == REFEREE_CALLED:
                self._host_alert(table, AlertReason.CLAIM, "the players call the referee")
            else:
                log.info("table %d: button signal %s", table.runtime.number, signal)
        table.display_due_ns = 0

    def _expect(self, table: _Table) -> None:
        if table.board is not None:
            session = table.runtime.session
            table.board.expect(None if session is None else session.expected_colour)

    def _refresh_displays(self, table: _Table, now: int) -> None:
        session = table.runtime.session
        shown = faces(session, now, first_button=table.first_button, menu=table.mapper.menu)
        segments = shown.segments()
        mask = leds(session, table.first_button, now)
        if table.clock is not None:
            if segments != table.faces_sent:
                for index, seg in enumerate(segments):
                    table.clock.display(index, seg)
            if mask != table.leds_sent:
                table.clock.leds(mask)
            table.clock.flush()
        elif table.gpio is not None and segments != table.faces_sent:
            # one TM1637 on the header: it shows the side whose clock runs
            turn = None if session is None else session.clock.state.turn
            side = 0 if turn is None else button_of(turn, table.first_button)
            table.gpio.display(0, segments[side])
            table.gpio.set_leds(mask)
        table.faces_sent, table.leds_sent = segments, mask
        table.display_due_ns = shown.next_change_ns

    # --- the inbox (bus messages, acknowledgements, gpio presses) ---------------------

    def _drain_wake(self) -> None:
        with contextlib.suppress(BlockingIOError, OSError):
            while os.read(self._inbox.wake_r, 4096):
                pass

    def _drain_inbox(self) -> None:
        acked: list[str] = []
        while True:
            try:
                item = self._inbox.items.get_nowait()
            except queue.Empty:
                break
            if isinstance(item, _Sent):
                acked.append(item.key)
            elif isinstance(item, _Incoming):
                self._on_message(item.topic, item.message)
            elif isinstance(item, _GpioPress):
                self._press(self.tables[item.table], item.button, item.at_ms * 1_000_000)
            else:
                log.warning("rejected bus message: %s", item.error)
        if acked and self.journal is not None:
            self.journal.mark_sent(acked)

    def _on_message(self, topic: str, message: Message) -> None:
        """One message from the bus (only the topics subscribed to come here, parsed).
        Whatever is ignored or refused is logged with its reason."""
        if isinstance(message, Assignment | Cleared):  # only retained assignments parse so
            number = topics.parse_topic(topic).table
            if number in self.tables:
                self._on_assignment(self.tables[number], message)
            else:
                log.warning("%s: ignored: table %s is not served here", topic, number)
        elif isinstance(message, ArbiterCommand):
            if message.action in DIRECTOR_ACTIONS:  # confirm-result: the director's, not ours
                log.info(
                    "command %s (%s) is the director's: ignored", message.command_id, message.action
                )
            else:
                self.execute(message)
        else:
            log.warning("%s: ignored: a %s is not for a host", topic, type(message).__name__)

    def _on_assignment(self, table: _Table, message: Assignment | Cleared) -> None:
        number = table.runtime.number
        if message == table.refused_assignment:  # the retained message again (a reconnect)
            log.info("table %d: the refused assignment again: ignored", number)
            return
        try:
            changed, why = table.runtime.offer_assignment(message)
        except TableError as exc:
            log.warning("table %d: assignment refused: %s", number, exc)
            table.refused_assignment = message
            self._host_alert(table, AlertReason.REFUSED, f"assignment refused: {exc}")
            return
        table.refused_assignment = None
        if not changed:
            log.info("table %d: assignment unchanged (%s)", number, why)
            return
        log.info("table %d: %s", number, why)
        self._host_alert(
            table,
            AlertReason.REFUSED if isinstance(message, Cleared) else AlertReason.BOARD,
            why,
        )
        self._publish_state(table)

    # --- arbiter commands ------------------------------------------------------------

    def execute(self, command: ArbiterCommand) -> tuple[bool, str]:
        """Check and carry out an arbiter command (from the bus or the control socket).
        Returns (ok, message) for the sender; refusals are also told to the referees."""
        try:
            verify(
                command,
                self._keys,
                now_ms=self.wall_ms(),
                max_age_ms=self.options.command_max_age_ms,
            )
        except AuthError as exc:
            log.warning("command %s refused: %s", command.command_id, exc)
            return False, f"not authenticated: {exc}"
        if command.table is not None and command.table not in self.tables:
            why = f"table {command.table} is not served by host {self.options.host_id}"
            log.info("command %s ignored: %s", command.command_id, why)
            return False, why
        targets = (
            [self.tables[command.table]]
            if command.table is not None
            else list(self.tables.values())
        )
        problems: list[str] = []
        for table in targets:
            problem = self._execute_on(table, command)
            if problem:
                problems.append(f"table {table.runtime.number}: {problem}")
        if problems:
            return False, "; ".join(problems)
        return True, f"{command.action} done on {len(targets)} table(s)"

    def _execute_on(self, table: _Table, command: ArbiterCommand) -> str:
        runtime = table.runtime
        now, wall = runtime.clamp(self.time.now_ns()), self.wall_ms()
        verdict = self.commands.check(command, runtime.number, shown_game(runtime), wall)
        if verdict is Verdict.REPEAT:  # QoS 1 delivers at least once: already done
            log.info("table %d: command %s again: ignored", runtime.number, command.command_id)
            return f"command {command.command_id} was carried out already: a repeat, ignored"
        meta: dict[str, Any] = {"referee": command.referee, "action": command.action}
        try:
            if isinstance(verdict, str):
                raise TableError(verdict)
            meta |= self.commands.record_fields(command, wall)
            if command.action == "next-game" and (
                runtime.waiting is not None or runtime.session is None or self.options.standalone
            ):
                # a standalone table's next game is a game of its own (its own id, its
                # own record file), begun from the config's defaults like the first
                setup = self._default_setup() if self.options.standalone else None
                records = runtime.begin_by_command(command.command_id, meta, now, wall, setup)
                self._set_first_button(table)
                self._commit(table, records)
                self.commands.carried_out(command, runtime.number)
                table.display_due_ns = 0
                return ""
            session = runtime.session
            if session is None:
                raise TableError("no game is running on this table")
            inputs = to_inputs(command, now, session.game)
            strict = command.action in PLAYER_ACTIONS
            records = runtime.feed_command(command.command_id, meta, inputs, wall, strict=strict)
            self._commit(table, records)
            self.commands.carried_out(command, runtime.number)
        except (TableError, CommandError) as exc:
            log.warning(
                "table %d: command %s (%s) refused: %s",
                runtime.number,
                command.command_id,
                command.action,
                exc,
            )
            self._host_alert(
                table,
                AlertReason.REFUSED,
                f"command {command.action} by {command.referee} refused: {exc}",
            )
            return str(exc)
        table.display_due_ns = 0
        return ""

    def _on_control(self) -> None:
        assert self.control is not None
        for request in self.control.on_readable():
            if request.payload.strip() == GAMES_QUERY:
                games = {n: shown_game(t.runtime) for n, t in self.tables.items()}
                request.reply(True, games_message(games))
                continue
            try:
                message = parse_message(topics.arbiter_commands(self.venue.id), request.payload)
            except MessageError as exc:
                request.reply(False, str(exc))
                continue
            if not isinstance(message, ArbiterCommand):
                request.reply(False, "not an arbiter command")
                continue
            ok, text = self.execute(message)
            request.reply(ok, text)

    # --- feeding, journaling, publishing ----------------------------------------------

    def _feed(self, table: _Table, event: TableInput) -> None:
        self._feed_all(table, [event])

    def _feed_all(self, table: _Table, events: Iterable[TableInput]) -> None:
        """Feed the inputs of one happening (a press, a stone) and journal what they did
        in one transaction. An input the session refuses changes nothing and is logged;
        the others stand."""
        records: list[Record] = []
        wall = self.wall_ms()
        for event in events:
            try:
                records += table.runtime.feed(event, wall)
            except TableError as exc:
                log.warning("table %d: input refused: %s", table.runtime.number, exc)
        if records:
            self._commit(table, records)
            table.display_due_ns = 0

    def _host_alert(self, table: _Table, reason: AlertReason, text: str) -> None:
        self._commit(table, table.runtime.alert(self.time.now_ns(), self.wall_ms(), reason, text))

    def _commit(self, table: _Table, records: Iterable[Record]) -> None:
        """Journal the records (durable on return), then publish what may leave the host."""
        self._commit_many([(table, records)])

    def _commit_many(
        self, batches: Iterable[tuple[_Table, Iterable[Record]]], *, publish: bool = True
    ) -> None:
        """Journal several tables' records in one transaction (durable on return: one
        fsync), then, table by table, publish what may leave the host (``publish``
        False: nothing yet; the outbox's resend takes the events, in journal order)."""
        assert self.journal is not None
        work = [(table, batch) for table, batch in ((t, list(r)) for t, r in batches) if batch]
        if not work:
            return
        rows = [
            (table.runtime.id, r.kind, r.payload, r.t_ms, r.publish)
            for table, batch in work
            for r in batch
        ]
        entries = self.journal.append_many(rows)
        at = 0
        for table, batch in work:
            self._committed(table, batch, entries[at : at + len(batch)], publish=publish)
            at += len(batch)

    def _committed(
        self, table: _Table, batch: list[Record], entries: list[JournalEntry], *, publish: bool
    ) -> None:
        """What follows a table's records once they are durable: its outbox, its state."""
        runtime = table.runtime
        table.seq = entries[-1].seq
        public = False
        for record, entry in zip(batch, entries, strict=True):
            runtime.note_journaled(entry.kind, entry.id, entry.payload)
            if record.publish and publish:
                public |= self._publish_entry(runtime.number, entry)
        self._expect(table)
        if publish:
            self._publish_state(table, public=public or batch[0].kind == GAME_START_KIND)
        self._save_record(table)

    def _save_record(self, table: _Table) -> None:
        """Write the finished game's record once (again after a restart: same content)."""
        runtime, folder = table.runtime, self.options.records_dir
        session = runtime.session
        if folder is None or session is None or not session.game.is_over:
            return
        game_id = runtime.game_id or f"table{runtime.number}"
        if table.record_saved == game_id:
            return
        record = records.game_record(
            session,
            table=runtime.number,
            event=self.venue.name,
            assignment=runtime.assignment,
            started_wall_ms=runtime.started_wall_ms,
        )
        try:
            records.write_record(folder, game_id, record)
        except OSError as exc:  # a full disk must not stop the table: the journal has it
            log.error("could not write the record of %s: %s", game_id, exc)
            return
        table.record_saved = game_id

    def _publish_entry(self, number: int, entry: JournalEntry) -> bool:
        """Publish one journaled output (the outbox key is the journal id); True if it was
        a public event. Public events carry their own gap-free number and an id without
        the journal's seq (``host/table/game/pseq``): see ``TableRuntime._outputs``."""
        if self.bus is None:
            return False
        payload = entry.payload
        game_id = str(payload.get("game_id") or "none")
        pseq = payload.get("pseq")
        is_public = isinstance(pseq, int)
        message = publish.event_message(
            event_id=(
                f"{self.options.host_id}/{entry.table}/{game_id}/{pseq}" if is_public else entry.id
            ),
            table=number,
            game_id=game_id,
            seq=pseq if isinstance(pseq, int) else entry.seq,
            kind=entry.kind,
            at_ms=int(payload.get("wall_ms", entry.t_ms)),
            data=dict(payload.get("data", {})),
        )
        self.bus.publish(
            publish.event_topic(self.venue.id, number, entry.kind), message, key=entry.id
        )
        return is_public

    def _publish_state(self, table: _Table, *, public: bool = True) -> None:
        """The retained referee view always; the retained public state only when a public
        event changed it (an alert alone must not make the hall's state blink)."""
        if self.bus is None:
            return
        runtime, number = table.runtime, table.runtime.number
        now, wall = self.time.now_ns(), self.wall_ms()
        game_id = runtime.game_id or None
        shown = runtime.assignment
        if runtime.session is None and runtime.waiting is not None:
            shown, game_id = runtime.waiting, runtime.waiting.game_id  # who plays next here
        if public:
            state = publish.table_state(
                table=number,
                assignment=shown,
                session=runtime.session,
                seq=runtime.public_seq,
                now_ns=now,
                at_ms=wall,
                game_id=game_id,
            )
            self.bus.publish(topics.table_state(self.venue.id, number), state)
        referee = publish.referee_state(
            table=number,
            session=runtime.session,
            seq=table.seq,
            at_ms=wall,
            game_id=game_id,
            assignment=runtime.assignment,
            open_alerts=runtime.open_alerts,
        )
        self.bus.publish(topics.arbiter_state(self.venue.id, number), referee)

    def _resend_outbox(self) -> None:
        """Everything the broker had not acknowledged before the crash, in journal order."""
        assert self.journal is not None
        by_id = {t.runtime.id: t.runtime.number for t in self.tables.values()}
        pending = self.journal.pending(10**7)
        for entry in pending:
            number = by_id.get(entry.table)
            if number is not None:
                self._publish_entry(number, entry)
        if pending:
            log.info("resending %d unacknowledged events", len(pending))


def _gpio_name(config: TableConfig) -> str:
    """The GPIO clock as the referees find it on the header: its pins (BCM numbers)."""
    pins = config.clock_gpio
    assert pins is not None
    return (
        f"GPIO clock (buttons {pins.black_button}/{pins.white_button}/{pins.claim_button}, "
        f"display {pins.clk}/{pins.dio})"
    )
