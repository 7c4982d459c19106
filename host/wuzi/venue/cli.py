"""``wuzi venue …``: commands about the venue as a whole (the contract is in docs/security.md).

``wuzi venue broker-config --config venue.toml --out DIR`` writes the venue broker's
``DIR/mosquitto.conf``, ``DIR/passwd`` and ``DIR/acl`` from the venue file (one account per
connection, its name the client id: `wuzi.config.credentials`), and a password file for
every host, the director, the broadcast and each screen that has none yet (a token file
for a token referee without one), printing where each went. With a ``[bridge]`` in the
venue file it also writes ``DIR/conf.d/bridge.conf`` (mode 0640, it holds the outside
broker's password; `wuzi.venue.bridge`), which ``mosquitto.conf`` includes; without one,
a ``bridge.conf`` left by an earlier run is removed. With ``[[links]]`` it writes
``DIR/conf.d/links.conf`` the same way: the hall line's bridge to the central broker
(`wuzi.venue.links`; ``wuzi venue central-config`` configures that broker); a network
event's hall (``[central] event``) gets ``DIR/conf.d/network.conf`` instead, its bridge to
the event's broker (`wuzi.venue.network`). Existing
secrets are kept, and so is an old hash that still matches, so running it again logs
nobody out. Exit status 0, 1
with ``wuzi venue broker-config: <what is wrong>`` on a bad venue file or option.

It creates nothing outside ``DIR``, the venue file's ``secrets/`` folder and the broker's
``--data-dir``: a secret file the venue file puts anywhere else (``/etc/wuzi/broker.pass``
for a host, say) names a path on the machine that uses it, so it is written as
``DIR/secrets/<id>/<file name>`` with a line saying where to copy it (`_place`).

More ``wuzi venue`` subcommands plug in through `SUBCOMMANDS`.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from wuzi.venue.broker_setup import (
    DEFAULT_TLS_PORT,
    PROG,
    _Fail,
    _hand_over,
    _old_hashes,
    _settings,
)
from wuzi.venue.central_cli import add_central_config
from wuzi.venue.followers_cli import FOLLOWERS_FILE, add_edge_config, followers_files
from wuzi.venue.owner import DEFAULT_SERVICE_USER
from wuzi.venue.preflight import add_check

__all__ = ["SUBCOMMANDS", "register"]

DEFAULT_DATA_DIR = "/var/lib/mosquitto"
DEFAULT_BROKER_USER = "mosquitto"
MOSQUITTO_DIGEST_BYTES = 64
"""A ``$7$`` hash's digest as Mosquitto 2 reads it (SHA-512); it drops any other."""


def _add_broker_config(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "broker-config",
        help="write the Mosquitto config, password file and ACL from the venue file",
        description=(
            "Write DIR/mosquitto.conf, DIR/passwd and DIR/acl for the venue broker: no "
            "anonymous logins, one account per connection (its name is the client id: "
            "use_username_as_clientid), each allowed only its own topics. Password files "
            "missing for hosts, the director, the broadcast and the screens are created "
            "(mode 0600); existing ones are kept. With a [bridge] in the venue file, also "
            "DIR/conf.d/bridge.conf (mode 0640): the public trees out to an outside broker; "
            "with [[links]], DIR/conf.d/links.conf (mode 0640): the linked tables' hall line "
            "to the [central] broker (with [central] event, a network event's hall: "
            "DIR/conf.d/network.conf, its bridge to the event's broker); with [followers], "
            "DIR/followers/ (a second Mosquitto for "
            "the spectators: WebSockets, anonymous, read only, the public trees only) and "
            "DIR/conf.d/followers.conf, the bridge to it (docs/followers.md)."
        ),
    )
    parser.add_argument("--config", required=True, metavar="VENUE.TOML", help="the venue file")
    parser.add_argument("--out", required=True, metavar="DIR", help="where the broker files go")
    parser.add_argument(
        "--port",
        type=int,
        metavar="N",
        help="the plain MQTT listener (default: the venue url's port for mqtt://, none for "
        "mqtts://)",
    )
    parser.add_argument("--bind", metavar="ADDRESS", help="listen on this address only")
    parser.add_argument("--tls-cert", metavar="FILE", help="the broker's TLS certificate")
    parser.add_argument("--tls-key", metavar="FILE", help="the broker's TLS private key")
    parser.add_argument("--tls-ca", metavar="FILE", help="the CA certificate (optional)")
    parser.add_argument(
        "--tls-port",
        type=int,
        metavar="N",
        help=f"the TLS listener (default: the venue url's port for mqtts://, else "
        f"{DEFAULT_TLS_PORT})",
    )
    parser.add_argument(
        "--data-dir",
        default=DEFAULT_DATA_DIR,
        metavar="DIR",
        help=f"the broker's persistence folder (default {DEFAULT_DATA_DIR})",
    )
    parser.add_argument(
        "--broker-user",
        default=DEFAULT_BROKER_USER,
        metavar="NAME",
        help="the system user Mosquitto runs as; when run as root the password file and the "
        "ACL are given to its group and the data folder to it (default mosquitto)",
    )
    parser.add_argument(
        "--service-user",
        default=DEFAULT_SERVICE_USER,
        metavar="NAME",
        help=f"the system user the Wuzi services run as (default {DEFAULT_SERVICE_USER}, "
        "deploy/sysusers.d): when run as root the secret files are given to it (mode 0600); "
        "the report names each file's owner and mode",
    )
    parser.set_defaults(func=_broker_config)


SUBCOMMANDS: list[Callable[[Any], None]] = [
    _add_broker_config,
    add_central_config,
    add_edge_config,
    add_check,
]
"""Each adds one ``wuzi venue`` subcommand to the subparsers it is given."""


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "venue",
        help="the venue as a whole: broker configuration, a host's preflight check",
        description="Commands about the whole venue.",
    )
    parser.set_defaults(func=_help(parser))
    venue_sub = parser.add_subparsers(dest="venue_command", metavar="SUBCOMMAND")
    for add in SUBCOMMANDS:
        add(venue_sub)


def _help(parser: argparse.ArgumentParser) -> Callable[[argparse.Namespace], int]:
    def show(_args: argparse.Namespace) -> int:
        parser.print_help()
        return 2

    return show


def _broker_config(args: argparse.Namespace) -> int:
    try:
        return _write_broker_config(args)
    except _Fail as exc:
        print(f"{PROG}: {exc}", file=sys.stderr)
        return 1


def _place(venue: Any, user: Any, out: Path) -> tuple[str, str | None]:
    """Where ``user``'s secret file is read or made here, and the path to copy it to on
    its machine (None: it is already where it belongs).

    A file in the venue file's ``secrets/`` folder, or one that exists on this machine, is
    used where it is. Any other (an absolute path such as ``/etc/wuzi/broker.pass``, a
    path on the host that uses it) is kept as ``OUT/secrets/<id>/<file name>`` (a referee's
    as ``OUT/secrets/referee-<name>/…``): this command writes nothing outside ``--out`` and
    ``secrets/``."""
    from wuzi.config.credentials import secrets_dir

    named = Path(user.secret_file)
    try:
        here = named.resolve().is_relative_to(secrets_dir(venue).resolve()) or named.exists()
    except OSError:  # a name too long for the file system, say: it is made (and fails) below
        here = False
    if here:
        return user.secret_file, None
    folder = f"referee-{user.ident}" if user.role.startswith("referee") else user.ident
    return str(out / "secrets" / folder / named.name), user.secret_file


def _secrets(
    venue: Any, out: Path, owner: Any = None
) -> tuple[dict[str, tuple[str, bool]], list[str]]:
    """Each account's ``(password, False)`` or ``(hash, True)`` by account name, and the
    report lines. Secrets missing for hosts, the director, the broadcast, the screens and token
    referees are made here (mode 0600), where `_place` says, and given to ``owner`` (the
    services' user, `wuzi.venue.owner`) when there is one. Accounts that share a
    secret (a host and its check, the director's two, a referee's two) share the file:
    it is made and reported once."""
    from wuzi.bus.auth import AuthError, hash_key, read_token_file
    from wuzi.config.credentials import broker_users, secrets_dir
    from wuzi.venue.owner import describe, hand_over
    from wuzi.venue.passwords import PasswdError, ensure_secret

    found: dict[str, tuple[str, bool]] = {}
    by_key: dict[str, tuple[str, bool]] = {}
    report: list[str] = []
    for user in broker_users(venue):
        shared = by_key.get(user.key)
        if shared is not None:
            found[user.name] = shared
            continue
        what = _ROLE_NAMES[user.role].format(user.ident)
        if user.event is not None:
            what = f"director of event {user.event}"
        if user.password_hash is not None:
            try:
                digest = hash_key(user.password_hash)
            except AuthError as exc:
                raise _Fail(f"{venue.source}: {user.key}: {exc}") from None
            found[user.name] = by_key[user.key] = (user.password_hash, True)
            report.append(f"{what}: logs in with the password of {user.key}")
            if len(digest) != MOSQUITTO_DIGEST_BYTES:
                report.append(
                    f"{what}: warning: the digest of {user.key} is {len(digest)} bytes, not "
                    f"the {MOSQUITTO_DIGEST_BYTES} of PBKDF2-SHA512: Mosquitto drops the user "
                    "(make the hash with mosquitto_passwd or wuzi.venue.passwords.hash_password)"
                )
            continue
        assert user.secret_file is not None
        where, target = _place(venue, user, out)
        try:
            secret, created = ensure_secret(where)
            if owner is not None and (created or target is not None or _in(where, venue)):
                top = out / "secrets" if target is not None else secrets_dir(venue)
                hand_over(Path(where), owner, top.resolve())
            mode = describe(where)
        except (PasswdError, OSError) as exc:
            raise _Fail(f"{venue.source}: {user.key}: {exc}") from None
        if user.role.startswith("referee"):
            try:
                secret = read_token_file(where).decode("utf-8")
            except AuthError as exc:
                raise _Fail(f"{venue.source}: {user.key}: {exc}") from None
        found[user.name] = by_key[user.key] = (secret, False)
        if target is not None:
            done = "created" if created else "kept"
            report.append(
                f"{what}: {done} {where} ({mode}): copy it to {target} on {_whose(user)}, "
                f"as {user.key} says"
            )
        elif created:
            report.append(f"{what}: created {where} ({mode}): copy it to {_whom(user)}")
        else:
            report.append(f"{what}: kept {where} ({mode}){_exposed(where)}")
    return found, report


def _in(where: str, venue: Any) -> bool:
    """``where`` is in the venue file's secrets/ folder (this command's to hand over)."""
    from wuzi.config.credentials import secrets_dir

    return Path(where).resolve().is_relative_to(secrets_dir(venue).resolve())


_ROLE_NAMES = {
    "host": "host {}",
    "check": "host {}",
    "director": "director {}",
    "director-live": "director {}",
    "referee": "referee {}",
    "referee-send": "referee {}",
    "screen": "live screen {}",
    "screen-public": "public screen {}",
    "broadcast": "broadcast {}",
    "hall-bridge": "the bridge of hall {}",
}


def _whom(user: Any) -> str:
    """Who needs a new secret file, for the report."""
    if user.role == "host":
        return f"host {user.ident}, beside its venue file"
    if user.role == "director" and user.event is not None:
        return f"the machine of event {user.event}'s director"
    if user.role == "director":
        return "the director's machine"
    if user.role == "referee":
        return f"referee {user.ident} and every host (it signs the referee's commands)"
    if user.role == "broadcast":
        return "the machine that runs wuzi broadcast, beside its venue file"
    if user.role == "hall-bridge":
        return f"hall {user.ident}'s broker, as its [central] password_file"
    return f"the machine of screen {user.ident}, beside its venue file"


def _whose(user: Any) -> str:
    """The machines a secret file named by an absolute path belongs on, for the report."""
    if user.role == "host":
        return f"host {user.ident}"
    if user.role == "referee":
        return f"referee {user.ident}'s machine and every host"
    return _whom(user)


def _exposed(path: str) -> str:
    """A warning for a secret file others may read."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return ""
    return f" (warning: others may read it: chmod 600 {path})" if mode & 0o077 else ""


def _central_bridge(venue: Any) -> tuple[str | None, str, list[str]]:
    """The bridge block to the central broker (None without ``[central]``), its file in
    ``conf.d/`` (the fixed links' or a network event hall's) and report lines; the central
    broker's password file is made (mode 0600) when missing."""
    from wuzi.venue.bridge import BridgeError
    from wuzi.venue.links import LINKS_FILE, links_conf
    from wuzi.venue.network import NETWORK_FILE, network_conf
    from wuzi.venue.passwords import PasswdError, ensure_secret

    central = venue.central
    if central is None:
        return None, LINKS_FILE, []
    network = central.event is not None
    where = central.password_file
    try:
        password, created = ensure_secret(where)
    except (PasswdError, OSError) as exc:
        raise BridgeError(f"{venue.source}: central.password_file: {exc}") from None
    report = []
    if created:
        operator = (
            f"the operator of event {central.event}'s broker (its wuzi venue broker-config "
            "makes the account; or copy its secrets/halls file here instead)"
            if network
            else "the central broker's operator (wuzi venue central-config reads it)"
        )
        report.append(f"the hall line's bridge: created {where} (mode 0600): give it to {operator}")
    if network:
        return network_conf(venue, password), NETWORK_FILE, report
    return links_conf(venue, password), LINKS_FILE, report


def _write_followers(followers: Any, bridge_dir: Path, private: list[Path]) -> bool:
    """Write the followers' broker's files and the bridge to it (`followers_files`),
    adding the private ones to ``private``; without ``[followers]`` remove an earlier
    run's bridge. True if one was removed."""
    from wuzi.venue.passwords import write_private

    if followers is None:
        if (bridge_dir / FOLLOWERS_FILE).exists():
            (bridge_dir / FOLLOWERS_FILE).unlink()
            return True
        return False
    bridge_dir.mkdir(exist_ok=True)
    write_private(bridge_dir / FOLLOWERS_FILE, followers.bridge, 0o640)
    private.append(bridge_dir / FOLLOWERS_FILE)
    for name, (text, mode) in followers.files.items():
        Path(name).parent.mkdir(exist_ok=True)
        Path(name).parent.chmod(0o755)  # the broker's user enters it, whatever the umask
        write_private(name, text, mode)
        if mode == 0o640:
            private.append(Path(name))
    return False


def _write_broker_config(args: argparse.Namespace) -> int:
    from wuzi.config import ConfigError, load_venue
    from wuzi.venue.bridge import BridgeError, bridge_conf, read_bridge_password
    from wuzi.venue.broker_config import acl_text, mosquitto_conf
    from wuzi.venue.links import LINKS_FILE
    from wuzi.venue.network import NETWORK_FILE
    from wuzi.venue.owner import find_owner
    from wuzi.venue.passwords import PasswdError, format_passwd, hash_for, write_private

    try:
        venue = load_venue(args.config)
        out = Path(args.out).resolve()
        settings = _settings(args, venue, out)
        acl = acl_text(venue)
        bridge = None
        if venue.bridge is not None:
            password = read_bridge_password(venue.bridge)
            bridge = bridge_conf(venue.id, venue.bridge, password)
        line_bridge, line_file, line_report = _central_bridge(venue)
        followers = followers_files(venue, out)
        bridge_dir = out / "conf.d"
        included = str(bridge_dir) if bridge or line_bridge or followers else None
        conf = mosquitto_conf(venue, settings, bridge_dir=included)
        owner, why = find_owner(args.service_user, os.geteuid())
        secrets, report = _secrets(venue, out, owner)
        report += line_report
        if why is not None:
            report.append(why)
    except (ConfigError, BridgeError) as exc:
        raise _Fail(str(exc)) from None
    except (PasswdError, OSError) as exc:  # the followers' bridge password (followers_cli)
        raise _Fail(f"{venue.source}: followers: {exc}") from None
    try:
        out.mkdir(parents=True, exist_ok=True)
        data_dir = Path(settings.data_dir)
        data_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise _Fail(f"cannot create {exc.filename}: {exc.strerror or exc}") from None
    old = _old_hashes(out / "passwd")
    entries = {
        name: value if hashed else hash_for(value, old.get(name))
        for name, (value, hashed) in secrets.items()
    }
    try:
        write_private(out / "passwd", format_passwd(entries), 0o640)
        write_private(out / "acl", acl, 0o640)
        write_private(out / "mosquitto.conf", conf, 0o644)
        private = [out / "passwd", out / "acl"]
        stale = False
        if bridge is not None:
            bridge_dir.mkdir(exist_ok=True)
            write_private(bridge_dir / "bridge.conf", bridge, 0o640)
            private.append(bridge_dir / "bridge.conf")
        elif (bridge_dir / "bridge.conf").exists():  # an earlier run's: no longer included
            (bridge_dir / "bridge.conf").unlink()
            stale = True
        stale_lines: list[str] = []
        if line_bridge is not None:
            bridge_dir.mkdir(exist_ok=True)
            write_private(bridge_dir / line_file, line_bridge, 0o640)
            private.append(bridge_dir / line_file)
        for name in (LINKS_FILE, NETWORK_FILE):  # an earlier run's other (or no) bridge
            if (line_bridge is None or name != line_file) and (bridge_dir / name).exists():
                (bridge_dir / name).unlink()
                stale_lines.append(name)
        stale_followers = _write_followers(followers, bridge_dir, private)
        handed = _hand_over(private, data_dir, args.broker_user)
    except OSError as exc:
        raise _Fail(f"cannot write {exc.filename or out}: {exc.strerror or exc}") from None
    for line in report:
        print(line)
    print(f"wrote {out / 'passwd'} ({len(entries)} accounts)")
    print(f"wrote {out / 'acl'}")
    print(f"wrote {out / 'mosquitto.conf'}")
    if bridge is not None and venue.bridge is not None:
        where = f"{venue.bridge.host}:{venue.bridge.port}"
        print(
            f"wrote {bridge_dir / 'bridge.conf'} (the bridge to {where}: public/# and "
            "competition/# out only)"
        )
    if stale:
        print(f"removed {bridge_dir / 'bridge.conf'}: the venue file has no [bridge]")
    if line_bridge is not None and venue.central is not None:
        where = f"{venue.central.host}:{venue.central.port}"
        if venue.central.event is not None:
            carried = (
                f"its table/, host/ and line/ trees out; its assignments, every hall's "
                f"line/ and event {venue.central.event}'s competition/ in"
            )
        else:
            shown = ", ".join(f"{link.id} (table {link.table})" for link in venue.links)
            carried = f"line/<link>/# of {shown} only"
        line = f"the hall line to the central broker {where}: {carried}"
        print(f"wrote {bridge_dir / line_file} ({line})")
    for name in stale_lines:
        why = "no [[links]]" if name == LINKS_FILE else "no [central] event"
        print(f"removed {bridge_dir / name}: the venue file has {why}")
    if followers is not None:
        for line in followers.report:
            print(line)
        print(f"wrote {bridge_dir / FOLLOWERS_FILE} (the bridge to the followers' broker)")
    if stale_followers:
        print(f"removed {bridge_dir / FOLLOWERS_FILE}: the venue file has no [followers]")
    if handed:
        print(handed)
    if venue.broker.username is not None:
        print(
            f"note: the shared [broker] user {venue.broker.username!r} is not an account of "
            "this broker: every connection logs in with its own (docs/security.md)"
        )
    if not (venue.screens.live or venue.screens.public):
        print(
            "note: the venue file lists no screens ([screens] live = [...], public = [...]): "
            "no scoreboard or clock display can log in to this broker"
        )
    print(f"start the broker: mosquitto -c {out / 'mosquitto.conf'}")
    return 0
