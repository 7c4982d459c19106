"""The driver's hands on the simulated devices, and whole bot games through a real
``wuzi host`` process: its sensor board and clock unit simulated on real ptys (the
firmware's own code), a real Mosquitto broker, the bots playing the chinese-2013 opening
with the clock unit's buttons — and, in the second game, the host killed with SIGKILL in
the middle and started again. The moves the host recorded must be the bots' own."""

from __future__ import annotations

import json
import random
import time
from pathlib import Path

import pytest

from support.broker import MosquittoBroker
from support.host import HostUnderTest, wait_for
from wuzi.bus.schemas import HostStatus, Message
from wuzi.link import wire
from wuzi.rules.board import Colour, parse_point
from wuzi.sim.bots.table_driver import TableDriver
from wuzi.sim.bots.table_player import Lift, Place, PlayerConfig, Press, TablePlayer
from wuzi.sim.devices.runner import monotonic_ms
from wuzi.sim.devices.virtual_board import VirtualBoard
from wuzi.sim.devices.virtual_clock import VirtualClock

BAD = {"press_without_stone", "two_stones", "wrong_colour", "not_allowed", "offer_not_removed"}


def test_the_driver_puts_stones_lifts_them_and_holds_buttons() -> None:
    board, clock = VirtualBoard(seed=1), VirtualClock(seed=2)
    player = TablePlayer(PlayerConfig(), seed=1)
    driver = TableDriver(player, board, clock)
    h8, i9 = parse_point("h8"), parse_point("i9")
    driver.perform([Place(100, h8, Colour.BLACK), Place(120, i9, Colour.WHITE), Press(200, 1)])
    board.tick(99)
    assert board.table.cells[h8] == wire.EMPTY  # not before its due time
    board.tick(130)
    assert board.table.cells[h8] == wire.BLACK and board.table.cells[i9] == wire.WHITE
    clock.tick(199)
    assert clock.pins[1].value() == 1  # released (pull-up)
    clock.tick(200)
    assert clock.pins[1].value() == 0  # held down…
    clock.tick(200 + driver.hold_ms)
    assert clock.pins[1].value() == 1  # …for the hold time
    driver.perform([Lift(300, h8)])
    board.tick(300)
    assert board.table.cells[h8] == wire.EMPTY
    assert len(driver.performed) == 4


def test_clearing_waits_for_a_stone_still_on_its_way_down() -> None:
    """The game ended (a flag) while a stone was in the air: the board is cleared after it
    lands, not before — lifted first, it would stay for good and no next game would start."""
    board, clock = VirtualBoard(seed=1), VirtualClock(seed=2)
    player = TablePlayer(PlayerConfig(), seed=1)
    driver = TableDriver(player, board, clock)
    h8 = parse_point("h8")
    player._wood[h8] = Colour.BLACK  # the hands put it down (as poll does for a Place)
    driver.perform([Place(500, h8, Colour.BLACK)])
    driver.clear(100)
    board.tick(1000)
    assert all(cell == wire.EMPTY for cell in board.table.cells)


def test_the_driver_shows_the_player_the_displays() -> None:
    board, clock = VirtualBoard(seed=1), VirtualClock(seed=2)
    player = TablePlayer(PlayerConfig(), seed=1)
    driver = TableDriver(player, board, clock)
    clock.displays[1].show(b"\x6d\x78\x77\x6e")
    driver.look(0)
    assert player._displays[1] == b"\x6d\x78\x77\x6e"


def feed(host: HostUnderTest, seen: int) -> tuple[list[Message], int]:
    """What the observer got since ``seen`` events: the state, new events, the referee
    view, and the host's status (the harness keeps only whether it is online: a boot id
    is made up for each time it came back)."""
    with host.observer.lock:
        events = list(host.observer.events.get(1, []))
        state = host.observer.states.get(1)
        referee = host.observer.referee.get(1)
        online = host.observer.online
    messages: list[Message] = [*events[seen:]]
    messages += [m for m in (state, referee) if m is not None]
    if online is not None:
        boot = f"boot-{host.starts}"
        messages.append(HostStatus("pi-test", online, (1,), boot, 0))
    return messages, len(events)


def play(
    host: HostUnderTest,
    player: TablePlayer,
    driver: TableDriver,
    *,
    timeout_s: float,
    kill_after_moves: int | None = None,
) -> int:
    """Run the hands until the game is over; optionally SIGKILL the host once the state
    shows ``kill_after_moves`` moves, start it again and resume. Returns the kills."""
    seen = 0
    kills = 0
    deadline = time.monotonic() + timeout_s
    while not player.done:
        assert player.problem is None, player.problem
        if time.monotonic() > deadline:
            raise AssertionError(
                f"no result in {timeout_s} s: {player.truth()}, doing {player.in_hand}, "
                f"state {player.state}, alerts {host.observer.alert_reasons(1)}, "
                f"last actions {driver.performed[-6:]}, events "
                f"{[(e.seq, e.kind, e.data) for e in host.observer.events.get(1, [])]}"
            )
        now = monotonic_ms()
        messages, seen = feed(host, seen)
        driver.observe(messages, now)
        driver.step(now)
        state = player.state
        if (
            kill_after_moves is not None
            and kills == 0
            and state is not None
            and len(state.moves) >= kill_after_moves
            and (player.in_hand or "").endswith("pressed")
        ):
            # the press of a stone is on its way: kill the host before or after it counts
            time.sleep(random.Random(kill_after_moves).uniform(0.0, 0.05))
            host.kill()
            kills += 1
            for _ in range(30):  # the hands go on while the host is down
                now = monotonic_ms()
                driver.step(now)
                time.sleep(0.01)
            host.start()
            wait_for(lambda: host.observer.states[1].status == "paused", 20, "recovery")
            assert host.command("resume", 1)["ok"]
        time.sleep(0.005)
    return kills


def recorded_moves(tmp: Path) -> list[str]:
    [path] = (tmp / "state" / "records").glob("*.json")
    moves: list[str] = json.loads(path.read_text())["moves"]
    return moves


def start(tmp: Path, mosquitto: MosquittoBroker) -> HostUnderTest:
    host = HostUnderTest(
        tmp, mosquitto.url, tables=1, standalone=True, opening="chinese-2013", time_control="900+5"
    )
    host.start()
    wait_for(lambda: 1 in host.observer.states, 20, "the table state")
    wait_for(lambda: host.observer.states[1].status == "playing", 20, "the game")
    return host


def test_a_bot_game_through_a_real_host(tmp_path: Path, mosquitto: MosquittoBroker) -> None:
    host = start(tmp_path, mosquitto)
    try:
        config = PlayerConfig(ruleset="renju", opening="chinese-2013", think_ms=20)
        player = TablePlayer(config, seed=21)
        driver = TableDriver.for_table(player, host.sim, 1)
        play(host, player, driver, timeout_s=150)
        state = player.state
        assert state is not None and state.status == "finished" and state.result is not None
        assert host.observer.moves(1) == player.truth_points()
        wait_for(lambda: any((tmp_path / "state" / "records").glob("*.json")), 10, "the record")
        assert recorded_moves(tmp_path) == player.truth()
        reasons = set(host.observer.alert_reasons(1))
        assert not reasons & BAD, reasons
        kinds = [e.kind for e in host.observer.events[1]]
        assert kinds.count("decision") == 1 and kinds.count("offer") == 2
        assert kinds.count("offer-kept") == 1
    finally:
        host.close()


@pytest.mark.parametrize("moves", [3, 9])
def test_a_bot_game_survives_a_host_killed_mid_game(
    tmp_path: Path, mosquitto: MosquittoBroker, moves: int
) -> None:
    """Killed right after a press (of a stone, or a menu's confirm) with ``moves`` moves
    standing: 3 is the swap decision or White's move 4, 9 the middle game."""
    host = start(tmp_path, mosquitto)
    try:
        config = PlayerConfig(ruleset="renju", opening="chinese-2013", think_ms=20)
        player = TablePlayer(config, seed=22)
        driver = TableDriver.for_table(player, host.sim, 1)
        kills = play(host, player, driver, timeout_s=150, kill_after_moves=moves)
        assert kills == 1
        assert host.observer.moves(1) == player.truth_points()
        wait_for(lambda: any((tmp_path / "state" / "records").glob("*.json")), 10, "the record")
        assert recorded_moves(tmp_path) == player.truth()
        reasons = set(host.observer.alert_reasons(1))
        assert "host_restarted" in reasons
        # (the restarted host re-reads the board as "removed" + "two_stones": its own board
        # recovery, not the hands; the hands made no infraction and no stray stone)
        assert not reasons & (BAD - {"two_stones"}), reasons
    finally:
        host.close()
