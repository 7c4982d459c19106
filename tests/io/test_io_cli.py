"""``wuzi board watch PORT`` against a fake board on a pty: the JSON lines and the errors."""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
import time
import tty
from pathlib import Path

from wuzi.link import wire

WUZI = str(Path(sys.executable).parent / "wuzi")


def _info(major: int, serial: str = "SB-1") -> bytes:
    body = bytearray(wire.LEN_INFO)
    body[wire.INFO_MAJOR] = major
    body[wire.INFO_KIND] = wire.KIND_SENSOR
    wire.put_u32(body, wire.INFO_BOOT, 42)
    wire.put_text(body, wire.INFO_SERIAL, serial, wire.SERIAL_LEN)
    return wire.encode(wire.T_INFO, 0, bytes(body))


def _fake_board(*args: str, reply: bytes) -> subprocess.CompletedProcess[str]:
    """Answer the watcher's first HELLO with ``reply``; return the finished watcher."""
    master, slave = os.openpty()
    tty.setraw(slave)
    path = os.ttyname(slave)
    proc = subprocess.Popen(
        [WUZI, "board", "watch", path, *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 20
        got = b""
        while wire.T_HELLO not in got[4:5] and time.monotonic() < deadline:
            ready, _, _ = select.select([master], [], [], 0.5)
            if ready:
                got += os.read(master, 256)
        os.write(master, reply)
        out, err = proc.communicate(timeout=20)
    finally:
        os.close(master)
        os.close(slave)
    return subprocess.CompletedProcess(proc.args, proc.returncode, out, err)


def test_version_mismatch_stops_the_watch_with_a_clear_error() -> None:
    done = _fake_board(reply=_info(major=1))  # a board still on the firmware of protocol 1
    assert done.returncode == 1
    assert "wire protocol v1.0, this host speaks v2.2" in done.stderr
    assert done.stdout == ""


def test_wrong_board_serial_is_named() -> None:
    done = _fake_board("--serial", "SB-7", reply=_info(major=2, serial="SB-1"))
    assert done.returncode == 1
    assert "expected board serial 'SB-7', found 'SB-1'" in done.stderr


def test_alert_lines_are_json(tmp_path: Path) -> None:
    from wuzi.link.reconciler import Alert

    line = json.dumps(Alert("moved", 5, (112, 113)).to_json())
    assert json.loads(line) == {
        "event": "alert",
        "kind": "moved",
        "at_ms": 5,
        "points": ["h8", "i8"],
        "from": "h8",
        "to": "i8",
    }
