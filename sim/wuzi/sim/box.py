"""A whole venue in a box for ``wuzi bench host``: a real Mosquitto, simulated tables on
ptys, a ``wuzi host`` process, and an observer on the bus that timestamps what it hears.

This is the machinery of tests/host/host_harness.py, kept in the package because the
bench must run from an installed ``wuzi`` (it cannot import the tests). It raises
``RuntimeError`` where the tests fail: a bench without a broker has nothing to measure.

Timing: every instant here is ``time.monotonic_ns()`` read in this one process — the
simulated clock unit's press frame (``TimedClock``, in the simulator's thread) and the
observer's receipt of a message (in paho's network thread) — so their differences are
comparable without any clock synchronisation.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import threading
import time
import uuid
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from wuzi.bus.client import BusClient
from wuzi.bus.identity import throwaway_client_id
from wuzi.bus.newest import supersedes
from wuzi.bus.schemas import Message, RefereeState, TableEvent, TableState
from wuzi.sim.devices.runner import monotonic_ms, run_boards
from wuzi.sim.devices.virtual_board import VirtualBoard
from wuzi.sim.devices.virtual_clock import VirtualClock
from wuzi.sim.venue_file import table_toml

__all__ = [
    "HOST_ID",
    "Broker",
    "HostProcess",
    "Observer",
    "SimTables",
    "TimedClock",
    "find_mosquitto",
    "free_port",
    "new_venue_id",
    "subscribe_observer",
    "wait_for",
    "write_venue",
]

HOST_ID = "pi-bench"
PRESS_HISTORY = 16  # presses a clock unit remembers (``TimedClock.presses_ns``)
_CANDIDATES = ("/usr/sbin/mosquitto", "/usr/local/sbin/mosquitto", "/opt/homebrew/sbin/mosquitto")


def find_mosquitto() -> str:
    found = shutil.which("mosquitto") or next(
        (path for path in _CANDIDATES if os.access(path, os.X_OK)), None
    )
    if found is None:
        raise RuntimeError(
            "mosquitto is not installed; the host bench needs a real broker "
            "(`sudo scripts/system-deps.sh` or `apt-get install mosquitto`)"
        )
    return found


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def wait_for(condition: Callable[[], bool], timeout_s: float, what: str) -> None:
    """Poll ``condition`` every millisecond; RuntimeError naming ``what`` on timeout."""
    deadline = time.monotonic() + timeout_s
    while not condition():
        if time.monotonic() > deadline:
            raise RuntimeError(f"timed out after {timeout_s} s waiting for {what}")
        time.sleep(0.001)


class Broker:
    """One Mosquitto on a free localhost port, configured in ``directory``."""

    def __init__(
        self,
        directory: Path,
        *,
        persistent: bool = False,
        autosave_interval_s: int = 5,
        log_types: tuple[str, ...] = ("error", "warning"),
        websockets: bool = False,
    ) -> None:
        """``persistent``: keep retained messages and queued QoS 1 messages of persistent
        sessions across a restart, as a venue's broker does (saved every
        ``autosave_interval_s``, 0: only when the broker stops). ``log_types``: what goes
        to ``mosquitto.log`` in ``directory``. ``websockets``: a second loopback listener
        speaking MQTT over WebSockets, for the spectators' page in a browser (``ws_url``;
        "" without)."""
        self.binary = find_mosquitto()
        self.directory = directory
        self.port = free_port()
        self.url = f"mqtt://127.0.0.1:{self.port}"
        self.log_path = directory / "mosquitto.log"
        self.config_path = directory / "mosquitto.conf"
        lines = [
            f"listener {self.port} 127.0.0.1",
            "allow_anonymous true",
            # as the venue broker (wuzi.venue.broker_config): Mosquitto's default of 1000
            # queued messages per away client would drop a persistent session's backlog
            "max_queued_messages 100000",
            "max_queued_bytes 0",
            "max_inflight_messages 100",
            f"persistence {'true' if persistent else 'false'}",
            f"persistence_location {directory}/",
            "persistence_file mosquitto.db",
            f"autosave_interval {autosave_interval_s}",
            "log_dest stderr",
            *(f"log_type {kind}" for kind in log_types),
        ]
        if os.geteuid() == 0:  # as root Mosquitto would drop to a user that cannot write here
            lines.append("user root")
        self.ws_url = ""
        if websockets:
            ws_port = free_port()
            self.ws_url = f"ws://127.0.0.1:{ws_port}/"
            lines += [f"listener {ws_port} 127.0.0.1", "protocol websockets"]
        self.config_path.write_text("\n".join(lines) + "\n")
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        """Start it and wait until it listens; ``RuntimeError`` with its log if it cannot."""
        assert self.process is None, "broker already running"
        with self.log_path.open("ab") as log:
            self.process = subprocess.Popen(  # a Ctrl-C reaches its owner, who stops it last
                [self.binary, "-c", str(self.config_path)],
                stdout=log,
                stderr=subprocess.STDOUT,
                process_group=0,
            )
        deadline = time.monotonic() + 10.0
        while True:
            if self.process.poll() is not None:
                raise RuntimeError(f"mosquitto exited at start:\n{self.log_text()}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                    return
            except OSError:
                if time.monotonic() > deadline:
                    self.stop()
                    raise RuntimeError(f"mosquitto did not listen:\n{self.log_text()}") from None
                time.sleep(0.02)

    def stop(self) -> None:
        """SIGTERM (Mosquitto saves its persistence file, if on) and wait for the exit."""
        if self.process is None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout=5.0)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=5.0)
        self.process = None

    def restart(self) -> None:
        self.stop()
        self.start()

    def log_text(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""


class TimedClock(VirtualClock):
    """A clock unit that notes the instant its MCU emits a press frame.

    The firmware's debouncer emits the frame when the press has been stable for its
    debounce window, so ``press_ns`` is the first instant the host *could* know of the
    press: the debounce window (a property of the buttons, not of the host) is excluded.
    ``presses_ns`` keeps the last few such instants (a screen's sighting, read later by
    another process, is matched with the press before it).
    """

    def __init__(self, *, serial: str, seed: int) -> None:
        super().__init__(serial=serial, seed=seed)
        self.press_ns: int | None = None
        self.presses_ns: deque[int] = deque(maxlen=PRESS_HISTORY)

    def boot(self, now_ms: int) -> None:
        super().boot(now_ms)
        mcu = self.mcu
        assert mcu is not None
        record = mcu._record

        def timed(button: int, t_ms: int) -> None:
            self.press_ns = time.monotonic_ns()
            self.presses_ns.append(self.press_ns)
            record(button, t_ms)

        mcu._record = timed  # type: ignore[method-assign, assignment]


class SimTables:
    """The simulated boards and clock units of ``count`` tables, served from a thread."""

    def __init__(self, count: int, seed: int = 1, *, point_leds: bool = False) -> None:
        """``point_leds``: every board a ``sensor-rev-b`` with a LED under each point."""
        self.boards = [
            VirtualBoard(seed=seed + i, serial=f"SIM-{i + 1:04d}", point_leds=point_leds)
            for i in range(count)
        ]
        self.clocks = [
            TimedClock(seed=seed + 100 + i, serial=f"SIMCLK-{i + 1:04d}") for i in range(count)
        ]
        self.board_paths = [b.open_pty() for b in self.boards]
        self.clock_paths = [c.open_pty() for c in self.clocks]
        now = monotonic_ms()
        devices: list[VirtualBoard | VirtualClock] = [*self.boards, *self.clocks]
        for device in devices:
            device.boot(now)
        self._stop = threading.Event()
        self._thread = threading.Thread(
            target=run_boards,
            args=([*self.boards, *self.clocks],),
            kwargs={"stop": self._stop.is_set},
            daemon=True,
        )
        self._thread.start()

    def place(self, table: int, point: int, colour: int) -> None:
        board = self.boards[table - 1]
        board.at(0, lambda: board.set_cell(point, colour))

    def press(self, table: int, button: int) -> None:
        clock = self.clocks[table - 1]
        clock.press_ns = None
        clock.press(button, monotonic_ms())

    def close(self) -> None:
        self._stop.set()
        self._thread.join(5)
        for device in (*self.boards, *self.clocks):
            device.close()


@dataclass
class Observer:
    """What the host publishes, with the instant each message arrived; an older state
    than the one held (`wuzi.bus.newest`) is not taken."""

    moves: dict[int, list[tuple[int, int]]] = field(default_factory=dict)  # (point, ns)
    states: dict[int, tuple[TableState, int]] = field(default_factory=dict)
    referee: dict[int, RefereeState] = field(default_factory=dict)
    seen: set[str] = field(default_factory=set)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def __call__(self, topic: str, message: Message) -> None:
        now_ns = time.monotonic_ns()
        with self.lock:
            if isinstance(message, TableEvent):
                if message.kind == "move" and message.event_id not in self.seen:
                    self.seen.add(message.event_id)
                    point = int(message.data["point"])
                    self.moves.setdefault(message.table, []).append((point, now_ns))
            elif isinstance(message, TableState) and "/public/" not in topic:
                held = self.states.get(message.table)
                if supersedes(message, held[0] if held is not None else None):
                    self.states[message.table] = (message, now_ns)
            elif isinstance(message, RefereeState) and supersedes(
                message, self.referee.get(message.table)
            ):
                self.referee[message.table] = message

    def pending_stone(self, table: int) -> int | None:
        with self.lock:
            state = self.referee.get(table)
        return None if state is None else state.pending_stone

    def move_count(self, table: int) -> int:
        with self.lock:
            return len(self.moves.get(table, []))

    def last_move(self, table: int) -> tuple[int, int]:
        with self.lock:
            return self.moves[table][-1]

    def state_since(self, table: int, since_ns: int) -> TableState | None:
        """The table's latest state, if it arrived at or after ``since_ns``."""
        with self.lock:
            got = self.states.get(table)
        return got[0] if got is not None and got[1] >= since_ns else None


def subscribe_observer(broker_url: str, venue_id: str, observer: Observer) -> BusClient:
    bus = BusClient(broker_url, throwaway_client_id(venue_id, "tool"))
    bus.subscribe(f"wuzi/v1/{venue_id}/#", observer)
    bus.connect()
    if not (bus.wait_connected(10) and bus.wait_subscribed(10)):
        bus.close()
        raise RuntimeError(f"the observer could not subscribe on {broker_url}")
    return bus


def new_venue_id() -> str:
    return "bench" + uuid.uuid4().hex[:10]


def write_venue(
    folder: Path,
    venue_id: str,
    broker_url: str,
    sim: SimTables,
    ruleset: str = "freestyle",
    time_control: str = "600+5",
) -> Path:
    """The venue file of one host serving every table of ``sim`` (standalone games)."""
    lines = [
        "[venue]",
        f'id = "{venue_id}"',
        'name = "Host bench"',
        "[broker]",
        f'url = "{broker_url}"',
        "[[hosts]]",
        f'id = "{HOST_ID}"',
    ]
    for n, (board, clock) in enumerate(zip(sim.board_paths, sim.clock_paths, strict=True), 1):
        lines += table_toml(n, board, clock)
    lines += [
        "[defaults]",
        f'ruleset = "{ruleset}"',
        'opening = "free"',
        f'time_control = "{time_control}"',
    ]
    path = folder / "venue.toml"
    path.write_text("\n".join(lines) + "\n")
    return path


class HostProcess:
    """``python -m wuzi.cli host`` on the venue file, standalone, no control socket."""

    def __init__(self, config: Path, state_dir: Path) -> None:
        self.config = config
        self.state_dir = state_dir
        self.log_path = state_dir.parent / "host.log"
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def journal_path(self) -> Path:
        return self.state_dir / f"{HOST_ID}.journal"

    def start(self) -> None:
        self.state_dir.mkdir(parents=True, exist_ok=True)
        args = [sys.executable, "-m", "wuzi.cli", "host", "--config", str(self.config)]
        args += ["--host", HOST_ID, "--state-dir", str(self.state_dir)]
        args += ["--standalone", "--control-socket", "none"]
        with self.log_path.open("ab") as log:
            self.process = subprocess.Popen(args, stdout=log, stderr=subprocess.STDOUT)

    def check_alive(self) -> None:
        if self.process is not None and self.process.poll() is not None:
            raise RuntimeError(f"wuzi host exited:\n{self.log_path.read_text(errors='replace')}")

    def kill(self) -> None:
        if self.process is None:
            return
        self.process.kill()
        self.process.wait(10)
        self.process = None
