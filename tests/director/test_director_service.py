"""The director on a real Mosquitto: fake hosts publish result events, a referee sends
signed confirmations, and the retained assignments and competition state are checked;
the ``wuzi director`` process is killed with SIGKILL and resumes from its database and
its persistent bus session."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from support.broker import MosquittoBroker, wait_until
from support.director import (
    TABLES,
    Hall,
    bus_result,
    confirm,
    result_event,
    winner_of,
    write_event,
    write_venue,
)
from wuzi.bus import topics
from wuzi.bus.client import BusClient
from wuzi.bus.schemas import (
    TableEvent,
    TableState,
)
from wuzi.config import load_venue
from wuzi.director.service import DirectorOptions, DirectorService
from wuzi.director.store import DirectorStore

HOST = dict(TABLES)
REPO = Path(__file__).resolve().parents[2]


@dataclass
class Venue:
    folder: Path
    venue_id: str
    config: Path
    db: Path
    hall: Hall
    bus: BusClient  # the fake hosts' and referee's connection

    def report(self, table: int, game_id: str, winner: str | None, host: str | None = None) -> None:
        event = result_event(host or HOST[table], table, game_id, winner)
        self.bus.publish(topics.table_events(self.venue_id, table), event)

    def confirm(self, table: int, game_id: str, result: str) -> None:
        cmd = confirm(table, game_id, result, now_ms=time.time_ns() // 1_000_000,
                      command_id=f"c-{game_id}-{uuid.uuid4().hex[:6]}")  # fmt: skip
        self.bus.publish(topics.arbiter_commands(self.venue_id), cmd)


@pytest.fixture
def venue(tmp_path: Path, mosquitto: MosquittoBroker) -> Iterator[Venue]:
    venue_id = f"dir-{uuid.uuid4().hex[:8]}"
    config = write_venue(tmp_path, venue_id, mosquitto.url)
    db = tmp_path / "final.db"
    write_event(db)
    hall = Hall()
    bus = BusClient(mosquitto.url, f"fake-hosts-{venue_id}")
    bus.subscribe(topics.all_assignments(venue_id), hall)
    bus.subscribe(topics.competition_state(venue_id), hall)
    bus.subscribe(topics.all_host_statuses(venue_id), hall)
    bus.connect()
    assert bus.wait_connected(5) and bus.wait_subscribed(5)
    yield Venue(tmp_path, venue_id, config, db, hall, bus)
    bus.close()


def _service(v: Venue, **options: object) -> DirectorService:
    service = DirectorService(
        load_venue(v.config),
        DirectorOptions(db_path=v.db, base_dir=v.config.parent, **options),  # type: ignore[arg-type]
    )
    service.start()
    return service


def test_results_from_the_bus_are_refused_accepted_confirmed_and_round_2_follows(
    venue: Venue,
) -> None:
    service = _service(venue)
    try:
        hall = venue.hall
        wait_until(lambda: len(hall.assignments) == 24, 10, "24 retained assignments")
        wait_until(lambda: hall.state is not None and hall.state.round == 1, 5, "the state")
        assert hall.game(1) == "r1-m1-b1" and hall.game(24) == "r1-m8-b3"
        a = hall.assignments[2]
        assert a.board == 2 and a.time_control == "2700+30" and not a.playoff
        wait_until(lambda: "director" in hall.statuses, 5, "the director's status")
        assert hall.statuses["director"].online
        # a result from the wrong host: refused, logged, nothing changes
        venue.report(1, "r1-m1-b1", "first", host="pi-2")
        assert service.wait_for(
            lambda _: any(
                r.action == "result-refused" for r in DirectorStore(venue.db).audit_records()
            ),
            5,
        )
        assert service.core is not None and service.core.games["r1-m1-b1"].state == "assigned"
        # every game reported by its host and confirmed by the referee, the captains'
        # playoffs too (on the board-1 tables), until round 2 is paired
        done: set[str] = set()
        deadline = time.monotonic() + 20
        while service.core is not None and len(service.core.comp.rounds) < 2:
            assert time.monotonic() < deadline, "round 2 was not paired"
            for table in range(1, 25):
                gid = hall.game(table)
                if gid is None or gid in done:
                    continue
                w = winner_of(gid)
                venue.report(table, gid, w)
                venue.report(table, gid, w)  # QoS 1 may deliver twice: harmless
                venue.confirm(table, gid, bus_result(w))
                done.add(gid)
            time.sleep(0.02)
        wait_until(
            lambda: hall.state is not None and hall.state.round == 2, 10, "round 2 on the screens"
        )
        wait_until(lambda: (hall.game(1) or "").startswith("r2-"), 10, "round 2's assignments")
        state = hall.state
        assert state is not None and not state.finished
        assert [m.label for m in state.matches] == [
            "places 1-8", "places 1-8", "places 1-8", "places 1-8",
            "places 9-16", "places 9-16", "places 9-16", "places 9-16",
        ]  # fmt: skip
        assert len(state.bracket) == 16
        assert all(m.winner is not None for m in state.bracket[:8])
        records = DirectorStore(venue.db).audit_records()
        refused = [r for r in records if r.action == "result-refused"]
        assert (
            len(refused) == 1
            and "served by host 'pi-1', not 'pi-2'" in refused[0].details["reason"]
        )
        reported = [r.details["game"] for r in records if r.action == "result-reported"]
        assert len(reported) == len(set(reported)) == len(done)
        assert {g for g in done if g.startswith("r1-")} == set(reported)
    finally:
        service.close()
    wait_until(lambda: not venue.hall.statuses["director"].online, 5, "the director offline")


def test_the_whole_final_runs_on_the_bus_with_auto_confirm(venue: Venue) -> None:
    service = _service(venue, auto_confirm=True, time_scale=60.0)
    try:
        hall = venue.hall
        wait_until(lambda: len(hall.assignments) == 24, 10, "24 retained assignments")
        assert hall.assignments[1].time_control == "45+0.5"
        done: set[str] = set()
        deadline = time.monotonic() + 30
        while not (hall.state is not None and hall.state.finished):
            assert time.monotonic() < deadline, "the final did not finish"
            for table in range(1, 25):
                gid = hall.game(table)
                if gid is not None and gid not in done:
                    venue.report(table, gid, winner_of(gid))
                    done.add(gid)
            time.sleep(0.02)
        state = hall.state
        assert state.round == state.rounds == 4
        assert [(s.place, s.place_to) for s in state.standings] == [(p, p) for p in range(1, 17)]
        assert {m.status for m in state.matches} == {"finished"}
        assert len(state.bracket) == 32
        assert any("-p" in g for g in done), "captains' playoffs were played"
    finally:
        service.close()


def _start_cli(v: Venue, mosquitto: MosquittoBroker) -> subprocess.Popen[bytes]:
    env = {**os.environ, "PYTHONPATH": str(REPO / "host")}
    return subprocess.Popen(
        [sys.executable, "-m", "wuzi.cli", "director", "--config", str(v.config),
         "--db", str(v.db), "--auto-confirm", "--log-level", "warning"],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )  # fmt: skip


def test_kill_9_and_restart_misses_no_result_published_meanwhile(
    venue: Venue, mosquitto: MosquittoBroker
) -> None:
    hall = venue.hall
    proc = _start_cli(venue, mosquitto)
    try:
        wait_until(lambda: len(hall.assignments) == 24, 15, "24 retained assignments")
        wait_until(lambda: "director" in hall.statuses and hall.statuses["director"].online,
                   5, "the director online")  # fmt: skip
        for table in range(1, 13):
            venue.report(table, f"r1-m{(table - 1) // 3 + 1}-b{(table - 1) % 3 + 1}", "first")
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)
        wait_until(lambda: not hall.statuses["director"].online, 10, "the last will")
        # while it is away, the rest of round 1 ends; table 13's event is lost (say the
        # broker's queue overflowed) but its retained state shows the result
        a = hall.assignments[13]
        state = TableState(
            table=13, game_id=a.game_id, seq=30, status="finished", moves=(112, 113),
            black_ms=1000, white_ms=1000, running=None, result="1-0", at_ms=1, black=a.black,
            white=a.white, board=a.board, game_in_match=1,
        )  # fmt: skip
        venue.bus.publish(topics.table_state(venue.venue_id, 13), state)
        for table in range(14, 25):
            venue.report(table, f"r1-m{(table - 1) // 3 + 1}-b{(table - 1) % 3 + 1}", "first")
        assert venue.bus.wait_drained(5)
        proc = _start_cli(venue, mosquitto)
        # every match was won by its first team 4-2 … wait: 2+0+2 v 0+2+0 — round 2 follows
        wait_until(lambda: hall.state is not None and hall.state.round == 2, 20, "round 2")
        wait_until(lambda: (hall.game(1) or "").startswith("r2-"), 10, "round 2's assignments")
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
    assert proc.returncode == 0, proc.stderr.read().decode() if proc.stderr else ""
    records = DirectorStore(venue.db).audit_records()
    reported = [r.details["game"] for r in records if r.action == "result-reported"]
    assert sorted(reported) == sorted(f"r1-m{m}-b{b}" for m in range(1, 9) for b in (1, 2, 3))
    assert sum(1 for r in records if r.action == "director-started") == 2
    from_state = [r for r in records if r.action == "result-reported" and r.details["table"] == 13]
    assert from_state[0].details["event"] == "state:13:30"


def test_the_command_line_says_what_is_missing(venue: Venue, tmp_path: Path) -> None:
    from wuzi.cli import main

    assert main(["director", "--config", str(venue.config), "--db", str(tmp_path / "x.db")]) == 1
    assert main(["director", "--config", str(venue.config)]) == 1
    assert main(["director", "audit", "--db", str(tmp_path / "x.db")]) == 1


def test_a_gap_in_a_tables_events_is_logged_and_filled_from_its_retained_state(
    venue: Venue, caplog: pytest.LogCaptureFixture
) -> None:
    """Events 1 and 3 of a game arrive, 2 never does: the director logs the gap (table, game,
    number) and keeps it open until a retained table state of that game covers it."""

    def move(seq: int) -> TableEvent:
        return TableEvent(f"{HOST[5]}/5/r1-m2-b2/{seq}", 5, "r1-m2-b2", seq, "move", seq, {})

    service = _service(venue)
    try:
        caplog.set_level("INFO", logger="wuzi.director")
        assert service.bus is not None and service.bus.wait_subscribed(10)
        for seq in (1, 3):
            venue.bus.publish(topics.table_events(venue.venue_id, 5), move(seq))
        gap = "table 5 game 'r1-m2-b2': event 2 missing"
        wait_until(lambda: [str(g) for g in service.open_gaps()] == [gap], 10, "the gap")
        assert any(gap in r.getMessage() for r in caplog.records if r.levelname == "WARNING")
        state = TableState(5, "r1-m2-b2", 3, "playing", (112, 113, 114), 1, 1, "white", None, 9)
        venue.bus.publish(topics.table_state(venue.venue_id, 5), state)
        wait_until(lambda: service.open_gaps() == [], 10, "the state to fill the gap")
        assert any(
            f"{gap}: filled from the retained table state" in r.getMessage() for r in caplog.records
        )
    finally:
        service.close()
