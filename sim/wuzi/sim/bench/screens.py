"""Bench figures of the table clock display and the arbiter view (``wuzi bench display``
calls `run` after the scoreboard's figures).

* ``display.clock_frame_ms_median`` / ``_p99``: one frame of the clock display at
  1920x1080 a second later on a running clock (a tick): view model, renderer update and
  the incremental repaint of the digits, up to ``glFinish``.
  ``display.clock_full_frame_ms_median``: the same frame drawn whole (after an expose,
  or on a double-buffered window).
* ``display.arbiter_frame_ms_median`` / ``_p99``: one frame of the arbiter sample (twelve
  tables, eight alerts, the focused board with its forbidden points) at 1920x1080 in
  which the focused table's running clock ticked — what the screen does most;
  ``display.arbiter_full_frame_ms_median`` the same drawn whole.
* ``display.arbiter_move_frame_ms_median``: a frame after a new stone on the focused
  table: its board rebuilt and Black's forbidden points computed for the new position.
* ``display.clock_idle_cpu_pct``: the real event loop (`clock_cli.run_screen`) of the
  clock display with one running clock (a face change per second), CPU of the process per
  wall second, in % of one core.

Off screen (`wuzi.display.headless`), software GL here. No pass/fail: figures only.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from wuzi.display import headless

__all__ = ["run"]

Emit = Callable[[str, float, str], None]
WIDTH, HEIGHT = 1920, 1080
WARM_UP = 5


def _p99(values: list[float]) -> float:
    return statistics.quantiles(values, n=100)[98] if len(values) >= 2 else values[0]


def clock_frame_times_ms(frames: int, *, full: bool) -> list[float]:
    """Frames of the clock display, each one second later on a running clock (a tick),
    repainted incrementally (only the digits), or whole (``full``)."""
    from pyglet import gl

    from wuzi.bus import topics
    from wuzi.display.clock_model import ClockModel
    from wuzi.display.clock_render import ClockRenderer
    from wuzi.display.clock_sample import SAMPLE_TABLE, sample_clock_state
    from wuzi.display.sample import SAMPLE_VENUE
    from wuzi.display.snapshot import offscreen_window

    window = offscreen_window(WIDTH, HEIGHT)
    try:
        renderer = ClockRenderer()
        renderer.layout(0, 0, WIDTH, HEIGHT)
        model = ClockModel(SAMPLE_TABLE)
        state = replace(sample_clock_state(), black_ms=3_000_000)
        model.apply(topics.table_state(SAMPLE_VENUE, SAMPLE_TABLE), state, 0)
        renderer.update(model.face(0))
        renderer.draw()
        times: list[float] = []
        for i in range(frames + WARM_UP):
            started = time.perf_counter()
            renderer.update(model.face(1000 * (i + 1)))
            if full:
                renderer.draw()
            else:
                renderer.draw_changes()
            gl.glFinish()
            if i >= WARM_UP:
                times.append((time.perf_counter() - started) * 1000)
        return times
    finally:
        window.close()


def _arbiter_setup(now_ms: int) -> tuple[Any, Any]:
    from wuzi.display.arbiter_model import ArbiterModel
    from wuzi.display.arbiter_render import ArbiterRenderer
    from wuzi.display.arbiter_sample import (
        SAMPLE_ACKED,
        SAMPLE_FOCUS,
        SAMPLE_SELECTED,
        sample_arbiter_messages,
    )

    model = ArbiterModel(focus=SAMPLE_FOCUS)
    for topic, message, age in sample_arbiter_messages():
        model.apply(topic, message, now_ms - age)
    for key in SAMPLE_ACKED:
        model.acknowledge(key)
    model.selected_key = SAMPLE_SELECTED
    return model, ArbiterRenderer(WIDTH, HEIGHT, title="bench")


def arbiter_frame_times_ms(frames: int, *, moves: bool, full: bool = False) -> list[float]:
    """Frames of the arbiter sample: the focused clock ticking each second, or (``moves``)
    a new stone on the focused table before each frame; repainted incrementally (a tick:
    the digits only) or whole (``full``)."""
    from pyglet import gl

    from wuzi.bus import topics
    from wuzi.display.sample import SAMPLE_VENUE
    from wuzi.display.snapshot import offscreen_window
    from wuzi.rules.board import POINTS

    window = offscreen_window(WIDTH, HEIGHT)
    try:
        now = 10_000_000
        model, renderer = _arbiter_setup(now)
        renderer.update(model.frame(now))
        renderer.draw()
        table = model.tables[model.focus]
        base = table.state
        free = [p for p in range(POINTS) if p not in base.moves]
        topic = topics.table_state(SAMPLE_VENUE, model.focus)
        times: list[float] = []
        for i in range(frames + WARM_UP):
            now += 1000
            if moves:
                played = base.moves + tuple(free[: i % 40 + 1])
                model.apply(topic, replace(base, moves=played, seq=base.seq + i + 1), now)
            started = time.perf_counter()
            renderer.update(model.frame(now))
            if full:
                renderer.draw()
            else:
                renderer.draw_changes()
            gl.glFinish()
            if i >= WARM_UP:
                times.append((time.perf_counter() - started) * 1000)
        return times
    finally:
        window.close()


def clock_idle_cpu_pct(seconds: float) -> float:
    import pyglet
    import pyglet.window

    from wuzi.bus import topics
    from wuzi.display.clock_cli import ClockScreen, run_screen
    from wuzi.display.clock_sample import SAMPLE_TABLE, sample_clock_state
    from wuzi.display.feed import monotonic_ms
    from wuzi.display.sample import SAMPLE_VENUE

    window = pyglet.window.Window(WIDTH, HEIGHT, visible=False)
    try:
        screen = ClockScreen(SAMPLE_TABLE, WIDTH, HEIGHT)
        state = replace(sample_clock_state(), black_ms=3_600_000)
        screen.apply([(topics.table_state(SAMPLE_VENUE, SAMPLE_TABLE), state, monotonic_ms())])
        marks: dict[str, float] = {}

        def start(_dt: float) -> None:
            marks["cpu"], marks["wall"] = time.process_time(), time.perf_counter()
            marks["frames"] = screen.frames
            pyglet.clock.schedule_once(stop, seconds)

        def stop(_dt: float) -> None:
            marks["cpu"] = time.process_time() - marks["cpu"]
            marks["wall"] = time.perf_counter() - marks["wall"]
            pyglet.app.exit()

        pyglet.clock.schedule_once(start, 1.0)
        run_screen(screen, window, polling=True, now=monotonic_ms, incremental=True)
        pyglet.clock.unschedule(start)
        pyglet.clock.unschedule(stop)
        return 100.0 * marks["cpu"] / marks["wall"]
    finally:
        window.close()


def run(emit: Emit, quick: bool) -> None:
    """Emit the figures above (``quick``: fewer frames, a shorter idle run)."""
    headless.prepare(snapshot=True)
    frames = 30 if quick else 200
    clock = clock_frame_times_ms(frames, full=False)
    emit("display.clock_frame_ms_median", statistics.median(clock), "ms")
    emit("display.clock_frame_ms_p99", _p99(clock), "ms")
    whole = clock_frame_times_ms(max(10, frames // 4), full=True)
    emit("display.clock_full_frame_ms_median", statistics.median(whole), "ms")
    arbiter = arbiter_frame_times_ms(frames, moves=False)
    emit("display.arbiter_frame_ms_median", statistics.median(arbiter), "ms")
    emit("display.arbiter_frame_ms_p99", _p99(arbiter), "ms")
    arbiter_whole = arbiter_frame_times_ms(max(10, frames // 4), moves=False, full=True)
    emit("display.arbiter_full_frame_ms_median", statistics.median(arbiter_whole), "ms")
    moved = arbiter_frame_times_ms(max(10, frames // 4), moves=True)
    emit("display.arbiter_move_frame_ms_median", statistics.median(moved), "ms")
    emit("display.clock_idle_cpu_pct", clock_idle_cpu_pct(3.0 if quick else 10.0), "%")
