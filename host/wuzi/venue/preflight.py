"""``wuzi venue check``: the technician's preflight of one host on the morning of an event.

``wuzi venue check --config VENUE.TOML [--host ID] [--timeout S]`` validates the venue
file, then for each table of this host opens the board and the clock (a clock unit's port,
or the GPIO pins), asks each device's INFO and checks its kind and the serial the venue
file expects (``board_serial``, ``clock_serial``); then it logs in to the broker with the
host's check account, ``wuzi.<venue>.check.<id>`` (the host's password, an account and
client id of its own: `wuzi.config.credentials`), and publishes the host's status, not
retained, with MQTT 5 so that a publish the broker's ACL refuses is seen. Output, one
line per table, then one for the broker::

    event E (NAME): tables …; RULES, opening O, time control T; database …; director …
    table N: ok board SERIAL (firmware V, protocol P) clock unit SERIAL (firmware V, protocol P)
    table N: ok board SERIAL (firmware V, protocol P) clock gpio (buttons B/W/C, display CLK/DIO)
    table N: FAIL <problem>[; <problem>…]        each problem starts with "board PORT:",
                                                  "clock PORT:" or "clock gpio (…):"
    broker: ok as USER
    broker: FAIL <reason>

The ``event`` lines come only from a venue file with ``[[events]]``, one per event
(`wuzi.venue.event_check`): its tables, what they play after the defaults, whether its
database is there and its director's password file readable. They are information for
the technician, not part of the verdict (both files belong on the directors' machines).
Exit 0 when every table and the broker line is ok, 1 otherwise (and with ``wuzi venue
check: <what is wrong>`` when the venue file or the host id cannot be used), 2 on a usage
error.

It never disturbs a running host: devices are opened exclusively, as the host opens them,
so a port the host holds is a FAIL that says so; on the broker it logs in with the check
account, never the host's, because the broker (``use_username_as_clientid``) gives a
login its account's session and would drop the running host for the host's own login;
and when any port of this host was busy the status is not published (the host's own
status stands) — the login alone is checked. The check account has the host's password
and may write only the host's status, so a good check says the host's password and its
status topic work; the host's other rights come from the same generated ACL.
"""

from __future__ import annotations

import argparse
import os
import socket
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from wuzi.config.venue import TableConfig, VenueConfig

__all__ = ["PROG", "add_check", "check_broker", "check_table", "run_check"]

PROG = "wuzi venue check"
DEFAULT_TIMEOUT_S = 2.0


@dataclass(frozen=True)
class TableResult:
    number: int
    ok: bool
    text: str  # after "table N: "
    busy: bool = False  # a port was held by another process


def _device(
    port: str, want: str, expected_serial: str | None, timeout_s: float
) -> tuple[str | None, str, bool]:
    """(problem or None, description, busy) for one serial device of a table."""
    from wuzi.io.discovery import PortBusy, ProbeError, probe

    role = "board" if want == "board" else "clock"
    try:
        info = probe(port, timeout_s)
    except PortBusy as exc:
        return f"{role} {exc}", "", True
    except ProbeError as exc:
        return f"{role} {exc}", "", False
    what = f"{info.serial} (firmware {info.firmware}, protocol {info.protocol})"
    if info.refused is not None:  # the host's own refusal, in its words
        return f"{role} {info.refused}", "", False
    if info.kind != want:
        found = "a sensor board" if info.kind == "board" else f"a {info.kind} unit"
        wanted = "a sensor board" if want == "board" else "a clock unit"
        return f"{role} {port}: {found} (serial {info.serial}), not {wanted}", "", False
    if expected_serial is not None and info.serial != expected_serial:
        key = "board_serial" if want == "board" else "clock_serial"
        return (
            f"{role} {port}: serial {info.serial}, the venue file's {key} is {expected_serial}",
            "",
            False,
        )
    return None, what, False


def _gpio(table: TableConfig) -> tuple[str | None, str]:
    pins = table.clock_gpio
    assert pins is not None
    name = (
        f"gpio (buttons {pins.black_button}/{pins.white_button}/{pins.claim_button}, "
        f"display {pins.clk}/{pins.dio})"
    )
    try:
        from wuzi.io.gpio_clock import GpioClock

        clock = GpioClock(
            buttons=(pins.black_button, pins.white_button, pins.claim_button),
            displays=((pins.clk, pins.dio),),
        )
    except Exception as exc:  # gpiozero's errors: no pin factory, a pin in use, no such pin
        reason = str(exc) or type(exc).__name__
        return f"clock {name}: {reason}", name
    clock.close()
    return None, name


def check_table(table: TableConfig, timeout_s: float) -> TableResult:
    """Open one table's board and clock, as the host would, and judge what answers."""
    problems: list[str] = []
    busy = False
    board_problem, board, board_busy = _device(
        table.board_port, "board", table.board_serial, timeout_s
    )
    busy = busy or board_busy
    if board_problem is not None:
        problems.append(board_problem)
    if table.clock_port is not None:
        clock_problem, clock_info, clock_busy = _device(
            table.clock_port, "clock", table.clock_serial, timeout_s
        )
        busy = busy or clock_busy
        clock = f"clock unit {clock_info}"
    else:
        clock_problem, gpio_name = _gpio(table)
        clock = f"clock {gpio_name}"
    if clock_problem is not None:
        problems.append(clock_problem)
    if problems:
        return TableResult(table.number, False, "FAIL " + "; ".join(problems), busy)
    return TableResult(table.number, True, f"ok board {board} {clock}", busy)


def check_broker(
    venue: VenueConfig, host_id: str, timeout_s: float, publish: bool = True
) -> tuple[bool, str]:
    """Log in to the venue broker with host ``host_id``'s check account (its password, an
    account and client id of its own: a running host is never pushed off) and publish the
    host's status (not retained, QoS 1, MQTT 5: a publish the ACL refuses comes back "not
    authorized")."""
    from wuzi.bus import topics
    from wuzi.bus.schemas import HostStatus, encode
    from wuzi.config.credentials import login
    from wuzi.config.venue import ConfigError

    try:
        account = login(venue, "check", host_id)  # never the host's: no takeover
    except ConfigError as exc:
        return False, f"FAIL {exc}"
    username, password = account.username, account.password
    broker = venue.broker
    user = username if username is not None else f"(anonymous: {account.source})"
    where = f"{broker.host}:{broker.port}"
    host = venue.host(host_id)
    tables = tuple(t.number for t in host.tables)
    status = HostStatus(host_id, False, tables, f"check-{os.getpid()}", int(time.time() * 1000))
    topic = topics.host_status(venue.id, host_id)
    return _mqtt_round(
        where,
        broker.host,
        broker.port,
        broker.tls,
        broker.ca_file,
        username,
        password,
        account.client_id,  # the check account's own id: the running host stays
        (topic, encode(status)) if publish else None,
        user,
        timeout_s,
    )


def _mqtt_round(
    where: str,
    host: str,
    port: int,
    tls: bool,
    ca_file: str | None,
    username: str | None,
    password: str | None,
    client_id: str,
    message: tuple[str, bytes] | None,
    user: str,
    timeout_s: float,
) -> tuple[bool, str]:
    import paho.mqtt.client as mqtt
    from paho.mqtt.enums import CallbackAPIVersion

    done = threading.Event()
    result: dict[str, Any] = {}

    def on_connect(_c: Any, _u: Any, _f: Any, reason: Any, _p: Any) -> None:
        result["connect"] = reason
        done.set()

    def on_publish(_c: Any, _u: Any, mid: int, reason: Any, _p: Any) -> None:
        result["puback"] = reason
        done.set()

    def on_disconnect(_c: Any, _u: Any, _f: Any, reason: Any, _p: Any) -> None:
        result.setdefault("disconnect", reason)
        done.set()

    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id, protocol=mqtt.MQTTv5)
    client.on_connect = on_connect
    client.on_publish = on_publish
    client.on_disconnect = on_disconnect
    if username is not None:
        client.username_pw_set(username, password)
    if tls and ca_file is not None:
        from wuzi.bus.tls import CaFileError, check_ca_file

        try:
            check_ca_file(ca_file, time.time())
        except CaFileError as exc:
            return False, f"FAIL {exc}"
    try:
        if tls:
            client.tls_set(ca_certs=ca_file)
        client.connect(host, port, keepalive=max(5, int(timeout_s) + 5))
    except (OSError, ValueError) as exc:
        reason = getattr(exc, "strerror", None) or str(exc) or type(exc).__name__
        return False, f"FAIL cannot reach {where}: {reason}"
    client.loop_start()
    try:
        if not done.wait(timeout_s) or "connect" not in result:
            why = result.get("disconnect")
            extra = f" ({why})" if why is not None else ""
            return False, f"FAIL no answer from {where} within {timeout_s:g} s{extra}"
        reason = result["connect"]
        if reason.is_failure:
            return False, f"FAIL {where} refused the login as {user}: {reason}"
        if message is None:
            return True, f"ok as {user}"
        done.clear()
        topic, payload = message
        client.publish(topic, payload, qos=1, retain=False)
        if not done.wait(timeout_s) or "puback" not in result:
            return False, f"FAIL {where} did not acknowledge {user}'s status within {timeout_s:g} s"
        reason = result["puback"]
        if reason.is_failure:
            return False, f"FAIL {where} refused {user}'s status on {topic}: {reason}"
        return True, f"ok as {user}"
    finally:
        client.disconnect()
        client.loop_stop()


def run_check(
    venue: VenueConfig,
    host_id: str,
    timeout_s: float,
    out: Callable[[str], None] = print,
) -> int:
    """Check every table of ``host_id`` (in parallel), then the broker; 0 if all is ok.
    A venue file with ``[[events]]`` first gets a line per event (`wuzi.venue.event_check`:
    information, never a verdict)."""
    from wuzi.venue.event_check import event_lines

    host = venue.host(host_id)
    for line in event_lines(venue):
        out(line)
    with ThreadPoolExecutor(max_workers=max(1, min(8, len(host.tables)))) as pool:
        results = list(pool.map(lambda t: check_table(t, timeout_s), host.tables))
    for result in results:
        out(f"table {result.number}: {result.text}")
    busy = any(r.busy for r in results)
    broker_ok, text = check_broker(venue, host_id, timeout_s, publish=not busy)
    out(f"broker: {text}")
    return 0 if broker_ok and all(r.ok for r in results) else 1


def _timeout(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not 0 < value <= 60:
        raise argparse.ArgumentTypeError(f"must be more than 0 and at most 60 s, not {text}")
    return value


def _check(args: argparse.Namespace) -> int:
    from wuzi.config import ConfigError, load_venue

    try:
        venue = load_venue(args.config)
    except ConfigError as exc:
        print(f"{PROG}: {exc}", file=sys.stderr)
        return 1
    except OSError as exc:
        print(f"{PROG}: {args.config}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    host_id = args.host or socket.gethostname().split(".")[0].lower()
    known = [h.id for h in venue.hosts]
    if host_id not in known:
        print(
            f"{PROG}: {args.config}: no host {host_id!r} (hosts: {', '.join(known)}); use --host",
            file=sys.stderr,
        )
        return 1
    return run_check(venue, host_id, args.timeout, lambda line: print(line, flush=True))


def add_check(subparsers: Any) -> None:
    """Add ``wuzi venue check`` to the ``wuzi venue`` subparsers."""
    parser = subparsers.add_parser(
        "check",
        help="preflight one host: its tables' boards and clocks, and its broker login",
        description=(
            "Validate the venue file; for each table of this host open the board and the "
            "clock, ask their INFO and check the serials the venue file expects; log in to "
            "the broker with this host's check account (its password; the running host is "
            "never pushed off) and publish its status. One line per table, then one "
            "for the broker; exit 0 when every line is ok. Ports a running host holds are "
            "reported busy, never taken."
        ),
    )
    parser.add_argument("--config", required=True, metavar="VENUE.TOML", help="the venue file")
    parser.add_argument(
        "--host", default=None, metavar="ID", help="the host to check (default: short hostname)"
    )
    parser.add_argument(
        "--timeout",
        type=_timeout,
        default=DEFAULT_TIMEOUT_S,
        metavar="S",
        help=f"how long to wait for each device and the broker (default {DEFAULT_TIMEOUT_S:g})",
    )
    parser.set_defaults(func=_check)
