"""A linked game between two halls, played by two real hosts (issue 36).

Hall A owns link ``board-2``: its host runs the game (rules, clock, journal, record); hall
B's host reads its own board and clock unit and shows the owner's truth. Three real
Mosquittos (each hall's bridged to the central one, configured by ``wuzi venue
broker-config`` / ``central-config``), both hosts started as systemd starts them, each
table's simulated board and clock unit on ptys (`support.linked_hosts`).
"""

from __future__ import annotations

import json
import time
from pathlib import Path

from support.host import wait_for
from support.linked_halls import A, B
from support.linked_hosts import BLACK, WHITE, linked_hosts
from wuzi.rules.board import parse_point, point_name

BLACK_MOVES = ("h8", "i8", "j8", "k8", "l8")  # a five on row 8
WHITE_MOVES = ("a1", "c1", "e1", "g1")


def test_a_linked_game_played_to_its_end_gives_the_same_record_at_both_halls(
    tmp_path: Path,
) -> None:
    with linked_hosts(tmp_path) as hosts:
        for n in range(9):
            if n % 2 == 0:
                hosts.move(A, BLACK_MOVES[n // 2], BLACK)
            else:
                hosts.move(B, WHITE_MOVES[n // 2], WHITE)
        records = {hall: hosts.records(hall) for hall in (A, B)}
        for hall in (A, B):
            wait_for(lambda h=hall: any(records[h].glob("*.linked.json")), 10, f"{hall} record")
        [a_path] = records[A].glob("*.linked.json")
        [b_path] = records[B].glob("*.linked.json")
        a, b = (json.loads(p.read_text("utf-8")) for p in (a_path, b_path))
        assert a == b, (a, b)
        assert a["moves"] == ["h8", "a1", "i8", "c1", "j8", "e1", "k8", "g1", "l8"]
        assert (a["result"], a["reason"]) == ("black", "five")
        # the owner's own rules record of the same game: the same moves
        full = json.loads((records[A] / a_path.name.replace(".linked", "")).read_text("utf-8"))
        assert full["moves"] == a["moves"], full["moves"]
        assert full["tags"]["link"] == "board-2"
        # mirroring 0.2 s after the point showed, well within the grace: nobody charged
        # more than their thinking (each side's clock within a second or two of 600 s)
        assert a["black_ms"] > 595_000 and a["white_ms"] > 595_000, a
        # both halls' screens show the game: the same moves, finished, 1-0
        for hall in (A, B):
            wait_for(lambda h=hall: hosts.state(h).status == "finished", 10, f"{hall} state")
            state = hosts.state(hall)
            assert [point_name(p) for p in state.moves] == a["moves"]
            assert (state.result, state.game_id) == ("1-0", a["game"])
        # the director's word: the owner host's result event (a five, black)
        wait_for(lambda: hosts.results(A), 10, "the result event")
        [result] = hosts.results(A)
        assert (result.data["reason"], result.data["winner"]) == ("five", "first"), result
        assert hosts.results(B) == []  # the away host judges nothing
        # the referees see the line and the two clocks compared, in both halls
        for hall in (A, B):
            referee = hosts.referee(hall)
            assert (referee.line, referee.line_state) == ("board-2", "up"), referee
            assert referee.offset_error_ms is not None and referee.offset_error_ms < 1000


def test_a_cut_line_holds_both_clocks_with_alerts_in_both_halls(tmp_path: Path) -> None:
    with linked_hosts(tmp_path) as hosts:
        hosts.move(A, "h8", BLACK)
        hosts.move(B, "a1", WHITE)
        hosts.halls.stop("central")  # both halls' bridges lose the central broker
        cut = time.monotonic()
        wait_for(lambda: hosts.held(A) and hosts.held(B), 10, "both clocks held")
        held_s = time.monotonic() - cut
        for hall in (A, B):
            wait_for(lambda h=hall: any("is cut" in t for t in hosts.alerts(h)), 10, f"{hall} told")
        hosts.place(A, "i8", BLACK)  # a stone during the cut: kept, judged after
        hosts.halls.start("central")
        wait_for(lambda: any("is back" in t for t in hosts.alerts(A)), 30, "the line back at A")
        wait_for(lambda: hosts.resume(A)["ok"] is True, 20, "the chief's resume")
        wait_for(lambda: not hosts.held(A) and not hosts.held(B), 10, "both clocks run again")
        time.sleep(0.3)
        hosts.press(A)
        wait_for(lambda: hosts.shows_point(B, "i8"), 10, "i8 shown at hall B after the cut")
        assert held_s < 10, held_s


def test_the_referees_of_both_halls_resume_together(tmp_path: Path) -> None:
    with linked_hosts(tmp_path) as hosts:
        hosts.move(A, "h8", BLACK)
        hosts.halls.stop("central")
        wait_for(lambda: hosts.held(A) and hosts.held(B), 10, "both clocks held")
        hosts.halls.start("central")
        wait_for(lambda: any("is back" in t for t in hosts.alerts(B)), 30, "the line back")
        # hall B's referee asks, hall A's confirms: neither alone resumes
        wait_for(lambda: hosts.resume(B, chief=False)["ok"] is True, 20, "B's request")
        time.sleep(0.5)
        assert hosts.held(A) and hosts.held(B)
        reply = hosts.resume(A, chief=False)
        assert reply["ok"] is True, reply
        wait_for(lambda: not hosts.held(A) and not hosts.held(B), 10, "both clocks run")
        for hall in (A, B):
            wait_for(lambda h=hall: any("resumed by" in t for t in hosts.alerts(h)), 10, hall)


def test_either_host_rebuilds_the_linked_game_after_a_crash(tmp_path: Path) -> None:
    with linked_hosts(tmp_path) as hosts:
        hosts.move(A, "h8", BLACK)
        hosts.move(B, "a1", WHITE)
        hosts.move(A, "i8", BLACK)
        hosts.kill(A)  # the owner host dies in the middle of white's think
        hosts.start(A)
        wait_for(lambda: hosts.held(A) and hosts.held(B), 20, "both held after the restart")
        assert any("rebuilt" in line for line in hosts.log(A).splitlines()), hosts.log(A)
        wait_for(lambda: hosts.resume(A)["ok"] is True, 30, "the chief's resume")
        wait_for(lambda: not hosts.held(A) and not hosts.held(B), 10, "both clocks run")
        hosts.kill(B)  # now the away host
        hosts.start(B)
        wait_for(lambda: hosts.held(A) and hosts.held(B), 20, "both held after B's restart")
        wait_for(lambda: hosts.resume(B)["ok"] is True, 30, "the chief's resume at B")
        wait_for(lambda: not hosts.held(A) and not hosts.held(B), 10, "both clocks run")
        for n, name in enumerate(("c1", "j8", "e1", "k8", "g1", "l8")):
            hosts.move(B if n % 2 == 0 else A, name, WHITE if n % 2 == 0 else BLACK)
        for hall in (A, B):
            wait_for(lambda h=hall: any(hosts.records(h).glob("*.linked.json")), 10, hall)
        a, b = (
            json.loads(next(hosts.records(h).glob("*.linked.json")).read_text("utf-8"))
            for h in (A, B)
        )
        assert a == b
        assert a["moves"] == ["h8", "a1", "i8", "c1", "j8", "e1", "k8", "g1", "l8"]
        assert (a["result"], a["reason"]) == ("black", "five")


def test_the_opponent_s_point_lights_and_a_wrong_stone_is_a_private_alert(tmp_path: Path) -> None:
    with linked_hosts(tmp_path) as hosts:
        hosts.place(A, "h8", BLACK)
        time.sleep(0.25)
        hosts.press(A)
        # hall B's board (sensor-rev-b) lights h8 in black, blinking, until it is placed
        wait_for(lambda: hosts.lit(B) == (parse_point("h8"), BLACK, True), 10, "h8 lit at B")
        hosts.place(B, "j9", BLACK)  # the away player puts the black stone on a wrong point
        wait_for(lambda: any("wrong point" in t for t in hosts.alerts(B)), 10, "B's referee told")
        assert hosts.lit(B) is not None  # still to be placed: still lit
        assert not any("wrong point" in t for t in hosts.alerts(A))  # private to hall B
        assert hosts.state(A).status == "playing"  # never a verdict
        hosts.place(B, "h8", BLACK)
        wait_for(lambda: hosts.lit(B) is None, 10, "the light out once h8 is placed")
        # the board settles it, the host takes it as the mirroring: the clock comes back
        wait_for(lambda: not hosts.shows_point(B, "h8"), 10, "B's unit shows the clocks again")
