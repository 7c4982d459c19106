"""``wuzi demo --linked``: the 2021 final as a network event, every match between two halls.

Sixteen halls on this machine, one per team (000 七(四): each team at its own venue):
each its own Mosquitto, bridged to the central broker through its own hall line (a
delaying, cuttable proxy: 37.5 ± 7.5 ms each way, `wuzi.sim.net.halls.BridgedHalls`),
and its own host serving the team's three boards (simulated sensor boards and clock
units on ptys; the even halls' boards have point LEDs). The organisers' director runs on
the central broker (``[[halls]]``) and lays every game at its two teams' halls: black's
hall owns it, the other shows it (docs/linked.md "The network final"). The players
(`wuzi.sim.network.play`) play through the hardware, mirroring each other's stones. One
hall line is cut during the run: both halls of its games hold their clocks, and the chief
referee resumes each once the line is back.

Exit 0 when the final has ended with its sixteen places, and every game's two halls
wrote the same record (``<game>.linked.json`` at the owner's and the away host's).
"""

from __future__ import annotations

import json
import queue
import secrets
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from wuzi.bus.auth import sign
from wuzi.bus.client import BusClient
from wuzi.bus.identity import throwaway_client_id
from wuzi.bus.schemas import (
    ArbiterCommand,
    Assignment,
    CompetitionState,
    Message,
    TableState,
    encode,
)
from wuzi.host.control import send_line
from wuzi.sim.box import SimTables
from wuzi.sim.final.procs import Process
from wuzi.sim.final.setup import create_event, demo_teams
from wuzi.sim.net.halls import BridgedHalls, HallLine, minimal_bridge_block
from wuzi.sim.network.play import GameHands, Seat, now
from wuzi.sim.network.setup import (
    BOARDS,
    EVENT_VENUE,
    REFEREE,
    hall_host,
    hall_venue,
    write_hall,
    write_organisers,
)
from wuzi.venue.network import network_topics

__all__ = ["NetworkOptions", "network_block", "run_network"]

HALLS = 16


@dataclass
class NetworkOptions:
    out: Path
    seed: int = 1
    speed: float = 10.0
    timeout_s: float = 1800.0
    cut_after_s: float = 45.0  # the hall line cut this long into the run …
    cut_for_s: float = 4.0  # … for this long
    log: TextIO = sys.stdout


def network_block(line: HallLine) -> str:
    """Hall ``line.hall``'s bridge to the central broker in a network event: the topics
    `wuzi venue broker-config` bridges for a network hall (`wuzi.venue.network`), on the
    demo's plain bridge (no accounts; docs/linked.md "The network final")."""
    pairs = network_topics(hall_venue(int(line.hall)), EVENT_VENUE)
    topics = [f"topic {pattern} {way} 1" for pattern, way in pairs]
    return minimal_bridge_block(HallLine(line.hall, line.address, ())) + "\n".join(topics) + "\n"


def _hall_of_table(table: int) -> int:
    return (table - 1) // BOARDS + 1


@dataclass
class _Run:
    options: NetworkOptions
    work: Path
    sims: dict[int, SimTables] = field(default_factory=dict)
    hosts: dict[int, Process] = field(default_factory=dict)
    director: Process | None = None
    inbox: queue.SimpleQueue[tuple[str, Message]] = field(default_factory=queue.SimpleQueue)
    states: dict[int, TableState] = field(default_factory=dict)
    hands: dict[str, GameHands] = field(default_factory=dict)  # by game id
    current: dict[int, str] = field(default_factory=dict)  # table → its game id
    competition: CompetitionState | None = None
    token: str = ""

    def say(self, text: str) -> None:
        print(text, file=self.options.log, flush=True)

    def seat(self, table: int) -> Seat:
        hall = _hall_of_table(table)
        return Seat(self.sims[hall], table, (table - 1) % BOARDS)

    def on_assignment(self, a: Assignment) -> None:
        for table in (a.table, a.linked_table):
            if table is not None and self.current.get(table) != a.game_id:
                self.current[table] = a.game_id
                self.seat(table).clear()  # the referee clears the board for the next game
        if a.linked_role != "owner" or a.game_id in self.hands or a.linked_table is None:
            return
        self.hands[a.game_id] = GameHands(
            a, self.seat(a.table), self.seat(a.linked_table), self.options.seed
        )

    def resume(self, game: GameHands) -> bool:
        """The chief referee resumes a held game at its owner host (after a cut line)."""
        return self.command(game, "resume", {"role": "chief"})

    def draw(self, game: GameHands) -> bool:
        """The referee sets the draw the players agreed (or a board with no legal point)."""
        return self.command(game, "set-result", {"winner": None, "reason": game.draw_asked})

    def command(self, game: GameHands, action: str, args: dict[str, object]) -> bool:
        """A signed referee command at the owner host's table of ``game``."""
        table = game.assignment.table
        hall = _hall_of_table(table)
        command = ArbiterCommand(
            command_id=f"{action}-{secrets.token_hex(6)}",
            referee=REFEREE,
            action=action,
            table=table,
            args=args,
            issued_ms=time.time_ns() // 1_000_000,
            game_id=game.assignment.game_id,
        )
        socket = self.work / "state" / hall_host(hall) / f"{hall_host(hall)}.sock"
        try:
            reply = send_line(socket, encode(sign(command, self.token.encode())), 5.0)
        except OSError:
            return False
        return bool(reply.get("ok"))


def run_network(options: NetworkOptions) -> int:
    """Play the network final (module doc); 0 when it ended and its checks hold."""
    work = options.out / "run"
    work.mkdir(parents=True, exist_ok=True)
    run = _Run(options, work, token=secrets.token_hex(24))
    token_file = work / "chief.token"
    token_file.write_text(run.token)
    token_file.chmod(0o600)
    teams = demo_teams(options.seed)
    for n in range(1, HALLS + 1):
        run.sims[n] = SimTables(BOARDS, seed=100 * n + options.seed, point_leds=n % 2 == 0)
    names = [f"{n:02d}" for n in range(1, HALLS + 1)]
    try:
        with BridgedHalls(work / "brokers", halls=names, bridge_block=network_block) as halls:
            for n, team in enumerate(teams, 1):
                sim = run.sims[n]
                ports = list(zip(sim.board_paths, sim.clock_paths, strict=True))
                (work / "halls").mkdir(exist_ok=True)
                path = work / "halls" / f"{hall_venue(n)}.toml"
                write_hall(path, n, team, halls.hall(names[n - 1]).url, ports, token_file)
                args = ["host", "--config", str(path), "--host", hall_host(n)]
                args += ["--state-dir", str(work / "state" / hall_host(n))]
                run.hosts[n] = Process(hall_host(n), args, work / "logs" / f"{hall_host(n)}.log")
            db = work / "final.sqlite"
            create_event(db, teams)
            organisers = write_organisers(
                work / f"{EVENT_VENUE}.toml", halls.central_url, teams, db, token_file
            )
            run.say(f"16 halls, one team each, bridged to the central broker {halls.central_url}")
            bus = BusClient(halls.central_url, throwaway_client_id(EVENT_VENUE, "tool"))
            for topic_filter in (
                "wuzi/v1/+/assignments/+",
                "wuzi/v1/+/table/+/state",
                f"wuzi/v1/{EVENT_VENUE}/competition/state",
            ):
                bus.subscribe(topic_filter, lambda t, m: run.inbox.put((t, m)))
            bus.connect()
            if not (bus.wait_connected(20) and bus.wait_subscribed(20)):
                run.say("wuzi demo: the central broker does not answer")
                return 1
            for process in run.hosts.values():
                process.start()
            speed = f"{options.speed:g}"
            director_args = ["director", "--config", str(organisers), "--db", str(db)]
            director_args += ["--auto-confirm", "--time-scale", speed, "--opening", "free"]
            run.director = Process("director", director_args, work / "logs" / "director.log")
            run.director.start()
            try:
                return _play(run, halls)
            finally:
                bus.close()
                for process in (run.director, *run.hosts.values()):
                    if process is not None:
                        process.stop()
    finally:
        for sim in run.sims.values():
            sim.close()


def _play(run: _Run, halls: BridgedHalls) -> int:
    options = run.options
    start = now()
    cut: tuple[str, float] | None = None
    restored = False
    last_resume = 0.0
    while True:
        t = now()
        if t - start > options.timeout_s:
            run.say(f"wuzi demo: the final did not end within {options.timeout_s:g} s")
            return 1
        for process in (run.director, *run.hosts.values()):
            problem = process.exit_problem() if process is not None else None
            if problem is not None:
                run.say(f"wuzi demo: {problem}")
                return 1
        while True:
            try:
                _topic, message = run.inbox.get_nowait()
            except queue.Empty:
                break
            if isinstance(message, Assignment):
                run.on_assignment(message)
            elif isinstance(message, TableState):
                run.states[message.table] = message
            elif isinstance(message, CompetitionState):
                if message.round != (run.competition.round if run.competition else 0):
                    run.say(f"round {message.round} of {message.rounds} paired")
                run.competition = message
        for hands in list(run.hands.values()):
            if not hands.finished:
                hands.step(run.states.get(hands.assignment.table), t)
        playing = [h for h in run.hands.values() if not h.finished]
        # the cut: one hall line, while its games are under way
        if cut is None and t - start > options.cut_after_s and playing:
            hall = f"{(playing[0].assignment.table - 1) // BOARDS + 1:02d}"
            halls.hall(hall).proxy.cut()
            cut = (hall, t)
            run.say(f"hall line of {hall_venue(int(hall))} cut for {options.cut_for_s:g} s")
        if cut is not None and not restored and t - cut[1] > options.cut_for_s:
            halls.hall(cut[0]).proxy.restore()
            restored = True
            run.say(f"hall line of {hall_venue(int(cut[0]))} back: the referees resume")
        for hands in playing:
            if hands.draw_asked and t - hands.draw_sent_s > 2.0:
                hands.draw_sent_s = t
                if run.draw(hands):
                    run.say(f"game {hands.assignment.game_id} drawn: {hands.draw_asked}")
        if restored and t - last_resume > 1.0:
            last_resume = t
            for hands in playing:
                state = run.states.get(hands.assignment.table)
                if state is not None and state.status == "paused" and run.resume(hands):
                    run.say(f"game {hands.assignment.game_id} resumed by the chief referee")
        if run.competition is not None and run.competition.finished:
            return _finish(run)
        time.sleep(0.01)


def _finish(run: _Run) -> int:
    comp = run.competition
    assert comp is not None
    problems: list[str] = []
    places = sorted(line.place for line in comp.standings)
    if places != list(range(1, 17)):
        problems.append(f"the places are {places}, not 1-16")
    same = 0
    for game_id, hands in sorted(run.hands.items()):
        files = []
        for table in (hands.assignment.table, hands.assignment.linked_table):
            assert table is not None
            host = hall_host(_hall_of_table(table))
            files.append(run.work / "state" / host / "records" / f"{game_id}.linked.json")
        deadline = now() + 10
        while not all(f.exists() for f in files) and now() < deadline:
            time.sleep(0.05)
        missing = [str(f) for f in files if not f.exists()]
        if missing:
            problems.append(f"game {game_id}: no record at {', '.join(missing)}")
            continue
        owner, away = (json.loads(f.read_text("utf-8")) for f in files)
        if owner != away:
            problems.append(f"game {game_id}: the two halls' records differ")
        else:
            same += 1
    standings = [{"place": s.place, "team": s.entrant} for s in comp.standings]
    (run.options.out / "standings.json").write_text(
        json.dumps(standings, ensure_ascii=False, indent=2) + "\n", encoding="utf-8"
    )
    run.say("final standings:")
    for line in comp.standings:
        run.say(f"  {line.place:2d}. {line.entrant}")
    run.say(f"{same} linked games, each the same record at both halls")
    for problem in problems:
        print(f"wuzi demo: check failed: {problem}", file=sys.stderr)
    return 1 if problems else 0
