"""A linked game's two real hosts: halls A and B (`support.linked_halls`: three real
Mosquittos, each hall's bridged to the central one), host ``pi-1`` of each hall started as
systemd starts it (``wuzi host --standalone``), each with its own simulated boards and
clock units on ptys, started together from this process, and an observer on each hall's
broker (its all-seeing ``watcher`` account).

Link ``board-2`` joins table 2 of both halls and hall A owns it: the owner player (black)
sits at hall A's table 2, the away player (white) at hall B's. The players' hands
(`LinkedHands`) place their stones, press, and mirror the opponent's stone once their own
clock unit shows its point, as people at the two tables would.
"""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from support.host import REFEREE, TOKEN, Observer, wait_for
from support.linked_halls import WATCHER, WATCHER_PASSWORD, A, B, Halls, linked_halls
from wuzi.bus.auth import sign
from wuzi.bus.client import BusClient
from wuzi.bus.schemas import ArbiterCommand, RefereeState, TableEvent, TableState, encode
from wuzi.host.control import send_line
from wuzi.link import segments
from wuzi.rules.board import parse_point
from wuzi.sim.box import SimTables
from wuzi.table.away_table import HELD_TEXT, point_text

BLACK, WHITE = 1, 2
TABLE = 2  # board-2: hall A owns it
LINK = "board-2"


def face(text: str) -> bytes:
    return segments.text(text)


@dataclass
class LinkedHosts:
    halls: Halls
    sims: dict[str, SimTables]
    tmp: Path
    observers: dict[str, Observer] = field(default_factory=dict)
    buses: dict[str, BusClient] = field(default_factory=dict)
    processes: dict[str, subprocess.Popen[bytes]] = field(default_factory=dict)

    def state_dir(self, hall: str) -> Path:
        return self.tmp / hall / "state"

    def records(self, hall: str) -> Path:
        return self.state_dir(hall) / "records"

    def start(self, hall: str) -> None:
        config = self.halls.directory / hall / "venue.toml"
        args = [sys.executable, "-m", "wuzi.cli", "host", "--config", str(config)]
        args += ["--host", "pi-1", "--state-dir", str(self.state_dir(hall)), "--standalone"]
        log = (self.tmp / f"host-{hall}.log").open("ab")
        self.processes[hall] = subprocess.Popen(args, stdout=log, stderr=subprocess.STDOUT)
        log.close()
        socket = self.state_dir(hall) / "pi-1.sock"
        wait_for(lambda: _answers(socket), 20, f"hall {hall}'s host")

    def kill(self, hall: str) -> None:
        """A power cut: the host process dies at once (SIGKILL)."""
        process = self.processes.pop(hall)
        process.kill()
        process.wait(10)

    def log(self, hall: str) -> str:
        return (self.tmp / f"host-{hall}.log").read_text(errors="replace")

    def stop_all(self) -> None:
        for process in self.processes.values():
            process.terminate()
        for process in self.processes.values():
            process.wait(10)

    # what the tables show ---------------------------------------------------------------

    def display(self, hall: str, index: int) -> bytes:
        return self.sims[hall].clocks[TABLE - 1].displays[index].segments

    def shows_point(self, hall: str, name: str) -> bool:
        return self.display(hall, 1) == face(point_text(parse_point(name)))

    def lit(self, hall: str) -> tuple[int, int, bool] | None:
        """The point LED the board of ``hall``'s table has lit (point, colour, blinking)."""
        return self.sims[hall].boards[TABLE - 1].lit_point()

    def held(self, hall: str) -> bool:
        return self.display(hall, 0) == face(HELD_TEXT)

    def alerts(self, hall: str) -> list[str]:
        with self.observers[hall].lock:
            return [str(a.data) for a in self.observers[hall].alerts.get(TABLE, [])]

    def state(self, hall: str) -> TableState:
        with self.observers[hall].lock:
            return self.observers[hall].states[TABLE]

    def referee(self, hall: str) -> RefereeState:
        with self.observers[hall].lock:
            return self.observers[hall].referee[TABLE]

    def results(self, hall: str) -> list[TableEvent]:
        with self.observers[hall].lock:
            events = self.observers[hall].events.get(TABLE, [])
            return [e for e in events if e.kind == "result"]

    # the players' hands ---------------------------------------------------------------

    def place(self, hall: str, name: str, colour: int) -> None:
        self.sims[hall].place(TABLE, parse_point(name), colour)

    def press(self, hall: str) -> None:
        self.sims[hall].press(TABLE, 0)

    def move(self, hall: str, name: str, colour: int, *, mirror_after_s: float = 0.2) -> None:
        """A move at ``hall``: the stone, its press; then the opponent (at the other hall)
        sees the point on their unit and places the stone there after ``mirror_after_s``."""
        other = B if hall == A else A
        self.place(hall, name, colour)
        time.sleep(0.25)  # the board settles, then the hand goes to the clock
        self.press(hall)
        wait_for(lambda: self.shows_point(other, name), 10, f"{name} shown at hall {other}")
        time.sleep(mirror_after_s)
        self.place(other, name, colour)
        wait_for(lambda: not self.shows_point(other, name), 10, f"{name} mirrored at {other}")

    # the referees ---------------------------------------------------------------------

    def resume(self, hall: str, *, chief: bool = True) -> dict[str, object]:
        command = sign(
            ArbiterCommand(
                command_id=f"c-{time.time_ns()}",
                referee=REFEREE,
                action="resume",
                table=TABLE,
                args={"role": "chief" if chief else "hall"},
                issued_ms=time.time_ns() // 1_000_000,
                game_id=self.state(hall).game_id,  # signed for the game it is for
            ),
            TOKEN.encode(),
        )
        reply = send_line(self.state_dir(hall) / "pi-1.sock", encode(command), 10.0)
        return dict(reply)


def _answers(socket: Path) -> bool:
    try:
        reply = send_line(socket, b"{}", 1.0)
    except OSError:
        return False
    return reply.get("ok") is False


@contextmanager
def linked_hosts(tmp: Path, time_control: str = "600+5") -> Iterator[LinkedHosts]:
    """Both halls' brokers and hosts, the game of ``board-2`` begun (module doc)."""
    token = tmp / "chief.token"
    token.write_text(TOKEN)
    extra = f"""
[[referees]]
name = "{REFEREE}"
token_file = "{token}"

[defaults]
ruleset = "renju"
opening = "free"
time_control = "{time_control}"
"""
    # hall B's boards are sensor-rev-b: a LED under each point (hall A's have none)
    sims = {A: SimTables(2), B: SimTables(3, point_leds=True)}
    devices = {
        hall: {n + 1: (sim.board_paths[n], sim.clock_paths[n]) for n in range(len(sim.boards))}
        for hall, sim in sims.items()
    }
    try:
        with linked_halls(devices, extra) as halls:
            hosts = LinkedHosts(halls, sims, tmp)
            for hall in (A, B):
                bus = BusClient(
                    f"mqtt://127.0.0.1:{halls.ports[hall]}",
                    f"observer-{hall}",
                    username=WATCHER,
                    password=WATCHER_PASSWORD,
                )
                hosts.observers[hall] = Observer()
                for tree in ("table", "arbiter", "host"):
                    bus.subscribe(f"wuzi/v1/{hall}/{tree}/#", hosts.observers[hall])
                bus.connect()
                assert bus.wait_connected(10) and bus.wait_subscribed(10)
                hosts.buses[hall] = bus
            try:
                for hall in (A, B):
                    hosts.start(hall)
                # the away unit shows the owner's clocks once the first truth crossed
                idle = face("----")
                wait_for(lambda: hosts.display(B, 0) not in (idle, bytes(4)), 20, "the truth")
                yield hosts
            finally:
                hosts.stop_all()
                for bus in hosts.buses.values():
                    bus.close()
    finally:
        for sim in sims.values():
            sim.close()
