"""``wuzi venue broker-config`` on the shipped example, as docs/venue.md's "Setting up a real
venue" runs it: it works as written (with the broker's certificate, the example being
``mqtts://``) and creates nothing outside ``--out``, the venue file's ``secrets/`` folder
and the broker's data folder — not the host's ``/etc/wuzi/broker.pass``, which is written
under ``--out`` with a line saying where to copy it."""

from __future__ import annotations

import grp
import os
import pwd
import shutil
import stat
import subprocess
from pathlib import Path

import pytest

from wuzi.config import load_venue
from wuzi.venue.passwords import check_password, parse_passwd

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "deploy" / "venue.example.toml"
WUZI = ROOT / ".venv" / "bin" / "wuzi"
ETC_WUZI = Path("/etc/wuzi")

# The writer's own user and group: the machine has no user "wuzi" (tests/venue/test_secret_owner.py)
MINE = f"owner {pwd.getpwuid(os.geteuid()).pw_name}:{grp.getgrgid(os.getegid()).gr_name}"


def files_under(folder: Path) -> set[Path]:
    return {p.relative_to(folder) for p in folder.rglob("*")}


def broker_config(work: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    """docs/venue.md's command, from a working folder and a HOME of its own."""
    env = {**os.environ, "HOME": str(work / "home")}
    return subprocess.run(
        [str(WUZI), "venue", "broker-config", "--config", str(work / "etc/venue.toml"),
         "--out", str(work / "out"), "--tls-cert", str(work / "tls/broker.crt"),
         "--tls-key", str(work / "tls/broker.key"), "--data-dir", str(work / "data"), *extra],
        cwd=work / "cwd", env=env, capture_output=True, text=True, check=False, timeout=60,
    )  # fmt: skip


@pytest.fixture
def work(tmp_path: Path) -> Path:
    for name in ("etc", "cwd", "home", "tls"):
        (tmp_path / name).mkdir()
    shutil.copy(EXAMPLE, tmp_path / "etc" / "venue.toml")
    (tmp_path / "tls" / "broker.crt").write_text("certificate\n")
    (tmp_path / "tls" / "broker.key").write_text("key\n")
    return tmp_path


@pytest.mark.skipif(not WUZI.exists(), reason="no .venv/bin/wuzi (make setup)")
def test_the_example_creates_nothing_outside_out_and_secrets(work: Path) -> None:
    etc_wuzi_before = ETC_WUZI.exists() and files_under(ETC_WUZI)
    before = files_under(work)
    done = broker_config(work)
    assert done.returncode == 0, done.stderr
    made = {p for p in files_under(work) - before if p.parts[0] not in ("out", "data")}
    screens = ("scoreboard-hall", "clock1-table1", "clock2-table2", "foyer", "web-central")
    assert made == {
        Path("etc/secrets"),
        *(Path(f"etc/secrets/{n}.pass") for n in ("pi-2", "director")),
        Path("etc/secrets/broadcast"),
        Path("etc/secrets/broadcast/broadcast.pass"),
        Path("etc/secrets/screens"),
        *(Path(f"etc/secrets/screens/{n}.pass") for n in screens),
        Path("etc/secrets/deputy.token"),
    }
    assert files_under(work / "home") == set() and files_under(work / "cwd") == set()
    # Run as root too (as here): nothing appears under /etc/wuzi.
    assert (ETC_WUZI.exists() and files_under(ETC_WUZI)) == etc_wuzi_before
    # pi-1's password file is named by an absolute path on that host: it is under --out.
    staged = work / "out" / "secrets" / "pi-1" / "broker.pass"
    assert stat.S_IMODE(staged.stat().st_mode) == 0o600
    assert (
        f"host pi-1: created {staged} ({MINE}, mode 0600): copy it to /etc/wuzi/broker.pass "
        "on host pi-1, as hosts[0].broker_password_file says"
    ) in done.stdout.splitlines()
    entries = parse_passwd((work / "out" / "passwd").read_text())
    assert check_password(staged.read_text().strip(), entries["wuzi.team-final-2025.host.pi-1"])
    assert done.stdout.count("host pi-1: created") == 1  # its check account shares the file
    # The example's chief-arbiter hash is one Mosquitto reads: no warning.
    assert "warning" not in done.stdout
    conf = (work / "out" / "mosquitto.conf").read_text().splitlines()
    assert [line for line in conf if line.startswith("listener")] == ["listener 8883"]
    # The example's [bridge] is commented out: no bridge file, nothing included.
    assert not (work / "out" / "conf.d").exists()
    assert not [line for line in conf if line.startswith("include_dir")]
    assert f"wrote {work / 'out' / 'passwd'} (16 accounts)" in done.stdout
    # Running it again keeps every secret and every file.
    out_before = {p: (work / "out" / p).read_bytes() for p in ("passwd", "acl", "mosquitto.conf")}
    again = broker_config(work)
    assert again.returncode == 0, again.stderr
    assert f"host pi-1: kept {staged} ({MINE}, mode 0600)" in again.stdout
    assert {p: (work / "out" / p).read_bytes() for p in out_before} == out_before


@pytest.mark.skipif(not WUZI.exists(), reason="no .venv/bin/wuzi (make setup)")
def test_a_named_file_that_exists_here_is_used_where_it_is(work: Path) -> None:
    venue_file = work / "etc" / "venue.toml"
    named = work / "elsewhere" / "pi-1.pass"
    named.parent.mkdir()
    named.write_text("pi-1-password\n")
    named.chmod(0o600)
    text = venue_file.read_text().replace("/etc/wuzi/broker.pass", str(named))
    venue_file.write_text(text)
    done = broker_config(work)
    assert done.returncode == 0, done.stderr
    assert f"host pi-1: kept {named}" in done.stdout
    assert not (work / "out" / "secrets").exists()
    entries = parse_passwd((work / "out" / "passwd").read_text())
    assert check_password("pi-1-password", entries["wuzi.team-final-2025.host.pi-1"])
    assert load_venue(venue_file).hosts[0].broker_password_file == str(named)


def test_the_example_without_a_certificate_says_what_to_give() -> None:
    done = subprocess.run(
        [str(WUZI), "venue", "broker-config", "--config", str(EXAMPLE), "--out", "/nonexistent/x"],
        capture_output=True, text=True, check=False, timeout=60,
    )  # fmt: skip
    assert done.returncode == 1
    assert "is mqtts://: give --tls-cert and --tls-key" in done.stderr
    assert not (EXAMPLE.parent / "secrets").exists()


def test_a_referee_hash_mosquitto_cannot_read_is_warned_of(work: Path) -> None:
    """A 32-byte digest (not the 64 of PBKDF2-SHA512): Mosquitto would drop the user."""
    venue = work / "etc" / "venue.toml"
    text = venue.read_text()
    start = text.index('password_hash = "') + len('password_hash = "')
    old = text[start : text.index('"', start)]
    short = old.rsplit("$", 1)[0] + "$Gc1Zq9o0sUuE6w2hQZ9m1b7yKXz2c4nVtR8aLwPq0sM="
    venue.write_text(text.replace(old, short))
    done = broker_config(work)
    assert done.returncode == 0, done.stderr
    assert "referee chief-arbiter: warning: the digest of referees[0].password_hash is 32" in (
        done.stdout
    )
