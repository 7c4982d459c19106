"""``wuzi bench clock``: live clocks on the real monotonic clock.

This is the shell around the pure core, written the way a table host would be: it reads
``time.monotonic_ns()`` (the core never does), keeps one timer list (``Scheduler``) of
every clock's next due instant — the next visible change, which includes the flag, or the
next simulated press — sleeps until the earliest one and handles what is due.

Figures:

* ``clock.flag_error_p999_ms`` — many short games on live clocks (≥ 60 s; a few seconds
  with ``--quick``) with random think times, across sudden death, Fischer, byo-yomi,
  simple delay and Bronstein. Each flag the clock reports is compared with the exact due
  instant computed by an independent model of the control from the same real press
  instants. Target < 1 ms.
* ``clock.flag_seen_late_p999_ms`` — how long after the due instant the host noticed the
  flag (its wake-up latency: what a referee alert waits for; the reported instant does not
  depend on it).
* ``clock.cpu_pct_200_clocks`` — 200 running clocks in one process, each announcing every
  visible change of its display on time (the display text and a JSON message built per
  announcement), with random presses: process CPU time / wall time over 20 s (3 s with
  ``--quick``), in % of one core. Target < 5 %.
* ``clock.announce_late_p99_ms`` — how late those announcements were, p99.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable
from dataclasses import dataclass

from wuzi.clock.clock import Clock
from wuzi.clock.control import NS_PER_MS, NS_PER_S, Bonus, OvertimeKind, TimeControl, parse_control
from wuzi.clock.schedule import Scheduler
from wuzi.rules.procedure import Seat

Emit = Callable[[str, float, str], None]

FLAG_CONTROLS = ("1.5", "1+0.2", "0.5:3x0.4", "1d0.2", "1b0.3", "0.6:c3/0.8")
LONG_CONTROLS = ("2700+30", "3600", "300+3", "180+2")


def percentile(values: list[float], fraction: float) -> float:
    """The ``fraction`` quantile by the nearest-rank method (0.0 for no values)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(0, min(len(ordered) - 1, int(fraction * len(ordered) + 0.999999) - 1))
    return ordered[rank]


class Oracle:
    """An independent model of one game's time (written apart from ``wuzi.clock.timing``):
    at each turn it knows the exact instant the mover's flag is due."""

    def __init__(self, control: TimeControl) -> None:
        self.control = control
        if len(control.phases) != 1 or control.phases[0].moves is not None:
            raise ValueError("the oracle models one phase with optional byo-yomi")
        phase = control.phases[0]
        self.main = {Seat.FIRST: phase.time_ns, Seat.SECOND: phase.time_ns}
        overtime = control.overtime
        self.periods = {s: 0 if overtime is None else overtime.periods for s in Seat}
        self.block = {s: 0 for s in Seat}  # Canadian: time used / moves made in the block
        self.block_moves = {s: 0 for s in Seat}

    def time_to_flag(self, seat: Seat) -> int:
        """At the start of ``seat``'s turn: how long until its flag falls."""
        phase = self.control.phases[0]
        delay = phase.bonus_ns if phase.bonus is Bonus.DELAY else 0
        overtime = self.control.overtime
        extra = 0
        if overtime is not None and overtime.kind is OvertimeKind.BYOYOMI:
            extra = self.periods[seat] * overtime.period_ns
        elif overtime is not None:
            extra = overtime.period_ns - self.block[seat]
        return delay + self.main[seat] + extra

    def pressed(self, seat: Seat, used: int) -> None:
        """``seat`` pressed after ``used`` ns of its turn (before its flag)."""
        phase = self.control.phases[0]
        overtime = self.control.overtime
        if phase.bonus is Bonus.DELAY:
            used = max(0, used - phase.bonus_ns)
        main = self.main[seat]
        in_main = min(used, main)
        self.main[seat] = main - in_main
        over = used - in_main
        in_overtime = self.main[seat] == 0  # the press is made in byo-yomi
        if phase.bonus is Bonus.FISCHER:
            self.main[seat] += phase.bonus_ns
        if phase.bonus is Bonus.BRONSTEIN:
            self.main[seat] += min(used, phase.bonus_ns)
        if overtime is not None and overtime.kind is OvertimeKind.BYOYOMI:
            self.periods[seat] -= over // overtime.period_ns  # a move resets the period
        elif overtime is not None and in_overtime:
            self.block[seat] += over
            self.block_moves[seat] += 1
            if self.block_moves[seat] == overtime.moves:
                self.block[seat], self.block_moves[seat] = 0, 0


@dataclass
class LiveGame:
    """One table of the flag benchmark: a clock, its oracle, the next press."""

    clock: Clock
    oracle: Oracle
    turn_start_ns: int
    due_ns: int  # the oracle's flag instant for the side to move
    press_at_ns: int
    rng: random.Random
    over: bool = False

    @classmethod
    def new(cls, spec: str, now_ns: int, rng: random.Random) -> LiveGame:
        control = parse_control(spec)
        clock = Clock(control)
        oracle = Oracle(control)
        clock.start(now_ns)
        game = cls(clock, oracle, now_ns, now_ns + oracle.time_to_flag(Seat.FIRST), 0, rng)
        game.press_at_ns = now_ns + game.think_ns()
        return game

    def think_ns(self) -> int:
        """A random think time: mostly quick, sometimes long enough to flag."""
        if self.rng.random() < 0.85:
            return self.rng.randrange(20, 350) * NS_PER_MS
        return self.rng.randrange(350, 2500) * NS_PER_MS

    def next_due_ns(self, now_ns: int) -> int:
        change = self.clock.next_visible_change_ns(now_ns)
        return self.press_at_ns if change is None else min(change, self.press_at_ns)


def _flag_bench(emit: Emit, seconds: float, tables: int = 64) -> None:
    rng = random.Random(20260603)
    errors: list[float] = []
    late: list[float] = []
    mismatches = 0
    start = time.monotonic_ns()
    stop = start + int(seconds * NS_PER_S)
    games: dict[int, LiveGame] = {}
    timers: Scheduler[int] = Scheduler()
    for table in range(tables):
        games[table] = LiveGame.new(FLAG_CONTROLS[table % len(FLAG_CONTROLS)], start, rng)
        timers.set(table, games[table].next_due_ns(start))
    while True:
        due = timers.next_due_ns()
        now = time.monotonic_ns()
        if due is not None and due > now:
            time.sleep((due - now) / NS_PER_S)
            now = time.monotonic_ns()
        if now >= stop:
            break
        for _, table in timers.pop_due(now):
            game = games[table]
            now = time.monotonic_ns()
            clock = game.clock
            if game.press_at_ns <= now:
                seat = clock.state.turn
                result = clock.press(now)
                if result.accepted and seat is not None:
                    game.oracle.pressed(seat, now - game.turn_start_ns)
                    game.turn_start_ns = now
                    game.due_ns = now + game.oracle.time_to_flag(seat.other)
                    game.press_at_ns = now + game.think_ns()
            view = clock.view(now)  # what the host announces
            flag = view.first_flag
            if flag is not None:
                errors.append(abs(flag.t_ns - game.due_ns) / NS_PER_MS)
                late.append((now - flag.t_ns) / NS_PER_MS)
                if flag.t_ns != game.due_ns:
                    mismatches += 1
                spec = FLAG_CONTROLS[rng.randrange(len(FLAG_CONTROLS))]
                games[table] = game = LiveGame.new(spec, now, rng)
            timers.set(table, game.next_due_ns(now))
    emit("clock.flag_error_p999_ms", percentile(errors, 0.999), "ms")
    emit("clock.flag_error_max_ms", max(errors, default=0.0), "ms")
    emit("clock.flag_seen_late_p999_ms", percentile(late, 0.999), "ms")
    emit("clock.flags_measured", float(len(errors)), "flags")
    if mismatches:
        emit("clock.flag_mismatches", float(mismatches), "flags")


def _cpu_bench(emit: Emit, seconds: float, clocks: int = 200) -> None:
    """200 running clocks, each announcing every visible change of its display on time."""
    rng = random.Random(7)
    start = time.monotonic_ns()
    tables: list[Clock] = []
    timers: Scheduler[tuple[int, str]] = Scheduler()

    def think_ns() -> int:
        return rng.randrange(4, 80) * NS_PER_S // 4  # 1 to 20 s

    for i in range(clocks):
        # every tenth table in byo-yomi (tenths for the last 10 s of every 20 s period)
        spec = "5x20" if i % 10 == 0 else LONG_CONTROLS[i % len(LONG_CONTROLS)]
        clock = Clock(spec)
        begun = start + rng.randrange(0, NS_PER_S)  # tables started at different instants
        clock.start(begun)
        tables.append(clock)
        timers.set((i, "show"), clock.next_visible_change_ns(begun))
        timers.set((i, "press"), begun + think_ns())
    lateness: list[float] = []
    announcements = 0
    wall0 = time.monotonic_ns()
    cpu0 = time.process_time_ns()
    stop = wall0 + int(seconds * NS_PER_S)
    while True:
        due = timers.next_due_ns()
        now = time.monotonic_ns()
        if due is not None and due > now:
            time.sleep((due - now) / NS_PER_S)
            now = time.monotonic_ns()
        if now >= stop:
            break
        for due_ns, (i, what) in timers.pop_due(now):
            clock = tables[i]
            if what == "press":
                clock.press(now)
                timers.set((i, "press"), now + think_ns())
            else:
                lateness.append((now - due_ns) / NS_PER_MS)
            view = clock.view(now)
            message = {
                "table": i,
                "t_ns": view.t_ns,
                "first": view.first.text,
                "second": view.second.text,
                "running": None if view.running is None else view.running.value,
            }
            json.dumps(message)  # what would go to the display
            announcements += 1
            timers.set((i, "show"), view.next_change_ns)
    wall = time.monotonic_ns() - wall0
    cpu = time.process_time_ns() - cpu0
    emit("clock.cpu_pct_200_clocks", 100.0 * cpu / wall, "%")
    emit("clock.announce_late_p99_ms", percentile(lateness, 0.99), "ms")
    emit("clock.announcements_per_s", announcements / (wall / NS_PER_S), "1/s")


def run(emit: Emit, quick: bool) -> None:
    _flag_bench(emit, 4.0 if quick else 62.0)
    _cpu_bench(emit, 3.0 if quick else 20.0)
