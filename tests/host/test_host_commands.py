"""Arbiter commands as table inputs: every action, seats by colour after a swap, the
defaults taken from the game, and every malformed argument refused by name."""

from __future__ import annotations

from typing import Any

import pytest

from wuzi.bus.schemas import ARBITER_ACTIONS, DIRECTOR_ACTIONS, ArbiterCommand
from wuzi.host.commands import ACTION_ARGS, CommandError, check_args, to_inputs
from wuzi.rules.board import parse_point
from wuzi.rules.game import Game
from wuzi.rules.openings import chinese_2013
from wuzi.rules.procedure import Seat
from wuzi.table import inputs
from wuzi.table.inputs import TableInput
from wuzi.table.session import TableSession

FIRST, SECOND = Seat.FIRST, Seat.SECOND
NOW = 5_000_000_000
P = parse_point


def cmd(action: str, **args: Any) -> ArbiterCommand:
    return ArbiterCommand(
        command_id="c-1", referee="deputy", action=action, table=3, args=args, issued_ms=1
    )


def free_game() -> Game:
    game = Game("renju", t_ms=0)
    game.place("h8", t_ms=1)
    game.place("h9", t_ms=2)
    return game


def swapped_game() -> Game:
    """Chinese 2013 after the swap: the second seat holds Black, the first seat is to play
    move 4 (White)."""
    game = Game("renju", opening=chinese_2013(), t_ms=0)
    for name in ("h8", "h9", "h10"):
        game.place(name, seat=FIRST)
    game.decide("swap", t_ms=10)
    return game


def one(action: str, game: Game | None = None, **args: Any) -> TableInput:
    made = to_inputs(cmd(action, **args), NOW, free_game() if game is None else game)
    assert len(made) == 1
    return made[0]


def test_every_bus_action_has_arguments_and_every_one_maps() -> None:
    # the director's actions (confirm-result) are carried out by the director, not a host
    assert set(ACTION_ARGS) == set(ARBITER_ACTIONS) - DIRECTOR_ACTIONS


@pytest.mark.parametrize(
    ("action", "args", "expected"),
    [
        ("pause", {"reason": " dispute "}, inputs.RefereePause(NOW, "dispute", "deputy")),
        ("resume", {}, inputs.RefereeResume(NOW, "deputy", None)),
        ("resume", {"penalty": None}, inputs.RefereeResume(NOW, "deputy", None)),
        ("resume", {"penalty": "warning"}, inputs.RefereeResume(NOW, "deputy", "warning")),
        ("decide-claim", {"penalty": "time"}, inputs.RefereeResume(NOW, "deputy", "time")),
        (
            "adjust-time",
            {"seat": "first", "delta_ms": -30000},
            inputs.AdjustTime(NOW, FIRST, -30000, "referee adjustment", "deputy"),
        ),
        (
            "adjust-time",
            {"seat": "white", "delta_ms": 60000, "reason": "clock fault"},
            inputs.AdjustTime(NOW, SECOND, 60000, "clock fault", "deputy"),
        ),
        (
            "adjust-moves",
            {"seat": "second", "moves": 12},
            inputs.CorrectMoves(NOW, SECOND, 12, "referee correction", "deputy"),
        ),
        (
            "correct-stone",
            {"old": "h9", "new": "j9", "reason": "misread"},
            inputs.ReplaceStone(NOW, P("h9"), P("j9"), "misread", "deputy"),
        ),
        (
            "correct-stone",
            {"new": 100, "reason": "misread"},
            inputs.ReplaceStone(NOW, P("h9"), 100, "misread", "deputy"),
        ),
        (
            "take-back",
            {"point": "H9", "reason": "illegal"},
            inputs.TakeBack(NOW, P("h9"), "illegal", "deputy"),
        ),
        ("take-back", {"reason": "illegal"}, inputs.TakeBack(NOW, P("h9"), "illegal", "deputy")),
        ("claim", {}, inputs.Claim(NOW, SECOND, "forbidden", None)),
        (
            "claim",
            {"seat": "first", "kind": "five", "point": "a1"},
            inputs.Claim(NOW, FIRST, "five", 0),
        ),
        ("choose", {"seat": "second", "point": "j8"}, inputs.Choose(NOW, SECOND, P("j8"))),
        ("decide", {"seat": "black", "choice": "stay"}, inputs.Decide(NOW, FIRST, "stay")),
        ("declare", {"seat": "first", "number": 2}, inputs.Declare(NOW, FIRST, 2)),
        ("adjourn", {"reason": "lunch"}, inputs.Adjourn(NOW, "lunch", referee="deputy")),
        (
            "set-result",
            {"winner": "black", "reason": "resignation"},
            inputs.SetResult(NOW, FIRST, "resignation", "deputy"),
        ),
        (
            "set-result",
            {"winner": None, "reason": "agreement"},
            inputs.SetResult(NOW, None, "agreement", "deputy"),
        ),
        (
            "set-result",
            {"winner": "second", "reason": "Black's phone rang"},
            inputs.SetResult(NOW, SECOND, "Black's phone rang", "deputy"),
        ),
        ("next-game", {}, inputs.StartNextGame(NOW, "deputy")),
    ],
)
def test_each_action_gives_its_input(
    action: str, args: dict[str, Any], expected: TableInput
) -> None:
    assert one(action, **args) == expected


def test_colours_name_whoever_holds_them_after_the_swap() -> None:
    game = swapped_game()
    for name, seat in (("black", SECOND), ("white", FIRST), ("first", FIRST)):
        made = one("adjust-time", game, seat=name, delta_ms=1)
        assert made == inputs.AdjustTime(NOW, seat, 1, "referee adjustment", "deputy")
    result = one("set-result", game, winner="white", reason="flag")
    assert result == inputs.SetResult(NOW, FIRST, "flag", "deputy")
    assert one("claim", game) == inputs.Claim(NOW, FIRST, "forbidden", None)  # White claims


def test_opening_actions_default_to_the_seat_whose_step_it_is() -> None:
    game = Game("renju", opening=chinese_2013(), t_ms=0)
    for name in ("h8", "h9", "h10"):
        game.place(name, seat=FIRST)
    assert one("decide", game, choice="swap") == inputs.Decide(NOW, SECOND, "swap")
    game.decide("swap", t_ms=10)
    assert one("declare", game, number=2) == inputs.Declare(NOW, FIRST, 2)
    with pytest.raises(CommandError, match="decide: seat: missing, and the game is at no opening"):
        one("decide", free_game(), choice="swap")


def test_defaults_that_need_a_stone_say_there_is_none() -> None:
    empty = Game("renju", t_ms=0)
    with pytest.raises(CommandError, match="take-back: point: missing, and no stone stands"):
        one("take-back", empty, reason="x")
    with pytest.raises(CommandError, match="correct-stone: old: missing, and no stone"):
        one("correct-stone", empty, new="h8", reason="x")
    with pytest.raises(CommandError, match=r"claim: seat: missing \(required here\)"):
        one("claim", kind="five")


@pytest.mark.parametrize(
    ("action", "args", "match"),
    [
        ("pause", {}, r"pause: reason: missing \(a required argument\)"),
        ("pause", {"reason": "   "}, "pause: reason: must be a text of 1-200"),
        ("pause", {"reason": "x" * 201}, "pause: reason: must be a text"),
        ("pause", {"reason": 3}, "not the number 3"),
        ("pause", {"reason": "x", "why": "y"}, r"pause: why: unknown argument \(known: reason\)"),
        ("next-game", {"now": True}, r"next-game: now: unknown argument \(known: none\)"),
        ("adjust-time", {"seat": "black"}, "adjust-time: delta_ms: missing"),
        ("adjust-time", {"seat": "black", "delta_ms": "30s"}, "delta_ms: must be an integer"),
        ("adjust-time", {"seat": "black", "delta_ms": 1.5}, "delta_ms: must be an integer"),
        ("adjust-time", {"seat": "black", "delta_ms": True}, "not a boolean"),
        ("adjust-time", {"seat": "black", "delta_ms": 10**13}, "must be in -86400000..86400000"),
        ("adjust-time", {"seat": "black", "delta_ms": 86_400_001}, "must be in -86400000"),
        ("adjust-time", {"seat": "white", "delta_ms": -86_400_001}, "must be in -86400000"),
        ("adjust-time", {"seat": "north", "delta_ms": 1}, "seat: must be one of first, second"),
        ("adjust-time", {"seat": None, "delta_ms": 1}, "seat: must be one of"),
        ("adjust-moves", {"seat": "first", "moves": -1}, "adjust-moves: moves: must be in 0..1000"),
        ("correct-stone", {"new": "z9", "reason": "x"}, "correct-stone: new: 'z9' is not a point"),
        ("correct-stone", {"new": 225, "reason": "x"}, "new: must be a point such as 'h8'"),
        ("correct-stone", {"new": "h16", "reason": "x"}, "row must be 1–15"),
        ("take-back", {"point": [1], "reason": "x"}, "point: must be a point .* not a list"),
        ("claim", {"kind": "four"}, "claim: kind: must be one of forbidden, five"),
        ("choose", {"seat": "first"}, "choose: point: missing"),
        ("decide", {"choice": ""}, "decide: choice: must be a text of 1-64"),
        ("declare", {"number": 0}, "declare: number: must be in 1..99"),
        ("set-result", {"reason": "x"}, "set-result: winner: missing"),
        ("set-result", {"winner": "draw", "reason": "x"}, "first, second, black, white or null"),
        ("resume", {"penalty": 5}, "resume: penalty: must be a text"),
        ("fly", {}, "fly: unknown action; known: pause, resume"),
    ],
)
def test_malformed_arguments_are_refused_by_name(
    action: str, args: dict[str, Any], match: str
) -> None:
    with pytest.raises(CommandError, match=match):
        check_args(action, args)
    with pytest.raises(CommandError, match=match):
        to_inputs(cmd(action, **args), NOW, free_game())


def test_args_that_are_not_an_object() -> None:
    with pytest.raises(CommandError, match="pause: args must be an object, not a list"):
        check_args("pause", [])  # type: ignore[arg-type]


def test_the_inputs_drive_a_real_table_session() -> None:
    """What to_inputs makes is what the session takes: pause, adjust, resume."""
    session = TableSession(inputs.TableSetup(opening="free"), 0)
    made = to_inputs(cmd("pause", reason="dispute"), 1_000_000, session.game)
    made += to_inputs(cmd("adjust-time", seat="black", delta_ms=5000), 2_000_000, session.game)
    made += to_inputs(cmd("resume"), 3_000_000, session.game)
    for item in made:
        session.handle(item)
    assert session.inputs[1:] == tuple(made)
