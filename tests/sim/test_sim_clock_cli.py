"""``wuzi sim clock`` and the link faults of ``wuzi sim board`` (``stall``, ``replug``,
``--link``), as a host meets them: a real process serving a real pty, read and written by
pyserial and the host's own sans-I/O sessions (``wuzi.link.session``)."""

from __future__ import annotations

import errno
import os
import select
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import serial

from wuzi.link.session import (
    BoardSession,
    ClockSession,
    Connected,
    EventSession,
    LinkDown,
    LinkEvent,
    LinkUp,
    Press,
)
from wuzi.rules.board import parse_point

WUZI = str(Path(sys.executable).parent / "wuzi")
LIMIT_S = 20.0  # generous: the machine is shared; no test passes or fails on a duration


def now_ms() -> int:
    return time.monotonic_ns() // 1_000_000


class Sim:
    """A ``wuzi sim clock|board`` process; its stdout lines are the pty paths."""

    def __init__(self, tmp_path: Path, kind: str, script: str, *args: str) -> None:
        path = tmp_path / f"{kind}.txt"
        path.write_text(script)
        self.proc = subprocess.Popen(
            [WUZI, "sim", kind, "--script", str(path), "--seed", "7", *args],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        assert self.proc.stdout is not None
        os.set_blocking(self.proc.stdout.fileno(), False)
        self._buf = ""
        self.paths: list[str] = []

    def lines(self, count: int, limit_s: float = LIMIT_S) -> list[str]:
        """Wait until ``count`` paths have been printed; all of them."""
        stdout = self.proc.stdout
        assert stdout is not None
        deadline = time.monotonic() + limit_s
        while len(self.paths) < count and time.monotonic() < deadline:
            ready, _, _ = select.select([stdout], [], [], 0.1)
            if ready:
                chunk = stdout.read() or ""
                self._buf += chunk
                *done, self._buf = self._buf.split("\n")
                self.paths += [line for line in done if line]
            if self.proc.poll() is not None and not ready:
                break
        assert len(self.paths) >= count, (self.paths, self.stderr_if_done())
        return self.paths

    def stderr_if_done(self) -> str:
        if self.proc.poll() is None or self.proc.stderr is None:
            return ""
        return self.proc.stderr.read()

    def stop(self) -> int:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
        return self.proc.returncode


@pytest.fixture
def sims() -> Iterator[list[Sim]]:
    running: list[Sim] = []
    yield running
    for sim in running:
        sim.stop()


class Host:
    """The host's side of one port: pyserial (non-blocking) and a link session."""

    def __init__(self, path: str, session: EventSession) -> None:
        self.port = serial.Serial(path, 115200, timeout=0, exclusive=True)
        self.fd = self.port.fileno()
        self.session = session
        self.events: list[LinkEvent] = []
        self.lost: OSError | None = None
        self.session.connection_made(now_ms())

    def pump(self, done: Callable[[Host], bool], limit_s: float = LIMIT_S) -> None:
        """Read, feed the session, write what it says, until ``done(self)`` or the port
        fails (``lost``) or the limit (then the caller's assertion says what is missing)."""
        deadline = time.monotonic() + limit_s
        while not done(self) and self.lost is None and time.monotonic() < deadline:
            out = self.session.data_to_send()
            if out:
                self.port.write(out)
            ready, _, _ = select.select([self.fd], [], [], 0.02)
            t = now_ms()
            if ready:
                try:
                    data = os.read(self.fd, 4096)
                except OSError as exc:
                    self.lost = exc
                    break
                if not data:
                    self.lost = OSError(errno.EIO, "end of file: the port vanished")
                    break
                self.events += self.session.receive_data(data, t)
            self.events += self.session.poll(t)

    def presses(self) -> list[int]:
        return [e.button for e in self.events if isinstance(e, Press)]

    def boot_id(self) -> int | None:
        return self.session.boot_id

    def close(self) -> None:
        self.port.close()


def fill_until_refused(fd: int, limit_s: float = LIMIT_S) -> int:
    """Write to ``fd`` without blocking, 1 KiB every 20 ms (far slower than a device
    reading its input drains the pty), until a write is refused (EAGAIN) or short; the
    bytes taken. Fails the test if the writes are all taken until ``limit_s``."""
    os.set_blocking(fd, False)
    chunk = b"\x00" * 1024
    taken = 0
    deadline = time.monotonic() + limit_s
    while time.monotonic() < deadline:
        try:
            n = os.write(fd, chunk)
        except BlockingIOError:
            return taken
        taken += n
        if n < len(chunk):
            return taken
        time.sleep(0.02)
    raise AssertionError(f"{taken} bytes written in {limit_s} s and still taken: not stalled")


# --- wuzi sim clock ---------------------------------------------------------------------


def test_the_clock_prints_its_path_and_the_host_sees_the_scripted_buttons(
    tmp_path: Path, sims: list[Sim]
) -> None:
    script = "300 press black\n700 press white bounce 3\n1100 claim\n1500 press 1\n1900 press 0\n"
    sim = Sim(tmp_path, "clock", script)
    sims.append(sim)
    path = sim.lines(1)[0]
    assert path.startswith("/dev/"), path
    host = Host(path, ClockSession(port_name=path))
    try:
        host.pump(lambda h: len(h.presses()) >= 5)
        assert host.presses() == [0, 1, 2, 1, 0]
        info = host.session.info
        assert info is not None and info.serial == "SIMCLK-0001"
    finally:
        host.close()
    assert sim.stop() == 0


def test_unplug_silences_the_clock_and_its_presses_come_after(
    tmp_path: Path, sims: list[Sim]
) -> None:
    sim = Sim(tmp_path, "clock", "500 unplug 2500\n1000 press black\n")
    sims.append(sim)
    host = Host(sim.lines(1)[0], ClockSession())
    try:
        host.pump(lambda h: bool(h.presses()))
        kinds = [type(e).__name__ for e in host.events if isinstance(e, LinkDown | LinkUp | Press)]
        # the silence took the link down; the press made meanwhile came once it was back
        assert kinds[-3:] == ["LinkDown", "LinkUp", "Press"], kinds
        down = next(e for e in host.events if isinstance(e, LinkDown))
        assert down.why == ""  # silence, not a port error: the pty stayed open
        assert host.lost is None
        assert host.session.health.replays >= 1
    finally:
        host.close()


def test_a_reboot_gives_a_new_boot_id(tmp_path: Path, sims: list[Sim]) -> None:
    sim = Sim(tmp_path, "clock", "1000 reboot\n")
    sims.append(sim)
    host = Host(sim.lines(1)[0], ClockSession())
    try:
        host.pump(lambda h: h.boot_id() is not None)
        first = host.boot_id()
        host.pump(lambda h: h.boot_id() not in (None, first))
        assert host.boot_id() not in (None, first)
        rebooted = [e for e in host.events if isinstance(e, Connected) and e.rebooted]
        assert rebooted, host.events
    finally:
        host.close()


def test_a_stalled_clock_takes_no_input_but_still_talks(tmp_path: Path, sims: list[Sim]) -> None:
    sim = Sim(tmp_path, "clock", "0 stall 5000\n200 press white\n")
    sims.append(sim)
    host = Host(sim.lines(1)[0], ClockSession())
    try:
        taken = fill_until_refused(host.fd)
        assert taken > 0
        # its own frames still come: the press made while stalled arrives
        host.pump(lambda h: bool(h.presses()))
        assert host.presses() == [1]
        # once the stall is over it reads again: the pty drains and takes writes
        deadline = time.monotonic() + LIMIT_S
        accepted = False
        while not accepted and time.monotonic() < deadline:
            try:
                accepted = os.write(host.fd, b"\x00") == 1
            except BlockingIOError:
                time.sleep(0.05)
        assert accepted, "the clock never read its input again after the stall"
    finally:
        host.close()


def test_a_replug_closes_the_pty_and_opens_a_new_one_behind_the_link(
    tmp_path: Path, sims: list[Sim]
) -> None:
    link = tmp_path / "clock-1"
    sim = Sim(tmp_path, "clock", "800 replug 1000\n2500 press black\n", "--link", str(link))
    sims.append(sim)
    first = sim.lines(1)[0]
    assert os.readlink(link) == first
    host = Host(str(link), ClockSession())
    try:
        host.pump(lambda h: h.boot_id() is not None)
        old_boot = host.boot_id()
        host.pump(lambda h: False)  # until the port fails
        assert host.lost is not None, "reading the pulled clock's pty did not fail"
    finally:
        host.close()
    second = sim.lines(2)[1]
    assert second != first and second.startswith("/dev/")
    assert os.readlink(link) == second
    session = ClockSession()
    host = Host(str(link), session)
    try:
        host.pump(lambda h: bool(h.presses()))
        assert host.presses() == [0]
        assert host.boot_id() not in (None, old_boot)  # the pull cut its power: a new boot
    finally:
        host.close()
    assert sim.stop() == 0
    assert not link.exists() and not link.is_symlink()  # gone with the device


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("0 press black\n5 press red\n", "line 2: press takes black, white, 0 or 1, not 'red'"),
        ("0 press 2\n", "line 1: press takes black, white, 0 or 1, not '2'"),
        ("0 claim now\n", "line 1: expected '<t_ms> claim [bounce <n>]'"),
        ("# a comment\n\n10 stall\n", "line 3: expected '<t_ms> stall <ms>'"),
        ("10 replug -5\n", "line 1: the replug time must not be negative (-5)"),
        ("10 unplug soon\n", "line 1: the unplug time must be a whole number, not 'soon'"),
        ("10 press white bounce x\n", "line 1: the bounce count must be a whole number"),
        ("10 place h8 black\n", "line 1: unknown step 'place'"),
    ],
)
def test_a_bad_clock_script_is_named_by_line(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "bad.txt"
    path.write_text(text)
    proc = subprocess.run(
        [WUZI, "sim", "clock", "--script", str(path)], capture_output=True, text=True, timeout=30
    )
    assert proc.returncode == 1
    assert proc.stderr.startswith(f"wuzi sim clock: {path}: {message}"), proc.stderr
    assert proc.stdout == ""


def test_sigterm_stops_the_clock_with_exit_0_and_linger_ends_it(tmp_path: Path) -> None:
    path = tmp_path / "s.txt"
    path.write_text("100 press black\n")
    proc = subprocess.Popen(
        [WUZI, "sim", "clock", "--script", str(path)], stdout=subprocess.PIPE, text=True
    )
    assert proc.stdout is not None
    assert proc.stdout.readline().startswith("/dev/")
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(30) == 0
    lingered = subprocess.run(
        [WUZI, "sim", "clock", "--script", str(path), "--linger", "200"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert lingered.returncode == 0 and lingered.stdout.startswith("/dev/")


# --- wuzi sim board: the same link faults ------------------------------------------------


def test_a_stalled_board_takes_no_input(tmp_path: Path, sims: list[Sim]) -> None:
    sim = Sim(tmp_path, "board", "0 stall 5000\n")
    sims.append(sim)
    host = Host(sim.lines(1)[0], BoardSession())
    try:
        assert fill_until_refused(host.fd) > 0
        host.pump(lambda h: h.boot_id() is not None)  # its own frames (INFO, heartbeats) go
        assert host.boot_id() is not None
    finally:
        host.close()


def test_a_replugged_board_comes_back_on_a_new_path_rebooted_with_its_stones(
    tmp_path: Path, sims: list[Sim]
) -> None:
    link = tmp_path / "board-1"
    script = "200 place h8 black\n1000 replug 800\n"
    sim = Sim(tmp_path, "board", script, "--link", str(link))
    sims.append(sim)
    first = sim.lines(1)[0]
    assert os.readlink(link) == first
    host = Host(str(link), BoardSession())
    try:
        host.pump(lambda h: h.boot_id() is not None)
        old_boot = host.boot_id()
        host.pump(lambda h: False)
        assert host.lost is not None, "reading the pulled board's pty did not fail"
    finally:
        host.close()
    second = sim.lines(2)[1]
    assert second != first
    assert os.readlink(link) == second
    board = BoardSession()
    host = Host(str(link), board)
    try:
        h8 = parse_point("h8")
        host.pump(lambda h: h.boot_id() is not None and board.cells[h8] != 0)
        assert host.boot_id() != old_boot  # the pull cut its power: a new boot
        assert board.cells[h8] == 1  # still on the wood, read afresh
    finally:
        host.close()
    assert sim.stop() == 0
