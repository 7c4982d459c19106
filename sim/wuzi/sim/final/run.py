"""The simulated final, end to end: what ``wuzi demo`` runs.

One machine plays a whole venue: a broker (the one named, a private Mosquitto, or the
embedded one), the director on the final's database (created with the organisers' own
``wuzi tournament`` command), four hosts serving six tables each — sensor boards and
clock units simulated on real ptys, running the firmware's own code — and at every table
two bots and a floor referee (``wuzi.sim.final.hands``) playing through the hardware as
people would. The director pairs the four rounds of the placement knockout, the hosts
judge every move, the captains' playoffs are created when a match is tied, and the run
ends when the director says the event is finished.

With faults (``wuzi.sim.final.faults``) the processes are killed and restarted, the
broker restarts, a host is cut off the network, and the boards suffer noise, unplugs
and resets — and the run must still end with the same final.

Output (``RunResult`` and the folder): ``games/<game>.json`` the hosts' records,
``truth/<game>.json`` the bots' own moves, ``standings.json``, ``screens/*.png``, and
``run/`` with the venue file, the database, the journals and every process's log.
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import secrets
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from wuzi.bus import topics
from wuzi.bus.auth import read_token_file
from wuzi.bus.client import BusClient
from wuzi.bus.identity import throwaway_client_id
from wuzi.bus.schemas import (
    Assignment,
    CompetitionState,
    HostStatus,
    Message,
    RefereeState,
    TableEvent,
    TableState,
)
from wuzi.config.venue import load_venue
from wuzi.host.referee_signing import build_command
from wuzi.sim.box import Broker, SimTables, free_port
from wuzi.sim.devices.runner import monotonic_ms
from wuzi.sim.devices.virtual_board import REBOOT_MS
from wuzi.sim.final.faults import Fault, plan_faults
from wuzi.sim.final.hands import HandsConfig, RefereeRequest, TableHands
from wuzi.sim.final.net_proxy import CuttableRelay
from wuzi.sim.final.probe import ScreenProbe
from wuzi.sim.final.procs import BrokerHandle, Process, start_broker
from wuzi.sim.final.setup import (
    DIRECTOR_ID,
    HOSTS,
    REFEREE,
    TABLES_PER_HOST,
    create_event,
    demo_teams,
    write_venue_file,
)

__all__ = ["RUN_PROCESS", "RunError", "RunOptions", "RunResult", "VenueRun"]

TABLES = len(HOSTS) * TABLES_PER_HOST
TICK_S = 0.005
CONNECT_TIMEOUT_S = 20.0
RUN_PROCESS = "venue-run"  # this process, in ``RunResult.peak_rss_mb``
_WUZI = (sys.executable, "-m", "wuzi.cli")


class RunError(RuntimeError):
    """The final could not be played to its end (names the process or the table)."""


@dataclass(frozen=True)
class RunOptions:
    out: Path
    seed: int = 1
    speed: float = 10.0  # every time control divided by this
    faults: bool = False
    broker_url: str | None = None
    window: bool = False  # also open the scoreboard window (needs a display)
    screens_every_s: float = 30.0  # a scoreboard PNG this often (0: only at the end)
    think_ms: int = 60
    timeout_s: float = 3600.0
    fault_span_s: float = 150.0  # faults are spread over this much of the run
    probe: bool = False  # measure press-to-scoreboard latency (``wuzi bench venue``)
    public_feed: bool = False  # run wuzi broadcast (delay 0) and wuzi web; screens --public
    web_port: int = 8080  # wuzi web's port (a free one when taken)
    log: TextIO | None = None


@dataclass
class RunResult:
    out: Path
    wall_s: float
    games: int
    standings: list[dict[str, object]]
    faults: list[str]
    messages: int
    problems: list[str] = field(default_factory=list)
    latency_ms: list[float] = field(default_factory=list)  # press to scoreboard model
    peak_rss_mb: dict[str, float] = field(default_factory=dict)  # by process


class VenueRun:
    """One simulated final (see the module docstring); ``run`` plays it to its end."""

    what = "the final"  # what the run plays, in its messages

    def __init__(self, options: RunOptions) -> None:
        self.options = options
        self.out = options.out.resolve()  # the processes' paths do not depend on the cwd
        self.work = self.out / "run"
        self.venue_id = f"demo-{options.seed}"
        self.inbox: queue.Queue[tuple[str, Message]] = queue.Queue()
        self.messages = 0
        self.competition: CompetitionState | None = None
        self.broker: BrokerHandle | None = None
        self.broker_url = ""
        self.sim: SimTables | None = None
        self.relays: dict[str, CuttableRelay] = {}
        self.hosts: dict[str, Process] = {}
        self.director: Process | None = None
        self.public: list[Process] = []  # wuzi broadcast and wuzi web (public_feed)
        self.web_url = ""
        self.window: subprocess.Popen[bytes] | None = None
        self.screen_jobs: list[subprocess.Popen[bytes]] = []
        self.bus: BusClient | None = None
        self.probe: ScreenProbe | None = None
        self.tables: dict[int, TableHands] = {}
        self.fault_log: list[str] = []
        self._pending_faults: list[Fault] = []
        self._undo: list[tuple[float, Callable[[], None], str]] = []  # (at_s, action, what)
        self._started = 0.0
        self.stopped: list[str] = []  # what ``close`` stopped, in order
        self.host_ids: tuple[str, ...] = HOSTS
        self.table_count = TABLES
        self._last_round = 0

    # --- the run ---------------------------------------------------------------------

    def run(self) -> RunResult:
        started = time.monotonic()
        try:
            self._set_up()
            self._play()
            return self._finish(time.monotonic() - started)
        finally:
            self.close()

    def say(self, text: str) -> None:
        if self.options.log is not None:
            print(text, file=self.options.log, flush=True)

    def _set_up(self) -> None:
        for folder in ("run", "games", "truth", "screens"):
            shutil.rmtree(self.out / folder, ignore_errors=True)
        (self.work / "logs").mkdir(parents=True)
        for folder in ("games", "truth", "screens"):
            (self.out / folder).mkdir(parents=True)
        self.broker, self.broker_url, what = start_broker(
            self.work / "broker", self.options.broker_url
        )
        self.say(f"broker: {what}")
        self.sim = SimTables(TABLES, seed=self.options.seed)
        venue_file = write_venue_file(
            self.work,
            venue_id=self.venue_id,
            broker_url=self.broker_url,
            board_ports=self.sim.board_paths,
            clock_ports=self.sim.clock_paths,
            token=secrets.token_hex(24),
        )
        self.venue = load_venue(venue_file)
        referee = next(r for r in self.venue.referees if r.name == REFEREE)
        assert referee.token_file is not None  # resolved against the venue file's folder
        self.key = read_token_file(referee.token_file)
        self.db = self.work / "final.sqlite"
        create_event(self.db, demo_teams(self.options.seed))
        self.say(f"event: the team final, 16 teams, in {self.db}")
        target = _address(self.broker_url)
        config = HandsConfig(seed=self.options.seed, think_ms=self.options.think_ms)
        for number in range(1, TABLES + 1):
            board, clock = self.sim.boards[number - 1], self.sim.clocks[number - 1]
            self.tables[number] = TableHands(number, board, clock, config)
        self._connect_bus()
        if self.options.probe:
            self.probe = ScreenProbe(self.broker_url, self.venue_id, self.sim.clocks)
            self.probe.start()
        speed = f"{self.options.speed:g}"
        director_args = ["director", "--config", str(venue_file), "--db", str(self.db)]
        director_args += ["--auto-confirm", "--time-scale", speed, "--broker", self.broker_url]
        self.director = Process(DIRECTOR_ID, director_args, self.work / "logs" / "director.log")
        for host in HOSTS:
            relay = CuttableRelay(target)
            self.relays[host] = relay
            args = ["host", "--config", str(venue_file), "--host", host]
            args += ["--state-dir", str(self.work / "state" / host), "--broker", relay.url]
            args += ["--control-socket", "none"]
            self.hosts[host] = Process(host, args, self.work / "logs" / f"{host}.log")
        for process in (*self.hosts.values(), self.director):
            process.start()
        if self.options.public_feed:
            self._start_public_feed(venue_file)
        self.say(f"{len(HOSTS)} hosts serving {TABLES} tables; the director; time × {speed}")
        if self.options.faults:
            self._pending_faults = plan_faults(
                self.options.seed,
                span_s=self.options.fault_span_s,
                hosts=HOSTS,
                tables=TABLES,
            )
            if self.broker is None or not hasattr(self.broker, "port"):
                self._pending_faults = [
                    f for f in self._pending_faults if f.kind != "restart-broker"
                ]
                self.say("faults: the broker is not ours to restart (no restart-broker)")
            for fault in self._pending_faults:
                self.say(f"fault planned: {fault}")
        if self.options.window:
            self.window = self._scoreboard([])

    def _connect_bus(self) -> None:
        bus = BusClient(self.broker_url, throwaway_client_id(self.venue_id, "tool"))

        def hear(topic: str, message: Message) -> None:
            self.inbox.put((topic, message))

        venue = self.venue_id
        for topic_filter in (
            topics.all_table_states(venue),
            topics.all_table_events(venue),
            topics.all_assignments(venue),
            topics.all_arbiter_states(venue),
            topics.all_host_statuses(venue),
            self._competition_filter(),
        ):
            bus.subscribe(topic_filter, hear)
        bus.connect()
        self.bus = bus  # closed with the run, also when it cannot connect
        if not bus.wait_connected(CONNECT_TIMEOUT_S) or not bus.wait_subscribed(CONNECT_TIMEOUT_S):
            raise RunError(f"cannot reach the broker at {self.broker_url}")

    def _competition_filter(self) -> str:
        """The competition states the run follows: the one event's."""
        return topics.competition_state(self.venue_id)

    def _heard_competition(self, _topic: str, message: CompetitionState) -> None:
        self.competition = message

    def _progress(self) -> None:
        """Say each new round once."""
        state = self.competition
        if state is not None and state.round != self._last_round:
            self._last_round = state.round
            self.say(f"round {state.round} of {state.rounds}")

    def _finished(self) -> bool:
        """The director says the event is over, and every game's record is on disk."""
        state = self.competition
        return state is not None and state.finished and self._all_recorded()

    def _play(self) -> None:
        self._started = time.monotonic()
        deadline = self._started + self.options.timeout_s
        next_screen = self._started + self.options.screens_every_s
        self._last_round = 0
        while True:
            now = time.monotonic()
            if now > deadline:
                why = f"{self.what} did not end in {self.options.timeout_s} s"
                raise RunError(self._stuck(why))
            self._drain()
            self._faults(now - self._started)
            now_ms = monotonic_ms()
            for hands in self.tables.values():
                for request in hands.tick(now_ms):
                    self._send(request)
            self._check_processes()
            self._progress()
            if self._finished():
                return
            if self.options.screens_every_s > 0 and now >= next_screen:
                next_screen = now + self.options.screens_every_s
                self._snapshot(f"tables-{int(now - self._started):04d}s", "tables")
            time.sleep(TICK_S)

    def _drain(self) -> None:
        while True:
            try:
                topic, message = self.inbox.get_nowait()
            except queue.Empty:
                return
            self.messages += 1
            if isinstance(message, CompetitionState):
                self._heard_competition(topic, message)
            elif isinstance(message, HostStatus):
                for number in message.tables:
                    if number in self.tables:
                        self.tables[number].hear(message)
            elif isinstance(message, TableState | TableEvent | RefereeState | Assignment):
                hands = self.tables.get(message.table)
                if hands is not None:
                    hands.hear(message)

    def _send(self, request: RefereeRequest) -> None:
        assert self.bus is not None
        command = build_command(
            self.venue,
            REFEREE,
            self.key,
            request.action,
            request.table,
            request.args,
            issued_ms=int(time.time() * 1000),
            game_id=request.game_id,
        )
        self.bus.publish(topics.arbiter_commands(self.venue_id), command)

    def _start_public_feed(self, venue_file: Path) -> None:
        """The delayed public feed (delay 0 in the demo) and the spectators' web page;
        the hall scoreboard then reads ``public/`` (``--public``), as a public screen does."""
        logs = self.work / "logs"  # the delay: the venue file's [broadcast] delay_minutes, 0
        config = ["--config", str(venue_file), "--broker", self.broker_url]
        port = _free_or(self.options.web_port)
        # the browsers read the public feed from our broker's WebSockets listener, if any
        ws_url = self.broker.ws_url if isinstance(self.broker, Broker) else ""
        web = ["web", *config, "--port", str(port), "--bind", "127.0.0.1"]
        self.public = [
            Process("broadcast", ["broadcast", *config], logs / "broadcast.log"),
            Process("web", [*web, *(["--mqtt-url", ws_url] if ws_url else [])], logs / "web.log"),
        ]  # fmt: skip
        for process in self.public:
            process.start()
        self.web_url = f"http://127.0.0.1:{port}/"
        self.say(f"web page (the public feed, delay 0): {self.web_url}")

    def _processes(self) -> list[Process]:
        """The run's Wuzi processes, in the order they are stopped (the hosts last: their
        last results reach the director first)."""
        directors = [self.director] if self.director is not None else []
        return [*self.public, *directors, *self.hosts.values()]

    def _check_processes(self) -> None:
        for process in self._processes():
            if process.process is not None:
                problem = process.exit_problem()
                if problem is not None:
                    raise RunError(problem)

    def _all_recorded(self) -> bool:
        """Every game the bots played has its record on its host's disk."""
        played = {g for hands in self.tables.values() for g in hands.truths}
        return all(self._record_path(g) is not None for g in played)

    def _record_path(self, game_id: str) -> Path | None:
        from wuzi.host.records import record_path

        for host in self.host_ids:
            path = record_path(self.work / "state" / host / "records", game_id)
            if path.exists():
                return path
        return None

    def _stuck(self, why: str) -> str:
        lines = [why]
        for number, hands in self.tables.items():
            state = hands.state
            if state is not None and state.status != "finished":
                player = hands.game.player if hands.game is not None else None
                lines.append(
                    f"table {number}: {state.game_id} {state.status} {len(state.moves)} moves, "
                    f"assignment {hands.assignment.game_id if hands.assignment else None}, "
                    f"hands {player.in_hand if player else None}, problems {hands.problems}"
                )
        return "\n".join(lines)

    # --- faults ------------------------------------------------------------------------

    def _faults(self, at_s: float) -> None:
        while self._undo and self._undo[0][0] <= at_s:
            _, action, what = self._undo.pop(0)
            action()
            self._note(at_s, what)
        while self._pending_faults and self._pending_faults[0].at_s <= at_s:
            self._inject(self._pending_faults.pop(0), at_s)

    def _note(self, at_s: float, what: str) -> None:
        line = f"{at_s:7.1f} s  {what}"
        self.fault_log.append(line)
        self.say(f"fault: {line}")

    def _later(self, at_s: float, action: Callable[[], None], what: str) -> None:
        self._undo.append((at_s, action, what))
        self._undo.sort(key=lambda item: item[0])

    def _inject(self, fault: Fault, at_s: float) -> None:
        assert self.sim is not None
        back = at_s + fault.length_s
        if fault.kind == "kill-host":
            host = self.hosts[fault.target]
            host.kill()
            self._later(back, host.start, f"{fault.target} started again")
        elif fault.kind == "kill-director":
            assert self.director is not None
            director = self.director
            director.kill()
            self._later(back, director.start, "director started again")
        elif fault.kind == "restart-broker":
            broker = self.broker
            assert broker is not None
            broker.stop()
            self._later(back, broker.start, "broker started again")
        elif fault.kind == "cut-host":
            relay = self.relays[fault.target]
            relay.cut()
            self._later(back, relay.restore, f"{fault.target} back on the network")
        else:
            board = self.sim.boards[int(fault.target) - 1]
            now_ms = monotonic_ms()
            hands = self.tables[int(fault.target)]
            settle_ms = 3000  # the board back, its snapshot read, the stone settled
            until = now_ms + int(fault.length_s * 1000) + REBOOT_MS + settle_ms
            hands.board_disturbed_until_ms = max(hands.board_disturbed_until_ms, until)
            if fault.kind == "board-noise":
                board.faults.ber = 2e-4

                def quiet() -> None:
                    board.faults.ber = 0.0

                self._later(back, quiet, f"table {fault.target}'s board cable quiet again")
            elif fault.kind == "unplug-board":
                board.at(now_ms, lambda: board.unplug(now_ms, int(fault.length_s * 1000)))
            elif fault.kind == "reboot-board":
                board.at(now_ms, lambda: board.reboot(now_ms))
        self._note(at_s, f"{fault.kind} {fault.target}")

    # --- screens -----------------------------------------------------------------------

    def _scoreboard(self, extra: list[str]) -> subprocess.Popen[bytes]:
        args = [*_WUZI, "scoreboard", "--broker", self.broker_url]
        args += ["--venue", self.venue_id, *extra]
        if self.options.public_feed:
            args.append("--public")  # the hall's screen reads the broadcast, not live play
        log = (self.work / "logs" / "scoreboard.log").open("ab")
        with log:
            return subprocess.Popen(args, stdout=log, stderr=subprocess.STDOUT, process_group=0)

    def _snapshot(self, name: str, page: str) -> None:
        self.screen_jobs = [job for job in self.screen_jobs if job.poll() is None]
        if self.screen_jobs:
            return  # the last one is still rendering: skip a frame rather than pile up
        path = self.out / "screens" / f"{name}.png"
        args = ["--snapshot", str(path), "--listen-seconds", "2", "--size", "1920x1080"]
        self.screen_jobs.append(self._scoreboard([*args, "--page", page]))

    # --- the end -----------------------------------------------------------------------

    def _peak_rss_mb(self) -> dict[str, float]:
        """Each process's peak resident memory (VmHWM), this run's own included."""
        pids = {RUN_PROCESS: os.getpid()}
        for process in self._processes():
            if process.process is not None and process not in self.public:
                pids[process.name] = process.process.pid
        broker_process = getattr(self.broker, "process", None)
        if isinstance(broker_process, subprocess.Popen):
            pids["mosquitto"] = broker_process.pid
        out = {}
        for name, pid in pids.items():
            with contextlib.suppress(OSError, ValueError):
                for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                    if line.startswith("VmHWM:"):
                        out[name] = int(line.split()[1]) / 1024
        return out

    def _finish(self, wall_s: float) -> RunResult:
        peak = self._peak_rss_mb()
        latency = list(self.probe.samples_ms) if self.probe is not None else []
        for job in self.screen_jobs:
            with contextlib.suppress(subprocess.TimeoutExpired):
                job.wait(60)
        self.screen_jobs = []
        for page in ("tables", "bracket", "standings"):
            self._snapshot(f"final-{page}", page)
            for job in self.screen_jobs:
                with contextlib.suppress(subprocess.TimeoutExpired):
                    job.wait(60)
        games = 0
        for hands in self.tables.values():
            for game_id, moves in hands.truths.items():
                name = _safe(game_id)
                truth = {
                    "game_id": game_id,
                    "table": hands.number,
                    "moves": moves,
                    "turns": hands.turns.get(game_id, []),
                    "unpressed": hands.unpressed.get(game_id, []),
                }
                late = hands.late.get(game_id)
                if late is not None:  # the last move's turn, never shown by the state
                    truth["late"] = late._asdict()
                _write_json(self.out / "truth" / f"{name}.json", truth)
                record = self._record_path(game_id)
                if record is not None:
                    shutil.copyfile(record, self.out / "games" / f"{name}.json")
                    games += 1
        standings = self._standings()
        _write_json(self.out / "standings.json", standings)
        problems = [f"table {h.number}: {p}" for h in self.tables.values() for p in h.problems]
        return RunResult(
            self.out,
            wall_s,
            games,
            standings,
            list(self.fault_log),
            self.messages,
            problems,
            latency,
            peak,
        )

    def _standings(self) -> list[dict[str, object]]:
        completed = subprocess.run(
            [*_WUZI, "tournament", "--db", str(self.db), "standings", "--json"],
            capture_output=True,
            text=True,
            check=False,
        )
        if completed.returncode != 0:
            raise RunError(f"wuzi tournament standings failed: {completed.stderr.strip()}")
        lines = json.loads(completed.stdout)["standings"]
        return [{"place": line["place"], "team": line["name"]} for line in lines]

    def close(self) -> None:
        """Stop everything the run started, once; ``stopped`` then names it (what an
        interrupted demo tells its user)."""
        stopped = self.stopped
        if self.window is not None:
            self.window.terminate()
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.window.wait(10)
            if self.window.poll() is None:
                self.window.kill()
                self.window.wait(5)
            self.window = None
            stopped.append("the scoreboard window")
        if self.screen_jobs:
            for job in self.screen_jobs:
                job.kill()
                job.wait(5)
            stopped.append("the scoreboard snapshot")
            self.screen_jobs = []
        for process in self._processes():
            if process.process is not None:
                process.stop()
                stopped.append(process.name)
        if self.probe is not None:
            self.probe.close()
            self.probe = None
        if self.bus is not None:
            self.bus.close()
            self.bus = None
        for relay in self.relays.values():
            relay.close()
        if self.sim is not None:
            self.sim.close()
            self.sim = None
            stopped.append(f"{self.table_count} simulated tables")
        if self.broker is not None:
            self.broker.stop()
            self.broker = None
            stopped.append("the broker")


def _free_or(port: int) -> int:
    """``port`` if nothing listens on it here, else a free one."""
    import socket

    with socket.socket() as probe:
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            return free_port()
    return port


def _address(url: str) -> tuple[str, int]:
    from wuzi.bus.url import parse_broker_url

    address = parse_broker_url(url)
    return address.host, address.port


def _safe(game_id: str) -> str:
    return "".join(c if c.isalnum() or c in "-_." else "_" for c in game_id)


def _write_json(path: Path, value: object) -> None:
    path.write_text(json.dumps(value, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
