"""``wuzi bench link``: latency of one board and CPU for 32, over real ptys and real pyserial.

* ``link.event_latency_p99_ms``: from the end of the MCU's debounce window (the simulated
  MCU writes its CHANGE frame; the simulator stamps it with CLOCK_MONOTONIC, which both
  processes share) to the reconciled stone event on the host, minus the host's configured
  settle time: the cost of the link itself. The measured board is one of 32 served by the
  same loop (the other 31 play a move every 2 s each, as in ``link.cpu_pct_32_boards``), so
  its frames queue behind theirs as on a host serving a hall. The simulators are separate
  processes; a pty has no baud rate, so a real 115200-baud line adds ~1.5 ms for the 18-byte
  frame.
* ``link.change_to_event_minus_window_p99_ms``: the same from the moment the stone lands,
  minus the whole configured window (debounce scans x scan period + settle); it can be
  negative, since the MCU's first scan after a change comes 0..5 ms later.
* ``link.down_detect_{pulled,silent,stalled}_ms`` (max over the runs): from a board fault
  to the host's ``link_down`` alert, the board served in this process from a thread (a
  virtual board on a pty) and read by a `BoardDriver` as the host reads it. *pulled*: the
  device node closes (a cable out): seen at the next read, whatever the heartbeat.
  *silent*: the board goes on running but sends nothing (a broken data line): seen once
  no frame came for ``LINK_TIMEOUT_MS``. *stalled*: the board sends heartbeats but reads
  nothing (a wedged input): seen when the HELLO the host sends to a link that is quiet
  for ``PROBE_IDLE_MS`` goes unanswered for ``STALL_AFTER_MS``.
* ``link.noise_1e-3_false_link_downs_per_h`` and ``link.noise_1e-3_stones_recorded_pct``:
  tables whose board and clock unit sit on a line at a bit error rate of 1e-3 with 1 % of
  frames dropped, playing a stone and a press every 1.2 s (``wuzi.sim.bench.link_noise``;
  targets 0 and 100).
* ``link.cpu_pct_32_boards``: the host process's own CPU time (``time.process_time``) over
  wall time while it serves 32 boards with random play (a move every 2 s on each board), the
  boards running in two separate simulator processes.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

from wuzi.io.serial_link import BoardDriver, Driver, LinkLoop
from wuzi.link.board_link import BoardLink
from wuzi.link.reconciler import LINK_DOWN, Alert, StoneEvent
from wuzi.rules.board import point_name
from wuzi.sim.bench import link_noise
from wuzi.sim.devices.runner import monotonic_ms, run_devices
from wuzi.sim.devices.virtual_board import VirtualBoard

Emit = Callable[[str, float, str], None]

SCAN_MS = 5
DEBOUNCE_SCANS = 4
SETTLE_MS = 150
BOARDS = 32
PER_PROCESS = 16


def _wuzi() -> list[str]:
    return [sys.executable, "-m", "wuzi.cli"]


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    k = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[k]


def _latency(emit: Emit, quick: bool) -> None:
    stones = 20 if quick else 120
    gap = 260
    with tempfile.TemporaryDirectory() as tmp:
        script = Path(tmp) / "script.txt"
        trace = Path(tmp) / "trace.jsonl"
        lines = [
            f"{300 + i * gap} place {point_name(i)} {'black' if i % 2 == 0 else 'white'}"
            for i in range(stones)
        ]
        script.write_text("\n".join(lines) + "\n")
        sim = subprocess.Popen(
            [
                *_wuzi(),
                "sim",
                "board",
                "--script",
                str(script),
                "--trace",
                str(trace),
                "--seed",
                "1",
                "--linger",
                "1500",
            ],
            stdout=subprocess.PIPE,
            text=True,
        )
        assert sim.stdout is not None
        path = sim.stdout.readline().strip()
        others, other_paths = _spawn_boards(BOARDS - 1, seed=7)
        measured = BoardDriver(path, BoardLink(settle_ms=SETTLE_MS, port_name=path))
        loop = LinkLoop()
        loop.add(measured)
        for p in other_paths:
            loop.add(BoardDriver(p, BoardLink(settle_ms=SETTLE_MS, port_name=p)))
        seen: dict[str, int] = {}

        def on_event(drv: Driver, ev: object) -> None:
            if drv is measured and isinstance(ev, StoneEvent):
                seen[point_name(ev.point)] = time.monotonic_ns()

        deadline = time.monotonic() + 300 + stones * gap / 1000 + 20
        try:
            while len(seen) < stones and time.monotonic() < deadline and sim.poll() is None:
                loop.run_once(on_event)
        finally:
            loop.close()
            for process in [sim, *others]:
                process.terminate()
            for process in [sim, *others]:
                process.wait(10)
        placed: dict[str, int] = {}
        debounced: dict[str, int] = {}
        for line in trace.read_text().splitlines():
            rec = json.loads(line)
            if "sent" in rec:
                debounced.setdefault(rec["sent"], rec["t_ns"])
            elif rec["code"]:
                placed.setdefault(rec["point"], rec["t_ns"])
    # the first stones of a run may be replayed history (the host connects after the board
    # boots): only stones that went out live after the link was up measure the live path
    points = [p for p in seen if p in debounced and p in placed][2:]
    if not points:
        raise RuntimeError("bench link: no stone came through; is the simulator running?")
    # from the end of the MCU's debounce window (its CHANGE frame written) to the event
    lat = [(seen[p] - debounced[p]) / 1e6 - SETTLE_MS for p in points]
    # from the stone landing, less the configured window (debounce scans x period + settle)
    window_ms = DEBOUNCE_SCANS * SCAN_MS + SETTLE_MS
    total = [(seen[p] - placed[p]) / 1e6 - window_ms for p in points]
    emit("link.event_latency_p50_ms", _percentile(lat, 0.5), "ms")
    emit("link.event_latency_p99_ms", _percentile(lat, 0.99), "ms")
    emit("link.change_to_event_minus_window_p99_ms", _percentile(total, 0.99), "ms")


def _spawn_boards(count: int, seed: int) -> tuple[list[subprocess.Popen[str]], list[str]]:
    """``count`` boards with random play (a move every 2 s each), served by simulator
    processes of at most ``PER_PROCESS`` boards: the processes and the boards' ptys."""
    sizes = [min(PER_PROCESS, count - k) for k in range(0, count, PER_PROCESS)]
    sims = [
        subprocess.Popen(
            [
                *_wuzi(),
                "sim",
                "boards",
                "--count",
                str(size),
                "--move-ms",
                "2000",
                "--seed",
                str(seed + 100 * k),
            ],
            stdout=subprocess.PIPE,
            text=True,
        )
        for k, size in enumerate(sizes)
    ]
    paths = []
    for sim, size in zip(sims, sizes, strict=True):
        assert sim.stdout is not None
        paths += [sim.stdout.readline().strip() for _ in range(size)]
    return sims, paths


def _cpu(emit: Emit, quick: bool) -> None:
    boards = BOARDS
    measure_s = 5.0 if quick else 30.0
    sims, paths = _spawn_boards(boards, seed=0)
    loop = LinkLoop()
    drivers = [BoardDriver(p, BoardLink(settle_ms=SETTLE_MS, port_name=p)) for p in paths]
    for d in drivers:
        loop.add(d)
    count = [0]

    def on_event(drv: Driver, ev: object) -> None:
        if isinstance(ev, StoneEvent):
            count[0] += 1

    warm = time.monotonic() + 2.0
    while time.monotonic() < warm:
        loop.run_once(on_event)
    wall0, cpu0, stones0 = time.monotonic(), time.process_time(), count[0]
    while time.monotonic() < wall0 + measure_s:
        loop.run_once(on_event)
    wall, cpu = time.monotonic() - wall0, time.process_time() - cpu0
    connected = sum(1 for d in drivers if d.board.session.info is not None)
    loop.close()
    for sim in sims:
        sim.terminate()
    for sim in sims:
        sim.wait(10)
    if connected < boards:
        raise RuntimeError(f"bench link: only {connected} of {boards} boards connected")
    emit("link.cpu_pct_32_boards", 100.0 * cpu / wall, "%")
    emit("link.stones_per_s_32_boards", (count[0] - stones0) / wall, "stones/s")


FAULTS: dict[str, Callable[[VirtualBoard, int], None]] = {
    "pulled": lambda board, now_ms: board.close(),
    "silent": lambda board, now_ms: board.unplug(now_ms, 60_000),
    "stalled": lambda board, now_ms: board.stall(now_ms, 60_000),
}


def _detect_once(fault: str, seed: int) -> float:
    """One board, up and quiet for a moment, then ``fault``: ms from the fault (stamped by
    the simulator's thread as it acts) to the ``link_down`` alert read by the host side."""
    board = VirtualBoard(seed=seed)
    board.open_pty()
    board.boot(monotonic_ms())
    stop = threading.Event()
    served = threading.Thread(target=run_devices, args=([board],), kwargs={"stop": stop.is_set})
    served.start()
    loop = LinkLoop()
    driver = BoardDriver(board.path, BoardLink(settle_ms=SETTLE_MS, port_name=board.path))
    loop.add(driver)
    faulted_ns: list[int] = []
    down_ns: list[int] = []

    def act() -> None:
        faulted_ns.append(time.monotonic_ns())
        FAULTS[fault](board, board.now_ms)

    def on_event(drv: Driver, ev: object) -> None:
        if isinstance(ev, Alert) and ev.kind == LINK_DOWN and faulted_ns and not down_ns:
            down_ns.append(time.monotonic_ns())

    try:
        deadline = time.monotonic() + 10
        while driver.link_down or driver.board.session.info is None:
            if time.monotonic() > deadline:
                raise RuntimeError(f"bench link: the board on {board.path} never came up")
            loop.run_once(on_event, max_wait_ms=20)
        quiet = time.monotonic() + 1.5  # past the start-up traffic: a link at rest
        while time.monotonic() < quiet:
            loop.run_once(on_event, max_wait_ms=20)
        board.at(0, act)
        deadline = time.monotonic() + 15
        while not down_ns and time.monotonic() < deadline:
            loop.run_once(on_event, max_wait_ms=10)
        if not down_ns:
            raise RuntimeError(f"bench link: a {fault} board gave no link_down in 15 s")
        return (down_ns[0] - faulted_ns[0]) / 1e6
    finally:
        loop.close()
        stop.set()
        served.join(5)
        board.close()


def _down_detection(emit: Emit, quick: bool) -> None:
    runs = 1 if quick else 5
    for fault in FAULTS:
        times = [_detect_once(fault, seed) for seed in range(runs)]
        emit(f"link.down_detect_{fault}_ms", max(times), "ms")


def run(emit: Emit, quick: bool) -> None:
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    _latency(emit, quick)
    _down_detection(emit, quick)
    link_noise.run(emit, quick)
    _cpu(emit, quick)
