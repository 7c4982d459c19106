"""One simulated table of the demo final: its two bots and the floor referee beside it.

The venue run (``wuzi.sim.final.run``) owns one ``TableHands`` per table and hands it
what the bus says about that table (the host's state, events, referee view and status,
and the director's assignment); ``tick`` then does what people at the table would do:

* the players play the game the table shows — a fresh ``TablePlayer`` per game, seeded
  from the run's seed and the game id, so the same seed plays the same moves however
  the processes are scheduled, killed or cut off;
* after the result they clear the board;
* the floor referee starts the next game once the director has assigned one and the
  board is bare (``next-game``), resumes a table the host paused (its restart, a board
  or clock that came back) once the host is back, and — for a planned share of the
  games, so that captains' playoffs happen — records the draw the players agreed
  (``set-result`` with no winner) once the game has enough moves.

Pure apart from the devices the driver touches: time is an argument; the referee's
commands are returned for the caller to sign and publish.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from wuzi.bus.schemas import Assignment, HostStatus, Message, RefereeState, TableState
from wuzi.link import wire
from wuzi.sim.bots.table_driver import TableDriver
from wuzi.sim.bots.table_player import PlayerConfig, Press, TablePlayer
from wuzi.sim.devices.virtual_board import VirtualBoard
from wuzi.sim.devices.virtual_clock import VirtualClock

__all__ = [
    "DRAW_REASON",
    "HandsConfig",
    "RefereeRequest",
    "TableHands",
    "TurnTimer",
    "game_seed",
]

DRAW_REASON = "draw agreed by the players"
RETRY_MS = 3000  # a referee command not answered by the table's state is sent again
RESUME_AFTER_MS = 1500  # the referee looks at a paused table before resuming it


@dataclass(frozen=True)
class HandsConfig:
    """How the run's people behave. ``draw_share``: the part of the non-playoff games
    the players plan to draw (agreed after ``draw_after_moves`` to ``2 × draw_after_moves``
    moves: about 5 % of the bots' games are won sooner, so 0.37 planned is about a third
    of the board games drawn — the promise of docs/cli.md "wuzi demo", a quarter to two
    fifths by seed; the demo prints the share it played); ``think_ms``: the bots' mean
    pause before a decision; ``slip``: the chance Black plays a forbidden point within
    reach under a rule set with forbidden moves (``PlayerConfig.slip``: the hall demo's
    renju groups, where such a move must be seen to lose; 0 in the team final)."""

    seed: int = 1
    think_ms: int = 60
    draw_share: float = 0.37
    draw_after_moves: int = 14
    slip: float = 0.0


@dataclass(frozen=True)
class RefereeRequest:
    """A command for the floor referee to sign and publish on this table."""

    action: str
    table: int
    args: dict[str, Any]
    game_id: str | None = None  # the game the table shows: the command is signed for it


def game_seed(seed: int, game_id: str, what: str = "bots") -> int:
    """A number drawn from the run's seed and the game (stable across processes)."""
    digest = hashlib.sha256(f"{seed}/{game_id}/{what}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


@dataclass
class _Game:
    assignment: Assignment
    player: TablePlayer
    driver: TableDriver
    draw_at_moves: int | None  # the agreed draw's move count, None: played out
    frozen: bool = False  # the players stopped to agree the draw
    cleared_ms: int | None = None  # when the players began clearing the board
    turns: list[tuple[int, int] | None] = field(default_factory=list)  # see TurnTimer

    def last_press_ms(self, now_ms: int) -> int | None:
        """When the hands last pressed the clock (a press due later does not count)."""
        for action in reversed(self.driver.performed):
            if isinstance(action, Press) and action.at_ms <= now_ms:
                return action.at_ms
        return None


class LateTurn(NamedTuple):
    """A move the hands completed that the game's end did not show: its turn as the hands
    timed it, the time the table stood still in it, and the mover's time left when the
    turn began (as the state showed it). ``turn_ms - stopped_ms >= left_ms``: the press
    came after the flag, and the stone is no move (the check says so; docs/demo)."""

    turn_ms: int
    stopped_ms: int
    left_ms: int


@dataclass
class TurnTimer:
    """How long each move's turn lasted at the table, and how much of it the table stood
    still: paused, or its host down (offline, then back with a new boot id — a cable cut
    is not an outage: the host and its clock went on).

    A turn runs from the hands' press that completed the previous move to the press that
    completed this one (the last press before the state showed the move): the instants
    the host's clock switches, as the hands made them — a state's arrival can lag on a
    loaded machine, a press cannot. ``turns[k]`` is (ms of move k's turn, ms stopped), or
    None when it cannot be told (the first move; several moves in one state; no new
    press) or is not the clock's to answer for: a turn during which the table's sensor
    board was disturbed (reset, unplugged, a noisy cable) — a board that cannot see the
    stone cannot end the turn, so the clock runs until it does and the referee adjusts
    the time (docs/referee.md). A clock that charges no outage charged at most
    turn − stopped for every other move (``wuzi.sim.final.check``)."""

    moves: int = 0
    press_ms: int | None = None  # the press that completed the last move seen
    stopped_ms: int = 0
    offline_ms: int = 0  # host offline since the last move: an outage if it comes back new
    last_ms: int | None = None
    boot: str | None = None
    disturbed: bool = False  # the board was disturbed during this turn
    resume_sent: bool = False  # the referee asked to resume: the clock may run from now
    left_ms: int | None = None  # the mover's time left as the state showed the last move

    def late_turn(self, pressed: int, press_ms: int | None) -> LateTurn | None:
        """The turn of a move the state never showed: ``pressed`` moves completed by the
        hands, the last at ``press_ms`` — a press that may have come after the mover's
        flag fell (the game's end then shows no such move, rightly)."""
        if pressed != self.moves + 1 or press_ms is None or self.press_ms is None:
            return None
        if self.left_ms is None or press_ms <= self.press_ms:
            return None
        return LateTurn(press_ms - self.press_ms, self.stopped_ms, self.left_ms)

    def tick(
        self,
        state: TableState | None,
        host: HostStatus | None,
        now_ms: int,
        *,
        board_disturbed: bool = False,
    ) -> None:
        self.disturbed = self.disturbed or board_disturbed
        last, self.last_ms = self.last_ms, now_ms
        dt = 0 if last is None else now_ms - last
        if host is not None:
            if host.online and self.boot is not None and host.boot_id != self.boot:
                self.stopped_ms += self.offline_ms  # it was down, not merely unreachable
            if host.online:
                self.offline_ms = 0
                self.boot = host.boot_id
            else:
                self.offline_ms += dt
        paused = state is not None and state.status == "paused"
        if not paused:
            self.resume_sent = False
        elif (host is None or host.online) and not self.resume_sent:
            self.stopped_ms += dt  # until the resume is sent: after it the clock may run

    def moved(
        self,
        count: int,
        press_ms: int | None,
        turns: list[tuple[int, int] | None],
        state: TableState | None = None,
    ) -> None:
        """The state shows ``count`` moves now; ``press_ms``: the hands' last press."""
        if count <= self.moves:
            return
        if state is not None:  # the next mover: Black after an even number of moves
            self.left_ms = state.black_ms if count % 2 == 0 else state.white_ms
        new = count - self.moves
        turns.extend([None] * (new - 1))
        known = self.press_ms is not None and press_ms is not None and press_ms > self.press_ms
        if (
            known
            and new == 1
            and not self.disturbed
            and self.press_ms is not None
            and press_ms is not None
        ):
            turns.append((press_ms - self.press_ms, self.stopped_ms))
        else:
            turns.append(None)
        self.moves, self.press_ms = count, press_ms
        self.stopped_ms = 0
        self.disturbed = False


@dataclass
class TableHands:
    """The people at table ``number`` (see the module docstring)."""

    number: int
    board: VirtualBoard
    clock: VirtualClock
    config: HandsConfig
    assignment: Assignment | None = None
    state: TableState | None = None
    referee: RefereeState | None = None
    host: HostStatus | None = None
    game: _Game | None = None
    timer: TurnTimer = field(default_factory=TurnTimer)
    turns: dict[str, list[tuple[int, int] | None]] = field(default_factory=dict)  # by game
    truths: dict[str, list[str]] = field(default_factory=dict)  # game id -> bots' moves
    # game id -> stones put down but never pressed (not moves: the game ended first)
    unpressed: dict[str, list[str]] = field(default_factory=dict)
    # game id -> the last completed move's turn when the state never showed that move
    late: dict[str, LateTurn] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)
    _inbox: list[Message] = field(default_factory=list)
    _sent: dict[str, int] = field(default_factory=dict)  # request key -> when sent
    board_disturbed_until_ms: int = 0  # the run disturbs the board until then (faults)

    # --- what the table hears --------------------------------------------------------

    def hear(self, message: Message) -> None:
        """A message about this table (or its host)."""
        if isinstance(message, Assignment):
            self.assignment = message
            return
        if isinstance(message, TableState):
            if self.state is not None and _older(message, self.state):
                return
            self.state = message
        elif isinstance(message, RefereeState):
            self.referee = message
        elif isinstance(message, HostStatus):
            self.host = message
        self._inbox.append(message)

    # --- what the people do ------------------------------------------------------------

    def tick(self, now_ms: int) -> list[RefereeRequest]:
        """Let the players and the referee act; returns the referee's commands."""
        inbox, self._inbox = self._inbox, []
        self._follow_the_table(now_ms)
        game = self.game
        disturbed = now_ms <= self.board_disturbed_until_ms
        self.timer.tick(self.state, self.host, now_ms, board_disturbed=disturbed)
        state = self.state
        if game is not None and state is not None and state.game_id == game.assignment.game_id:
            self.timer.moved(len(state.moves), game.last_press_ms(now_ms), game.turns, state)
        if game is not None:
            game.driver.observe(inbox, now_ms)
            if _draw_due(game, state):
                game.frozen = True  # before the hands begin the next move: nothing half-done
            if not game.frozen and not game.player.done and game.cleared_ms is None:
                game.driver.step(now_ms)
            if game.player.problem is not None and game.player.problem not in self.problems:
                self.problems.append(game.player.problem)
        return self._referee(now_ms)

    def board_is_bare(self) -> bool:
        return all(cell == wire.EMPTY for cell in self.board.table.cells)

    @property
    def host_online(self) -> bool:
        return self.host is None or self.host.online

    @property
    def links_up(self) -> bool:
        return self.host is None or self.number not in self.host.links_down

    def _follow_the_table(self, now_ms: int) -> None:
        """A new game on the table's state: new players; a finished one: clear up."""
        state, game = self.state, self.game
        if state is None:
            return
        if state.game_id is not None and (game is None or game.assignment.game_id != state.game_id):
            assignment = self.assignment
            if (
                assignment is not None
                and assignment.game_id == state.game_id
                and state.status in ("playing", "paused")
                and (game is None or game.cleared_ms is not None)
            ):
                self._begin(assignment, state, now_ms)
            return
        if game is None:
            return
        if state.status == "finished" and game.cleared_ms is None:
            self.truths[game.assignment.game_id] = game.player.truth()
            self.unpressed[game.assignment.game_id] = game.player.unpressed()
            late = self.timer.late_turn(len(game.player.truth()), game.last_press_ms(now_ms))
            if late is not None:
                self.late[game.assignment.game_id] = late
            self.turns[game.assignment.game_id] = list(game.turns)
            game.driver.clear(now_ms)
            game.cleared_ms = now_ms

    def _begin(self, assignment: Assignment, state: TableState, now_ms: int) -> None:
        if self.game is not None and not self.board_is_bare():
            return  # the previous game's stones are still being lifted
        config = PlayerConfig(
            ruleset=assignment.rule_set,
            opening=assignment.opening,
            opening_settings=dict(assignment.opening_settings),
            game_id=assignment.game_id,
            think_ms=self.config.think_ms,
            slip=self.config.slip,
        )
        player = TablePlayer(config, seed=game_seed(self.config.seed, assignment.game_id))
        driver = TableDriver(player, self.board, self.clock)
        draw_at: int | None = None
        share = game_seed(self.config.seed, assignment.game_id, "draw") % 1000 / 1000
        if not assignment.playoff and share < self.config.draw_share:
            spread = game_seed(self.config.seed, assignment.game_id, "length")
            draw_at = self.config.draw_after_moves + spread % (self.config.draw_after_moves + 1)
        self.game = _Game(assignment, player, driver, draw_at)
        self.timer = TurnTimer(boot=self.host.boot_id if self.host is not None else None)
        seen: list[Message] = [m for m in (self.host, self.referee, state) if m is not None]
        driver.observe(seen, now_ms)

    # --- the floor referee -------------------------------------------------------------

    def _referee(self, now_ms: int) -> list[RefereeRequest]:
        state, game, assignment = self.state, self.game, self.assignment
        if state is None or not self.host_online:
            return []
        out: list[RefereeRequest] = []
        flagged = [c for c, ms in (("black", state.black_ms), ("white", state.white_ms)) if ms <= 0]
        if state.status == "paused" and flagged and game is not None:
            # a flag fell (a machine too loaded for its speed): no resume brings the time
            # back — the referee records the loss on time, as at a real table
            winner = "white" if flagged[0] == "black" else "black"
            lost: dict[str, Any] = {"winner": winner, "reason": f"{flagged[0]}'s flag fell"}
            out += self._once(f"flag/{state.game_id}", "set-result", lost, now_ms)
        elif state.status == "paused" and self.links_up and game is not None:
            since = self._since(f"paused/{state.game_id}/{state.seq}", now_ms)
            if now_ms - since >= RESUME_AFTER_MS:
                sent = self._once(f"resume/{state.game_id}/{state.seq}", "resume", {}, now_ms)
                if sent:
                    self.timer.resume_sent = True
                out += sent
        if game is not None and game.frozen and _draw_due(game, state):
            args = {"winner": None, "reason": DRAW_REASON}
            out += self._once(f"draw/{state.game_id}", "set-result", args, now_ms)
        # an idle table shows the game waiting for the referee's start (or none): the
        # referee starts it once the host shows it, as the command is signed for the game
        # the table shows (a host refuses one for another); a finished one still shows
        # its last game until the next begins
        startable = (
            state.status == "idle"
            and assignment is not None
            and state.game_id == assignment.game_id
        ) or (
            state.status == "finished"
            and assignment is not None
            and assignment.game_id != state.game_id
        )
        if assignment is not None and startable and self.board_is_bare():
            out += self._once(f"next/{assignment.game_id}", "next-game", {}, now_ms)
        return out

    def _since(self, key: str, now_ms: int) -> int:
        return self._sent.setdefault("seen:" + key, now_ms)

    def _once(
        self, key: str, action: str, args: dict[str, Any], now_ms: int
    ) -> list[RefereeRequest]:
        """The command now, and again every RETRY_MS while the table has not moved on
        (a command lost with a broker restart or refused while a link was down)."""
        sent = self._sent.get(key)
        if sent is not None and now_ms - sent < RETRY_MS:
            return []
        self._sent[key] = now_ms
        game_id = self.state.game_id if self.state is not None else None
        return [RefereeRequest(action, self.number, args, game_id)]


def _draw_due(game: _Game, state: TableState | None) -> bool:
    """The players agree their planned draw now: the table shows the game playing with
    at least ``draw_at_moves`` moves. The hands stop the moment the state shows that move
    (``tick`` freezes them before they begin the next one), so no stone is left half-put
    (an earlier version waited for empty hands as well, which never came: the next move's
    stone is in hand the instant the last one is shown, and no draw was ever agreed)."""
    return (
        game.draw_at_moves is not None
        and state is not None
        and state.status == "playing"
        and state.game_id == game.assignment.game_id
        and len(state.moves) >= game.draw_at_moves
    )


def _older(new: TableState, old: TableState) -> bool:
    """A state from before ``old`` (a late delivery, or a retained copy delivered again)."""
    return new.game_id == old.game_id and new.seq < old.seq
