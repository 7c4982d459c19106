"""``wuzi arbiter``: the referees' screen — every table's alerts, one board, commands.

    wuzi arbiter --broker URL --config venue.toml --referee NAME --token-file F [--table N]
    wuzi arbiter --config venue.toml --referee NAME --password-file F
    wuzi arbiter --broker URL                      (read-only: no commands)
    wuzi arbiter --config venue.toml --event men    (one event's tables of a hall of several)
    wuzi arbiter --sample --snapshot out.png --size 1920x1080

It subscribes to ``arbiter/#`` (referee states, alerts), ``table/+/state``,
``host/+/status``, ``assignments/+`` (the rule set, for the forbidden points) and
``competition/#`` (the events' names), so the broker's ACL must give this login the
referees' rights (docs/bus.md). In a hall of several events each alert and the focused
board name the table's event (its state's or assignment's ``event_id``, else the venue
file's ``[[events]] tables``); ``--event ID`` keeps to that event's tables. With
``--referee`` and a key (``--token-file`` or ``--password-file``, checked as ``wuzi
referee send`` checks them; ``--config`` is then required, it holds the referees) the
referee's commands are signed and published on ``arbiter/commands``, and the broker
login defaults to the referee's view account (user and client id
``wuzi.<venue>.referee.NAME``, the token or password; ``wuzi referee send --broker`` has
``…referee-send.NAME``, so the two never push each other off; a second view of the same
referee does take the first one's place); a user in the URL wins. Without them the screen
is read-only, under a throwaway id with the shared login or anonymously (the demo).

Keys: ↑/↓ select an alert (the board follows its table), space acknowledges it on this
screen, [ and ] change the focused table, ``:`` opens the command prompt, P/R pause and
resume, B/b and W/w add or take 30 s, 1/2/= set a result, N starts the next game; every
command is shown first and sent on Enter (Escape drops it). A mouse click selects an
alert, or puts a board point's name into the prompt. Exit status 0, 1 on bad input, 2 on
a usage error.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from wuzi.bus.schemas import Message
from wuzi.display.clock_cli import (
    CliError,
    Screen,
    add_source_options,
    listen,
    make_window,
    open_feed,
    parse_window_size,
    prepare,
    resolve_source,
    run_screen,
    screen_login,
    snapshot,
    url_has_login,
)

if TYPE_CHECKING:
    import pyglet.window

    from wuzi.config.venue import VenueConfig
    from wuzi.display.arbiter_commands import CommandDesk, CommandIntent, Signer
    from wuzi.display.arbiter_model import ArbiterModel
    from wuzi.display.feed import BusFeed
    from wuzi.rules.ruleset import RuleSet

__all__ = ["FILTERS", "ArbiterScreen", "register", "venue_tables"]

PROG = "wuzi arbiter"
FILTERS = ("arbiter/#", "table/+/state", "host/+/status", "assignments/+", "competition/#")


def wall_ms() -> int:
    return time.time_ns() // 1_000_000


class ArbiterScreen:
    """The arbiter view's glue: feed -> `ArbiterModel`; keys -> `CommandDesk` -> signed
    commands on the feed; frame -> `ArbiterRenderer`."""

    def __init__(
        self,
        model: ArbiterModel,
        desk: CommandDesk,
        width: int,
        height: int,
        *,
        title: str = "",
        feed: BusFeed | None = None,
        signer: Signer | None = None,
        venue: str | None = None,
    ) -> None:
        from wuzi.display.arbiter_render import ArbiterRenderer

        self.model, self.desk = model, desk
        self.renderer = ArbiterRenderer(width, height, title=title)
        self.feed, self.signer, self.venue = feed, signer, venue
        self.frames = 0
        self.sent: list[Any] = []  # the commands published (tests, the log)

    def apply(self, items: Sequence[tuple[str, Message, int]]) -> bool:
        changed = False
        for topic, message, received_ms in items:
            changed |= self.model.apply(topic, message, received_ms)
        return changed

    def step(self, now_ms: int) -> bool:
        if self.feed is not None:
            self.apply([(i.topic, i.message, i.received_ms) for i in self.feed.drain()])
        self.model.prompt = self.desk.line()
        self.model.status = self.desk.status
        return self.renderer.update(self.model.frame(now_ms))

    def next_wake_ms(self, now_ms: int) -> int:
        return self.model.next_change_ms(now_ms)

    def layout(self, width: int, height: int) -> None:
        self.renderer.layout(width, height)
        self.renderer.frame = None

    def draw(self) -> None:
        self.renderer.draw()
        self.frames += 1

    def draw_changes(self) -> None:
        self.renderer.draw_changes()
        self.frames += 1

    def send(self, intent: CommandIntent) -> None:
        """Sign ``intent`` now and publish it; the desk says what happened."""
        from wuzi.bus import topics
        from wuzi.bus.url import BusConfigError
        from wuzi.display.arbiter_commands import PromptError

        venue = self.venue or (self.feed.venue if self.feed is not None else None)
        if self.signer is None or self.feed is None or venue is None:
            self.desk.failed("no broker, signer or venue (read-only screen)")
            return
        try:
            game_id = self.model.game_of(intent.table)
            command = self.signer.command(intent, issued_ms=wall_ms(), game_id=game_id)
            self.feed.publish(topics.arbiter_commands(venue), command)
        except (PromptError, BusConfigError) as exc:
            self.desk.failed(str(exc))
            return
        self.sent.append(command)
        self.desk.sent(command)


def _bind_input(screen: ArbiterScreen, window: pyglet.window.Window) -> None:
    import pyglet
    from pyglet.window import key, mouse

    from wuzi.display.arbiter_commands import handle_key, handle_text
    from wuzi.display.feed import monotonic_ms
    from wuzi.rules.board import point_name

    names = {
        key.UP: "up",
        key.DOWN: "down",
        key.ENTER: "enter",
        key.RETURN: "enter",
        key.ESCAPE: "escape",
        key.BACKSPACE: "backspace",
        key.PAGEUP: "pageup",
        key.PAGEDOWN: "pagedown",
    }

    def refresh() -> None:
        if screen.step(monotonic_ms()):
            window.draw(0.0)

    def on_key_press(symbol: int, _modifiers: int) -> Any:
        name = names.get(symbol)
        if name is None:
            return None
        intent = handle_key(screen.model, screen.desk, name, monotonic_ms())
        if intent is not None:
            screen.send(intent)
        refresh()
        return pyglet.event.EVENT_HANDLED  # Escape must not close the window

    def on_text(text: str) -> None:
        handle_text(screen.model, screen.desk, text, monotonic_ms())
        refresh()

    def on_mouse_press(x: int, y: int, button: int, _modifiers: int) -> None:
        if button != mouse.LEFT:
            return
        scale = window.get_framebuffer_size()[0] / max(1, window.width)
        fx, fy = x * scale, y * scale
        now = monotonic_ms()
        found = screen.renderer.alert_at(fx, fy)
        if found is not None:
            for alert in screen.model.alerts(now):
                if alert.key == found:
                    screen.model.select(alert)
        else:
            point = screen.renderer.point_at(fx, fy)
            if point is not None and screen.desk.prompt is not None:
                screen.desk.type(point_name(point) + " ")
        refresh()

    window.push_handlers(on_key_press=on_key_press, on_text=on_text, on_mouse_press=on_mouse_press)


def _sample() -> list[tuple[str, Message, int]]:
    from wuzi.display.arbiter_sample import sample_arbiter_messages

    return sample_arbiter_messages()


def venue_tables(config: VenueConfig) -> tuple[dict[int, str], dict[int, RuleSet]]:
    """Each table's event id (tables of an ``[[events]]`` entry) and the rule set it plays
    when nothing else says (its event's defaults over the venue's), from the venue file:
    what the view knows of a table before any game of it is heard."""
    events: dict[int, str] = {}
    rules: dict[int, RuleSet] = {}
    for table in config.tables():
        event = config.event_of_table(table.number)
        if event is not None:
            events[table.number] = event.id
        ruleset = config.defaults_for(table.number).ruleset
        if ruleset is not None:
            rules[table.number] = ruleset
    return events, rules


def _command(args: argparse.Namespace) -> int:
    try:
        return _run(args)
    except CliError as exc:
        print(f"{PROG}: {exc}", file=sys.stderr)
        return 1


def _run(args: argparse.Namespace) -> int:
    from wuzi.bus import topics
    from wuzi.display.arbiter_commands import CommandDesk, PromptError, load_signer
    from wuzi.display.arbiter_model import ArbiterModel

    source = resolve_source(args, _sample)
    size = parse_window_size(args.size)
    if args.table is not None:
        try:
            topics.check_table(args.table)
        except topics.TopicError as exc:
            raise CliError(str(exc)) from None
    if args.stale_seconds <= 0:
        raise CliError("--stale-seconds must be more than 0")
    keyed = args.token_file is not None or args.password_file is not None
    if keyed and args.referee is None:
        raise CliError("--token-file/--password-file need --referee NAME")
    signer = None
    if args.referee is not None:
        if not keyed:
            raise CliError("--referee needs --token-file F or --password-file F to sign")
        if source.config is None:
            raise CliError("--referee needs --config VENUE.TOML (it holds the referees)")
        try:
            signer, secret = load_signer(
                source.config, args.referee, args.token_file, args.password_file
            )
        except PromptError as exc:
            raise CliError(str(exc)) from None
        if source.broker is not None and not url_has_login(source.broker):
            # the referee's view account, wuzi.<venue>.referee.<name> (also its client id);
            # `wuzi referee send` has its own (…referee-send…), so the two never collide
            from wuzi.bus.identity import client_id

            assert source.venue is not None
            try:
                source.username = client_id(source.venue, "referee", signer.referee)
            except ValueError as exc:
                raise CliError(str(exc)) from None
            source.password = secret
            source.login_source = (
                f"--token-file {args.token_file}"
                if args.token_file is not None
                else f"--password-file {args.password_file}"
            )
    rules = None
    table_events: dict[int, str] = {}
    table_rules: dict[int, RuleSet] = {}
    if source.config is not None:
        rules = source.config.defaults.ruleset
        table_events, table_rules = venue_tables(source.config)
    if args.event is not None:
        try:
            topics.check_event(args.event)
            if source.config is not None:
                source.config.event(args.event)
        except topics.TopicError as exc:
            raise CliError(f"--event: {exc}") from None
        except KeyError as exc:
            raise CliError(f"--event: {exc.args[0]}") from None
    focus = args.table
    if focus is None and args.sample:
        from wuzi.display.arbiter_sample import SAMPLE_FOCUS

        focus = SAMPLE_FOCUS
    model = ArbiterModel(
        focus=focus,
        default_rule_set=rules,
        stale_after_ms=round(args.stale_seconds * 1000),
        event=args.event,
        table_events=table_events,
        table_rules=table_rules,
    )
    if signer is not None:
        desk = CommandDesk()
    else:
        desk = CommandDesk(enabled=False, disabled_reason="no --referee key: commands are off")
    prepare(bool(args.snapshot))
    from wuzi.display.feed import monotonic_ms

    # A referee's view is the referee's account, named by the referee; a read-only view
    # has no account: a throwaway id, the shared [broker] login or anonymous (the demo)
    name = signer.referee if signer is not None else None
    if signer is None:
        screen_login(source, args, "screen", None)
    snap = bool(args.snapshot)
    feed = None
    if source.broker is not None:
        feed = open_feed(source, FILTERS, referee=True, name=name, snapshot=snap)
    title = " · ".join(x for x in (signer.referee if signer else "", source.venue or "") if x)
    start = monotonic_ms()
    items = [(t, m, start - age) for t, m, age in source.messages]
    if args.sample:
        from wuzi.display.arbiter_sample import SAMPLE_ACKED, SAMPLE_SELECTED
        from wuzi.display.sample import SAMPLE_VENUE

        for key in SAMPLE_ACKED:
            model.acknowledge(key)
        model.selected_key = SAMPLE_SELECTED
        title = title or SAMPLE_VENUE
    if args.snapshot:
        if feed is not None:
            try:
                items = listen(feed, args.wait)
            finally:
                feed.close()

        def make(width: int, height: int) -> Screen:
            screen = ArbiterScreen(model, desk, width, height, title=title)
            screen.apply(items)
            return screen

        snapshot(make, size, args.snapshot, start if feed is None else monotonic_ms())
        return 0
    window, incremental = make_window(size[0], size[1], "wuzi arbiter", args.fullscreen)
    w, h = window.get_framebuffer_size()
    screen = ArbiterScreen(
        model, desk, w, h, title=title, feed=feed, signer=signer, venue=source.venue
    )
    screen.apply(items)
    _bind_input(screen, window)
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
    """Add ``wuzi arbiter`` to the ``wuzi`` command."""
    p = subparsers.add_parser(
        "arbiter",
        help="the referees' screen: alerts of every table, one board, signed commands",
        description=(
            "Alerts from every table by urgency (acknowledge locally), one table's board "
            "with Black's forbidden points, and the referee's commands, signed."
        ),
    )
    add_source_options(p)
    p.add_argument("--table", type=int, metavar="N", help="the table focused at the start")
    p.add_argument(
        "--event",
        metavar="ID",
        help="a hall of several events: keep to this event's tables (default: every table, "
        "each named with its event)",
    )
    p.add_argument("--referee", metavar="NAME", help="a [[referees]] name of the venue file")
    secret = p.add_mutually_exclusive_group()
    secret.add_argument("--token-file", metavar="F", help="the referee's token file")
    secret.add_argument("--password-file", metavar="F", help="a file holding the password")
    p.add_argument(
        "--stale-seconds",
        type=float,
        default=600.0,
        metavar="S",
        help="a running clock with no news for S seconds is a stale-clock alert (600)",
    )
    p.set_defaults(func=_command)
