"""``wuzi scoreboard``: the venue scoreboard window, or one frame of it as a PNG.

Live::

    wuzi scoreboard --broker mqtt://broker:1883 [--venue ID] [--public] [--fullscreen]
                    [--delay-minutes N] [--page-seconds S] [--focus TABLE] [--event ID]
    wuzi scoreboard --config venue.toml          # broker URL, credentials and venue id

One frame, no broker and no display needed (pyglet's headless EGL mode, else Xvfb)::

    wuzi scoreboard --sample --snapshot out.png --size 1920x1080 [--page bracket]
    wuzi scoreboard --sample hall --snapshot out.png [--event men] [--page standings]
    wuzi scoreboard --state saved.json --snapshot out.png
    wuzi scoreboard --sample --save-state sample.json   # the saved-state format, to edit
    wuzi scoreboard --broker URL --snapshot out.png [--listen-seconds 2]  # the live venue

Without ``--venue`` the screen subscribes with ``+`` in the venue level and keeps the
venue of the first message. It reads ``table/+/state`` (``public/table/+/state`` with
``--public``), ``host/+/status``, ``assignments/+`` and ``competition/#`` (the one-event
``competition/state`` and each event's ``competition/<event>/state``) — never anything
under ``arbiter/``. A hall of several events is cycled through event by event (each
event's tables, bracket and standings under its name); ``--event ID`` keeps to one.
Exit status 0, 1 on bad input (the message says what), 2 on a usage error.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

__all__ = ["FILTERS", "PUBLIC_FILTERS", "register"]

FILTERS = ("table/+/state", "host/+/status", "assignments/+", "competition/#")
PUBLIC_FILTERS = ("public/table/+/state", "host/+/status", "assignments/+", "competition/#")
PAGE_KINDS = ("tables", "bracket", "standings", "events")
SAMPLES = ("team", "hall")


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "scoreboard",
        help="the venue scoreboard screen (pyglet)",
        description="Every table live, the bracket and the standings on rotating pages.",
    )
    source = p.add_argument_group("source (one of)")
    source.add_argument("--broker", metavar="URL", help="mqtt://[user:pass@]host[:port]")
    source.add_argument(
        "--config", metavar="VENUE.TOML", help="take the broker and venue id from a venue file"
    )
    source.add_argument(
        "--sample",
        nargs="?",
        const="team",
        choices=SAMPLES,
        help="a built-in sample venue: team (the default: a team knockout) or hall (three "
        "events at once: the 2019 open's groups)",
    )
    source.add_argument(
        "--state", metavar="FILE.json", help="a saved state: a JSON list of {topic, payload}"
    )
    p.add_argument("--venue", metavar="ID", help="venue id (default: from the first message)")
    p.add_argument(
        "--screen-name",
        metavar="NAME",
        help="this screen's stable name on the bus (default: scoreboard-<machine>, "
        "scoreboard-public-<machine> with --public); needs the venue (--venue or --config); "
        "with --config it is also the screen's broker account, listed in [screens] live (or "
        "public with --public); with --snapshot only when given",
    )
    p.add_argument(
        "--public", action="store_true", help="read the delayed hall feed public/table/+/state"
    )
    p.add_argument(
        "--delay-minutes",
        type=float,
        default=0.0,
        metavar="N",
        help="show everything N minutes late (public screens)",
    )
    p.add_argument(
        "--page-seconds",
        type=float,
        default=15.0,
        metavar="S",
        help="turn the page every S seconds (0: hold; default 15)",
    )
    p.add_argument("--focus", type=int, metavar="TABLE", help="show one table only, large")
    p.add_argument(
        "--event",
        metavar="ID",
        help="a hall of several events: show this event only (its tables, bracket and "
        "standings; default: each event in turn)",
    )
    p.add_argument("--fullscreen", action="store_true", help="full screen window")
    p.add_argument(
        "--stale-seconds",
        type=float,
        default=600.0,
        metavar="S",
        help="a running table with no news for S seconds is marked stale (default 600)",
    )
    p.add_argument("--snapshot", metavar="OUT.png", help="render one frame to a PNG and exit")
    p.add_argument(
        "--listen-seconds",
        type=float,
        default=2.0,
        metavar="S",
        help="with --broker and --snapshot: listen S seconds before the frame (default 2)",
    )
    p.add_argument(
        "--size", default="1920x1080", metavar="WxH", help="window/snapshot size (1920x1080)"
    )
    p.add_argument(
        "--page", choices=PAGE_KINDS, help="with --snapshot: which page (default: the first)"
    )
    p.add_argument(
        "--save-state", metavar="FILE.json", help="with --sample/--state: write it and exit"
    )
    p.set_defaults(func=_command)


def _screen_name(args: argparse.Namespace, kind: str) -> str | None:
    """This screen's name on the bus and its account (`wuzi.display.clock_cli.screen_name`)."""
    from wuzi.display.clock_cli import screen_name

    return screen_name(args, kind)


def _fail(message: str) -> int:
    print(f"wuzi scoreboard: {message}", file=sys.stderr)
    return 1


def _command(args: argparse.Namespace) -> int:
    from wuzi.display.delay import DelayBuffer, DelayError
    from wuzi.display.sample import StateFileError, load_state_file, sample_messages, state_json
    from wuzi.display.snapshot import SnapshotError, parse_size

    sources = [bool(args.broker), bool(args.config), bool(args.sample), bool(args.state)]
    if sum(sources) != 1 and not (args.broker and args.config):
        return _fail("give one of --broker URL, --config VENUE.TOML, --sample, --state FILE")
    offline = bool(args.sample or args.state)
    if args.save_state and not offline:
        return _fail("--save-state needs --sample or --state")
    try:
        width, height = parse_size(args.size)
        delay = DelayBuffer.minutes(args.delay_minutes)
    except (SnapshotError, DelayError) as exc:
        return _fail(str(exc))
    if args.page_seconds < 0 or args.stale_seconds <= 0 or args.listen_seconds < 0:
        return _fail("--page-seconds and --listen-seconds must be >= 0, --stale-seconds > 0")
    if args.focus is not None and not 1 <= args.focus <= 9999:
        return _fail(f"--focus must be a table number 1-9999, not {args.focus}")
    if args.event is not None:
        from wuzi.bus.topics import TopicError, check_event

        try:
            check_event(args.event)
        except TopicError as exc:
            return _fail(f"--event: {exc}")
    messages = []
    if offline:
        try:
            if args.sample == "hall":
                from wuzi.display.sample_hall import sample_hall_messages

                messages = sample_hall_messages()
            elif args.sample:
                messages = sample_messages()
            else:
                messages = load_state_file(args.state)
        except StateFileError as exc:
            return _fail(str(exc))
        if args.save_state:
            Path(args.save_state).write_text(state_json(messages), encoding="utf-8")
            return 0
    broker, venue = args.broker, args.venue
    username = password = ca_file = login_source = None
    kind = "scoreboard-public" if args.public else "scoreboard"
    name = _screen_name(args, kind)
    if args.config:
        from wuzi.config.venue import ConfigError, load_venue
        from wuzi.display.clock_cli import CliError, Source, screen_login

        try:
            config = load_venue(args.config)
        except ConfigError as exc:
            return _fail(str(exc))
        broker = broker or config.broker.url
        venue = venue or config.id
        source = Source(broker, venue, None, None, None, config, [])
        try:  # this screen's own account, wuzi.<venue>.screen.<name> (docs/security.md)
            screen_login(source, args, "screen-public" if args.public else "screen", name)
        except CliError as exc:
            return _fail(str(exc))
        username, password, login_source = source.username, source.password, source.login_source
        ca_file = config.broker.ca_file

    from wuzi.display import headless

    try:
        headless.prepare(snapshot=bool(args.snapshot))
    except headless.HeadlessError as exc:
        return _fail(str(exc))
    from wuzi.display.feed import BusFeed, monotonic_ms
    from wuzi.display.glcontext import GLContextError
    from wuzi.display.scoreboard_app import ScoreboardApp, open_window, run_window
    from wuzi.display.scoreboard_model import Pager, VenueModel
    from wuzi.display.scoreboard_render import ScoreboardRenderer
    from wuzi.display.snapshot import render_to_png

    model = VenueModel(stale_after_ms=round(args.stale_seconds * 1000))
    now = monotonic_ms()
    for topic, message in messages:
        model.apply(topic, message, now)
    pager = Pager(page_ms=round(args.page_seconds * 1000), start_ms=now)
    feed = None
    if not offline:
        from wuzi.bus.url import BusConfigError
        from wuzi.display.clock_cli import log_bus_state

        log_bus_state()
        try:
            # a running screen keeps a persistent session under a stable id (its account);
            # a snapshot is a one-off look and must not leave a session queueing on the broker
            feed = BusFeed(
                broker,
                venue,
                PUBLIC_FILTERS if args.public else FILTERS,
                name=name if venue is not None else None,
                persistent=False if args.snapshot else None,
                username=username,
                password=password,
                login_source=login_source,
                ca_file=ca_file,
            )
        except BusConfigError as exc:
            return _fail(str(exc))
        feed.start()
    if args.snapshot:
        if feed is not None:  # what the broker holds now (retained) plus S seconds of news
            feed.wait_subscribed(max(1.0, args.listen_seconds))
            time.sleep(args.listen_seconds)
            feed.close()
            now = monotonic_ms()
            for item in feed.drain():
                model.apply(item.topic, item.message, item.received_ms)

        def draw(window: Any) -> None:
            w, h = window.get_framebuffer_size()
            renderer = ScoreboardRenderer(w, h)
            app = ScoreboardApp(
                model,
                renderer,
                pager,
                focus=args.focus,
                footer=model.venue or "",
                page_kind=args.page,
                event=args.event,
            )
            app.step(now, force=True)
            window.clear()
            renderer.draw()
            renderer.delete()

        try:
            render_to_png(draw, width, height, args.snapshot)
        except GLContextError as exc:
            return _fail(str(exc))
        except OSError as exc:
            return _fail(f"cannot write {args.snapshot}: {exc}")
        return 0

    if headless.mode() != "display":
        print(
            f"wuzi scoreboard: no display ($DISPLAY unset): running off screen ({headless.mode()})",
            file=sys.stderr,
        )
    try:
        try:
            window, incremental = open_window(width, height, fullscreen=args.fullscreen)
        except GLContextError as exc:
            return _fail(str(exc))
        w, h = window.get_framebuffer_size()
        delay.start(now)
        app = ScoreboardApp(
            model,
            ScoreboardRenderer(w, h),
            pager,
            feed=feed,
            delay=delay,
            focus=args.focus,
            footer=venue or "",
            event=args.event,
        )
        run_window(app, window, incremental=incremental)
    finally:
        if feed is not None:
            feed.close()
    return 0
