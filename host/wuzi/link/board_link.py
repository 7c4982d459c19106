"""One sensor board end to end, still sans-I/O: bytes in, reconciled stone events and alerts out.

``BoardLink`` wires a ``BoardSession`` to a ``Reconciler`` so the drivers in ``wuzi.io`` (and
the tests) deal with one object: feed it bytes and the time, write what ``data_to_send``
returns, call ``poll`` at ``next_deadline_ms``, tell it the colour expected next
(``expect``). Callers ask it, not its ``session`` or ``reconciler`` (public for tests and
subclasses): how the two share the work stays this module's business.
"""

from __future__ import annotations

from wuzi.link.lamp import Lamp
from wuzi.link.noise import LineNoisy
from wuzi.link.reconciler import (
    DEFAULT_SETTLE_MS,
    LINK_DOWN,
    LINK_UP,
    REBOOTED,
    Alert,
    Reconciled,
    Reconciler,
)
from wuzi.link.session import (
    BoardSession,
    BoardState,
    Connected,
    LinkDown,
    LinkEvent,
    LinkUp,
    SensorChange,
    StuckSensors,
)
from wuzi.rules.board import Colour

DEFAULT_DEBOUNCE_MS = 20
"""The sensor boards' debounce (4 scans of 5 ms: boards/), until a board's INFO says."""

LINE_NOISY = "line_noisy"
"""The kind of the ``Alert`` a noisy line is told by (``LineNoisy``: once, its rate in the
detail). Not one of the reconciler's ``ALERT_KINDS``: nothing about the stones changed and
no table input comes of it; the host tells the referees itself (``wuzi.host.link_events``)."""


class BoardLink:
    def __init__(
        self,
        *,
        settle_ms: int = DEFAULT_SETTLE_MS,
        expected_serial: str | None = None,
        port_name: str = "board",
        board: bytes | None = None,
        skip_history: bool = False,
    ) -> None:
        self.session = BoardSession(
            expected_serial=expected_serial, port_name=port_name, skip_history=skip_history
        )
        self.reconciler = Reconciler(settle_ms, board)
        self._noisy: list[Alert] = []  # a noisy line's alert, handed out with the next call

    @property
    def health(self) -> dict[str, int]:
        return self.session.health.as_dict()

    @property
    def frames_received(self) -> int:
        """Frames heard from the board so far (a driver's back-off ends with the first)."""
        return self.session.health.frames

    def expect(self, colour: Colour | None) -> None:
        """The colour of the next stone, for the wrong-colour check (None: no check). The
        table host tells it after every change of its game, so a stone of the other
        colour is a ``wrong_colour`` alert, not a stone event."""
        self.reconciler.expect(colour)

    @property
    def link_up(self) -> bool:
        """The board is heard: it identified itself and has not gone silent or away."""
        return self.session.link_up

    @property
    def identified(self) -> bool:
        """The right board answered on this connection (its INFO was accepted)."""
        return self.session.identified

    def connection_made(self, now_ms: int) -> None:
        self.session.connection_made(now_ms)

    def connection_lost(self, now_ms: int, why: str) -> list[Reconciled]:
        """The port died or the board on it was refused: a ``link_down`` alert at once
        (once per outage; ``why`` is its detail), nothing settles that was not heard."""
        self._apply(self.session.connection_lost(now_ms, why))
        return self._out(self.reconciler.poll(now_ms, hold=self._hold()))

    def _out(self, reconciled: list[Reconciled]) -> list[Reconciled]:
        if not self._noisy:
            return reconciled
        noisy, self._noisy = self._noisy, []
        return noisy + reconciled

    def settled_through(self, t_ms: int, ticket: int = 0) -> bool:
        """Whether every stone that lay on the board at host time ``t_ms`` has been
        reported already (as a stone event or an alert), so a clock press stamped ``t_ms``
        can be judged against the position as it stands: the link is up and in sync (every
        event the board numbered delivered), no reading waits to be settled, and either the
        board has vouched for ``t_ms`` itself (a STEADY answer, protocol 2.1: no reading in
        its debounce at a look after ``t_ms``, or after the question ``ticket`` from
        ``vouch_now`` asked once the press had arrived; one round trip) or — a 2.0
        board — it has been heard up to ``t_ms`` plus its debounce time (a stone put down
        at ``t_ms`` becomes an event only once the MCU's debounce has held it; a word
        stamped before that proves nothing about it)."""
        s = self.session
        if not (s.link_up and s.in_sync) or s.info is None or s.heard_until_ms is None:
            return False
        if self.reconciler.unsettled:
            return False
        if s.steady_until_ms is not None and s.steady_until_ms > t_ms:
            return True  # the board vouched for the moment itself (STEADY, 2.1)
        if ticket and s.steady_answered >= ticket:
            return True  # ... or for a question asked after it
        return s.heard_until_ms >= t_ms + self.debounce_ms

    @property
    def debounce_ms(self) -> int:
        """How long after a stone is put down the board reads it: its debounce (the scans
        a reading must hold, from its INFO), rounded up; ``DEFAULT_DEBOUNCE_MS`` before
        the board has said. A reading stamped up to this long after an instant shows a
        stone that lay there at that instant."""
        info = self.session.info
        if info is None:
            return DEFAULT_DEBOUNCE_MS
        return -(-info.debounce_scans * info.scan_us // 1000)

    def ask_now(self, now_ms: int, through_ms: int | None = None) -> None:
        """Ask the board to vouch for ``through_ms`` (a clock press's own time; default
        now): a STEADY_REQ, or for a 2.0 board a HELLO its stamped INFO answers, so
        ``settled_through`` can turn true within a round trip instead of at the next
        heartbeat; the caller writes ``data_to_send``."""
        self.session.ask_steady(now_ms if through_ms is None else through_ms, now_ms)

    def vouch_now(self, now_ms: int) -> int:
        """Ask the board to vouch for this instant (a clock press has just arrived): the
        ticket for ``settled_through`` (0 for a 2.0 board, asked HELLO). The caller writes
        ``data_to_send``."""
        return self.session.ask_steady_now(now_ms)

    # -- the point LED (wire protocol 2.2; ``wuzi.link.lamp``) ----------------------------

    @property
    def can_light(self) -> bool | None:
        """Whether the board has point LEDs (``sensor-rev-b``): None until its INFO has
        said; False for a ``sensor-rev-a`` and any firmware before 2.2 — then
        ``light_point`` sends nothing and the caller shows the move elsewhere."""
        return self.session.point_leds

    @property
    def lamp(self) -> Lamp | None:
        """The board's last word on its point LED: lit (which point, colour, blinking),
        dark, or "placed" (a stone of the lit colour settled there: the board put it
        out by itself). None before any."""
        return self.session.lamp

    def light_point(
        self, point: int, colour: Colour | int, now_ms: int, *, blink: bool = True
    ) -> int:
        """Light ``point`` in ``colour`` (the opponent's stone to mirror) until that stone
        is placed there or ``dark_point``: the ticket for ``lamp_acknowledged`` (0: the
        board cannot light). The caller writes ``data_to_send``."""
        return self.session.light_point(point, int(colour), now_ms, blink=blink)

    def dark_point(self, now_ms: int) -> int:
        """Put the lit point out (the move was taken back, the game ended): the ticket."""
        return self.session.dark_point(now_ms)

    def lamp_acknowledged(self, ticket: int) -> bool:
        """The board has answered the request of ``ticket`` (or a later one) with LAMP."""
        return self.session.lamp_acknowledged(ticket)

    def data_to_send(self) -> bytes:
        return self.session.data_to_send()

    def receive_data(self, data: bytes, now_ms: int) -> list[Reconciled]:
        self._apply(self.session.receive_data(data, now_ms))
        self._confirm_quiet(now_ms)
        return self._out(self.reconciler.poll(now_ms, hold=self._hold()))

    def poll(self, now_ms: int) -> list[Reconciled]:
        self._apply(self.session.poll(now_ms))
        self._confirm_quiet(now_ms)
        return self._out(self.reconciler.poll(now_ms, hold=self._hold()))

    def next_deadline_ms(self) -> int | None:
        deadlines = [self.session.next_deadline_ms()]
        if self.session.in_sync:
            settle = self.reconciler.next_deadline_ms()
            unheard = self._unheard_quiet_ms()
            again = self.session.ask_again_ms()
            if (
                settle is not None
                and unheard is not None
                and again is not None
                and settle >= unheard
            ):
                # the window's end has been asked about: sleep until the answer (it wakes
                # the loop) or the retry, not poll a deadline already past — a host loop
                # spinning through the round trip starves the very device it waits for
                settle = max(settle, again)
            deadlines.append(settle)
        known = [d for d in deadlines if d is not None]
        return min(known) if known else None

    def _confirm_quiet(self, now_ms: int) -> None:
        """While a quiet window is not yet heard to its end, ask the board to vouch for
        that end: a 2.1 board is asked at once, its answer due at the end (no round trip
        after it); a 2.0 board is asked HELLO at the end (its INFO answers within a round
        trip; the next heartbeat would come up to 200 ms later).

        The end is heard by a word from the window's last millisecond (``heard_until_ms
        >= quiet``: a heartbeat or an INFO stamped then, as a 2.0 board's answer is), and
        the reconciler settles from that millisecond's start on. So a 2.1 board is asked
        to vouch for every instant before that start (``through`` its previous ms), not
        for the whole millisecond: that would hold every stone up to 1 ms longer than the
        window (docs/performance.md)."""
        if not self.session.in_sync:
            return
        quiet = self._unheard_quiet_ms()
        if quiet is not None:
            session = self.session
            session.ask_steady(quiet - 1 if session.answers_steady else quiet, now_ms)

    def _hold(self) -> bool:
        """Whether the reconciler must not settle yet: the link is catching up, or the
        quiet window has not been heard to its end (an event lost in it would be noticed
        only at the next heartbeat: a slide whose last change was lost would settle as two
        stones)."""
        return not self.session.in_sync or self._unheard_quiet_ms() is not None

    def _unheard_quiet_ms(self) -> int | None:
        """The end of the quiet window the board has not yet confirmed (None: no window
        waits, or the board has been heard to its end)."""
        quiet = self.reconciler.quiet_deadline_ms()
        heard = self.session.heard_until_ms
        if quiet is None or (heard is not None and heard >= quiet):
            return None
        return quiet

    def _apply(self, events: list[LinkEvent]) -> None:
        rec = self.reconciler
        for ev in events:
            if isinstance(ev, SensorChange):
                rec.sensor(ev.point, ev.state, ev.at_ms)
            elif isinstance(ev, BoardState):
                rec.resync(ev.cells, ev.at_ms)
            elif isinstance(ev, Connected):
                if ev.new_boot:
                    skipped = self.session.skip_history and not ev.rebooted
                    rec.new_boot(ev.boot_at_ms, awaiting_snapshot=skipped)
                if ev.rebooted:
                    rec.link_alert(REBOOTED, ev.at_ms, f"boot id {ev.info.boot_id:08x}")
            elif isinstance(ev, StuckSensors):
                rec.stuck_sensors(ev.points, ev.at_ms)
            elif isinstance(ev, LinkDown):
                rec.link_alert(LINK_DOWN, ev.at_ms, ev.why or f"silent for {ev.silent_ms} ms")
            elif isinstance(ev, LinkUp):
                rec.link_alert(LINK_UP, ev.at_ms)
            elif isinstance(ev, LineNoisy):
                self._noisy.append(Alert(LINE_NOISY, ev.at_ms, detail=ev.text))
