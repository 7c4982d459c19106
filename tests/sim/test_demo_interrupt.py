"""Ctrl-C during ``wuzi demo``: everything it started stops — the broker, the hosts, the
director, the public feed — within seconds, with one line saying what it stopped and where
the partial results are, and no process is left behind. A real run of the command: its
own Mosquitto, hosts on ptys."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from support.processes import alive, descendants

pytestmark = [pytest.mark.broker, pytest.mark.pty]

STARTED = "4 hosts serving 24 tables"
HALL_STARTED = "3 hosts serving 9 tables"
FINAL_PARTS = ("pi-1", "pi-4", "director", "24 simulated tables", "the database")
HALL_PARTS = (
    "pi-1",
    "pi-3",
    "director men",
    "director women",
    "director open",
    "9 simulated tables",
    "the events' databases",
)


@pytest.mark.parametrize(
    ("to", "hall"),
    [("process", False), ("group", False), ("group", True)],
    ids=["process", "group", "hall-group"],
)
def test_sigint_stops_everything_the_demo_started_and_says_so(
    tmp_path: Path, to: str, hall: bool
) -> None:
    """``process``: SIGINT to the demo alone; ``group``: to its whole process group, as a
    Ctrl-C at the terminal sends it — the demo's processes have groups of their own, so
    the demo stops them in order, and no broker dies first under the others. The hall
    (``--hall open-2019``: three directors, three hosts) stops the same way."""
    out = tmp_path / "out"
    args = ["demo", "--headless", "--speed", "100", "--screens-every", "0", "--out", str(out)]
    if hall:
        args += ["--hall", "open-2019"]
    started_line = HALL_STARTED if hall else STARTED
    demo = subprocess.Popen(
        [sys.executable, "-m", "wuzi.cli", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # the signal goes to the demo alone, as a test can send it
    )
    try:
        assert demo.stdout is not None
        seen = []
        deadline = time.monotonic() + 120
        for line in demo.stdout:
            seen.append(line)
            if started_line in line or time.monotonic() > deadline:
                break
        assert any(started_line in line for line in seen), "".join(seen)
        time.sleep(2)  # the tables at play
        started = descendants(demo.pid)
        assert len(started) >= 7  # the broker, 4 (3) hosts, the director (3), broadcast, web
        sent = time.monotonic()
        if to == "group":
            os.killpg(demo.pid, signal.SIGINT)
        else:
            demo.send_signal(signal.SIGINT)
        _rest, err = demo.communicate(timeout=30)
        took_s = time.monotonic() - sent
    finally:
        if demo.poll() is None:
            os.killpg(demo.pid, signal.SIGKILL)
            demo.wait()
    assert demo.returncode == 130, err
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1, err
    [said] = lines
    assert said.startswith("wuzi demo: stopped by SIGINT: "), said
    for part in (*(HALL_PARTS if hall else FINAL_PARTS), "broadcast", "web", "the broker"):
        assert part in said, said
    assert f"partial results in {out}/" in said
    assert "Traceback" not in err
    assert took_s < 15, f"the demo took {took_s:.1f} s to stop"
    left = sorted(pid for pid in started if alive(pid))
    assert left == [], f"still running after the demo stopped: {left}"
    databases = ["men", "women", "open"] if hall else ["final"]
    for name in databases:  # the partial results are where it says
        assert (out / "run" / f"{name}.sqlite").exists()
