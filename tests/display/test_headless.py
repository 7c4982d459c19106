"""`wuzi.display.headless`: the off-screen setup each display command makes for itself."""

from __future__ import annotations

import subprocess
import sys

import pytest

from wuzi.display import headless

PROBE = (
    "from wuzi.display import headless; headless.prepare({snapshot});"
    "import pyglet.window; w = pyglet.window.Window(64, 64, visible=False);"
    "print(headless.mode(), w.get_framebuffer_size())"
)


def run(code: str, **env: str) -> subprocess.CompletedProcess[str]:
    base = {"PATH": "/usr/bin:/bin", "HOME": "/tmp"}  # no DISPLAY
    return subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env={**base, **env},
        timeout=60,
        check=False,
    )


def test_prepared_here() -> None:
    assert headless.mode() in ("egl", "xvfb")
    headless.prepare(snapshot=True)  # idempotent


@pytest.mark.parametrize(("forced", "mode"), [("egl", "egl"), ("xvfb", "xvfb")])
def test_both_ways_give_a_window(forced: str, mode: str) -> None:
    done = run(PROBE.format(snapshot=True), WUZI_HEADLESS=forced)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split()[0] == mode
    assert "(64, 64)" in done.stdout


def test_no_display_falls_back_to_off_screen() -> None:
    done = run(PROBE.format(snapshot=False))
    assert done.returncode == 0, done.stderr
    assert done.stdout.split()[0] in ("egl", "xvfb")


def test_a_bad_choice_is_an_error() -> None:
    done = run(PROBE.format(snapshot=True), WUZI_HEADLESS="vnc")
    assert done.returncode != 0 and "WUZI_HEADLESS must be" in done.stderr
