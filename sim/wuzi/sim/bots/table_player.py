"""Both players of one simulated table, sans-I/O: what the hands do next, and when.

A ``TablePlayer`` plays one game at a table the way two people would: it looks at what the
hall can see — the table's public state and events from the bus (``wuzi.bus.schemas``),
the clock unit's two displays — keeps its own copy of the game with ``wuzi.rules``, asks
the bots (``wuzi.sim.bots.bot``) what to do, and answers with **physical actions** with their
due times: put a stone of a colour on a point, lift one, press a button of the clock unit
(docs/buttons.md). A thin driver performs them on the simulated hardware
(``wuzi.sim.bots.table_driver``); the player itself does no I/O and reads no clock: every call
takes ``now_ms`` (the driver's clock, the one the simulated devices run on).

**One step at a time, each confirmed.** Every action waits for the host to have taken the
previous one, seen in what it publishes: a move stands when ``TableState.moves`` holds it,
an offer when ``TableState.offers`` does, a decision or a declared N when its public event
(``decision`` / ``declared``) arrives, the game is over when the state says ``finished``.
The copy of the game (``mirror``) moves on only from those, so it is always the host's
game, never the player's wish.

**Robust to a slow or restarting host.** A stone is placed once (the player knows what
lies on the wood); its clock press waits until the host holds it — the referee view shows
it waiting (``RefereeState.pending_stone``, when the runner passes that view), or else
``settle_ms`` after it landed and after the table's status last changed. A stone the
host never took in (read together with other changes and set aside: the referee view
never shows it waiting for ``stall_ms``) is taken up and put down again. A press that
got lost — the host was down or restarting, or the clocks were held — is pressed again
only on evidence that it was lost: the host's boot id changed, or something public
happened since (the restart's pause, the referee's resume) and still the move does not
stand and the mover's clock runs; or nothing at all happened for ``stall_ms``. A menu
choice (swap, N, the offer kept) is made by reading the chooser's display: the claim
button until the display shows the option wanted, then the chooser's own button — so a
menu lost in a restart is simply opened again, and a stale one is never confirmed
blindly. The hands keep still while the state says ``paused`` (after a restart the game
waits for the referee's ``resume``) and while the host is offline (its ``HostStatus`` last
will, when the runner passes it: the broker sends it when the host's connection drops,
and also when the broker itself shuts down). Back with the same boot id, the host never
stopped judging — only its messages waited, and they arrive before its new status — so
play goes on at once. Back with a new boot id it restarted: the hands wait until it has
sent a state again, or ``rejoin_ms`` at most (its states may have been delivered before
its status, and nothing new may follow while nobody moves). The first stone after the
status changes waits ``settle_ms`` (a host back from a restart is still reading its
board afresh). Then play goes on from what the state shows.

Not followed: a referee's take-back or correction of a stone (the state's moves no longer
extend the player's: ``problem`` says so and the player stops).

**The truth.** ``truth()`` is what the bots played, in order, in notation (``h8``), and
``truth_points()`` the same as points: each stone once its hand put it down *and* pressed
the clock for it, the kept fifth-move offer when White chose it (the confirming press) —
never read back from the host, so a fault test can compare it with the recorded moves. A
stone put down whose press never went (the flag fell, or the game ended otherwise, before
the mover pressed) is not a move under the rules: it is not in ``truth()`` but in
``unpressed()``, so a check can say what it is instead of calling the record wrong.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from wuzi.bus.schemas import HostStatus, Message, RefereeState, TableEvent, TableState
from wuzi.host.displays import glyphs, menu_text
from wuzi.link import segments
from wuzi.rules.board import Colour, Point, point_name
from wuzi.rules.errors import RulesError
from wuzi.rules.game import Game
from wuzi.rules.openings import make_procedure
from wuzi.rules.procedure import Action, Seat
from wuzi.rules.ruleset import RuleSet
from wuzi.sim.bots import bot
from wuzi.table.buttons import CLAIM_BUTTON, Menu, button_of

__all__ = [
    "CLAIM_BUTTON",
    "Lift",
    "PhysicalAction",
    "Place",
    "PlayerConfig",
    "PlayerError",
    "Press",
    "TablePlayer",
]


class PlayerError(ValueError):
    """A configuration the player cannot play, or a state it cannot follow."""


@dataclass(frozen=True)
class Place:
    """Put a stone of ``colour`` on ``point`` of the sensor board at ``at_ms``."""

    at_ms: int
    point: Point
    colour: Colour


@dataclass(frozen=True)
class Lift:
    """Take the stone off ``point`` at ``at_ms`` (a fifth-move offer not kept)."""

    at_ms: int
    point: Point


@dataclass(frozen=True)
class Press:
    """Press button ``button`` of the clock unit at ``at_ms`` (0, 1: players; 2: claim)."""

    at_ms: int
    button: int


PhysicalAction = Place | Lift | Press


@dataclass(frozen=True)
class PlayerConfig:
    """What the table plays and how fast the hands are (all times in ms of the driver).

    ``first_button`` None: button 1 for the first seat in an even game of a match (the
    players kept their chairs), else button 0 — as the host decides. ``game_id`` None:
    the first game the table's state shows. ``think_ms`` is the mean pause before each
    decision (±50 %, seeded); ``press_gap_ms`` the least time between two presses of the
    clock unit (its buttons are held 80 ms and debounced); ``settle_ms`` how long after a
    stone lands its press waits when the host's waiting stone is not seen (the host settles
    a board 150 ms quiet), and how long the wood stays quiet after offers are lifted;
    ``retry_ms`` the least time before an action is repeated on evidence that it was
    lost; ``stall_ms`` the time after which an action is repeated without evidence;
    ``menu_wait_ms`` how long a menu press waits for the display to change;
    ``rejoin_ms`` the longest wait for a state from a host back from a restart;
    ``slip`` the chance, at each of Black's free moves under a rule set with forbidden
    moves, that Black plays a forbidden point when one is near the stones
    (``bot.forbidden_slip``, its own seeded draw: 0, the default, plays exactly as
    before) — and White then claims it, as the rules' claim mode asks."""

    ruleset: str = "renju"
    opening: str = "free"
    opening_settings: Mapping[str, Any] = field(default_factory=dict)
    first_button: int | None = None
    game_id: str | None = None
    think_ms: int = 200
    press_gap_ms: int = 150
    settle_ms: int = 400
    retry_ms: int = 1500
    stall_ms: int = 20_000
    menu_wait_ms: int = 1000
    claim_retry_ms: int = 4000
    rejoin_ms: int = 3000
    slip: float = 0.0

    def new_game(self) -> Game:
        """The player's own copy of the game (auto mode: a five ends it at once, so the
        player knows to announce it)."""
        try:
            procedure = make_procedure(self.opening, **dict(self.opening_settings))
            return Game(RuleSet.parse(self.ruleset), mode="auto", opening=procedure)
        except (RulesError, TypeError, ValueError) as exc:
            raise PlayerError(f"cannot play {self.ruleset} / {self.opening}: {exc}") from None


_COLON_OFF = bytes([0xFF, 0xFF & ~segments.COLON, 0xFF, 0xFF])


def _shown(raw: bytes) -> bytes:
    """A display's segments with the colon masked (menus show none; clocks may)."""
    return bytes(a & b for a, b in zip(raw, _COLON_OFF, strict=False))


def option_segments(menu: Menu) -> bytes:
    """What the chooser's display shows for the option ``menu`` is at."""
    return _shown(segments.text(glyphs(menu_text(menu))))


def _offer_face(p: Point) -> bytes:
    """What the chooser's display shows for the offer on ``p``."""
    return option_segments(Menu(Seat.SECOND, Action.CHOOSE_OFFER, (point_name(p),)))


@dataclass
class _Task:
    """The action in hand: what it is, and how far it got."""

    kind: str  # "stone", "offer", "close", "menu", "claim"
    seat: Seat
    point: Point | None = None
    colour: Colour | None = None
    index: int = 0  # moves (stone) or offers (offer) standing when it began
    due_ms: int = 0  # when its first physical action is due
    sent_ms: int | None = None  # the last press (or claim) sent
    seq_mark: int = 0  # the state's seq when it was sent
    boot_mark: int = 0  # boot changes seen when it was sent
    menu: Menu | None = None  # the option wanted (menu)
    options: frozenset[bytes] = frozenset()  # every option's face (menu)
    shown_before: bytes | None = None  # the display when the last claim press was sent
    confirm_ms: int | None = None  # when the chooser's button confirmed (menu)
    next_ms: int = 0  # no press before this (menu)


class TablePlayer:
    """Both seats of one table (see the module docstring)."""

    def __init__(self, config: PlayerConfig, seed: int) -> None:
        self.config = config
        self._mirror = config.new_game()
        self._ruleset = self._mirror.ruleset
        self._bot_rng = random.Random(seed)
        self._hand_rng = random.Random(seed ^ 0x5EED_F00D)
        self._slip_rng = random.Random(seed ^ 0x0F0B_1DDE)  # apart: slip 0 changes nothing
        self._state: TableState | None = None
        self._game_id = config.game_id
        self._decisions: dict[int, TableEvent] = {}  # by seq, this game's
        self._declared: dict[int, TableEvent] = {}
        self._n_decided = 0
        self._n_declared = 0
        self._pending: tuple[Point | None, int] = (None, 0)  # the host's waiting stone, seen at
        self._sees_pending = False  # the runner passes the referee view
        self._status_since_ms = 0  # when the table's status last changed (a restart, a resume)
        self._boot: str | None = None
        self._host_online = True
        self._awaiting_state_until_ms: int | None = None  # restarted: wait for a new state
        self._boot_changes = 0
        self._displays: list[bytes] = [b"", b""]
        self._wood: dict[Point, Colour] = {}
        self._my_offers: list[Point] = []
        self._truth: list[Point] = []  # every move's stone, in order, once put down
        self._pressed: set[Point] = set()  # those whose turn-ending press was made
        self._plans: dict[int, bot.BotAction | None] = {}
        self._task: _Task | None = None
        self._quiet_until_ms = 0
        self._changed_ms = 0  # when the mirror last moved on
        self._wake_ms: int | None = None
        self.problem: str | None = None
        self.done = False

    # --- what the player sees -------------------------------------------------------

    def observe(self, message: Message | None, now_ms: int) -> None:
        """Anything from the bus about this table: its ``TableState``, its public
        ``TableEvent``s, the referee view's waiting stone, the host's ``HostStatus``."""
        if isinstance(message, TableState):
            self.observe_state(message, now_ms)
        elif isinstance(message, TableEvent):
            self.observe_event(message, now_ms)
        elif isinstance(message, RefereeState):
            self.observe_referee(message, now_ms)
        elif isinstance(message, HostStatus):
            self.observe_host(message.boot_id, now_ms, online=message.online)

    def observe_state(self, state: TableState, now_ms: int) -> None:
        if self._game_id is None:
            if state.game_id is None or state.status not in ("playing", "paused"):
                return
            self._game_id = state.game_id
        if state.game_id != self._game_id:
            return
        old = self._state
        if old is not None and state.seq < old.seq:
            return  # an older state delivered late
        if old is None or old.status != state.status:
            self._status_since_ms = now_ms
        self._state = state
        self._awaiting_state_until_ms = None

    def observe_event(self, event: TableEvent, now_ms: int) -> None:
        if event.game_id != self._game_id and self._game_id is not None:
            return
        if event.kind == "decision":
            self._decisions.setdefault(event.seq, event)
        elif event.kind == "declared":
            self._declared.setdefault(event.seq, event)

    def observe_referee(self, state: RefereeState, now_ms: int) -> None:
        if self._game_id is not None and state.game_id == self._game_id:
            self._pending = (state.pending_stone, now_ms)
            self._sees_pending = True

    def observe_host(self, boot_id: str, now_ms: int, *, online: bool = True) -> None:
        """The host's ``HostStatus``: a new boot id means it restarted; while it is offline
        (its last will) the hands keep still — what they did then could not be told apart
        from what the host finds on the board when it is back."""
        restarted = self._boot is not None and boot_id != self._boot
        back = online and (not self._host_online or restarted)
        if restarted:
            self._boot_changes += 1
        if restarted and online:  # act again on a state the restarted host sent since
            self._awaiting_state_until_ms = now_ms + self.config.rejoin_ms
        self._boot = boot_id
        self._host_online = online
        if back:
            self._status_since_ms = now_ms

    def observe_display(self, index: int, raw: bytes, now_ms: int) -> None:
        """The segments clock-unit display ``index`` (0 or 1) shows now."""
        if index not in (0, 1):
            raise PlayerError(f"a clock unit has displays 0 and 1, not {index!r}")
        self._displays[index] = _shown(bytes(raw))

    # --- what the player read -------------------------------------------------------

    @property
    def mirror(self) -> Game:
        """The player's copy of the game, as confirmed by the host (do not change it)."""
        return self._mirror

    @property
    def game_id(self) -> str | None:
        return self._game_id

    @property
    def state(self) -> TableState | None:
        return self._state

    def truth(self) -> list[str]:
        """The moves the bots completed (stone and press), in order, in notation
        (``["h8", "i9", …]``)."""
        return [point_name(p) for p in self.truth_points()]

    def truth_points(self) -> list[Point]:
        return [p for p in self._truth if p in self._pressed]

    def unpressed(self) -> list[str]:
        """The stones put down as moves whose press was never made, in notation: at most
        the last, when the game ended (a flag fell, a result was set) before its press."""
        return [point_name(p) for p in self._truth if p not in self._pressed]

    def wood(self) -> dict[Point, Colour]:
        """What the player's hands put on the sensor board and left there."""
        return dict(self._wood)

    @property
    def in_hand(self) -> str | None:
        """What the hands are doing, for logs and tests: ``"stone f9 pressed"``, ``"menu
        decide stay"``, ``"claim"``… (None: nothing, waiting for the host or the game)."""
        task = self._task
        if task is None:
            return None
        what = [task.kind]
        if task.menu is not None:
            what += [task.menu.action.value, task.menu.option]
        elif task.point is not None:
            what.append(point_name(task.point))
        if task.sent_ms is not None or task.confirm_ms is not None:
            what.append("pressed")
        return " ".join(what)

    def next_wake_ms(self) -> int | None:
        """When ``poll`` next has something to do if nothing is observed (None: only
        after an observation)."""
        return self._wake_ms

    def clear_actions(self, now_ms: int) -> list[PhysicalAction]:
        """Lift every stone the hands put down (the board cleared for the next game)."""
        out: list[PhysicalAction] = [Lift(now_ms, p) for p in sorted(self._wood)]
        self._wood.clear()
        return out

    # --- what the hands do -----------------------------------------------------------

    def poll(self, now_ms: int) -> list[PhysicalAction]:
        """The physical actions to perform now (each with its due time, maybe later)."""
        self._wake_ms = None
        if self.done or self.problem is not None:
            return []
        self._sync(now_ms)
        state = self._state
        if state is None or self.problem is not None:
            return []
        if state.status == "finished":
            self.done = True
            self._task = None
            return []
        if not self._host_online or self._awaiting_state(now_ms):
            return []
        out: list[PhysicalAction] = []
        for _ in range(3):  # a task done lets the next one begin at once
            if self._task is None:
                if state.status != "playing":
                    break
                self._task = self._begin(now_ms)
                if self._task is None:
                    break
            task = self._task
            out += self._advance(task, now_ms)
            if self._task is task:
                break
        return out

    def _awaiting_state(self, now_ms: int) -> bool:
        until = self._awaiting_state_until_ms
        if until is None:
            return False
        if now_ms >= until:
            self._awaiting_state_until_ms = None
            return False
        self._wake(until)
        return True

    def _wake(self, at_ms: int) -> None:
        if self._wake_ms is None or at_ms < self._wake_ms:
            self._wake_ms = at_ms

    def _think(self, now_ms: int) -> int:
        t = self.config.think_ms
        return now_ms + (self._hand_rng.randint(t // 2, t + t // 2) if t > 0 else 0)

    def _button(self, seat: Seat) -> int:
        first = self.config.first_button
        if first is None:
            number = self._state.game_in_match if self._state is not None else None
            first = 1 if number is not None and number % 2 == 0 else 0
        return button_of(seat, first)

    def _playing(self) -> bool:
        return self._state is not None and self._state.status == "playing"

    def _running_is(self, seat: Seat) -> bool:
        state = self._state
        return (
            state is not None
            and state.status == "playing"
            and state.running == self._mirror.colour_of(seat).label
        )

    def _plan(self) -> bot.BotAction | None:
        """The bot's action at the mirror's current step, asked once per step."""
        key = len(self._mirror.events)
        if key not in self._plans:
            state = self._mirror.opening.state
            # The first stone after the offer kept never goes where an offer was just lifted:
            # were the host down meanwhile, it could not tell that stone from the offer.
            fresh = len(self._mirror.moves) == len(state.moves) and state.kept_offer is not None
            avoid = [p for p in state.offers if p != state.kept_offer] if fresh else []
            try:
                slip = self._slip()
                self._plans[key] = slip or bot.next_action(self._mirror, self._bot_rng, avoid=avoid)
            except bot.BotError as exc:
                self.problem = f"the bot cannot act: {exc}"
                self._plans[key] = None
        return self._plans[key]

    def _slip(self) -> bot.BotAction | None:
        """Black's forbidden move by mistake, now and then (``PlayerConfig.slip``)."""
        chance = self.config.slip
        if chance <= 0 or not self._ruleset.forbidden or self._slip_rng.random() >= chance:
            return None
        return bot.forbidden_slip(self._mirror, self._slip_rng)

    def _begin(self, now_ms: int) -> _Task | None:
        """The next task, from the mirror's step and the state (None: nothing to do)."""
        game = self._mirror
        if game.is_over:
            # the mirror judges on its own (auto mode); the host waits for the claim: a
            # five announced by its maker, Black's forbidden move claimed by White
            result = game.result
            claimed = ("five", "forbidden")
            if result is not None and result.reason.value in claimed and result.winner:
                return _Task("claim", result.winner, due_ms=self._think(now_ms))
            return None
        step = game.step
        unclosed = self._unclosed()
        if unclosed is not None:
            return _Task("close", unclosed, due_ms=max(self._think(now_ms), self._unclosed_due))
        if step is None or step.action is Action.PLACE:
            seat = game.to_move if step is None else step.seat
            if seat is None or not self._running_is(seat):
                return None
            plan = self._plan()
            if plan is None or plan.point is None or plan.colour is None:
                return None
            due = self._stone_due(now_ms)
            return _Task("stone", seat, plan.point, plan.colour, len(game.moves), due_ms=due)
        if step.action is Action.OFFER:
            if not self._running_is(step.seat):
                return None
            point = self._offer_point(step.allowed)
            if point is None:
                return None
            due = self._stone_due(now_ms)
            colour = step.colour or Colour.BLACK
            return _Task("offer", step.seat, point, colour, len(game.offers), due_ms=due)
        if step.action in (Action.CHOOSE_OFFER, Action.DECIDE, Action.DECLARE):
            if not self._running_is(step.seat):
                return None
            return self._menu_task(step.seat, step.action, now_ms)
        return None

    def _stone_due(self, now_ms: int) -> int:
        """When the next stone may land: after the bot's thought, once the wood is quiet
        after a lift, and ``settle_ms`` after the table's status last changed (a host back
        from a restart is still reading the board afresh: a stone landing meanwhile would
        be read with all the others)."""
        quiet = max(self._quiet_until_ms, self._status_since_ms + self.config.settle_ms)
        return max(self._think(now_ms), quiet)

    def _offer_point(self, allowed: frozenset[Point] | None) -> Point | None:
        """Black's next offer: the bot's, none looking like an earlier one on the display
        (a column letter without a seven-segment pattern is drawn with a stand-in, and two
        offers that look the same could not be told apart in the menu)."""
        key = len(self._mirror.events)
        if key not in self._plans:
            game = self._mirror
            faces = {_offer_face(p) for p in game.offers}
            area = allowed
            if faces and allowed is not None:
                area = frozenset(p for p in allowed if _offer_face(p) not in faces)
            try:
                point = bot.choose_offer(
                    game.board, self._ruleset, self._bot_rng, offered=game.offers, allowed=area
                )
                self._plans[key] = bot.BotAction(Action.OFFER, Seat.FIRST, point, Colour.BLACK)
            except bot.BotError as exc:
                self.problem = f"the bot cannot offer: {exc}"
                self._plans[key] = None
        plan = self._plans[key]
        return None if plan is None else plan.point

    def _menu_task(self, seat: Seat, action: Action, now_ms: int) -> _Task | None:
        plan = self._plan()
        game = self._mirror
        if plan is None:
            return None
        if action is Action.CHOOSE_OFFER:
            options = tuple(point_name(p) for p in game.offers)
            wanted = point_name(plan.point) if plan.point is not None else ""
        elif action is Action.DECLARE:
            step = game.step
            options = step.choices if step is not None else ()
            wanted = str(plan.number)
        else:
            step = game.step
            options = step.choices if step is not None else ()
            wanted = plan.choice or ""
        if wanted not in options:
            self.problem = f"the bot chose {wanted!r}, not one of {options}"
            return None
        menus = [Menu(seat, action, options, i) for i in range(len(options))]
        target = menus[options.index(wanted)]
        return _Task(
            "menu",
            seat,
            point=plan.point,
            menu=target,
            options=frozenset(option_segments(m) for m in menus),
            next_ms=self._think(now_ms),
        )

    def _advance(self, task: _Task, now_ms: int) -> list[PhysicalAction]:
        handler = {
            "stone": self._advance_stone,
            "offer": self._advance_offer,
            "close": self._advance_close,
            "menu": self._advance_menu,
            "claim": self._advance_claim,
        }[task.kind]
        return handler(task, now_ms)

    def _sent(self, task: _Task, now_ms: int) -> None:
        task.sent_ms = now_ms
        task.seq_mark = self._state.seq if self._state is not None else 0
        task.boot_mark = self._boot_changes

    def _may_retry(self, task: _Task, now_ms: int) -> bool:
        """Whether a press sent for ``task`` may be repeated: it is not confirmed, and
        there is evidence it was lost (see the module docstring)."""
        if task.sent_ms is None:
            return True
        waited = now_ms - task.sent_ms
        if waited < self.config.retry_ms:
            self._wake(task.sent_ms + self.config.retry_ms)
            return False
        state = self._state
        if self._boot_changes > task.boot_mark or (state is not None and state.seq > task.seq_mark):
            return True
        if waited >= self.config.stall_ms:
            return True
        self._wake(task.sent_ms + self.config.stall_ms)
        return False

    def _advance_stone(self, task: _Task, now_ms: int) -> list[PhysicalAction]:
        game = self._mirror
        assert task.point is not None and task.colour is not None
        if len(game.moves) > task.index:
            self._task = None
            return []
        out: list[PhysicalAction] = []
        if task.point not in self._wood:
            if not self._playing():
                return out
            self._wood[task.point] = task.colour
            self._truth.append(task.point)
            out.append(Place(task.due_ms, task.point, task.colour))
        if not self._running_is(task.seat):
            return out
        if task.sent_ms is not None and not self._may_retry(task, now_ms):
            return out
        held = self._holds(task, now_ms)
        if held is None:
            out += self._reseat(task, now_ms)
        elif held:
            out.append(Press(now_ms, self._button(task.seat)))
            self._pressed.add(task.point)
            self._sent(task, now_ms)
            self._wake(now_ms + self.config.retry_ms)
        return out

    def _reseat(self, task: _Task, now_ms: int) -> list[PhysicalAction]:
        """Take the stone up and put it down again once the wood has settled without it:
        the host never took it in (it was read together with other changes — a restarted
        host re-reading its board — and set aside)."""
        assert task.point is not None and task.colour is not None
        again = now_ms + self.config.settle_ms
        task.due_ms = again
        task.sent_ms = None
        self._wake(again)
        return [Lift(now_ms, task.point), Place(again, task.point, task.colour)]

    def _holds(self, task: _Task, now_ms: int) -> bool | None:
        """Whether the host holds the stone just put down, so its press may go (None: it
        never took the stone in: put it down again).

        With the referee view (the runner passes ``RefereeState``): once it shows the
        stone waiting — the host journals a settled stone before it says so, so that stays
        true across a restart; if it has not after ``stall_ms``, None. Without it: once the
        board has had ``settle_ms`` since the stone landed and since the table's status last
        changed (a restarted host reads the board afresh and settles it again)."""
        if now_ms < task.due_ms:
            self._wake(task.due_ms)
            return False
        pending, seen_ms = self._pending
        if pending == task.point and seen_ms >= task.due_ms:
            return True
        if self._sees_pending:
            if now_ms >= task.due_ms + self.config.stall_ms:
                return None
            self._wake(task.due_ms + self.config.stall_ms)
            return False
        settled = max(task.due_ms, self._status_since_ms) + self.config.settle_ms
        if now_ms >= settled:
            return True
        self._wake(settled)
        return False

    def _advance_offer(self, task: _Task, now_ms: int) -> list[PhysicalAction]:
        game = self._mirror
        assert task.point is not None and task.colour is not None
        step = game.step
        if len(game.offers) > task.index or step is None or step.action is not Action.OFFER:
            self._task = None
            return []
        if task.point in self._wood:
            if self._playing() and now_ms >= task.due_ms + self.config.stall_ms:
                return self._reseat(task, now_ms)  # never shown among the offers
            self._wake(task.due_ms + self.config.stall_ms)
            return []
        if not self._playing():
            return []
        self._wood[task.point] = task.colour
        self._my_offers.append(task.point)
        return [Place(task.due_ms, task.point, task.colour)]

    def _unclosed(self) -> Seat | None:
        """The seat whose clock runs although its opening action (offers, a decision, a
        declared N) is done and the next step is the other seat's: its press closing the
        action is still due — after the offers it is the usual one; after a menu choice it
        went with the confirm, unless the host went down between the two. (A press of a
        seat whose clock does not run is ignored, so a stale state makes it harmless.)"""
        state, game = self._state, self._mirror
        if state is None or state.status != "playing" or state.running is None:
            return None
        opening = game.opening.state
        if not opening.events or len(game.moves) != len(opening.moves):
            return None  # nothing done without a stone since the opening ended
        last = opening.events[-1]
        if last.action not in (Action.OFFER, Action.DECIDE, Action.DECLARE, Action.CHOOSE_OFFER):
            return None
        step = game.step
        actor = game.to_move if step is None else step.seat
        running = game.seat_of(Colour.parse(state.running))
        if actor is None or running is actor or running is not last.seat:
            return None
        if last.action is Action.OFFER and step is not None and step.action is Action.OFFER:
            return None  # more offers to come: one press closes them all
        return running

    @property
    def _unclosed_due(self) -> int:
        """A menu choice's own press closes it; give that the time to show first."""
        opening = self._mirror.opening.state
        if opening.events and opening.events[-1].action is Action.OFFER:
            return 0
        return self._changed_ms + self.config.retry_ms

    def _advance_close(self, task: _Task, now_ms: int) -> list[PhysicalAction]:
        """The press that closes an opening action (see ``_unclosed``)."""
        if self._unclosed() is not task.seat:
            self._task = None
            return []
        if not self._running_is(task.seat) or now_ms < task.due_ms:
            self._wake(task.due_ms)
            return []
        if task.sent_ms is None or self._may_retry(task, now_ms):
            self._sent(task, now_ms)
            self._wake(now_ms + self.config.retry_ms)
            return [Press(now_ms, self._button(task.seat))]
        return []

    def _advance_claim(self, task: _Task, now_ms: int) -> list[PhysicalAction]:
        """Announce the five, or claim Black's forbidden move (White): the claim button,
        then the claimer's own within 3 s (the host tells the two apart by the last
        stone's colour, docs/buttons.md)."""
        state = self._state
        if state is None or state.status != "playing" or now_ms < task.due_ms:
            self._wake(task.due_ms)
            return []
        if task.sent_ms is not None and now_ms - task.sent_ms < self.config.claim_retry_ms:
            self._wake(task.sent_ms + self.config.claim_retry_ms)
            return []
        self._sent(task, now_ms)
        gap = self.config.press_gap_ms
        self._wake(now_ms + self.config.claim_retry_ms)
        return [Press(now_ms, CLAIM_BUTTON), Press(now_ms + gap, self._button(task.seat))]

    def _advance_menu(self, task: _Task, now_ms: int) -> list[PhysicalAction]:
        """Claim button until the chooser's display shows the option, then their own."""
        game = self._mirror
        step = game.step
        assert task.menu is not None
        if step is None or step.action is not task.menu.action or step.seat is not task.seat:
            return self._finish_menu(task, now_ms)
        if not self._running_is(task.seat) or now_ms < task.next_ms:
            self._wake(task.next_ms)
            return []
        button = self._button(task.seat)
        shown = self._displays[button]
        target = option_segments(task.menu)
        if task.confirm_ms is not None:
            if now_ms - task.confirm_ms < self.config.retry_ms:
                self._wake(task.confirm_ms + self.config.retry_ms)
                return []
            task.confirm_ms = None  # not taken: still open (press again) or lost (reopen)
        moved = shown != task.shown_before and shown in task.options
        waiting = task.next_ms + self.config.menu_wait_ms
        if task.shown_before is not None and not moved and now_ms < waiting:
            self._wake(waiting)
            return []  # the last claim press has not shown on the display yet
        task.shown_before = None
        gap = self.config.press_gap_ms
        if shown == target:
            if task.point is not None and task.point not in self._truth:
                self._truth.append(task.point)  # the offer White keeps stands as move 5
                self._pressed.add(task.point)  # chosen by this very press
            task.confirm_ms = now_ms
            task.next_ms = now_ms + gap
            self._wake(now_ms + self.config.retry_ms)
            return [Press(now_ms, button)]
        task.shown_before = shown
        task.next_ms = now_ms + gap
        self._wake(now_ms + gap)
        return [Press(now_ms, CLAIM_BUTTON)]

    def _finish_menu(self, task: _Task, now_ms: int) -> list[PhysicalAction]:
        """The choice is made; after the offer kept, the others leave the wood."""
        self._task = None
        if task.menu is None or task.menu.action is not Action.CHOOSE_OFFER:
            return []
        kept = self._mirror.opening.state.kept_offer
        lifts: list[PhysicalAction] = []
        for p in self._my_offers:
            if p != kept and p in self._wood:
                del self._wood[p]
                lifts.append(Lift(now_ms, p))
        self._quiet_until_ms = now_ms + self.config.settle_ms
        return lifts

    # --- following the host -------------------------------------------------------------

    def _sync(self, now_ms: int) -> None:
        """Fold what the host confirmed into the mirror (see the module docstring)."""
        state = self._state
        if state is None:
            return
        game = self._mirror
        known = tuple(m.point for m in game.moves)
        if tuple(state.moves[: len(known)]) != known[: len(state.moves)]:
            self.problem = (
                f"the host's moves ({', '.join(point_name(p) for p in state.moves)}) "
                f"are not the bots' ({', '.join(self.truth())})"
            )
            return
        try:
            while not game.is_over and self._sync_one(game, state):
                self._changed_ms = now_ms
        except (RulesError, ValueError, KeyError) as exc:
            self.problem = f"cannot follow the host's game: {exc}"
            return
        played = [m.point for m in game.moves]
        if played != self._truth[: len(played)]:
            shown = ", ".join(point_name(p) for p in played)
            self.problem = f"the host's moves ({shown}) are not the bots' ({self.truth()})"

    def _sync_one(self, game: Game, state: TableState) -> bool:
        step = game.step
        k = len(game.moves)
        if step is not None and step.action is Action.DECIDE:
            decided = [self._decisions[s] for s in sorted(self._decisions)]
            if len(decided) <= self._n_decided:
                return False
            event = decided[self._n_decided]
            game.decide(str(event.data["choice"]), seat=Seat(event.data["seat"]))
            self._n_decided += 1
            return True
        if step is not None and step.action is Action.DECLARE:
            declared = [self._declared[s] for s in sorted(self._declared)]
            if len(declared) <= self._n_declared:
                return False
            event = declared[self._n_declared]
            game.declare(int(event.data["number"]), seat=Seat(event.data["seat"]))
            self._n_declared += 1
            return True
        if step is not None and step.action is Action.OFFER:
            j = len(game.offers)
            if len(state.offers) > j and tuple(state.offers[:j]) == game.offers:
                game.place(state.offers[j], seat=step.seat)
                return True
            if len(state.moves) > k and len(self._my_offers) > j:
                game.place(self._my_offers[j], seat=step.seat)  # decided already: ours
                return True
            return False
        if len(state.moves) <= k:
            return False
        if step is not None and step.action is Action.CHOOSE_OFFER:
            game.choose(state.moves[k], seat=step.seat)
            return True
        game.place(state.moves[k], seat=None if step is None else step.seat)
        return True
