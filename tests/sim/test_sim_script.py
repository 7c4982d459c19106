"""Simulator scripts: the documented verbs, and errors that name the line."""

from __future__ import annotations

import pytest

from wuzi.link.errors import ScriptError
from wuzi.rules.board import Colour, parse_point
from wuzi.sim.devices.clock_script import ClockStep, parse_clock_script
from wuzi.sim.devices.script import expected_stones, parse_script
from wuzi.sim.devices.virtual_board import Faults

SCRIPT = """
# a comment line
0 place h8 black
300 slide g7 h7 white   # passes over g7
100 remove a1
900 unplug 500
1000 reboot
1100 knock h7 h6
1200 stuck a1 both
1300 slow 400 25
1400 stall 2000
1500 replug 700
"""


def test_parse_sorts_by_time_and_keeps_the_details() -> None:
    steps = parse_script(SCRIPT)
    assert [s.verb for s in steps] == [
        "place",
        "remove",
        "slide",
        "unplug",
        "reboot",
        "knock",
        "stuck",
        "slow",
        "stall",
        "replug",
    ]
    slide = steps[2]
    assert slide.points == (parse_point("g7"), parse_point("h7"))
    assert slide.colour is Colour.WHITE and slide.line == 4
    assert steps[3].ms == 500 and steps[7].arg == 25 and steps[6].arg == 3
    assert (steps[8].ms, steps[9].ms, steps[9].line) == (2000, 700, 12)
    assert expected_stones(steps) == [
        (parse_point("h8"), Colour.BLACK),
        (parse_point("h7"), Colour.WHITE),
    ]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("10 place z9 black", "line 1: 'z9' is not a point"),
        ("0 place h8\n10 place h8 red", "line 1: expected '<t_ms> place <point> black|white'"),
        ("0 place h8 black\n10 place h9 red", "line 2: colour must be 'black' or 'white'"),
        ("x place h8 black", "line 1: the time must be a whole number, not 'x'"),
        ("-5 place h8 black", "line 1: the time must not be negative"),
        ("5 jump h8", "line 1: unknown step 'jump'"),
        ("5 slide h8 h8 black", "line 1: a slide needs two different points"),
        ("5 unplug", "line 1: expected '<t_ms> unplug <ms>'"),
        ("5 stall 10 20", "line 1: expected '<t_ms> stall <ms>'"),
        ("0 place h8 black\n5 replug x", "line 2: the replug time must be a whole number"),
        ("5 slow 100 0", "line 1: the scan period must be at least 1 ms"),
        ("5", "line 1: expected '<t_ms> <verb> ...'"),
        ("5 stuck a1 pink", "line 1: stuck takes black|white|both|clear"),
    ],
)
def test_errors_name_the_line(text: str, message: str) -> None:
    with pytest.raises(ScriptError, match=message.replace("|", r"\|").replace("(", r"\(")):
        parse_script(text)


def test_faults_flip_bits_at_about_the_rate_asked() -> None:
    f = Faults(ber=1e-2, seed=1)
    data = bytes(10_000)
    out = f.corrupt(data)
    flipped = sum(bin(b).count("1") for b in out)
    assert flipped == f.flipped_bits
    assert 600 < flipped < 1000  # 80 000 bits at 1e-2
    assert Faults(seed=1).corrupt(data) == data


def test_faults_drop_and_duplicate_whole_frames() -> None:
    f = Faults(drop=0.5, dup=0.5, seed=3)
    outs = [f.outgoing(b"frame") for _ in range(400)]
    assert {len(o) for o in outs} == {0, 1, 2}
    assert all(c == b"frame" for o in outs for c in o)
    with pytest.raises(ValueError, match="drop must be a probability"):
        Faults(drop=1.5)


def test_a_clock_script_names_buttons_by_seat_or_number() -> None:
    text = """
    # the players' hands and the cable
    900 claim bounce 2
    100 press black
    300 press WHITE bounce 4
    500 press 1
    600 press 0
    1000 unplug 300
    1100 reboot
    1200 stall 400
    1300 replug 500
    """
    assert parse_clock_script(text) == [
        ClockStep(100, "press", 0, line=4),
        ClockStep(300, "press", 1, 4, line=5),
        ClockStep(500, "press", 1, line=6),
        ClockStep(600, "press", 0, line=7),
        ClockStep(900, "claim", 2, 2, line=3),
        ClockStep(1000, "unplug", ms=300, line=8),
        ClockStep(1100, "reboot", line=9),
        ClockStep(1200, "stall", ms=400, line=10),
        ClockStep(1300, "replug", ms=500, line=11),
    ]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("5 press", "line 1: expected '<t_ms> press black|white|0|1 [bounce <n>]'"),
        ("5 press black twice", "line 1: expected '<t_ms> press black|white|0|1 [bounce <n>]'"),
        ("5 press black bounce 99", "line 1: at most 50 bounces, not 99"),
        ("5 reboot now", "line 1: expected '<t_ms> reboot'"),
        ("5 remove h8", "line 1: unknown step 'remove'; expected one of press, claim"),
    ],
)
def test_clock_script_errors_name_the_line(text: str, message: str) -> None:
    with pytest.raises(ScriptError, match=message.replace("|", r"\|").replace("[", r"\[")):
        parse_clock_script(text)
