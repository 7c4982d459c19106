"""What the two 4-digit seven-segment displays of a clock unit show: pure.

Display 0 sits on button 0's side, display 1 on button 1's; each shows the player of that
button (``first_button`` says which button the first seat has). The faces come from what
the players may see — the clock, the game's public status, an open ``Menu`` — and from
nothing the referee alone is told: no forbidden point and no five ever shows (in claim
mode finding those is the players' job).

``faces`` also says when the faces next change (``Faces.next_change_ns``), from
``wuzi.clock.face.next_change_ns`` coarsened to what 4 digits show, so the service
redraws a display only when it must: once a second, ten times a second under 10 s, once
a minute above an hour. ``Faces.text`` is the text meant; ``Faces.segments()`` renders it
with ``wuzi.link.segments.text``, drawing a letter that module has no pattern for with the
nearest pattern it has (``STAND_INS``) — a letter added there later is drawn as itself.
See docs/buttons.md ("What the displays show").
"""

from __future__ import annotations

from dataclasses import dataclass

from wuzi.clock.control import NS_PER_MS, NS_PER_S, TimeControl
from wuzi.clock.errors import ClockError
from wuzi.clock.events import EQUIPMENT_HOLD, FLAG_HOLD
from wuzi.clock.face import counter_text, next_change_ns, point_text
from wuzi.clock.machine import ClockState, advance
from wuzi.clock.snapshot import SideView, view_of
from wuzi.link import segments
from wuzi.rules.board import COLUMNS
from wuzi.rules.game import Status
from wuzi.rules.procedure import Action, Seat
from wuzi.table.buttons import Menu, button_of, seat_of_button
from wuzi.table.session import TableSession

__all__ = [
    "ADJOURNED_TEXT",
    "CHOICE_LABELS",
    "HELD_TEXT",
    "KEPT_TEXT",
    "OVER_TEXT",
    "PAUSED_TEXT",
    "STAND_INS",
    "DisplayError",
    "Faces",
    "clock_face",
    "faces",
    "glyphs",
    "leds",
    "menu_text",
]

PAUSED_TEXT = "PAUS"  # the game awaits the referee, a venue pause, the host's restart
HELD_TEXT = "HOLd"  # the clock is held for the equipment (a board or clock unit lost)
KEPT_TEXT = "PrES"
"""On the display of a player whose press was made while the board could not be heard:
the press is kept with its instant and judged when the board is back (so the player need
not, and should not, press again)."""
ADJOURNED_TEXT = "AdJ "
OVER_TEXT = "End "

CHOICE_LABELS = {
    "swap": "SWAP",
    "stay": "StAY",
    "black": "bLAC",
    "white": "WHIt",
    "place-two": "PL 2",
    "offer": "OFFr",
}
"""The label of each decision the opening procedures offer (``Step.choices``)."""

STAND_INS = {
    "g": "9",
    "i": "1",
    "j": "u",
    "k": "-",
    "m": "-",
    "q": "9",
    "s": "5",
    "v": "u",
    "w": "u",
    "x": "h",
    "y": "4",
    "z": "2",
}
"""How a letter ``wuzi.link.segments`` cannot draw is drawn (only while it cannot):
the usual seven-segment look-alike, or ``-`` when there is none (k, m)."""

_MAX_CHANGE_STEPS = 128  # > 60: the steps of a minute shown as h:mm; then just redraw


class DisplayError(ValueError):
    """Something a display cannot show, or arguments that are not what they must be."""


def _showable(ch: str) -> bool:
    return ch.isascii() and (ch.isdigit() or ch.lower() in segments.LETTERS)


def glyphs(text: str) -> str:
    """``text`` as the displays draw it today: every character ``segments.text`` cannot
    show replaced by its stand-in. A character that has none is a ``DisplayError``."""
    out = []
    for ch in text:
        if _showable(ch):
            out.append(ch)
        elif ch.lower() in STAND_INS:
            out.append(STAND_INS[ch.lower()])
        else:
            raise DisplayError(f"{ch!r} (in {text!r}) cannot be shown on a seven-segment display")
    return "".join(out)


@dataclass(frozen=True)
class Faces:
    """Both displays: ``text`` and ``colon`` for display 0 and display 1, and the next
    instant either changes if nothing happens (None: not before the next input)."""

    text: tuple[str, str]
    colon: tuple[bool, bool]
    next_change_ns: int | None = None

    def segments(self) -> tuple[bytes, bytes]:
        """The segment bytes for display 0 and display 1 (``wuzi.link.segments.text``)."""
        a, b = (
            segments.text(glyphs(t), colon=c) for t, c in zip(self.text, self.colon, strict=True)
        )
        return a, b


def _ceil_div(a: int, b: int) -> int:
    return -(-a // b)


def clock_face(view: SideView) -> tuple[str, bool]:
    """One side's counter in 4 characters and whether the colon is lit.

    ``45:00`` → ``"4500"`` with the colon; ``0:11`` → ``" 011"``; from 10 s down tenths,
    the colon standing for the decimal point: ``9.5`` → ``" 95 "`` (`` 9:5 ``); an hour or
    more as hours and minutes, rounded up like the seconds: ``1:02:03`` → ``"1h03"``; in
    Japanese byo-yomi the periods left, a dash and the period's whole seconds: ``"3-27"``.
    A fallen flag shows ``0.0`` (the counter is 0)."""
    face = view.face_ns
    periods = view.periods_left
    if view.overtime and periods is not None and 1 <= periods <= 9 and face <= 99 * NS_PER_S:
        return f"{periods}-{max(0, _ceil_div(face, NS_PER_S)):>2}", False
    # whole ms rounded up: the counter's tenths, seconds and minutes round up alike
    return counter_text(_ceil_div(face, NS_PER_MS))


def menu_text(menu: Menu) -> str:
    """The 4 characters of the option a menu shows: a decision's label (``CHOICE_LABELS``),
    a number as ``" n 3"``, an offer as its point (``"h 9 "``, ``"j 10"``)."""
    option = menu.option
    if menu.action is Action.DECLARE:
        n = int(option)
        return f" n{n:>2}" if n < 100 else f"n{min(n, 999):>3}"
    if menu.action is Action.CHOOSE_OFFER:
        if option[0] not in COLUMNS:
            raise DisplayError(f"{option!r} is not a point")
        return point_text(option)
    label = CHOICE_LABELS.get(option)
    if label is None:  # a choice of a procedure added later: its first letters
        label = "".join(ch if _showable(ch) or ch.lower() in STAND_INS else "-" for ch in option)
    return f"{label[:4]:<4}"


def _check_args(now_ns: object, first_button: object) -> None:
    if isinstance(now_ns, bool) or not isinstance(now_ns, int):
        raise DisplayError(f"now_ns must be an integer, not {now_ns!r}")
    if isinstance(first_button, bool) or first_button not in (0, 1):
        raise DisplayError(f"first_button must be 0 or 1, not {first_button!r}")


def _clock_faces(
    control: TimeControl,
    state: ClockState,
    seats: tuple[Seat, Seat],
    menu: tuple[int, str] | None,
) -> tuple[tuple[str, bool], ...]:
    """Both faces from the clock, the menu (display index, text) over its display."""
    view = view_of(control, state)
    shown = [clock_face(view.side(seat)) for seat in seats]
    if menu is not None:
        shown[menu[0]] = (menu[1], False)
    return tuple(shown)


def faces(
    session: TableSession | None,
    now_ns: int,
    *,
    first_button: int = 0,
    menu: Menu | None = None,
    idle_text: str = "----",
    kept: int | None = None,
) -> Faces:
    """What displays 0 and 1 show at ``now_ns`` (not earlier than the session's last
    input): no session → ``idle_text`` on both; the game over → ``End `` on both;
    adjourned → ``AdJ ``; paused (the referee, a false claim, a venue pause, the host's
    restart) → ``PAUS``; held for the equipment alone → ``HOLd``; otherwise each player's
    clock (``clock_face``), except that an open ``menu`` of the session's current step
    shows its option (``menu_text``) on the chooser's display until it expires. ``kept``:
    the button whose press the host keeps for the board (made during an outage) shows
    ``PrES`` on its display, so the player knows it was taken."""
    _check_args(now_ns, first_button)
    if not isinstance(idle_text, str) or len(idle_text) != 4:
        raise DisplayError(f"idle_text must be 4 characters, not {idle_text!r}")
    glyphs(idle_text)
    if menu is not None and not isinstance(menu, Menu):
        raise DisplayError(f"menu must be a Menu or None, not {menu!r}")
    if session is None:
        return Faces((idle_text, idle_text), (False, False))
    if not isinstance(session, TableSession):
        raise DisplayError(f"session must be a TableSession or None, not {session!r}")
    game, clock = session.game, session.clock
    try:
        state = clock.at(now_ns)
    except ClockError as exc:
        raise DisplayError(f"faces at {now_ns}: {exc}") from None
    if game.is_over:
        return Faces((OVER_TEXT, OVER_TEXT), (False, False))
    if session.adjourned:
        return Faces((ADJOURNED_TEXT, ADJOURNED_TEXT), (False, False))
    if kept is not None and kept not in (0, 1):
        raise DisplayError(f"kept must be button 0, 1 or None, not {kept!r}")
    holds = [h for h in state.hold_names if h != FLAG_HOLD]
    if game.status is Status.AWAITING_REFEREE or (holds and holds != [EQUIPMENT_HOLD]):
        return Faces((PAUSED_TEXT, PAUSED_TEXT), (False, False))
    if holds or kept is not None:
        # held for the equipment (no time runs: none shown), or a press kept meanwhile
        seats = (_seat(0, first_button), _seat(1, first_button))
        view = view_of(clock.control, state)
        texts = [HELD_TEXT if holds else clock_face(view.side(seat))[0] for seat in seats]
        if kept is not None:
            texts[kept] = KEPT_TEXT
        return Faces((texts[0], texts[1]), (False, False))
    seats = (_seat(0, first_button), _seat(1, first_button))
    control, policy = clock.control, clock.on_flag
    overlay: tuple[int, str] | None = None
    menu_ns: int | None = None
    if menu is not None and menu.expires_ns > now_ns and menu.fits(session):
        overlay = (button_of(menu.seat, first_button), menu_text(menu))
        menu_ns = menu.expires_ns
    shown = _clock_faces(control, state, seats, overlay)
    # The next instant the clock part changes: step through the clock's own changes until
    # one shows on 4 digits (a second of tenths in byo-yomi, a minute of h:mm, a clock
    # hidden by a menu). Past the bound the service just redraws the same faces.
    t = next_change_ns(control, state)
    for _ in range(_MAX_CHANGE_STEPS):
        if t is None or (menu_ns is not None and t >= menu_ns):
            break
        later = advance(control, policy, state, t)
        if _clock_faces(control, later, seats, overlay) != shown:
            break
        t = next_change_ns(control, later)
    change = min((x for x in (t, menu_ns) if x is not None), default=None)
    return Faces((shown[0][0], shown[1][0]), (shown[0][1], shown[1][1]), change)


def _seat(button: int, first_button: int) -> Seat:
    seat = seat_of_button(button, first_button)
    assert seat is not None
    return seat


def leds(session: TableSession | None, first_button: int = 0, now_ns: int | None = None) -> int:
    """The clock unit's LED mask: bit ``b`` lit while the clock of button ``b``'s player
    runs (bit 2, by the claim button, stays off). ``now_ns`` also counts a flag fallen
    since the last input (under the ``stop`` policy it stops the clock)."""
    _check_args(0 if now_ns is None else now_ns, first_button)
    if session is None:
        return 0
    if not isinstance(session, TableSession):
        raise DisplayError(f"session must be a TableSession or None, not {session!r}")
    clock = session.clock
    try:
        state = clock.state if now_ns is None else clock.at(now_ns)
    except ClockError as exc:
        raise DisplayError(f"leds at {now_ns}: {exc}") from None
    running = state.running
    if running is None:
        return 0
    return 1 << button_of(running, first_button)
