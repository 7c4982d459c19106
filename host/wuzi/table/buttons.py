"""The clock unit's three buttons turned into table inputs: a pure state machine.

On a physical table the players have nothing but the clock unit: button 0 and button 1
(one per player, display 0 on button 0's side) and button 2, the claim button. Every
opening decision (swap or stay, Swap2's options, a declared N, the fifth-move offer
kept) and every claim has to be entered with those three buttons, so ``ButtonMapper``
gives them a small protocol (docs/buttons.md has a table per step):

* a player button is that player's clock press (``ClockPressed``);
* at a step where a player chooses (``Action.DECIDE``, ``DECLARE``, ``CHOOSE_OFFER``)
  the claim button opens a ``Menu`` on the chooser's display and steps through the
  options; the chooser's own button confirms: the action, then the press that closes it;
* otherwise the claim button arms a claim for ``CLAIM_WINDOW_NS``: a player button
  within the window says who claims (that press is no clock press — except in the
  opening, where no claim can be right and the press stays a press); the claim button a
  second time within the window calls the referee instead (a signal for the service).

The mapper reads the session to know which step it is at and keeps only what the
session cannot know: an open menu and an armed claim, both short-lived. It never does
I/O and never reads the time; it never changes the session (the service hands the inputs
it returns to ``TableSession.handle`` and journals them like any other input). After a
crash the service builds a fresh mapper: an open menu or an armed claim is lost and the
player starts it again — nothing a player confirmed is lost, because a confirmed action is
a journaled session input.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from wuzi.rules.board import parse_point, point_name
from wuzi.rules.game import Status
from wuzi.rules.procedure import Action, Seat
from wuzi.table import inputs
from wuzi.table.checks import TableError
from wuzi.table.inputs import Choose, Claim, ClockPressed, Decide, TableInput
from wuzi.table.session import TableSession

__all__ = [
    "CHOOSE_FIRST",
    "CLAIM_BUTTON",
    "CLAIM_WINDOW_NS",
    "MENU_ACTIONS",
    "MENU_TIMEOUT_NS",
    "PLAYER_BUTTONS",
    "REFEREE_CALLED",
    "SIGNALS",
    "WAIT_FOR_CLOCK",
    "ButtonError",
    "ButtonMapper",
    "Menu",
    "button_of",
    "claim_kind",
    "menu_for",
    "seat_of_button",
]

S_NS = 1_000_000_000
CLAIM_WINDOW_NS = 3 * S_NS
"""After the claim button, how long a player button means "I claim" (not a clock press)."""
MENU_TIMEOUT_NS = 30 * S_NS
"""A menu closes this long after the last press that opened or stepped it."""

PLAYER_BUTTONS = (0, 1)
CLAIM_BUTTON = 2

MENU_ACTIONS = (Action.DECIDE, Action.DECLARE, Action.CHOOSE_OFFER)
"""The opening steps chosen with the claim button and confirmed with the chooser's own."""

REFEREE_CALLED = "referee-called"
"""The claim button twice within ``CLAIM_WINDOW_NS`` (outside a menu step)."""
CHOOSE_FIRST = "choose-first"
"""The chooser pressed their own button at a menu step with no menu open: nothing was
chosen, so the press is held back (it would be a press without an action)."""
WAIT_FOR_CLOCK = "wait-for-clock"
"""The chooser confirmed while their clock does not run (the opponent has not pressed
after their own action yet, or the clock is held): nothing is sent, the menu stays."""
SIGNALS = (REFEREE_CALLED, CHOOSE_FIRST, WAIT_FOR_CLOCK)


class ButtonError(TableError):
    """A press that cannot be one (an unknown button, an instant earlier than the last)."""


def _check_first_button(first_button: object) -> int:
    if isinstance(first_button, bool) or first_button not in PLAYER_BUTTONS:
        raise ButtonError(
            f"first_button is the player button of the first seat, 0 or 1, not {first_button!r}"
        )
    assert isinstance(first_button, int)
    return first_button


def seat_of_button(button: int, first_button: int = 0) -> Seat | None:
    """The seat whose button ``button`` is (None: the claim button)."""
    first = _check_first_button(first_button)
    if isinstance(button, bool) or not isinstance(button, int):
        raise ButtonError(f"a button is 0, 1 or 2, not {button!r}")
    if button == CLAIM_BUTTON:
        return None
    if button not in PLAYER_BUTTONS:
        raise ButtonError(f"a clock unit has buttons 0 and 1 (players) and 2 (claim), not {button}")
    return Seat.FIRST if button == first else Seat.SECOND


def button_of(seat: Seat, first_button: int = 0) -> int:
    """The player button (and display) of ``seat``."""
    first = _check_first_button(first_button)
    if not isinstance(seat, Seat):
        raise ButtonError(f"seat must be Seat.FIRST or Seat.SECOND, not {seat!r}")
    return first if seat is Seat.FIRST else 1 - first


def claim_kind(session: TableSession, seat: Seat) -> str:
    """What a claim by ``seat`` means: ``five`` when the last standing stone is the
    claimer's own colour (announcing the five it made), else ``forbidden`` (White claims
    Black's last stone). Without any stone it is ``forbidden``, which the game refuses
    harmlessly, whereas a false five would stop the game for the referee."""
    game = session.game
    moves = game.moves
    if moves and moves[-1].colour is game.colour_of(seat):
        return "five"
    return "forbidden"


@dataclass(frozen=True)
class Menu:
    """A choice being made on the chooser's display: the step's ``seat`` and ``action``,
    its ``options`` (the step's choices; for the offer kept, the offers' point names in
    the order they were placed), the one shown (``index``) and when the menu closes on
    its own (``expires_ns``). What the display shows for an option is
    ``wuzi.host.displays.menu_text``."""

    seat: Seat
    action: Action
    options: tuple[str, ...]
    index: int = 0
    expires_ns: int = 0

    @property
    def option(self) -> str:
        return self.options[self.index]

    def same_step(self, other: Menu | None) -> bool:
        """Whether ``other`` is a menu for the same choice (same seat, action, options)."""
        return (
            other is not None
            and other.seat is self.seat
            and other.action is self.action
            and other.options == self.options
        )

    def fits(self, session: TableSession | None) -> bool:
        """Whether the session is still at the step this menu was opened for."""
        return session is not None and self.same_step(menu_for(session, 0))

    def stepped(self, now_ns: int) -> Menu:
        """The menu showing the next option (after the last, the first again)."""
        return replace(
            self, index=(self.index + 1) % len(self.options), expires_ns=now_ns + MENU_TIMEOUT_NS
        )

    def action_input(self, now_ns: int) -> TableInput:
        """The session input that confirms the option shown."""
        if self.action is Action.DECIDE:
            return Decide(now_ns=now_ns, seat=self.seat, choice=self.option)
        if self.action is Action.DECLARE:
            return inputs.Declare(now_ns=now_ns, seat=self.seat, number=int(self.option))
        return Choose(now_ns=now_ns, seat=self.seat, point=parse_point(self.option))


def menu_for(session: TableSession, now_ns: int) -> Menu | None:
    """The menu the session's current step opens (showing its first option), or None when
    no one chooses now: the game is not in its opening (or it is paused or over), or the
    step is a stone."""
    game = session.game
    step = game.step
    if game.status is not Status.OPENING or step is None or step.action not in MENU_ACTIONS:
        return None
    if step.action is Action.CHOOSE_OFFER:
        options = tuple(point_name(p) for p in game.offers)
    else:
        options = step.choices
    if not options:
        return None
    return Menu(step.seat, step.action, options, 0, now_ns + MENU_TIMEOUT_NS)


class ButtonMapper:
    """Raw clock-unit presses → table inputs; see the module docstring and docs/buttons.md.

    ``first_button`` is the player button of ``Seat.FIRST`` (the seat holding Black at the
    start): 0, or 1 in a game where the players kept their chairs and changed colours.
    """

    def __init__(self, first_button: int = 0) -> None:
        self._first = _check_first_button(first_button)
        self._menu: Menu | None = None
        self._armed_ns: int | None = None  # the instant the claim button armed a claim
        self._last_ns: int | None = None
        self._signals: list[str] = []

    @property
    def first_button(self) -> int:
        return self._first

    @property
    def menu(self) -> Menu | None:
        """The open menu (what the chooser's display shows), or None. It may have expired
        since the last press: ``expire(now_ns)`` closes it, and ``faces`` ignores it."""
        return self._menu

    @property
    def claim_deadline_ns(self) -> int | None:
        """While a claim is armed: the instant the window closes (None: not armed)."""
        return None if self._armed_ns is None else self._armed_ns + CLAIM_WINDOW_NS

    @property
    def deadline_ns(self) -> int | None:
        """The next instant the mapper's state lapses on its own (the menu's expiry, the
        end of the claim window): when the service should call ``expire``."""
        times = [t for t in (self.claim_deadline_ns, self._menu_expiry()) if t is not None]
        return min(times, default=None)

    def _menu_expiry(self) -> int | None:
        return None if self._menu is None else self._menu.expires_ns

    def take_signals(self) -> list[str]:
        """The signals since the last call (``SIGNALS``), in order: for the service to
        alert the referee or sound the buzzer. They are not session inputs."""
        out, self._signals = self._signals, []
        return out

    def reset(self) -> None:
        """Forget the menu, the armed claim and the untaken signals (a new game, or the
        players changed chairs: build a new mapper for a new ``first_button``)."""
        self._menu = None
        self._armed_ns = None
        self._signals = []

    def expire(self, now_ns: int) -> bool:
        """Close a menu or a claim window that has lapsed by ``now_ns``; True if a menu
        closed (the chooser's display changes)."""
        if isinstance(now_ns, bool) or not isinstance(now_ns, int):
            raise ButtonError(f"now_ns must be an integer, not {now_ns!r}")
        deadline = self.claim_deadline_ns
        if deadline is not None and now_ns >= deadline:
            self._armed_ns = None
        if self._menu is not None and now_ns >= self._menu.expires_ns:
            self._menu = None
            return True
        return False

    def press(self, button: int, now_ns: int, session: TableSession) -> list[TableInput]:
        """One accepted press of ``button`` at ``now_ns``: the table inputs it makes (for
        ``session.handle``, in order; maybe none). A bad button, an instant earlier than
        the previous press or something that is no session raises ``ButtonError`` and
        changes nothing."""
        seat = seat_of_button(button, self._first)
        if isinstance(now_ns, bool) or not isinstance(now_ns, int):
            raise ButtonError(f"now_ns must be an integer, not {now_ns!r}")
        if self._last_ns is not None and now_ns < self._last_ns:
            raise ButtonError(
                f"now_ns {now_ns} is earlier than the previous press's {self._last_ns}"
            )
        if not isinstance(session, TableSession):
            raise ButtonError(f"session must be a TableSession, not {session!r}")
        self._last_ns = now_ns
        self.expire(now_ns)
        fresh = menu_for(session, now_ns)
        if self._menu is not None and not self._menu.same_step(fresh):
            self._menu = None  # the step moved on without the menu (the referee, a replay)
        if fresh is not None:
            self._armed_ns = None
            return self._menu_press(seat, now_ns, session, fresh)
        self._menu = None
        return self._play_press(seat, now_ns, session)

    def _menu_press(
        self, seat: Seat | None, now_ns: int, session: TableSession, fresh: Menu
    ) -> list[TableInput]:
        menu = self._menu
        if seat is None:  # the claim button opens the menu, then steps through it
            self._menu = fresh if menu is None else menu.stepped(now_ns)
            return []
        if seat is not fresh.seat:  # the other player: a plain press (their clock, maybe)
            return [ClockPressed(now_ns=now_ns, seat=seat)]
        if menu is None:
            self._signals.append(CHOOSE_FIRST)
            return []
        if session.clock.at(now_ns).running is not seat:  # at now: a flag fallen since
            self._signals.append(WAIT_FOR_CLOCK)
            self._menu = replace(menu, expires_ns=now_ns + MENU_TIMEOUT_NS)
            return []
        self._menu = None
        return [menu.action_input(now_ns), ClockPressed(now_ns=now_ns, seat=seat)]

    def _play_press(
        self, seat: Seat | None, now_ns: int, session: TableSession
    ) -> list[TableInput]:
        armed = self._armed_ns is not None
        self._armed_ns = None
        if seat is None:
            if armed:
                self._signals.append(REFEREE_CALLED)
            else:
                self._armed_ns = now_ns
            return []
        if armed and session.game.status is not Status.OPENING:
            return [Claim(now_ns=now_ns, seat=seat, kind=claim_kind(session, seat))]
        # In the opening no claim can be right (five stones of one colour at the most),
        # so a player button after the claim button stays the press it is meant to be.
        return [ClockPressed(now_ns=now_ns, seat=seat)]
