"""A 2019 open group run by the director on a real Mosquitto, as it runs: the chief
referee's opening, drawn while the director runs, re-issues the waiting assignments; the
round robin ends with p1 and p2 level on place 1 (002 六(四)1); the playoff (六(四)3) is
assigned to a free table game by game, fake hosts report its results, and the standings
on the bus, in the database and in the audit show the place it settled."""

from __future__ import annotations

import contextlib
import io
import json
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from support.broker import MosquittoBroker, wait_until
from support.director import (
    OPEN_2019_TIE,
    TABLES,
    Hall,
    result_event,
    round_robin_winner,
    write_venue,
)
from wuzi.bus import topics
from wuzi.bus.client import BusClient
from wuzi.bus.schemas import Assignment
from wuzi.cli import main
from wuzi.config import load_venue
from wuzi.director.service import DirectorOptions, DirectorService

HOST = dict(TABLES)
NAMES = {f"选手{i}": f"p{i}" for i in range(1, 5)}


def wuzi(*argv: str) -> str:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(argv))
    assert code == 0, (argv, err.getvalue())
    return out.getvalue()


@pytest.fixture
def hall_bus(mosquitto: MosquittoBroker) -> Iterator[tuple[str, Hall, BusClient]]:
    venue_id = f"open-{uuid.uuid4().hex[:8]}"
    hall = Hall()
    bus = BusClient(mosquitto.url, f"fake-hosts-{venue_id}")
    bus.subscribe(topics.all_assignments(venue_id), hall)
    bus.subscribe(topics.competition_state(venue_id), hall)
    bus.connect()
    assert bus.wait_connected(5) and bus.wait_subscribed(5)
    yield venue_id, hall, bus
    bus.close()


def test_a_2019_open_group_plays_its_place_playoff_on_free_tables(
    tmp_path: Path, mosquitto: MosquittoBroker, hall_bus: tuple[str, Hall, BusClient]
) -> None:
    venue_id, hall, bus = hall_bus
    config = write_venue(tmp_path, venue_id, mosquitto.url)
    db = str(tmp_path / "men.db")
    wuzi("tournament", "--db", db, "new", "--format", "round-robin", "--name", "2019 公开赛 男子组")
    for i in range(1, 5):
        wuzi("tournament", "--db", db, "add-player", f"选手{i}", "--sex", "m", "--id", f"p{i}",
             "--rating", str(2000 - i), "--seed", str(i))  # fmt: skip
    service = DirectorService(
        load_venue(config),
        DirectorOptions(db_path=Path(db), auto_confirm=True, base_dir=config.parent),
    )
    service.start()
    runner = threading.Thread(target=service.run, daemon=True)
    runner.start()
    try:
        wait_until(lambda: {1, 2} <= set(hall.current()), 10, "round 1 on tables 1 and 2")
        assert hall.current()[1].opening_settings == {}
        # the chief referee sets round 1's opening while the director runs: the waiting
        # games are issued again with it
        wuzi("tournament", "--db", db, "draw", "opening", "--round", "1", "--set", "花月",
             "--by", "裁判长")  # fmt: skip
        wuzi("tournament", "--db", db, "draw", "opening", "--round", "2", "--by", "裁判长",
             "--seed", "2019")  # fmt: skip
        set_4d = {"selection": "referee", "opening_id": "4D"}
        wait_until(
            lambda: all(hall.current()[t].opening_settings == set_4d for t in (1, 2)),
            10,
            "round 1's assignments with the opening set by the chief referee",
        )
        reported: set[str] = set()
        seen_round_2: list[Assignment] = []

        def play(until: str) -> None:
            deadline = time.monotonic() + 30
            while True:
                for table, a in hall.current().items():
                    if a.game_id.startswith("r2-"):
                        seen_round_2.append(a)
                    if a.game_id in reported or a.game_id.startswith("pl"):
                        continue
                    winner = round_robin_winner(OPEN_2019_TIE, NAMES[a.black], NAMES[a.white])
                    bus.publish(topics.table_events(venue_id, table),
                                result_event(HOST[table], table, a.game_id, winner))  # fmt: skip
                    reported.add(a.game_id)
                if any(a.game_id == until for a in hall.current().values()):
                    return
                assert time.monotonic() < deadline, f"{until} was never assigned"
                time.sleep(0.02)

        play("pl1-m1-p1")
        assert seen_round_2 and all(a.opening_settings["selection"] == "lot" for a in seen_round_2)
        playoff = {t: a for t, a in hall.current().items() if a.game_id.startswith("pl")}
        ((table, g1),) = playoff.items()
        assert table == 1  # the first free table in venue order
        assert (g1.black, g1.white, g1.time_control, g1.playoff) == (
            "选手1",
            "选手2",
            "300+3",
            True,
        )
        state = hall.state
        assert state is not None and [(s.place, s.place_to) for s in state.standings[:2]] == [
            (1, 2),
            (1, 2),
        ]

        def report(game_id: str, winner: str | None, next_id: str | None) -> Assignment | None:
            bus.publish(topics.table_events(venue_id, table),
                        result_event(HOST[table], table, game_id, winner))  # fmt: skip
            if next_id is None:
                return None
            wait_until(lambda: hall.current()[table].game_id == next_id, 10, next_id)
            return hall.current()[table]

        g2 = report("pl1-m1-p1", None, "pl1-m1-p2")
        assert g2 is not None and (g2.black, g2.time_control) == ("选手2", "300+3")
        g3 = report("pl1-m1-p2", None, "pl1-m1-p3")
        assert g3 is not None and (g3.black, g3.time_control) == ("选手1", "180+2")
        report("pl1-m1-p3", "second", None)  # 选手2, White, wins game 3

        def settled() -> bool:
            s = hall.state
            return s is not None and [(x.place, x.entrant) for x in s.standings[:2]] == [
                (1, "选手2"),
                (2, "选手1"),
            ]

        wait_until(settled, 10, "place 1 settled by the playoff on the screens' state")
    finally:
        service.request_stop()
        runner.join(5)
        service.close()
    rows = json.loads(wuzi("tournament", "--db", db, "standings", "--json"))["standings"]
    assert [(r["place"], r["id"], r["shared"], r["playoff_needed"]) for r in rows[:2]] == [
        (1, "p2", False, False),
        (2, "p1", False, False),
    ]
    log = wuzi("tournament", "--db", db, "log")
    assert "opening round 1 by 裁判长 (set): 4D 花月 Kagetsu" in log
    assert "director: playoff p1 p2 draw,draw,white" in log
    audit = wuzi("director", "audit", "--db", db, "--utc")
    assert "organisers:裁判长" in audit and "opening-set" in audit and "lot-drawn" in audit
    assert "place-playoff-decided" in audit and "pl1-m1-p3" in audit
