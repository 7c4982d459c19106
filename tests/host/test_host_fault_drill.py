"""The fault drill: one `wuzi host`, seven tables, each with its own fault, every device a
`wuzi sim board` / `wuzi sim clock` process on a pty, driven from the command line as a
tester at the venue would (issue 18).

Every table's devices sit behind a symlink (``--link``), as udev's /dev/wuzi/ names do,
so a device pulled and plugged back on a new pty is found again. The host is the real
service started as systemd starts it. For each table the drill checks what the referees
were told (an alert naming the device), that the clock was held, that no player was
charged an infraction, and that the other tables played on; at the end the journal, the
retained state, the events published and each game's record (the referee ends every
game) all hold what was played.

The scripts' times count from the simulators' start: the host is started right after
them, and the first stone falls 8 s in, so a loaded machine has time to bring the host up.
"""

from __future__ import annotations

import signal
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from support.broker import MosquittoBroker
from support.host import HostUnderTest, wait_for
from wuzi.rules.board import parse_point

INFRACTIONS = {"press_without_stone", "loss_pending"}


@dataclass
class Table:
    """One table of the drill: its devices' scripts and what must come of them."""

    number: int
    board: str  # the board port's script ("" : a quiet board)
    clock: str  # the clock port's script
    board_kind: str = "board"  # what really sits on the board port
    clock_kind: str = "clock"
    board_args: tuple[str, ...] = ()
    clock_args: tuple[str, ...] = ()
    moves: tuple[str, ...] = ()  # what the players complete (stone + press)
    fault: tuple[str, ...] = ()  # words the referees' alert about the fault must hold
    resume_after: tuple[str, ...] = ()  # words of the alert after which the referee resumes
    processes: list[subprocess.Popen[bytes]] = field(default_factory=list)


def plain_game(first_ms: int, offsets_ms: tuple[int, ...]) -> tuple[str, str, tuple[str, ...]]:
    """A board and a clock script for a game whose stones fall a second and a half apart,
    each pressed ``offset`` ms after it (0: at the same instant)."""
    points = ("h8", "i9", "h9", "i10", "g7", "j11")[: len(offsets_ms)]
    board, clock = [], []
    for n, (point, offset) in enumerate(zip(points, offsets_ms, strict=True)):
        colour = "black" if n % 2 == 0 else "white"
        at = first_ms + 1500 * n
        board.append(f"{at} place {point} {colour}")
        clock.append(f"{at + offset} press {colour}")
    return "\n".join(board), "\n".join(clock), points


def drill() -> list[Table]:
    tables = []
    board, clock, moves = plain_game(8000, (300, 300, 300))
    tables.append(Table(1, board, clock, moves=moves))  # the control: nothing goes wrong
    tables.append(Table(2, "", "", board_kind="clock", fault=("board", "expected a sensor board")))
    tables.append(
        Table(3, "", "", clock_kind="board", fault=("clock unit", "expected a clock unit"))
    )
    # the board's cable pulled after the first move; plugged back 1.5 s later on a new pty
    tables.append(
        Table(
            4,
            "8000 place h8 black\n9000 replug 1500\n20000 place i9 white",
            "8300 press black\n20300 press white",
            moves=("h8", "i9"),
            fault=("board", "link"),
            resume_after=("served again",),
        )
    )
    # the clock unit stops reading for 6 s (it goes on sending) after the first move
    tables.append(
        Table(
            5,
            "8000 place h8 black\n21000 place i9 white",
            "8300 press black\n9000 stall 6000\n21300 press white",
            moves=("h8", "i9"),
            fault=("clock unit", "stalled"),
            resume_after=("served again",),
        )
    )
    board, clock, moves = plain_game(8000, (0, 20, 50, 100, 150, 200))  # fast presses
    tables.append(Table(6, board, clock, moves=moves))
    board, clock, moves = plain_game(8000, (300, 300, 300))  # a noisy line both ways
    tables.append(
        Table(
            7,
            board,
            clock,
            board_args=("--noise", "1e-4", "--seed", "7"),
            clock_args=("--noise", "1e-4", "--seed", "8"),
            moves=moves,
        )
    )
    return tables


def start_device(
    table: Table, port: str, kind: str, script: str, args: tuple[str, ...], tmp: Path
) -> Path:
    """A simulator process serving the port ``port`` (a symlink under ``tmp/dev``)."""
    link = tmp / "dev" / f"{port}-{table.number}"
    script_file = tmp / f"{port}-{table.number}.txt"
    script_file.write_text(script + "\n")
    serial = f"SIM-{'B' if kind == 'board' else 'C'}{table.number:03d}"
    argv = [sys.executable, "-m", "wuzi.cli", "sim", kind, "--script", str(script_file)]
    argv += ["--link", str(link), "--serial", serial, *args]
    process = subprocess.Popen(
        argv, stdout=subprocess.PIPE, stderr=(tmp / f"{port}-{table.number}.err").open("wb")
    )
    table.processes.append(process)
    assert process.stdout is not None
    first = process.stdout.readline().decode().strip()
    assert first.startswith("/dev/"), f"{argv}: {first!r}"
    return link


@pytest.fixture
def venue(
    tmp_path: Path, mosquitto: MosquittoBroker
) -> Iterator[tuple[HostUnderTest, list[Table]]]:
    (tmp_path / "dev").mkdir()
    tables = drill()
    devices = {}
    try:
        for t in tables:
            board = start_device(t, "board", t.board_kind, t.board, t.board_args, tmp_path)
            clock = start_device(t, "clock", t.clock_kind, t.clock, t.clock_args, tmp_path)
            devices[t.number] = f'board_port = "{board}"\nclock_port = "{clock}"'
        host = HostUnderTest(tmp_path, mosquitto.url, tables=len(tables), devices=devices)
        try:
            yield host, tables
        finally:
            host.close()
    finally:
        for t in tables:
            for p in t.processes:
                p.send_signal(signal.SIGTERM)
            for p in t.processes:
                try:
                    p.wait(10)
                except subprocess.TimeoutExpired:
                    p.kill()


def alerts(host: HostUnderTest, table: int) -> list[tuple[str, str]]:
    with host.observer.lock:
        return [
            (str(e.data["reason"]), str(e.data.get("text", "")))
            for e in host.observer.alerts.get(table, [])
        ]


def told(host: HostUnderTest, table: int, *words: str) -> bool:
    return any(all(w in text for w in words) for _, text in alerts(host, table))


def test_every_fault_is_its_tables_alone_and_costs_no_player(
    venue: tuple[HostUnderTest, list[Table]],
) -> None:
    host, tables = venue
    host.start()
    by_number = {t.number: t for t in tables}
    wait_for(lambda: all(n in host.observer.states for n in by_number), 20, "every table's state")

    for t in tables:
        if not t.fault:
            continue
        port = f"{'board' if t.fault[0] == 'board' else 'clock'}-{t.number}"
        wait_for(
            lambda t=t, port=port: told(host, t.number, port, *t.fault[1:]),
            30,
            f"table {t.number}: {t.fault}",
        )
        wait_for(
            lambda t=t: host.observer.states[t.number].running is None,
            10,
            f"table {t.number}: clock held",
        )
        if not t.resume_after:  # the host status lists it (republished first at a reconnect)
            wait_for(
                lambda t=t: t.number in host.observer.links_down,
                15,
                f"table {t.number} in the host status's links_down",
            )
    for t in tables:
        if t.resume_after:
            wait_for(
                lambda t=t: told(host, t.number, *t.resume_after),
                30,
                f"table {t.number}: {t.resume_after}",
            )
            reply = host.command("resume", t.number)
            assert reply["ok"], reply
    for t in tables:
        expected = [parse_point(p) for p in t.moves]
        wait_for(
            lambda t=t, e=expected: host.observer.moves(t.number) == e,
            40,
            f"table {t.number}: {t.moves}",
        )

    for t in tables:
        reasons = {reason for reason, _ in alerts(host, t.number)}
        assert not reasons & INFRACTIONS, (t.number, alerts(host, t.number))
        if not t.fault:
            assert not any(r == "board" for r in reasons), (t.number, alerts(host, t.number))
    assert set(host.observer.links_down) == {2, 3}, host.observer.links_down
    # the referee ends each game: the journal, the retained state and the record agree
    host.end_and_check_records({t.number: list(t.moves) for t in tables})
