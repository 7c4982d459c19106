"""``wuzi venue central-config``: the central broker linked halls meet at (docs/cli.md).

``wuzi venue central-config --config HALL-A.TOML --config HALL-B.TOML --out DIR`` writes
``DIR/mosquitto.conf``, ``DIR/passwd`` and ``DIR/acl`` for the central Mosquitto from the
venue files of every linked hall (`wuzi.venue.central`): one account per hall, its bridge,
allowed to write only its own venue's ``line/<link>/#`` and read the other venue's of its
links. Each hall's password is its ``[central] password_file`` (made, mode 0600, when
missing; ``wuzi venue broker-config`` of that hall makes or reads the same file). The
listener is the ``[central] url``'s port, unless ``--port`` says otherwise; an
``mqtts://`` url needs ``--tls-cert`` and ``--tls-key``. Exit 0; 1 with ``wuzi venue
central-config: <what is wrong>`` when the files disagree (a link only one side has, two
owners, two central brokers) or cannot be read.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

__all__ = ["add_central_config"]

PROG = "wuzi venue central-config"


def add_central_config(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "central-config",
        help="write the central broker's config for linked halls from their venue files",
        description=(
            "Write DIR/mosquitto.conf, DIR/passwd and DIR/acl for the central broker that "
            "linked halls bridge to: one account per hall (its [central] username), each "
            "allowed to write only its own venue's line/<link>/# topics and read the other "
            "venue's of its links. Give every linked hall's venue file."
        ),
    )
    parser.add_argument(
        "--config",
        required=True,
        action="append",
        metavar="VENUE.TOML",
        help="a linked hall's venue file (give each hall's: repeat the option)",
    )
    parser.add_argument("--out", required=True, metavar="DIR", help="where the broker files go")
    parser.add_argument(
        "--port", type=int, metavar="N", help="the plain MQTT listener (default: the url's)"
    )
    parser.add_argument("--bind", metavar="ADDRESS", help="listen on this address only")
    parser.add_argument("--tls-cert", metavar="FILE", help="the broker's TLS certificate")
    parser.add_argument("--tls-key", metavar="FILE", help="the broker's TLS private key")
    parser.add_argument("--tls-ca", metavar="FILE", help="the CA certificate (optional)")
    parser.add_argument(
        "--tls-port", type=int, metavar="N", help="the TLS listener (default: the url's)"
    )
    parser.add_argument(
        "--data-dir",
        default="/var/lib/mosquitto",
        metavar="DIR",
        help="the broker's persistence folder (default /var/lib/mosquitto)",
    )
    parser.add_argument(
        "--broker-user",
        default="mosquitto",
        metavar="NAME",
        help="the system user Mosquitto runs as (default mosquitto): when run as root the "
        "password file and the ACL are given to its group, the data folder to it",
    )
    parser.set_defaults(func=_central_config)


def _central_config(args: argparse.Namespace) -> int:
    from wuzi.venue.broker_setup import _Fail

    try:
        return _write(args)
    except _Fail as exc:
        print(f"{PROG}: {exc}", file=sys.stderr)
        return 1


def _write(args: argparse.Namespace) -> int:
    from wuzi.config import ConfigError, load_venue
    from wuzi.venue.broker_setup import _Fail, _hand_over, _old_hashes, _settings
    from wuzi.venue.central import central_accounts, central_acl_text, central_conf
    from wuzi.venue.passwords import (
        PasswdError,
        ensure_secret,
        format_passwd,
        hash_for,
        write_private,
    )

    try:
        halls = tuple(load_venue(path) for path in args.config)
        accounts = central_accounts(halls)
        central = halls[0].central
        assert central is not None  # central_accounts refuses a hall without links
        out = Path(args.out).resolve()
        # the listener as a venue broker's: the [central] url plays the [broker] url
        shim = SimpleNamespace(
            broker=SimpleNamespace(tls=central.tls, port=central.port, url=central.url),
            url_name=f"{halls[0].source}: the [central] url",
        )
        settings = _settings(args, shim, out)
        acl = central_acl_text(halls)
        conf = central_conf(halls, settings)
    except ConfigError as exc:
        raise _Fail(str(exc)) from None
    old = _old_hashes(out / "passwd")  # a hash that still matches is kept: no one logged out
    report: list[str] = []
    entries: dict[str, str] = {}
    for account in accounts:
        try:
            password, created = ensure_secret(account.password_file)
        except (PasswdError, OSError) as exc:
            raise _Fail(f"hall {account.venue}: central.password_file: {exc}") from None
        entries[account.username] = hash_for(password, old.get(account.username))
        done = "created" if created else "read"
        report.append(
            f"hall {account.venue}: bridge account {account.username}, password {done} "
            f"{account.password_file}"
        )
    try:
        out.mkdir(parents=True, exist_ok=True)
        data_dir = Path(settings.data_dir)
        data_dir.mkdir(parents=True, exist_ok=True)
        write_private(out / "passwd", format_passwd(entries), 0o640)
        write_private(out / "acl", acl, 0o640)
        write_private(out / "mosquitto.conf", conf, 0o644)
        handed = _hand_over([out / "passwd", out / "acl"], data_dir, args.broker_user)
    except OSError as exc:
        raise _Fail(f"cannot write {exc.filename or args.out}: {exc.strerror or exc}") from None
    for line in report:
        print(line)
    print(f"wrote {out / 'passwd'} ({len(entries)} accounts)")
    print(f"wrote {out / 'acl'}")
    print(f"wrote {out / 'mosquitto.conf'}")
    if handed:
        print(handed)
    print(f"start the central broker: mosquitto -c {out / 'mosquitto.conf'}")
    return 0
