"""What ``wuzi bench venue`` reports as the venue's memory (the run itself plays the
boards and the people, and under ``wuzi bench`` has run every other area first)."""

from __future__ import annotations

from wuzi.sim.bench.venue import largest_venue_process
from wuzi.sim.final.run import RUN_PROCESS


def test_the_largest_venue_process_is_never_the_simulator() -> None:
    peaks = {RUN_PROCESS: 327.0, "director": 48.5, "pi-1": 61.2, "mosquitto": 9.0}
    assert largest_venue_process(peaks) == ("pi-1", 61.2)
    assert largest_venue_process({RUN_PROCESS: 327.0}) is None
    assert largest_venue_process({}) is None
