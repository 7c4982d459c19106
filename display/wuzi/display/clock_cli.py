"""``wuzi clock-display``: the big clock beside a table (or on the referee's desk).

    wuzi clock-display --broker URL --table N [--venue ID] [--fullscreen]
    wuzi clock-display --config venue.toml --table N
    wuzi clock-display --sample --snapshot out.png --size 1920x1080
    wuzi clock-display --state FILE.json [--table N] --snapshot out.png

It reads the table's retained ``table/<n>/state`` (and ``assignments/<n>`` for the time
control, ``competition/#`` for the names of the events of a hall of several: the title
names the event of the table's game) — nothing referee-only — and draws the two clocks
only when a face changes (`ClockModel.next_change_ms`). ``--sample`` is a built-in table in play
(`wuzi.display.clock_sample`); ``--state`` a saved state in the scoreboard's format
(`wuzi.display.sample`: a JSON list of ``{topic, payload}``). ``--snapshot`` renders one
frame to a PNG off screen and exits: from the sample or the state file, or from the
broker after ``--wait`` seconds of listening. Exit status 0, 1 on bad input (the message
says which), 2 on a usage error.

The shell parts the arbiter view shares live here too: the source options, the venue
file's broker settings and the event loop that redraws only on change (`run_screen`).
"""

from __future__ import annotations

import argparse
import sys
import time
import urllib.parse
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from wuzi.bus.schemas import Message

if TYPE_CHECKING:
    import pyglet.window

    from wuzi.config.credentials import Role
    from wuzi.config.venue import VenueConfig
    from wuzi.display.feed import BusFeed

__all__ = [
    "CliError",
    "Source",
    "add_source_options",
    "register",
    "run_screen",
    "screen_login",
]

PROG = "wuzi clock-display"
POLL_S = 0.1  # how often the loop drains the feed (cheap when it is empty)
MIN_WAKE_MS = 20  # wake-ups closer together than this share one frame


class CliError(Exception):
    """What stops a screen command; printed after the program's name, exit status 1."""


@dataclass
class Source:
    """Where a screen's messages come from: a broker (with its login) or a fixed list."""

    broker: str | None
    venue: str | None
    username: str | None
    password: str | None
    ca_file: str | None
    config: VenueConfig | None
    messages: list[tuple[str, Message, int]]  # offline: (topic, message, age_ms)
    login_source: str | None = None  # where the password came from, for the start-up log


def add_source_options(p: argparse.ArgumentParser) -> None:
    """The options every screen shares with ``wuzi scoreboard``."""
    source = p.add_argument_group("source (one of; --config may go with --broker)")
    source.add_argument("--broker", metavar="URL", help="mqtt://[user:pass@]host[:port]")
    source.add_argument(
        "--config", metavar="VENUE.TOML", help="the venue file: broker, venue id, referees"
    )
    source.add_argument("--sample", action="store_true", help="a built-in sample (no broker)")
    source.add_argument(
        "--state", metavar="FILE.json", help="a saved state: a JSON list of {topic, payload}"
    )
    p.add_argument(
        "--venue", metavar="ID", help="venue id (default: the config's, or the first seen)"
    )
    p.add_argument(
        "--screen-name",
        metavar="NAME",
        help="this screen's stable name on the bus (default: its kind and this machine's "
        "name, e.g. clock3-<machine>); with --config also its broker account, listed in "
        "[screens] live; with --snapshot only when given; the arbiter view of a --referee "
        "is named by the referee",
    )
    p.add_argument("--snapshot", metavar="OUT.png", help="render one frame to a PNG and exit")
    p.add_argument("--size", default="1920x1080", metavar="WxH", help="window/snapshot size")
    p.add_argument("--fullscreen", action="store_true", help="a full-screen window")
    p.add_argument(
        "--wait",
        type=float,
        default=2.0,
        metavar="S",
        help="with --broker and --snapshot: listen S seconds before the frame (default 2)",
    )


def resolve_source(
    args: argparse.Namespace, sample: Callable[[], list[tuple[str, Message, int]]]
) -> Source:
    """The source the options name; `CliError` if they do not name exactly one."""
    from wuzi.display.sample import StateFileError, load_state_file

    offline = [args.sample, bool(args.state)]
    if sum(offline) + bool(args.broker or args.config) != 1:
        raise CliError("give one of --broker URL, --config VENUE.TOML, --sample, --state FILE")
    if args.wait < 0:
        raise CliError("--wait must be 0 or more seconds")
    messages: list[tuple[str, Message, int]] = []
    if args.sample:
        messages = sample()
    elif args.state:
        try:
            messages = [(t, m, 0) for t, m in load_state_file(args.state)]
        except StateFileError as exc:
            raise CliError(str(exc)) from None
    source = Source(args.broker, args.venue, None, None, None, None, messages)
    if args.config:
        from wuzi.config.venue import ConfigError, load_venue

        try:
            config = load_venue(args.config)
        except ConfigError as exc:
            raise CliError(str(exc)) from None
        source.config = config
        source.broker = source.broker or config.broker.url
        source.venue = source.venue or config.id
        source.ca_file = config.broker.ca_file
    return source


def screen_login(source: Source, args: argparse.Namespace, role: Role, name: str | None) -> None:
    """Fill in ``source``'s broker login from its venue file: the account of screen
    ``name`` (``wuzi.<venue>.screen.<name>``, listed in ``[screens] live`` or, for
    ``role`` ``screen-public``, ``public``; docs/security.md). ``name`` None (a snapshot
    without ``--screen-name``) has no account: the shared ``[broker]`` login or anonymous,
    under a throwaway id. A ``--broker`` URL with its own ``user:password@`` is used as
    given. `CliError` for a screen the venue file does not list (saying where to add it)."""
    if source.config is None or source.broker is None:
        return
    if args.broker and url_has_login(args.broker):
        return
    from wuzi.config.credentials import login, shared_login
    from wuzi.config.venue import ConfigError

    try:
        if name is None:
            found = shared_login(source.config, "(throwaway)", "a snapshot has no account")
        else:
            found = login(source.config, role, name)
    except (ConfigError, ValueError) as exc:
        raise CliError(str(exc)) from None
    source.username, source.password = found.username, found.password
    source.login_source = found.source


def url_has_login(url: str) -> bool:
    """Whether a broker URL names a user (then it is used as given)."""
    try:
        return urllib.parse.urlsplit(url).username is not None
    except ValueError:
        return False


def screen_name(args: argparse.Namespace, kind: str) -> str | None:
    """The stable bus name of a running screen (``--screen-name``, else ``<kind>-<machine>``);
    for a snapshot only ``--screen-name`` (None without it): a one-off look logs in with a
    screen's account only when told which, and never keeps a session (`open_feed`)."""
    from wuzi.bus.identity import machine_name

    given: str | None = getattr(args, "screen_name", None)
    if getattr(args, "snapshot", None):
        return given
    return given or f"{kind}-{machine_name()}"


def open_feed(
    source: Source,
    filters: Sequence[str],
    *,
    referee: bool = False,
    name: str | None = None,
    snapshot: bool = False,
) -> BusFeed:
    """The screen's feed; with ``name`` and a known venue the stable id (and account)
    ``wuzi.<venue>.<screen|referee>.<name>``, with a persistent session (messages queued
    while it is away) unless it is a snapshot; else a throwaway clean session."""
    from wuzi.bus.url import BusConfigError
    from wuzi.display.feed import BusFeed

    assert source.broker is not None
    log_bus_state()
    try:
        return BusFeed(
            source.broker,
            source.venue,
            filters,
            name=name if source.venue is not None else None,
            persistent=False if snapshot else None,
            referee=referee,
            username=source.username,
            password=source.password,
            login_source=source.login_source,
            ca_file=source.ca_file,
        )
    except (BusConfigError, ValueError) as exc:
        raise CliError(f"broker: {exc}") from None


def log_bus_state() -> None:
    """Let the bus client's start-up line (who this screen is on the broker, and where its
    password came from) and its changes of state reach stderr, as every process's do: a
    screen configures no logging of its own, and Python would show warnings only."""
    import logging

    if not logging.getLogger().handlers:
        logging.basicConfig(format="%(asctime)s %(name)s %(levelname)s %(message)s")
    logging.getLogger("wuzi.bus").setLevel(logging.INFO)


def listen(feed: BusFeed, wait_s: float) -> list[tuple[str, Message, int]]:
    """Start ``feed``, listen ``wait_s`` seconds (retained messages come at once) and
    return what came, as (topic, message, received_ms) — for a snapshot from a broker."""
    feed.start()
    feed.wait_subscribed(max(wait_s, 0.1))
    time.sleep(wait_s)
    return [(item.topic, item.message, item.received_ms) for item in feed.drain()]


class Screen(Protocol):
    """What `run_screen` drives: a model and a renderer behind three calls."""

    def step(self, now_ms: int) -> bool:
        """Fold in what arrived and update the renderer; True if a frame must be drawn."""
        ...

    def next_wake_ms(self, now_ms: int) -> int:
        """Milliseconds until something visible changes with no new message."""
        ...

    def draw(self) -> None:
        """The whole frame, from a cleared window."""
        ...

    def draw_changes(self) -> None:
        """Only what changed since the last draw, over the previous frame."""
        ...

    def layout(self, width: int, height: int) -> None: ...


def run_screen(
    screen: Screen,
    window: pyglet.window.Window,
    *,
    polling: bool,
    now: Callable[[], int],
    incremental: bool = False,
) -> None:
    """Drive ``screen`` in ``window`` until it is closed: no fixed frame rate — a frame is
    drawn when `Screen.step` says so, when the window is exposed or resized, and the loop
    sleeps until the next visible change (or the next look at the feed when ``polling``).
    ``incremental``: the framebuffer keeps its pixels between frames (single-buffered, or
    headless), so a tick repaints only the digits that changed."""
    import pyglet

    dirty = [True]  # the whole window must be drawn (first frame, expose, resize)

    def on_draw() -> None:
        if incremental and not dirty[0]:
            screen.draw_changes()
        else:
            screen.draw()
        dirty[0] = False
        if incremental:
            pyglet.gl.glFlush()

    def on_resize(width: int, height: int) -> None:
        w, h = window.get_framebuffer_size()
        screen.layout(w, h)
        dirty[0] = True
        pyglet.clock.schedule_once(wake, 0)

    def on_expose() -> None:
        dirty[0] = True
        pyglet.clock.schedule_once(wake, 0)

    def wake(_dt: float) -> None:
        at = now()
        if screen.step(at) or dirty[0]:
            window.draw(0.0)
        pyglet.clock.unschedule(wake)
        delay_ms = max(MIN_WAKE_MS, screen.next_wake_ms(now()))
        if polling:
            delay_ms = min(delay_ms, round(POLL_S * 1000))
        pyglet.clock.schedule_once(wake, delay_ms / 1000)

    window.push_handlers(on_draw=on_draw, on_resize=on_resize, on_expose=on_expose)
    wake(0.0)
    try:
        pyglet.app.run(interval=None)
    finally:
        pyglet.clock.unschedule(wake)
        window.remove_handlers(on_draw=on_draw, on_resize=on_resize, on_expose=on_expose)


def make_window(
    width: int, height: int, caption: str, fullscreen: bool
) -> tuple[pyglet.window.Window, bool]:
    """A window, single-buffered when the GL driver offers one (then a tick repaints only
    the digits); returns (window, incremental)."""
    from wuzi.display.glcontext import GLContextError, open_window

    size: dict[str, Any] = {} if fullscreen else {"width": width, "height": height}
    extra: dict[str, Any] = {"fullscreen": True} if fullscreen else {"resizable": True}
    try:
        window, incremental, _candidate = open_window(
            single_buffer_first=True, caption=caption, **size, **extra
        )
    except GLContextError as exc:
        raise CliError(str(exc)) from None
    return window, incremental


# --- the clock display --------------------------------------------------------------------


class ClockScreen:
    """The clock display's glue: feed items -> `ClockModel` -> `ClockRenderer`."""

    def __init__(self, table: int, width: int, height: int, feed: BusFeed | None = None) -> None:
        from wuzi.display.clock_model import ClockModel
        from wuzi.display.clock_render import ClockRenderer

        self.model = ClockModel(table)
        self.renderer = ClockRenderer()
        self.renderer.layout(0, 0, width, height)
        self.feed = feed
        self.frames = 0

    def apply(self, items: Sequence[tuple[str, Message, int]]) -> bool:
        changed = False
        for topic, message, received_ms in items:
            changed |= self.model.apply(topic, message, received_ms)
        return changed

    def step(self, now_ms: int) -> bool:
        if self.feed is not None:
            self.apply([(i.topic, i.message, i.received_ms) for i in self.feed.drain()])
        return self.renderer.update(self.model.face(now_ms))

    def next_wake_ms(self, now_ms: int) -> int:
        return self.model.next_change_ms(now_ms)

    def layout(self, width: int, height: int) -> None:
        self.renderer.layout(0, 0, width, height)

    def draw(self) -> None:
        self.renderer.draw()
        self.frames += 1

    def draw_changes(self) -> None:
        self.renderer.draw_changes()
        self.frames += 1


def _sample() -> list[tuple[str, Message, int]]:
    from wuzi.display.clock_sample import sample_clock_messages

    return [(t, m, 0) for t, m in sample_clock_messages()]


def _first_table(messages: Sequence[tuple[str, Message, int]]) -> int | None:
    from wuzi.bus.topics import TopicKind, parse_topic

    for topic, _message, _age in messages:
        where = parse_topic(topic)
        if where.kind is TopicKind.TABLE_STATE and where.table is not None:
            return where.table
    return None


def snapshot(
    draw_screen: Callable[[int, int], Screen], size: tuple[int, int], path: str, now_ms: int
) -> None:
    """One frame of the screen ``draw_screen(width, height)`` makes, to ``path``."""
    from wuzi.display.glcontext import GLContextError
    from wuzi.display.snapshot import render_to_png

    def draw(window: Any) -> None:
        w, h = window.get_framebuffer_size()
        screen = draw_screen(w, h)
        screen.step(now_ms)
        window.clear()
        screen.draw()

    try:
        render_to_png(draw, size[0], size[1], path)
    except GLContextError as exc:
        raise CliError(str(exc)) from None
    except OSError as exc:
        raise CliError(f"cannot write {path}: {exc}") from None


def _command(args: argparse.Namespace) -> int:
    try:
        return _run(args)
    except CliError as exc:
        print(f"{PROG}: {exc}", file=sys.stderr)
        return 1


def prepare(snapshot_mode: bool) -> None:
    from wuzi.display import headless

    try:
        headless.prepare(snapshot=snapshot_mode)
    except headless.HeadlessError as exc:
        raise CliError(str(exc)) from None


def parse_window_size(text: str) -> tuple[int, int]:
    from wuzi.display.snapshot import SnapshotError, parse_size

    try:
        return parse_size(text)
    except SnapshotError as exc:
        raise CliError(str(exc)) from None


def _run(args: argparse.Namespace) -> int:
    from wuzi.bus import topics

    source = resolve_source(args, _sample)
    size = parse_window_size(args.size)
    table = args.table
    if table is None and source.messages:
        from wuzi.display.clock_sample import SAMPLE_TABLE

        table = SAMPLE_TABLE if args.sample else _first_table(source.messages)
    if table is None:
        raise CliError("--table N is required (the table whose clock to show)")
    try:
        topics.check_table(table)
    except topics.TopicError as exc:
        raise CliError(str(exc)) from None
    prepare(bool(args.snapshot))
    from wuzi.display.feed import monotonic_ms

    # competition/#: the events' names, for the title in a hall of several events
    filters = (f"table/{table}/state", f"assignments/{table}", "competition/#")
    name = screen_name(args, f"clock{table}")
    screen_login(source, args, "screen", name)  # a live screen: it reads table/<n>/state
    snap = bool(args.snapshot)
    feed = None if source.broker is None else open_feed(source, filters, name=name, snapshot=snap)
    start = monotonic_ms()
    items = [(t, m, start - age) for t, m, age in source.messages]
    if args.snapshot:
        if feed is not None:
            try:
                items = listen(feed, args.wait)
            finally:
                feed.close()

        def make(width: int, height: int) -> Screen:
            screen = ClockScreen(table, width, height)
            screen.apply(items)
            return screen

        snapshot(make, size, args.snapshot, start if feed is None else monotonic_ms())
        return 0
    window, incremental = make_window(
        size[0], size[1], f"wuzi clock · table {table}", args.fullscreen
    )
    w, h = window.get_framebuffer_size()
    screen = ClockScreen(table, w, h, feed)
    screen.apply(items)
    if feed is not None:
        feed.start()
    try:
        run_screen(
            screen, window, polling=feed is not None, now=monotonic_ms, incremental=incremental
        )
    finally:
        if feed is not None:
            feed.close()
    return 0


def register(subparsers: Any) -> None:
    """Add ``wuzi clock-display`` to the ``wuzi`` command."""
    p = subparsers.add_parser(
        "clock-display",
        help="the big clock display of one table (pyglet)",
        description=(
            "Two big clocks of one table: the running side, flags, moves, pause and result; "
            "tenths under 10 s. Reads table/<n>/state (and assignments/<n>)."
        ),
    )
    add_source_options(p)
    p.add_argument("--table", type=int, metavar="N", help="the table (required with a broker)")
    p.set_defaults(func=_command)
