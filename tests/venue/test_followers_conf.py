"""What `wuzi venue broker-config` writes for ``[followers]`` and `wuzi.venue.followers`'s
texts, without a broker (the real-Mosquitto proofs: test_followers_broker.py)."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from support.acl import write_venue
from wuzi.cli import main
from wuzi.config.followers import FollowersSettings
from wuzi.venue.followers import (
    FollowersFiles,
    bridge_account,
    bridge_client_id,
    followers_acls,
    followers_bridge_conf,
    followers_conf,
)
from wuzi.venue.passwords import check_password, parse_passwd

V = "acl-test"
SETTINGS = FollowersSettings(9001, "0.0.0.0", "ws://broker.venue.lan:9001/", 1884, 5000)


def test_the_followers_broker_has_two_listeners_each_with_its_own_rules() -> None:
    files = FollowersFiles("/f/passwd", "/f/acl-bridge", "/f/acl-viewers")
    lines = followers_conf(V, SETTINGS, files).splitlines()
    assert lines.index("per_listener_settings true") < lines.index("listener 1884 127.0.0.1")
    local = lines[lines.index("listener 1884 127.0.0.1") :]
    assert local[1:5] == ["max_connections 4", "allow_anonymous false",
                          "password_file /f/passwd", "acl_file /f/acl-bridge"]  # fmt: skip
    viewers = lines[lines.index("listener 9001 0.0.0.0") :]
    assert viewers[1:5] == ["protocol websockets", "max_connections 5000",
                            "allow_anonymous true", "acl_file /f/acl-viewers"]  # fmt: skip
    assert "persistence false" in lines and "max_queued_messages 200" in lines


def test_the_viewers_read_the_two_trees_and_the_bridge_writes_them() -> None:
    bridge, viewers = followers_acls(V)
    assert [x for x in viewers.splitlines() if not x.startswith("#")] == [
        f"topic read wuzi/v1/{V}/public/#",
        f"topic read wuzi/v1/{V}/competition/#",
    ]
    assert [x for x in bridge.splitlines() if not x.startswith("#")] == [
        f"user {bridge_account(V)}",
        f"topic write wuzi/v1/{V}/public/#",
        f"topic write wuzi/v1/{V}/competition/#",
    ]


def test_the_bridge_s_client_id_is_its_secret_s_not_its_name() -> None:
    one, two = bridge_client_id(V, "secret-1"), bridge_client_id(V, "secret-2")
    assert one.startswith(f"wuzi-{V}-followers-") and len(one) == len(bridge_account(V)) + 13
    assert one == bridge_client_id(V, "secret-1") and one != two
    text = followers_bridge_conf(V, SETTINGS, "secret-1").splitlines()
    assert [x for x in text if x.startswith("topic ")] == [
        f"topic wuzi/v1/{V}/public/# out 1",
        f"topic wuzi/v1/{V}/competition/# out 1",
    ]
    assert f"remote_clientid {one}" in text and "address 127.0.0.1:1884" in text
    assert "remote_password secret-1" in text


def test_broker_config_writes_the_followers_broker_and_removes_its_bridge_after(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = write_venue(tmp_path, 1883, "[followers]\nwebsockets_port = 9002\n")
    out = tmp_path / "broker"

    def run() -> int:
        return main(["venue", "broker-config", "--config", str(config), "--out", str(out),
                     "--data-dir", str(tmp_path / "data")])  # fmt: skip

    assert run() == 0
    report = capsys.readouterr().out
    secret = tmp_path / "secrets" / "followers" / "bridge.pass"
    assert f"the followers' bridge: created {secret} (mode 0600)" in report
    assert stat.S_IMODE(secret.stat().st_mode) == 0o600
    folder = out / "followers"
    assert f"start it: mosquitto -c {folder / 'mosquitto.conf'}" in report
    assert "the page's --mqtt-url: ws://127.0.0.1:9002/" in report
    assert stat.S_IMODE(folder.stat().st_mode) == 0o755  # the broker's user must enter it
    for name, mode in (("mosquitto.conf", 0o644), ("passwd", 0o640), ("acl-bridge", 0o640),
                       ("acl-viewers", 0o640)):  # fmt: skip
        assert stat.S_IMODE((folder / name).stat().st_mode) == mode, name
    bridge = out / "conf.d" / "followers.conf"
    assert stat.S_IMODE(bridge.stat().st_mode) == 0o640
    password = secret.read_text().strip()
    hashed = parse_passwd((folder / "passwd").read_text())[f"wuzi-{V}-followers"]
    assert check_password(password, hashed)
    assert f"remote_password {password}" in bridge.read_text()
    conf = (out / "mosquitto.conf").read_text().splitlines()
    assert f"include_dir {out / 'conf.d'}" in conf and "allow_anonymous false" in conf
    assert "protocol websockets" not in conf  # the venue broker itself: no viewers
    # Again: the secret and its hash are kept (the bridge stays logged in).
    before = (folder / "passwd").read_text()
    assert run() == 0
    assert (folder / "passwd").read_text() == before
    assert "the followers' bridge: created" not in capsys.readouterr().out
    # Without [followers]: the bridge goes, so the venue broker stops feeding it.
    write_venue(tmp_path, 1883)
    assert run() == 0
    assert f"removed {bridge}: the venue file has no [followers]" in capsys.readouterr().out
    assert not bridge.exists() and "include_dir" not in (out / "mosquitto.conf").read_text()
