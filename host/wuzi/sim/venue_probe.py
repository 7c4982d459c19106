"""How long a move takes from the table to the hall's screen, measured during the final.

A scoreboard's own feed and view model (``wuzi.display.feed.BusFeed`` folded into
``wuzi.display.scoreboard_model.VenueModel``, exactly as ``wuzi scoreboard`` does it)
run on a thread of the venue run. When the model shows a table's move count grow, the
latency is taken from the instant that table's clock unit emitted the press frame that
completed the move (``TimedClock.press_ns``: the first instant the system could know
the move — the stone was already on the board, and the debounce window of the button
is a property of the hardware) to the instant the model holds the new state. The
pyglet drawing that follows is ``display.frame_ms`` (``wuzi bench display``).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence

from wuzi.display.feed import BusFeed
from wuzi.display.scoreboard_model import VenueModel
from wuzi.host.bench_venue import TimedClock

__all__ = ["ScreenProbe"]

_RECENT_NS = 5_000_000_000  # a press older than this completed no move the model sees now


class ScreenProbe:
    """Samples of press-to-view-model latency, in ms, for every move the model shows."""

    def __init__(self, broker_url: str, venue: str, clocks: Sequence[TimedClock]) -> None:
        self.clocks = clocks
        self.model = VenueModel()
        self.feed = BusFeed(broker_url, venue, ("table/+/state", "competition/state"))
        self.samples_ms: list[float] = []
        self._moves: dict[int, int] = {}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="screen-probe", daemon=True)

    def start(self) -> None:
        self.feed.start()
        self._thread.start()

    def close(self) -> None:
        self._stop.set()
        self._thread.join(5)
        self.feed.close()

    def _run(self) -> None:
        while not self._stop.is_set():
            items = self.feed.drain()
            for item in items:
                self.model.apply(item.topic, item.message, item.received_ms)
            if items:
                self._measure(time.monotonic_ns())
            else:
                time.sleep(0.001)

    def _measure(self, now_ns: int) -> None:
        for table in self.model.tables():
            state = self.model.state(table)
            if state is None or not 1 <= table <= len(self.clocks):
                continue
            count, before = len(state.moves), self._moves.get(table)
            self._moves[table] = count
            if before is None or count != before + 1:
                continue  # the first sight of a table, a new game, or several at once
            pressed = self.clocks[table - 1].press_ns
            if pressed is not None and 0 <= now_ns - pressed < _RECENT_NS:
                self.samples_ms.append((now_ns - pressed) / 1e6)
