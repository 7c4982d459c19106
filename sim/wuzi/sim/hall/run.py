"""The simulated hall, end to end: what ``wuzi demo --hall NAME`` runs.

One machine plays a hall of several events at once (``setup.OPEN_2019``: the 2019 open's
men's, women's and open groups): one broker, one set of hosts serving every table — the
sensor boards and clock units simulated on real ptys, as in the team final — and **one
director per event**, ``wuzi director --config VENUE --event ID``, each on its own
database and its own tables. The tables' people are the team final's (``TableHands``:
two bots and a floor referee), playing whatever the assignment says: renju with the
designated openings in the men's and women's groups, where Black now and then slips onto
a forbidden point (``HandsConfig.slip``) and White claims it, so a forbidden move is seen
to lose; free opening, no forbidden moves and two-game rounds in the open group, where
the same shapes are moves like any other. The run ends when every event's director says
its event is finished and every game's record is on its host's disk.

Everything not about events is ``VenueRun``'s (the loop, the referee's signed commands,
the public feed, the screens, stopping): this class only sets the hall up, follows each
event's ``competition/<event>/state``, and writes each event's results apart:
``DIR/<event>/games/<game>.json`` (the hosts' records), ``DIR/<event>/truth/<game>.json``
(the bots' moves), ``DIR/<event>/standings.json``, ``DIR/screens/*.png``, and ``DIR/run/``
with the venue file, the three databases, the journals and every log. No faults: the
team final's fault drill is the place for them.
"""

from __future__ import annotations

import json
import secrets
import shutil
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

from wuzi.bus import topics
from wuzi.bus.auth import read_token_file
from wuzi.bus.schemas import CompetitionState
from wuzi.config.venue import load_venue
from wuzi.sim.box import SimTables
from wuzi.sim.final.hands import HandsConfig, TableHands, game_seed
from wuzi.sim.final.procs import Process, start_broker
from wuzi.sim.final.run import _WUZI, RunError, RunOptions, VenueRun, _safe, _write_json
from wuzi.sim.final.setup import REFEREE
from wuzi.sim.hall.setup import HallPlan, create_hall_event, hall_players, write_hall_venue

__all__ = ["SLIP", "HallResult", "HallRun"]

SLIP = 0.3
"""The chance, at each of Black's moves in a renju group while a forbidden point is near
the stones, that Black plays it by mistake (the bots otherwise never play one). Bots that
avoid forbidden points seldom leave one within reach — a run of the
hall sees a handful of such moves — so the chance is high enough that the men's and
women's groups show a forbidden-move loss in most runs: seed 1's men's group at least
one, as tests/e2e/test_hall_demo.py checks."""


@dataclass
class HallResult:
    out: Path
    wall_s: float
    games: dict[str, int]  # by event id
    standings: dict[str, list[dict[str, object]]]  # by event id
    messages: int
    problems: list[str] = field(default_factory=list)


class HallRun(VenueRun):
    """One simulated hall (see the module docstring); ``run_hall`` plays it to its end."""

    what = "the hall"

    def __init__(self, options: RunOptions, plan: HallPlan) -> None:
        super().__init__(options)
        self.plan = plan
        self.venue_id = f"hall-{options.seed}"
        self.host_ids = tuple(host for host, _ in plan.hosts)
        self.table_count = len(plan.tables)
        self.directors: dict[str, Process] = {}
        self.competitions: dict[str, CompetitionState] = {}
        self.databases = {e.id: self.work / f"{e.id}.sqlite" for e in plan.events}
        self._rounds_said: dict[str, int] = {}
        self._shots = 0  # frames taken during the run (each event's in turn)

    def run_hall(self) -> HallResult:
        started = time.monotonic()
        try:
            self._set_up()
            self._play()
            return self._finish_hall(time.monotonic() - started)
        finally:
            self.close()

    # --- setting the hall up ----------------------------------------------------------

    def _set_up(self) -> None:
        plan, options = self.plan, self.options
        shutil.rmtree(self.work, ignore_errors=True)
        shutil.rmtree(self.out / "screens", ignore_errors=True)
        for event in plan.events:
            shutil.rmtree(self.out / event.id, ignore_errors=True)
        (self.work / "logs").mkdir(parents=True)
        (self.out / "screens").mkdir(parents=True)
        self.broker, self.broker_url, what = start_broker(self.work / "broker", options.broker_url)
        self.say(f"broker: {what}")
        self.sim = SimTables(self.table_count, seed=options.seed)
        venue_file = write_hall_venue(
            self.work,
            plan,
            venue_id=self.venue_id,
            broker_url=self.broker_url,
            board_ports=self.sim.board_paths,
            clock_ports=self.sim.clock_paths,
            token=secrets.token_hex(24),
            databases=self.databases,
        )
        self.venue = load_venue(venue_file)
        referee = next(r for r in self.venue.referees if r.name == REFEREE)
        assert referee.token_file is not None
        self.key = read_token_file(referee.token_file)
        players = hall_players(plan, options.seed)
        for event in plan.events:
            create_hall_event(self.databases[event.id], event, players[event.id])
            rounds = f"{event.rounds} rounds"
            self.say(
                f"event {event.id} ({event.name}): {event.players} players, {rounds}, "
                f"tables {event.tables_text}, {self.databases[event.id]}"
            )
        for number in plan.tables:
            event = plan.event_of(number)
            # the events' game ids repeat (r1-m1-g1 in each): the bots' seed is the event's
            config = HandsConfig(
                seed=game_seed(options.seed, event.id, "hall"),
                think_ms=options.think_ms,
                slip=SLIP if event.group != "open" else 0.0,
            )
            board, clock = self.sim.boards[number - 1], self.sim.clocks[number - 1]
            self.tables[number] = TableHands(number, board, clock, config)
        self._connect_bus()
        speed = f"{options.speed:g}"
        for event in plan.events:
            args = ["director", "--config", str(venue_file), "--event", event.id]
            args += ["--auto-confirm", "--time-scale", speed, "--broker", self.broker_url]
            name = f"director {event.id}"
            log = self.work / "logs" / f"director-{event.id}.log"
            self.directors[event.id] = Process(name, args, log)
        for host in self.host_ids:
            args = ["host", "--config", str(venue_file), "--host", host]
            args += ["--state-dir", str(self.work / "state" / host), "--broker", self.broker_url]
            args += ["--control-socket", "none"]
            self.hosts[host] = Process(host, args, self.work / "logs" / f"{host}.log")
        for process in (*self.hosts.values(), *self.directors.values()):
            process.start()
        if options.public_feed:
            self._start_public_feed(venue_file)
        self.say(
            f"{len(self.host_ids)} hosts serving {self.table_count} tables; "
            f"{len(self.directors)} directors ({', '.join(self.directors)}); time × {speed}"
        )
        if options.window:
            self.window = self._scoreboard([])

    def _processes(self) -> list[Process]:
        return [*self.public, *self.directors.values(), *self.hosts.values()]

    # --- following the events ---------------------------------------------------------

    def _competition_filter(self) -> str:
        return topics.all_competitions(self.venue_id)

    def _heard_competition(self, topic: str, message: CompetitionState) -> None:
        event = message.event_id or topics.parse_topic(topic).event
        if event:
            self.competitions[event] = message

    def _progress(self) -> None:
        for event in self.plan.events:
            state = self.competitions.get(event.id)
            if state is not None and state.round != self._rounds_said.get(event.id, 0):
                self._rounds_said[event.id] = state.round
                self.say(f"{event.id}: round {state.round} of {state.rounds}")

    def _finished(self) -> bool:
        for event in self.plan.events:
            state = self.competitions.get(event.id)
            if state is None or not state.finished:
                return False
        return self._all_recorded()

    def _all_recorded(self) -> bool:
        return all(
            self._table_record(hands.number, game_id) is not None
            for hands in self.tables.values()
            for game_id in hands.truths
        )

    def _table_record(self, table: int, game_id: str) -> Path | None:
        """The record of ``game_id`` played at ``table``, on the host serving the table."""
        from wuzi.host.records import record_path

        host = self.plan.host_of(table)
        path = record_path(self.work / "state" / host / "records", game_id)
        return path if path.exists() else None

    def _stuck(self, why: str) -> str:
        lines = [why]
        for event in self.plan.events:
            state = self.competitions.get(event.id)
            said = (
                "no competition state"
                if state is None
                else (f"round {state.round} of {state.rounds}, finished {state.finished}")
            )
            lines.append(f"{event.id}: {said}")
        return "\n".join([lines[0], *lines[1:], *super()._stuck("").splitlines()[1:]])

    # --- the screens ------------------------------------------------------------------

    def _snapshot(self, name: str, page: str) -> None:
        """A frame during the run: each event's page in turn (``--event``), as the hall's
        scoreboard cycles them, so the frames show all three events as they go."""
        self.screen_jobs = [job for job in self.screen_jobs if job.poll() is None]
        if self.screen_jobs:
            return  # the last one is still rendering: skip a frame rather than pile up
        event = self.plan.events[self._shots % len(self.plan.events)]
        self._shots += 1
        path = self.out / "screens" / f"{name}-{event.id}.png"
        args = ["--snapshot", str(path), "--listen-seconds", "2", "--size", "1920x1080"]
        self.screen_jobs.append(self._scoreboard([*args, "--event", event.id, "--page", page]))

    # --- the end ----------------------------------------------------------------------

    def _finish_hall(self, wall_s: float) -> HallResult:
        self._hall_screens()
        games: dict[str, int] = {}
        standings: dict[str, list[dict[str, object]]] = {}
        for event in self.plan.events:
            folder = self.out / event.id
            (folder / "games").mkdir(parents=True, exist_ok=True)
            (folder / "truth").mkdir(parents=True, exist_ok=True)
            games[event.id] = 0
            for number in event.tables:
                hands = self.tables[number]
                for game_id, moves in hands.truths.items():
                    truth: dict[str, object] = {
                        "game_id": game_id,
                        "table": number,
                        "moves": moves,
                        "turns": hands.turns.get(game_id, []),
                        "unpressed": hands.unpressed.get(game_id, []),
                    }
                    late = hands.late.get(game_id)
                    if late is not None:
                        truth["late"] = late._asdict()
                    _write_json(folder / "truth" / f"{_safe(game_id)}.json", truth)
                    record = self._table_record(number, game_id)
                    if record is not None:
                        shutil.copyfile(record, folder / "games" / f"{_safe(game_id)}.json")
                        games[event.id] += 1
            standings[event.id] = self._event_standings(self.databases[event.id])
            _write_json(folder / "standings.json", standings[event.id])
        problems = [f"table {h.number}: {p}" for h in self.tables.values() for p in h.problems]
        return HallResult(self.out, wall_s, games, standings, self.messages, problems)

    def _hall_screens(self) -> None:
        """The scoreboard's last frames: the hall as it cycles, then each event's tables
        and standings (``--event``)."""
        shots: list[tuple[str, list[str]]] = [("final-hall", [])]
        for event in self.plan.events:
            for page in ("tables", "standings"):
                shots.append((f"final-{event.id}-{page}", ["--event", event.id, "--page", page]))
        for name, extra in shots:
            path = self.out / "screens" / f"{name}.png"
            args = ["--snapshot", str(path), "--listen-seconds", "2", "--size", "1920x1080"]
            job = self._scoreboard([*args, *extra])
            try:
                job.wait(60)
            except subprocess.TimeoutExpired:
                job.kill()
                job.wait(5)

    def _event_standings(self, db: Path) -> list[dict[str, object]]:
        completed = subprocess.run(
            [*_WUZI, "tournament", "--db", str(db), "standings", "--json"],
            capture_output=True,
            text=True,
            check=False,
        )
        if completed.returncode != 0:
            raise RunError(f"wuzi tournament standings failed: {completed.stderr.strip()}")
        lines = json.loads(completed.stdout)["standings"]
        return [
            {"place": line["place"], "player": line["name"], "points": line.get("points")}
            for line in lines
        ]
