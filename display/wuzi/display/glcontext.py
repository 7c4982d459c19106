"""The GL context a screen asks for: OpenGL 3.3 core, else OpenGL ES 3.1 (a Raspberry Pi).

pyglet 2.1 asks for OpenGL 3.3 core by default, and its built-in shaders need it: the text
layouts' and the default group's are ``#version 330 core``, the window's, the sprites' and
the shapes' ``#version 150 core`` (pyglet/text/layout/base.py, pyglet/graphics/__init__.py,
pyglet/window/__init__.py, pyglet/sprite.py, pyglet/shapes.py). A Raspberry Pi 4/5's V3D
GPU gives OpenGL 3.1 (GLSL 1.40: none of those shaders compile) or OpenGL ES 3.1. pyglet
runs on OpenGL ES when the window's ``Config`` says ``opengl_api="gles"``: it then asks
EGL or GLX for an ES context (pyglet/gl/headless.py, pyglet/gl/xlib.py) and rewrites
every shader's first line to ``#version 310 es`` with ``precision mediump float``
(``ShaderSource`` in pyglet/graphics/shader.py) — so OpenGL ES **3.1** is the least it can
use, and plain OpenGL 3.1 is no use to it.

`open_window` therefore tries, in order, `CANDIDATES` — OpenGL 3.3 core, then OpenGL ES 3.1
— each single-buffered first when asked (a frame can then repaint only what changed) and
then double-buffered, and keeps the first window whose context is made and whose shaders
compile. When none works it raises `GLContextError`, whose message says what was tried
and what the screens need; the commands print it and exit 1.

``WUZI_GL=gl`` or ``WUZI_GL=gles`` limits the list to one API (to check the ES path on a
machine that has both, or to skip a driver that misbehaves on the other).

Call after `wuzi.display.headless.prepare` (this imports ``pyglet.window``).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pyglet.window

__all__ = ["CANDIDATES", "NEEDS", "Candidate", "GLContextError", "candidates", "open_window"]


@dataclass(frozen=True)
class Candidate:
    """One kind of context to ask for."""

    name: str
    api: str  # pyglet's Config.opengl_api: "gl" or "gles"
    major: int
    minor: int


CANDIDATES = (
    Candidate("OpenGL 3.3 core", "gl", 3, 3),
    Candidate("OpenGL ES 3.1", "gles", 3, 1),
)

NEEDS = (
    "the screens need OpenGL 3.3 core or OpenGL ES 3.1; a Raspberry Pi 4 or 5 gives "
    "OpenGL ES 3.1 with its V3D driver (dtoverlay=vc4-kms-v3d), a Pi 3 or older is not enough"
)


class GLContextError(RuntimeError):
    """No context good enough: the message says what was tried and what is needed."""


def candidates() -> tuple[Candidate, ...]:
    """`CANDIDATES`, limited to one API by ``WUZI_GL`` when it is set."""
    forced = os.environ.get("WUZI_GL", "").strip().lower()
    if not forced:
        return CANDIDATES
    if forced not in ("gl", "gles"):
        raise GLContextError(f"WUZI_GL must be 'gl' or 'gles', not {forced!r}")
    return tuple(c for c in CANDIDATES if c.api == forced)


def _highp_on_gles() -> None:
    """Make pyglet's ES shaders ``precision highp float``, not ``mediump``.

    pyglet 2.1 puts ``precision mediump float;`` in every shader on ES, vertex shaders
    too (``ShaderSource.__init__``). A driver may then compute positions in 16-bit floats
    (Mesa does, here): beyond x = 1024 a vertex lands only on whole pixels and beyond 2048
    on every other one, so a 1920-wide scoreboard's board lines come out doubled or
    missing. OpenGL ES 3.x requires highp in both vertex and fragment shaders, so asking
    for it is always allowed; the picture then matches desktop OpenGL's."""
    from pyglet.graphics import shader

    source_class: Any = shader.ShaderSource
    if getattr(source_class, "_wuzi_highp", False):
        return
    original = source_class.__init__

    def __init__(self: Any, source: str, source_type: Any) -> None:
        original(self, source, source_type)
        self._lines = [
            "precision highp float;" if line.strip() == "precision mediump float;" else line
            for line in self._lines
        ]

    source_class.__init__ = __init__
    source_class._wuzi_highp = True


def _reason(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    if len(text) > 120:
        text = text[:117] + "..."
    return text or type(exc).__name__


def open_window(
    *, single_buffer_first: bool, **window_args: Any
) -> tuple[pyglet.window.Window, bool, Candidate]:
    """A window on the first context of `candidates` that works: returns (window,
    single_buffered, candidate). ``window_args`` go to ``pyglet.window.Window`` (not
    ``config``). Raises `GLContextError` when none works."""
    import pyglet
    import pyglet.window
    from pyglet.gl import ConfigException, ContextException
    from pyglet.gl.lib import GLException, MissingFunctionException
    from pyglet.graphics.shader import ShaderException

    failures = (
        pyglet.window.NoSuchConfigException,
        ConfigException,
        ContextException,
        GLException,
        MissingFunctionException,
        ShaderException,  # a BaseException in pyglet 2.1
    )
    tried: list[str] = []
    buffering = (False, True) if single_buffer_first else (True,)
    for candidate in candidates():
        if candidate.api == "gles":
            _highp_on_gles()
        reasons: list[str] = []
        for double_buffer in buffering:
            attributes: dict[str, Any] = {  # typed as floats in pyglet's stubs
                "double_buffer": double_buffer,
                "major_version": candidate.major,
                "minor_version": candidate.minor,
                "opengl_api": candidate.api,
            }
            config = pyglet.gl.Config(**attributes)  # type: ignore[abstract]
            # pyglet.app.run() turns the window event queue off class-wide and never back
            # on; a window made after an event loop has run (a bench, a test) would then
            # dispatch its first resize before it is built and fail ("no attribute 'ubo'").
            pyglet.window.Window._enable_event_queue = True
            try:
                window = pyglet.window.Window(config=config, **window_args)
            except failures as exc:
                reason = _reason(exc)
                if reason not in reasons:
                    reasons.append(reason)
                continue
            return window, not double_buffer, candidate
        tried.append(f"{candidate.name} ({'; '.join(reasons)})")
    raise GLContextError(
        f"no OpenGL context good enough: tried {', '.join(tried) or 'nothing'} ({NEEDS})"
    )
