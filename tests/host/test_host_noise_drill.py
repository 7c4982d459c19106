"""The noisy-line drill (issue 32): a twenty-move game on one `wuzi host` whose table 1 has
its board and clock unit on a line at a bit error rate of 1e-3 with 1 % of frames dropped
each way, from a stated instant on, beside a twin table 2 playing the same game on a clean
line. Every device is a `wuzi sim board` / `wuzi sim clock` process on a pty, all four
started together on one time 0, their starts measured (``support.sim_devices``), so a
press stated 300 ms after its stone comes after it.

A noisy line is not a broken one: no link_down, no held clock, no press left unjudged, no
infraction, every stone recorded in order, the clocks within 150 ms of the twin's — and the
referees told once, with the rate, that the line is noisy.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from support.broker import MosquittoBroker
from support.host import HostUnderTest, wait_for
from support.sim_devices import SimDevice, start_together, stop_all
from wuzi.rules.board import parse_point, point_name

NOISE_FROM_MS = 4000  # the line turns noisy 4 s after time 0: the links are up by then
FIRST_MS = 6000  # the first stone (time 0 is 5 s after the spawn: the host is up)
MOVE_EVERY_MS = 1500
PRESS_AFTER_MS = 300
MOVES = 20
NOISE = ("--noise", "1e-3", "--drop", "0.01", "--noise-from", str(NOISE_FROM_MS))


def sparse_points(count: int) -> list[str]:
    """Points for a game with no five and nothing forbidden: no two stones of a colour on
    one line within 4 points of each other (so no three, four or five forms)."""
    chosen: dict[int, list[tuple[int, int]]] = {0: [], 1: []}
    out: list[str] = []
    candidates = [(r, c) for r in range(15) for c in range(15)]
    candidates.sort(key=lambda rc: ((rc[0] * 7 + rc[1] * 3) % 17, rc))
    for r, c in candidates:
        if len(out) == count:
            break
        mine = chosen[len(out) % 2]
        if any(_in_line((r, c), other) for other in chosen[0] + chosen[1] if other in mine):
            continue
        if (r, c) in chosen[0] or (r, c) in chosen[1]:
            continue
        mine.append((r, c))
        out.append(point_name(r * 15 + c))
    assert len(out) == count
    return out


def _in_line(a: tuple[int, int], b: tuple[int, int]) -> bool:
    dr, dc = b[0] - a[0], b[1] - a[1]
    on_line = dr == 0 or dc == 0 or abs(dr) == abs(dc)
    return on_line and max(abs(dr), abs(dc)) <= 4


def game_scripts(points: list[str]) -> tuple[str, str]:
    board, clock = [], []
    for n, point in enumerate(points):
        colour = "black" if n % 2 == 0 else "white"
        at = FIRST_MS + MOVE_EVERY_MS * n
        board.append(f"{at} place {point} {colour}")
        clock.append(f"{at + PRESS_AFTER_MS} press {colour}")
    return "\n".join(board), "\n".join(clock)


@pytest.fixture
def drill(
    tmp_path: Path, mosquitto: MosquittoBroker
) -> Iterator[tuple[HostUnderTest, list[SimDevice], int, list[str]]]:
    points = sparse_points(MOVES)
    board, clock = game_scripts(points)
    devices = [
        SimDevice("board", "board-1", board, (*NOISE, "--seed", "11"), "SIM-B001"),
        SimDevice("clock", "clock-1", clock, (*NOISE, "--seed", "12"), "SIM-C001"),
        SimDevice("board", "board-2", board, ("--seed", "21"), "SIM-B002"),
        SimDevice("clock", "clock-2", clock, ("--seed", "22"), "SIM-C002"),
    ]
    try:
        t0_ms = start_together(devices, tmp_path / "dev")
        ports = {d.name: d.link for d in devices}
        keys = {
            n: f'board_port = "{ports[f"board-{n}"]}"\nclock_port = "{ports[f"clock-{n}"]}"'
            for n in (1, 2)
        }
        host = HostUnderTest(tmp_path, mosquitto.url, tables=2, devices=keys)
        try:
            yield host, devices, t0_ms, points
        finally:
            host.close()
    finally:
        stop_all(devices)


def alert_texts(host: HostUnderTest, table: int) -> list[tuple[str, str]]:
    return host.observer.alert_texts(table)


def clocks_used(host: HostUnderTest, table: int) -> list[tuple[int, int]]:
    """Each seat's time used since move 1, after each move (the first move's own time
    depends on when the host started the game, not on the line)."""
    with host.observer.lock:
        moves = [e for e in host.observer.events.get(table, []) if e.kind == "move"]
    readings = [
        (int(m.data["clocks"]["first_ms"]), int(m.data["clocks"]["second_ms"])) for m in moves
    ]
    first = readings[0]
    return [(first[0] - r[0], first[1] - r[1]) for r in readings]


def test_a_noisy_line_plays_on_and_is_told_once(
    drill: tuple[HostUnderTest, list[SimDevice], int, list[str]],
) -> None:
    host, devices, _, points = drill
    host.start()
    wait_for(lambda: all(n in host.observer.states for n in (1, 2)), 20, "both tables' states")
    expected = [parse_point(p) for p in points]
    for n in (1, 2):
        wait_for(
            lambda n=n: host.observer.moves(n) == expected,
            FIRST_MS / 1000 + MOVES * MOVE_EVERY_MS / 1000 + 30,
            f"table {n}: the {MOVES} moves",
        )
        # the state travels on its own topic, published after the move's event: wait
        # for it too rather than read the one before the last move
        wait_for(
            lambda n=n: list(host.observer.states[n].moves) == expected,
            10,
            f"table {n}: the state after the {MOVES}th move",
        )
    board_port = str(devices[0].link)
    wait_for(
        lambda: any(f"board {board_port} line noisy" in t for _, t in alert_texts(host, 1)),
        40,
        "the board's noisy-line alert",
    )
    noisy_alerts = [t for _, t in alert_texts(host, 1) if "line noisy" in t]
    assert sum(f"board {board_port} line noisy" in t for t in noisy_alerts) == 1, noisy_alerts
    assert sum(f"clock unit {devices[1].link} line noisy" in t for t in noisy_alerts) <= 1
    assert all("% of frames corrupted" in t for t in noisy_alerts), noisy_alerts
    # nothing else: no link_down, no device fault, no press unjudged, no infraction
    others = [a for a in alert_texts(host, 1) if "line noisy" not in a[1]]
    assert others == [], others
    assert alert_texts(host, 2) == []
    state = host.observer.states[1]
    assert state.running is not None and list(state.moves) == expected  # never held
    assert 1 not in host.observer.links_down
    noisy, twin = clocks_used(host, 1), clocks_used(host, 2)
    for n, ((b1, w1), (b2, w2)) in enumerate(zip(noisy, twin, strict=True)):
        assert abs(b1 - b2) <= 150 and abs(w1 - w2) <= 150, (n + 1, noisy[n], twin[n])

    host.end_and_check_records({1: list(points)})  # journal = retained state = record
