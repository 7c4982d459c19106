"""Piskvork .psq: moves, per-move times and names round-trip; errors name the line."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_record import P, records, sample_record

from wuzi.rules.board import POINTS, Colour
from wuzi.rules.errors import RecordFormatError
from wuzi.rules.formats.psq import export_psq, load_psq
from wuzi.rules.record import GameRecord, Player, alternating_moves


def test_export_writes_piskvork_lines() -> None:
    text = export_psq(sample_record())
    lines = text.splitlines()
    assert lines[0] == "Piskvorky 15x15, 0:0, 0"
    # h8 -> 8,8; h9 -> 8,7 (y from the top); each move took 1500 ms
    assert lines[1:4] == ["8,8,1500", "8,7,1500", "9,6,1500"]
    assert lines[7:10] == ["Ana Kask", "Li Wei", "0"]  # header 0: player 1 (first line) is Black
    # then the game's names, one tag pair a line, after the end code where Piskvork stops
    assert lines[10:] == [
        '[Event "Team final"]',
        '[Round "4"]',
        '[Match "3"]',
        '[Board "1"]',
        '[BlackTeam "Tallinn"]',
        '[BlackId "EE-3"]',
        '[WhiteTeam "Shanghai"]',
        '[WhiteId "CN-17"]',
        '[Table "12"]',
        '[StartTime "2026-05-01T09:30:00+08:00"]',
        '[Result "0-1"]',
        '[Termination "forbidden-33"]',
    ]


@st.composite
def psq_records(draw: st.DrawFn) -> GameRecord:
    """What a psq file holds: alternating moves (no pass), time stamps, two names."""
    stones = draw(st.lists(st.integers(0, POINTS - 1), unique=True, max_size=60))
    gaps = draw(st.lists(st.integers(0, 10**6), min_size=len(stones), max_size=len(stones)))
    times: list[int | None] = []
    total = 0
    for gap in gaps:
        total += gap
        times.append(total)
    if not any(times):
        times = [None] * len(stones)
    name = st.from_regex(r"[A-Za-z][A-Za-z0-9 ._-]{0,15}[A-Za-z]", fullmatch=True)
    return GameRecord(
        moves=alternating_moves(list(stones), times=times),
        first=Player(name=draw(name)),
        second=Player(name=draw(st.just("") | name)),
    )


@settings(max_examples=150, deadline=None)
@given(psq_records())
def test_psq_round_trips_moves_times_and_names(record: GameRecord) -> None:
    assert load_psq(export_psq(record)) == record


@settings(max_examples=50, deadline=None)
@given(records())
def test_psq_keeps_the_points_of_any_record_it_can_hold(record: GameRecord) -> None:
    try:
        text = export_psq(record)
    except RecordFormatError as exc:
        message = str(exc)
        has_pass = any(m.point is None for m in record.moves)
        assert ("is a pass" in message and has_pass) or "earlier than the previous" in message
        return
    assert load_psq(text).points == record.points


def test_reads_a_gomocup_file() -> None:
    text = (
        "Piskvorky 15x15, 11:11, 0\r\n8,8,0\r\n9,8,0\r\n\r\n8,9,0\r\n-1\r\n"
        "RAPFI25.zip\r\nJAX25.zip\r\n0,Freestyle15_1\r\n"
    )
    record = load_psq(text)
    assert record.points == (P("h8"), P("i8"), P("h7"))
    assert [m.t_ms for m in record.moves] == [None, None, None]  # all 0 ms: no times
    assert record.player_of(Colour.BLACK).name == "RAPFI25.zip"


def test_reads_times_as_durations_and_names_after_the_moves() -> None:
    # Piskvork's seat order: Ada is player 1, Bob player 2, and the header's 1 says
    # player 2 moved first: Bob held Black (Wuzi's first seat)
    record = load_psq("Piskvorky 15x15, 0:0, 1\n8,8,1000\n9,7,250\nAda\nBob\n0\n")
    assert [m.t_ms for m in record.moves] == [1000, 1250]
    assert (record.first.name, record.second.name) == ("Bob", "Ada")
    assert record.player_of(Colour.BLACK).name == "Bob"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "line 1: empty file"),
        ("Gomoku 15x15\n8,8,0\n", "line 1: 'Gomoku 15x15' is not a psq header"),
        ("Piskvorky 20x20, 0:0, 0\n", "line 1: the board is 20x20"),
        ("Piskvorky 15x15, 0:0, 2\n", "line 1: the first player must be 0 or 1"),
        ("Piskvorky 15x15, 0:0, 0\n8,8,0\n16,3,0\n", "line 3: 16,3 is off the 15x15 board"),
        ("Piskvorky 15x15, 0:0, 0\n8,8,0\n0,3\n", "line 3: 0,3 is off the 15x15 board"),
        (
            "Piskvorky 15x15, 0:0, 0\n8,8,0\n9,9,0\n8,8,5\n",
            "line 4: 8,8 (h8) is already occupied (line 2)",
        ),
        ("Piskvorky 15x15, 0:0, 0\n8,8,-4\n", "line 2: a move cannot take -4 ms"),
        (
            "Piskvorky 15x15, 0:0, 0\n8,8,0\n9,9,604800001\n",
            "line 3: a move cannot take 604800001 ms (0 to 604800000, 7 days)",
        ),
        # A line that starts like a move and is none ends nothing: it is an error (the
        # rest of the file was taken as the players' names, the moves silently cut).
        (
            "Piskvorky 15x15, 0:0, 0\n8,8,0\n1e9,3,1000\n9,9,0\nA\nB\n-1\n",
            "line 3: '1e9,3,1000' is not a move",
        ),
        ("Piskvorky 15x15, 0:0, 0\n8,8,0\n٩,٩,0\n", "line 3: '٩,٩,0' is not a move"),
        ("Piskvorky 15x15, 0:0, 0\n８,８,0\n", "line 2: '８,８,0' is not a move"),
        ("Piskvorky 15x15, 0:0, 0\n8,8,1.5\n", "line 2: '8,8,1.5' is not a move"),
        ("Piskvorky １５x１５, 0:0, 0\n8,8,0\n", "is not a psq header"),
    ],
)
def test_errors_name_the_line(text: str, message: str) -> None:
    with pytest.raises(RecordFormatError) as info:
        load_psq(text)
    assert message in str(info.value)


def test_psq_round_trips_the_names_of_the_game() -> None:
    """Event, round, match, board, both players with team and id, table, start time and
    the result (with its reason) come back from the tag pairs after the end code."""
    record = load_psq(export_psq(sample_record()))
    sample = sample_record()
    black, white = sample.player_of(Colour.BLACK), sample.player_of(Colour.WHITE)
    assert (record.event, record.round, record.match, record.board) == ("Team final", "4", 3, 1)
    assert (record.first, record.second) == (black, white)  # Black is the psq's first seat
    assert (record.table, record.start_time) == (12, "2026-05-01T09:30:00+08:00")
    assert record.result is not None
    assert (record.result.winner, record.result.reason) == ("white", "forbidden-33")


@pytest.mark.parametrize(
    ("tag", "message"),
    [
        ('[Match "x"]', "line 6: [Match] must be a whole number from 1, not 'x'"),
        ('[Result "2-0"]', "line 6: [Result] must be 1-0, 0-1, 1/2-1/2 or *, not '2-0'"),
        ('[StartTime "today"]', "line 6: [StartTime] 'today' is not an ISO 8601 time"),
    ],
)
def test_a_bad_tag_pair_names_its_line(tag: str, message: str) -> None:
    with pytest.raises(RecordFormatError) as info:
        load_psq(f"Piskvorky 15x15, 0:0, 0\n8,8,0\nA\nB\n0\n{tag}\n")
    assert str(info.value) == message
