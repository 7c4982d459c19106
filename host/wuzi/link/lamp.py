"""The point LED of a sensor board (wire protocol 2.2): the host's wish, the board's word.

In a linked game (docs/linked.md) the away player must place the opponent's stone on their
own board; a board with point LEDs (``boards/sensor-rev-b``) lights that point until the
stone is there. The board puts the light out by itself when its scan settles the stone of
the lit colour on the point: no round trip, so the light goes out as the hand leaves it.

This module is the pure part of the host's side, driven by ``BoardSession``:

* ``light_body`` / ``dark_body`` / ``parse_lamp``: the LIGHT, DARK and LAMP bodies
  (docs/wire.md, "The point LED"), checked so a bad request is refused here with a message
  naming the field, never sent to a board that would only answer ERROR.
* ``PointLight``: what the host wants lit, the request in flight (its token) and the
  board's last word. A request is sent when the board can take it (identified, its INFO
  says it has point LEDs) and re-sent every ``LAMP_RETRY_MS`` until the LAMP with its token
  arrives, so a lost frame delays the light and never loses it; a board that rebooted
  (dark again) is asked again. A board that cannot light — a ``sensor-rev-a``, or any
  firmware before 2.2, whose INFO carries no capability — is never sent one: ``can_light``
  says False and ``light`` returns no ticket. Nothing here reads a clock.
"""

from __future__ import annotations

from dataclasses import dataclass

from wuzi.link import wire

__all__ = [
    "LAMP_RETRY_MS",
    "LAMP_STATES",
    "Lamp",
    "PointLight",
    "dark_body",
    "light_body",
    "parse_lamp",
]

LAMP_RETRY_MS = 250
"""An unanswered LIGHT or DARK is sent again after this long (the board answers within a
loop turn: a lost frame, not a slow board, is why no LAMP came)."""

LAMP_STATES = {wire.LAMP_DARK: "dark", wire.LAMP_LIT: "lit", wire.LAMP_PLACED: "placed"}


@dataclass(frozen=True)
class Lamp:
    """The board's word on its point LED (a LAMP frame): ``state`` "lit" (``point`` shows
    ``colour``, blinking or steady), "dark" (nothing lit), or "placed" (the stone of
    ``colour`` settled on ``point``, so the board put it out; or it lay there already
    when the LIGHT came). ``token`` is the host's request it answers, 0 when the board
    speaks of itself (a stone put the light out)."""

    state: str
    point: int | None
    colour: int
    blink: bool
    token: int
    at_ms: int

    @property
    def lit(self) -> bool:
        return self.state == "lit"


def _check(point: int, colour: int) -> None:
    if not 0 <= point < wire.POINTS:
        raise ValueError(f"point {point} is off the board (0..{wire.POINTS - 1})")
    if colour not in (wire.BLACK, wire.WHITE):
        raise ValueError(f"colour {colour} is no stone colour (1 black, 2 white)")


def light_body(token: int, point: int, colour: int, blink: bool) -> bytes:
    """A LIGHT body; ValueError naming the field for a point off the board or a colour
    that is no stone's."""
    _check(point, colour)
    if not 1 <= token <= 0xFF:
        raise ValueError(f"token {token} must be 1..255 (0 is the board's own word)")
    mode = wire.MODE_BLINK if blink else wire.MODE_STEADY
    return bytes((token, point, colour, mode))


def dark_body(token: int) -> bytes:
    if not 1 <= token <= 0xFF:
        raise ValueError(f"token {token} must be 1..255 (0 is the board's own word)")
    return bytes((token,))


def parse_lamp(body: bytes, at_ms: int) -> Lamp | None:
    """A LAMP body as a ``Lamp`` (its tick already mapped to ``at_ms`` by the caller), None
    when it makes no sense (too short, an unknown state, a point off the board): damage
    the CRC missed, or a newer firmware's word this host cannot read."""
    if len(body) < wire.LEN_LAMP:
        return None
    token, state, point, colour, mode = body[0], body[1], body[2], body[3], body[4]
    name = LAMP_STATES.get(state)
    if name is None or mode > wire.MODE_BLINK:
        return None
    if name == "dark":
        return Lamp("dark", None, 0, False, token, at_ms)
    if point >= wire.POINTS or colour not in (wire.BLACK, wire.WHITE):
        return None
    return Lamp(name, point, colour, mode == wire.MODE_BLINK, token, at_ms)


@dataclass(frozen=True)
class _Wish:
    point: int | None  # None: dark
    colour: int
    blink: bool


class PointLight:
    """The host's side of one board's point LED. ``BoardSession`` feeds it the board's
    INFO capability, its LAMP and ERROR answers, and asks ``due`` for the command to send.

    Tickets: ``light`` and ``dark`` return a serial (1, 2, …); ``acknowledged(ticket)`` is
    true once the board has answered that request or a later one. The token on the wire is
    the serial's low byte, never 0 (the board's own word)."""

    def __init__(self) -> None:
        self.can_light: bool | None = None  # None until the board's INFO has said
        self.lamp: Lamp | None = None  # the board's last word (None: none yet)
        self.refused = ""  # why the board refused LIGHT / DARK ("": it did not)
        self._wish: _Wish | None = None  # None: the host has asked for nothing
        self._serial = 0
        self._acked = 0  # the latest serial the board answered
        self._sent_ms: int | None = None  # when the pending request was last sent

    @property
    def token(self) -> int:
        return self._serial % 0xFF + 1

    @property
    def pending(self) -> bool:
        """A request the board has not answered yet."""
        return self._wish is not None and self._acked < self._serial

    def acknowledged(self, ticket: int) -> bool:
        return 0 < ticket <= self._acked

    def light(self, point: int, colour: int, blink: bool) -> int:
        """Want ``point`` lit in ``colour``: the ticket, or 0 when the board is known to
        have no point LEDs (nothing is sent; ``can_light`` is False)."""
        _check(point, colour)
        return self._want(_Wish(point, colour, blink))

    def dark(self) -> int:
        """Want no point lit: the ticket, or 0 when the board cannot light."""
        return self._want(_Wish(None, 0, False))

    def _want(self, wish: _Wish) -> int:
        if self.can_light is False:
            return 0
        self._wish = wish
        self._serial += 1
        self._sent_ms = None
        return self._serial

    def on_info(self, point_leds: bool, new_boot: bool) -> None:
        """The board identified itself; a new boot starts dark, so a light the host
        wants is asked again."""
        self.can_light = point_leds
        if not point_leds:
            self._wish = None
            return
        if new_boot and self._wish is not None and self._wish.point is not None:
            if self._acked >= self._serial:
                self._serial += 1  # the board forgot it: a new request, a new token
            self._sent_ms = None
            self.lamp = None

    def due(self, now_ms: int, ready: bool) -> tuple[int, bytes] | None:
        """The command (type, body) to send now, or None: the pending request, once the
        board can take it (``ready``: identified, its handshake over), again every
        ``LAMP_RETRY_MS`` until answered."""
        wish = self._wish
        if not ready or not self.can_light or wish is None or not self.pending:
            return None
        if self._sent_ms is not None and now_ms - self._sent_ms < LAMP_RETRY_MS:
            return None
        self._sent_ms = now_ms
        if wish.point is None:
            return wire.T_DARK, dark_body(self.token)
        return wire.T_LIGHT, light_body(self.token, wish.point, wish.colour, wish.blink)

    def next_deadline_ms(self) -> int | None:
        if not self.pending or self._sent_ms is None:
            return None
        return self._sent_ms + LAMP_RETRY_MS

    def on_lamp(self, lamp: Lamp) -> None:
        """The board's LAMP: the answer to the pending request (its token), or its own word
        that a stone put the light out (then the host's wish is fulfilled)."""
        if lamp.token and self.pending and lamp.token == self.token:
            self._acked = self._serial
            self._sent_ms = None
        elif lamp.token:
            return  # an answer to an older request, overtaken: the pending one decides
        self.lamp = lamp
        wish = self._wish
        if lamp.state == "placed" and wish is not None and wish.point == lamp.point:
            self._wish = _Wish(None, 0, False)  # done: the board is dark, as wanted
            self._acked = self._serial

    def on_error(self, code: int) -> None:
        """The board refused LIGHT or DARK: it has no point LEDs (``E_NOT_FITTED``), or
        its firmware does not know the command (``E_UNKNOWN_TYPE``). Not asked again."""
        names = {
            wire.E_NOT_FITTED: "the board has no point LEDs",
            wire.E_UNKNOWN_TYPE: "the board's firmware does not know LIGHT (before 2.2)",
            wire.E_BAD_VALUE: "the board refused the point or colour",
            wire.E_BAD_LENGTH: "the board refused the frame's length",
        }
        self.refused = names.get(code, f"the board answered error {code}")
        self._wish = None
        self._sent_ms = None
        if code in (wire.E_NOT_FITTED, wire.E_UNKNOWN_TYPE):
            self.can_light = False
