"""When a clock press is judged, and in what order with the board's stones: pure.

A stone reaches the host only after the board's debounce, its settle and a confirmation,
while a player presses within a few milliseconds of letting go of the stone; and during
a board outage the board's stones come back only when the link does, from the board's
own log, each with the instant the board read it. So a press is never judged when it
arrives but when the board has vouched for its instant: every stone that lay on the board
at the press has been reported. ``PressGate`` keeps the presses of one table in the order
they were made, keeps the board's reports that came after a waiting press behind it, and
says, at each call, what the host must do, as values (``Decision``):

* ``Feed`` a board report (a stone or a board alert) to the table at ``at_ns`` (the
  board's own instant, or a waiting press's; the table keeps its inputs in time order);
* ``Judge`` a press with its own instant (the stone before it is its move);
* ``NotJudged`` a press the board could not vouch for while its link was up (no
  infraction, no clock switch: the referee is told and the clock held);
* ``AskBoard`` to vouch for a press's instant (a question, one round trip).

A press made while the board link is down is **kept** with its instant, however long the
outage: when the link is back and the board has replayed its log, the press is judged as
of its instant, against the board as it was then, and the stones the board read after it
follow it. Nothing here reads a clock or does I/O: the board is seen through
``BoardView`` (``wuzi.io.serial_link.BoardDriver`` is one), the time is an argument.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

from wuzi.clock.control import NS_PER_MS

__all__ = [
    "PRESS_SETTLE_MAX_MS",
    "AskBoard",
    "BoardView",
    "Decision",
    "Feed",
    "HeldPress",
    "Judge",
    "NotJudged",
    "PressGate",
]

R = TypeVar("R")

PRESS_SETTLE_MAX_MS = 3000
"""How long a press may wait for a board whose link is up (a stone settles within its
debounce, the 150 ms settle and a round trip; a hand hovering over the board delays it):
past this the board cannot vouch for the press, which is then not judged. While the link
is down the press waits for it without a limit, and this counts from its return."""


class BoardView(Protocol):
    """What the gate needs of a table's board link."""

    @property
    def link_down(self) -> bool:
        """The board is not heard (a cable pulled, silence past the heartbeat window)."""
        ...

    @property
    def debounce_ms(self) -> int:
        """How long after a stone is put down the board reads it (its debounce): a report
        stamped up to this long after a press lay on the board at the press."""
        ...

    def settled_through(self, t_ms: int, ticket: int = 0) -> bool:
        """Every stone that lay on the board at ``t_ms`` has been reported."""
        ...


@dataclass(frozen=True)
class HeldPress:
    """A press waiting for the board: its button, its own instant, when it arrived, and the
    board's question asked then (``BoardDriver.vouch_now``; 0: none)."""

    button: int
    at_ns: int
    held_ns: int
    ticket: int = 0


@dataclass(frozen=True)
class Feed(Generic[R]):
    """Give the table this board report, seen at ``at_ns``."""

    report: R
    at_ns: int


@dataclass(frozen=True)
class Judge:
    """Judge the press of ``button`` made at ``at_ns``."""

    button: int
    at_ns: int


@dataclass(frozen=True)
class NotJudged:
    """The press of ``button`` at ``at_ns`` cannot be vouched for: ``why`` it is not."""

    button: int
    at_ns: int
    why: str


@dataclass(frozen=True)
class AskBoard:
    """Ask the board to vouch for ``through_ms`` (now: ``now_ms``)."""

    now_ms: int
    through_ms: int


Decision = Feed[R] | Judge | NotJudged | AskBoard


class PressGate(Generic[R]):
    """The presses of one table waiting for its board, and the reports behind them.

    ``claim_button``: the button that is no move (a claim goes through at once unless
    presses wait before it, then in its turn)."""

    def __init__(self, claim_button: int) -> None:
        self.claim_button = claim_button
        self._presses: deque[HeldPress] = deque()
        self._behind: deque[tuple[R, int]] = deque()  # (report, its board instant)
        self._up_since_ns: int | None = None  # the link came back (a press's wait restarts)
        self._was_down = False

    @property
    def waiting(self) -> Sequence[HeldPress]:
        """The presses not judged yet, in the order they were made."""
        return tuple(self._presses)

    @property
    def kept_button(self) -> int | None:
        """The button of the first press kept while the board link was down (what the
        clock unit shows its player: the press was taken), None if there is none."""
        return self._presses[0].button if self._presses and self._was_down else None

    def hold_at(self, now_ns: int) -> int:
        """The instant a hold for the equipment takes effect: now, or the first waiting
        press's instant if earlier (a press made just before the board was found lost
        stops the mover's clock at the press, not at the finding)."""
        return min(now_ns, self._presses[0].at_ns) if self._presses else now_ns

    def press(self, button: int, at_ns: int, now_ns: int, ticket: int = 0) -> None:
        """A press of ``button`` made at ``at_ns`` (never after ``now_ns``) arrived."""
        self._presses.append(HeldPress(button, min(at_ns, now_ns), now_ns, ticket))

    def report(self, report: R, at_ns: int, now_ns: int, board: BoardView) -> list[Decision[R]]:
        """A board report the board read at ``at_ns``. With no press waiting it is fed at
        once, as of the board's own instant (a host that was slow to hear of a stone does
        not date it late, so a press stamped before that delay is not charged it); one
        read by the press's instant (plus the board's debounce) lay there at the press and
        is fed as of the press, so the press judges it with its own time; one read later
        waits behind the press."""
        if not self._presses:
            return [Feed(report, min(now_ns, at_ns))]
        first = self._presses[0]
        if self._behind or at_ns > first.at_ns + board.debounce_ms * NS_PER_MS:
            self._behind.append((report, at_ns))
            return []
        return [Feed(report, min(now_ns, first.at_ns))]

    def release(self, now_ns: int, board: BoardView | None) -> list[Decision[R]]:
        """What can be done now, in order: the presses the board vouches for judged, each
        followed by the reports it kept behind it (up to the next waiting press).
        ``board`` None: the table's board could not be opened (yet): as a link down."""
        out: list[Decision[R]] = []
        if board is None or board.link_down:  # None: the board could not be opened yet
            self._was_down = bool(self._presses)
            self._up_since_ns = None
        elif self._up_since_ns is None:
            self._up_since_ns = now_ns
        presses = self._presses
        while presses:
            first = presses[0]
            if first.button == self.claim_button:
                presses.popleft()
                out.append(Judge(first.button, first.at_ns))
                out += self._reports_before(now_ns, board)
                continue
            if board is None or board.link_down:
                return out  # kept with its instant until the board's log is back
            if board.settled_through(first.at_ns // NS_PER_MS, first.ticket):
                presses.popleft()
                out.append(Judge(first.button, first.at_ns))
                out += self._reports_before(now_ns, board)
                continue
            since = max(first.held_ns, self._up_since_ns or 0)
            if now_ns - since >= PRESS_SETTLE_MAX_MS * NS_PER_MS:
                presses.popleft()
                seconds = PRESS_SETTLE_MAX_MS / 1000
                why = f"while the board did not settle for {seconds:g} s"
                out.append(NotJudged(first.button, first.at_ns, why))
                out += self._reports_before(now_ns, board)
                continue
            out.append(AskBoard(now_ns // NS_PER_MS, first.at_ns // NS_PER_MS))
            return out
        self._was_down = False
        return out

    def _reports_before(self, now_ns: int, board: BoardView | None) -> list[Decision[R]]:
        """The reports kept behind the press just done that the next waiting press (if
        any) must see: those read by its instant (plus the debounce), fed as of it."""
        out: list[Decision[R]] = []
        nxt = self._presses[0] if self._presses else None
        debounce_ns = (board.debounce_ms if board is not None else 0) * NS_PER_MS
        while self._behind:
            report, at_ns = self._behind[0]
            if nxt is not None and at_ns > nxt.at_ns + debounce_ns:
                break
            self._behind.popleft()
            out.append(Feed(report, min(now_ns, at_ns if nxt is None else nxt.at_ns)))
        return out
