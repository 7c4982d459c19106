"""The owner's linked game (``wuzi.table.linked_game``), pure, in milliseconds: the rules
judge the two seats' moves, the game ends where it is played (a five, a flag), the truth
carries the game and its result, and a player's slip is an alert, never a verdict."""

from __future__ import annotations

import pytest

from wuzi.rules.board import parse_point
from wuzi.rules.procedure import Seat
from wuzi.table.line_messages import AwayMirrored, AwayPress, AwayShown, AwayStone, LineReceived
from wuzi.table.linked_game import OWN_HEARD_MS, LinkedGame, LinkedSetup, truth_record
from wuzi.table.owner_seat import OwnerSeatError

LINK = "board-2"


def game(control: str = "600+5") -> LinkedGame:
    setup = LinkedSetup("final-r1-m1-g1", "王伟", "李强", "renju", control, grace_ms=10_000)
    return LinkedGame(2, LINK, setup, start_ms=1_000)


class Play:
    """Both seats' moves as the host feeds them: black at the owner's table, white's over
    the line (its stamps already in owner time), each mirrored at once."""

    def __init__(self, linked: LinkedGame) -> None:
        self.g = linked
        self.n = 0  # line numbers of the away items
        self.t = 1_000

    def item(self, item: object, at_ms: int) -> None:
        self.n += 1
        self.g.received(LineReceived(self.n, item, at_ms + 75, at_ms, 3))  # type: ignore[arg-type]

    def black(self, name: str, think_ms: int = 1_000) -> None:
        self.t += think_ms
        point = parse_point(name)
        self.g.board_stone(point, "black", self.t - 200)
        self.g.own_press(self.t)
        move = len(self.g.seat.moves)
        self.item(AwayShown(move, self.t + 80), self.t + 80)
        self.item(AwayMirrored(move, point, self.t + 500), self.t + 500)

    def white(self, name: str, think_ms: int = 1_000) -> None:
        self.t += think_ms
        point = parse_point(name)
        self.item(AwayStone(point, "white", self.t - 200), self.t - 200)
        self.item(AwayPress(0, self.t), self.t)
        move = len(self.g.seat.moves)
        self.g.shown_here(move, self.t + 80)
        self.g.board_stone(point, "white", self.t + 400)


def test_a_five_ends_the_game_and_the_truth_says_so() -> None:
    linked = game()
    play = Play(linked)
    for black, white in zip(("h8", "i8", "j8", "k8"), ("a1", "c1", "e1", "g1"), strict=True):
        play.black(black)
        play.white(white)
    assert not linked.over
    play.black("l8")
    assert linked.over
    assert linked.result is not None and linked.result.winner is Seat.FIRST
    truth = linked.truth(play.t + 1_000)
    assert truth is not None
    assert (truth.result, truth.reason, truth.running) == ("black", "five", None)
    assert (truth.game, truth.black, truth.white, truth.away) == (
        "final-r1-m1-g1",
        "王伟",
        "李强",
        "white",
    )
    assert truth.mirror == parse_point("l8")  # the last stone still goes on hall B's board
    assert linked.truth(play.t + 5_000) is None  # the end is told once
    record = truth_record(truth, LINK)
    assert record["moves"] == ["h8", "a1", "i8", "c1", "j8", "e1", "k8", "g1", "l8"]
    over = linked.game_over(7)
    assert (over.winner, over.reason) == (Seat.FIRST, "five")
    # the clocks stop at the five: the truth's times do not run on
    later = linked.truth(play.t + 60_000, force=True)
    assert later is not None and (later.black_ms, later.white_ms) == (
        truth.black_ms,
        truth.white_ms,
    )


def test_a_press_with_no_stone_or_out_of_turn_is_an_alert_and_plays_nothing() -> None:
    linked = game()
    out = linked.own_press(2_000)
    assert linked.seat.moves == () and "no new stone" in out.alerts[0].text
    linked.board_stone(parse_point("h8"), "black", 2_100)
    linked.own_press(2_200)
    out = linked.own_press(2_300)  # black again: white's turn
    assert linked.seat.moves == (parse_point("h8"),)
    assert "out of turn" in out.alerts[0].text
    assert not any(a.reason.value != "mirroring" for a in out.alerts)


def test_a_stone_taken_back_before_the_press_is_not_the_move() -> None:
    linked = game()
    linked.board_stone(parse_point("h8"), "black", 2_000)
    linked.board_removed(parse_point("h8"))
    out = linked.own_press(2_200)
    assert linked.seat.moves == () and out.alerts


def test_an_away_flag_ends_the_game_only_once_the_away_hall_is_heard_past_it() -> None:
    linked = game("60")
    play = Play(linked)
    play.black("h8", think_ms=100)  # white's clock starts at the mirroring, 1.6 s in
    flag_ms = play.t + 500 + 60_000
    out = linked.tick(flag_ms + 5_000)  # the away hall not heard past the flag yet
    assert not out.ended and not linked.over
    out = linked.tick(flag_ms + 5_000, away_heard_ms=flag_ms + 10)
    assert out.ended and linked.over
    truth = linked.truth(flag_ms + 5_000)
    assert truth is not None and (truth.result, truth.reason) == ("black", "flag")


def test_an_owner_flag_is_final_once_the_hall_is_heard_past_it() -> None:
    linked = game("30")
    flag_ms = 1_000 + 30_000
    assert not linked.tick(flag_ms + OWN_HEARD_MS - 10).ended
    assert linked.tick(flag_ms + OWN_HEARD_MS + 10).ended
    assert linked.result is not None and linked.result.winner is Seat.SECOND


def test_a_cut_line_holds_both_clocks_once_and_the_resume_lets_them_run() -> None:
    linked = game()
    play = Play(linked)
    play.black("h8")
    linked.line_cut(play.t + 2_000)
    linked.line_cut(play.t + 2_500)  # found again: nothing changes
    held = linked.time(play.t + 2_000).remaining_ms
    assert linked.time(play.t + 90_000).remaining_ms == held
    linked.line_back(play.t + 90_000)
    linked.line_back(play.t + 90_001)  # a second resume: nothing
    assert linked.time(play.t + 91_000).remaining_ms[1] == held[1] - 1_000
    truth = linked.truth(play.t + 1_000, force=True)
    assert truth is not None and truth.held is False


def test_moves_after_the_end_change_nothing() -> None:
    linked = game()
    play = Play(linked)
    for black, white in zip(("h8", "i8", "j8", "k8"), ("a1", "c1", "e1", "g1"), strict=True):
        play.black(black)
        play.white(white)
    play.black("l8")
    before = linked.seat.moves
    out = linked.received(LineReceived(99, AwayPress(0, 1), 1, 1, 1))
    assert out.refused and "over" in out.refused[0].why
    assert linked.board_stone(parse_point("o15"), "black", play.t + 10).played == []
    assert linked.seat.moves == before


def test_the_referee_ends_a_linked_game_and_the_truth_says_so() -> None:
    linked = game()
    play = Play(linked)
    play.black("h8")
    play.white("a1")
    with pytest.raises(OwnerSeatError, match="reason"):
        linked.referee_result(None, "   ", "chief", play.t + 100)  # nothing changes
    assert not linked.over
    out = linked.referee_result(None, "agreed draw", "chief", play.t + 100)
    assert out.ended and linked.over
    truth = linked.truth(play.t + 200)
    assert truth is not None and (truth.result, truth.reason) == ("draw", "referee")
    with pytest.raises(OwnerSeatError, match="already over"):
        linked.referee_result(Seat.FIRST, "again", "chief", play.t + 300)
