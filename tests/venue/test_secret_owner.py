"""`wuzi venue broker-config` gives the secret files it writes to the user the Wuzi services
run as, readable by it only, and names each file's owner and mode (issue 34); a machine
with no such user is told so in one line and the files stay the writer's."""

from __future__ import annotations

import grp
import os
import pwd
import stat
from pathlib import Path

import pytest

from wuzi.cli import main
from wuzi.venue.owner import find_owner

ROOT = Path(__file__).resolve().parents[2]
root_only = pytest.mark.skipif(os.geteuid() != 0, reason="only root gives files away")


def _venue(tmp_path: Path) -> Path:
    text = (ROOT / "deploy" / "venue.example.toml").read_text(encoding="utf-8")
    text = text.replace('url = "mqtts://broker.venue.lan:8883"', 'url = "mqtt://127.0.0.1:1884"')
    text = text.replace('ca_file = "secrets/venue-ca.pem"', "")
    (tmp_path / "venue.toml").write_text(text, encoding="utf-8")
    (tmp_path / "secrets").mkdir(mode=0o700)
    (tmp_path / "secrets" / "deputy.token").write_text("d" * 32 + "\n")
    return tmp_path / "venue.toml"


def _run(tmp_path: Path, *extra: str) -> int:
    out = tmp_path / "broker"
    return main(
        ["venue", "broker-config", "--config", str(_venue(tmp_path)), "--out", str(out),
         "--data-dir", str(tmp_path / "data"), "--broker-user", "root", *extra]
    )  # fmt: skip


@root_only
def test_the_secrets_go_to_the_service_user_mode_0600_and_the_report_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    nobody = pwd.getpwnam("nobody")
    group = grp.getgrgid(nobody.pw_gid).gr_name
    assert _run(tmp_path, "--service-user", "nobody") == 0
    report = capsys.readouterr().out
    secrets = tmp_path / "secrets"
    for name in ("pi-2.pass", "director.pass", "screens/foyer.pass", "deputy.token"):
        found = (secrets / name).stat()
        assert (found.st_uid, found.st_gid) == (nobody.pw_uid, nobody.pw_gid), name
        assert stat.S_IMODE(found.st_mode) == 0o600, name
    # the service must reach its file: the folders are its too (their modes kept)
    assert (secrets / "screens").stat().st_uid == nobody.pw_uid
    assert stat.S_IMODE(secrets.stat().st_mode) == 0o700 and secrets.stat().st_uid == nobody.pw_uid
    owner = f"owner nobody:{group}, mode 0600"
    assert f"host pi-2: created {secrets / 'pi-2.pass'} ({owner}): copy it to" in report
    assert f"referee deputy: kept {secrets / 'deputy.token'} ({owner})" in report
    # pi-1's file is named by a path on that host: staged under --out, given away too
    staged = tmp_path / "broker" / "secrets" / "pi-1" / "broker.pass"
    assert staged.stat().st_uid == nobody.pw_uid
    assert f"host pi-1: created {staged} ({owner}): copy it to /etc/wuzi/broker.pass" in report
    assert "no user" not in report and "not run as root" not in report


@root_only
def test_a_machine_without_the_service_user_is_told_and_keeps_the_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _run(tmp_path, "--service-user", "wuzi-nobody-here") == 0
    report = capsys.readouterr().out.splitlines()
    assert (tmp_path / "secrets" / "pi-2.pass").stat().st_uid == 0
    (line,) = [x for x in report if x.startswith("no user")]
    assert line.startswith(
        "no user 'wuzi-nobody-here' on this machine: the secret files stay root's, mode 0600."
    )
    assert "deploy/sysusers.d/wuzi.conf" in line and "install -o wuzi-nobody-here" in line


def test_only_root_gives_files_away() -> None:
    owner, why = find_owner("wuzi", euid=1000)
    assert owner is None and why is not None and why.startswith("not run as root:")
    owner, why = find_owner("root", euid=0)
    assert owner is not None and (owner.uid, owner.gid, why) == (0, 0, None)
