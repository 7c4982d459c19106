"""`wuzi sim board` / `wuzi sim clock` processes started together, each start measured.

A drill states its faults and presses in script time; a press stated 300 ms after its
stone is only proven so if the clock unit's time 0 is known against the board's. Python
processes started at once come up hundreds of ms apart on a loaded machine, so each
simulator is given one time 0 on CLOCK_MONOTONIC, which every process of the machine
shares (``wuzi sim … --t0-ms``), ``LEAD_MS`` ahead; all are spawned first and their first
lines (each prints its pty as it starts) read as they come, with ``select``: each device's
``started_ns`` is measured, and every one must have started before the common time 0.
"""

from __future__ import annotations

import select
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path


@dataclass
class SimDevice:
    """One simulator process: its kind ("board" or "clock"), the symlink the host opens
    (``--link``, as udev's /dev/wuzi/ names), its script and extra options."""

    kind: str
    name: str  # the symlink's name under the devices folder, e.g. "board-1"
    script: str
    args: tuple[str, ...] = ()
    serial: str = ""
    link: Path = Path()
    process: subprocess.Popen[bytes] | None = None
    pty: str = ""
    started_ns: int = 0


LEAD_MS = 5000  # time 0 is this far ahead of the spawn: every simulator is up by then


def start_together(devices: list[SimDevice], folder: Path, timeout_s: float = 30.0) -> int:
    """Start every device's simulator at once, their scripts on one time 0 (returned, in
    CLOCK_MONOTONIC ms). Raises AssertionError naming a device that printed no pty, or one
    that started only after time 0 (its script would not be on the common time)."""
    folder.mkdir(parents=True, exist_ok=True)
    t0_ms = time.monotonic_ns() // 1_000_000 + LEAD_MS
    for d in devices:
        script = folder / f"{d.name}.txt"
        script.write_text(d.script + "\n")
        d.link = folder / d.name
        argv = [sys.executable, "-m", "wuzi.cli", "sim", d.kind, "--script", str(script)]
        argv += ["--link", str(d.link), "--t0-ms", str(t0_ms)]
        if d.serial:
            argv += ["--serial", d.serial]
        argv += list(d.args)
        d.process = subprocess.Popen(
            argv, stdout=subprocess.PIPE, stderr=(folder / f"{d.name}.err").open("wb")
        )
    waiting = {d.process.stdout.fileno(): d for d in devices if d.process and d.process.stdout}
    deadline = time.monotonic() + timeout_s
    while waiting:
        left = deadline - time.monotonic()
        assert left > 0, f"no pty from {[d.name for d in waiting.values()]} in {timeout_s} s"
        ready, _, _ = select.select(list(waiting), [], [], left)
        now = time.monotonic_ns()
        for fd in ready:
            d = waiting.pop(fd)
            assert d.process is not None and d.process.stdout is not None
            d.pty = d.process.stdout.readline().decode().strip()
            d.started_ns = now
            assert d.pty.startswith("/dev/"), f"{d.name}: {d.pty!r}"
    late = [d.name for d in devices if d.started_ns // 1_000_000 >= t0_ms]
    assert not late, f"{late} started after their common time 0 ({LEAD_MS} ms after spawning)"
    return t0_ms


def stop_all(devices: list[SimDevice]) -> None:
    """SIGTERM each simulator (it exits 0 within 50 ms); kill one that does not."""
    for d in devices:
        if d.process is not None and d.process.poll() is None:
            d.process.send_signal(signal.SIGTERM)
    for d in devices:
        if d.process is None:
            continue
        try:
            d.process.wait(10)
        except subprocess.TimeoutExpired:
            d.process.kill()
            d.process.wait(5)
