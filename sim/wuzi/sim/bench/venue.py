"""``wuzi bench venue``: the whole simulated final, headless, as fast as the bots play.

* ``venue.final_wall_s`` — the final from the first assignment to the last record
  (16 teams, 4 rounds, 96 board games and any playoffs) at time × 20;
* ``venue.events_per_s`` — bus messages per second the venue run received (every table
  state, event, referee view, assignment, host status and competition state);
* ``venue.peak_rss_mb`` — the peak resident memory of the venue's largest process (the
  director, a host or the broker; not the run itself, which plays the boards and the
  people — and, under ``wuzi bench``, has run the other areas' benchmarks before);
* ``venue.board_to_screen_p99_ms`` — from the clock press that completes a move to the
  scoreboard's view model showing it, over every move of the 24 tables (target < 50 ms).

``quick`` (``wuzi bench --quick``) still plays the whole final: there is no smaller
one that means the same.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
from collections.abc import Callable, Mapping
from pathlib import Path

from wuzi.sim.final.run import RUN_PROCESS, RunOptions, VenueRun

__all__ = ["largest_venue_process", "run"]

SPEED = 20.0


def run(emit: Callable[[str, float, str], None], quick: bool) -> None:
    with tempfile.TemporaryDirectory(prefix="wuzi-bench-venue-") as folder:
        options = RunOptions(out=Path(folder), seed=7, speed=SPEED, screens_every_s=0, probe=True)
        result = VenueRun(options).run()
    emit("venue.final_wall_s", result.wall_s, "s")
    emit("venue.events_per_s", result.messages / result.wall_s, "msg/s")
    largest = largest_venue_process(result.peak_rss_mb)
    if largest is not None:
        name, peak = largest
        emit("venue.peak_rss_mb", peak, "MB")
        print(f"# venue.peak_rss_mb is {name}'s", file=sys.stderr, flush=True)
    samples = sorted(result.latency_ms)
    if len(samples) >= 2:
        emit("venue.board_to_screen_p50_ms", statistics.median(samples), "ms")
        emit("venue.board_to_screen_p99_ms", statistics.quantiles(samples, n=100)[98], "ms")
    emit("venue.games", float(result.games), "games")


def largest_venue_process(peak_rss_mb: Mapping[str, float]) -> tuple[str, float] | None:
    """The venue process with the highest peak memory (the run's own is not one)."""
    venue = [(name, mb) for name, mb in peak_rss_mb.items() if name != RUN_PROCESS]
    return max(venue, key=lambda item: item[1]) if venue else None
