"""``wuzi venue broker-config``'s followers' broker, and ``wuzi venue edge-config``.

With ``[followers]`` in the venue file, broker-config also writes (`followers_files`)::

    DIR/conf.d/followers.conf      the venue broker's bridge to it (mode 0640: a password)
    DIR/followers/mosquitto.conf   the followers' broker (run: mosquitto -c …)
    DIR/followers/passwd           the bridge's login there (mode 0640)
    DIR/followers/acl-bridge       what the bridge may write (0640)
    DIR/followers/acl-viewers      what anonymous viewers may read (0640)

and the bridge's password in ``secrets/followers/bridge.pass`` beside the venue file
(made once, mode 0600, kept after). Without ``[followers]`` a ``followers.conf`` left by an
earlier run is removed, so the venue broker stops bridging.

``wuzi venue edge-config --upstream HOST:PORT --out DIR`` writes a public edge broker's
``DIR/mosquitto.conf`` and ``DIR/acl`` (`wuzi.venue.followers.edge_conf`). Shells: they
read the disk and write files; the texts come from `wuzi.venue.followers`.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = ["FOLLOWERS_FILE", "FollowersOutput", "add_edge_config", "followers_files"]

FOLLOWERS_FILE = "followers.conf"
FOLLOWERS_DIR = "followers"
EDGE_PROG = "wuzi venue edge-config"


@dataclass(frozen=True)
class FollowersOutput:
    """What broker-config writes for ``[followers]``: file name -> (text, mode), the
    venue broker's bridge block, and report lines."""

    files: dict[str, tuple[str, int]]
    bridge: str
    report: list[str]


def followers_files(venue: Any, out: Path) -> FollowersOutput | None:
    """The followers' broker's files for ``venue`` (None without ``[followers]``); the
    bridge's password file is made (mode 0600) when missing. `OSError` or
    `wuzi.venue.passwords.PasswdError` when it cannot be."""
    from wuzi.config.credentials import secrets_dir
    from wuzi.venue.followers import (
        FollowersFiles,
        bridge_account,
        followers_acls,
        followers_bridge_conf,
        followers_conf,
    )
    from wuzi.venue.passwords import ensure_secret, format_passwd, hash_for, parse_passwd

    settings = venue.followers
    if settings is None:
        return None
    where = secrets_dir(venue) / "followers" / "bridge.pass"
    password, created = ensure_secret(where)
    folder = out / FOLLOWERS_DIR
    names = FollowersFiles(
        password_file=str(folder / "passwd"),
        bridge_acl_file=str(folder / "acl-bridge"),
        viewer_acl_file=str(folder / "acl-viewers"),
    )
    account = bridge_account(venue.id)
    try:
        old = parse_passwd((folder / "passwd").read_text(encoding="utf-8")).get(account)
    except (OSError, ValueError):
        old = None
    bridge_acl, viewer_acl = followers_acls(venue.id)
    files = {
        str(folder / "mosquitto.conf"): (followers_conf(venue.id, settings, names), 0o644),
        names.password_file: (format_passwd({account: hash_for(password, old)}), 0o640),
        names.bridge_acl_file: (bridge_acl, 0o640),
        names.viewer_acl_file: (viewer_acl, 0o640),
    }
    report = []
    if created:
        report.append(f"the followers' bridge: created {where} (mode 0600)")
    report.append(
        f"wrote {folder}/ (the followers' broker: WebSockets on "
        f"{settings.websockets_bind}:{settings.websockets_port}, anonymous and read only, "
        f"public/# and competition/#; start it: mosquitto -c {folder / 'mosquitto.conf'}; "
        f"the page's --mqtt-url: {settings.websockets_url})"
    )
    return FollowersOutput(files, followers_bridge_conf(venue.id, settings, password), report)


# --- wuzi venue edge-config ---------------------------------------------------------------


class _EdgeFail(Exception):
    """A bad option: printed after the program name, exit status 1."""


def add_edge_config(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "edge-config",
        help="write a public edge broker's Mosquitto config (followers at scale)",
        description=(
            "Write DIR/mosquitto.conf and DIR/acl for a public edge broker: it pulls every "
            "venue's wuzi/v1/+/public/# and wuzi/v1/+/competition/# in from the upstream "
            "(hub) broker and serves them to anonymous viewers over WebSockets, read "
            "only (docs/followers.md)."
        ),
    )
    parser.add_argument(
        "--upstream", required=True, metavar="HOST:PORT", help="the hub broker to pull from"
    )
    parser.add_argument("--out", required=True, metavar="DIR", help="where the files go")
    parser.add_argument("--name", default="wuzi-edge", help="the bridge's name and client id")
    parser.add_argument("--websockets-port", type=int, default=9001, metavar="N")
    parser.add_argument("--bind", metavar="ADDRESS", help="listen on this address only")
    parser.add_argument("--max-viewers", type=int, default=5000, metavar="N")
    parser.add_argument(
        "--mqtt-port",
        type=int,
        default=1883,
        metavar="N",
        help="plain MQTT, anonymous and read only too, for edges below (default 1883)",
    )
    parser.add_argument("--username", help="the edge's login on the upstream broker")
    parser.add_argument("--password-file", metavar="FILE", help="its password (with --username)")
    parser.add_argument("--cafile", metavar="FILE", help="TLS to the upstream with this CA")
    parser.set_defaults(func=_edge_config)


def _edge_config(args: argparse.Namespace) -> int:
    try:
        return _write_edge(args)
    except _EdgeFail as exc:
        print(f"{EDGE_PROG}: {exc}", file=sys.stderr)
        return 1


def _check_port(value: int | None, option: str) -> None:
    if value is not None and not 1 <= value <= 65535:
        raise _EdgeFail(f"{option} must be 1..65535, not {value}")


def _to_broker_group(path: Path) -> None:
    """As root, give ``path`` to the ``mosquitto`` group (Mosquitto drops to that user)."""
    import grp
    import os

    if os.geteuid() != 0:
        return
    try:
        os.chown(path, 0, grp.getgrnam("mosquitto").gr_gid)
    except KeyError:
        print(f"{EDGE_PROG}: note: no group 'mosquitto': make {path} readable by the broker")


def _write_edge(args: argparse.Namespace) -> int:
    from wuzi.config.credentials import read_secret_file
    from wuzi.venue.bridge import BridgeError
    from wuzi.venue.followers import EdgeSettings, edge_conf
    from wuzi.venue.passwords import write_private

    host, _, port_text = args.upstream.rpartition(":")
    if not host or not port_text.isdigit():
        raise _EdgeFail(f"--upstream: {args.upstream!r} is not HOST:PORT")
    _check_port(int(port_text), "--upstream's port")
    _check_port(args.websockets_port, "--websockets-port")
    _check_port(args.mqtt_port, "--mqtt-port")
    if args.mqtt_port == args.websockets_port:
        raise _EdgeFail(f"--mqtt-port and --websockets-port are both {args.mqtt_port}")
    if args.max_viewers < 1:
        raise _EdgeFail(f"--max-viewers must be at least 1, not {args.max_viewers}")
    if args.password_file is not None and args.username is None:
        raise _EdgeFail("--password-file needs --username")
    password = None
    if args.password_file is not None:
        try:
            password = read_secret_file(args.password_file)
        except (OSError, ValueError) as exc:
            raise _EdgeFail(f"--password-file: cannot read {args.password_file}: {exc}") from None
    out = Path(args.out).resolve()
    settings = EdgeSettings(
        name=args.name,
        upstream_host=host,
        upstream_port=int(port_text),
        acl_file=str(out / "acl"),
        websockets_port=args.websockets_port,
        websockets_bind=args.bind,
        max_viewers=args.max_viewers,
        mqtt_port=args.mqtt_port,
        upstream_username=args.username,
        upstream_password=password,
        upstream_cafile=None if args.cafile is None else str(Path(args.cafile).resolve()),
    )
    try:
        conf, acl = edge_conf(settings)
    except BridgeError as exc:
        raise _EdgeFail(str(exc)) from None
    try:
        out.mkdir(parents=True, exist_ok=True)
        out.chmod(0o755)  # the broker's user enters it, whatever the umask
        write_private(out / "mosquitto.conf", conf, 0o640 if password else 0o644)
        write_private(out / "acl", acl, 0o644)
        if password is not None:  # a remote password: readable by the broker's group only
            _to_broker_group(out / "mosquitto.conf")
    except OSError as exc:
        raise _EdgeFail(f"cannot write {exc.filename or out}: {exc.strerror or exc}") from None
    print(
        f"wrote {out / 'mosquitto.conf'} (pulls wuzi/v1/+/public/# and competition/# from "
        f"{args.upstream}; viewers on WebSockets port {args.websockets_port})"
    )
    print(f"wrote {out / 'acl'}")
    print(f"start the edge: mosquitto -c {out / 'mosquitto.conf'}")
    return 0
