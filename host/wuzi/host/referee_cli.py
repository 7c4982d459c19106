"""``wuzi referee send``: a referee's signed command, to one host's socket or to the bus.

    wuzi referee send --config venue.toml --referee NAME
        (--token-file F | --password-file F) (--socket PATH | --broker)
        (--table N [--game ID] | --all) ACTION [KEY=VALUE ...]

The command is built as an `ArbiterCommand` (a uuid4 ``command_id``, ``issued_ms`` from
the wall clock), its arguments are checked as the host will check them
(`wuzi.host.commands.check_args`), it is signed with the referee's key
(`wuzi.host.referee_signing`; a password is first checked against the venue file's hash, so a
mistyped one fails here and not at the host) and then:

* signed for one game: a command for one table names the game it is for (a host
  refuses it on a table that plays another game, so it cannot be replayed into the next
  one). ``--game ID`` names it; without it the table's current game is asked of the
  host (``--socket``: the control socket's games query) or read from the table's
  retained state on the broker (``--broker``). ``--all`` names no game.

* ``--socket PATH``: written to the host's local control socket (`wuzi.host.control`);
  the host's reply is printed; exit 0 if the host accepted it, else 1. This works with
  the network down, at the Pi.
* ``--broker``: published on the venue's ``arbiter/commands`` topic (QoS 1), logging in
  to the broker with the referee's sending account (user and client id
  ``wuzi.<venue>.referee-send.NAME``, the password or the token as the broker password;
  the arbiter view has ``wuzi.<venue>.referee.NAME``, so the two never push each other
  off); exit 0 once the broker acknowledged it, 1 if it cannot be reached (or
  refuses the login) within ``--timeout``. Each host verifies and obeys it by itself.

Values: an integer (``delta_ms=-30000``) becomes a JSON integer, ``null`` null, anything
else a string (``old=h8``). Every error exits 1 with ``wuzi referee send: <what is
wrong>``; secrets never appear in messages.
"""

from __future__ import annotations

import argparse
import sys
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

from wuzi.bus import topics
from wuzi.bus.client import BusClient
from wuzi.bus.identity import client_id
from wuzi.bus.schemas import ArbiterCommand, Message, TableState, encode
from wuzi.bus.url import BusConfigError
from wuzi.config.venue import ConfigError, VenueConfig, load_venue
from wuzi.host.commands import ACTION_ARGS
from wuzi.host.control import ControlError, ask_games, send_line
from wuzi.host.referee_signing import (
    SendError,
    build_command,
    check_command,
    find_referee,
    key_and_secret,
    parse_values,
)

__all__ = ["main", "register", "send"]

PROG = "wuzi referee send"
RETAINED_WAIT_S = 2.0
"""How long ``--broker`` waits for the table's retained state once subscribed."""


def _broker_client(
    venue: VenueConfig,
    referee: str,
    password: str,
    source: str,
    timeout_s: float,
    on_sent: Callable[[str], None] | None = None,
) -> BusClient:
    account = client_id(venue.id, "referee-send", referee)
    try:
        return BusClient(
            venue.broker.url,
            account,
            username=account,
            password=password,
            login_source=source,
            ca_file=venue.broker.ca_file,
            on_sent=on_sent,
            refused_max_s=timeout_s,  # a one-shot command: retry within its timeout
        )
    except (BusConfigError, ValueError) as exc:
        raise SendError(f"broker: {exc}") from None


def _retained_game(
    venue: VenueConfig, table: int, referee: str, password: str, source: str, timeout_s: float
) -> str | None:
    """The game table ``table`` plays, from its retained state on the broker (what its
    host last published); `SendError` when it cannot be read."""
    got: list[TableState] = []
    arrived = threading.Event()

    def keep(_topic: str, message: Message) -> None:
        if isinstance(message, TableState):
            got.append(message)
            arrived.set()

    client = _broker_client(venue, referee, password, source, timeout_s)
    where = f"{client.address.host}:{client.address.port}"
    client.subscribe(topics.table_state(venue.id, table), keep)
    client.connect()
    try:
        if not client.wait_connected(timeout_s) or not client.wait_subscribed(timeout_s):
            raise SendError(
                f"cannot reach the broker at {where} within {timeout_s:g} s to read table"
                f" {table}'s game: give --game ID"
            )
        if not arrived.wait(min(timeout_s, RETAINED_WAIT_S)):
            raise SendError(
                f"the broker at {where} holds no state of table {table} (is its host"
                " running?): give --game ID, the game on the table's screen"
            )
    finally:
        client.close()
    return got[-1].game_id


def _game_of(args: argparse.Namespace, venue: VenueConfig, secret: str, source: str) -> str | None:
    """The game the command is for: ``--game``, else the table's current game."""
    if args.all and args.game is not None:
        raise SendError(
            f"a command for every table names no game (not {args.game!r}): give --table N"
        )
    if args.all:
        return None
    if args.game is not None:
        return str(args.game)
    if args.socket is None:
        return _retained_game(venue, args.table, args.referee, secret, source, args.timeout)
    try:
        games = ask_games(args.socket, args.timeout)
    except ControlError as exc:
        raise SendError(f"{exc}: give --game ID") from None
    if args.table not in games:
        served = ", ".join(str(n) for n in sorted(games)) or "none"
        raise SendError(f"the host at {args.socket} does not serve table {args.table} ({served})")
    return games[args.table]


def _publish(
    venue: VenueConfig,
    cmd: ArbiterCommand,
    password: str,
    source: str,
    timeout_s: float,
) -> str:
    """Publish ``cmd`` logged in as the referee's sending account,
    ``wuzi.<venue>.referee-send.<name>`` (also its client id): an account of its own, so
    that sending never pushes the referee's arbiter view (``wuzi.<venue>.referee.<name>``)
    off the broker; two sends of one referee at once take turns (docs/security.md)."""
    topic = topics.arbiter_commands(venue.id)
    acknowledged = threading.Event()
    account = client_id(venue.id, "referee-send", cmd.referee)
    client = _broker_client(
        venue, cmd.referee, password, source, timeout_s, lambda _key: acknowledged.set()
    )
    where = f"{client.address.host}:{client.address.port}"
    deadline = time.monotonic() + timeout_s
    client.connect()
    try:
        if not client.wait_connected(timeout_s):
            raise SendError(
                f"cannot reach the broker at {where} within {timeout_s:g} s"
                f" (down, unreachable, or it refused the login of {account!r})"
            )
        client.publish(topic, cmd, key=cmd.command_id)
        if not acknowledged.wait(max(0.0, deadline - time.monotonic())):
            raise SendError(f"the broker at {where} did not acknowledge within {timeout_s:g} s")
    finally:
        client.close()
    return topic


def send(args: argparse.Namespace) -> int:
    """The ``wuzi referee send`` command (argparse namespace in, exit status out)."""
    try:
        return _send(args)
    except SendError as exc:
        print(f"{PROG}: {exc}", file=sys.stderr)
        return 1


def _send(args: argparse.Namespace) -> int:
    if args.timeout <= 0:
        raise SendError("--timeout must be a positive number of seconds")
    try:
        venue = load_venue(args.config)
    except ConfigError as exc:
        raise SendError(str(exc)) from None
    referee = find_referee(venue, args.referee)
    key, secret = key_and_secret(referee, args.token_file, args.password_file)
    source = (
        f"--token-file {args.token_file}"
        if args.token_file is not None
        else f"--password-file {args.password_file}"
    )
    table, values = None if args.all else args.table, parse_values(args.values)
    check_command(venue, args.action, table, values)  # before asking anyone the game
    cmd = build_command(
        venue,
        referee.name,
        key,
        args.action,
        table,
        values,
        issued_ms=time.time_ns() // 1_000_000,
        game_id=_game_of(args, venue, secret, source),
    )
    if args.socket is not None:
        try:
            reply = send_line(args.socket, encode(cmd), args.timeout)
        except ControlError as exc:
            raise SendError(str(exc)) from None
        if not reply["ok"]:
            raise SendError(f"the host refused {cmd.command_id}: {reply['message']}")
        print(reply["message"] or f"ok {cmd.command_id}")
        return 0
    topic = _publish(venue, cmd, secret, source, args.timeout)
    print(f"published {cmd.command_id} on {topic}")
    return 0


def _help(parser: argparse.ArgumentParser) -> Any:
    def show(_args: argparse.Namespace) -> int:
        parser.print_help()
        return 2

    return show


def _actions_help() -> str:
    lines = []
    for action, specs in ACTION_ARGS.items():
        words = [name if spec.required else f"[{name}]" for name, spec in specs.items()]
        lines.append(f"  {action} {' '.join(words)}".rstrip())
    return "actions and their arguments ([optional]):\n" + "\n".join(lines)


def register(subparsers: Any) -> None:
    """Add ``wuzi referee send`` to the ``wuzi`` command."""
    referee = subparsers.add_parser(
        "referee",
        help="referees' commands to the table hosts",
        description="Referees' commands to the table hosts (signed; docs/referee.md).",
    )
    sub = referee.add_subparsers(dest="referee_command", metavar="SUBCOMMAND")
    referee.set_defaults(func=_help(referee))
    p = sub.add_parser(
        "send",
        help="send one signed command to a host's socket or over the venue broker",
        description=(
            "Build, sign and send one referee command. Values: integers, null, else text."
        ),
        epilog=_actions_help(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--config", required=True, metavar="VENUE.TOML", help="the venue file")
    p.add_argument("--referee", required=True, metavar="NAME", help="a [[referees]] name")
    secret = p.add_mutually_exclusive_group(required=True)
    secret.add_argument("--token-file", metavar="F", help="the referee's token file")
    secret.add_argument("--password-file", metavar="F", help="a file holding the password")
    route = p.add_mutually_exclusive_group(required=True)
    route.add_argument("--socket", metavar="PATH", help="a host's local control socket")
    route.add_argument(
        "--broker", action="store_true", help="publish on the venue broker (from the config)"
    )
    where = p.add_mutually_exclusive_group(required=True)
    where.add_argument("--table", type=int, metavar="N", help="the table addressed")
    where.add_argument("--all", action="store_true", help="every table of the venue")
    p.add_argument(
        "--game",
        metavar="ID",
        help=(
            "with --table: the game the command is for (signed with it; a host refuses it"
            " on a table playing another game). Default: the table's current game, asked"
            " of the host (--socket) or read from its retained state (--broker)"
        ),
    )
    p.add_argument(
        "--timeout",
        type=float,
        default=10.0,
        metavar="S",
        help="seconds to wait for the host's reply or the broker (default 10)",
    )
    p.add_argument("action", metavar="ACTION", help="pause, resume, adjust-time, … (below)")
    p.add_argument("values", nargs="*", metavar="KEY=VALUE", help="the action's arguments")
    p.set_defaults(func=send)


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``wuzi referee …`` on its own (tests; ``wuzi`` itself uses `register`)."""
    parser = argparse.ArgumentParser(prog="wuzi")
    register(parser.add_subparsers(dest="command", metavar="COMMAND"))
    args = parser.parse_args(argv)
    func = getattr(args, "func", None)
    if func is None:
        parser.print_help()
        return 2
    return int(func(args))
