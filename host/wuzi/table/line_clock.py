"""How far the other host's clock is from this one's, and how sure we are: pure.

The owner host charges an away player's time from the away host's own stamps (the press
of their clock unit, the board's instant of a stone), so that network delay is charged
to nobody. It needs the away host's monotonic clock in its own time, with a bound it can
show the referees. The two hosts cannot read each other's clocks; they compare them the
way NTP does, with the packets they exchange anyway (every 250 ms each way at least):
each packet echoes the newest one heard from the other side and says how long it held it.

A packet sent at my ``t1``, received by the other side at its ``t2``, answered at its
``t3`` and received by me at ``t4`` bounds the offset θ (other minus mine) whatever the
two delays were, as long as neither is negative: ``t3 - t4 <= θ <= t2 - t1``. The
interval is as wide as the round trip without the hold (``rtt = t4 - t1 - (t3 - t2)``);
its middle is the estimate, half the round trip its error. Delays vary (queues,
jitter, a bridged broker's batching): the sample with the shortest round trip of the
recent window gives the tightest interval (min-RTT filtering). Each interval is widened
by 1 ms for the stamps' millisecond resolution and by the two clocks' possible drift
(``DRIFT_PPM``) over the other side's hold and, as it ages, since: the bound stays a
bound (a packet echoed after a cut of minutes still gives a true one).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

__all__ = [
    "DRIFT_PPM",
    "MAX_SAMPLES",
    "OFFSET_WINDOW_MS",
    "LineOffset",
    "OffsetEstimator",
]

OFFSET_WINDOW_MS = 10_000
"""Samples older than this are forgotten: 10 s holds some 40-80 round trips at the line's
250 ms pings, enough for one with little queueing, while a route that changed for good
(a longer path after a broker failover) is followed within 10 s."""
MAX_SAMPLES = 256
"""At most this many samples are kept (a burst of resends after a cut gives many)."""
DRIFT_PPM = 200
"""How fast two hosts' monotonic clocks may drift apart (a quartz crystal is within
±50 ppm, two of them ±100; 200 leaves room for temperature): 2 ms per 10 s of age."""
STAMP_MS = 1
"""The stamps' resolution: each end of an interval may be off by this much."""


@dataclass(frozen=True)
class LineOffset:
    """The other clock minus this one, ``offset_ms``, within ``error_ms`` (the bound the
    referees are shown), from a sample of round trip ``rtt_ms`` measured at
    ``measured_ms`` (this side's time)."""

    offset_ms: int
    error_ms: int
    rtt_ms: int
    measured_ms: int


@dataclass(frozen=True)
class _Sample:
    lo_ms: int  # the offset is at least this (t3 - t4)
    hi_ms: int  # and at most this (t2 - t1)
    at_ms: int  # t4, this side's time
    slack_ms: int  # the drift while the other side held the packet it echoes


class OffsetEstimator:
    """The offset of the other side's clock from this side's, from the packets' echoes."""

    def __init__(self) -> None:
        self._samples: deque[_Sample] = deque(maxlen=MAX_SAMPLES)

    def reset(self) -> None:
        """Forget every sample (the other side restarted: its clock is another one)."""
        self._samples.clear()

    def sample(self, echo_ms: int, echo_age_ms: int, their_sent_ms: int, now_ms: int) -> bool:
        """A packet sent by the other side at its ``their_sent_ms`` echoes this side's
        packet sent at ``echo_ms``, held there ``echo_age_ms``; it arrived ``now_ms``.
        False (the sample is not kept) when it cannot be true: a negative round trip or
        hold (a stale echo of another run, a corrupt packet)."""
        rtt_ms = now_ms - echo_ms - echo_age_ms
        if echo_age_ms < 0 or rtt_ms < 0:
            return False
        t2 = their_sent_ms - echo_age_ms
        slack_ms = _drift_ms(echo_age_ms)
        self._samples.append(_Sample(their_sent_ms - now_ms, t2 - echo_ms, now_ms, slack_ms))
        return True

    def estimate(self, now_ms: int) -> LineOffset | None:
        """The tightest bound of the window at ``now_ms``, None with no recent sample."""
        samples = self._samples
        while samples and now_ms - samples[0].at_ms > OFFSET_WINDOW_MS:
            samples.popleft()
        best: LineOffset | None = None
        for s in samples:
            drift_ms = s.slack_ms + _drift_ms(max(0, now_ms - s.at_ms))
            lo = s.lo_ms - STAMP_MS - drift_ms
            hi = s.hi_ms + STAMP_MS + drift_ms
            mid = (lo + hi) // 2
            error = max(hi - mid, mid - lo)
            if best is None or error < best.error_ms:
                best = LineOffset(mid, error, s.hi_ms - s.lo_ms, s.at_ms)
        return best


def _drift_ms(age_ms: int) -> int:
    """How far the two clocks may drift apart in ``age_ms``, rounded up."""
    return -(-age_ms * DRIFT_PPM // 1_000_000)
