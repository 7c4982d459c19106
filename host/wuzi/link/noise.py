"""A noisy line, told once: the share of frames that arrive damaged, measured per sample.

A line with bit errors is not a broken one: the CRC catches the damage, the sessions ask
again (HELLO, REPLAY, STEADY_REQ are all retried) and the game goes on. But a cable that
damages one frame in ten is worth a technician's look before it gets worse, so the
referees are told — once, with the rate, not once per frame: ``NoiseMeter`` counts the
frames read whole and the damaged ones (bad CRC, bad header) in samples of
``SAMPLE_FRAMES`` and reports the first sample at or over ``NOISY_PCT`` (``LineNoisy``).
It reports again only after ``CLEAN_SAMPLES`` samples in a row under half that rate (the
cable was changed, or the interference went away).

Why whole samples of 200 frames rather than a running rate: a board sends ~5 frames a
second, so a sample is ~40 s of line, and at a bit error rate of 1e-4 (a usable line:
~2 % of heartbeats damaged) a sample reaches 8 % with odds near 1e-5, while at 1e-3
(~17 % damaged) every sample does. A running rate over fewer frames would cry wolf.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["CLEAN_SAMPLES", "NOISY_PCT", "SAMPLE_FRAMES", "LineNoisy", "NoiseMeter"]

NOISY_PCT = 8.0
SAMPLE_FRAMES = 200  # frames read whole plus damaged ones, per sample
CLEAN_SAMPLES = 10  # samples under NOISY_PCT / 2 in a row before a new episode is told


@dataclass(frozen=True)
class LineNoisy:
    """The line to a device damages frames: ``corrupted`` of ``corrupted + frames`` in the
    sample that crossed ``NOISY_PCT``, ending at host ms ``at_ms``."""

    at_ms: int
    corrupted: int
    frames: int

    @property
    def pct(self) -> float:
        return 100.0 * self.corrupted / max(1, self.corrupted + self.frames)

    @property
    def text(self) -> str:
        """The rate in words: "3.1 % of frames corrupted (6 of 200)"."""
        return (
            f"{self.pct:.1f} % of frames corrupted ({self.corrupted} of"
            f" {self.corrupted + self.frames})"
        )


class NoiseMeter:
    """Counts frames and damaged frames; says when a line becomes noisy (once per episode)."""

    def __init__(self) -> None:
        self.frames = 0  # in the current sample
        self.corrupted = 0
        self.told = False  # the current episode has been reported
        self._clean = 0  # samples in a row under half the rate, since it was told

    def count(self, frames: int, corrupted: int, now_ms: int) -> LineNoisy | None:
        """Add what one read brought; the report, when this read completes a noisy sample
        of a line not reported yet."""
        self.frames += frames
        self.corrupted += corrupted
        if self.frames + self.corrupted < SAMPLE_FRAMES:
            return None
        sample = LineNoisy(now_ms, self.corrupted, self.frames)
        self.frames = self.corrupted = 0
        if sample.pct >= NOISY_PCT:
            self._clean = 0
            if not self.told:
                self.told = True
                return sample
        elif sample.pct < NOISY_PCT / 2 and self.told:
            self._clean += 1
            if self._clean >= CLEAN_SAMPLES:
                self.told = False
                self._clean = 0
        return None
