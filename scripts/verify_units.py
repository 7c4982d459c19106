"""Check the deployment files with systemd's own tools (`make lint`).

    python scripts/verify_units.py [UNIT.service | USERS.conf …]

Without arguments: every unit in deploy/systemd/ and every file in deploy/sysusers.d/.

* Units: `systemd-analyze verify` on copies whose `ExecStart=` names this checkout's
  `.venv/bin/wuzi` instead of `/opt/wuzi/.venv/bin/wuzi` (verify insists the program
  exists). Any message at all fails the check: verify only warns, with exit status 0,
  about an unknown directive or a bad value ("Unknown key 'NotifyAcces' …"), and a typo
  in a unit must fail `make lint`.
* sysusers.d files: `systemd-sysusers --root` into an empty folder holding a Raspberry Pi
  OS-like /etc/group, then the user `wuzi` must exist and be in `dialout` and `gpio`.

Exit 0 when everything is clean, 1 with the messages otherwise, 2 when systemd's tools
are missing (they are part of systemd, which Debian and Raspberry Pi OS run).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
INSTALLED_WUZI = "/opt/wuzi/.venv/bin/wuzi"
USER = "wuzi"
GROUPS = ("dialout", "gpio")
PI_GROUPS = "root:x:0:\ndialout:x:20:\ngpio:x:997:pi\n"


def wuzi_program() -> Path:
    """The `wuzi` of the Python running this (the checkout's .venv under `make lint`)."""
    for candidate in (Path(sys.executable).parent / "wuzi", ROOT / ".venv" / "bin" / "wuzi"):
        if candidate.is_file():
            return candidate.absolute()
    raise SystemExit("verify_units: no wuzi program beside this Python nor in .venv (make setup)")


def verify_units(units: list[Path]) -> list[str]:
    """The problems `systemd-analyze verify` reports for ``units`` (empty: clean)."""
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        print("verify_units: systemd-analyze not found (it comes with systemd)", file=sys.stderr)
        raise SystemExit(2)
    program = str(wuzi_program())
    with tempfile.TemporaryDirectory(prefix="wuzi-units-") as temp:
        copies = []
        for unit in units:
            copy = Path(temp) / unit.name
            copy.write_text(unit.read_text(encoding="utf-8").replace(INSTALLED_WUZI, program))
            copies.append(copy)
        done = subprocess.run(
            [analyze, "verify", "--man=no", *map(str, copies)],
            capture_output=True,
            text=True,
            check=False,
        )
    problems = [
        line.replace(temp + "/", "")
        for line in (done.stdout + done.stderr).splitlines()
        if line.strip()
    ]
    if done.returncode != 0 and not problems:
        problems.append(f"systemd-analyze verify exited with status {done.returncode}")
    return problems


def _members(group_file: str) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for line in group_file.splitlines():
        fields = line.split(":")
        if len(fields) == 4:
            found[fields[0]] = [m for m in fields[3].split(",") if m]
    return found


def verify_sysusers(files: list[Path]) -> list[str]:
    """The problems of the sysusers.d ``files``: they must apply cleanly and make `wuzi`."""
    sysusers = shutil.which("systemd-sysusers")
    if sysusers is None:
        print("verify_units: systemd-sysusers not found (it comes with systemd)", file=sys.stderr)
        raise SystemExit(2)
    problems: list[str] = []
    for path in files:
        with tempfile.TemporaryDirectory(prefix="wuzi-sysusers-") as temp:
            etc = Path(temp) / "etc"
            etc.mkdir()
            (etc / "group").write_text(PI_GROUPS)
            done = subprocess.run(
                [sysusers, f"--root={temp}", str(path.resolve())],
                capture_output=True,
                text=True,
                check=False,
            )
            errors = [
                line
                for line in done.stderr.splitlines()
                if line.strip() and not line.startswith(("Creating group", "Creating user"))
            ]
            problems += [f"{path.name}: {line}" for line in errors]
            if done.returncode != 0:
                problems.append(f"{path.name}: systemd-sysusers exited with {done.returncode}")
                continue
            users = (etc / "passwd").read_text() if (etc / "passwd").exists() else ""
            if not any(line.startswith(f"{USER}:") for line in users.splitlines()):
                problems.append(f"{path.name}: makes no user {USER!r}")
            members = _members((etc / "group").read_text())
            problems += [
                f"{path.name}: {USER!r} is not put in group {group!r}"
                for group in GROUPS
                if USER not in members.get(group, [])
            ]
    return problems


def main(argv: list[str]) -> int:
    paths = [Path(a) for a in argv]
    if not paths:
        paths = sorted((ROOT / "deploy" / "systemd").glob("*.service"))
        paths += sorted((ROOT / "deploy" / "sysusers.d").glob("*.conf"))
    missing = [str(p) for p in paths if not p.is_file()]
    if missing:
        print(f"verify_units: no such file: {', '.join(missing)}", file=sys.stderr)
        return 2
    units = [p for p in paths if p.suffix != ".conf"]
    problems = verify_units(units) if units else []
    problems += verify_sysusers([p for p in paths if p.suffix == ".conf"])
    for line in problems:
        print(f"verify_units: {line}", file=sys.stderr)
    if problems:
        return 1
    print(f"verify_units: {len(paths)} files clean ({', '.join(p.name for p in paths)})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
