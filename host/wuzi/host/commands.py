"""A referee's `ArbiterCommand` as the table inputs it means: pure, checked, no I/O.

The bus parser checks the envelope of a command (ids, action, table, times) but leaves
``args`` alone: they depend on the action. This module checks them — every key known,
every required key present, every value of its type — and turns them into
``wuzi.table.inputs`` values for one table. Seats may be named ``first``/``second`` (the
seats) or ``black``/``white`` (whoever holds that colour *now*, after any swap of the
opening), which is why the table's current game is an argument. It runs only after the
command was verified (``wuzi.bus.auth.verify``); ``cmd.referee`` goes into the inputs.

A command with ``table: null`` addresses every table: the service calls `to_inputs` once
per table it serves, with that table's game. Refusals by the game or the clock (pausing
a paused game, taking back a stone that is not the last) are the table session's
``TableError``; this module only refuses what is malformed, with `CommandError`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, NoReturn

from wuzi.base.json_values import describe
from wuzi.bus.schemas import ARBITER_ACTIONS, MAX_TEXT, ArbiterCommand
from wuzi.clock.control import MAX_COUNT, MAX_PERIOD_S
from wuzi.rules.board import POINTS, Colour, Point, parse_point
from wuzi.rules.errors import RulesError
from wuzi.rules.game import Game
from wuzi.rules.procedure import Seat
from wuzi.table import inputs
from wuzi.table.inputs import TableInput

__all__ = [
    "ACTION_ARGS",
    "RESULT_REASONS",
    "SEAT_NAMES",
    "ArgSpec",
    "CommandError",
    "check_args",
    "to_inputs",
]

SEAT_NAMES = ("first", "second", "black", "white")
RESULT_REASONS = ("resignation", "agreement", "forfeit", "flag", "infraction", "other")
"""The reasons the arbiter view offers for set-result; any other non-blank text is kept too."""

MAX_MOVES = MAX_COUNT
MAX_ADJUST_MS = MAX_PERIOD_S * 1000
"""The most time one adjust-time gives or takes: 24 h, the longest period a time control may
have (docs/clock.md "Limits"); the clock refuses more too."""
MAX_DECLARED = 99
MAX_KEYWORD = 64


class CommandError(ValueError):
    """A command whose arguments do not fit its action: ``action`` and ``arg`` name it."""

    def __init__(self, action: str, arg: str | None, reason: str) -> None:
        self.action = action
        self.arg = arg
        self.reason = reason
        where = f"{action}: {arg}: " if arg else f"{action}: "
        super().__init__(where + reason)


@dataclass(frozen=True)
class ArgSpec:
    """One argument of an action. ``kind`` is ``text`` (1-200 characters, not blank),
    ``keyword`` (1-64), ``int``, ``seat`` (one of `SEAT_NAMES`), ``seat-or-null``,
    ``point`` (``"h8"`` or an index 0..224), ``text-or-null`` or ``claim-kind``."""

    kind: str
    required: bool = True
    low: int = 0
    high: int = 0


_SEAT = ArgSpec("seat")
_SEAT_OPT = ArgSpec("seat", required=False)
_REASON = ArgSpec("text")
_REASON_OPT = ArgSpec("text", required=False)
_PENALTY = ArgSpec("text-or-null", required=False)

ACTION_ARGS: Mapping[str, Mapping[str, ArgSpec]] = {
    "pause": {"reason": _REASON},
    # role: at a linked table (docs/linked.md), "chief" resumes alone; otherwise a hall
    # referee's resume is a request the other hall's confirms
    "resume": {"penalty": _PENALTY, "role": ArgSpec("keyword", required=False)},
    "adjust-time": {
        "seat": _SEAT,
        "delta_ms": ArgSpec("int", low=-MAX_ADJUST_MS, high=MAX_ADJUST_MS),
        "reason": _REASON_OPT,
    },
    "adjust-moves": {
        "seat": _SEAT,
        "moves": ArgSpec("int", low=0, high=MAX_MOVES),
        "reason": _REASON_OPT,
    },
    "correct-stone": {
        "old": ArgSpec("point", required=False),
        "new": ArgSpec("point"),
        "reason": _REASON,
    },
    "take-back": {"point": ArgSpec("point", required=False), "reason": _REASON},
    "claim": {
        "seat": _SEAT_OPT,
        "kind": ArgSpec("claim-kind", required=False),
        "point": ArgSpec("point", required=False),
    },
    "decide": {"seat": _SEAT_OPT, "choice": ArgSpec("keyword")},
    "choose": {"seat": _SEAT_OPT, "point": ArgSpec("point")},
    "declare": {"seat": _SEAT_OPT, "number": ArgSpec("int", low=1, high=MAX_DECLARED)},
    "adjourn": {"reason": _REASON},
    "set-result": {"winner": ArgSpec("seat-or-null"), "reason": _REASON},
    "next-game": {},
    "decide-claim": {"penalty": _PENALTY},
}
"""Each action's arguments. Optional ones: a missing ``reason`` takes the input's default;
a missing ``old`` (correct-stone) or ``point`` (take-back) is the last stone; a missing
``seat`` of decide/choose/declare is the seat whose turn it is at the opening step, of a
claim White's seat (a forbidden claim is White's); a missing claim ``kind`` is
``forbidden``; a claim's missing ``point`` is Black's last stone (the session's default)."""

_CLAIM_KINDS = ("forbidden", "five")


def _check_value(action: str, name: str, spec: ArgSpec, value: object) -> None:
    def fail(reason: str) -> NoReturn:
        raise CommandError(action, name, f"{reason}, not {describe(value, max_text=40)}")

    kind = spec.kind
    if kind in ("text-or-null", "seat-or-null") and value is None:
        return
    if kind in ("text", "text-or-null", "keyword"):
        limit = MAX_KEYWORD if kind == "keyword" else MAX_TEXT
        if not isinstance(value, str) or not value.strip() or len(value) > limit:
            fail(f"must be a text of 1-{limit} characters, not blank")
    elif kind == "int":
        if isinstance(value, bool) or not isinstance(value, int):
            fail("must be an integer")
        if not spec.low <= value <= spec.high:
            fail(f"must be in {spec.low}..{spec.high}")
    elif kind in ("seat", "seat-or-null"):
        if value not in SEAT_NAMES:
            null = " or null (a draw)" if kind == "seat-or-null" else ""
            fail(f"must be one of {', '.join(SEAT_NAMES)}{null}")
    elif kind == "point":
        _point(action, name, value)
    elif kind == "claim-kind":
        if value not in _CLAIM_KINDS:
            fail(f"must be one of {', '.join(_CLAIM_KINDS)}")
    else:  # pragma: no cover - ACTION_ARGS only uses the kinds above
        raise AssertionError(kind)


def check_args(action: str, args: Mapping[str, Any]) -> None:
    """Check ``args`` against ``action``'s `ACTION_ARGS` without a game (the referee's
    side checks before sending); `CommandError` names what is wrong."""
    if action not in ACTION_ARGS:
        known = ", ".join(a for a in ARBITER_ACTIONS if a in ACTION_ARGS)
        raise CommandError(str(action)[:40], None, f"unknown action; known: {known}")
    if not isinstance(args, Mapping):
        raise CommandError(action, None, f"args must be an object, not {describe(args)}")
    specs = ACTION_ARGS[action]
    for name in sorted(args):
        if name not in specs:
            known = ", ".join(specs) or "none"
            raise CommandError(action, str(name)[:40], f"unknown argument (known: {known})")
    for name, spec in specs.items():
        if name not in args:
            if spec.required:
                raise CommandError(action, name, "missing (a required argument)")
            continue
        _check_value(action, name, spec, args[name])


def _point(action: str, name: str, value: object) -> Point:
    if isinstance(value, str):
        try:
            return parse_point(value)
        except RulesError as exc:
            raise CommandError(action, name, str(exc)) from None
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < POINTS:
        raise CommandError(
            action,
            name,
            f"must be a point such as 'h8' or an index 0..224, not {describe(value, max_text=40)}",
        )
    return value


class _Resolver:
    """Turns checked argument values into seats and points against the current game."""

    def __init__(self, action: str, args: Mapping[str, Any], game: Game) -> None:
        self.action = action
        self.args = args
        self.game = game

    def seat(self, name: str = "seat", default: Callable[[], Seat | None] | None = None) -> Seat:
        value = self.args.get(name)
        if value is not None:
            return self.seat_named(name, value)
        if default is None:
            raise CommandError(self.action, name, "missing (required here)")
        found = default()
        if found is None:
            raise CommandError(
                self.action, name, "missing, and the game is at no opening step to take it from"
            )
        return found

    def seat_named(self, name: str, value: str) -> Seat:
        if value in ("black", "white"):
            try:
                return self.game.seat_of(Colour.parse(value))
            except RulesError as exc:
                raise CommandError(self.action, name, f"{value}: {exc}") from None
        return Seat(value)

    def step_seat(self) -> Seat | None:
        step = self.game.step
        return None if step is None else step.seat

    def white_seat(self) -> Seat | None:
        return self.game.seat_of(Colour.WHITE)

    def point(self, name: str, *, last_stone: bool = False) -> Point:
        value = self.args.get(name)
        if value is None and last_stone:
            moves = self.game.moves
            if not moves:
                raise CommandError(self.action, name, "missing, and no stone stands on the board")
            return moves[-1].point
        return _point(self.action, name, value)

    def opt_point(self, name: str) -> Point | None:
        return None if self.args.get(name) is None else self.point(name)

    def text(self, name: str) -> str:
        return str(self.args[name]).strip()

    def opt_text(self, name: str) -> str | None:
        value = self.args.get(name)
        return None if value is None else str(value).strip()


def to_inputs(cmd: ArbiterCommand, now_ns: int, game: Game) -> list[TableInput]:
    """The table inputs ``cmd`` stands for at ``now_ns`` (the host's monotonic clock), for
    the table whose current game is ``game``; `CommandError` if its args are wrong."""
    action, args = cmd.action, cmd.args
    check_args(action, args)
    r = _Resolver(action, args, game)
    who = cmd.referee
    now = now_ns
    made: TableInput
    if action == "pause":
        made = inputs.RefereePause(now, r.text("reason"), referee=who)
    elif action in ("resume", "decide-claim"):
        made = inputs.RefereeResume(now, referee=who, penalty=r.opt_text("penalty"))
    elif action == "adjust-time":
        reason = r.opt_text("reason") or "referee adjustment"
        made = inputs.AdjustTime(now, r.seat(), args["delta_ms"], reason, who)
    elif action == "adjust-moves":
        reason = r.opt_text("reason") or "referee correction"
        made = inputs.CorrectMoves(now, r.seat(), args["moves"], reason, who)
    elif action == "correct-stone":
        old = r.point("old", last_stone=True)
        made = inputs.ReplaceStone(now, old, r.point("new"), r.text("reason"), who)
    elif action == "take-back":
        made = inputs.TakeBack(now, r.point("point", last_stone=True), r.text("reason"), who)
    elif action == "claim":
        kind = str(args.get("kind", "forbidden"))
        default = r.white_seat if kind == "forbidden" else None
        made = inputs.Claim(now, r.seat(default=default), kind, r.opt_point("point"))
    elif action == "decide":
        made = inputs.Decide(now, r.seat(default=r.step_seat), r.text("choice"))
    elif action == "choose":
        made = inputs.Choose(now, r.seat(default=r.step_seat), r.point("point"))
    elif action == "declare":
        made = inputs.Declare(now, r.seat(default=r.step_seat), args["number"])
    elif action == "adjourn":
        made = inputs.Adjourn(now, r.text("reason"), referee=who)
    elif action == "set-result":
        winner = args["winner"]
        seat = None if winner is None else r.seat_named("winner", winner)
        made = inputs.SetResult(now, seat, r.text("reason"), who)
    elif action == "next-game":
        made = inputs.StartNextGame(now, referee=who)
    else:  # pragma: no cover - check_args knows only the actions above
        raise AssertionError(action)
    return [made]
