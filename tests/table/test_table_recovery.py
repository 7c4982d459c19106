"""Recovery after a crash: journaled inputs (through the codec and JSON) rebuild the table
exactly; HostRestarted holds the clocks until the referee resumes; due/next_due_ns tell
the host which ticks matter."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wuzi.clock.control import NS_PER_MS
from wuzi.journal import Journal
from wuzi.rules.board import Colour, parse_point
from wuzi.rules.game import Status
from wuzi.rules.procedure import Seat
from wuzi.table.codec import decode_input, encode_input
from wuzi.table.inputs import (
    Adjourn,
    AdjustTime,
    BoardAlert,
    Choose,
    Claim,
    ClockPressed,
    Decide,
    Declare,
    HostRestarted,
    RefereePause,
    RefereeResume,
    StoneSettled,
    TableInput,
    TableSetup,
    Tick,
)
from wuzi.table.outputs import AlertReason, MoveJudged, RefereeAlert, TableOutput
from wuzi.table.session import ADJOURN_HOLD, RECOVERY_HOLD, TableError, TableSession

S = 1_000_000_000
B, W = Colour.BLACK, Colour.WHITE
FIRST, SECOND = Seat.FIRST, Seat.SECOND
START_NS = 5 * S


class Script:
    """Inputs with a running instant: each one `gap` seconds after the previous."""

    def __init__(self) -> None:
        self.now = START_NS
        self.inputs: list[TableInput] = []

    def add(self, make: Callable[[int], TableInput], gap: int = 1) -> None:
        self.now += gap * S
        self.inputs.append(make(self.now))

    def stone(self, name: str, colour: Colour) -> None:
        self.add(lambda t: StoneSettled(now_ns=t, point=parse_point(name), colour=colour))

    def press(self, seat: Seat) -> None:
        self.add(lambda t: ClockPressed(now_ns=t, seat=seat))

    def move(self, name: str, colour: Colour, seat: Seat) -> None:
        self.stone(name, colour)
        self.press(seat)

    def removed(self, *names: str) -> None:
        points = tuple(parse_point(n) for n in names)
        self.add(lambda t: BoardAlert(now_ns=t, kind="removed", points=points))


def chinese_game() -> tuple[TableSetup, list[TableInput]]:
    """Chinese 2013 with the swap and two fifth-move offers, a stone left waiting for its
    press, a false claim, a pause, an adjustment, an adjournment, then Black's five."""
    s = Script()
    for name, colour in (("h8", B), ("h9", W), ("h10", B)):
        s.move(name, colour, FIRST)
    s.add(lambda t: Decide(now_ns=t, seat=SECOND, choice="swap"))
    s.press(SECOND)  # the second seat now holds Black
    s.move("a1", W, FIRST)  # W4
    s.stone("j8", B)
    s.stone("g12", B)
    s.press(SECOND)
    s.add(lambda t: Choose(now_ns=t, seat=FIRST, point=parse_point("j8")))
    s.press(FIRST)
    s.removed("g12")
    s.move("a3", W, FIRST)  # W6
    s.stone("i8", B)  # B7 …
    s.add(lambda t: Tick(now_ns=t), gap=15)  # … waits for its press: the referee is told
    s.press(SECOND)
    s.add(lambda t: Claim(now_ns=t, seat=FIRST, kind="forbidden"))  # a false claim
    s.add(lambda t: RefereeResume(now_ns=t, referee="ref-1", penalty="warning"))
    s.move("a5", W, FIRST)  # W8
    s.add(lambda t: RefereePause(now_ns=t, reason="noise in the hall"))
    s.add(lambda t: RefereeResume(now_ns=t))
    s.add(lambda t: AdjustTime(now_ns=t, seat=SECOND, delta_ms=30_000))
    s.move("g8", B, SECOND)  # B9: an open four
    s.add(lambda t: Adjourn(now_ns=t, reason="lunch", referee="ref-1"))
    s.add(lambda t: RefereeResume(now_ns=t, referee="ref-1"), gap=1800)
    s.move("a7", W, FIRST)  # W10
    s.move("k8", B, SECOND)  # B11: a five
    s.add(lambda t: Claim(now_ns=t, seat=SECOND, kind="five"))
    return TableSetup(opening="chinese-2013", time_control="900+10"), s.inputs


def yamaguchi_game() -> tuple[TableSetup, list[TableInput]]:
    """Yamaguchi: the opener declares three offers; White keeps one; play goes on."""
    s = Script()
    for name, colour in (("h8", B), ("h9", W), ("h10", B)):
        s.move(name, colour, FIRST)
    s.add(lambda t: Declare(now_ns=t, seat=FIRST, number=3))
    s.press(FIRST)
    s.add(lambda t: Decide(now_ns=t, seat=SECOND, choice="stay"))
    s.press(SECOND)
    s.move("a1", W, SECOND)
    for name in ("j8", "g12", "c3"):
        s.stone(name, B)
    s.press(FIRST)
    s.add(lambda t: Choose(now_ns=t, seat=SECOND, point=parse_point("j8")))
    s.removed("g12", "c3")
    s.move("a3", W, SECOND)  # W6 (its press also covers the choice)
    s.move("j10", B, FIRST)
    s.move("a5", W, SECOND)
    return TableSetup(opening="yamaguchi", time_control="600+5"), s.inputs


def soosorv_game() -> tuple[TableSetup, list[TableInput]]:
    """Soosõrv-4: White declares two offers after move 4; Black may swap before them."""
    s = Script()
    for name, colour in (("h8", B), ("h9", W), ("h10", B)):
        s.move(name, colour, FIRST)
    s.add(lambda t: Decide(now_ns=t, seat=SECOND, choice="stay"))
    s.press(SECOND)
    s.move("a1", W, SECOND)
    s.add(lambda t: Declare(now_ns=t, seat=SECOND, number=2))
    s.press(SECOND)
    s.add(lambda t: Decide(now_ns=t, seat=FIRST, choice="stay"))
    s.press(FIRST)
    s.stone("j8", B)
    s.stone("g12", B)
    s.press(FIRST)
    s.add(lambda t: Choose(now_ns=t, seat=SECOND, point=parse_point("j8")))
    s.press(SECOND)
    s.removed("g12")
    s.move("a3", W, SECOND)
    s.move("j10", B, FIRST)
    return TableSetup(opening="soosorv-4", time_control="40/5400:1800+30"), s.inputs


GAMES = {"chinese": chinese_game, "yamaguchi": yamaguchi_game, "soosorv": soosorv_game}


def play(setup: TableSetup, inputs: list[TableInput]) -> TableSession:
    session = TableSession(setup, START_NS)
    for event in inputs:
        session.handle(event)
    return session


def through_json(session: TableSession) -> list[TableInput]:
    """Every input of the session as the journal holds it and gives it back."""
    decoded = []
    for event in session.inputs:
        kind, payload = encode_input(event)
        text = json.dumps(payload, sort_keys=True)
        decoded.append(decode_input(kind, json.loads(text)))
    return decoded


def alerts(outputs: list[TableOutput]) -> list[AlertReason]:
    return [o.reason for o in outputs if isinstance(o, RefereeAlert)]


@pytest.mark.parametrize("name", sorted(GAMES))
def test_each_scripted_game_runs_to_its_end(name: str) -> None:
    setup, inputs = GAMES[name]()
    session = play(setup, inputs)
    assert session.game.status is (Status.OVER if name == "chinese" else Status.PLAYING)
    if name == "chinese":
        assert session.game.result is not None and session.game.result.winner is SECOND
        reasons = alerts(list(session.outputs))
        for reason in (AlertReason.UNPRESSED, AlertReason.CLAIM, AlertReason.FIVE):
            assert reason in reasons
    else:
        assert [type(o).__name__ for o in session.outputs].count("OpeningDeclared") == 1
        assert len(session.game.moves) == (8 if name == "yamaguchi" else 7)


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(sorted(GAMES)), st.data())
def test_a_journaled_prefix_rebuilds_the_table_and_a_restart_holds_the_clocks(
    name: str, data: st.DataObject
) -> None:
    setup, script = GAMES[name]()
    cut = data.draw(st.integers(0, len(script)), label="inputs before the crash")
    live = play(setup, script[:cut])
    rebuilt = TableSession.replay(through_json(live))
    assert rebuilt == live

    before = rebuilt.clock.state
    pending = rebuilt.pending_stone
    restart = rebuilt.inputs[-1].now_ns + 700 * NS_PER_MS  # the last instant it was alive
    out = rebuilt.handle(HostRestarted(now_ns=restart))
    assert alerts(out) == [AlertReason.HOST_RESTARTED]
    assert rebuilt.pending_stone == pending  # a stone waiting for its press still waits
    if rebuilt.game.is_over:
        assert rebuilt.clock.state.ended
        with pytest.raises(TableError, match="resume"):
            rebuilt.handle(RefereeResume(now_ns=restart + S))
        return
    assert rebuilt.clock.state.running is None
    assert RECOVERY_HOLD in rebuilt.clock.state.hold_names
    held = (rebuilt.clock.remaining_ns(FIRST, restart), rebuilt.clock.remaining_ns(SECOND, restart))
    resume = restart + 600 * S  # the referee checks the board for ten minutes
    assert (
        rebuilt.clock.remaining_ns(FIRST, resume),
        rebuilt.clock.remaining_ns(SECOND, resume),
    ) == held
    rebuilt.handle(RefereeResume(now_ns=resume, referee="ref-2"))
    state = rebuilt.clock.state
    assert state.running is not None and state.running is before.turn
    assert state.holds == ()
    after = (rebuilt.clock.remaining_ns(FIRST, resume), rebuilt.clock.remaining_ns(SECOND, resume))
    assert after == held  # the outage and the check are charged to nobody
    assert not rebuilt.adjourned and rebuilt.game.status is not Status.AWAITING_REFEREE
    # and the restart itself is journaled and replayed like any input
    assert TableSession.replay(through_json(rebuilt)) == rebuilt
    if pending is not None:
        done = rebuilt.handle(ClockPressed(now_ns=resume + S, seat=state.running))
        assert [o.point for o in done if isinstance(o, MoveJudged)] == [pending]


def test_the_journal_itself_round_trips_every_input(tmp_path: Path) -> None:
    setup, script = chinese_game()
    live = play(setup, script)
    path = tmp_path / "pi-01.journal"
    with Journal.open(path, "pi-01") as journal:
        journal.append_many([("t12", *encode_input(e), e.now_ns // NS_PER_MS) for e in live.inputs])
    with Journal.open(path, "pi-01") as journal:
        entries = list(journal.entries("t12"))
    rebuilt = TableSession.replay(decode_input(e.kind, e.payload) for e in entries)
    assert rebuilt == live
    assert [e.kind for e in entries][:2] == ["in.session_started", "in.stone_settled"]


def test_a_restart_of_a_finished_game_only_tells_the_referee() -> None:
    setup, script = chinese_game()
    session = play(setup, script)
    clock_events = len(session.clock.events)
    out = session.handle(HostRestarted(now_ns=session.inputs[-1].now_ns))
    assert out == [
        RefereeAlert(
            session.inputs[-1].now_ns,
            AlertReason.HOST_RESTARTED,
            "host restarted: the game is over; check the board",
        )
    ]
    assert len(session.clock.events) == clock_events


def test_a_second_restart_before_the_resume_and_an_adjourned_game() -> None:
    setup, script = chinese_game()
    cut = next(n for n, e in enumerate(script) if isinstance(e, Adjourn)) + 1
    session = play(setup, script[:cut])
    assert session.adjourned
    now = session.inputs[-1].now_ns
    session.handle(HostRestarted(now_ns=now + S))
    out = session.handle(HostRestarted(now_ns=now + 2 * S))  # it crashed again at once
    assert alerts(out) == [AlertReason.HOST_RESTARTED]
    holds = session.clock.state.hold_names
    assert sorted(holds) == sorted([ADJOURN_HOLD, RECOVERY_HOLD, "referee"])
    text = next(o.text for o in out if isinstance(o, RefereeAlert))
    assert text == "host restarted: clocks paused; check the board and resume"
    session.handle(RefereeResume(now_ns=now + 3 * S))  # one resume restarts play
    assert session.clock.state.running is not None and not session.adjourned


# --- which ticks matter ---------------------------------------------------------------


def _check_due(session: TableSession, probe: int) -> None:
    """``due`` flips exactly at ``next_due_ns`` and agrees with what a Tick does."""
    last = session.inputs[-1].now_ns
    nxt = session.next_due_ns()
    for t in {last, last + probe, *(() if nxt is None else (nxt - 1, nxt, nxt + 1))}:
        if t < last:
            continue
        expected = nxt is not None and t >= nxt
        assert session.due(t) is expected, (t, nxt)
        copy = TableSession.replay(session.inputs)
        assert bool(copy.handle(Tick(now_ns=t))) is expected


@settings(max_examples=40, deadline=None)
@given(
    st.sampled_from(sorted(GAMES)),
    st.data(),
    st.sampled_from(["10", "30+2", "60+5", "3/20:10", "10:3x5", "20d5", "30b5"]),
    st.integers(0, 40_000),
)
def test_due_is_true_exactly_from_next_due_ns(
    name: str, data: st.DataObject, control: str, alert_ms: int
) -> None:
    setup, script = GAMES[name]()
    setup = TableSetup(opening=setup.opening, time_control=control, unpressed_alert_ms=alert_ms)
    cut = data.draw(st.integers(0, len(script)))
    session = TableSession(setup, START_NS)
    for event in script[:cut]:
        try:
            session.handle(event)
        except TableError:  # a short clock may have stopped the script's game
            break
    probe = data.draw(st.integers(0, 120 * S))
    _check_due(session, probe)
    if session.due(session.inputs[-1].now_ns + probe):  # told once: then not due again
        session.handle(Tick(now_ns=session.inputs[-1].now_ns + probe))
        _check_due(session, probe)


def test_next_due_ns_of_a_waiting_stone_and_of_the_flag() -> None:
    s = TableSession(TableSetup(opening="free", time_control="60", unpressed_alert_ms=5000), 0)
    assert s.next_due_ns() == 60 * S  # the first seat's flag
    s.handle(StoneSettled(now_ns=2 * S, point=parse_point("h8"), colour=B))
    assert s.next_due_ns() == 7 * S  # the stone's press is overdue first
    assert not s.due(7 * S - 1) and s.due(7 * S)
    assert alerts(s.handle(Tick(now_ns=7 * S))) == [AlertReason.UNPRESSED]
    assert s.next_due_ns() == 60 * S and not s.due(59 * S)
    s.handle(HostRestarted(now_ns=8 * S))
    assert s.next_due_ns() is None and not s.due(10**6 * S)  # nothing runs
    with pytest.raises(TableError, match="earlier than the previous"):
        s.due(7 * S)
    with pytest.raises(TableError, match="now_ns must be an integer"):
        s.due(True)
