"""Display tests render with real pyglet, off screen: `wuzi.display.headless` is prepared
here, before any test module imports ``pyglet.window`` (EGL here; Xvfb where EGL fails)."""

from __future__ import annotations

from wuzi.display import headless

headless.prepare(snapshot=True)
