"""Type-check firmware/ with mypy against the MicroPython rp2 stubs (``python THIS_FILE``).

The stubs (``micropython-rp2-rpi-pico-stubs``) are installed with ``pip install --target``
into ``.venv/mpy-stubs`` once (idempotent: a marker file names the pinned version) and given
to mypy as the typeshed (``--custom-typeshed-dir``: its ``stdlib/`` replaces CPython's) and
as the search path (``MYPYPATH`` for ``machine``, ``micropython``, ``rp2`` ...).
Independent of the Makefile; tests/firmware/test_typecheck.py runs it.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

STUBS = "micropython-rp2-rpi-pico-stubs==1.29.0.post1"
ROOT = Path(__file__).resolve().parents[2]
TARGET = ROOT / ".venv" / "mpy-stubs"
FIRMWARE = ROOT / "firmware"


def ensure_stubs(python: str = sys.executable) -> Path:
    marker = TARGET / ".installed"
    if marker.exists() and marker.read_text().strip() == STUBS:
        return TARGET
    subprocess.run(
        [python, "-m", "pip", "install", "--quiet", "--upgrade", "--target", str(TARGET), STUBS],
        check=True,
    )
    marker.write_text(STUBS + "\n")
    return TARGET


def run_mypy(python: str = sys.executable) -> subprocess.CompletedProcess[str]:
    stubs = ensure_stubs(python)
    files = sorted(str(p) for p in FIRMWARE.glob("*.py"))
    env = dict(os.environ, MYPYPATH=str(stubs))
    return subprocess.run(
        [
            python,
            "-m",
            "mypy",
            "--config-file",
            str(FIRMWARE / "mypy.ini"),
            "--custom-typeshed-dir",
            str(stubs),
            "--cache-dir",
            str(stubs / ".mypy_cache"),
            *files,
        ],
        capture_output=True,
        text=True,
        env=env,
        cwd=FIRMWARE,
    )


if __name__ == "__main__":
    result = run_mypy()
    sys.stdout.write(result.stdout)
    sys.stderr.write(result.stderr)
    sys.exit(result.returncode)
