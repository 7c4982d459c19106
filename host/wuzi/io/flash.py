"""What ``wuzi board flash`` copies to a board and how: the firmware's files and one board
description, with mpremote (a dependency of ``wuzi[host]``), so a board can be flashed from
any install — the unpacked offline bundle at a venue as well as a checkout (``make flash``).

The firmware is package data of wuzi.io, as the board descriptions are:
``wuzi/io/firmware-images`` links to the repository's firmware/ in the source tree and is a
folder of the files in a wheel. This module only builds the command; the CLI runs it."""

from __future__ import annotations

import sys
from pathlib import Path

from wuzi.io.boards import boards_dir

__all__ = [
    "FIRMWARE_FILES",
    "FLASH_TIMEOUT_S",
    "FlashError",
    "firmware_dir",
    "flash_command",
    "mpremote_reason",
]

# A whole flash takes seconds (6 s to a simulated board, 9 s from the emulated Pi); a
# board that never answers the raw REPL would hold mpremote on a pty forever.
FLASH_TIMEOUT_S = 300.0

# What runs on the MCU (firmware/main.py imports the rest); fake_machine.py is the tests'.
FIRMWARE_FILES = (
    "wire.py",
    "endpoint.py",
    "board.py",
    "matrix.py",
    "debounce.py",
    "clock_unit.py",
    "tm1637.py",
    "point_led.py",
    "main.py",
)


class FlashError(Exception):
    """A board cannot be flashed from this install (the message says what is missing)."""


def firmware_dir() -> Path:
    return (Path(__file__).resolve().parent / "firmware-images").resolve()


def revisions() -> list[str]:
    """The board revisions this install carries (boards/<revision>/board.json)."""
    return sorted(p.parent.name for p in boards_dir().glob("*/board.json"))


def flash_command(port: str, revision: str, python: str = sys.executable) -> list[str]:
    """The mpremote command that copies the firmware and ``revision``'s board.json to the
    board on ``port``, then resets it."""
    spec = boards_dir() / revision / "board.json"
    if not spec.is_file():
        known = ", ".join(revisions()) or "none"
        raise FlashError(f"no board revision {revision!r} in {boards_dir()} (known: {known})")
    files = [firmware_dir() / name for name in FIRMWARE_FILES]
    missing = [str(f) for f in files if not f.is_file()]
    if missing:
        raise FlashError(f"the firmware is incomplete: missing {', '.join(missing)}")
    return [
        python,
        "-m",
        "mpremote",
        "connect",
        port,
        "cp",
        *map(str, files),
        ":",
        "+",
        "cp",
        str(spec),
        ":board.json",
        "+",
        "reset",
    ]


def mpremote_reason(stderr: str) -> str:
    """What mpremote's errors say, as the end of one line (``": ..."``; "" when nothing):
    its last line, without the traceback above it or its ``mpremote:`` prefix."""
    lines = [line.strip() for line in stderr.splitlines() if line.strip()]
    if not lines:
        return ""
    return ": " + lines[-1].removeprefix("mpremote: ")
