"""The reconciler: stones from settled readings, alerts for everything else, no phantoms."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wuzi.link.reconciler import Alert, Reconciler, StoneEvent
from wuzi.rules.board import Colour, parse_point

B, W = 1, 2


def p(name: str) -> int:
    return parse_point(name)


def settle(r: Reconciler, now: int) -> list[dict[str, object]]:
    return [e.to_json() for e in r.poll(now)]


def test_a_placed_stone_becomes_a_stone_event_after_the_settle_time() -> None:
    r = Reconciler(settle_ms=150)
    r.sensor(p("h8"), B, 1000)
    assert r.poll(1100) == []
    assert r.next_deadline_ms() == 1150
    [ev] = r.poll(1150)
    assert ev == StoneEvent(p("h8"), Colour.BLACK, 1000)
    assert ev.to_json() == {"event": "stone", "point": "h8", "colour": "black", "at_ms": 1000}
    assert r.poll(5000) == [] and r.next_deadline_ms() is None


def test_a_slide_across_points_produces_only_the_final_stone() -> None:
    r = Reconciler(settle_ms=150)
    for i, name in enumerate(("e5", "f6", "g7")):
        r.sensor(p(name), W, 1000 + 60 * i)
        r.sensor(p(name), 0, 1000 + 60 * i + 50)
    r.sensor(p("h8"), W, 1200)
    assert r.poll(1300) == []
    assert settle(r, 1350) == [{"event": "stone", "point": "h8", "colour": "white", "at_ms": 1200}]


def test_moved_removed_and_two_stones() -> None:
    r = Reconciler(settle_ms=100, board=_board({"h8": B, "a1": W}))
    r.sensor(p("h8"), 0, 0)
    r.sensor(p("h9"), B, 10)
    [moved] = settle(r, 200)
    assert moved["kind"] == "moved" and moved["from"] == "h8" and moved["to"] == "h9"
    r.sensor(p("a1"), 0, 300)
    assert settle(r, 400)[0]["kind"] == "removed"
    r.sensor(p("c3"), B, 500)
    r.sensor(p("d4"), W, 520)
    [two] = settle(r, 700)
    assert two["kind"] == "two_stones" and two["points"] == ["c3", "d4"]


def test_wrong_colour_when_the_table_host_says_what_it_expects() -> None:
    r = Reconciler(settle_ms=100)
    r.expect(Colour.WHITE)
    r.sensor(p("h8"), B, 0)
    [alert] = r.poll(100)
    assert isinstance(alert, Alert)
    assert alert.to_json()["kind"] == "wrong_colour"
    assert alert.colour is Colour.BLACK and alert.expected is Colour.WHITE
    r.expect(Colour.BLACK)
    r.sensor(p("h9"), B, 200)
    assert isinstance(r.poll(300)[0], StoneEvent)


def test_stone_on_an_occupied_point() -> None:
    r = Reconciler(settle_ms=100, board=_board({"h8": B}))
    r.sensor(p("h8"), W, 0)
    r.sensor(p("i9"), 3, 0)  # both latches: two stones stacked on an empty point
    kinds = [(e["kind"], e["points"]) for e in settle(r, 100)]
    assert kinds == [("occupied", ["h8"]), ("occupied", ["i9"])]


def test_stuck_sensors_are_reported_once_and_then_ignored() -> None:
    r = Reconciler(settle_ms=100)
    column = tuple((row * 15 + 2, 1) for row in range(15))
    r.stuck_sensors(column, 0)
    for point, _ in column:
        r.sensor(point, B, 0)
    r.sensor(p("h8"), W, 10)
    events = settle(r, 200)
    assert events[0]["kind"] == "sensor_stuck" and len(events[0]["points"]) == 15  # type: ignore[arg-type]
    assert events[1] == {"event": "stone", "point": "h8", "colour": "white", "at_ms": 10}
    r.stuck_sensors(column, 300)
    assert r.poll(400) == []  # no new alert for the same points


def test_replayed_history_is_judged_on_its_own_timestamps() -> None:
    r = Reconciler(settle_ms=150)
    r.sensor(p("h8"), B, 100)
    r.sensor(p("i9"), W, 400)
    r.sensor(p("j10"), B, 700)
    stones = [e["point"] for e in settle(r, 5000)]
    assert stones == ["h8", "i9", "j10"]


def test_hold_waits_for_the_link_to_catch_up() -> None:
    r = Reconciler(settle_ms=100)
    r.sensor(p("h8"), B, 0)
    assert r.poll(500, hold=True) == []
    assert len(r.poll(500)) == 1


def test_new_boot_readings_refill_without_false_removals() -> None:
    r = Reconciler(settle_ms=150, board=_board({"h8": B}))
    r.new_boot(1000)
    r.sensor(p("h8"), B, 1020)  # the first debounced scan of the new boot
    assert r.poll(2000) == []


def test_resync_counts_differences_as_changes() -> None:
    r = Reconciler(settle_ms=100)
    r.resync(_board({"c3": W}), 50)
    events = settle(r, 200)
    assert [e.get("kind", e["event"]) for e in events] == ["resync", "stone"]


def test_bad_input_is_refused_and_changes_nothing() -> None:
    r = Reconciler()
    with pytest.raises(ValueError, match="point 225"):
        r.sensor(225, 1, 0)
    with pytest.raises(ValueError, match="state 4"):
        r.sensor(3, 4, 0)
    with pytest.raises(ValueError, match="225 cells"):
        r.resync(b"\x00", 0)
    with pytest.raises(ValueError, match="a1 has code 9"):
        r.set_board(b"\x09" + bytes(224))
    with pytest.raises(ValueError, match="settle_ms"):
        Reconciler(settle_ms=-1)
    with pytest.raises(ValueError, match="unknown alert kind"):
        r.link_alert("bogus", 0)
    assert r.settled == bytes(225) and r.poll(10_000) == []


def _board(stones: dict[str, int]) -> bytes:
    cells = bytearray(225)
    for name, code in stones.items():
        cells[p(name)] = code
    return bytes(cells)


@given(
    st.lists(st.integers(0, 224), min_size=1, max_size=20, unique=True),
    st.lists(st.integers(0, 224), min_size=20, max_size=20),
    st.lists(st.integers(200, 600), min_size=20, max_size=20),
)
@settings(max_examples=60)
def test_placements_with_transient_slides_give_exactly_the_stones(
    points: list[int], detours: list[int], gaps: list[int]
) -> None:
    r = Reconciler(settle_ms=150)
    t = 0
    out: list[tuple[int, Colour]] = []
    occupied: set[int] = set()
    for i, point in enumerate(points):
        colour = B if i % 2 == 0 else W
        detour = detours[i]
        if detour not in occupied and detour != point:  # the hand passes over another point
            r.sensor(detour, colour, t)
            r.sensor(detour, 0, t + 60)
        r.sensor(point, colour, t + 100)
        occupied.add(point)
        t += 100 + gaps[i]
        out += [(e.point, e.colour) for e in r.poll(t) if isinstance(e, StoneEvent)]
    out += [(e.point, e.colour) for e in r.poll(t + 1000) if isinstance(e, StoneEvent)]
    assert out == [(pt, Colour(B if i % 2 == 0 else W)) for i, pt in enumerate(points)]
