"""STEADY (wire protocol 2.1) on the host's side, against the real firmware logic: a clock
press is vouched for within one answer instead of waiting out the debounce, a quiet window
is confirmed without a round trip after its end, an answer ahead of its events is not
believed, a 2.0 board is still served by HELLO and the debounce rule, and a loop waiting
for an answer sleeps instead of spinning."""

from __future__ import annotations

import pytest

from support.boards import Bench
from wuzi.link import wire
from wuzi.rules.board import parse_point
from wuzi.sim.firmware import wire as fw_wire


def _types(data: bytes) -> list[int]:
    dec = wire.Decoder(len(data) + 16)
    dec.feed(data)
    out = []
    while (t := dec.next_frame()) >= 0:
        out.append(t)
    return out


def _recording(bench: Bench) -> list[int]:
    """The message types the host sends to the board from now on."""
    sent: list[int] = []

    def record(data: bytes) -> bytes:
        sent.extend(_types(data))
        return data

    bench.to_mcu = record
    return sent


def _steps_until_settled(b: Bench, t: int, limit: int = 40) -> int:
    steps = 0
    while not b.link.settled_through(t):
        b.link.ask_now(b.now, t)
        b.step(5)
        steps += 1
        assert steps < limit, "never settled"
    return steps


def test_a_press_on_a_quiet_board_is_vouched_for_by_one_answer() -> None:
    b = Bench(debounce_scans=4)  # a 20 ms debounce the 2.0 rule would wait out
    b.step(300)
    sent = _recording(b)
    t = b.now
    assert not b.link.settled_through(t)
    assert _steps_until_settled(b, t) <= 2  # ask, answer: no debounce wait
    assert sent.count(wire.T_STEADY_REQ) == 1 and wire.T_HELLO not in sent
    assert b.link.session.steady_until_ms is not None and b.link.session.steady_until_ms > t


def test_a_stone_put_down_at_the_press_is_vouched_for_only_as_an_event() -> None:
    b = Bench(debounce_scans=4)
    b.step(300)
    t = b.now
    b.table.cells[parse_point("h8")] = 1  # lands within the press's millisecond
    while not b.link.settled_through(t):
        b.link.ask_now(b.now, t)
        b.step(5)
        assert b.now < t + 1000, "never settled"
    assert b.stones() == [("h8", "black")]


def test_a_2_0_board_is_asked_hello_and_a_press_waits_for_its_debounce(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(fw_wire, "PROTOCOL_MINOR", 0)
    b = Bench(debounce_scans=4)
    b.step(300)
    assert b.link.session.info is not None and b.link.session.info.minor == 0
    assert not b.link.session.answers_steady
    sent = _recording(b)
    t = b.now
    steps = _steps_until_settled(b, t)
    assert steps >= 4  # heard up to t + 20 ms debounce
    assert wire.T_STEADY_REQ not in sent and wire.T_HELLO in sent
    b.table.cells[parse_point("h8")] = 1
    b.step(400)
    assert b.stones() == [("h8", "black")]  # windows confirmed by HELLO / INFO


def test_a_quiet_window_is_asked_about_before_its_end() -> None:
    b = Bench()
    b.step(300)
    sent = _recording(b)
    b.table.cells[parse_point("h8")] = 1
    asked_at: int | None = None
    deadline: int | None = None
    while not b.stones():
        b.step(5)
        if asked_at is None and wire.T_STEADY_REQ in sent:
            asked_at = b.now
        deadline = b.link.reconciler.quiet_deadline_ms() or deadline
        assert b.now < 2000, "never settled"
    quiet = b.link.session.steady_until_ms
    assert asked_at is not None and quiet is not None
    assert asked_at < quiet - 100  # asked as the window began, answered at its end
    # ... at the start of the window's last millisecond, as a heartbeat stamped then would
    # confirm it; not a millisecond later
    assert quiet == deadline
    assert wire.T_HELLO not in sent


def test_an_answer_ahead_of_its_events_is_not_believed() -> None:
    b = Bench()
    b.step(300)
    drop_changes = [True]

    def without_changes(data: bytes) -> bytes:
        if not drop_changes[0]:
            return data
        out = bytearray()
        view = memoryview(data)
        at = 0
        while at < len(data):  # whole frames only: drop the CHANGEs
            size = wire.OVERHEAD + view[at + 1]
            if view[at + 4] != wire.T_CHANGE:
                out += view[at : at + size]
            at += size
        return bytes(out)

    b.to_host = without_changes
    b.table.cells[parse_point("h8")] = 1
    b.step(40)  # the stone is an event on the board, lost on the way
    t = b.now
    b.link.ask_now(b.now, t)
    b.step(10)
    assert not b.link.settled_through(t)  # the answer counts an event the host lacks
    drop_changes[0] = False
    _steps_until_settled(b, t)
    assert b.link.session.health.replays >= 1 or b.link.session.health.event_gaps >= 1
    b.step(400)
    assert b.stones() == [("h8", "black")]


def test_a_loop_waiting_for_the_answer_sleeps_until_the_retry() -> None:
    b = Bench()
    b.step(300)
    b.to_host = lambda data: bytes(
        data if fw_wire.T_STEADY not in _types(data) else b""
    )  # every answer lost
    b.table.cells[parse_point("h8")] = 1
    b.step(30)
    quiet = b.link.reconciler.quiet_deadline_ms()
    assert quiet is not None
    while b.now < quiet + 20:
        b.step(5)
    deadline = b.link.next_deadline_ms()
    assert deadline is not None and deadline > b.now  # not a deadline already past


def test_an_answer_vouches_only_for_instants_before_its_question() -> None:
    """A question sent during millisecond ``t`` is looked at after it was sent, not after
    the whole millisecond: a press stamped ``t`` may come later within it, so the answer
    settles presses before ``t`` only."""
    b = Bench()
    b.step(300)
    t = b.now
    b.link.ask_now(t, t - 1)  # vouch for t - 1: asked during t, due at once
    b.step(10)
    assert b.link.session.steady_until_ms == t
    assert b.link.settled_through(t - 1)
    assert not b.link.settled_through(t)


def test_a_question_asked_after_the_press_vouches_for_it_in_its_own_millisecond() -> None:
    """``vouch_now``: the press's frame arrived before the question left, so the answer
    covers the press whatever millisecond it is stamped — no wait for the next one."""
    b = Bench()
    b.step(300)
    t = b.now
    ticket = b.link.vouch_now(t)
    assert ticket > 0
    assert not b.link.settled_through(t, ticket)
    b.step(10)
    assert b.link.session.steady_until_ms == t  # by the millisecond alone: not enough
    assert b.link.settled_through(t, ticket)
    assert not b.link.settled_through(t, ticket + 1)  # a later question is not answered yet
