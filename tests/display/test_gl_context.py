"""`wuzi.display.glcontext`: the screens on a GPU like a Raspberry Pi 4/5's.

Mesa is restricted the way the Pi's V3D driver is — OpenGL 3.1 with GLSL 1.40, OpenGL ES
3.1 — so pyglet's default OpenGL 3.3 core cannot be had and the screens must render on
OpenGL ES 3.1; with ES limited to 3.0 as well nothing is good enough and the commands say
so. Each case runs in a subprocess (the restriction is read when libGL loads).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from wuzi.display.snapshot import Frame, load_png

WUZI = str(Path(sys.executable).with_name("wuzi"))
PI = {
    "MESA_GL_VERSION_OVERRIDE": "3.1",
    "MESA_GLSL_VERSION_OVERRIDE": "140",
    "MESA_GLES_VERSION_OVERRIDE": "3.1",
}
NOTHING = {**PI, "MESA_GLES_VERSION_OVERRIDE": "3.0"}
PROBE = (
    "from wuzi.display import headless; headless.prepare(True);"
    "from wuzi.display import glcontext;"
    "w, single, c = glcontext.open_window(single_buffer_first=True, width=64, height=64,"
    " visible=False);"
    "print(c.api, w.context.get_info().get_version_string())"
)


def run(args: list[str], **env: str) -> subprocess.CompletedProcess[str]:
    base = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": "/tmp"}  # no DISPLAY
    return subprocess.run(
        args, capture_output=True, text=True, env={**base, **env}, timeout=120, check=False
    )


def differing(a: Frame, b: Frame) -> int:
    assert (a.width, a.height) == (b.width, b.height)
    return sum(a.rgba[i : i + 3] != b.rgba[i : i + 3] for i in range(0, len(a.rgba), 4))


def colours(frame: Frame) -> int:
    return len({frame.rgba[i : i + 3] for i in range(0, len(frame.rgba), 4 * 97)})


@pytest.mark.parametrize("way", ["egl", "xvfb"])
def test_a_pi_gets_opengl_es_3_1(way: str) -> None:
    done = run([sys.executable, "-c", PROBE], WUZI_HEADLESS=way, **PI)
    assert done.returncode == 0, done.stderr
    api, version = done.stdout.split(" ", 1)
    assert api == "gles" and version.startswith("OpenGL ES 3.1"), done.stdout


@pytest.mark.parametrize(
    ("command", "size"),
    [("scoreboard", "1920x1080"), ("clock-display", "800x480"), ("arbiter", "1280x720")],
)
@pytest.mark.parametrize("way", ["egl", "xvfb"])
def test_snapshots_on_a_pi_match_desktop_opengl(
    command: str, size: str, way: str, tmp_path: Path
) -> None:
    frames = {}
    for name, env in (("desktop", {}), ("pi", PI)):
        out = tmp_path / f"{name}.png"
        done = run(
            [WUZI, command, "--sample", "--snapshot", str(out), "--size", size],
            WUZI_HEADLESS=way,
            **env,
        )
        assert done.returncode == 0, done.stderr
        frames[name] = load_png(out)
    pi = frames["pi"]
    assert f"{pi.width}x{pi.height}" == size
    assert colours(pi) > 20  # a picture, not a blank frame
    # The same picture as on desktop OpenGL (highp shaders: no lines doubled or lost).
    assert differing(pi, frames["desktop"]) <= pi.width * pi.height // 200


def test_the_scoreboard_on_a_pi_draws_its_cards(tmp_path: Path) -> None:
    out = tmp_path / "pi.png"
    done = run([WUZI, "scoreboard", "--sample", "--snapshot", str(out)], **PI)
    assert done.returncode == 0, done.stderr
    frame = load_png(out)
    board = frame.crop(0, 120, 640, 200)  # the first cards' mini boards: wood colour
    wood = sum(
        1
        for i in range(0, len(board.rgba), 4)
        if board.rgba[i] > 180 and 130 < board.rgba[i + 1] < 200 and board.rgba[i + 2] < 140
    )
    assert wood > 5000


@pytest.mark.parametrize("command", ["scoreboard", "clock-display", "arbiter"])
def test_no_context_good_enough_is_a_clear_error(command: str, tmp_path: Path) -> None:
    out = tmp_path / "never.png"
    done = run([WUZI, command, "--sample", "--snapshot", str(out)], **NOTHING)
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    line = done.stderr.strip()
    assert line.startswith(f"wuzi {command}: no OpenGL context good enough: tried ")
    assert "OpenGL 3.3 core (" in line and "OpenGL ES 3.1 (" in line
    assert "Raspberry Pi 4 or 5 gives OpenGL ES 3.1" in line
    assert not out.exists()


def test_opengl_only_on_a_pi_is_not_enough() -> None:
    done = run([sys.executable, "-c", PROBE], WUZI_GL="gl", **PI)
    assert done.returncode != 0
    tried = done.stderr.split("no OpenGL context good enough: tried ", 1)[1]
    assert tried.startswith("OpenGL 3.3 core (") and "OpenGL ES 3.1 (" not in tried


def test_a_bad_wuzi_gl_is_an_error(tmp_path: Path) -> None:
    done = run(
        [WUZI, "scoreboard", "--sample", "--snapshot", str(tmp_path / "x.png")], WUZI_GL="vulkan"
    )
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert "WUZI_GL must be 'gl' or 'gles'" in done.stderr
