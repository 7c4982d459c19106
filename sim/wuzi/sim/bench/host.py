"""``wuzi bench host``: the table host's figures.

``host.journal_us_per_event``: the cost of one durable journal append (committed and
fsync'd before it returns), on the disk of the current directory's temp area — the figure
is mostly that disk's fsync latency, so measure on the Pi's own storage.

``host.move_latency_p99_ms``: one ``wuzi host`` process serving 24 tables (simulated
boards and clock units on ptys, a real Mosquitto, standalone games). Every round puts a
stone on each table, waits until the host has it pending (its RefereeState's
``pending_stone``), then presses the 24 clocks one after another, 10 ms apart — a busy
hall. The latency of a move runs from the instant the simulated clock unit's MCU emits its
press frame (so the buttons' debounce window, which the host cannot shorten, is excluded)
to the instant an observer on the bus receives the ``move`` TableEvent. Both instants are
read from this process's monotonic clock. It is the whole path: pty, link, rules, journal
fsync, broker, observer. ``MOVE_ROUNDS`` rounds: 1,440 moves, so that the p99 is the 15th
slowest, not the 5th (a shared machine's pause of a few ms that catches a handful of
presses moved a 480-move p99 by half).

``host.press_after_stone_ms_p99``: a player in time trouble presses right after the stone,
before the board has reported it (the debounce, the 150 ms settle and a confirmation lie
between the stone and the host). One ``wuzi host`` process serving six tables; every round
puts a stone on each and presses its clock 0, 20, 50, 100, 150 and 200 ms after it (one
offset per table, the offsets turning round the tables from round to round). The time runs
from the instant the clock unit's MCU emits the press frame to the instant the observer
receives the ``move`` — which the host publishes only once it is journaled — so it
includes the wait for the board to vouch for the position at the press.
``host.press_after_stone_infractions``: how many of those presses were judged a press
without a stone (``press_without_stone`` / ``loss_pending`` alerts): it must be 0. The bench
prints it; it does not assert it (a round with one ends the run early).

``host.recovery_s_24_tables``: a journal holding a 200-move game on each of 24 tables
(written in-process through ``TableRuntime``, everything marked sent, as a host that was
SIGKILL-ed with a quiet outbox leaves it); then ``wuzi host`` is started as a subprocess
and timed from just before the process is spawned (interpreter start and imports
included) until the observer has received, from this process, every table's TableState
with status ``paused`` — each game recovered, its clocks stopped for the referee, its
devices opened and its state on the bus. The journal holds each table's snapshot as a
host's heartbeat leaves it at worst, ``SNAPSHOT_TAIL_MOVES`` moves (12 events) before the
end, so those events are replayed (``wuzi.host.snapshot``). The figure is the median of
``STARTS`` starts, each on its own copy of the journal, broker and devices. Target: under
0.25 s.

``host.flag_to_paused_ms_max``: one ``wuzi host`` process serving 24 tables whose
standalone games have 5 s each (``FLAG_CONTROL``) and nobody moves: Black's flag falls on
every table within a few ms, a burst. For each table the flag's instant is read from its
last ``playing`` state (``at_ms`` + ``black_ms``, the host's wall time) and the figure runs
from there to the instant the observer receives the state that says ``paused`` (the
flag's hold, docs/table.md "A flag"): the host's timer, the tick journaled, the state
published. The slowest of the 24. Target: well under a second (issue 32).

``host.cold_start_s``: the same start on an empty state folder — a host's first start of
the day: from spawning ``wuzi host`` (interpreter start and imports included) until every
table has begun its standalone game, opened its board and clock unit, and put its
``playing`` TableState on the bus (the median of ``STARTS`` starts). The floor under the
recovery figure: what is left is the replay. Both figures are most of all imports: see
docs/performance.md.
"""

from __future__ import annotations

import shutil
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from wuzi.bus.schemas import Message, TableEvent
from wuzi.host import snapshot as snapshots
from wuzi.host.table_runtime import Record, TableRuntime
from wuzi.journal import Journal
from wuzi.journal.journal import measure_append_us
from wuzi.rules.board import Colour
from wuzi.rules.procedure import Seat
from wuzi.sim.box import (
    HOST_ID,
    Broker,
    HostProcess,
    Observer,
    SimTables,
    new_venue_id,
    subscribe_observer,
    wait_for,
    write_venue,
)
from wuzi.sim.devices.runner import monotonic_ms
from wuzi.sim.devices.virtual_board import VirtualBoard
from wuzi.sim.devices.virtual_clock import VirtualClock
from wuzi.table.inputs import ClockPressed, StoneSettled, TableSetup

Emit = Callable[[str, float, str], None]

TABLES = 24
RECOVERY_MOVES = 200
PRESS_GAP_S = 0.010
PRESS_OFFSETS_MS = (0, 20, 50, 100, 150, 200)
"""How long after its stone each press of ``host.press_after_stone_ms_p99`` comes."""
MOVE_ROUNDS = 60
"""Rounds of ``host.move_latency_p99_ms``: a move on each of the 24 tables a round."""
STARTS = 5
"""Starts of ``wuzi host`` behind ``host.cold_start_s`` and ``host.recovery_s_24_tables``:
each figure is their median. One start is a fifth of a second, most of it interpreter,
imports and first calls, and on a shared machine one start in a handful is 30-50 % slower
than the rest: the median is the start a host makes, not the one the machine disturbed."""
SNAPSHOT_TAIL_MOVES = (snapshots.SNAPSHOT_EVERY - 1) // 4
"""Moves after the recovery journal's snapshot (four events a move): the most whole moves
under ``SNAPSHOT_EVERY`` events, what a host's heartbeat leaves unsnapshotted at worst
(the worst case, not the best)."""
FLAG_CONTROL = "5"
"""The time control of ``host.flag_to_paused_ms_max``: long enough for 24 tables to start
and publish their ``playing`` state, short enough for a bench."""
INFRACTION_REASONS = frozenset({"press_without_stone", "loss_pending"})
S = 1_000_000_000
WALL_MS = 1_780_000_000_000


def run(emit: Emit, quick: bool) -> None:
    with tempfile.TemporaryDirectory(prefix="wuzi-bench-journal-") as folder:
        us = measure_append_us(Path(folder) / "journal.sqlite", 100 if quick else 500)
    emit("host.journal_us_per_event", us, "us")
    with tempfile.TemporaryDirectory(prefix="wuzi-bench-host-") as folder:
        emit(
            "host.move_latency_p99_ms",
            move_latency_p99_ms(Path(folder), 2 if quick else MOVE_ROUNDS),
            "ms",
        )
    with tempfile.TemporaryDirectory(prefix="wuzi-bench-press-") as folder:
        p99_ms, infractions = press_after_stone(Path(folder), 2 if quick else 10)
    emit("host.press_after_stone_ms_p99", p99_ms, "ms")
    emit("host.press_after_stone_infractions", infractions, "count")
    starts = 1 if quick else STARTS
    with tempfile.TemporaryDirectory(prefix="wuzi-bench-flag-") as folder:
        emit("host.flag_to_paused_ms_max", flag_to_paused_ms_max(Path(folder)), "ms")
    with tempfile.TemporaryDirectory(prefix="wuzi-bench-cold-") as folder:
        emit("host.cold_start_s", cold_start_s(Path(folder), starts), "s")
    with tempfile.TemporaryDirectory(prefix="wuzi-bench-recovery-") as folder:
        emit("host.recovery_s_24_tables", recovery_s(Path(folder), starts), "s")


def spread_points() -> tuple[list[int], list[int]]:
    """Black and White points of the whole board such that no line holds three stones of
    one colour in a row: colour by ``(column + 2 * row) mod 4`` (rows alternate, columns
    and both diagonals go in pairs). No five, no forbidden shape, under any rule set."""
    black: list[int] = []
    white: list[int] = []
    for row in range(15):
        for column in range(15):
            (black if (column + 2 * row) % 4 < 2 else white).append(row * 15 + column)
    return black, white


def game_moves(count: int) -> list[int]:
    black, white = spread_points()
    moves = [p for pair in zip(black, white, strict=False) for p in pair]
    if count > len(moves):
        raise ValueError(f"at most {len(moves)} spread moves, not {count}")
    return moves[:count]


# --- move latency ----------------------------------------------------------------------


def p99_ms(latencies_ns: list[int]) -> float:
    """The 99th percentile (nearest rank) of ``latencies_ns``, in ms."""
    ordered = sorted(latencies_ns)
    at = min(len(ordered) - 1, max(0, -(-99 * len(ordered) // 100) - 1))
    return ordered[at] / 1e6


def move_latency_p99_ms(folder: Path, rounds: int) -> float:
    """p99 of ``rounds`` moves on each of the 24 tables (see the module docstring)."""
    return p99_ms(_play_rounds(folder, rounds))


def _play_rounds(folder: Path, rounds: int) -> list[int]:
    broker = Broker(folder)
    broker.start()
    sim = SimTables(TABLES)
    observer = Observer()
    venue_id = new_venue_id()
    host = HostProcess(write_venue(folder, venue_id, broker.url, sim), folder / "state")
    bus = None
    try:
        bus = subscribe_observer(broker.url, venue_id, observer)
        host.start()
        tables = range(1, TABLES + 1)
        wait_for(lambda: _all_alive(host, lambda n: n in observer.states), 30, "24 table states")
        moves = game_moves(rounds)
        latencies: list[int] = []
        for r, point in enumerate(moves):
            colour, button = (1, 0) if r % 2 == 0 else (2, 1)
            for n in tables:
                sim.place(n, point, colour)

            def pending(n: int, point: int = point) -> bool:
                return observer.pending_stone(n) == point

            def judged(n: int, r: int = r) -> bool:
                return observer.move_count(n) > r

            wait_for(lambda: _all_alive(host, pending), 30, f"round {r + 1}'s stones pending")
            for n in tables:
                sim.press(n, button)
                time.sleep(PRESS_GAP_S)
            wait_for(lambda: _all_alive(host, judged), 30, f"round {r + 1}'s moves")
            for n in tables:
                got, received_ns = observer.last_move(n)
                pressed_ns = sim.clocks[n - 1].press_ns
                if got != point or pressed_ns is None:
                    raise RuntimeError(f"table {n}: move {got} for {point}, press {pressed_ns}")
                latencies.append(received_ns - pressed_ns)
        return latencies
    finally:
        host.kill()
        if bus is not None:
            bus.close()
        sim.close()
        broker.stop()


def _all_alive(host: HostProcess, ready: Callable[[int], bool]) -> bool:
    host.check_alive()
    return all(ready(n) for n in range(1, TABLES + 1))


# --- presses right after the stone ----------------------------------------------------


class AlertCounter(Observer):
    """The bench observer, also counting the infraction alerts per table."""

    def __init__(self) -> None:
        super().__init__()
        self.infractions: dict[int, int] = {}

    def __call__(self, topic: str, message: Message) -> None:
        super().__call__(topic, message)
        if (
            isinstance(message, TableEvent)
            and message.kind == "alert"
            and message.data.get("reason") in INFRACTION_REASONS
        ):
            with self.lock:
                count = self.infractions.get(message.table, 0)
                self.infractions[message.table] = count + 1

    def infraction_count(self, table: int) -> int:
        with self.lock:
            return self.infractions.get(table, 0)


def press_after_stone(folder: Path, rounds: int) -> tuple[float, int]:
    """(p99 ms, infractions) of ``rounds`` rounds of presses 0–200 ms after the stone on
    six tables (see the module docstring). An infraction ends the run after its round:
    the table's game has gone another way than the bench's."""
    broker = Broker(folder)
    broker.start()
    tables = len(PRESS_OFFSETS_MS)
    sim = SimTables(tables)
    observer = AlertCounter()
    venue_id = new_venue_id()
    host = HostProcess(write_venue(folder, venue_id, broker.url, sim), folder / "state")
    bus = None
    numbers = range(1, tables + 1)
    try:
        bus = subscribe_observer(broker.url, venue_id, observer)
        host.start()
        wait_for(lambda: _alive(host, numbers, lambda n: n in observer.states), 30, "states")
        latencies: list[int] = []
        for r, point in enumerate(game_moves(rounds)):
            colour, button = (1, 0) if r % 2 == 0 else (2, 1)
            done = {n: (observer.move_count(n), observer.infraction_count(n)) for n in numbers}
            for n in numbers:
                offset_ms = PRESS_OFFSETS_MS[(n + r) % tables]
                board, clock = sim.boards[n - 1], sim.clocks[n - 1]
                now_ms = monotonic_ms()
                clock.press_ns = None
                board.at(now_ms, _stone(board, point, colour))
                clock.at(now_ms + offset_ms, _press(clock, button))

            def settled(n: int, done: dict[int, tuple[int, int]] = done) -> bool:
                moves, infractions = done[n]
                return observer.move_count(n) > moves or observer.infraction_count(n) > infractions

            wait_for(lambda: _alive(host, numbers, settled), 30, f"round {r + 1}'s presses")
            for n in numbers:
                if observer.move_count(n) > done[n][0]:
                    got, received_ns = observer.last_move(n)
                    pressed_ns = sim.clocks[n - 1].press_ns
                    if got != point or pressed_ns is None:
                        raise RuntimeError(f"table {n}: move {got} for {point}, press {pressed_ns}")
                    latencies.append(received_ns - pressed_ns)
            if any(observer.infraction_count(n) for n in numbers):
                break
        infractions = sum(observer.infraction_count(n) for n in numbers)
        if not latencies:
            raise RuntimeError("no press after a stone was judged a move")
        return p99_ms(latencies), infractions
    finally:
        host.kill()
        if bus is not None:
            bus.close()
        sim.close()
        broker.stop()


def _stone(board: VirtualBoard, point: int, colour: int) -> Callable[[], None]:
    return lambda: board.set_cell(point, colour)


def _press(clock: VirtualClock, button: int) -> Callable[[], None]:
    return lambda: clock.press(button, monotonic_ms())


def _alive(host: HostProcess, numbers: range, ready: Callable[[int], bool]) -> bool:
    host.check_alive()
    return all(ready(n) for n in numbers)


def flag_to_paused_ms_max(folder: Path) -> float:
    """The slowest of 24 tables from Black's flag to its ``paused`` state on the bus (see
    the module docstring)."""
    broker = Broker(folder)
    broker.start()
    sim = SimTables(TABLES)
    observer = Observer()
    venue_id = new_venue_id()
    config = write_venue(folder, venue_id, broker.url, sim, time_control=FLAG_CONTROL)
    host = HostProcess(config, folder / "state")
    bus = None
    numbers = range(1, TABLES + 1)
    wall_minus_monotonic_ns = time.time_ns() - time.monotonic_ns()
    flags_ms: dict[int, int] = {}
    try:
        bus = subscribe_observer(broker.url, venue_id, observer)
        host.start()

        def flagged(n: int) -> bool:
            with observer.lock:
                got = observer.states.get(n)
            if got is None:
                return False
            state = got[0]
            if state.status == "playing" and state.running == "black":
                flags_ms[n] = state.at_ms + state.black_ms
            return state.status == "paused" and state.black_ms <= 0 and n in flags_ms

        def all_flagged() -> bool:
            host.check_alive()
            return all([flagged(n) for n in numbers])  # each table looked at, every time

        wait_for(all_flagged, 60, "24 flags told")
        delays = []
        for n in numbers:
            with observer.lock:
                received_ns = observer.states[n][1]
            received_ms = (received_ns + wall_minus_monotonic_ns) // 1_000_000
            delays.append(received_ms - flags_ms[n])
        return float(max(delays))
    finally:
        host.kill()
        if bus is not None:
            bus.close()
        sim.close()
        broker.stop()


# --- recovery --------------------------------------------------------------------------


def write_games(journal: Journal, venue_id: str, tables: int, moves: int) -> None:
    """A ``moves``-move game in progress on each table, journaled as the host would have,
    with every published event acknowledged (nothing left to resend), and the table's
    snapshot as a host's heartbeat leaves it at its worst: ``SNAPSHOT_TAIL_MOVES`` moves
    (about ``SNAPSHOT_EVERY`` events) before the end, so recovery replays those."""
    setup = TableSetup(ruleset="freestyle", opening="free", time_control="600+5")
    points = game_moves(moves)
    for n in range(1, tables + 1):
        runtime = TableRuntime(number=n, venue=venue_id)
        records: list[Record] = list(runtime.begin(S, WALL_MS, setup))
        t, colour, seat = S, Colour.BLACK, Seat.FIRST
        kept: tuple[int, bytes] | None = None
        for index, point in enumerate(points):
            if index == len(points) - SNAPSHOT_TAIL_MOVES:
                kept = len(records), snapshots.dump(runtime)  # seq = records so far
            t += S
            records += runtime.feed(StoneSettled(now_ns=t, point=point, colour=colour), WALL_MS)
            t += S
            records += runtime.feed(ClockPressed(now_ns=t, seat=seat), WALL_MS)
            colour, seat = colour.other, seat.other
        session = runtime.session
        if session is None or session.game.is_over:
            raise RuntimeError(f"table {n}: the bench game ended before {moves} moves")
        entries = journal.append_many(
            [(runtime.id, r.kind, r.payload, r.t_ms, r.publish) for r in records]
        )
        for entry in entries:
            runtime.note_journaled(entry.kind, entry.id, entry.payload)
        journal.mark_sent(entry.id for entry in entries)
        if kept is not None:
            journal.save_snapshot(runtime.id, kept[0], snapshots.format_id(), kept[1])


def recovery_s(folder: Path, starts: int = STARTS) -> float:
    """Median seconds, over ``starts`` starts, from spawning ``wuzi host`` on the journal
    until all 24 tables are paused on the bus (see the module docstring). The journal is
    written once; each start recovers its own copy of it, with its own broker and
    devices."""
    venue_id = new_venue_id()
    template = folder / "template.journal"
    with Journal.open(template, HOST_ID) as journal:
        write_games(journal, venue_id, TABLES, RECOVERY_MOVES)
    times = [_start_s(folder / f"start{index}", venue_id, template) for index in range(starts)]
    return statistics.median(times)


def cold_start_s(folder: Path, starts: int = STARTS) -> float:
    """Median seconds, over ``starts`` starts, from spawning ``wuzi host`` on an empty
    state folder until all 24 tables serve: each has begun its standalone game, opened
    its board and clock, and put its state on the bus (see the module docstring)."""
    venue_id = new_venue_id()
    times = [_start_s(folder / f"start{index}", venue_id, None) for index in range(starts)]
    return statistics.median(times)


def _start_s(folder: Path, venue_id: str, journal: Path | None) -> float:
    """One start on a fresh broker and devices: the host recovers a copy of ``journal``
    (its tables are then awaited ``paused``), or starts on an empty state folder (None:
    awaited ``playing``)."""
    folder.mkdir(parents=True)
    broker = Broker(folder)
    broker.start()
    sim = SimTables(TABLES)
    observer = Observer()
    host = HostProcess(write_venue(folder, venue_id, broker.url, sim), folder / "state")
    bus = None
    try:
        host.state_dir.mkdir(parents=True, exist_ok=True)
        if journal is not None:
            shutil.copyfile(journal, host.journal_path)
        bus = subscribe_observer(broker.url, venue_id, observer)
        started_ns = time.monotonic_ns()
        host.start()
        want = "paused" if journal is not None else "playing"

        def ready(n: int) -> bool:
            state = observer.state_since(n, started_ns)
            return state is not None and state.status == want

        wait_for(lambda: _all_alive(host, ready), 30, f"24 tables {want}")
        return (time.monotonic_ns() - started_ns) / 1e9
    finally:
        host.kill()
        if bus is not None:
            bus.close()
        sim.close()
        broker.stop()
