"""Two events' games at once on one host, each judged and clocked by its own assignment.

A hall of several events (issue 35: the 2019 open's men's group plays renju, its open
group no forbidden moves) runs them on one set of hosts: table 1 is assigned a renju game
of one event and table 2, on the same host, a no-forbidden game of another. Black plays
the same double-three (the rules' vector F01, /work/shared/vectors/forbidden-basic.txt)
at both: at table 1 the referees are told and White's claim wins the game; at table 2 it
is an ordinary move and the game goes on. Each table's state, clock and record carry its
own event. The real host process, its simulated devices on ptys, a real Mosquitto.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from support.broker import MosquittoBroker
from support.host import HostUnderTest, wait_for
from wuzi.bus.schemas import Assignment, TableState
from wuzi.rules.board import parse_point

BLACK, WHITE = 1, 2
CLAIM = 2
# F01: f8-g8-h8 and h6-h7-h8, two open threes made by h8 (a double-three)
BLACK_MOVES = ("f8", "g8", "h6", "h7", "h8")
WHITE_MOVES = ("a1", "c1", "e1", "g1")


@pytest.fixture
def host(tmp_path: Path, mosquitto: MosquittoBroker) -> Iterator[HostUnderTest]:
    host = HostUnderTest(tmp_path, mosquitto.url, tables=2, standalone=False)
    yield host
    host.close()


def assignment(table: int, event_id: str, rule_set: str, time_control: str) -> Assignment:
    return Assignment(
        table=table,
        game_id=f"{event_id}-r1-m{table}-g1",
        black=f"Black {table}",
        white=f"White {table}",
        rule_set=rule_set,
        opening="free",
        opening_settings={},
        time_control=time_control,
        board=None,
        game_in_match=1,
        playoff=False,
        issued_ms=time.time_ns() // 1_000_000,
        event=f"Event {event_id}",
        round=1,
        match=table,
        event_id=event_id,
    )


def state(host: HostUnderTest, table: int) -> TableState:
    return host.observer.states[table]


def test_a_renju_table_and_a_no_forbidden_table_judge_one_double_three_by_their_own_rules(
    host: HostUnderTest,
) -> None:
    host.start()
    host.assign(assignment(1, "men", "renju", "900+5"))
    host.assign(assignment(2, "open", "no-forbidden", "3600"))
    for n in (1, 2):
        wait_for(lambda n=n: host.observer.states.get(n) is not None, 10, f"table {n}'s state")
        wait_for(lambda n=n: host.game_of(n) is not None, 10, f"table {n}'s game held")
        assert host.command("next-game", n)["ok"]
        wait_for(lambda n=n: state(host, n).status == "playing", 10, f"table {n} playing")
    assert (state(host, 1).event_id, state(host, 2).event_id) == ("men", "open")
    # each clock by its own assignment: 15 minutes at table 1, 60 at table 2
    assert 800_000 < state(host, 1).black_ms <= 900_000, state(host, 1)
    assert 3_500_000 < state(host, 2).black_ms <= 3_600_000, state(host, 2)

    for n in range(9):  # both tables, move for move
        name = BLACK_MOVES[n // 2] if n % 2 == 0 else WHITE_MOVES[n // 2]
        for table in (1, 2):
            host.move(table, name, BLACK if n % 2 == 0 else WHITE, n % 2)
    # table 1 (renju): h8 is forbidden; the referees are told, White claims and wins
    wait_for(lambda: "forbidden" in host.observer.alert_reasons(1), 10, "table 1's referee told")
    host.sim.press(1, CLAIM)
    time.sleep(0.3)
    host.sim.press(1, 1)  # White's own button within the claim window
    wait_for(lambda: state(host, 1).status == "finished", 10, "table 1's game over")
    assert state(host, 1).result == "0-1"
    [result] = [e for e in host.observer.events[1] if e.kind == "result"]
    assert (result.data["reason"], result.data["winner"]) == ("forbidden", "second"), result
    # table 2 (no forbidden moves): the same h8 is a move like any other; play goes on
    host.move(2, "o15", WHITE, 1)
    assert state(host, 2).status == "playing"
    assert state(host, 2).running == "black"
    assert "forbidden" not in host.observer.alert_reasons(2)
    assert state(host, 2).moves[-2:] == (parse_point("h8"), parse_point("o15"))
    assert (state(host, 1).event_id, state(host, 2).event_id) == ("men", "open")

    # table 1's record names its event, by name and by the venue file's id
    records = host.tmp / "state" / "records"
    path = records / "men-r1-m1-g1.json"
    wait_for(path.exists, 10, "table 1's record")
    record = json.loads(path.read_text("utf-8"))
    assert record["event"] == "Event men"
    assert record["tags"]["event_id"] == "men"
    assert record["ruleset"] == "renju"
