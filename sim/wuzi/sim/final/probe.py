"""How long a move takes from the table to the hall's screen, measured during the final.

A scoreboard's own feed and view model (``wuzi.display.feed.BusFeed`` folded into
``wuzi.display.scoreboard_model.VenueModel``, exactly as ``wuzi scoreboard`` does it) run
in a **process of their own**, as the hall's screen does at a venue: in the simulator's
process they would wait for its interpreter lock behind 24 simulated boards and the bots,
and the figure would be the simulator's, not the venue's. That process (``python -m
wuzi.sim.final.probe URL VENUE``) prints one line per table whose move count grew by one,
``SEEN <table> <moves> <monotonic ns>`` — the instant the model held the new state.

The latency is taken from the instant that table's clock unit emitted the press frame
that completed the move (``TimedClock.presses_ns``: the first instant the system could
know the move — the stone was already on the board, and the debounce window of the button
is a property of the hardware) to that instant. Both are ``CLOCK_MONOTONIC``, one clock
for every process of the machine. The pyglet drawing that follows is
``display.frame_ms`` (``wuzi bench display``).
"""

from __future__ import annotations

import contextlib
import subprocess
import sys
import threading
import time
from collections.abc import Sequence

from wuzi.display.feed import BusFeed
from wuzi.display.scoreboard_model import VenueModel
from wuzi.sim.box import TimedClock

__all__ = ["ProbeError", "ScreenProbe", "latency_ms", "main"]

RECENT_NS = 5_000_000_000  # a press older than this completed no move the model sees now
READY_TIMEOUT_S = 20.0


class ProbeError(RuntimeError):
    """The probe's process could not start or reach the broker (says which)."""


def latency_ms(presses_ns: Sequence[int], seen_ns: int) -> float | None:
    """From the last press at or before ``seen_ns`` to ``seen_ns``, in ms (None: no press
    in the last ``RECENT_NS``, so none of these presses completed the move)."""
    pressed = [p for p in presses_ns if p <= seen_ns]
    if not pressed:
        return None
    waited = seen_ns - max(pressed)
    return waited / 1e6 if waited < RECENT_NS else None


class ScreenProbe:
    """Samples of press-to-view-model latency, in ms, for every move the model shows."""

    def __init__(self, broker_url: str, venue: str, clocks: Sequence[TimedClock]) -> None:
        self.broker_url = broker_url
        self.venue = venue
        self.clocks = clocks
        self.samples_ms: list[float] = []
        self.lines: list[str] = []  # what the process said that was not a sighting
        self._process: subprocess.Popen[str] | None = None
        self._ready = threading.Event()
        self._reader: threading.Thread | None = None

    def start(self) -> None:
        """Start the process; returns once it is subscribed (``ProbeError`` if it is not)."""
        args = [sys.executable, "-m", "wuzi.sim.final.probe", self.broker_url, self.venue]
        self._process = subprocess.Popen(
            args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, bufsize=1
        )
        self._reader = threading.Thread(target=self._read, name="screen-probe", daemon=True)
        self._reader.start()
        if not self._ready.wait(READY_TIMEOUT_S):
            said = "\n".join(self.lines[-10:])
            self.close()
            raise ProbeError(f"the screen probe did not subscribe at {self.broker_url}: {said}")

    def close(self) -> None:
        process = self._process
        if process is not None:
            process.terminate()
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(5)
            if process.poll() is None:
                process.kill()
                process.wait(5)
        if self._reader is not None:
            self._reader.join(5)
        self._process = self._reader = None

    def _read(self) -> None:
        process = self._process
        assert process is not None and process.stdout is not None
        for line in process.stdout:
            words = line.split()
            if words[:1] == ["READY"]:
                self._ready.set()
            elif words[:1] == ["SEEN"] and len(words) == 4:
                self._seen(int(words[1]), int(words[3]))
            else:
                self.lines.append(line.rstrip())

    def _seen(self, table: int, seen_ns: int) -> None:
        if not 1 <= table <= len(self.clocks):
            return
        waited = latency_ms(tuple(self.clocks[table - 1].presses_ns), seen_ns)
        if waited is not None:
            self.samples_ms.append(waited)


def watch(broker_url: str, venue: str) -> None:
    """The probe process: the scoreboard's feed and model, a line per move seen."""
    wake = threading.Event()
    feed = BusFeed(broker_url, venue, ("table/+/state", "competition/state"), wakeup=wake.set)
    model = VenueModel()
    moves: dict[int, int] = {}
    feed.start()
    if not feed.wait_subscribed(READY_TIMEOUT_S):
        print(f"cannot subscribe at {broker_url}", flush=True)
        raise SystemExit(1)
    print("READY", flush=True)
    while True:
        wake.wait(1.0)
        wake.clear()
        items = feed.drain()
        for item in items:
            model.apply(item.topic, item.message, item.received_ms)
        if not items:
            continue
        now_ns = time.monotonic_ns()
        for table in model.tables():
            state = model.state(table)
            if state is None:
                continue
            count, before = len(state.moves), moves.get(table)
            moves[table] = count
            if before is not None and count == before + 1:
                print(f"SEEN {table} {count} {now_ns}", flush=True)


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) != 2:
        print("usage: python -m wuzi.sim.final.probe BROKER_URL VENUE", file=sys.stderr)
        return 2
    with contextlib.suppress(KeyboardInterrupt, BrokenPipeError):
        watch(args[0], args[1])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
