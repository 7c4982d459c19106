"""A host meets a board that booted long ago: its first scan against the journal.

The firmware's own SensorBoard runs in this process (the link tests' bench: a byte pipe,
a manual clock), has played for a while before the host's link connects, and the link is
the host's ``RecoveringBoardLink`` with the position the journal knows.
"""

from __future__ import annotations

from collections.abc import Callable

from support.boards import Bench
from wuzi.host.board_recovery import RecoveringBoardLink, scan_reconciler
from wuzi.link import reconciler, wire
from wuzi.link.reconciler import Alert, Reconciler, StoneEvent
from wuzi.rules.board import Colour, parse_point

BLACK, WHITE = 1, 2
H8, B1, I9, A3 = (parse_point(n) for n in ("h8", "b1", "i9", "a3"))


def cells(**stones: int) -> bytes:
    board = bytearray(225)
    for name, code in stones.items():
        board[parse_point(name)] = code
    return bytes(board)


JOURNAL = cells(h8=BLACK, b1=WHITE, i9=BLACK)


def host_meets(board: bytes, expected: Colour | None = Colour.WHITE) -> Bench:
    """A board that has played ``board`` long before the host's link connects."""
    bench = Bench()
    bench.table.cells[:] = board
    bench.step(2000)  # the MCU's history: the host skips it
    bench.link = RecoveringBoardLink(board=JOURNAL)
    bench.link.reconciler.expect(expected)
    bench.events = []
    bench.link.connection_made(bench.now)
    bench.step(600)
    return bench


def test_the_same_stones_are_no_event() -> None:
    bench = host_meets(JOURNAL)
    assert bench.events == []
    assert isinstance(bench.link, RecoveringBoardLink) and not bench.link.awaiting_scan
    assert bench.link.reconciler.settled == JOURNAL


def test_a_stone_placed_meanwhile_is_the_stone_it_is() -> None:
    bench = host_meets(cells(h8=BLACK, b1=WHITE, i9=BLACK, a3=WHITE))
    assert [(e.point, e.colour) for e in bench.events if isinstance(e, StoneEvent)] == [
        (A3, Colour.WHITE)
    ]
    assert bench.alerts() == []


def test_a_stone_of_the_wrong_colour_and_two_stones_are_the_usual_alerts() -> None:
    assert host_meets(cells(h8=BLACK, b1=WHITE, i9=BLACK, a3=BLACK)).alerts() == [
        reconciler.WRONG_COLOUR
    ]
    two = host_meets(cells(h8=BLACK, b1=WHITE, i9=BLACK, a3=WHITE, a5=WHITE))
    assert two.alerts() == [reconciler.TWO_STONES]


def test_a_stone_lifted_meanwhile_is_one_removed_alert() -> None:
    bench = host_meets(cells(h8=BLACK, i9=BLACK))
    assert [(e.kind, e.points) for e in bench.events if isinstance(e, Alert)] == [
        (reconciler.REMOVED, (B1,))
    ]


def test_play_goes_on_as_usual_after_the_scan() -> None:
    bench = host_meets(JOURNAL)
    bench.table.cells[A3] = WHITE
    bench.step(600)
    assert bench.stones() == [("a3", "white")]
    assert bench.alerts() == []


def test_a_reboot_later_is_the_board_s_own_news() -> None:
    bench = host_meets(JOURNAL)
    bench.reboot(4321)
    bench.step(1000)
    assert reconciler.REBOOTED in bench.alerts()
    assert reconciler.REMOVED not in bench.alerts()


def test_scan_reconciler_keeps_the_expected_colour_and_the_stuck_sensors() -> None:
    old = Reconciler(150, JOURNAL)
    old.expect(Colour.WHITE)
    old.stuck_sensors(((A3, 1),), 10)
    assert [a.kind for a in old.poll(10)] == [reconciler.SENSOR_STUCK]
    scan = cells(h8=BLACK, b1=WHITE, i9=BLACK, a3=BLACK)  # a3 reads: stuck, ignored
    fresh = scan_reconciler(old, scan, 100)
    assert fresh.expected is Colour.WHITE and fresh.stuck == {A3}
    assert fresh.poll(100) == []  # the stuck alert is not told twice; nothing settled yet
    assert fresh.poll(400) == []  # the stuck point is no stone


def _drop_the_first_snapshot(dropped: list[bytes]) -> Callable[[bytes], bytes]:
    """A fault on the MCU → host pipe: the first snapshot frame is lost."""

    def fault(data: bytes) -> bytes:
        out, at = bytearray(), 0
        while at < len(data):
            end = at + wire.HEADER_LEN + data[at + 1] + 2
            frame = data[at:end]
            if frame[4] == wire.T_SNAPSHOT and not dropped:
                dropped.append(frame)
            else:
                out += frame
            at = end
        return bytes(out)

    return fault


def test_a_stone_placed_before_the_scan_arrives_waits_for_a_scan_that_covers_it() -> None:
    bench = Bench()
    bench.table.cells[:] = JOURNAL
    bench.step(2000)
    link = RecoveringBoardLink(board=JOURNAL)
    link.reconciler.expect(Colour.WHITE)
    bench.link, bench.events = link, []
    dropped: list[bytes] = []
    bench.to_host = _drop_the_first_snapshot(dropped)
    link.connection_made(bench.now)
    bench.step(100)
    assert dropped and link.awaiting_scan
    bench.table.cells[A3] = WHITE  # its change reaches the host before any scan
    bench.step(1000)
    assert not link.awaiting_scan
    assert bench.stones() == [("a3", "white")]
    assert bench.alerts() == []
