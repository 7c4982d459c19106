"""The proxy's timing policy: delays drawn within the jitter, a stream's order kept whatever
the draws, and the histogram of what was applied."""

from __future__ import annotations

import math
import random

import pytest

from wuzi.sim.net.delay import ChunkSchedule, DelayHistogram, OneWayDelay

MS = 1_000_000


@pytest.mark.parametrize(
    ("delay_ms", "jitter_ms", "words"),
    [
        (-1.0, 0.0, "delay must be >= 0"),
        (math.nan, 0.0, "delay must be >= 0"),
        (10.0, 11.0, "jitter must be between 0 and the delay (10.0 ms)"),
        (10.0, -1.0, "jitter must be between 0"),
    ],
)
def test_a_delay_that_cannot_be_says_why(delay_ms: float, jitter_ms: float, words: str) -> None:
    with pytest.raises(ValueError, match=words.replace("(", r"\(").replace(")", r"\)")):
        OneWayDelay(delay_ms, jitter_ms)


def test_a_round_trip_is_half_each_way() -> None:
    assert OneWayDelay.for_round_trip(150, 15) == OneWayDelay(75, 15)


def test_draws_stay_within_the_jitter_and_spread_over_it() -> None:
    delay = OneWayDelay(75, 15)
    rng = random.Random(3)
    draws_ms = [delay.draw_ns(rng) / MS for _ in range(2000)]
    assert min(draws_ms) >= 60 and max(draws_ms) <= 90
    assert min(draws_ms) < 61 and max(draws_ms) > 89  # the whole range, not one value
    assert 74 < sorted(draws_ms)[1000] < 76


def test_chunks_far_apart_get_their_own_draw() -> None:
    schedule = ChunkSchedule(OneWayDelay(75, 15), random.Random(1))
    releases = [schedule.release_ns(i * 100 * MS) - i * 100 * MS for i in range(50)]
    assert len(set(releases)) > 40
    assert all(60 * MS <= r <= 90 * MS for r in releases)


def test_a_short_draw_after_a_long_one_waits_for_it() -> None:
    schedule = ChunkSchedule(OneWayDelay(20, 15), random.Random(7))
    arrivals = [i * MS // 2 for i in range(400)]  # a burst: every half millisecond
    releases = [schedule.release_ns(at) for at in arrivals]
    assert releases == sorted(releases)
    # the clamp was needed: a free draw would have overtaken an earlier chunk
    free = ChunkSchedule(OneWayDelay(20, 15), random.Random(7))
    free_releases = [at + free.delay.draw_ns(free.rng) for at in arrivals]
    assert free_releases != sorted(free_releases)


def test_the_histogram_says_what_was_applied() -> None:
    histogram = DelayHistogram()
    assert histogram.stats() is None
    for i, delay_ms in enumerate([70, 80, 75, 90, 60]):
        histogram.add(arrival_ns=i * MS, sent_ns=i * MS + delay_ms * MS)
    histogram.add_held()
    stats = histogram.stats()
    assert stats is not None
    assert (stats.count, stats.median_ms, stats.min_ms, stats.max_ms) == (5, 75, 60, 90)
    assert stats.p99_ms == pytest.approx(89.6)
    assert histogram.held == 1


def test_the_histogram_keeps_the_newest_samples_and_refuses_time_backwards() -> None:
    histogram = DelayHistogram(limit=3)
    for delay_ms in (1, 2, 3, 4):
        histogram.add(0, delay_ms * MS)
    assert histogram.samples_ms == [2, 3, 4]
    with pytest.raises(ValueError, match="before it arrived"):
        histogram.add(10, 5)
