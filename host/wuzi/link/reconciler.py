"""From debounced sensor readings to stone events, and everything else to alerts for the referee.

The MCU debounces each point over a few scans; that is not enough for a hand: a stone slid
across the wood covers several points for tens of milliseconds each, and a player may hover.
So the reconciler waits until the *whole board* has been quiet for ``settle_ms`` and only then
compares what the sensors read with what it had settled before:

* one new stone, nothing else changed -> ``StoneEvent`` (or ``wrong_colour`` when the table
  host said which colour it expects and this is the other one);
* a stone gone and a stone of the same colour appeared -> ``moved`` (a knocked or slid stone);
* more than one new stone -> ``two_stones``; a stone gone -> ``removed``;
* a point whose colour changed, or that reads both colours -> ``occupied`` (a stone put on an
  occupied point);
* points the board's self-test reported -> ``sensor_stuck`` (they are ignored from then on).

Transient readings that came and went before the board settled never reach the comparison,
so a slide produces no phantom move. Time is an argument (host ms); the rules of the game are
not known here: the table host only tells which colour it expects next, if it wants the check.
"""

from __future__ import annotations

from dataclasses import dataclass

from wuzi.link import wire
from wuzi.rules.board import Colour, point_name

DEFAULT_SETTLE_MS = 150

# What a board reported besides a stone (``Alert.kind``): the board link's own words, shown
# as they are by ``wuzi board watch``. The table host turns them into the table's inputs and
# alert reasons (``wuzi.host.link_events``); nothing here knows the table's vocabulary.
REMOVED = "removed"
MOVED = "moved"
TWO_STONES = "two_stones"
WRONG_COLOUR = "wrong_colour"
OCCUPIED = "occupied"
SENSOR_STUCK = "sensor_stuck"
LINK_DOWN = "link_down"
LINK_UP = "link_up"
REBOOTED = "board_rebooted"
RESYNC = "resync"
ALERT_KINDS = (
    REMOVED,
    MOVED,
    TWO_STONES,
    WRONG_COLOUR,
    OCCUPIED,
    SENSOR_STUCK,
    LINK_DOWN,
    LINK_UP,
    REBOOTED,
    RESYNC,
)


def _colour(code: int) -> Colour | None:
    return Colour(code) if code in (wire.BLACK, wire.WHITE) else None


@dataclass(frozen=True)
class StoneEvent:
    """A stone was put on an empty point and the board settled."""

    point: int
    colour: Colour
    at_ms: int

    def to_json(self) -> dict[str, object]:
        return {
            "event": "stone",
            "point": point_name(self.point),
            "colour": self.colour.label,
            "at_ms": self.at_ms,
        }


@dataclass(frozen=True)
class Alert:
    """Anything that is not a plain new stone, for the referee to look at."""

    kind: str
    at_ms: int
    points: tuple[int, ...] = ()
    colour: Colour | None = None
    expected: Colour | None = None
    detail: str = ""

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {"event": "alert", "kind": self.kind, "at_ms": self.at_ms}
        if self.points:
            out["points"] = [point_name(p) for p in self.points]
        if self.kind == MOVED and len(self.points) == 2:
            out["from"], out["to"] = point_name(self.points[0]), point_name(self.points[1])
        if self.colour is not None:
            out["colour"] = self.colour.label
        if self.expected is not None:
            out["expected"] = self.expected.label
        if self.detail:
            out["detail"] = self.detail
        return out


Reconciled = StoneEvent | Alert


class Reconciler:
    """Settled board + latest readings -> stone events and alerts. Pure: time is passed in."""

    def __init__(self, settle_ms: int = DEFAULT_SETTLE_MS, board: bytes | None = None) -> None:
        if settle_ms < 0:
            raise ValueError(f"settle_ms must be >= 0, not {settle_ms}")
        self.settle_ms = settle_ms
        self._settled = bytearray(wire.POINTS)
        if board is not None:
            self._check_cells(board, "board")
            self._settled[:] = board
        self._reported = bytearray(self._settled)
        self._since = [0] * wire.POINTS
        self._last_change_ms: int | None = None
        self._stuck: set[int] = set()
        self._expected: Colour | None = None
        self._pending_alerts: list[Reconciled] = []
        self._differ: set[int] = set()  # points whose reading differs from the settled board
        self._refilling = False  # after a new boot, until its first reading

    @staticmethod
    def _check_cells(cells: bytes, what: str) -> None:
        if len(cells) != wire.POINTS:
            raise ValueError(f"{what} must have {wire.POINTS} cells, not {len(cells)}")
        bad = next((i for i, c in enumerate(cells) if c > wire.BOTH), None)
        if bad is not None:
            raise ValueError(f"{what}: point {point_name(bad)} has code {cells[bad]} (0..3)")

    # -- what the table host says -------------------------------------------------------

    def expect(self, colour: Colour | None) -> None:
        """The colour of the next stone, for the wrong-colour check (None: no check)."""
        self._expected = colour

    @property
    def expected(self) -> Colour | None:
        return self._expected

    def set_board(self, cells: bytes) -> None:
        """What should lie on the board (journal recovery, a referee's correction)."""
        self._check_cells(cells, "board")
        self._settled[:] = cells
        self._recount()

    def _recount(self) -> None:
        self._differ = {p for p in range(wire.POINTS) if self._reported[p] != self._settled[p]}

    @property
    def settled(self) -> bytes:
        return bytes(self._settled)

    @property
    def stuck(self) -> frozenset[int]:
        return frozenset(self._stuck)

    # -- what the link reports ----------------------------------------------------------

    def sensor(self, point: int, state: int, at_ms: int) -> None:
        """A debounced reading stamped ``at_ms``; readings must come in time order.

        If the board had been quiet for ``settle_ms`` before this reading, what it showed then
        is settled first: replayed history is judged on its own timestamps, in order.
        """
        if not 0 <= point < wire.POINTS or not 0 <= state <= wire.BOTH:
            raise ValueError(f"bad sensor reading: point {point}, state {state}")
        if (
            not self._refilling
            and self._last_change_ms is not None
            and at_ms - self._last_change_ms >= self.settle_ms
        ):
            self._pending_alerts.extend(self._settle())
        self._refilling = False
        if self._reported[point] != state:
            self._reported[point] = state
            if state != self._settled[point]:
                self._differ.add(point)
            else:
                self._differ.discard(point)
            self._since[point] = at_ms
            if self._last_change_ms is None or at_ms > self._last_change_ms:
                self._last_change_ms = at_ms

    def resync(self, cells: bytes, at_ms: int) -> None:
        """The whole board as read at ``at_ms`` (events were lost): differences count as changes."""
        self._check_cells(cells, "snapshot")
        for p in range(wire.POINTS):
            self.sensor(p, cells[p], at_ms)
        if any(cells[p] != self._settled[p] for p in range(wire.POINTS)):
            self._pending_alerts.append(Alert(RESYNC, at_ms, detail="events lost; board re-read"))

    def new_boot(self, boot_at_ms: int, *, awaiting_snapshot: bool = False) -> None:
        """A new MCU boot (at ``boot_at_ms``): its readings start from empty and its first
        events (the first debounced scan) refill them; nothing settles in between.

        ``awaiting_snapshot``: the host skipped the boot's history and asked for a snapshot
        of now (``skip_history``: a host that starts meets a board that booted long ago).
        Until that first reading arrives the empty interim is no board anyone saw, and it
        must never settle as "every stone removed". After a genuine reboot it is real: the
        MCU starts from empty, so a stone lifted meanwhile shows as removed."""
        self._reported[:] = bytes(wire.POINTS)
        self._recount()
        self._last_change_ms = boot_at_ms
        self._refilling = awaiting_snapshot

    def stuck_sensors(self, points: tuple[tuple[int, int], ...], at_ms: int) -> None:
        """The board's self-test result: these points are ignored until a test clears them."""
        now = {p for p, code in points if code and 0 <= p < wire.POINTS}
        fresh = sorted(now - self._stuck)
        self._stuck = now
        if fresh:
            self._pending_alerts.append(
                Alert(SENSOR_STUCK, at_ms, tuple(fresh), detail="self-test: latch or line stuck")
            )

    def link_alert(self, kind: str, at_ms: int, detail: str = "") -> None:
        if kind not in ALERT_KINDS:
            raise ValueError(f"unknown alert kind {kind!r}")
        self._pending_alerts.append(Alert(kind, at_ms, detail=detail))

    # -- settling -------------------------------------------------------------------------

    def next_deadline_ms(self) -> int | None:
        """When ``poll`` may have something to say (None: only after new readings)."""
        if self._pending_alerts:
            return 0
        return self.quiet_deadline_ms()

    def quiet_deadline_ms(self) -> int | None:
        """When the board will have been quiet ``settle_ms`` (None: nothing to settle)."""
        if self._last_change_ms is None or self._refilling or not self._differs():
            return None
        return self._last_change_ms + self.settle_ms

    @property
    def unsettled(self) -> bool:
        """Readings not yet judged: a board refilling after a new boot (or awaiting its
        first scan), or readings that differ from the settled board (a quiet window runs,
        or waits to be heard to its end). False: every stone read so far was reported."""
        return self._refilling or self._differs()

    def _differs(self) -> bool:
        return bool(self._differ - self._stuck) if self._stuck else bool(self._differ)

    def poll(self, now_ms: int, hold: bool = False) -> list[Reconciled]:
        """Events for a board quiet since ``settle_ms``; ``hold`` while the link is catching up."""
        out = self._pending_alerts
        self._pending_alerts = []
        if hold or self._last_change_ms is None or self._refilling:
            return out
        if now_ms - self._last_change_ms < self.settle_ms:
            return out
        out.extend(self._settle())
        return out

    def _settle(self) -> list[Reconciled]:
        """Compare the quiet board with the settled one; classify the differences."""
        at = self._last_change_ms if self._last_change_ms is not None else 0
        added: list[tuple[int, int]] = []
        removed: list[tuple[int, int]] = []
        occupied: list[tuple[int, int]] = []
        for p in sorted(self._differ):
            old, new = self._settled[p], self._reported[p]
            if old == new or p in self._stuck:
                continue
            if old == wire.EMPTY and new in (wire.BLACK, wire.WHITE):
                added.append((p, new))
            elif new == wire.EMPTY:
                removed.append((p, old))
            else:
                occupied.append((p, new))
            self._settled[p] = new
        self._differ &= self._stuck  # stuck points stay pending, ignored
        if not (added or removed or occupied):
            return []
        return self._classify(added, removed, occupied, at)

    def _classify(
        self,
        added: list[tuple[int, int]],
        removed: list[tuple[int, int]],
        occupied: list[tuple[int, int]],
        at: int,
    ) -> list[Reconciled]:
        out: list[Reconciled] = []
        for p, code in occupied:
            out.append(Alert(OCCUPIED, at, (p,), _colour(code), detail=f"reads {code}"))
        added.sort(key=lambda pc: self._since[pc[0]])
        moves: list[tuple[int, int, int]] = []
        for rp, rc in list(removed):
            match = next(((ap, ac) for ap, ac in added if ac == rc), None)
            if match is not None:
                moves.append((rp, match[0], rc))
                removed.remove((rp, rc))
                added.remove(match)
        for frm, to, code in moves:
            out.append(Alert(MOVED, at, (frm, to), _colour(code)))
        for p, code in removed:
            out.append(Alert(REMOVED, at, (p,), _colour(code)))
        if len(added) == 1:
            p, code = added[0]
            colour = Colour(code)
            if self._expected is not None and colour is not self._expected:
                out.append(Alert(WRONG_COLOUR, at, (p,), colour, self._expected))
            else:
                out.append(StoneEvent(p, colour, self._since[p]))
        elif added:
            points = tuple(p for p, _ in added)
            colours = {c for _, c in added}
            out.append(
                Alert(
                    TWO_STONES,
                    at,
                    points,
                    _colour(colours.pop()) if len(colours) == 1 else None,
                    detail=f"{len(added)} new stones at once",
                )
            )
        return out
