"""The demo final's checks catch what they promise to: a record that differs from the
bots' moves, a missing record, a result held twice, a clock that ran through an outage,
standings that do not give every place once."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from wuzi.director.store import DIRECTOR_SCHEMA
from wuzi.sim.final.check import check_notes, check_run, director_results, overcharged


def details(*remaining: tuple[int, int]) -> list[dict[str, object]]:
    return [{"first_ms": f, "second_ms": s} for f, s in remaining]


def make_run(tmp: Path, *, confirmations: int = 1, recorded: list[str] | None = None) -> Path:
    """A finished run's folder: one game (swap: the second seat had Black and won)."""
    for folder in ("games", "truth", "run"):
        (tmp / folder).mkdir(parents=True, exist_ok=True)
    moves = ["h8", "h9", "h10"]
    turns = [None, [5000, 0], [4000, 0]]
    truth = {"game_id": "r1-m1-b1", "table": 1, "moves": moves, "turns": turns}
    (tmp / "truth" / "r1-m1-b1.json").write_text(json.dumps(truth))
    record = {
        "moves": recorded if recorded is not None else moves,
        "result": "black",
        "black_seat": "second",
        "time_control": "270+3",
        "move_details": details((272000, 270000), (272000, 271000), (274000, 271000)),
        "event": "2021 决赛",
        "round": "1",
        "match": 1,
        "board": 1,
        "start_time": "2026-05-01T09:30:00+08:00",
        "players": {
            "first": {"name": "王勇", "id": "p1", "team": "上海"},
            "second": {"name": "郭涛", "id": "p2", "team": "广东"},
        },
    }
    (tmp / "games" / "r1-m1-b1.json").write_text(json.dumps(record))
    db = sqlite3.connect(tmp / "run" / "final.sqlite")
    db.executescript(DIRECTOR_SCHEMA)
    db.execute(
        "INSERT INTO director_game (id, seq, round, match, slot, black, white, state, result, "
        "updated_ms, plan) VALUES ('r1-m1-b1', 1, 1, 1, 'b1', 'a', 'b', 'final', 'white', 0, '{}')"
    )
    for _ in range(confirmations):
        db.execute(
            "INSERT INTO director_audit (at_ms, actor, action, details) VALUES "
            """(0, 'director', 'result-confirmed', '{"game": "r1-m1-b1"}')"""
        )
    db.commit()
    db.close()
    standings = [{"place": n, "team": f"t{n}"} for n in range(1, 17)]
    (tmp / "standings.json").write_text(json.dumps(standings))
    return tmp


def test_a_good_run_passes(tmp_path: Path) -> None:
    assert check_run(make_run(tmp_path)) == []
    assert director_results(tmp_path / "run" / "final.sqlite") == {"r1-m1-b1": ["white"]}


def test_a_record_that_differs_from_the_bots_is_caught(tmp_path: Path) -> None:
    problems = check_run(make_run(tmp_path, recorded=["h8", "h9", "j10"]))
    assert len(problems) == 1 and "but the bots played" in problems[0]


def test_a_missing_record_is_caught(tmp_path: Path) -> None:
    make_run(tmp_path)
    (tmp_path / "games" / "r1-m1-b1.json").unlink()
    assert check_run(tmp_path) == [f"r1-m1-b1: no record in {tmp_path / 'games'}"]


def test_a_result_confirmed_twice_is_caught(tmp_path: Path) -> None:
    problems = check_run(make_run(tmp_path, confirmations=2))
    assert problems == ["r1-m1-b1: 2 results in the director's database"]


def test_a_result_the_director_holds_for_the_wrong_player_is_caught(tmp_path: Path) -> None:
    make_run(tmp_path)
    path = tmp_path / "games" / "r1-m1-b1.json"
    record = json.loads(path.read_text())
    record["black_seat"] = "first"  # then the first seat (the assigned Black) won
    path.write_text(json.dumps(record))
    assert check_run(tmp_path) == ["r1-m1-b1: the director holds 'white', the record says 'black'"]


def test_standings_must_give_every_place_once(tmp_path: Path) -> None:
    make_run(tmp_path)
    standings = [{"place": 1 if n < 3 else n, "team": f"t{n}"} for n in range(1, 17)]
    (tmp_path / "standings.json").write_text(json.dumps(standings))
    assert "places 1-16" in check_run(tmp_path)[0]


def test_a_clock_that_ran_through_an_outage_is_caught() -> None:
    record = {
        "time_control": "270+3",
        # move 2 charged 3000 + 3000 = 6 s (remaining fell by 3 s, the increment added 3)
        "move_details": details((272000, 270000), (272000, 267000)),
    }
    assert overcharged(record, [None, [6100, 0]]) == []  # the turn lasted 6.1 s
    [problem] = overcharged(record, [None, [6100, 4500]])  # 4.5 s of it the host was down
    assert "charged 6000 ms" in problem and "stood still 4500 ms" in problem
    assert overcharged(record, [None, None]) == []  # several moves in one state: unknown


def test_a_stone_never_pressed_is_a_note_not_a_problem(tmp_path: Path) -> None:
    """At a fallen flag the mover's last stone may lie on the wood unpressed: the truth
    lists it apart (``unpressed``), the record rightly lacks it, the run passes."""
    make_run(tmp_path)
    path = tmp_path / "truth" / "r1-m1-b1.json"
    truth = json.loads(path.read_text())
    truth["unpressed"] = ["j10"]
    path.write_text(json.dumps(truth))
    assert check_run(tmp_path) == []
    assert check_notes(tmp_path) == [
        "r1-m1-b1: j10 put down but never pressed (the game ended first): not a move, "
        "rightly not in the record"
    ]


def test_a_run_without_unpressed_stones_has_no_notes(tmp_path: Path) -> None:
    assert check_notes(make_run(tmp_path)) == []


def flagged_run(tmp: Path, late: dict[str, int] | None, detail: str = "black's flag fell") -> Path:
    """The bots completed h10 (Black's third move), the record stops at h9: Black lost on
    time, and the hands' timing of h10's turn is ``late``."""
    make_run(tmp, recorded=["h8", "h9"])
    record_path = tmp / "games" / "r1-m1-b1.json"
    record = json.loads(record_path.read_text())
    record["result"] = "white"
    record["black_seat"] = "first"  # the director holds 'white' as the winning seat's colour
    record["termination"] = {"reason": "referee", "detail": f"referee: {detail}", "t_ms": 9}
    record["move_details"] = record["move_details"][:2]
    record_path.write_text(json.dumps(record))
    if late is not None:
        truth_path = tmp / "truth" / "r1-m1-b1.json"
        truth = json.loads(truth_path.read_text())
        truth["late"] = late
        truth_path.write_text(json.dumps(truth))
    return tmp


def test_a_press_after_the_flag_is_a_note_not_a_problem(tmp_path: Path) -> None:
    """The hands pressed 320 ms into a turn with 54 ms left: the flag fell first, the
    stone is no move, the record is right without it, and the notes say why."""
    run = flagged_run(tmp_path, {"turn_ms": 320, "stopped_ms": 0, "left_ms": 54})
    assert not [p for p in check_run(run) if "bots played" in p]
    assert check_notes(run) == [
        "r1-m1-b1: h10 pressed 320 ms into a turn with 54 ms left: after the flag fell, "
        "not a move, rightly not in the record"
    ]


def test_a_move_lost_in_good_time_is_still_caught(tmp_path: Path) -> None:
    """A press well inside the mover's time that the record lacks is a lost move, flag or
    not; so is a short record without a flag, or without the hands' timing."""
    for late, detail in (
        ({"turn_ms": 400, "stopped_ms": 0, "left_ms": 60000}, "black's flag fell"),
        ({"turn_ms": 320, "stopped_ms": 0, "left_ms": 54}, "agreed draw"),
        (None, "black's flag fell"),
    ):
        folder = tmp_path / f"{detail}-{late is None}-{late and late['left_ms']}"
        run = flagged_run(folder, late, detail)
        assert [p for p in check_run(run) if "bots played" in p], (late, detail)


def test_a_record_that_does_not_name_its_game_is_caught(tmp_path: Path) -> None:
    make_run(tmp_path)
    path = tmp_path / "games" / "r1-m1-b1.json"
    record = json.loads(path.read_text())
    record["round"] = ""
    record["start_time"] = ""
    record["players"]["second"]["team"] = ""
    path.write_text(json.dumps(record))
    assert check_run(tmp_path) == [
        "r1-m1-b1: the record does not name its round",
        "r1-m1-b1: the record does not name its start_time",
        "r1-m1-b1: the record does not name its players.second.team",
    ]
