"""Who the secret files of ``wuzi venue broker-config`` belong to: the service user the
Wuzi units run as (``User=wuzi``, deploy/systemd; the user from deploy/sysusers.d), so that
``wuzi host`` can read its password file and the referees' token files, and nobody else can
(mode 0600). Root writes them; only root can give them away, and a machine with no such user
(a laptop that makes the files for the Pis) is told so in one line, the files kept root's."""

from __future__ import annotations

import grp
import os
import pwd
import stat
from dataclasses import dataclass
from pathlib import Path

__all__ = ["DEFAULT_SERVICE_USER", "ServiceOwner", "describe", "find_owner", "hand_over"]

DEFAULT_SERVICE_USER = "wuzi"


@dataclass(frozen=True)
class ServiceOwner:
    user: str
    group: str
    uid: int
    gid: int


def _name(uid: int) -> str:
    try:
        return pwd.getpwuid(uid).pw_name
    except KeyError:
        return str(uid)


def _group(gid: int) -> str:
    try:
        return grp.getgrgid(gid).gr_name
    except KeyError:
        return str(gid)


def find_owner(name: str, euid: int) -> tuple[ServiceOwner | None, str | None]:
    """The owner to give the secret files, or None and the line that says why they keep
    the writer's (not root; no such user here)."""
    if euid != 0:
        me = _name(euid)
        return None, (
            f"not run as root: the secret files stay {me}'s, mode 0600; the services run as "
            f"{name!r}: as root, `chown {name}:` each file where it is used"
        )
    try:
        entry = pwd.getpwnam(name)
    except KeyError:
        return None, (
            f"no user {name!r} on this machine: the secret files stay root's, mode 0600. "
            f"Where they are used, create the user (deploy/sysusers.d/wuzi.conf: "
            f"systemd-sysusers; the bundle's install.sh does) and give each file to it "
            f"(install -o {name} -g {name} -m 0600 FILE DEST), or run this again "
            f"after creating it (--service-user names another)"
        )
    return ServiceOwner(name, _group(entry.pw_gid), entry.pw_uid, entry.pw_gid), None


def hand_over(path: Path, owner: ServiceOwner, top: Path) -> None:
    """Give ``path`` (mode 0600) and its folders up to ``top`` (their modes kept) to
    ``owner``: the service must reach the file as well as read it."""
    os.chown(path, owner.uid, owner.gid)
    os.chmod(path, 0o600)
    folder = path.parent
    while folder.is_relative_to(top) and folder != folder.parent:
        os.chown(folder, owner.uid, owner.gid)
        if folder == top:
            break
        folder = folder.parent


def describe(path: str | Path) -> str:
    """``owner USER:GROUP, mode 0NNN`` of ``path``, as the report names it."""
    found = os.stat(path)
    mode = stat.S_IMODE(found.st_mode)
    return f"owner {_name(found.st_uid)}:{_group(found.st_gid)}, mode {mode:04o}"
