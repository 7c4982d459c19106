"""The old-firmware drill (issue 32): a device flashed with wire protocol 1.0 (its 42-byte
INFO) on each port kind of a running `wuzi host` — table 1's board port, table 2's clock
unit port — beside a twin table 3 whose devices are current. The simulators
(`wuzi sim board|clock --protocol 1.0`) are started together on one time 0, their starts
measured (``support.sim_devices``).

The host refuses each old device loudly: one referee alert naming the port, the serial
the device reports, the protocol found and the one needed; the table's clock held; the
stone placed and the press made meanwhile judged as nothing (the press is kept for a board
that can vouch for it: wuzi.table.press_gate). The twin plays on.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from support.broker import MosquittoBroker
from support.host import HostUnderTest, wait_for
from support.sim_devices import SimDevice, start_together, stop_all
from wuzi.rules.board import parse_point

OLD = ("--protocol", "1.0")
BOARD = "6000 place h8 black"  # script times from the devices' common time 0
CLOCK = "6300 press black"
NEEDED = "this host speaks v2.2 (major 2 needed)"


@pytest.fixture
def drill(
    tmp_path: Path, mosquitto: MosquittoBroker
) -> Iterator[tuple[HostUnderTest, dict[str, SimDevice]]]:
    devices = [
        SimDevice("board", "board-1", BOARD, OLD, "E66138935F47A601"),
        SimDevice("clock", "clock-1", CLOCK, (), "SIM-C001"),
        SimDevice("board", "board-2", BOARD, (), "SIM-B002"),
        SimDevice("clock", "clock-2", CLOCK, OLD, "E66138935F47C002"),
        SimDevice("board", "board-3", BOARD, (), "SIM-B003"),
        SimDevice("clock", "clock-3", CLOCK, (), "SIM-C003"),
    ]
    try:
        start_together(devices, tmp_path / "dev")
        by_name = {d.name: d for d in devices}
        keys = {
            n: f'board_port = "{by_name[f"board-{n}"].link}"\n'
            f'clock_port = "{by_name[f"clock-{n}"].link}"'
            for n in (1, 2, 3)
        }
        host = HostUnderTest(tmp_path, mosquitto.url, tables=3, devices=keys)
        try:
            yield host, by_name
        finally:
            host.close()
    finally:
        stop_all(devices)


def alert_texts(host: HostUnderTest, table: int) -> list[tuple[str, str]]:
    return host.observer.alert_texts(table)


def test_old_firmware_on_either_port_is_refused_loudly_and_holds_the_clock(
    drill: tuple[HostUnderTest, dict[str, SimDevice]],
) -> None:
    host, devices = drill
    host.start()
    wait_for(lambda: all(n in host.observer.states for n in (1, 2, 3)), 20, "every table's state")
    refused = {
        # table: (the port, the device's words, the serial it reports: 1.0's last 12 digits)
        1: (f"board {devices['board-1'].link}", "the sensor board", "38935F47A601"),
        2: (f"clock unit {devices['clock-2'].link}", "the clock unit", "38935F47C002"),
    }
    for table, (port, noun, serial) in refused.items():
        wait_for(
            lambda t=table, p=port: any(p in text for _, text in alert_texts(host, t)),
            20,
            f"table {table}: the refusal of {port}",
        )
        told = [(r, t) for r, t in alert_texts(host, table) if "cannot be used" in t]
        [(reason, text)] = told  # one alert, not one per retry
        assert reason == "board"
        assert text.startswith(f"{port} cannot be used: "), text
        assert f"{noun} speaks wire protocol v1.0, {NEEDED}" in text, text
        assert f"serial '{serial}' wire protocol v1.0" in text, text
        assert "flash matching firmware" in text, text
        wait_for(
            lambda t=table: host.observer.states[t].running is None,
            10,
            f"table {table}: clock held",
        )
        wait_for(lambda t=table: t in host.observer.links_down, 15, f"table {table} links_down")
    # the twin plays its move; the stone and the press on the refused tables judge nothing
    wait_for(lambda: host.observer.moves(3) == [parse_point("h8")], 30, "table 3: its move")
    # table 1's press came while its board was refused: kept for the board (judged when a
    # board that can vouch for its instant is there), never an infraction, never a move
    time.sleep(1.0)
    for table in refused:
        assert host.observer.moves(table) == []
        assert host.observer.states[table].running is None
        texts = [t for _, t in alert_texts(host, table)]
        # nothing but the refusal: no infraction, no press judged without the board
        assert {r for r, _ in alert_texts(host, table)} == {"board"}, texts
        assert sum("cannot be used" in t for t in texts) == 1, texts
    assert alert_texts(host, 3) == []
    assert set(host.observer.links_down) == {1, 2}
    assert host.stop() == 0, host.log()
    assert "Traceback" not in host.log(), host.log()
