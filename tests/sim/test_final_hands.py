"""The people at a demo table: the floor referee's commands and the turn timer."""

from __future__ import annotations

from wuzi.bus.schemas import Assignment, HostStatus, TableState
from wuzi.rules.board import point_name
from wuzi.sim.bots.table_player import Press
from wuzi.sim.devices.virtual_board import VirtualBoard
from wuzi.sim.devices.virtual_clock import VirtualClock
from wuzi.sim.final.hands import (
    DRAW_REASON,
    RESUME_AFTER_MS,
    RETRY_MS,
    HandsConfig,
    TableHands,
    TurnTimer,
    game_seed,
)


def assignment(game_id: str, *, playoff: bool = False) -> Assignment:
    return Assignment(
        1, game_id, "甲", "乙", "renju", "free", {}, "270+3", 1, 1, playoff, issued_ms=0
    )


def state(
    game_id: str | None, status: str, moves: tuple[int, ...] = (), seq: int = 1
) -> TableState:
    return TableState(1, game_id, seq, status, moves, 270_000, 270_000, None, None, 0)


def hands(**config: object) -> TableHands:
    return TableHands(1, VirtualBoard(seed=1), VirtualClock(seed=2), HandsConfig(**config))  # type: ignore[arg-type]


def test_the_referee_starts_an_assigned_game_on_an_idle_table_and_repeats_it_if_unanswered() -> (
    None
):
    table = hands()
    table.hear(state(None, "idle"))
    assert table.tick(0) == []  # nothing assigned yet
    table.hear(assignment("r1-m1-b1"))
    assert table.tick(5) == []  # the host does not show it waiting yet
    table.hear(state("r1-m1-b1", "idle", seq=1))
    [command] = table.tick(10)
    assert (command.action, command.table, command.args) == ("next-game", 1, {})
    assert command.game_id == "r1-m1-b1"  # signed for the game the table shows
    assert table.tick(10 + RETRY_MS - 1) == []
    assert [c.action for c in table.tick(10 + RETRY_MS)] == ["next-game"]
    table.hear(state("r1-m1-b1", "playing", seq=2))
    assert table.tick(10 + 2 * RETRY_MS) == []  # the game began: players, no command
    assert table.game is not None and table.game.player.game_id == "r1-m1-b1"


def test_the_referee_starts_the_game_an_idle_table_shows_waiting() -> None:
    table = hands()
    table.hear(assignment("r1-m5-b1"))
    table.hear(state("r1-m5-b1", "idle"))  # the host shows who plays next here
    [command] = table.tick(0)
    assert (command.action, command.game_id) == ("next-game", "r1-m5-b1")  # signed for it


def test_no_next_game_while_a_game_runs_or_is_finished_without_a_new_assignment() -> None:
    table = hands()
    table.hear(assignment("g1"))
    table.hear(state("g1", "playing", seq=1))
    assert table.tick(0) == []
    table.hear(state("g1", "finished", seq=2))
    assert table.tick(1) == []


def test_no_next_game_while_stones_are_on_the_board() -> None:
    table = hands()
    table.board.set_cell(112, 1)
    table.hear(assignment("r1-m1-b1"))
    table.hear(state("r1-m1-b1", "idle"))
    assert table.tick(0) == []
    table.board.set_cell(112, 0)
    assert [c.action for c in table.tick(1)] == ["next-game"]


def test_a_paused_table_is_resumed_once_the_host_is_back_and_its_links_up() -> None:
    table = hands()
    table.hear(assignment("g"))
    table.hear(state("g", "playing", seq=1))
    table.tick(0)
    table.hear(HostStatus("pi-1", True, (1,), "boot-2", 0, links_down=(1,)))
    table.hear(state("g", "paused", seq=2))
    assert table.tick(0) == [] and table.tick(RESUME_AFTER_MS + 10) == []  # board away
    table.hear(HostStatus("pi-1", True, (1,), "boot-2", 0))
    assert table.tick(RESUME_AFTER_MS + 20) == []  # looked at it just now
    assert [c.action for c in table.tick(2 * RESUME_AFTER_MS + 30)] == ["resume"]


def test_a_planned_draw_is_recorded_by_the_referee_and_never_in_a_playoff() -> None:
    drawn = next(
        g for g in (f"r1-m{m}-b1" for m in range(1, 50))
        if game_seed(1, g, "draw") % 1000 / 1000 < 0.5
    )  # fmt: skip
    table = hands(draw_share=0.5, draw_after_moves=2)
    table.hear(assignment(drawn))
    table.hear(state(drawn, "playing", (112,), seq=1))
    table.tick(0)
    assert table.game is not None and table.game.draw_at_moves in (2, 3, 4)
    table.hear(state(drawn, "playing", tuple(range(100, 105)), seq=5))
    performed = len(table.game.driver.performed)
    [command] = table.tick(1)
    assert command.action == "set-result"
    assert command.args == {"winner": None, "reason": DRAW_REASON}
    assert table.game.frozen
    assert len(table.game.driver.performed) == performed  # no next stone begun
    assert table.tick(2) == []  # sent once (again only after RETRY_MS)
    playoff = hands(draw_share=1.0)
    playoff.hear(assignment("r3-m1-p1", playoff=True))
    playoff.hear(state("r3-m1-p1", "playing", seq=1))
    playoff.tick(0)
    assert playoff.game is not None and playoff.game.draw_at_moves is None


def test_the_turn_timer_counts_a_restart_but_not_a_cut_cable() -> None:
    timer, turns = TurnTimer(boot="b1"), []  # type: list[tuple[int, int] | None]
    up = HostStatus("pi-1", True, (1,), "b1", 0)
    timer.tick(state("g", "playing"), up, 0)
    timer.moved(1, 0, turns)  # pressed at 0
    # cut off for 5 s: offline (its will), then back with the same boot: not an outage
    timer.tick(state("g", "playing"), HostStatus("pi-1", False, (1,), "b1", 0), 1000)
    timer.tick(state("g", "playing"), HostStatus("pi-1", False, (1,), "b1", 0), 6000)
    timer.tick(state("g", "playing"), up, 6000)
    timer.moved(2, 6900, turns)  # pressed at 6.9 s, the state arrived later
    # killed: offline 4 s, back as a new boot, paused 2 s until the referee resumes (the
    # timer charges each tick's interval to what it sees at its end: ticks are 5 ms apart)
    timer.tick(state("g", "playing"), up, 8000)
    timer.tick(state("g", "playing"), HostStatus("pi-1", False, (1,), "b1", 0), 8000)
    timer.tick(state("g", "playing"), HostStatus("pi-1", False, (1,), "b1", 0), 12000)
    back = HostStatus("pi-1", True, (1,), "b2", 0)
    timer.tick(state("g", "paused"), back, 12000)
    timer.tick(state("g", "paused"), back, 14000)
    timer.tick(state("g", "playing"), back, 14000)
    timer.moved(3, 14900, turns)
    timer.moved(5, 16000, turns)  # two moves in one state: neither turn is known
    timer.moved(6, 16000, turns)  # no press since the last move: not known either
    timer.moved(7, 16500, turns)
    timer.tick(state("g", "playing"), back, 16600, board_disturbed=True)  # a board reset
    timer.moved(8, 17000, turns)  # not the clock's to answer for
    timer.moved(9, 17400, turns)
    assert turns == [None, (6900, 0), (8000, 6000), None, None, None, (500, 0), None, (400, 0)]


def test_a_fallen_flag_is_recorded_as_the_loss_it_is_never_resumed() -> None:
    table = hands()
    table.hear(assignment("g"))
    table.hear(state("g", "playing", seq=1))
    table.tick(0)
    flagged = TableState(1, "g", 9, "paused", (112,), -5, 1000, None, None, 0)
    table.hear(flagged)
    [command] = table.tick(RESUME_AFTER_MS * 3)
    assert command.action == "set-result"
    assert command.args == {"winner": "white", "reason": "black's flag fell"}


def test_a_stone_down_when_the_flag_fell_is_kept_apart_from_the_moves() -> None:
    """The demo's check compares the record with ``truths``: a stone put down but never
    pressed (the flag fell first) is no move, so it is kept in ``unpressed`` instead."""
    table = hands()
    table.hear(assignment("g1"))
    table.hear(TableState(1, "g1", 1, "playing", (), 270_000, 270_000, "black", None, 0))
    table.tick(0)
    game = table.game
    assert game is not None
    table.tick(300)  # the stone is down (after the bot's thought); its press not yet due
    [stone] = [p for p in range(225) if game.player.wood().get(p)]
    assert not any(isinstance(a, Press) for a in game.driver.performed)
    table.hear(TableState(1, "g1", 2, "paused", (), -5, 270_000, "black", None, 0))
    [lost] = table.tick(400)  # the referee records the loss on time
    assert (lost.action, lost.args["winner"]) == ("set-result", "white")
    table.hear(TableState(1, "g1", 3, "finished", (), -5, 270_000, None, None, 0))
    table.tick(500)
    assert table.truths == {"g1": []}
    assert table.unpressed == {"g1": [point_name(stone)]}


def test_the_turn_timer_times_a_press_the_state_never_showed() -> None:
    """White's move 2 shows Black 54 ms left; the hands complete move 3 320 ms later, but
    the state never shows it (the flag fell first): its turn is kept for the check."""
    timer, turns = TurnTimer(boot="b1"), []  # type: list[tuple[int, int] | None]
    up = HostStatus("pi-1", True, (1,), "b1", 0)
    timer.tick(state("g", "playing"), up, 0)
    timer.moved(1, 0, turns, state("g", "playing", (1,)))
    shown = TableState(1, "g", 2, "playing", (1, 2), 54, 2000, None, None, 0)
    timer.moved(2, 600, turns, shown)
    assert timer.late_turn(3, 920) == (320, 0, 54)
    assert timer.late_turn(2, 920) is None  # every completed move was shown
    assert timer.late_turn(3, 500) is None  # no press after the last move's


def test_no_draw_before_the_planned_move_and_none_after_the_game_ended() -> None:
    drawn = next(
        g for g in (f"r1-m{m}-b2" for m in range(1, 50))
        if game_seed(1, g, "draw") % 1000 / 1000 < 0.5
    )  # fmt: skip
    table = hands(draw_share=0.5, draw_after_moves=4)
    table.hear(assignment(drawn))
    table.hear(state(drawn, "playing", (112,), seq=1))
    table.tick(0)
    assert table.game is not None and table.game.draw_at_moves is not None
    short = tuple(range(100, 100 + table.game.draw_at_moves - 1))
    table.hear(state(drawn, "playing", short, seq=2))
    assert table.tick(1) == [] and not table.game.frozen
    table.hear(state(drawn, "finished", (*short, 140, 141), seq=3))
    assert table.tick(2) == []  # a game decided on the board is not drawn afterwards


def test_the_planned_draws_are_about_a_third_of_the_board_games() -> None:
    """The draws a final plans: 16 teams, 4 rounds of 8 matches on 3 boards, a few seeds.
    The bots' games nearly always outlast ``draw_after_moves`` (14 to 28 moves; under 5 %
    of the demo's board games ended sooner), so the share planned is the share played."""
    config = HandsConfig()
    for seed in (1, 2, 3):
        table = hands(seed=seed)
        planned = []
        for r in range(1, 5):
            for m in range(1, 9):
                for b in range(1, 4):
                    game_id = f"r{r}-m{m}-b{b}"
                    table.game = None
                    table.hear(assignment(game_id))
                    table.hear(state(game_id, "playing", (112,), seq=1))
                    table.tick(0)
                    assert table.game is not None
                    planned.append(table.game.draw_at_moves)
        drawn = [n for n in planned if n is not None]
        assert 0.25 <= len(drawn) / len(planned) <= 0.45, (seed, len(drawn))
        low, high = config.draw_after_moves, 2 * config.draw_after_moves
        assert all(low <= n <= high for n in drawn)


def playing(game_id: str, moves: tuple[int, ...], seq: int) -> TableState:
    """The state of a game in play, the clock of the side to move running."""
    running = "black" if len(moves) % 2 == 0 else "white"
    return TableState(1, game_id, seq, "playing", moves, 270_000, 270_000, running, None, 0)


def test_the_draw_is_agreed_while_the_next_stone_is_in_hand() -> None:
    """The hands hold the next move's task as soon as a move is shown: the draw must not
    wait for empty hands (it waited, and no demo run ever agreed a draw); they stop
    there, with no stone of the next move put down."""
    drawn = next(
        g for g in (f"r2-m{m}-b1" for m in range(1, 50))
        if game_seed(1, g, "draw") % 1000 / 1000 < 0.5
    )  # fmt: skip
    table = hands(draw_share=0.5, draw_after_moves=3, think_ms=20)
    table.hear(assignment(drawn))
    seq, shown = 1, ()
    table.hear(playing(drawn, shown, seq))
    table.tick(0)
    game = table.game
    assert game is not None and game.draw_at_moves is not None
    commands = []
    for now_ms in range(50, 60_000, 50):  # the host: shows each move the hands pressed
        pressed = tuple(game.player.truth_points())
        if len(pressed) > len(shown):
            seq, shown = seq + 1, pressed
            table.hear(playing(drawn, shown, seq))
            if len(shown) == game.draw_at_moves - 1:
                table.tick(now_ms)
                assert game.player.in_hand is not None  # the next stone is in hand
                continue
            if len(shown) == game.draw_at_moves:
                performed = len(game.driver.performed)
                commands = table.tick(now_ms)
                assert len(game.driver.performed) == performed  # nothing more put down
                break
        table.tick(now_ms)
    assert [c.args for c in commands] == [{"winner": None, "reason": DRAW_REASON}]
    assert game.frozen and table.problems == []
