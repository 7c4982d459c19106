"""Set pyglet up for rendering without a screen, before ``pyglet.window`` is imported.

pyglet picks its window platform when ``pyglet.window`` is first imported, so the choice
must be made before that, once per process. `prepare` is that one call; every display
app's CLI makes it first thing.

Two ways to render with no display, tried in order:

1. **pyglet's headless mode** (``pyglet.options['headless']``): an EGL pbuffer on a GPU or,
   here, Mesa's llvmpipe software renderer through ``EGL_EXT_device_enumeration``. No X
   server, nothing to clean up. This is what works on the development machine and in CI
   (Debian bookworm: libegl-mesa0, llvmpipe, OpenGL 4.5 core).
2. **Xvfb** (``/usr/bin/Xvfb``), started on a free display number and stopped at exit,
   with ``DISPLAY`` pointed at it: a fallback for machines whose libEGL cannot give a
   surfaceless device.

``WUZI_HEADLESS=egl`` or ``WUZI_HEADLESS=xvfb`` forces one of them (tests use it to check
both paths). A real window (``snapshot=False``) uses whatever display there is; when
there is none it falls back to the same headless setup, so ``wuzi scoreboard`` started
over ssh without a display runs (invisibly) instead of crashing — useful for the bench.
"""

from __future__ import annotations

import atexit
import ctypes.util
import os
import shutil
import subprocess
import sys
import time

__all__ = ["HeadlessError", "mode", "prepare"]

XVFB = "/usr/bin/Xvfb"

_mode: str | None = None
_xvfb: subprocess.Popen[bytes] | None = None


class HeadlessError(RuntimeError):
    """No way to render without a display: says what was tried."""


def mode() -> str | None:
    """What `prepare` chose: ``"egl"``, ``"xvfb"``, ``"display"`` or None (not called yet)."""
    return _mode


def _egl_available() -> bool:
    return ctypes.util.find_library("EGL") is not None


def _window_imported() -> bool:
    return "pyglet.window" in sys.modules


def prepare(snapshot: bool) -> None:
    """Choose how pyglet renders, before ``pyglet.window`` is imported; idempotent.

    ``snapshot`` True: render off screen (never open a visible window), EGL first, then
    Xvfb. False: a real window on ``$DISPLAY``/Wayland if there is one, otherwise the
    same as a snapshot. Raises `HeadlessError` if nothing works, or if ``pyglet.window``
    was imported before the first call (then the choice can no longer be made).
    """
    global _mode
    if _mode is not None:
        return
    has_display = bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
    forced = os.environ.get("WUZI_HEADLESS", "").strip().lower()
    if forced not in ("", "egl", "xvfb"):
        raise HeadlessError(f"WUZI_HEADLESS must be 'egl' or 'xvfb', not {forced!r}")
    if not snapshot and has_display and not forced:
        if not _window_imported():
            _no_shadow_window()
        _mode = "display"
        return
    if _window_imported():
        import pyglet

        if pyglet.options.headless:
            _mode = "egl"
            return
        if has_display:
            _mode = "display"
            return
        raise HeadlessError(
            "pyglet.window was imported before wuzi.display.headless.prepare(): "
            "call prepare() first"
        )
    if forced != "xvfb" and _egl_available():
        import pyglet

        pyglet.options.headless = True
        pyglet.options.shadow_window = False
        _mode = "egl"
        return
    if forced == "egl":
        raise HeadlessError("WUZI_HEADLESS=egl but no libEGL was found")
    _start_xvfb()
    _no_shadow_window()
    _mode = "xvfb"


def _no_shadow_window() -> None:
    """pyglet makes a hidden "shadow" window when ``pyglet.window`` is imported, with its
    default OpenGL 3.3 core context; on a GPU that gives only OpenGL ES 3.1 (a Raspberry
    Pi) that fails before any screen can ask for another context, and a context shared
    with it could not be ES anyway. The screens need none: each makes its window first
    (`wuzi.display.glcontext`)."""
    import pyglet

    pyglet.options.shadow_window = False


def _start_xvfb() -> None:
    global _xvfb
    binary = XVFB if os.path.exists(XVFB) else shutil.which("Xvfb")
    if binary is None:
        raise HeadlessError(
            "cannot render without a display: no libEGL for pyglet's headless mode and no "
            "Xvfb (install libegl-mesa0 or xvfb: scripts/system-deps.sh)"
        )
    read_fd, write_fd = os.pipe()
    # -displayfd: Xvfb picks a free display number and writes it once it accepts clients.
    process = subprocess.Popen(
        [binary, "-displayfd", str(write_fd), "-screen", "0", "3840x2160x24", "-nolisten", "tcp"],
        pass_fds=(write_fd,),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    os.close(write_fd)
    number = b""
    deadline = time.monotonic() + 10.0
    try:
        while not number.endswith(b"\n") and time.monotonic() < deadline:
            chunk = os.read(read_fd, 16)
            if not chunk:
                break
            number += chunk
    finally:
        os.close(read_fd)
    if not number.strip().isdigit():
        process.kill()
        raise HeadlessError(f"Xvfb ({binary}) did not start (exit status {process.poll()})")
    os.environ["DISPLAY"] = f":{number.strip().decode()}"
    _xvfb = process
    atexit.register(_stop_xvfb)


def _stop_xvfb() -> None:
    global _xvfb
    if _xvfb is not None:
        _xvfb.terminate()
        try:
            _xvfb.wait(5)
        except subprocess.TimeoutExpired:
            _xvfb.kill()
        _xvfb = None
