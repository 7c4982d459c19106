"""``wuzi venue check``: the morning preflight of one host against simulated boards and clock
units on ptys, and a real Mosquitto set up by ``wuzi venue broker-config`` (per-host accounts)."""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from support.acl import Broker, generated_broker
from support.io_devices import SimThread
from wuzi.cli import main
from wuzi.sim.devices.virtual_board import VirtualBoard
from wuzi.sim.devices.virtual_clock import VirtualClock

BOARD_OK = "board SIM-0001 (firmware sensor-rev-a, protocol 2.2)"
CLOCK_OK = "clock unit SIMCLK-0001 (firmware clock-rev-a, protocol 2.2)"
GPIO = "clock gpio (buttons 5/6/13, display 19/26)"


@pytest.fixture(scope="module")
def broker() -> Iterator[Broker]:
    with generated_broker() as b:
        yield b


@pytest.fixture
def devices() -> Iterator[tuple[VirtualBoard, VirtualClock]]:
    now = time.monotonic_ns() // 1_000_000
    board, clock = VirtualBoard(seed=1), VirtualClock(seed=2)
    for device in (board, clock):
        device.open_pty()
        device.boot(now)
    with SimThread([board, clock]):
        yield board, clock
    board.close()
    clock.close()


CHECK = "wuzi.acl-test.check.h1"
"""The account (and client id) ``wuzi venue check`` logs in with for host h1."""


def venue(
    broker: Broker,
    name: str,
    tables: str,
    *,
    venue_id: str = "acl-test",
    host_extra: str = "",
) -> Path:
    """A venue file beside the generated broker's (so ``secrets/h1.pass`` is host h1's)."""
    path = broker.directory / name
    path.write_text(
        f"""
[venue]
id = "{venue_id}"
name = "Check"

[broker]
url = "mqtt://127.0.0.1:{broker.port}"

[[hosts]]
id = "h1"
{host_extra}
{tables}
""",
        encoding="utf-8",
    )
    return path


def table(number: int, board: str, clock: str | None = None, extra: str = "") -> str:
    if clock is None:
        pins = "black_button = 5, white_button = 6, claim_button = 13, clk = 19, dio = 26"
        clock_line = f"clock_gpio = {{ {pins} }}"
    else:
        clock_line = f'clock_port = "{clock}"'
    return f"""
  [[hosts.tables]]
  number = {number}
  board_port = "{board}"
  {clock_line}
  {extra}
"""


def check(
    path: Path, capsys: pytest.CaptureFixture[str], *extra: str
) -> tuple[int, list[str], str]:
    code = main(["venue", "check", "--config", str(path), "--host", "h1", "--timeout", "1", *extra])
    out, err = capsys.readouterr()
    return code, out.splitlines(), err


def test_all_ok(
    broker: Broker,
    devices: tuple[VirtualBoard, VirtualClock],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    board, clock = devices
    serials = 'board_serial = "SIM-0001"\n  clock_serial = "SIMCLK-0001"'
    path = venue(broker, "ok.toml", table(1, board.path, clock.path, serials))
    code, lines, err = check(path, capsys)
    assert lines == [f"table 1: ok {BOARD_OK} {CLOCK_OK}", f"broker: ok as {CHECK}"], err
    assert code == 0


def test_gpio_clock_is_opened_with_the_default_factory(
    broker: Broker,
    devices: tuple[VirtualBoard, VirtualClock],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from gpiozero import Device  # type: ignore[import-untyped]

    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    monkeypatch.setattr(Device, "pin_factory", None)
    board, _ = devices
    path = venue(broker, "gpio.toml", table(2, board.path))
    code, lines, err = check(path, capsys)
    assert lines == [f"table 2: ok {BOARD_OK} {GPIO}", f"broker: ok as {CHECK}"], err
    assert code == 0


def test_a_missing_port_and_a_wrong_serial(
    broker: Broker,
    devices: tuple[VirtualBoard, VirtualClock],
    capsys: pytest.CaptureFixture[str],
) -> None:
    board, clock = devices
    tables = table(1, "/dev/wuzi/by-serial/E6614C311B7C8A2F", clock.path) + table(
        2, board.path, "/dev/nowhere-clock", 'board_serial = "E6614C311B7C8A2F"'
    )
    path = venue(broker, "bad.toml", tables)
    code, lines, _ = check(path, capsys)
    assert lines == [
        "table 1: FAIL board /dev/wuzi/by-serial/E6614C311B7C8A2F: no such device",
        "table 2: FAIL board "
        + board.path
        + ": serial SIM-0001, the venue file's board_serial is E6614C311B7C8A2F; "
        "clock /dev/nowhere-clock: no such device",
        f"broker: ok as {CHECK}",
    ]
    assert code == 1


def test_a_board_on_the_clock_port(
    broker: Broker,
    devices: tuple[VirtualBoard, VirtualClock],
    capsys: pytest.CaptureFixture[str],
) -> None:
    board, clock = devices
    path = venue(broker, "swapped.toml", table(1, clock.path, board.path))
    code, lines, _ = check(path, capsys)
    assert lines[0] == (
        f"table 1: FAIL board {clock.path}: a clock unit (serial SIMCLK-0001), not a sensor "
        f"board; clock {board.path}: a sensor board (serial SIM-0001), not a clock unit"
    )
    assert code == 1


def test_old_firmware_fails_as_the_host_refuses_it(
    broker: Broker,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A board and a clock unit of wire protocol 1.0 (a 42-byte INFO) fail by name: the
    port, the serial they report, the protocol found and the one needed."""
    now = time.monotonic_ns() // 1_000_000
    board, clock = VirtualBoard(seed=1), VirtualClock(seed=2)
    for device in (board, clock):
        device.protocol = (1, 0)
        device.open_pty()
        device.boot(now)
    path = venue(broker, "old.toml", table(1, board.path, clock.path))
    try:
        with SimThread([board, clock]):
            code, lines, _ = check(path, capsys)
    finally:
        board.close()
        clock.close()
    needed = "this host speaks v2.2 (major 2 needed); a host refuses it: flash matching firmware"
    assert lines[0] == (
        f"table 1: FAIL board {board.path}: serial SIM-0001: the sensor board speaks wire "
        f"protocol v1.0, {needed} (make flash); clock {clock.path}: serial SIMCLK-0001: the "
        f"clock unit speaks wire protocol v1.0, {needed} (make flash)"
    )
    assert code == 1


HOLD = """
import sys, serial
port = serial.Serial(sys.argv[1], exclusive=True)
print("held", flush=True)
sys.stdin.read()
"""


def test_a_port_held_by_another_process_is_not_taken(
    broker: Broker,
    devices: tuple[VirtualBoard, VirtualClock],
    capsys: pytest.CaptureFixture[str],
) -> None:
    board, clock = devices
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD, board.path],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "held\n"
        path = venue(broker, "busy.toml", table(1, board.path, clock.path))
        code, lines, _ = check(path, capsys)
        assert holder.poll() is None  # still running, still holding its port
    finally:
        holder.communicate("")
    assert lines == [
        f"table 1: FAIL board {board.path}: busy (open in another process; a host may be using it)",
        f"broker: ok as {CHECK}",
    ]
    assert code == 1


def test_a_broker_that_refuses_the_login(
    broker: Broker,
    devices: tuple[VirtualBoard, VirtualClock],
    capsys: pytest.CaptureFixture[str],
) -> None:
    board, clock = devices
    (broker.directory / "wrong.pass").write_text("not-the-password\n", encoding="utf-8")
    path = venue(
        broker,
        "refused.toml",
        table(1, board.path, clock.path),
        host_extra='broker_password_file = "wrong.pass"',
    )
    code, lines, _ = check(path, capsys)
    assert lines[0] == f"table 1: ok {BOARD_OK} {CLOCK_OK}"
    refused = f"broker: FAIL 127.0.0.1:{broker.port} refused the login as {CHECK}: "
    assert lines[1].startswith(refused)
    assert len(lines) == 2
    assert code == 1


def test_a_status_the_acl_refuses(
    broker: Broker,
    devices: tuple[VirtualBoard, VirtualClock],
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Host h9 of another venue, logging in with h1's check account (the shared [broker]
    login, as its own password file is absent): the login works, the status is refused."""
    board, clock = devices
    path = broker.directory / "other.toml"
    path.write_text(
        f"""
[venue]
id = "elsewhere"
name = "Check"

[broker]
url = "mqtt://127.0.0.1:{broker.port}"
username = "{CHECK}"
password_file = "secrets/h1.pass"

[[hosts]]
id = "h9"
{table(1, board.path, clock.path)}
""",
        encoding="utf-8",
    )
    code = main(["venue", "check", "--config", str(path), "--host", "h9", "--timeout", "1"])
    lines = capsys.readouterr().out.splitlines()
    assert lines[1] == (
        f"broker: FAIL 127.0.0.1:{broker.port} refused {CHECK}'s status on "
        "wuzi/v1/elsewhere/host/h9/status: Not authorized"
    )
    assert code == 1


def test_the_check_never_pushes_the_running_host_off(
    broker: Broker,
    devices: tuple[VirtualBoard, VirtualClock],
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The running host keeps its connection (and its session) while the check logs in
    with the host's password: the check has an account, and so a client id, of its own."""
    from wuzi.bus.client import BusClient
    from wuzi.config.credentials import login

    board, clock = devices
    account = login(broker.venue, "host", "h1")
    host = BusClient(
        f"mqtt://127.0.0.1:{broker.port}",
        account.client_id,
        username=account.username,
        password=account.password,
    )
    host.connect()
    try:
        assert host.wait_connected(10.0)
        path = venue(broker, "running.toml", table(1, board.path, clock.path))
        for _ in range(3):
            code, lines, _ = check(path, capsys)
            assert lines[-1] == f"broker: ok as {CHECK}" and code == 0
        assert host.connected and host.attempts == 1
    finally:
        host.close()


def test_no_broker_listening(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from wuzi.sim.box import free_port

    port = free_port()
    path = tmp_path / "v.toml"
    path.write_text(
        f'[venue]\nid = "v"\nname = "V"\n[broker]\nurl = "mqtt://127.0.0.1:{port}"\n'
        '[[hosts]]\nid = "h1"\n' + table(1, "/dev/nowhere-board", "/dev/nowhere-clock"),
        encoding="utf-8",
    )
    code, lines, _ = check(path, capsys)
    assert lines == [
        "table 1: FAIL board /dev/nowhere-board: no such device; clock /dev/nowhere-clock: no "
        "such device",
        f"broker: FAIL cannot reach 127.0.0.1:{port}: Connection refused",
    ]
    assert code == 1


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[venue\n", "v.toml"),
        ('[venue]\nid = "v"\n', "v.toml"),
    ],
)
def test_a_bad_venue_file_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, message: str
) -> None:
    path = tmp_path / "v.toml"
    path.write_text(text, encoding="utf-8")
    code = main(["venue", "check", "--config", str(path), "--host", "h1"])
    out, err = capsys.readouterr()
    assert code == 1 and out == ""
    assert err.startswith("wuzi venue check: ") and message in err
    assert len(err.splitlines()) == 1 and "Traceback" not in err


def test_missing_file_unknown_host_and_usage(
    broker: Broker, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["venue", "check", "--config", str(tmp_path / "none.toml")]) == 1
    assert capsys.readouterr().err.startswith("wuzi venue check: ")
    path = venue(broker, "host.toml", table(1, "/dev/x", "/dev/y"))
    assert main(["venue", "check", "--config", str(path), "--host", "pi-9"]) == 1
    assert "no host 'pi-9' (hosts: h1); use --host" in capsys.readouterr().err
    for bad in (["--timeout", "0"], ["--timeout", "x"], ["--bogus"]):
        with pytest.raises(SystemExit) as stop:
            main(["venue", "check", "--config", str(path), *bad])
        assert stop.value.code == 2
