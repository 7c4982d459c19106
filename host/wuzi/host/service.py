"""``wuzi host``: the table host service — boards, clocks, rules, journal and bus in one loop.

One thread runs everything that changes a table (the ``LinkLoop`` of the serial drivers,
the local control socket, the bus's inbox, the timers), so a table is never touched by
two threads and the order of its journal is the order things happened. paho's network
thread and gpiozero's pin threads only put items in the inbox and wake the loop
(``wuzi.host.inbox``).

The service decides nothing about a table: it stamps what arrives (a board's report with
the board's instant, a press with the clock unit's), hands it to the table's pure object
(``wuzi.table.table.Table``: the press rule, the outage's order, the fault holds, the
command checks) and carries out the ``Outcome`` — records journaled (one SQLite
transaction, fsync'd) *before* anything is published (``wuzi.host.outbound``), questions
sent to the board, lines logged, faces redrawn. Around it: the devices are built and
retried per table (``wuzi.host.served``), the tables recovered from the journal at start
(``wuzi.host.recovery``: the time base continues from the last instant the journal knew
the host alive, so an outage is charged to nobody, and running clocks are held), the
referees' commands verified and carried out (``wuzi.host.command_desk``).

A table's hardware that cannot be used is that table's fault, never the host's: the other
tables play on, the referees get one ``board`` alert naming the device and the reason,
the host status lists the table in ``links_down``, a running clock is held for the
equipment, and the device is tried again. No press costs a player because of the
equipment: it is judged with its own instant once the board has vouched for it, kept
through an outage (docs/host.md).
"""

from __future__ import annotations

import contextlib
import logging
import os
import queue
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from wuzi.bus import topics
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
from wuzi.host.command_desk import CommandDesk
from wuzi.host.control import GAMES_QUERY, ControlServer, games_message
from wuzi.host.inbox import GpioPress, Inbox, Incoming, LineIncoming, Rejected, Sent
from wuzi.host.link_events import board_input, clock_unit_alert, link_down_why, noisy_line_alert
from wuzi.host.linked_tables import LinkedTables
from wuzi.host.outbound import Outbound
from wuzi.host.recovery import keep_snapshot, last_known_ns, recover_runtime, stalest
from wuzi.host.served import Devices, ServedTable, refresh_displays
from wuzi.host.systemd import Notifier
from wuzi.host.table_runtime import COMMAND_KIND, Record, table_id
from wuzi.host.timebase import HostTime
from wuzi.io.serial_link import LinkLoop
from wuzi.journal import Journal
from wuzi.link.reconciler import LINK_DOWN, LINK_UP, Alert, StoneEvent
from wuzi.link.session import LinkDown, LinkUp, Press, PressesLost
from wuzi.table.alerts import AlertReason
from wuzi.table.checks import TableError
from wuzi.table.commands import MAX_FUTURE_MS, CommandMemory
from wuzi.table.inputs import TableSetup
from wuzi.table.table import Outcome

if TYPE_CHECKING:
    # gpiozero (and colorzero) take ~25 ms to import: only a table with a GPIO clock pays
    pass

__all__ = ["HostService", "ServiceOptions"]

log = logging.getLogger("wuzi.host")

HEARTBEAT_NS = 1_000_000_000
COMMAND_MAX_AGE_MS = 120_000
MAX_WAIT_MS = 50
HELD_PRESS_WAKE_MS = 5
"""While a press waits for the board the loop wakes this often to look again."""


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
        self.devices: Devices | None = None
        self.out = Outbound(
            venue_id=venue.id,
            event_name=venue.name,
            host_id=options.host_id,
            records_dir=options.records_dir,
            journal=lambda: self.journal,
            bus=lambda: self.bus,
            now_ns=lambda: self.time.now_ns(),
            wall_ms=lambda: self.wall_ms(),
        )
        self.bus: BusClient | None = None
        self.control: ControlServer | None = None
        self.tables: dict[int, ServedTable] = {}
        self._by_driver: dict[object, ServedTable] = {}
        self._inbox = Inbox()
        self._keys: dict[str, bytes] = {}
        self.desk = CommandDesk(
            host_id=options.host_id,
            tables=self.tables,
            keys=lambda: self._keys,
            out=self.out,
            max_age_ms=options.command_max_age_ms,
            standalone=options.standalone,
            default_setup=self._default_setup,
            now_ns=lambda: self.time.now_ns(),
            wall_ms=lambda: self.wall_ms(),
        )
        self.linked = LinkedTables(
            venue,
            tuple(config.number for config in self.host_config.tables),
            self.tables,
            journal=self._journal_line,
            alert=self._host_alert,
            now_ms=lambda: self.time.now_ms(),
            wall_ms=lambda: self.wall_ms(),
            host_id=options.host_id,
            records_dir=options.records_dir,
        )
        self.desk.linked = self.linked.command
        self.out.linked = self.linked.numbers  # the same set: linked by game too
        self.out.line_view = self.linked.line_view
        self._next_heartbeat_ns = 0
        self._stopping = False
        self.recovered_tables = 0
        self._status: Callable[[bool], RetainedMessage] | None = None  # the host's status
        self.links_down: tuple[int, ...] = ()  # tables with a device fault (host status)

    # --- starting and stopping ----------------------------------------------------------

    def start(self) -> None:
        """Open the journal, recover every table, open the devices, connect the bus."""
        self.journal = Journal.open(self.options.journal_path, self.options.host_id)
        numbers = [config.number for config in self.host_config.tables]
        journal = self.journal
        streams = [t for t in journal.tables() if t.startswith("line-")]
        self.time = HostTime.after(last_known_ns(journal, numbers, streams))
        self.linked.entries = lambda stream: [(e.kind, e.payload) for e in journal.entries(stream)]
        self.loop = LinkLoop(clock=self.time.now_ms)
        self.devices = Devices(
            self.loop,
            self.time.now_ns,
            self.time.now_ms,
            register=self._by_driver.__setitem__,
            on_gpio_press=lambda n, button, at_ms: self._inbox.put(GpioPress(n, button, at_ms)),
            pin_factory=self.options.pin_factory,  # None: gpiozero's default (the env's)
        )
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
        self.linked.recover()
        self.out.commit_many(recovered, publish=False)
        for table in self.tables.values():
            self._open_devices(table)
        if self.options.control_path is not None:
            self.control = ControlServer(self.options.control_path)
            self._watch_control()
        self.out.resend(self.tables.values())
        for table in self.tables.values():
            self.out.publish_state(table)
        if self.options.standalone:  # a linked table's game, owner side: the defaults'
            for number in self.linked.sides:
                setup = self._default_setup(number)
                self.linked.standalone(number, setup.time_control, setup.ruleset)
        count = len(self.tables)
        self.notifier.ready(f"serving {count} table{'' if count == 1 else 's'}")
        log.info("host %s serving tables %s", self.options.host_id, sorted(self.tables))

    def _recover_table(self, config: TableConfig) -> tuple[ServedTable, list[Record]]:
        """The table as its journal left it, and the records its start adds (the
        restart of a game in progress, or a standalone table's first game): the caller
        commits them."""
        assert self.journal is not None
        number = config.number
        runtime, snapshot_seq, start = recover_runtime(self.journal, number, self.venue.id)
        table = ServedTable(runtime=runtime, config=config)
        table.seq = self.journal.last_seq(table_id(number))
        table.snapshot_seq = snapshot_seq
        # the commands carried out within the age window, across games: once, in their game
        runtime.commands = CommandMemory(self.options.command_max_age_ms, MAX_FUTURE_MS)
        commands = self.journal.newest_of_kind(table_id(number), COMMAND_KIND)
        runtime.commands.recall((entry.payload for entry in commands), self.wall_ms())
        self.tables[config.number] = table
        now, wall = self.time.now_ns(), self.wall_ms()
        if runtime.session is not None:
            self.recovered_tables += 1
            if not runtime.session.game.is_over:
                return table, runtime.restarted(now, wall)
            self.out.save_record(table)
        elif self.options.standalone and start == 0 and number not in self.linked:
            return table, runtime.begin(now, wall, self._default_setup(config.number))
        return table, []

    def _default_setup(self, table: int) -> TableSetup:
        """A standalone table's game: its event's defaults over the venue's."""
        d = self.venue.defaults_for(table)
        base = TableSetup(unpressed_alert_ms=self.options.unpressed_alert_ms)
        return TableSetup(
            ruleset=str(d.ruleset) if d.ruleset is not None else base.ruleset,
            opening=d.opening or base.opening,
            time_control=str(d.time_control) if d.time_control is not None else base.time_control,
            unpressed_alert_ms=base.unpressed_alert_ms,
        )

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
            on_sent=lambda key: self._inbox.put(Sent(key)),
            on_rejected=lambda topic, exc: self._inbox.put(Rejected(exc)),
        )
        for number in tables:
            self.bus.subscribe(
                topics.assignment(venue, number),
                lambda topic, message: self._inbox.put(Incoming(topic, message)),
            )
        self.bus.subscribe(
            topics.arbiter_commands(venue),
            lambda topic, message: self._inbox.put(Incoming(topic, message)),
        )
        self.linked.subscribe(self.bus, self._inbox.put)
        self.bus.connect()

    def _base_dir(self) -> Path | None:
        """The folder the venue's relative paths are taken from: None when ``load_venue``
        has already joined them to the venue file's folder (joining them to it again
        would name a folder inside the folder)."""
        return None if self.venue.base_dir is not None else self.options.base_dir

    def _path(self, name: str) -> str:
        base = self._base_dir()
        return str(base / name) if base is not None and not Path(name).is_absolute() else name

    def _open_devices(self, table: ServedTable) -> None:
        """Build whichever of the table's devices is not built yet (``Devices.open``)."""
        assert self.devices is not None
        self.devices.open(table)

    def _check_devices(self, table: ServedTable, now: int) -> None:
        """Tell the referees when a device of the table stops or starts serving, hold a
        running clock once per spell of faults, keep the host status's ``links_down`` in
        step (``wuzi.table.faults`` decides all three), and retry what could not be built."""
        if table.serving():
            return  # every device serves, none was at fault: nothing to tell or hold
        if table.retry_at_ns is not None and now >= table.retry_at_ns:
            self._open_devices(table)
        looks = table.looks(now // 1_000_000)
        self._apply(table, table.runtime.look(now, self.wall_ms(), table.open_errors, looks))

    def _link_changed(self, table: ServedTable, device: str, *, down: bool, why: str) -> None:
        """A device's link went down or up; the referees hear of it, and the clock is held,
        from ``_check_devices`` in this very turn of the loop (``step`` runs it right after
        the devices)."""
        self._apply(table, table.runtime.link_changed(device, down=down, why=why))

    def _update_links_down(self) -> None:
        """Publish the host status when the faulted tables change (retained: the bus client
        republishes the last one first at every reconnect, ``wuzi.bus.client``)."""
        down = tuple(sorted(n for n, t in self.tables.items() if t.runtime.faults.any))
        if down == self.links_down:
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
                keep_snapshot(self.journal, table)
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
        linked_ms = self.linked.due_ms()
        if linked_ms is not None:
            due.append(linked_ms * 1_000_000)
        wait_ms = max(0, min(max_wait_ms, (min(due) - now) // 1_000_000 + 1))
        self.loop.run_once(self._on_device, max_wait_ms=wait_ms)
        self._drain_inbox()
        now = self.time.now_ns()
        ticked: list[tuple[ServedTable, Outcome]] = []
        for table in self.tables.values():
            self._check_devices(table, now)
            self._release_presses(table, now)
            # the table's own due time first (known since its last input): ``tick`` runs
            # the clock forward to now
            due_ns = table.runtime.next_due_ns()
            if due_ns is not None and now >= due_ns:
                ticked.append((table, table.runtime.tick(now, self.wall_ms())))
        if ticked:  # the tables' ticks in one journal transaction (24 flags: one fsync)
            self._apply_all(ticked)
        self.linked.step()
        for number in self.linked.referee_due():
            if number in self.tables:
                self.out.publish_state(self.tables[number], public=False)
        for table in self.tables.values():
            if table.display_due_ns is not None and now >= table.display_due_ns:
                refresh_displays(table, now)
        if now >= self._next_heartbeat_ns:
            self._heartbeat(now)

    def _next_due(self, table: ServedTable) -> int | None:
        runtime = table.runtime
        display = table.display_due_ns if (table.clock or table.gpio) else None
        held = self.time.now_ns() + HELD_PRESS_WAKE_MS * 1_000_000 if runtime.gate.waiting else None
        due = (runtime.next_due_ns(), display, table.retry_at_ns, held)
        known = [d for d in due if d is not None]
        return min(known) if known else None

    def _heartbeat(self, now: int) -> None:
        assert self.journal is not None
        self.journal.note_alive(now)
        behind = stalest(self.tables.values())
        if behind is not None:
            keep_snapshot(self.journal, behind)
        self.notifier.watchdog()
        self._next_heartbeat_ns = now + HEARTBEAT_NS

    # --- devices -------------------------------------------------------------------------

    def _on_device(self, driver: object, event: object) -> None:
        table = self._by_driver.get(driver)
        if table is None:
            return
        now = self.time.now_ns()
        if self.linked.device(table.config.number, event):
            return
        noisy = noisy_line_alert(event, getattr(driver, "url", ""))
        if noisy is not None:  # a noisy line: told once, no fault, play goes on
            self._host_alert(table, *noisy)
        elif isinstance(event, Alert) and event.kind in (LINK_DOWN, LINK_UP):
            device = f"board {table.config.board_port}"
            down = event.kind == LINK_DOWN
            self._link_changed(table, device, down=down, why=link_down_why(event))
        elif isinstance(event, StoneEvent | Alert) and table.board is not None:
            # in the order of the presses: a report the board read by a waiting press's
            # instant is fed as of the press (the press judges it with its own time), one
            # read later waits behind the press (wuzi.table.press_gate)
            report = board_input(event, event.at_ms * 1_000_000)
            self._apply(table, table.runtime.report(report, now, self.wall_ms(), table.board))
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

    def _press(self, table: ServedTable, button: int, at_ns: int) -> None:
        """A button of the table's clock (a serial unit's or the GPIO header's), pressed at
        ``at_ns``: judged against the board as it was at the press (``Table.press``: the
        board is asked at once to vouch for the instant)."""
        if table.runtime.session is None:
            return
        now = self.time.now_ns()
        needs_board = table.needs_board
        board = table.board
        ticket = board.vouch_now(now // 1_000_000) if needs_board and board is not None else 0
        outcome = table.runtime.press(
            button, at_ns, now, self.wall_ms(), board, needs_board=needs_board, ticket=ticket
        )
        self._apply(table, outcome)

    def _release_presses(self, table: ServedTable, now: int) -> None:
        """Judge the waiting presses the board now vouches for (``Table.release``)."""
        if table.runtime.gate.waiting:
            self._apply(table, table.runtime.release(now, self.wall_ms(), table.board))

    def _apply(self, table: ServedTable, outcome: Outcome) -> None:
        """Carry out what the table decided (``_apply_all`` of one table)."""
        self._apply_all([(table, outcome)])

    def _apply_all(self, outcomes: list[tuple[ServedTable, Outcome]]) -> None:
        """Carry out what the tables decided: the host status first (whoever reads an
        alert finds the table in ``links_down``), every table's records journaled in one
        transaction and then published, the board's questions sent, the log written, the
        faces redrawn."""
        if any(outcome.faults_changed for _, outcome in outcomes):
            self._update_links_down()
        self.out.commit_many((table, outcome.records) for table, outcome in outcomes)
        for table, outcome in outcomes:
            self._carry_out(table, outcome)

    def _carry_out(self, table: ServedTable, outcome: Outcome) -> None:
        """What follows a table's journaled records: questions, the log, the faces."""
        number = table.runtime.number
        for ask in outcome.asks:
            if table.board is not None:  # again after ASK_RETRY_MS while it waits
                table.board.ask_now(ask.now_ms, ask.through_ms)
        for level, text in outcome.notes:
            log.log(
                logging.WARNING if level == "warning" else logging.INFO,
                "table %d: %s",
                number,
                text,
            )
        if outcome.show or outcome.records:
            table.display_due_ns = 0

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
            if isinstance(item, Sent):
                acked.append(item.key)
            elif isinstance(item, Incoming):
                self._on_message(item.topic, item.message)
            elif isinstance(item, LineIncoming):
                self.linked.packet(item)
            elif isinstance(item, GpioPress):
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

    def _on_assignment(self, table: ServedTable, message: Assignment | Cleared) -> None:
        number = table.runtime.number
        if self.linked.assignment(number, message):
            return
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
        self.out.publish_state(table)

    # --- arbiter commands ------------------------------------------------------------

    def execute(self, command: ArbiterCommand) -> tuple[bool, str]:
        """Check and carry out an arbiter command (``CommandDesk.execute``)."""
        return self.desk.execute(command)

    def _on_control(self) -> None:
        assert self.control is not None
        for request in self.control.on_readable():
            if request.payload.strip() == GAMES_QUERY:
                games = {n: t.runtime.shown_game for n, t in self.tables.items()}
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

    def _journal_line(self, stream: str, kind: str, payload: dict[str, object], t_ms: int) -> None:
        """A hall line's record (``LineSent``, ``LineReceived``, …) in the host's journal,
        under the line's own stream (``line-<link>``), durable before the loop goes on."""
        assert self.journal is not None
        self.journal.append(stream, kind, payload, t_ms, publish=False)

    def _host_alert(self, table: ServedTable, reason: AlertReason, text: str) -> None:
        self.out.commit(
            table, table.runtime.alert(self.time.now_ns(), self.wall_ms(), reason, text)
        )
