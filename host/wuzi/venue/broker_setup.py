"""What ``wuzi venue broker-config`` and ``wuzi venue central-config`` share: the listener
settings from the command line, the old password file's hashes, the files handed to the
broker's user, and the one error they print. Shells: they read options and the disk."""

from __future__ import annotations

import argparse
import grp
import os
import pwd
import sys
from pathlib import Path
from typing import Any

from wuzi.base.files import PASSWD_FILE, FileError, read_text

__all__ = ["DEFAULT_TLS_PORT", "PROG", "_Fail", "_hand_over", "_old_hashes", "_settings"]

PROG = "wuzi venue broker-config"
DEFAULT_TLS_PORT = 8883


class _Fail(Exception):
    """A bad input: the message is printed after the program name, exit status 1."""


def _port(value: int | None, what: str) -> int | None:
    if value is not None and not 1 <= value <= 65535:
        raise _Fail(f"{what} must be 1..65535, not {value}")
    return value


def _settings(args: argparse.Namespace, venue: Any, out: Path) -> Any:
    from wuzi.venue.broker_config import BrokerSettings, TlsListener

    port = _port(args.port, "--port")
    tls_port = _port(args.tls_port, "--tls-port")
    if (args.tls_cert is None) != (args.tls_key is None):
        raise _Fail("give --tls-cert and --tls-key together")
    if args.tls_ca is not None and args.tls_cert is None:
        raise _Fail("--tls-ca needs --tls-cert and --tls-key")
    tls = None
    if venue.broker.tls:
        if args.tls_cert is None:
            what = getattr(venue, "url_name", "the venue's broker url")  # or central-config's
            raise _Fail(
                f"{what} {venue.broker.url} is mqtts://: give --tls-cert and --tls-key (or "
                "write the url as mqtt://)"
            )
        tls_port = tls_port or venue.broker.port
    elif port is None:
        port = venue.broker.port
    if args.tls_cert is not None:
        for option, name in (("--tls-cert", args.tls_cert), ("--tls-key", args.tls_key)):
            if not Path(name).is_file():
                raise _Fail(f"{option}: no file {name}")
        if args.tls_ca is not None and not Path(args.tls_ca).is_file():
            raise _Fail(f"--tls-ca: no file {args.tls_ca}")
        tls = TlsListener(
            port=tls_port or DEFAULT_TLS_PORT,
            certfile=str(Path(args.tls_cert).resolve()),
            keyfile=str(Path(args.tls_key).resolve()),
            cafile=None if args.tls_ca is None else str(Path(args.tls_ca).resolve()),
        )
    if tls is not None and port == tls.port:
        raise _Fail(f"the plain and the TLS listener cannot both use port {port}")
    return BrokerSettings(
        password_file=str(out / "passwd"),
        acl_file=str(out / "acl"),
        data_dir=str(Path(args.data_dir).resolve()),
        port=port,
        bind=args.bind,
        tls=tls,
    )


def _old_hashes(path: Path) -> dict[str, str]:
    from wuzi.venue.passwords import PasswdError, parse_passwd

    try:
        return parse_passwd(read_text(path, PASSWD_FILE))
    except FileError as exc:
        if exc.missing:
            return {}
        print(f"{PROG}: note: the old {path} is not used ({exc.problem})", file=sys.stderr)
        return {}
    except PasswdError as exc:
        print(f"{PROG}: note: the old {path} is not used ({exc})", file=sys.stderr)
        return {}


def _hand_over(paths: list[Path], data_dir: Path, broker_user: str) -> str | None:
    """As root: the broker's files to its group, its data folder to it (it drops root)."""
    if os.geteuid() != 0:
        return None
    try:
        account = pwd.getpwnam(broker_user)
    except KeyError:
        return f"note: no system user {broker_user!r}: make the files readable by the broker"
    group = grp.getgrgid(account.pw_gid).gr_name
    for path in paths:
        os.chown(path, 0, account.pw_gid)
    os.chown(data_dir, account.pw_uid, account.pw_gid)
    return (
        f"gave {', '.join(p.name for p in paths)} to group {group} and {data_dir} to {broker_user}"
    )
