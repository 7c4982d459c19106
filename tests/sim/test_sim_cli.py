"""The two command-line contracts end to end, as two real processes over a real pty:
``wuzi sim board --script FILE --noise BER --drop P`` and ``wuzi board watch PORT``."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from wuzi.rules.board import point_name
from wuzi.sim.devices.script import expected_stones, parse_script

WUZI = str(Path(sys.executable).parent / "wuzi")


def _script(seed: int, stones: int, gap_ms: int) -> str:
    rng = random.Random(seed)
    points = rng.sample(range(225), stones * 2)
    lines, t = [], 200
    for i in range(stones):
        colour = "black" if i % 2 == 0 else "white"
        if i % 5 == 2:
            lines.append(
                f"{t} slide {point_name(points[stones + i])} {point_name(points[i])} {colour}"
            )
        else:
            lines.append(f"{t} place {point_name(points[i])} {colour}")
        if i == stones // 3:
            lines.append(f"{t + 100} unplug 400")
        if i == 2 * stones // 3:
            # after the last stone settled; the MCU is down 300 ms; no stone meanwhile
            # (stones put down during a reset come back unordered, as two_stones)
            lines.append(f"{t + 200} reboot")
            t += 600
        t += gap_ms
    return "\n".join(lines) + "\n"


def _run(
    tmp_path: Path, script: str, *sim_args: str, until_stones: int, limit_s: float
) -> list[dict[str, object]]:
    path = tmp_path / "game.txt"
    path.write_text(script)
    sim = subprocess.Popen(
        [WUZI, "sim", "board", "--script", str(path), *sim_args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    watch = None
    try:
        assert sim.stdout is not None
        pty = sim.stdout.readline().strip()
        assert pty.startswith("/dev/"), pty
        watch = subprocess.Popen([WUZI, "board", "watch", pty], stdout=subprocess.PIPE, text=True)
        assert watch.stdout is not None
        os.set_blocking(watch.stdout.fileno(), False)
        events: list[dict[str, object]] = []
        deadline = time.monotonic() + limit_s
        buf = ""
        while time.monotonic() < deadline:
            import select

            ready, _, _ = select.select([watch.stdout], [], [], 0.2)
            if ready:
                chunk = watch.stdout.read()
                buf += chunk or ""
                *lines, buf = buf.split("\n")
                events += [json.loads(line) for line in lines if line]
            if sum(1 for e in events if e["event"] == "stone") >= until_stones:
                break
        return events
    finally:
        for proc in (watch, sim):
            if proc is not None:
                proc.send_signal(signal.SIGTERM)
                try:
                    proc.wait(5)
                except subprocess.TimeoutExpired:
                    proc.kill()


def test_noisy_lossy_link_delivers_the_scripts_stones_in_order(tmp_path: Path) -> None:
    script = _script(seed=11, stones=14, gap_ms=300)
    expected = [(point_name(p), c.label) for p, c in expected_stones(parse_script(script))]
    events = _run(
        tmp_path,
        script,
        "--noise",
        "1e-3",
        "--drop",
        "0.01",
        "--seed",
        "5",
        until_stones=len(expected),
        limit_s=25,
    )
    stones = [(e["point"], e["colour"]) for e in events if e["event"] == "stone"]
    assert stones == expected
    kinds = {e["kind"] for e in events if e["event"] == "alert"}
    assert kinds <= {"board_rebooted", "link_down", "link_up"}
    first = next(e for e in events if e["event"] == "stone")
    assert set(first) >= {"event", "point", "colour"}


def test_sim_reports_a_bad_script_by_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.txt"
    path.write_text("0 place h8 black\n10 place q3 white\n")
    proc = subprocess.run(
        [WUZI, "sim", "board", "--script", str(path)], capture_output=True, text=True, timeout=30
    )
    assert proc.returncode == 1
    assert "line 2" in proc.stderr and "'q3' is not a point" in proc.stderr
    assert proc.stdout == ""


def test_sim_rejects_a_noise_that_is_not_a_probability(tmp_path: Path) -> None:
    path = tmp_path / "ok.txt"
    path.write_text("0 place h8 black\n")
    proc = subprocess.run(
        [WUZI, "sim", "board", "--script", str(path), "--noise", "2"],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert proc.returncode == 2 and "must be a probability" in proc.stderr


@pytest.mark.parametrize(
    ("option", "value", "says"),
    [
        ("--protocol", "3.0", "no INFO layout known for it (known: 1.x, 2.x)"),
        ("--protocol", "one", "a protocol is MAJOR.MINOR"),
        ("--noise-from", "-5", "must be 0 ms or more"),
    ],
)
def test_sim_rejects_a_protocol_or_noise_start_it_cannot_play(
    tmp_path: Path, option: str, value: str, says: str
) -> None:
    path = tmp_path / "ok.txt"
    path.write_text("0 place h8 black\n")
    for kind in ("board", "clock"):
        script = path if kind == "board" else tmp_path / "clock.txt"
        if kind == "clock":
            script.write_text("0 press black\n")
        proc = subprocess.run(
            [WUZI, "sim", kind, "--script", str(script), option, value],
            capture_output=True,
            text=True,
            timeout=30,
        )
        assert proc.returncode == 2 and says in proc.stderr, (kind, proc.stderr)
        assert proc.stdout == ""


@pytest.mark.slow
def test_soak_long_game_with_faults(tmp_path: Path) -> None:
    script = _script(seed=99, stones=80, gap_ms=250)
    expected = [(point_name(p), c.label) for p, c in expected_stones(parse_script(script))]
    events = _run(
        tmp_path,
        script,
        "--noise",
        "1e-3",
        "--drop",
        "0.01",
        "--dup",
        "0.01",
        "--seed",
        "8",
        until_stones=len(expected),
        limit_s=90,
    )
    assert [(e["point"], e["colour"]) for e in events if e["event"] == "stone"] == expected
