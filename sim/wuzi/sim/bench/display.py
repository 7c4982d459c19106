"""``wuzi bench display``: the scoreboard's frame time and idle CPU, under software GL.

* ``display.frame_ms_median`` / ``display.frame_ms_p99``: one frame of the sample venue
  (24 tables in play, the bracket) at 1920x1080 with every running clock's face changed
  since the last frame — the view-model update, the batch update and the repaint of what
  changed (`ScoreboardRenderer.draw_changes`), up to ``glFinish`` (so the GL work is
  counted, not just queued). Target: median under 8 ms.
* ``display.idle_cpu_pct``: the real event loop (`run_window`) on the sample venue with
  nothing changing but the clocks, CPU time of the whole process (llvmpipe's threads
  included) per wall second, in % of one core. Target: under 5 %.

Runs off screen (`wuzi.display.headless`: EGL here, else Xvfb). The table-clock display
and arbiter view figures come from ``wuzi.sim.bench.screens`` when it exists.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable

from wuzi.display import headless
from wuzi.sim.bench import screens

Emit = Callable[[str, float, str], None]

WIDTH, HEIGHT = 1920, 1080


def _sample_app(now_ms: int) -> object:
    from wuzi.display.sample import sample_messages
    from wuzi.display.scoreboard_app import ScoreboardApp
    from wuzi.display.scoreboard_model import Pager, VenueModel
    from wuzi.display.scoreboard_render import ScoreboardRenderer

    model = VenueModel()
    for topic, message in sample_messages():
        model.apply(topic, message, now_ms)
    return ScoreboardApp(
        model, ScoreboardRenderer(WIDTH, HEIGHT), Pager(page_ms=0, start_ms=now_ms)
    )


def frame_times_ms(frames: int) -> list[float]:
    """Time of each of ``frames`` frames, each one second of play after the last."""
    from pyglet import gl

    from wuzi.display.scoreboard_app import ScoreboardApp
    from wuzi.display.snapshot import offscreen_window

    window = offscreen_window(WIDTH, HEIGHT)
    try:
        now = 1_000_000
        app = _sample_app(now)
        assert isinstance(app, ScoreboardApp)
        times = []
        for i in range(frames + 5):
            now += 1000
            started = time.perf_counter()
            app.step(now)
            app.renderer.draw_changes()
            gl.glFinish()
            if i >= 5:  # the first frames fill glyph atlases and compile shaders
                times.append((time.perf_counter() - started) * 1000)
        app.renderer.delete()
        return times
    finally:
        window.close()


def idle_cpu_pct(seconds: float) -> float:
    """% of one core the running scoreboard uses while only its clocks change."""
    import pyglet

    from wuzi.display.feed import monotonic_ms
    from wuzi.display.scoreboard_app import ScoreboardApp, run_window

    headless.prepare(snapshot=True)
    window = pyglet.window.Window(WIDTH, HEIGHT, visible=False)  # headless: keeps its pixels
    try:
        app = _sample_app(monotonic_ms())
        assert isinstance(app, ScoreboardApp)
        marks: dict[str, float] = {}

        def start(_dt: float) -> None:
            marks["cpu"], marks["wall"] = time.process_time(), time.perf_counter()
            pyglet.clock.schedule_once(stop, seconds)

        def stop(_dt: float) -> None:
            marks["cpu"] = time.process_time() - marks["cpu"]
            marks["wall"] = time.perf_counter() - marks["wall"]
            pyglet.app.exit()

        pyglet.clock.schedule_once(start, 1.0)  # after the first frames
        run_window(app, window, incremental=True)
        app.renderer.delete()
        return 100.0 * marks["cpu"] / marks["wall"]
    finally:
        window.close()


def run(emit: Emit, quick: bool) -> None:
    headless.prepare(snapshot=True)
    times = frame_times_ms(30 if quick else 300)
    emit("display.frame_ms_median", statistics.median(times), "ms")
    emit("display.frame_ms_p99", statistics.quantiles(times, n=100)[98], "ms")
    emit("display.idle_cpu_pct", idle_cpu_pct(3.0 if quick else 10.0), "%")
    screens.run(emit, quick)
