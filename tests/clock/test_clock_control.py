"""Time-control specs: PGN TimeControl syntax, the byo-yomi and delay extensions, presets,
and errors that name the field and character at fault."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from wuzi.clock.control import (
    MAX_COUNT,
    MAX_PERIOD_NS,
    NS_PER_MS,
    NS_PER_S,
    PRESETS,
    Bonus,
    Overtime,
    OvertimeKind,
    Phase,
    TimeControl,
    format_seconds,
    parse_control,
)
from wuzi.clock.errors import ClockError, ControlSpecError

S = NS_PER_S


def test_the_events_controls() -> None:
    # EVENTS.md: 45 min + 30 s (team final), 60 min and 10 min sudden death, playoffs.
    assert parse_control("2700+30") == TimeControl((Phase(2700 * S, None, Bonus.FISCHER, 30 * S),))
    assert parse_control("3600") == TimeControl((Phase(3600 * S),))
    assert parse_control("600") == TimeControl((Phase(600 * S),))
    assert parse_control("300+3").phases[0].bonus_ns == 3 * S
    assert parse_control("180+2").phases[0].time_ns == 180 * S
    assert {name: str(parse_control(name)) for name in PRESETS} == PRESETS


def test_periods_by_moves_and_on_expiry() -> None:
    control = parse_control("40/5400:1800+30")
    assert control.phases == (
        Phase(5400 * S, 40),
        Phase(1800 * S, None, Bonus.FISCHER, 30 * S),
    )
    assert control.describe() == ("40 moves in 1 h 30 min, then 30 min with 30 s added per move")
    assert parse_control("40/7200").describe() == "40 moves in 2 h, repeating"
    assert parse_control("3600:600").phases == (Phase(3600 * S), Phase(600 * S))


def test_byo_yomi_canadian_delay_bronstein() -> None:
    assert parse_control("600:5x30") == TimeControl(
        (Phase(600 * S),), Overtime(OvertimeKind.BYOYOMI, 30 * S, periods=5)
    )
    assert parse_control("5x30").phases == (Phase(0),)  # no main time
    assert str(parse_control("5x30")) == "5x30"
    assert parse_control("600:c25/300").overtime == Overtime(
        OvertimeKind.CANADIAN, 300 * S, periods=1, moves=25
    )
    assert parse_control("300d5").phases[0] == Phase(300 * S, None, Bonus.DELAY, 5 * S)
    assert parse_control("300b5").phases[0] == Phase(300 * S, None, Bonus.BRONSTEIN, 5 * S)
    assert parse_control("300D5") == parse_control("300d5")  # letters in either case
    assert parse_control(" 2700+30 ") == parse_control("2700+30")
    assert parse_control("1.5+0.25").phases[0] == Phase(
        1500 * NS_PER_MS, None, Bonus.FISCHER, 250 * NS_PER_MS
    )
    assert parse_control("600:5x30").describe() == "10 min, then byo-yomi: 5 periods of 30 s"


@pytest.mark.parametrize(
    "spec",
    [
        "3600",
        "2700+30",
        "40/5400:1800+30",
        "40/5400+30:20/1800+30:900+30",
        "3600:600",
        "600:5x30",
        "5x30",
        "600:c25/300",
        "300d5",
        "300b5",
        "1.5+0.25",
        "40/7200",
    ],
)
def test_canonical_text_reads_back(spec: str) -> None:
    control = parse_control(spec)
    assert str(control) == spec
    assert parse_control(str(control)) == control


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        ("", "empty"),
        ("?", "unknown time control"),
        ("-", "without a time control"),
        ("*180", "sandclock"),
        ("40/", "field 1 '40/': it ends where the seconds for the 40 moves"),
        ("40/5400:", "field 2 is empty"),
        ("3600::60", "field 2 is empty (after field 1 and before ':' at character 6)"),
        ("3600+x", "field 1 '3600+x': character 6 'x': expected the Fischer increment"),
        ("40.5/60", "character 1 '4': expected a whole number of moves"),
        ("0/60", "at least 1 for the number of moves"),
        ("60:5x30:60", "field 2 '5x30': byo-yomi must be the last field"),
        ("40/60:5x30", "would never start"),
        ("60+5:5x30", "cannot have an increment or delay"),
        ("60 +5", "character 3 ' ': spaces are not allowed"),
        ("1.2345", "character 6 '5': expected at most 3 decimals"),
        ("60q", "character 3 'q': expected '/', 'x', '+', 'd', 'b'"),
        ("c0/30", "character 2 '0': expected at least 1 move per Canadian period"),
        ("c5/30x", "character 6 'x': expected the end of the field after the Canadian period"),
        ("0", "the time must be more than 0 s"),
        ("60:0", "period 2 (0): the time must be more than 0 s"),
        ("5x0", "a byo-yomi period of more than 0 s"),
        ("abc", "character 1 'a': expected a number of seconds"),
        ("60+5d", "character 5 'd': expected the end of the field after the Fischer increment"),
        ("60:1.5x30", "character 4 '1': expected a whole number of byo-yomi periods"),
        ("６0", "character 1 '６'"),
    ],
)
def test_malformed_specs_say_what_is_wrong(spec: str, words: str) -> None:
    with pytest.raises(ControlSpecError) as info:
        parse_control(spec)
    assert words in str(info.value)
    assert isinstance(info.value, ClockError)


def test_not_text_is_refused() -> None:
    with pytest.raises(ControlSpecError, match="is text"):
        parse_control(3600)  # type: ignore[arg-type]
    with pytest.raises(ControlSpecError, match="is text"):
        parse_control(["3600"])  # type: ignore[arg-type]


def test_constructor_checks_the_structure() -> None:
    with pytest.raises(ControlSpecError, match="at least one period"):
        TimeControl(())
    with pytest.raises(ControlSpecError, match="would never start"):
        TimeControl((Phase(60 * S, 40),), Overtime(OvertimeKind.BYOYOMI, 30 * S, periods=3))


def test_format_seconds() -> None:
    assert format_seconds(30 * S) == "30"
    assert format_seconds(2500 * NS_PER_MS) == "2.5"
    assert format_seconds(125 * NS_PER_MS) == "0.125"


_seconds = st.integers(1, 10_000_000).map(lambda ms: ms * NS_PER_MS)
_phase = st.builds(
    Phase,
    _seconds,
    st.none() | st.integers(1, 60),
    st.sampled_from(list(Bonus)),
    st.integers(0, 60_000).map(lambda ms: ms * NS_PER_MS),
).map(lambda p: p if p.bonus is not Bonus.NONE else Phase(p.time_ns, p.moves))


@st.composite
def controls(draw: st.DrawFn) -> TimeControl:
    phases = draw(st.lists(_phase, min_size=1, max_size=4))
    overtime = None
    if draw(st.booleans()):
        phases[-1] = Phase(phases[-1].time_ns)
        if draw(st.booleans()):
            overtime = Overtime(
                OvertimeKind.BYOYOMI, draw(_seconds), periods=draw(st.integers(1, 9))
            )
        else:
            overtime = Overtime(
                OvertimeKind.CANADIAN, draw(_seconds), moves=draw(st.integers(1, 30))
            )
    return TimeControl(tuple(phases), overtime)


@given(controls())
def test_any_control_reads_back_from_its_text(control: TimeControl) -> None:
    assert parse_control(str(control)) == control
    assert control.describe()


# --- limits (docs/clock.md "Limits") ----------------------------------------------------


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        (
            "99999999999999999999",
            "field 1 '99999999999999999999': character 1 '9': expected at most 86400 s",
        ),
        ("86401", "at most 86400 s (24 h) for a number of seconds"),
        ("86400.001", "character 1 '8': expected at most 86400 s"),
        ("40/86401", "character 4 '8': expected at most 86400 s (24 h) for the seconds for the 40"),
        ("600+86401", "at most 86400 s (24 h) for the Fischer increment"),
        ("300d90000", "at most 86400 s (24 h) for the delay"),
        ("5x86401", "at most 86400 s (24 h) for the seconds of each byo-yomi period"),
        ("c10/86401", "at most 86400 s (24 h) for the seconds of the Canadian period"),
        ("1001/600", "at most 1000 for the number of moves in a period"),
        ("1001x30", "at most 1000 for the number of byo-yomi periods"),
        ("c1001/300", "at most 1000 for the number of moves of the Canadian period"),
        ("9" * 5000, "5000 characters; a time control is at most 200 characters"),
        ("600:" * 60 + "600", "a time control is at most 200 characters"),
    ],
)
def test_limits_name_the_field(spec: str, words: str) -> None:
    with pytest.raises(ControlSpecError) as info:
        parse_control(spec)
    assert words in str(info.value)


def test_the_limits_themselves_are_accepted() -> None:
    control = parse_control("1000/86400+86400:86400d86400:86400:1000x86400")
    assert control.phases[0].time_ns == MAX_PERIOD_NS
    assert control.overtime is not None and control.overtime.periods == MAX_COUNT
    assert parse_control("c1000/86400").overtime == Overtime(
        OvertimeKind.CANADIAN, MAX_PERIOD_NS, 1, 1000
    )


def test_constructor_keeps_the_limits() -> None:
    with pytest.raises(ControlSpecError, match=r"period 1: times are at most 86400 s \(24 h\)"):
        TimeControl((Phase(MAX_PERIOD_NS + 1),))
    with pytest.raises(ControlSpecError, match="the number of moves is at most 1000"):
        TimeControl((Phase(60 * S, moves=MAX_COUNT + 1),))
    with pytest.raises(ControlSpecError, match="byo-yomi: the period is at most"):
        TimeControl((Phase(0),), Overtime(OvertimeKind.BYOYOMI, MAX_PERIOD_NS + 1, 5))
    with pytest.raises(ControlSpecError, match="periods and of moves is at most 1000"):
        TimeControl((Phase(0),), Overtime(OvertimeKind.BYOYOMI, 30 * S, MAX_COUNT + 1))
