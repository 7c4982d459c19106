"""The public screens' delay buffer."""

from __future__ import annotations

import pytest

from wuzi.bus.schemas import Cleared
from wuzi.display.delay import DelayBuffer, DelayError
from wuzi.display.feed import FeedItem


def item(n: int, received_ms: int) -> FeedItem:
    topic = f"wuzi/v1/hall/table/{n}/state"
    return FeedItem(topic, Cleared(topic), received_ms)


def test_releases_after_the_delay_with_the_time_moved() -> None:
    buffer = DelayBuffer(60_000)
    buffer.push(item(1, 1_000))
    buffer.push(item(2, 2_000))
    assert buffer.release(60_999) == []
    assert buffer.next_release_ms() == 61_000
    out = buffer.release(61_000)
    assert [(i.topic.split("/")[4], i.received_ms) for i in out] == [("1", 61_000)]
    assert len(buffer) == 1
    assert [i.received_ms for i in buffer.release(10**9)] == [62_000]
    assert buffer.next_release_ms() is None


def test_zero_delay_passes_through() -> None:
    buffer = DelayBuffer(0)
    buffer.push(item(1, 500))
    assert buffer.release(500) == [item(1, 500)]
    assert not buffer.warming_up(500)


def test_order_is_kept_even_if_times_go_back() -> None:
    buffer = DelayBuffer(1_000)
    buffer.push(item(1, 5_000))
    buffer.push(item(2, 4_000))  # earlier stamp after a later one: held behind it
    assert buffer.release(5_999) == []
    assert [i.topic for i in buffer.release(6_000)] == [item(1, 0).topic, item(2, 0).topic]


def test_warming_up_for_the_first_delay() -> None:
    buffer = DelayBuffer.minutes(2)
    assert buffer.delay_ms == 120_000
    buffer.start(10_000)
    buffer.push(item(1, 10_500))
    assert buffer.warming_up(129_999)
    assert not buffer.warming_up(130_000)


@pytest.mark.parametrize("bad", [-1, 10**12, 1.5, True])
def test_bad_delays(bad: object) -> None:
    with pytest.raises(DelayError):
        DelayBuffer(bad)  # type: ignore[arg-type]


@pytest.mark.parametrize("minutes", [-1, 241, float("nan")])
def test_bad_minutes(minutes: float) -> None:
    with pytest.raises(DelayError):
        DelayBuffer.minutes(minutes)
