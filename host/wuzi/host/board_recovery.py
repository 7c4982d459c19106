"""The first scan of a board the host meets, compared with the journal: sans-I/O.

A host that starts (after a SIGKILL, a power cut, or for the first time) skips the board's
history (``skip_history``: the MCU booted long ago) and asks for a snapshot of what lies
on the wood *now*. That scan is not "events lost" — it is the one chance to compare the
position the journal says should be there with the real one, exactly as a settled change
is compared during play:

* identical stones are no event at all (no "removed" for every stone and no "several
  new stones at once" when they are read back);
* a stone placed while the host was down is the change it is: one stone of the colour
  to move is a ``StoneEvent`` (the session makes it the stone waiting for its press, and
  judges it like any move); the wrong colour, two stones, a stone moved are the usual
  alerts;
* a stone missing is a ``removed`` alert, as usual.

``RecoveringBoardLink`` is a ``BoardLink`` that does this with the first snapshot of the
first boot it sees: it replaces its reconciler by one whose settled board is the
journal's and whose readings are the scan, so the next ``poll`` after ``settle_ms``
classifies the differences like any other change. Later snapshots (events really lost)
and boots seen later (a genuine reboot) go the ``BoardLink`` way.
"""

from __future__ import annotations

from wuzi.link.board_link import BoardLink
from wuzi.link.reconciler import DEFAULT_SETTLE_MS, Reconciled, Reconciler
from wuzi.link.session import BoardState, Connected, LinkEvent, SensorChange

__all__ = ["RecoveringBoardLink", "scan_reconciler"]


def scan_reconciler(old: Reconciler, scan: bytes, at_ms: int) -> Reconciler:
    """A reconciler that settled ``old``'s board (what the journal says lies there) and
    has just read ``scan`` at ``at_ms``: its next settle reports the differences, and
    only them. The colour ``old`` expected and its stuck sensors carry over (stuck points
    were told already: that alert is not repeated)."""
    fresh = Reconciler(old.settle_ms, old.settled)
    if old.stuck:
        fresh.stuck_sensors(tuple((p, 1) for p in sorted(old.stuck)), at_ms)
        fresh.poll(at_ms, hold=True)  # drop the repeated "sensor_stuck" alert
    fresh.expect(old.expected)
    settled = old.settled
    for point, state in enumerate(scan):
        if state != settled[point]:
            fresh.sensor(point, state, at_ms)
    return fresh


class RecoveringBoardLink(BoardLink):
    """A ``BoardLink`` that skips the board's history and reconciles its first scan with
    ``board`` (the journal's position); see the module docstring."""

    def __init__(
        self,
        *,
        board: bytes,
        settle_ms: int = DEFAULT_SETTLE_MS,
        expected_serial: str | None = None,
        port_name: str = "board",
    ) -> None:
        super().__init__(
            settle_ms=settle_ms,
            expected_serial=expected_serial,
            port_name=port_name,
            board=board,
            skip_history=True,
        )
        self._awaiting_scan = False  # the first boot is connected, its scan not yet read
        self._scanned = False  # the first scan has been reconciled (once per link)
        self._carried: list[Reconciled] = []  # the old reconciler's alerts not yet handed out

    @property
    def awaiting_scan(self) -> bool:
        """The board is connected and its first scan has not been reconciled yet."""
        return self._awaiting_scan

    def receive_data(self, data: bytes, now_ms: int) -> list[Reconciled]:
        out = super().receive_data(data, now_ms)
        return self._take_carried() + out

    def poll(self, now_ms: int) -> list[Reconciled]:
        out = super().poll(now_ms)
        return self._take_carried() + out

    def next_deadline_ms(self) -> int | None:
        return 0 if self._carried else super().next_deadline_ms()

    def _take_carried(self) -> list[Reconciled]:
        out, self._carried = self._carried, []
        return out

    def _apply(self, events: list[LinkEvent]) -> None:
        for ev in events:
            if self._awaiting_scan and isinstance(ev, BoardState):
                self._awaiting_scan = False
                self._scanned = True
                self._carried += self.reconciler.poll(ev.at_ms, hold=True)
                self.reconciler = scan_reconciler(self.reconciler, ev.cells, ev.at_ms)
                continue
            if self._awaiting_scan and isinstance(ev, SensorChange):
                # A change before the scan: a later snapshot covers it (the one asked for
                # at connect may come with an older event number and be ignored).
                self.session.request_snapshot()
                continue
            if isinstance(ev, Connected) and ev.new_boot:
                # the first boot: its scan is the one to compare with the journal; a
                # reboot (or a boot after the first scan) is the board's own news
                self._awaiting_scan = not ev.rebooted and not self._scanned
            super()._apply([ev])
