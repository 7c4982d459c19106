"""``wuzi bench link``'s noisy line: tables whose board and clock unit both sit on a line
with a bit error rate of 1e-3 and 1 % of frames dropped each way (issue 32).

Each table is a virtual board and a virtual clock unit on ptys, served from one thread
(``run_devices``) as the simulators serve them, read by a ``BoardDriver`` and a
``ClockDriver`` in a ``LinkLoop`` as a host reads them. Both links come up on a clean
line; the noise starts once they are up (the instant stated: ``noise_at``), and then a
player places a stone every ``MOVE_MS`` and presses the clock ``PRESS_AFTER_MS`` later.
Each press is judged as the host judges it, by the host's own ``PressGate``
(``wuzi.table.press_gate``): held until the board vouches for its instant
(``settled_through``, asked with ``vouch_now`` and again with ``ask_now``), for at most
``PRESS_SETTLE_MAX_MS`` while the board's link is up, and kept through a link down.

* ``link.noise_1e-3_false_link_downs_per_h``: link_down events of either device after
  both were up, per hour of a table's line (target 0: nothing is broken).
* ``link.noise_1e-3_stones_recorded_pct``: stones whose press was vouched for in time with
  the stone already reported at its point, in its colour — a move the host records — over
  the stones placed (target 100).
"""

from __future__ import annotations

import functools
import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from wuzi.clock.control import NS_PER_MS
from wuzi.io.serial_link import BoardDriver, ClockDriver, Driver, LinkLoop
from wuzi.link import wire
from wuzi.link.board_link import BoardLink
from wuzi.link.reconciler import LINK_DOWN, Alert, StoneEvent
from wuzi.link.session import ClockSession, LinkDown, Press
from wuzi.sim.devices.runner import monotonic_ms, run_devices
from wuzi.sim.devices.virtual_board import Faults, VirtualBoard
from wuzi.sim.devices.virtual_clock import VirtualClock
from wuzi.table.buttons import CLAIM_BUTTON
from wuzi.table.press_gate import PRESS_SETTLE_MAX_MS, Decision, Feed, Judge, NotJudged, PressGate

Emit = Callable[[str, float, str], None]

BER = 1e-3
DROP = 0.01
MOVE_MS = 1200
PRESS_AFTER_MS = 300
SETTLE_MS = 150
UP_TIMEOUT_S = 10.0


@dataclass
class _Table:
    board: VirtualBoard
    clock: VirtualClock
    board_driver: BoardDriver
    clock_driver: ClockDriver
    placed: list[tuple[int, int]] = field(default_factory=list)  # (point, code), in order
    reported: dict[int, int] = field(default_factory=dict)  # point -> code, stones fed
    gate: PressGate[StoneEvent] = field(default_factory=lambda: PressGate(CLAIM_BUTTON))
    judged: int = 0  # presses judged so far (the n-th press judges the n-th stone)
    recorded: int = 0
    downs: int = 0

    def on_event(self, drv: Driver, ev: object, now_ms: int) -> None:
        now_ns = now_ms * NS_PER_MS
        if isinstance(ev, StoneEvent):
            self._carry_out(self.gate.report(ev, ev.at_ms * NS_PER_MS, now_ns, self.board_driver))
        elif isinstance(ev, Press):
            ticket = self.board_driver.vouch_now(now_ms)
            self.gate.press(ev.button, ev.at_ms * NS_PER_MS, now_ns, ticket)
        elif (isinstance(ev, Alert) and ev.kind == LINK_DOWN) or isinstance(ev, LinkDown):
            self.downs += 1

    def judge(self, now_ms: int) -> None:
        """Judge the presses the board now vouches for, in order: the host's own gate."""
        self._carry_out(self.gate.release(now_ms * NS_PER_MS, self.board_driver))

    def _carry_out(self, decisions: list[Decision[StoneEvent]]) -> None:
        for decision in decisions:
            if isinstance(decision, Feed):
                self.reported[decision.report.point] = int(decision.report.colour)
            elif isinstance(decision, Judge):
                n = self.judged
                stone = self.placed[n] if n < len(self.placed) else None
                self.judged += 1
                self.recorded += stone is not None and self.reported.get(stone[0]) == stone[1]
            elif isinstance(decision, NotJudged):
                self.judged += 1
            else:  # AskBoard: one question, one round trip
                self.board_driver.ask_now(decision.now_ms, decision.through_ms)


def _table(seed: int) -> _Table:
    board = VirtualBoard(serial=f"SIM-N{seed:03d}", seed=seed)
    clock = VirtualClock(serial=f"SIMCLK-N{seed:03d}", seed=seed + 1000)
    now = monotonic_ms()
    for device in (board, clock):
        device.open_pty()
        device.boot(now)
    board_driver = BoardDriver(board.path, BoardLink(settle_ms=SETTLE_MS, port_name=board.path))
    clock_driver = ClockDriver(clock.path, ClockSession(port_name=clock.path))
    return _Table(board, clock, board_driver, clock_driver)


def _play(table: _Table, start_ms: int, moves: int, rng: random.Random) -> None:
    """Schedule ``moves`` stones from ``start_ms``, each pressed ``PRESS_AFTER_MS`` after."""
    points = rng.sample(range(wire.POINTS), moves)
    for n, point in enumerate(points):
        code = wire.BLACK if n % 2 == 0 else wire.WHITE
        at = start_ms + n * MOVE_MS
        table.placed.append((point, code))
        table.board.at(at, functools.partial(table.board.set_cell, point, code))
        table.clock.press(n % 2, at + PRESS_AFTER_MS)


def measure(tables: int, run_s: float, seed: int = 1) -> tuple[float, float, int]:
    """(false link_downs per hour of a table's line, % of stones recorded, stones placed)."""
    rng = random.Random(seed)
    made = [_table(seed + 10 * k) for k in range(tables)]
    devices: list[VirtualBoard | VirtualClock] = [d for t in made for d in (t.board, t.clock)]
    # what the measuring thread wants done to the devices, done by their own thread at its
    # next turn (a device's schedule is not shared between threads)
    pending: list[Callable[[], None]] = []
    stop = threading.Event()

    def on_tick(now_ms: int) -> None:
        while pending:
            pending.pop(0)()

    served = threading.Thread(
        target=run_devices,
        args=(devices,),
        kwargs={"stop": stop.is_set, "on_tick": on_tick},
        daemon=True,
    )
    served.start()
    loop = LinkLoop()
    by_driver: dict[object, _Table] = {}
    for t in made:
        for drv in (t.board_driver, t.clock_driver):
            loop.add(drv)
            by_driver[drv] = t

    def on_event(drv: Driver, ev: object) -> None:
        by_driver[drv].on_event(drv, ev, loop.clock())

    try:
        deadline = time.monotonic() + UP_TIMEOUT_S
        while any(d.link_down for t in made for d in (t.board_driver, t.clock_driver)):
            if time.monotonic() > deadline:
                raise RuntimeError("bench link noise: the devices never came up")
            loop.run_once(on_event, max_wait_ms=20)
        for t in made:
            t.downs = 0  # the start-up is not the line's
        noise_at = monotonic_ms()
        moves = max(1, int((run_s * 1000 - PRESS_SETTLE_MAX_MS - 500) // MOVE_MS))

        def noisy(t: _Table, k: int) -> None:
            t.board.faults = Faults(ber=BER, drop=DROP, seed=seed + 100 + k)
            t.clock.faults = Faults(ber=BER, drop=DROP, seed=seed + 200 + k)
            _play(t, noise_at + 500, moves, rng)

        for k, t in enumerate(made):
            pending.append(functools.partial(noisy, t, k))
        end = noise_at + int(run_s * 1000)
        while monotonic_ms() < end:
            loop.run_once(on_event, max_wait_ms=20)
            now = loop.clock()
            for t in made:
                t.judge(now)
        hours = (monotonic_ms() - noise_at) / 3_600_000 * tables
    finally:
        loop.close()
        stop.set()
        served.join(5)
        for t in made:
            t.board.close()
            t.clock.close()
    placed = sum(len(t.placed) for t in made)
    recorded = sum(t.recorded for t in made)
    downs = sum(t.downs for t in made)
    return downs / hours, 100.0 * recorded / max(1, placed), placed


def run(emit: Emit, quick: bool) -> None:
    tables, run_s = (1, 8.0) if quick else (3, 25.0)
    downs_per_h, recorded_pct, _ = measure(tables, run_s)
    emit("link.noise_1e-3_false_link_downs_per_h", downs_per_h, "count/h")
    emit("link.noise_1e-3_stones_recorded_pct", recorded_pct, "%")
