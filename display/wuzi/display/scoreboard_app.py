"""The scoreboard's loop: feed -> delay -> view model -> renderer, drawing only on change.

`ScoreboardApp` is the glue and holds no logic of its own beyond *when*: `step(now_ms)`
folds in what the feed delivered (through the delay buffer), works out the page, updates
the renderer and says whether a frame must be drawn; `next_wake_ms` says when something
visible changes next if no message comes — a clock face rolling over, a table turning
stale, the page turning, a delayed message falling due. `run_window` drives it from
pyglet's event loop with no fixed frame rate: the window is redrawn only when `step`
says so (and when the system asks, e.g. after an expose).

Import after `wuzi.display.headless.prepare` (it imports pyglet.window through the
renderer).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pyglet
import pyglet.window
from pyglet.window import key

from wuzi.display import glcontext
from wuzi.display.delay import DelayBuffer
from wuzi.display.feed import BusFeed, FeedItem, monotonic_ms
from wuzi.display.scoreboard_model import LABELS, Page, Pager, VenueModel, build_pages
from wuzi.display.scoreboard_render import ScoreboardRenderer

__all__ = ["POLL_S", "ScoreboardApp", "run_window"]

POLL_S = 0.1  # how often the loop looks at the feed's queue (cheap when it is empty)
FRAME_MS = 25  # wake-ups closer than this are folded into one frame
SECONDS_GRID_MS = 250
TENTHS_GRID_MS = 100


def _on_grid(due_ms: int, tenths: bool) -> int:
    """``due_ms`` moved up to the next multiple of a frame grid, so that the faces of many
    tables changing within one slot share one frame: at most 4 frames a second while the
    faces show seconds (each at most 250 ms late), 10 while one shows tenths."""
    grid = TENTHS_GRID_MS if tenths else SECONDS_GRID_MS
    return -(-due_ms // grid) * grid


@dataclass
class ScoreboardApp:
    model: VenueModel
    renderer: ScoreboardRenderer
    pager: Pager
    feed: BusFeed | None = None
    delay: DelayBuffer = field(default_factory=lambda: DelayBuffer(0))
    focus: int | None = None
    footer: str = ""
    page_kind: str | None = None  # show the first page of this kind and hold it (snapshots)
    event: str | None = None  # keep to this event's pages (a hall of several events)
    frames: int = 0
    _shown: tuple[int, Page | None] | None = None
    _due_ms: int = 0

    def feed_items(self, items: list[FeedItem], now_ms: int) -> bool:
        """Fold ``items`` in through the delay; True if the model changed."""
        for item in items:
            self.delay.push(item)
        changed = False
        for item in self.delay.release(now_ms):
            changed |= self.model.apply(item.topic, item.message, item.received_ms)
        return changed

    def current_page(self, now_ms: int) -> Page | None:
        pages = build_pages(
            self.model,
            tables_per_page=self.renderer.tables_per_page,
            standings_rows=self.renderer.standings_rows,
            focus=self.focus,
            event=self.event,
        )
        if self.page_kind is not None:
            chosen = [p for p in pages if p.kind == self.page_kind]
            return chosen[0] if chosen else None
        if not pages:
            return None
        return pages[self.pager.index(len(pages), now_ms)]

    def step(self, now_ms: int, *, force: bool = False) -> bool:
        """Take in the feed, update the renderer; True if a frame should be drawn now."""
        items = self.feed.drain() if self.feed is not None else []
        changed = self.feed_items(items, now_ms)
        page = self.current_page(now_ms)
        shown = (self.model.version, page)
        if not (force or changed or shown != self._shown or now_ms >= self._due_ms):
            return False
        self._shown = shown
        message = ""
        if self.delay.warming_up(now_ms):
            message = LABELS["warming"]
        elif page is None or (page.kind == "tables" and not page.tables):
            message = LABELS["no_data"]
        notice = ""
        if self.delay.delay_ms:
            notice = LABELS["delayed"].format(m=f"{self.delay.delay_ms / 60_000:g}")
        footer = self.footer or self.model.venue or ""
        if self.feed is not None and not self.feed.connected:
            footer = f"{footer}   ⚠ 未连接 broker not connected"
        self.renderer.show(page, self.model, now_ms, footer=footer, notice=notice, message=message)
        tables = page.tables if page is not None and not message else ()
        due = _on_grid(
            self.model.next_change_ms(tables, now_ms), self.model.shows_tenths(tables, now_ms)
        )
        if self.focus is None and self.page_kind is None:
            due = min(due, self.pager.next_turn_ms(now_ms))
        release = self.delay.next_release_ms()
        if release is not None:
            due = min(due, release)
        self._due_ms = due
        return True

    def next_wake_ms(self) -> int:
        """When the next frame is due with no new message (local monotonic ms)."""
        return self._due_ms

    def pending(self) -> bool:
        """Messages are waiting in the feed, or the delay has one due."""
        if self.feed is not None and self.feed.waiting():
            return True
        release = self.delay.next_release_ms()
        return release is not None and release <= monotonic_ms()


def open_window(width: int, height: int, *, fullscreen: bool) -> tuple[pyglet.window.Window, bool]:
    """A scoreboard window, single-buffered if the GL driver offers it (then frames can
    repaint only what changed); returns (window, incremental). OpenGL 3.3 core, else
    OpenGL ES 3.1: `wuzi.display.glcontext.GLContextError` when neither."""
    caption = "Wuzi scoreboard 记分牌"
    size: dict[str, int] = {} if fullscreen else {"width": width, "height": height}
    window, incremental, _candidate = glcontext.open_window(
        single_buffer_first=True, fullscreen=fullscreen, caption=caption, **size
    )
    return window, incremental


def run_window(app: ScoreboardApp, window: pyglet.window.Window, *, incremental: bool) -> None:
    """Run ``app`` in ``window`` until it is closed (or Escape). ``incremental``: the
    framebuffer keeps its content between frames (single-buffered or headless), so a frame
    repaints only what changed; otherwise every frame is drawn whole."""

    def on_draw() -> None:
        if incremental:
            app.renderer.draw_changes()
            pyglet.gl.glFlush()
        else:
            window.clear()
            app.renderer.draw()
        app.frames += 1

    def on_expose() -> None:
        app.renderer.invalidate()
        wake(0.0, force=True)

    def on_resize(width: int, height: int) -> None:
        fb_width, fb_height = window.get_framebuffer_size()
        if (fb_width, fb_height) != (app.renderer.width, app.renderer.height):
            app.renderer.delete()
            app.renderer = ScoreboardRenderer(fb_width, fb_height)
            wake(0.0, force=True)

    def on_key_press(symbol: int, _modifiers: int) -> None:
        if symbol in (key.RIGHT, key.PAGEDOWN, key.SPACE):
            app.pager.step(1)
        elif symbol in (key.LEFT, key.PAGEUP):
            app.pager.step(-1)
        elif symbol == key.ESCAPE:
            window.close()
            pyglet.app.exit()
            return
        else:
            return
        wake(0.0, force=True)

    def frame(force: bool = False) -> None:
        if app.step(monotonic_ms(), force=force) and app.renderer.dirty:
            window.draw(0.0)
        pyglet.clock.unschedule(wake)
        delay_ms = max(FRAME_MS, app.next_wake_ms() - monotonic_ms())
        pyglet.clock.schedule_once(wake, delay_ms / 1000)

    def wake(_dt: float, force: bool = False) -> None:
        frame(force)

    def poll(_dt: float) -> None:
        if app.pending():
            frame()

    window.push_handlers(
        on_draw=on_draw, on_expose=on_expose, on_resize=on_resize, on_key_press=on_key_press
    )
    frame(force=True)
    pyglet.clock.schedule_interval(poll, POLL_S)
    try:
        pyglet.app.run(interval=None)
    finally:
        pyglet.clock.unschedule(wake)
        pyglet.clock.unschedule(poll)
        window.remove_handlers(
            on_draw=on_draw, on_expose=on_expose, on_resize=on_resize, on_key_press=on_key_press
        )
        # pyglet.app.run switches the window event queue off for good (class-wide); a
        # window made afterwards (the next bench, a test) then dispatches its first resize
        # before it is fully built and fails. Put it back.
        pyglet.window.Window._enable_event_queue = True
