"""A whole table host under test: `wuzi host` as a real process, its tables' sensor boards
and clock units simulated on real ptys (the firmware's own code, wuzi.sim), a real
Mosquitto broker, and an observer on the bus that collects everything the host says.

The test is the venue's people: it puts stones on the simulated wood, presses the
simulated clock buttons, signs referee commands, kills the host with SIGKILL and starts
it again.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from paho.mqtt import publish

from wuzi.bus import topics
from wuzi.bus.auth import sign
from wuzi.bus.client import BusClient
from wuzi.bus.newest import supersedes
from wuzi.bus.schemas import (
    ArbiterCommand,
    Assignment,
    Message,
    RefereeState,
    TableEvent,
    TableState,
    encode,
)
from wuzi.bus.url import parse_broker_url
from wuzi.host.control import ask_games, send_line
from wuzi.host.table_runtime import TableRuntime, table_id
from wuzi.journal import Journal
from wuzi.rules.board import parse_point
from wuzi.sim.box import SimTables as BenchTables

TOKEN = "referee-token-for-the-tests-0123456789"
REFEREE = "chief"


@dataclass
class Observer:
    """Everything the host publishes, by kind, deduplicated by event id; the newest state
    of each table (`wuzi.bus.newest`: an older retained copy after a reconnect is not)."""

    events: dict[int, list[TableEvent]] = field(default_factory=dict)
    alerts: dict[int, list[TableEvent]] = field(default_factory=dict)
    states: dict[int, TableState] = field(default_factory=dict)
    referee: dict[int, RefereeState] = field(default_factory=dict)
    online: bool | None = None
    links_down: tuple[int, ...] = ()
    seen: set[str] = field(default_factory=set)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def __call__(self, topic: str, message: Message) -> None:
        with self.lock:
            if isinstance(message, TableEvent):
                if message.event_id in self.seen:
                    return
                self.seen.add(message.event_id)
                box = self.alerts if message.kind == "alert" else self.events
                box.setdefault(message.table, []).append(message)
            elif isinstance(message, TableState) and "/public/" not in topic:
                if supersedes(message, self.states.get(message.table)):
                    self.states[message.table] = message
            elif isinstance(message, RefereeState):
                if supersedes(message, self.referee.get(message.table)):
                    self.referee[message.table] = message
            elif hasattr(message, "online"):
                self.online = bool(message.online)
                self.links_down = tuple(getattr(message, "links_down", ()))

    def moves(self, table: int) -> list[int]:
        with self.lock:
            return [e.data["point"] for e in self.events.get(table, []) if e.kind == "move"]

    def alert_texts(self, table: int) -> list[tuple[str, str]]:
        """Every alert the referees were sent for ``table``: (reason, text)."""
        with self.lock:
            return [
                (str(e.data["reason"]), str(e.data.get("text", "")))
                for e in self.alerts.get(table, [])
            ]

    def alert_reasons(self, table: int) -> list[str]:
        with self.lock:
            return [str(e.data["reason"]) for e in self.alerts.get(table, [])]


class SimTables(BenchTables):
    """The bench's simulated tables (``wuzi.sim.box``), driven by point names."""

    def place(self, table: int, name: str, colour: int) -> None:  # type: ignore[override]
        super().place(table, parse_point(name), colour)

    def lift(self, table: int, name: str) -> None:
        super().place(table, parse_point(name), 0)


class HostUnderTest:
    """The venue file, the host process, the observer and the referee's hands."""

    def __init__(
        self,
        tmp: Path,
        broker_url: str,
        tables: int = 2,
        *,
        standalone: bool = True,
        opening: str = "free",
        time_control: str = "600+5",
        devices: dict[int, str] | None = None,
    ) -> None:
        """``devices``: a table's device keys as TOML lines, instead of its simulated
        board's and clock unit's ports (a missing port, a ``clock_gpio``); ``$BOARD`` and
        ``$CLOCK`` in them name its simulated board's and clock unit's ptys."""
        self.tmp = tmp
        self.venue_id = "v" + uuid.uuid4().hex[:10]
        self.sim = SimTables(tables)
        (tmp / "chief.token").write_text(TOKEN)
        lines = [
            "[venue]",
            f'id = "{self.venue_id}"',
            'name = "Host test"',
            "[broker]",
            f'url = "{broker_url}"',
            "[[hosts]]",
            'id = "pi-test"',
        ]
        for n in range(1, tables + 1):
            lines += [
                "  [[hosts.tables]]",
                f"  number = {n}",
            ]
            if devices is not None and n in devices:
                keys = devices[n].replace("$BOARD", self.sim.board_paths[n - 1])
                keys = keys.replace("$CLOCK", self.sim.clock_paths[n - 1])
                lines += [f"  {line.strip()}" for line in keys.splitlines()]
                continue
            lines += [
                f'  board_port = "{self.sim.board_paths[n - 1]}"',
                f'  clock_port = "{self.sim.clock_paths[n - 1]}"',
            ]
        lines += [
            "[[referees]]",
            f'name = "{REFEREE}"',
            'token_file = "chief.token"',
            "[defaults]",
            'ruleset = "renju"',
            f'opening = "{opening}"',
            f'time_control = "{time_control}"',
        ]
        self.config = tmp / "venue.toml"
        self.config.write_text("\n".join(lines) + "\n")
        self.standalone = standalone
        self.socket = tmp / "state" / "pi-test.sock"
        self.process: subprocess.Popen[bytes] | None = None
        self.observer = Observer()
        self.broker_url = broker_url
        self.bus = BusClient(broker_url, "observer-" + self.venue_id)
        self.bus.subscribe(f"wuzi/v1/{self.venue_id}/#", self.observer)
        self.bus.connect()
        assert self.bus.wait_connected(10) and self.bus.wait_subscribed(10)
        self.starts = 0

    # the process

    def start(self, *, relative_config: bool = False) -> None:
        """Start ``wuzi host``; ``relative_config``: from the folder above the venue
        file's, naming it by a relative path (``tmpdir/venue.toml``)."""
        assert self.process is None
        cwd = self.tmp.parent if relative_config else None
        config = Path(self.tmp.name) / self.config.name if relative_config else self.config
        args = [
            sys.executable,
            "-m",
            "wuzi.cli",
            "host",
            "--config",
            str(config),
            "--host",
            "pi-test",
            "--state-dir",
            str(self.tmp / "state"),
        ]
        if self.standalone:
            args.append("--standalone")
        log = (self.tmp / f"host-{self.starts}.log").open("wb")
        self.starts += 1
        self.process = subprocess.Popen(args, stdout=log, stderr=subprocess.STDOUT, cwd=cwd)
        log.close()
        wait_for(lambda: self._answers() or self._died(), 20, "the host's control socket")
        assert not self._died(), self.log()

    def _answers(self) -> bool:
        """The host process answers on its control socket (a stale file does not)."""
        try:
            reply = send_line(self.socket, b"{}", 1.0)
        except OSError:
            return False
        return reply.get("ok") is False

    def _died(self) -> bool:
        return self.process is not None and self.process.poll() is not None

    def kill(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(10)
        self.process = None

    def stop(self) -> int:
        assert self.process is not None
        self.process.send_signal(signal.SIGTERM)
        code = self.process.wait(10)
        self.process = None
        return code

    def log(self) -> str:
        return "\n".join(p.read_text(errors="replace") for p in sorted(self.tmp.glob("host-*.log")))

    def close(self) -> None:
        if self.process is not None:
            self.kill()
        self.bus.close()
        self.sim.close()

    # the referee

    def command(
        self, action: str, table: int | None, via: str = "socket", **args: Any
    ) -> dict[str, Any]:
        """Sign ``action`` for ``table``'s game as the referee sees it (the last referee
        state; none for every table) and send it ``via`` the socket or the bus."""
        return self.send(self.signed(action, table, **args), via)

    def signed(self, action: str, table: int | None, **args: Any) -> ArbiterCommand:
        return sign(
            ArbiterCommand(
                command_id="c-" + uuid.uuid4().hex,
                referee=REFEREE,
                action=action,
                table=table,
                args=args,
                issued_ms=time.time_ns() // 1_000_000,
                game_id=self.game_of(table),
            ),
            TOKEN.encode(),
        )

    def game_of(self, table: int | None) -> str | None:
        """The game ``table`` shows, as a referee signs for it: the host's own answer on
        its control socket (no race with the bus), else the last referee state seen."""
        if table is None:
            return None
        try:
            return ask_games(self.socket, 2.0).get(table)
        except OSError:
            state = self.observer.referee.get(table)
            return state.game_id if state is not None else None

    def send(self, cmd: ArbiterCommand | bytes, via: str = "socket") -> dict[str, Any]:
        """Send a signed command (or its exact bytes: a capture) ``via`` the socket (the
        host's reply) or the bus."""
        payload = cmd if isinstance(cmd, bytes) else encode(cmd)
        if via == "socket":
            return send_line(self.socket, payload, 10.0)
        address = parse_broker_url(self.broker_url)
        publish.single(  # the bytes as they are: BusClient would check and re-encode them
            topics.arbiter_commands(self.venue_id),
            payload,
            qos=1,
            hostname=address.host,
            port=address.port,
            client_id="sender-" + uuid.uuid4().hex[:8],
        )
        return {"ok": True, "message": "published"}

    def assign(self, assignment: Assignment) -> None:
        self.bus.publish(topics.assignment(self.venue_id, assignment.table), assignment)

    # the players

    def move(self, table: int, name: str, colour: int, button: int) -> None:
        """Place the stone, wait for the board to settle, press the clock, and wait until
        the host has published the judged move: its event, and the table's state after it
        (published next, on a topic of its own: a caller reading the state at once would
        otherwise see the one before the move)."""
        before, stones = len(self.observer.moves(table)), self._stones(table)
        self.sim.place(table, name, colour)
        wait_for(lambda: self._pending_stone(table) == parse_point(name), 10, f"{name} settled")
        self.sim.press(table, button)
        wait_for(lambda: len(self.observer.moves(table)) > before, 10, f"move {name} judged")
        wait_for(lambda: self._stones(table) > stones, 10, f"the state after {name}")

    def end_and_check_records(self, moves: dict[int, list[str]]) -> None:
        """The referee ends each table's game (a draw by agreement); then, for each table,
        the journal (replayed), the retained state, the events seen and the game's record
        file all hold ``moves`` (point names), and the host stops cleanly with no traceback logged.
        For a host started as a process (``start``)."""
        game_ids = {n: self.observer.states[n].game_id for n in moves}
        for n in moves:
            reply = self.command("set-result", n, winner=None, reason="agreement")
            assert reply["ok"], reply
        records = self.tmp / "state" / "records"
        wait_for(
            lambda: all((records / f"{game_ids[n]}.json").exists() for n in moves),
            20,
            "every game's record",
        )
        assert self.stop() == 0, self.log()
        assert "Traceback" not in self.log(), self.log()
        with Journal.open(self.tmp / "state" / "pi-test.journal", "pi-test") as journal:
            for n, names in moves.items():
                expected = [parse_point(p) for p in names]
                runtime = TableRuntime.recover(n, self.venue_id, journal.entries(table_id(n)))
                assert runtime.session is not None
                assert [m.point for m in runtime.session.game.moves] == expected, n
                assert list(self.observer.states[n].moves) == expected, n
                assert self.observer.moves(n) == expected, n  # the events, each once
                record = json.loads((records / f"{game_ids[n]}.json").read_text("utf-8"))
                assert record["moves"] == list(names), (n, record["moves"])

    def _stones(self, table: int) -> int:
        state = self.observer.states.get(table)
        return -1 if state is None else len(state.moves)

    def _pending_stone(self, table: int) -> int | None:
        state = self.observer.referee.get(table)
        return None if state is None else state.pending_stone


def wait_for(condition: Callable[[], bool], timeout_s: float, what: str) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.01)
    raise AssertionError(f"timed out after {timeout_s} s waiting for {what}")


def state_summary(state: TableState) -> dict[str, Any]:
    return json.loads(encode(state))


__all__ = ["HostUnderTest", "Observer", "SimTables", "os", "state_summary", "wait_for"]
