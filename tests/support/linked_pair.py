"""A linked game's two hosts in memory, in milliseconds: the owner's ``OwnerSeat`` and
``OwnerLine``, the away host's ``AwayTable`` and ``AwayLine``, wired back to back by a
network with a fixed delay each way (no loss), and two scripted players.

True time ``t`` runs in ticks; the owner's monotonic clock reads ``t``, the away host's
``t + offset_ms``. Each host acts on its line's decisions as the integration will (docs/
linked.md "The owner seat"): the owner feeds ``Take`` records to the seat, plays its
``AwayMove`` at once and shows it on its own clock unit (``shown_here``), sends the truth
whenever it changes; the away host gives each truth to its table and sends what the table
decides. A cut drops every packet crossing it; the chief resumes at the owner as soon as
the line lets him.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable
from dataclasses import dataclass, field

from wuzi.table.away_table import AwayTable
from wuzi.table.hall_line import (
    AwayLine,
    LineBack,
    LineCut,
    LineDecision,
    OwnerLine,
    Resume,
    Take,
)
from wuzi.table.line_messages import (
    AwayInput,
    AwayMirrored,
    AwayPress,
    LinePacket,
    OwnerTruth,
)
from wuzi.table.owner_seat import AwayMove, OwnerOutcome, OwnerSeat, OwnStone, SeatDecision

LINK = "hall-a-3-hall-b-3"


@dataclass
class LinkedPair:
    """The two halls of one linked game; the owner player is black, the away one white."""

    control: str = "2700+30"
    grace_ms: int = 10_000
    delay_ms: int = 75
    offset_ms: int = 7_654_321  # the away clock minus the owner's
    tick_ms: int = 5
    t: int = 0
    cut: tuple[int, int] | None = None  # (start, end) true ms: both ways lost
    seat: OwnerSeat = field(init=False)
    table: AwayTable = field(init=False)
    owner: OwnerLine = field(init=False)
    away: AwayLine = field(init=False)
    decisions: list[SeatDecision] = field(init=False, default_factory=list)
    owner_view: list[int] = field(init=False, default_factory=list)  # the table's game
    errors: dict[str, list[int]] = field(init=False, default_factory=dict)
    line_events: dict[str, list[LineDecision]] = field(init=False, default_factory=dict)
    truths_sent: list[OwnerTruth] = field(init=False, default_factory=list)

    def __post_init__(self) -> None:
        self.seat = OwnerSeat(3, LINK, self.control, grace_ms=self.grace_ms)
        self.table = AwayTable(7, LINK, "white", own_button=0, can_light=True)
        self.owner = OwnerLine(LINK, "owner-1", "hall-a", "hall-b")
        self.away = AwayLine(LINK, "away-1", "hall-b", "hall-a")
        self.errors = {"press": [], "mirrored": [], "shown": []}
        self.line_events = {"owner": [], "away": []}
        self._flight: list[tuple[int, int, str, LinePacket]] = []  # type: ignore[type-arg]
        self._jobs: list[tuple[int, int, Callable[[], None]]] = []
        self._count = 0
        self.on_away_move: Callable[[AwayMove], None] = lambda move: None
        self.on_away_shown: Callable[[int, int], None] = lambda move, point: None

    # -- clocks and scheduling ---------------------------------------------------------

    def away_ms(self, t: int | None = None) -> int:
        return (self.t if t is None else t) + self.offset_ms

    def at(self, t: int, job: Callable[[], None]) -> None:
        """Run ``job`` at true time ``t`` (a player's action)."""
        self._count += 1
        heapq.heappush(self._jobs, (t, self._count, job))

    def run_until(self, end_t: int) -> None:
        while self.t < end_t:
            self.t += self.tick_ms
            self._step()

    def _cut_now(self, t: int) -> bool:
        return self.cut is not None and self.cut[0] <= t < self.cut[1]

    def _step(self) -> None:
        while self._flight and self._flight[0][0] <= self.t:
            _, _, side, packet = heapq.heappop(self._flight)
            if side == "owner":
                self._owner_acts(self.owner.receive(packet, self.t))
            else:
                self._away_acts(self.away.receive(packet, self.away_ms()))
        while self._jobs and self._jobs[0][0] <= self.t:
            heapq.heappop(self._jobs)[2]()
        self._owner_acts(self.owner.poll(self.t))
        self._away_acts(self.away.poll(self.away_ms()))
        if self.owner.state == "waiting_for_referees":
            self._owner_acts(self.owner.resume_by_chief("chief", self.t))
        self.send_truth()
        for packet in self.owner.outgoing(self.t):
            self._fly("away", packet)
        for packet in self.away.outgoing(self.away_ms()):
            self._fly("owner", packet)

    def _fly(self, to: str, packet: LinePacket) -> None:  # type: ignore[type-arg]
        if self._cut_now(self.t) or self._cut_now(self.t + self.delay_ms):
            return
        self._count += 1
        heapq.heappush(self._flight, (self.t + self.delay_ms, self._count, to, packet))

    # -- the owner host --------------------------------------------------------------

    def send_truth(self) -> None:
        truth = self.seat.truth(self.t)
        if truth is not None:
            self.truths_sent.append(truth)
            self.owner.send_truth(truth, self.t)

    def owner_outcome(self, out: OwnerOutcome) -> None:
        for d in out.decisions:
            self.decisions.append(d)
            if isinstance(d, AwayMove):
                self.owner_view.append(d.point)
                self.seat.shown_here(d.move, self.t)  # the owner host draws it at once
                self.on_away_move(d)
        self.send_truth()

    def _owner_acts(self, decisions: list[LineDecision]) -> None:
        for d in decisions:
            if isinstance(d, Take):
                record = d.record
                if isinstance(record.item, AwayPress):
                    self.errors["press"].append(record.error_ms)
                elif isinstance(record.item, AwayMirrored):
                    self.errors["mirrored"].append(record.error_ms)
                self.owner_outcome(self.seat.received(record))
            elif isinstance(d, LineCut):
                self.line_events["owner"].append(d)
                self.seat.line_cut(d.at_ms)
            elif isinstance(d, Resume):
                self.line_events["owner"].append(d)
                self.seat.line_back(d.at_ms)
            else:
                self.line_events["owner"].append(d)
        self.send_truth()

    def own_stone(self, point: int) -> None:
        """The owner player places their stone (the table would judge it)."""
        self.owner_outcome(self.seat.board_stone(point, "black", self.t))

    def own_press(self, point: int) -> None:
        self.owner_outcome(self.seat.own_press(point, self.t))
        self.owner_view.append(point)
        self.send_truth()

    def mirror_here(self, point: int, colour: str = "white") -> None:
        self.owner_outcome(self.seat.board_stone(point, colour, self.t))

    # -- the away host ----------------------------------------------------------------

    def _send(self, items: list[AwayInput]) -> None:
        for item in items:
            self.away.send_input(item, self.away_ms())

    def _away_acts(self, decisions: list[LineDecision]) -> None:
        now = self.away_ms()
        for d in decisions:
            if isinstance(d, Take):
                truth = d.record.item
                assert isinstance(truth, OwnerTruth)
                offset = self.away.offset(now)
                assert offset is not None
                before = self.table.to_mirror
                out = self.table.truth(truth, now, truth_away_ms=truth.at_ms + offset.offset_ms)
                self._send(out.send)
                after = self.table.to_mirror
                if after is not None and after != before:
                    self.on_away_shown(len(truth.moves), after)
            elif isinstance(d, LineCut):
                self.line_events["away"].append(d)
                self.table.line_cut(now)
            elif isinstance(d, Resume):
                self.line_events["away"].append(d)
                self.table.resumed(now)
            else:
                self.line_events["away"].append(d)
                if isinstance(d, LineBack):
                    self.table.line_back(now)

    def away_stone(self, point: int, colour: str) -> None:
        now = self.away_ms()
        self._send(self.table.stone(point, colour, now, now).send)

    def away_press(self) -> None:
        now = self.away_ms()
        self._send(self.table.press(0, now, now).send)

    @property
    def own_stones(self) -> list[OwnStone]:
        return [d for d in self.decisions if isinstance(d, OwnStone)]
