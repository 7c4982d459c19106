"""A table's device faults (``wuzi.table.faults``): one alert each way, one hold a spell."""

from __future__ import annotations

from wuzi.table.faults import DeviceFaults, DeviceLook

BOARD = "board /dev/wuzi/board-3"
CLOCK = "clock unit /dev/wuzi/clock-3"


def test_a_lost_link_is_told_once_held_once_and_told_again_when_served() -> None:
    faults = DeviceFaults()
    assert faults.quiet
    assert faults.link_changed(BOARD, down=True, why="link down: silent for 600 ms")
    assert not faults.link_changed(BOARD, down=True, why="link down: port vanished")
    news = faults.look({}, [DeviceLook(BOARD, link_down=True), DeviceLook(CLOCK)])
    assert news.alerts == (f"{BOARD} cannot be used: link down: silent for 600 ms",)
    assert news.changed and faults.any
    assert faults.hold_reason(clock_running=True) == f"{BOARD} cannot be used"
    assert faults.hold_reason(clock_running=True) is None  # once a spell
    # nothing new at the next looks: no alert, no change
    assert faults.look({}, [DeviceLook(BOARD, link_down=True)]).alerts == ()
    news = faults.look({}, [DeviceLook(BOARD), DeviceLook(CLOCK)])  # LINK_UP missed: still up
    assert news.alerts == (f"{BOARD} is served again",)
    assert news.changed and not faults.any and faults.quiet
    faults.link_changed(CLOCK, down=True, why="link down: stalled")
    faults.look({}, [DeviceLook(CLOCK, link_down=True)])
    assert faults.hold_reason(clock_running=True) == f"{CLOCK} cannot be used"  # a new spell


def test_a_refusal_is_told_again_when_another_wrong_device_answers() -> None:
    faults = DeviceFaults()
    first = faults.look({}, [DeviceLook(BOARD, refused="a clock unit answered")])
    assert first.alerts == (f"{BOARD} cannot be used: a clock unit answered",)
    again = faults.look({}, [DeviceLook(BOARD, refused="protocol 1.0 answered; 2 needed")])
    assert again.alerts == (f"{BOARD} cannot be used: protocol 1.0 answered; 2 needed",)


def test_a_changed_reason_within_an_outage_is_only_logged_and_no_clock_no_hold() -> None:
    faults = DeviceFaults()
    faults.look({BOARD: "cannot be opened"}, [])
    news = faults.look({BOARD: "FileNotFoundError: gone"}, [])
    assert news.alerts == () and news.logged == (f"{BOARD}: now FileNotFoundError: gone",)
    assert faults.hold_reason(clock_running=False) is None  # no running clock: nothing to hold
