"""``wuzi director``: the competition's service on the bus — the thin shell around
``DirectorCore`` and ``DirectorStore``.

It subscribes to every table's events (the hosts' ``result`` events) and retained states,
to the referees' commands (only ``schemas.DIRECTOR_ACTIONS`` are the director's) and to
the hosts' statuses, and it publishes each table's retained assignment
(``assignments/<n>``) and the retained ``CompetitionState`` for the screens.

Delivery is at least once and nothing is lost across a crash:

* The bus session for events and commands is persistent (``persistent_session=True``,
  the stable client id ``wuzi.<venue>.director.<director id>`` of `wuzi.bus.identity`):
  while the director is away the broker queues them for it (also across a broker
  restart: the venue broker persists sessions). Retained table states and host statuses
  come on a second connection with a clean session (``wuzi.<venue>.director-live.<id>``):
  the broker sends their latest at every connect, so they need no queue.
* Events are checked for gaps in their gap-free per-game numbers (`wuzi.bus.gaps`): a
  gap (a broker that lost the session, a queue that overflowed) is logged with the table,
  game and numbers, the retained table states are asked for again, and a state of that
  game at or past the gap fills it — the core takes a result it shows as the host's
  report. A gap no state fills stays in ``open_gaps()`` and is logged again as lost.
* A message is handled *inside* the client's network callback — stored in one SQLite
  transaction — and paho acknowledges a QoS 1 message only when the callback returns.
  Killed before the commit, the director never acknowledged it, so the broker delivers it
  again when the director is back. If the database cannot be written, the connection is
  dropped rather than the message acknowledged, so the broker keeps it.
* Event and command ids are stored: a message delivered twice changes nothing.
* At start every table's assignment and the competition state are published again
  (retained, identical, so hosts and screens see no change), and a table's retained
  state that shows a result the director never heard of is taken as the host's report.

One lock serialises everything that touches the core and the store.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
import time
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from wuzi.bus import topics
from wuzi.bus.client import BusClient, RetainedMessage
from wuzi.bus.gaps import Gap, GapTracker
from wuzi.bus.schemas import (
    ArbiterCommand,
    Cleared,
    HostStatus,
    Message,
    MessageError,
    TableEvent,
    TableState,
)
from wuzi.config import EventConfig, VenueConfig
from wuzi.config.credentials import (
    Login,
    Role,
    director_account,
    referee_keys,
)
from wuzi.director.core import (
    DEFAULT_COMMAND_MAX_AGE_MS,
    Change,
    CoreOptions,
    DirectorCore,
    tables_of,
)
from wuzi.director.events import (
    EventStamp,
    check_defaults,
    check_stamp,
    choose_event,
    event_database,
    event_tables,
)
from wuzi.director.store import DirectorStore, StaleCompetition, Stored

__all__ = ["DirectorOptions", "DirectorService"]

log = logging.getLogger("wuzi.director")

DEFAULT_DIRECTOR_ID = "director"
RETAINED_WAIT_S = 5
"""An event's director waits at most this long for its tables' retained states at start."""
RETAINED_QUIET_S = 0.3
"""…and stops waiting once none arrived for this long after the subscriptions' answer
(the broker sends every retained message right after it acknowledges a subscription)."""
GAP_LOST_AFTER_MS = 10_000
"""A gap the retained state has not filled this long after it was found is logged as lost
(the retained state arrives within a round trip of asking)."""


@dataclass(frozen=True)
class DirectorOptions:
    db_path: Path
    auto_confirm: bool = False
    time_scale: float = 1.0
    opening: str | None = None  # the tables' opening procedure instead of the event's
    command_max_age_ms: int = DEFAULT_COMMAND_MAX_AGE_MS
    broker_url: str | None = None  # instead of the venue file's
    base_dir: Path | None = None  # where the venue file's relative paths start
    event_id: str | None = None  # the venue file's [[events]] id (--event); None: one event

    def core_options(self) -> CoreOptions:
        return CoreOptions(
            auto_confirm=self.auto_confirm,
            time_scale=self.time_scale,
            opening=self.opening,
            command_max_age_ms=self.command_max_age_ms,
        )


class DirectorService:
    """``start``, then ``run`` until ``request_stop`` (or ``wait_for`` from a test)."""

    def __init__(
        self,
        venue: VenueConfig,
        options: DirectorOptions,
        *,
        wall_ms: Callable[[], int] = lambda: time.time_ns() // 1_000_000,
    ) -> None:
        self.venue = venue
        self.options = options
        self.wall_ms = wall_ms
        # DirectorError (a ValueError) when --event does not fit the venue file
        self.event = choose_event(venue, options.event_id)
        # one director per event: the event's id is its name on the bus (its accounts
        # wuzi.<venue>.director.<event> and wuzi.<venue>.director-live.<event>)
        self.director_id = (
            self.event.id if self.event is not None else venue.director_id or DEFAULT_DIRECTOR_ID
        )
        self.tables = event_tables(venue, self.event)
        self.store = DirectorStore(options.db_path)
        self.boot_id = uuid.uuid4().hex[:16]
        self.core: DirectorCore | None = None
        self.bus: BusClient | None = None  # persistent session: events, commands; publishing
        self.live_bus: BusClient | None = None  # clean session: retained states, statuses
        self.storage_error: str | None = None
        self.changes = 0  # inputs that changed something (for observers)
        self._keys: dict[str, bytes] = {}
        self._gaps = GapTracker()
        self._gaps_reported: set[Gap] = set()
        self._log_seq = 0
        self._lock = threading.RLock()
        self._changed = threading.Condition(self._lock)
        self._stop = threading.Event()
        # the retained messages read before the start (an event's director), else None
        self._early: list[tuple[str, Message]] | None = None

    # --- starting and stopping --------------------------------------------------------

    def start(self) -> None:
        """Open the database, resume (or begin) the event, connect and publish.

        Raises ``StoreError`` / ``DirectorError`` / ``AuthError`` (all ValueErrors) with a
        message naming what to fix."""
        self._keys = referee_keys(self.venue, self.options.base_dir)
        with self._lock:
            stored = self.store.open()
            self._check_event(stored)
        early: list[tuple[str, Message]] = []
        if self.event is not None:
            early = self._read_retained()
        with self._lock:
            self._resume(stored, external=None, early=[m for _, m in early])
            self._connect_bus()
            self._publish_everything()
            self._early = None
            for topic, message in early:  # now through the core, as if they came now
                self._on_message(topic, message)
        assert self.core is not None
        log.info(
            "director for %r: round %d of %d, %d tables",
            self.core.comp.settings.name,
            len(self.core.comp.rounds),
            self.core.comp.round_count(),
            len(self.core.tables),
        )

    def _check_event(self, stored: Stored) -> None:
        """The database must be this event's (`wuzi.director.events`): stamped on the
        first start of an event's director, refused when stamped for another."""
        db = str(self.options.db_path)
        check_stamp(self.store.event_stamp(), self.venue, self.event, db)
        if self.event is None:
            return
        event_database(self.venue, self.event, db)  # not another event's file
        check_defaults(self.venue, self.event, stored.competition, self.options.opening)
        stamp = EventStamp(self.venue.id, self.event.id)
        check_stamp(self.store.stamp_event(stamp), self.venue, self.event, db)

    def _read_retained(self) -> list[tuple[str, Message]]:
        """An event's director reads its tables' retained states before it starts: a
        table may still play another event's game (moved between events, docs/director.md),
        and the start must not assign it. The live connection is made first; what it
        brings before the core exists is kept (``_early``) until the broker has sent the
        retained messages (the subscriptions acknowledged, then quiet for a moment)."""
        self._early = []
        self._make_live_bus()
        live = self.live_bus
        assert live is not None
        live.connect()
        if not live.wait_subscribed(RETAINED_WAIT_S):
            log.warning(
                "the broker did not answer in %d s: starting without the tables' retained states",
                RETAINED_WAIT_S,
            )
        deadline = time.monotonic() + RETAINED_WAIT_S
        seen = -1
        while time.monotonic() < deadline:
            with self._lock:
                count = len(self._early)
            if count == seen:
                break
            seen = count
            time.sleep(RETAINED_QUIET_S)
        with self._lock:
            return list(self._early)

    def _resume(
        self, stored: Stored, external: list[str] | None, early: Sequence[Message] = ()
    ) -> None:
        """A core from what is stored, its start change stored and applied. ``early``:
        the retained messages read before the start; the states of another event's games
        go to the core first, so that its start assigns no table one of them holds."""
        old = self.core
        core = DirectorCore(
            stored.competition,
            self.tables,
            options=self.options.core_options(),
            referee_keys=self._keys,
            games=stored.games,
            seen=stored.seen,
            hosts=stored.hosts,
            draws=stored.draws,
            event_id=self.event.id if self.event is not None else "",
            venue_tables=tables_of(self.venue),
            team_tables={hall.team: hall.tables for hall in self.venue.halls},
            venue_of={n: hall.venue for hall in self.venue.halls for n in hall.tables},
        )
        if old is not None:
            core.live.update(old.live)
            core.states.update(old.states)
        for message in early:
            if isinstance(message, TableState) and message.event_id not in ("", core.event_id):
                core.commit(core.on_table_state(message, self.wall_ms()))  # nothing stored
        self._log_seq = stored.log_seq
        change = core.on_start(self.wall_ms(), external=external)
        self._store(change)
        core.commit(change)
        self.core = core
        self._log_audit(change)

    def _connect_bus(self) -> None:
        broker = self.venue.broker
        venue = self.venue.id
        status_topic = topics.host_status(venue, self.director_id)
        # Two connections, two accounts (wuzi.<venue>.director.<id> and
        # wuzi.<venue>.director-live.<id>) with one password: the broker binds each client
        # id to its account, so neither can push the other off (docs/security.md).
        persistent = director_login(self.venue, "director", self.event)

        def status(online: bool) -> RetainedMessage:
            message = HostStatus(self.director_id, online, (), self.boot_id, self.wall_ms())
            return RetainedMessage(status_topic, message)

        self.bus = BusClient(
            self.options.broker_url or broker.url,
            persistent.client_id,
            username=persistent.username,
            password=persistent.password,
            login_source=persistent.source,
            ca_file=self._path(broker.ca_file) if broker.ca_file else None,
            will=status(False),
            birth=status(True),
            on_rejected=self._rejected,
            persistent_session=True,
        )
        for topic_filter in (*self._filters("events"), topics.arbiter_commands(venue)):
            self.bus.subscribe(topic_filter, self._on_message)
        self.bus.connect()
        if self.live_bus is None:
            self._make_live_bus()
            assert self.live_bus is not None
        self.live_bus.connect()  # (already connected: nothing)

    def _make_live_bus(self) -> None:
        """Retained messages on a connection of their own with a clean session: the
        broker re-sends the latest of each at every connect, so queueing every table state
        of an outage for the persistent session would only crowd out the events."""
        broker = self.venue.broker
        live = director_login(self.venue, "director-live", self.event)
        self.live_bus = BusClient(
            self.options.broker_url or broker.url,
            live.client_id,
            username=live.username,
            password=live.password,
            login_source=live.source,
            ca_file=self._path(broker.ca_file) if broker.ca_file else None,
            on_rejected=self._rejected,
        )
        for topic_filter in (*self._filters("state"), *self._filters("hosts")):
            self.live_bus.subscribe(topic_filter, self._on_message)

    def _filters(self, kind: str) -> list[str]:
        """What the director reads of the tables: every table's ``events`` / ``state`` and
        every host's status in a venue of one event; an event's director only its own
        tables' and their hosts' (its broker account may read no other: docs/security.md)."""
        venue = self.venue.id
        if self.event is None:
            every = {
                "events": topics.all_table_events,
                "state": topics.all_table_states,
                "hosts": topics.all_host_statuses,
            }
            # a network event: each hall's tables and hosts, under the hall's venue
            halls = [hall.venue for hall in self.venue.halls]
            return [every[kind](v) for v in (venue, *halls)]
        if kind == "hosts":
            return [topics.host_status(venue, h) for h in sorted({h for _, h in self.tables})]
        one = topics.table_events if kind == "events" else topics.table_state
        return [one(venue, n) for n, _ in self.tables]

    def _path(self, name: str) -> str:
        base = self.options.base_dir
        return str(base / name) if base is not None and not Path(name).is_absolute() else name

    def run(self, stop: Callable[[], bool] | None = None) -> None:
        """Wait while the bus's thread does the work, until ``request_stop`` (or ``stop``);
        meanwhile log the event gaps no retained state has filled, and look for the
        organisers' changes every second."""
        polls = 0
        while not self._stop.is_set() and (stop is None or not stop()):
            self._stop.wait(0.2)
            self.report_lost_gaps()
            polls += 1
            if polls % 5 == 0:
                self.check_competition()

    def check_competition(self) -> bool:
        """Reload when the organisers wrote to the competition (a draw of lots, a result,
        a pairing by hand) while nothing arrived from the venue: a drawn opening reaches
        the tables' waiting assignments within a second. True when it reloaded."""
        with self._changed:
            try:
                if self.core is None or self.store.log_seq() == self._log_seq:
                    return False
            except (OSError, ValueError, sqlite3.Error) as exc:
                log.warning("cannot read the competition's log: %s", exc)
                return False
            try:
                commands = self.store.commands_since(self._log_seq)
                self._resume(self.store.open(), external=commands)
            except (OSError, ValueError, sqlite3.Error, StaleCompetition) as exc:
                log.error("cannot take in the organisers' change (tried again): %s", exc)
                return False
            self._publish_everything()
            self.changes += 1
            self._changed.notify_all()
            return True

    def open_gaps(self) -> list[Gap]:
        """Public events of a game the director has not received and no retained state has
        covered yet (see the module doc)."""
        with self._lock:
            return self._gaps.open_gaps()

    def report_lost_gaps(self) -> list[Gap]:
        """Log (once each) the gaps still open `GAP_LOST_AFTER_MS` after they were found."""
        with self._lock:
            lost = [
                gap
                for gap in self._gaps.overdue(self.wall_ms(), GAP_LOST_AFTER_MS)
                if gap not in self._gaps_reported
            ]
            self._gaps_reported.update(lost)
        for gap in lost:
            log.error(
                "%s: not received and not in the retained table state after %d s; a result"
                " among them reaches the director only from the table's next state",
                gap,
                GAP_LOST_AFTER_MS // 1000,
            )
        return lost

    def request_stop(self) -> None:
        self._stop.set()

    def close(self) -> None:
        """Stop cleanly: what is published is delivered, the bus says offline."""
        if self.live_bus is not None:
            self.live_bus.close()
            self.live_bus = None
        if self.bus is not None:
            # a clean DISCONNECT discards the last will: say offline ourselves
            offline = HostStatus(self.director_id, False, (), self.boot_id, self.wall_ms())
            self.bus.publish(topics.host_status(self.venue.id, self.director_id), offline)
            self.bus.wait_drained(2.0)
            self.bus.close()
            self.bus = None

    def wait_for(self, condition: Callable[[DirectorCore], bool], timeout_s: float) -> bool:
        """Wait until ``condition(core)`` holds (checked after every change)."""
        with self._changed:
            return self._changed.wait_for(
                lambda: self.core is not None and condition(self.core), timeout_s
            )

    # --- messages (on the bus client's network thread) ----------------------------------

    def _rejected(self, topic: str, error: MessageError) -> None:
        log.warning("rejected a message on %s: %s", topic, error)

    def _on_message(self, topic: str, message: Message) -> None:
        if not isinstance(message, TableEvent | TableState | ArbiterCommand | HostStatus):
            return  # a retained message cleared: nothing for the director
        with self._lock:
            if self._early is not None:  # before the start (`_read_retained`): kept
                self._early.append((topic, message))
                return
        if isinstance(message, TableEvent | TableState):
            self._track(message)

        def compute(core: DirectorCore, now: int) -> Change:
            if isinstance(message, TableEvent):
                return core.on_result_event(message, now)
            if isinstance(message, TableState):
                return core.on_table_state(message, now)
            if isinstance(message, ArbiterCommand):
                return core.on_command(message, now)
            return core.on_host_status(message, now)

        with self._changed:
            self._apply(compute)

    def _track(self, message: TableEvent | TableState) -> None:
        """Gap bookkeeping of a table's public events (every TableEvent on
        ``table/<n>/events`` is public: alerts travel under ``arbiter/``)."""
        now = self.wall_ms()
        with self._lock:
            if isinstance(message, TableState):
                filled = self._gaps.on_state(message.table, message.game_id, message.seq)
                seen = None
            else:
                filled = []
                seen = self._gaps.on_event(message.table, message.game_id, message.seq, now)
        for gap in filled:
            log.info("%s: filled from the retained table state (seq %d)", gap, message.seq)
        if seen is not None and seen.gap is not None:
            log.warning("%s: asking for the retained table states again", seen.gap)
            live = self.live_bus
            if live is not None:
                for topic_filter in self._filters("state"):
                    live.resubscribe(topic_filter)

    def _apply(self, compute: Callable[[DirectorCore, int], Change]) -> None:
        assert self.core is not None
        now = self.wall_ms()
        change = compute(self.core, now)
        if change.empty:
            return
        try:
            for _ in range(3):
                try:
                    self._store(change)
                    break
                except StaleCompetition as stale:
                    log.info("the organisers changed the competition: reloading")
                    self._resume(self.store.open(), external=stale.commands)
                    self._publish_everything()
                    change = compute(self.core, now)
            else:  # pragma: no cover - the organisers write three times in a row
                raise StaleCompetition(["(changing too fast)"])
        except (OSError, ValueError, sqlite3.Error, StaleCompetition) as exc:
            self._storage_failed(exc)
            return
        self.core.commit(change)
        self._log_audit(change)
        self._publish(change)
        self.changes += 1
        self._changed.notify_all()

    def _store(self, change: Change) -> None:
        if not change.stored:
            return
        self._log_seq = self.store.commit(
            competition=change.competition,
            tournament_log=change.tournament_log,
            games=list(change.games.values()),
            seen=change.seen,
            audit=change.audit,
            hosts=change.hosts,
            at_ms=change.now_ms,
            expected_log_seq=self._log_seq,
        )

    def _storage_failed(self, exc: BaseException) -> None:
        """Not stored: do not let the message be acknowledged. Dropping the connection
        before paho's PUBACK leaves it with the broker, which delivers it again."""
        self.storage_error = f"{type(exc).__name__}: {exc}"
        log.error("cannot store a change, the message stays with the broker: %s", exc)
        for bus in (self.bus, self.live_bus):
            if bus is not None:
                bus.kill_connection()

    def _log_audit(self, change: Change) -> None:
        for entry in change.audit:
            log.info("audit %s %s %s", entry.actor, entry.action, entry.details)

    # --- publishing ---------------------------------------------------------------------

    def _publish(self, change: Change) -> None:
        for table in sorted(change.tables):
            self._publish_assignment(table)
        if change.screens:
            self._publish_state()

    def _publish_everything(self) -> None:
        assert self.core is not None
        for table in self.core.tables:
            self._publish_assignment(table)
        self._publish_state()

    def _publish_assignment(self, table: int) -> None:
        if self.bus is None or self.core is None:
            return
        topic = topics.assignment(self.venue.venue_of_table(table), table)
        assignment = self.core.assignment(table)
        if assignment is None and self.core.held(table):
            return  # another event's game still runs there: leave its assignment alone
        self.bus.publish(topic, assignment if assignment is not None else Cleared(topic))

    def _publish_state(self) -> None:
        if self.bus is None or self.core is None:
            return
        state = self.core.competition_state(self.wall_ms())
        try:
            event = self.event.id if self.event is not None else None
            self.bus.publish(topics.competition_state(self.venue.id, event), state)
        except ValueError as exc:  # a bug: log it, never stop the competition for it
            log.error("the competition state was not published: %s", exc)


def director_login(venue: VenueConfig, role: Role, event: EventConfig | None) -> Login:
    """How the director's connection ``role`` (``director`` / ``director-live``) logs in:
    `wuzi.config.credentials.director_account`, the one place a director's accounts and
    password file are found (an event's: ``broker_password_file`` or by default
    ``secrets/events/<event id>.pass``, what ``wuzi venue broker-config`` writes)."""
    account = director_account(venue, None if event is None else event.id)
    return account.persistent if role == "director" else account.live
