"""The hall line of one linked game, as each host sees it: sans-I/O, in the style of h11.

A **linked game** has its two seats at tables of two halls; the **owner host** runs it
and the **away host** sends the inputs of its own table (``AwayLine.send_input``) and
shows the owner's truth, which the owner sends back (``OwnerLine.send_truth``). Between
them lies the **hall line** (over the halls' bridged brokers), which can lose, repeat,
reorder, delay and cut. What each side guarantees the host above it:

* **every item of the other side is taken once, in order** (``Take``): items are
  numbered 1, 2, 3 … per direction; a repeat is ignored, an item after a gap waits for
  the resend of the missing one; every packet acknowledges what its sender has taken
  (``ack``) and says the highest number it has given (``last``), so a lost last item is
  missed at once. Unacknowledged items are resent in order every ``RESEND_AFTER_MS``
  while the line is up, and all at once when it comes back after a cut;
* **the other clock in this one's time**: every packet echoes the newest one heard
  (``wuzi.table.line_clock``), so an away input's stamp becomes owner time within a
  bound (``Take.record.at_ms``, ``error_ms``; ``to_owner_ms``), and ``offset`` is the
  figure the referees are shown. An item is taken once there is an estimate to place it;
* **a cut is decided by each side from its own silence**: nothing heard for
  ``CUT_AFTER_MS`` → ``LineCut`` (the host holds the clocks for the equipment and alerts
  both halls, naming the link); a side that is told by the other that it hears nothing
  (state ``cut`` in its packets) cuts too, so both clocks are held even when only one
  direction fails. When packets flow again → ``LineBack`` (what will be resent, what is
  still missing), and the side waits for the referees (``waiting_for_referees``): the
  items are replayed and taken, but the game stays held until the referees resume it
  (``resume_requested`` by one hall's referee and ``resume_confirmed`` by the other's,
  or ``resume_by_chief``) → ``Resume``, once both sides have everything. A side that
  hears the other resumed (a higher ``resumes`` count in state ``up``) follows it.

Every method takes the time as ``now_ms`` (this host's monotonic ms) and returns what the
host must do as values; the records to journal are ``LineSent`` (returned by the send),
``LineReceived`` (in ``Take``), ``LineAcked`` and ``LineResumed`` (in ``Journal``), and
``recover`` rebuilds a side from them after a crash.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Generic, TypeVar, cast

from wuzi.table.line_clock import LineOffset, OffsetEstimator
from wuzi.table.line_messages import (
    AwayButton,
    AwayClaim,
    AwayInput,
    AwayMirrored,
    AwayPress,
    AwayShown,
    AwayStone,
    LineAcked,
    LineItem,
    LinePacket,
    LineReceived,
    LineRecord,
    LineResumed,
    LineSent,
    LineState,
    OwnerTruth,
)

__all__ = [
    "CUT_AFTER_MS",
    "MAX_AHEAD",
    "PING_EVERY_MS",
    "RESEND_AFTER_MS",
    "AwayLine",
    "HallLine",
    "Ignored",
    "Journal",
    "LineBack",
    "LineCut",
    "LineDecision",
    "LineDurable",
    "OwnerLine",
    "Resume",
    "ResumeRefused",
    "Take",
]

PING_EVERY_MS = 250
"""A side that has sent nothing for this long sends a bare packet (a ping): the other side
hears it at least four times a second, which both the silence rule and the clock
comparison need."""
CUT_AFTER_MS = 700
"""Nothing heard for this long is a cut. A cut begins at most this long after the last
packet heard, so it is decided within ``CUT_AFTER_MS`` plus one turn of the host's loop
of the moment the line failed, and the host holds the clocks at once: under 1 s on both
sides (issue 36). 700 ms is nearly three missed pings at 250 ms: a line with 150 ms of
round trip and its jitter does not fake it, and a broker's TCP retransmission (200 ms
minimum on Linux) still fits once."""
RESEND_AFTER_MS = 300
"""An item not acknowledged this long after it was sent is sent again (while the line is
up; a cut line is resent all at once when it returns): two round trips of 150 ms."""
MAX_AHEAD = 4096
"""Items numbered beyond the next one expected by more than this are refused (a corrupt
or hostile packet must not make a side keep an unbounded store of items)."""

Out = TypeVar("Out", bound=LineItem)
In = TypeVar("In", bound=LineItem)


@dataclass(frozen=True)
class Take:
    """Take the other side's item, in order, once: journal ``record`` and act on it (the
    owner feeds the input to its table at ``record.at_ms``; the away host shows the
    truth)."""

    record: LineReceived


@dataclass(frozen=True)
class Journal:
    """Journal this record (the other side's acknowledgement, a resumption)."""

    record: LineAcked | LineResumed


@dataclass(frozen=True)
class LineCut:
    """The line of ``link`` is cut as of ``at_ms``: hold the clocks for the equipment and
    alert both halls naming the link. ``why`` says how it was found."""

    at_ms: int
    link: str
    why: str


@dataclass(frozen=True)
class LineBack:
    """Packets flow again on ``link`` at ``at_ms`` after a cut of ``cut_ms``: this side
    resends its ``resend`` unacknowledged items now and still misses ``missing`` of the
    other side's (known so far); the game waits for the referees."""

    at_ms: int
    link: str
    cut_ms: int
    resend: int
    missing: int


@dataclass(frozen=True)
class Resume:
    """The referees resumed the game of ``link`` at ``at_ms`` (``by``: who): the host lifts
    the hold for the line."""

    at_ms: int
    link: str
    by: tuple[str, ...]


@dataclass(frozen=True)
class ResumeRefused:
    """A referee's resume request or confirmation cannot be acted on: ``why``."""

    at_ms: int
    link: str
    why: str


@dataclass(frozen=True)
class Ignored:
    """A packet (or part of one) was not used: ``why`` (another link, a bad number)."""

    link: str
    why: str


LineDecision = Take | Journal | LineCut | LineBack | Resume | ResumeRefused | Ignored


@dataclass(frozen=True)
class LineDurable:
    """What a side keeps across a crash (rebuilt by ``recover`` from its journal)."""

    sent: int  # the highest number given
    acked: int
    unacked: tuple[tuple[int, LineItem], ...]
    taken: tuple[LineReceived, ...]
    resumes: int


@dataclass
class _Outgoing(Generic[Out]):
    n: int
    item: Out
    sent_ms: int | None  # None: to be sent at the next ``outgoing``


class HallLine(Generic[Out, In]):
    """One side of the hall line of ``link``: ``here`` names this side's hall and
    ``there`` the other's (for the referees' resumption); ``boot`` names this run."""

    OUT_TYPES: ClassVar[tuple[type, ...]] = ()

    def __init__(self, link: str, boot: str, here: str, there: str) -> None:
        if here == there:
            raise ValueError(f"the two halls of link {link!r} are both {here!r}")
        self.link = link
        self.boot = boot
        self.here = here
        self.there = there
        self.state: LineState = "connecting"
        self.resumes = 0
        self._sent = 0
        self._acked = 0
        self._outbox: list[_Outgoing[Out]] = []
        self._taken: list[LineReceived] = []
        self._ahead: dict[int, In] = {}
        self._clock = OffsetEstimator()
        self._peer_boot: str | None = None
        self._peer_sent_ms: int | None = None
        self._peer_state: LineState = "connecting"
        self._peer_resumes = 0
        self._peer_last = 0
        self._heard_ms: int | None = None  # the newest packet of any age arrived
        self._echo_heard_ms = 0  # the newest-sent packet (the one echoed) arrived
        self._last_packet_ms: int | None = None
        self._first_packet_ms: int | None = None
        self._owe_packet = False
        self._cut_since_ms = 0
        self._request: tuple[str, str] | None = None  # (hall, referee) asking to resume
        self._peer_request: tuple[str, str] | None = None  # the same, asked at the other side

    # -- sending -----------------------------------------------------------------------

    def _send(self, item: Out, now_ms: int) -> LineSent:
        self._sent += 1
        self._outbox.append(_Outgoing(self._sent, item, None))
        return LineSent(self._sent, item, now_ms)

    def outgoing(self, now_ms: int) -> list[LinePacket[Out]]:
        """The packets to send now, in order: items never sent, items due for a resend
        (none while the line is cut), or else a ping when one is due (every
        ``PING_EVERY_MS``, or at once to acknowledge or to tell a change of state)."""
        packets: list[LinePacket[Out]] = []
        if self.state != "cut":
            for out in self._outbox:
                if out.sent_ms is None or now_ms - out.sent_ms >= RESEND_AFTER_MS:
                    out.sent_ms = now_ms
                    packets.append(self._packet(now_ms, out.n, out.item))
        else:
            for out in self._outbox:  # a packet sent into a cut may still get through
                if out.sent_ms is None:
                    out.sent_ms = now_ms
                    packets.append(self._packet(now_ms, out.n, out.item))
        due = self._last_packet_ms is None or now_ms - self._last_packet_ms >= PING_EVERY_MS
        if not packets and (due or self._owe_packet):
            packets.append(self._packet(now_ms, 0, None))
        if packets:
            self._last_packet_ms = now_ms
            if self._first_packet_ms is None:
                self._first_packet_ms = now_ms
            self._owe_packet = False
        return packets

    def _packet(self, now_ms: int, n: int, item: Out | None) -> LinePacket[Out]:
        echo = self._peer_sent_ms
        age = 0 if echo is None else now_ms - self._echo_heard_ms
        return LinePacket(
            self.link, self.boot, now_ms, self.state, self.resumes,
            self._taken_n, self._sent, echo, age, n, item, self._request,
        )  # fmt: skip

    def due_ms(self) -> int:
        """The next instant ``poll`` or ``outgoing`` has something to do (call them then
        at the latest; a packet received may bring it forward)."""
        last = self._last_packet_ms
        due = 0 if last is None or self._owe_packet else last + PING_EVERY_MS
        if self.state != "cut":
            for out in self._outbox:
                due = min(due, 0 if out.sent_ms is None else out.sent_ms + RESEND_AFTER_MS)
        if self._heard_ms is not None and self.state in ("up", "waiting_for_referees"):
            due = min(due, self._heard_ms + CUT_AFTER_MS)
        return due

    # -- receiving ---------------------------------------------------------------------

    @property
    def _taken_n(self) -> int:
        return self._taken[-1].n if self._taken else 0

    def receive(self, packet: LinePacket[In], now_ms: int) -> list[LineDecision]:
        """A packet from the other side arrived at ``now_ms``."""
        if packet.link != self.link:
            return [Ignored(self.link, f"a packet of link {packet.link!r} on link {self.link!r}")]
        if packet.ack > self._sent:
            why = f"acknowledges item {packet.ack}, but this side has sent {self._sent}"
            return [Ignored(self.link, why)]
        if max(packet.last, packet.n) > self._taken_n + MAX_AHEAD:
            why = f"item {max(packet.last, packet.n)} is too far ahead of {self._taken_n}"
            return [Ignored(self.link, why)]
        out: list[LineDecision] = []
        if packet.boot != self._peer_boot:  # the other side (re)started: another clock
            self._peer_boot = packet.boot
            self._peer_sent_ms = None
            self._clock.reset()
        fresh = self._peer_sent_ms is None or packet.sent_ms > self._peer_sent_ms
        self._heard_ms = now_ms
        if fresh:
            self._peer_sent_ms = packet.sent_ms
            self._echo_heard_ms = now_ms
            self._peer_state = packet.state
            self._peer_resumes = packet.resumes
            self._peer_request = packet.request if packet.state != "up" else None
        self._peer_last = max(self._peer_last, packet.last, packet.n)
        first = self._first_packet_ms
        if packet.echo_ms is not None and first is not None and packet.echo_ms >= first:
            self._clock.sample(packet.echo_ms, packet.echo_age_ms, packet.sent_ms, now_ms)
        if packet.ack > self._acked:
            self._acked = packet.ack
            self._outbox = [o for o in self._outbox if o.n > packet.ack]
            out.append(Journal(LineAcked(packet.ack)))
        out += self._heard(now_ms, fresh)
        if packet.n > 0 and packet.item is not None:
            self._owe_packet = True  # acknowledge it (a repeat too: our ack may be lost)
            if packet.n > self._taken_n:
                self._ahead[packet.n] = packet.item
        out += self._deliver(now_ms)
        out += self._follow(now_ms)
        return out

    def _heard(self, now_ms: int, fresh: bool) -> list[LineDecision]:
        """The state changes hearing the other side brings."""
        out: list[LineDecision] = []
        if self.state == "connecting":
            self.state = "up"
        elif self.state == "cut":
            out.append(self._back(now_ms))
        if fresh and self.state == "up":
            peer = self._peer_state
            if peer == "cut" or (
                peer == "waiting_for_referees" and self._peer_resumes >= self.resumes
            ):
                why = "the other host hears nothing of this one"
                out.append(LineCut(now_ms, self.link, why))
                self._cut(now_ms)
                out.append(self._back(now_ms))
        return out

    def _cut(self, now_ms: int) -> None:
        self.state = "cut"
        self._cut_since_ms = now_ms
        self._request = None
        self._peer_request = None
        self._owe_packet = True

    def _back(self, now_ms: int) -> LineBack:
        self.state = "waiting_for_referees"
        self._owe_packet = True
        for out in self._outbox:
            out.sent_ms = None  # resent at once, in order
        missing = max(0, self._peer_last - self._taken_n)
        cut_ms = now_ms - self._cut_since_ms
        return LineBack(now_ms, self.link, cut_ms, len(self._outbox), missing)

    def _deliver(self, now_ms: int) -> list[LineDecision]:
        out: list[LineDecision] = []
        while self._taken_n + 1 in self._ahead:
            offset = self._clock.estimate(now_ms)
            if offset is None:
                break  # taken once its instant can be placed in this side's time
            n = self._taken_n + 1
            item = self._ahead.pop(n)
            at_ms = min(now_ms, item.at_ms - offset.offset_ms)
            record = LineReceived(n, item, now_ms, at_ms, offset.error_ms)
            self._taken.append(record)
            out.append(Take(record))
        return out

    def poll(self, now_ms: int) -> list[LineDecision]:
        """What time alone decides: a cut after ``CUT_AFTER_MS`` of silence."""
        heard = self._heard_ms
        if heard is None or self.state not in ("up", "waiting_for_referees"):
            return []
        if now_ms - heard < CUT_AFTER_MS:
            return []
        self._cut(now_ms)
        why = f"nothing heard from the other host for {now_ms - heard} ms"
        return [LineCut(now_ms, self.link, why)]

    # -- resuming ----------------------------------------------------------------------

    def _not_ready(self) -> str | None:
        """Why the game cannot be resumed now, None if it can."""
        if self.state != "waiting_for_referees":
            return f"the line is {self.state.replace('_', ' ')}"
        if self._outbox:
            return f"{len(self._outbox)} item(s) of this hall not acknowledged yet"
        missing = self._peer_last - self._taken_n
        if missing > 0:
            return f"{missing} item(s) of the other hall not received yet"
        peer = self._peer_state
        if peer == "up" and self._peer_resumes <= self.resumes:
            return "the other host has not held its clock for the cut yet"
        if peer not in ("waiting_for_referees", "up"):
            return "the other host does not hear this one yet"
        return None

    def _resume(self, now_ms: int, by: tuple[str, ...], count: int) -> list[LineDecision]:
        self.state = "up"
        self.resumes = count
        self._request = None
        self._peer_request = None
        self._owe_packet = True
        return [Journal(LineResumed(count, now_ms)), Resume(now_ms, self.link, by)]

    @property
    def _next_resume(self) -> int:
        """The count of a resumption here: past both sides' (so the other side, whose
        count may be ahead after a crash, sees it and follows)."""
        return max(self.resumes, self._peer_resumes) + 1

    def _follow(self, now_ms: int) -> list[LineDecision]:
        """Resume when the other side did (its referees' commands may not reach here)."""
        peer_ahead = self._peer_state == "up" and self._peer_resumes > self.resumes
        if peer_ahead and self._not_ready() is None:
            return self._resume(now_ms, ("the other hall",), self._peer_resumes)
        return []

    def resume_requested(self, by_hall: str, referee: str, now_ms: int) -> list[LineDecision]:
        """The referee of ``by_hall`` asks to resume (a signed command): it waits for the
        other hall's referee to confirm, here or at the other host (the request travels
        in this side's packets)."""
        if by_hall not in (self.here, self.there):
            why = f"hall {by_hall!r} is not one of link {self.link!r}"
            return [ResumeRefused(now_ms, self.link, why)]
        problem = self._not_ready()
        if problem is not None:
            return [ResumeRefused(now_ms, self.link, problem)]
        self._request = (by_hall, referee)
        self._owe_packet = True
        return []

    def resume_confirmed(self, by_hall: str, referee: str, now_ms: int) -> list[LineDecision]:
        """The referee of ``by_hall`` confirms the other hall's request (made here or at
        the other host): ``Resume``."""
        request = self._request or self._peer_request
        if request is None:
            return [ResumeRefused(now_ms, self.link, "no resumption was requested")]
        if by_hall == request[0] or by_hall not in (self.here, self.there):
            why = f"the request of hall {request[0]!r} needs the other hall's confirmation"
            return [ResumeRefused(now_ms, self.link, why)]
        problem = self._not_ready()
        if problem is not None:
            return [ResumeRefused(now_ms, self.link, problem)]
        by = (f"{request[0]}:{request[1]}", f"{by_hall}:{referee}")
        return self._resume(now_ms, by, self._next_resume)

    def resume_by_chief(self, referee: str, now_ms: int) -> list[LineDecision]:
        """The chief referee resumes alone."""
        problem = self._not_ready()
        if problem is not None:
            return [ResumeRefused(now_ms, self.link, problem)]
        return self._resume(now_ms, (f"chief:{referee}",), self._next_resume)

    # -- clocks ------------------------------------------------------------------------

    def _other_minus_mine(self, now_ms: int) -> LineOffset | None:
        return self._clock.estimate(now_ms)

    # -- the journal -------------------------------------------------------------------

    @property
    def taken(self) -> tuple[LineReceived, ...]:
        """The other side's items taken so far, in order (the owner replays its inputs)."""
        return tuple(self._taken)

    def durable(self) -> LineDurable:
        """What ``recover`` rebuilds from the journal (for checks and tests)."""
        unacked = tuple((o.n, cast(LineItem, o.item)) for o in self._outbox)
        return LineDurable(self._sent, self._acked, unacked, self.taken, self.resumes)

    def _restore(self, records: list[LineRecord] | tuple[LineRecord, ...], now_ms: int) -> None:
        for record in records:
            if isinstance(record, LineSent):
                if record.n != self._sent + 1 or not isinstance(record.item, self.OUT_TYPES):
                    raise ValueError(f"journal of link {self.link!r}: unexpected {record!r}")
                self._sent = record.n
                self._outbox.append(_Outgoing(record.n, cast(Out, record.item), None))
            elif isinstance(record, LineAcked):
                self._acked = max(self._acked, record.upto)
                self._outbox = [o for o in self._outbox if o.n > record.upto]
            elif isinstance(record, LineReceived):
                if record.n != self._taken_n + 1:
                    raise ValueError(f"journal of link {self.link!r}: {record.n} out of order")
                self._taken.append(record)
            else:
                self.resumes = max(self.resumes, record.count)
        self._peer_last = self._taken_n
        if records:  # a game was under way: held until the referees resume it
            self._cut(now_ms)


class OwnerLine(HallLine[OwnerTruth, AwayInput]):
    """The owner host's side: takes the away inputs, sends its truth."""

    OUT_TYPES = (OwnerTruth,)

    def send_truth(self, truth: OwnerTruth, now_ms: int) -> LineSent:
        """Number ``truth`` for sending; journal the returned record."""
        return self._send(truth, now_ms)

    def offset(self, now_ms: int) -> LineOffset | None:
        """The away clock minus the owner's, with its bound (for the referees)."""
        return self._other_minus_mine(now_ms)

    def to_owner_ms(self, away_ms: int, now_ms: int) -> tuple[int, int] | None:
        """An away instant in the owner's time, and its error bound (None: not known)."""
        offset = self._other_minus_mine(now_ms)
        return None if offset is None else (away_ms - offset.offset_ms, offset.error_ms)

    @classmethod
    def recover(
        cls, link: str, boot: str, here: str, there: str, records: list[LineRecord], now_ms: int
    ) -> OwnerLine:
        """The owner's side rebuilt from its journal's line records, in order."""
        line = cls(link, boot, here, there)
        line._restore(records, now_ms)
        return line


class AwayLine(HallLine[AwayInput, OwnerTruth]):
    """The away host's side: sends its table's inputs, takes the owner's truth."""

    OUT_TYPES = (AwayStone, AwayPress, AwayClaim, AwayButton, AwayShown, AwayMirrored)

    def send_input(self, item: AwayInput, now_ms: int) -> LineSent:
        """Number an input of this table for sending; journal the returned record."""
        return self._send(item, now_ms)

    def offset(self, now_ms: int) -> LineOffset | None:
        """The away clock minus the owner's, with its bound (as the owner sees it)."""
        offset = self._other_minus_mine(now_ms)
        if offset is None:
            return None
        return LineOffset(-offset.offset_ms, offset.error_ms, offset.rtt_ms, offset.measured_ms)

    def to_owner_ms(self, away_ms: int, now_ms: int) -> tuple[int, int] | None:
        """An instant of this host in the owner's time, and its error bound."""
        offset = self._other_minus_mine(now_ms)
        return None if offset is None else (away_ms + offset.offset_ms, offset.error_ms)

    @classmethod
    def recover(
        cls, link: str, boot: str, here: str, there: str, records: list[LineRecord], now_ms: int
    ) -> AwayLine:
        """The away side rebuilt from its journal's line records, in order."""
        line = cls(link, boot, here, there)
        line._restore(records, now_ms)
        return line
