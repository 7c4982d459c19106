"""A host-written record of a directed game names its game: the director's assignment
carries the event, round, match, board, both teams and players, the host adds the start
time (the wall clock when the game began, kept in the journal) and the result — and a
restart rebuilds the same names."""

from __future__ import annotations

from pathlib import Path

from support.director import final
from support.table_journal import journal_records
from wuzi.bus.schemas import Assignment, encode, parse_message
from wuzi.bus.topics import assignment as assignment_topic
from wuzi.director.games import Game, assignment_of
from wuzi.director.schedule import place_playoff_game, regular_game
from wuzi.host import records
from wuzi.host.table_runtime import TableRuntime
from wuzi.journal import Journal
from wuzi.rules.board import Colour, parse_point
from wuzi.rules.procedure import Seat
from wuzi.rules.record_json import record_from_json, record_to_json
from wuzi.table.inputs import ClockPressed, SetResult, StoneSettled

S = 1_000_000_000
WALL = 1_780_000_000_000  # 2026-05-28T20:26:40Z
UTC_START = "2026-05-28T20:26:40+00:00"


def directed_assignment(table: int = 4) -> Assignment:
    """Board 2 of match 2 of the final's round 1, as the director assigns it."""
    comp = final().pair()
    pairing = comp.rounds[0].pairings[1]
    plan = regular_game(comp, 1, pairing, "b2")
    game = Game(plan=plan, seq=1, table=table, state="assigned", updated_ms=WALL, issued_ms=WALL)
    return assignment_of(game)


def play_to_a_result(j: Journal, runtime: TableRuntime) -> None:
    t = S
    colour, seat = Colour.BLACK, Seat.FIRST
    for name in ("h8", "h9", "j10"):
        t += S
        batch = runtime.feed(StoneSettled(now_ns=t, point=parse_point(name), colour=colour), WALL)
        journal_records(j, runtime, batch)
        t += S
        journal_records(j, runtime, runtime.feed(ClockPressed(now_ns=t, seat=seat), WALL))
        colour, seat = colour.other, seat.other
    journal_records(
        j, runtime, runtime.feed(SetResult(t + S, Seat.SECOND, "resignation", "chief"), WALL)
    )


def test_the_assignment_carries_the_games_names_and_old_assignments_stay_valid() -> None:
    a = directed_assignment()
    assert (a.event, a.round, a.match, a.board) == ("决赛", 1, 2, 2)
    pairing = final().pair().rounds[0].pairings[1]
    teams = {f"Team {t[1:]}" for t in (pairing.first, pairing.second) if t is not None}
    assert {a.black_team, a.white_team} == teams
    assert {a.black_id, a.white_id} == {f"{t}-2" for t in (pairing.first, pairing.second)}
    topic = assignment_topic("hall", 4)
    assert parse_message(topic, encode(a)) == a
    old = (
        b'{"v":1,"table":4,"game_id":"r1-m2-b2","black":"A","white":"B","rule_set":"renju",'
        b'"opening":"free","opening_settings":{},"time_control":"600","board":2,'
        b'"game_in_match":1,"playoff":false,"issued_ms":1}'
    )
    message = parse_message(topic, old)  # an older director's assignment: still valid
    assert isinstance(message, Assignment)
    assert (message.event, message.round, message.match, message.black_team) == ("", None, None, "")


def test_a_host_record_of_a_directed_game_names_its_game(tmp_path: Path) -> None:
    a = directed_assignment()
    with Journal.open(tmp_path / "j.db", "pi-2") as j:
        runtime = TableRuntime(number=4, venue="hall")
        runtime.offer_assignment(a)
        journal_records(j, runtime, runtime.begin(S, WALL))
        play_to_a_result(j, runtime)
        assert runtime.session is not None
        record = records.game_record(
            runtime.session,
            table=4,
            event="venue name",
            assignment=runtime.assignment,
            started_wall_ms=runtime.started_wall_ms,
        )
        entries = list(j.entries())
    assert record.event == "决赛" and record.round == "1"
    assert (record.match, record.board, record.table, record.game_number) == (2, 2, 4, 1)
    assert record.first.name == a.black and record.second.name == a.white
    assert (record.first.team, record.first.id) == (a.black_team, a.black_id)
    assert (record.second.team, record.second.id) == (a.white_team, a.white_id)
    assert record.start_time == records.start_time(WALL)
    assert records.start_time(WALL, tz=__import__("datetime").UTC) == UTC_START
    assert record.result is not None and record.result.winner == "white"
    assert record.tags["game_id"] == "r1-m2-b2"
    assert record_from_json(record_to_json(record)) == record  # the JSON keeps every name
    recovered = TableRuntime.recover(4, "hall", entries)
    assert recovered.started_wall_ms == WALL and recovered.assignment == a
    assert recovered.session is not None
    again = records.game_record(
        recovered.session,
        table=4,
        event="venue name",
        assignment=recovered.assignment,
        started_wall_ms=recovered.started_wall_ms,
    )
    assert again == record  # a restart rebuilds the same record, names and start included


def test_a_place_playoff_is_named_by_its_place() -> None:
    from support.director import open_group_2019

    comp = open_group_2019()
    plan = place_playoff_game(comp, 1, 1, "p1", "p2", 1)
    game = Game(plan=plan, seq=1, table=2, state="assigned", updated_ms=WALL, issued_ms=WALL)
    a = assignment_of(game)
    assert (a.round, a.place, a.match) == (0, 1, 1)
    assert records.round_text(a) == "playoff for place 1"
    assert a.event == "2019 全国五子棋公开赛 男子组"


def test_a_standalone_game_has_no_directors_names_but_its_start_time() -> None:
    from wuzi.table.inputs import TableSetup

    runtime = TableRuntime(number=1, venue="hall")
    runtime.begin(S, WALL, TableSetup(opening="free", time_control="600+5"))
    assert runtime.session is not None
    record = records.game_record(
        runtime.session, table=1, event="hall", assignment=None, started_wall_ms=WALL
    )
    assert record.event == "hall" and record.round == "" and record.start_time
