"""The generated broker files as text, the password hashes and secret files, and the
``wuzi venue broker-config`` command (no broker here: test_broker_acl.py runs one)."""

from __future__ import annotations

import grp
import os
import pwd
import stat
import subprocess
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest

from wuzi.bus import topics
from wuzi.cli import main
from wuzi.config import load_venue, parse_venue
from wuzi.venue.broker_config import (
    MAX_QUEUED_MESSAGES,
    AclRule,
    BrokerSettings,
    TlsListener,
    acl_rules,
    acl_text,
    mosquitto_conf,
)
from wuzi.venue.passwords import (
    PasswdError,
    check_password,
    ensure_secret,
    format_passwd,
    hash_for,
    hash_password,
    parse_passwd,
    read_secret,
)

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = load_venue(ROOT / "deploy" / "venue.example.toml")
V = EXAMPLE.id

# The writer's own user and group: the machine has no user "wuzi" (tests/venue/test_secret_owner.py)
MINE = f"owner {pwd.getpwuid(os.geteuid()).pw_name}:{grp.getgrgid(os.getegid()).gr_name}"


def may(rules: tuple[AclRule, ...], access: str, topic: str) -> bool:
    """Mosquitto's reading of one user's ACL for a concrete topic."""
    wanted = {"read": ("read", "readwrite"), "write": ("write", "readwrite")}[access]
    return any(r.access in wanted and mqtt.topic_matches_sub(r.topic, topic) for r in rules)


def every_topic(venue: str, tables: range, hosts: tuple[str, ...]) -> list[str]:
    found = [topics.arbiter_commands(venue), topics.competition_state(venue)]
    for n in tables:
        found += [
            topics.table_state(venue, n),
            topics.table_events(venue, n),
            topics.assignment(venue, n),
            topics.arbiter_alerts(venue, n),
            topics.arbiter_state(venue, n),
            topics.public_state(venue, n),
            topics.public_events(venue, n),
        ]
    found += [topics.host_status(venue, h) for h in hosts]
    return found


def A(role: str, ident: str) -> str:
    """The example's account (and client id) of ``role``'s ``ident``."""
    return f"wuzi.{V}.{role}.{ident}"


LIVE = {A("screen", n) for n in ("scoreboard-hall", "clock1-table1", "clock2-table2")}
PUBLIC = {A("screen", "foyer"), A("screen", "web-central")}
BROADCAST = A("broadcast", "broadcast")
REFEREES = {A(r, n) for r in ("referee", "referee-send") for n in ("chief-arbiter", "deputy")}


def test_who_may_write_each_topic_of_the_tree() -> None:
    rules = acl_rules(EXAMPLE)
    assert list(rules) == [
        A("host", "pi-1"), A("check", "pi-1"), A("host", "pi-2"), A("check", "pi-2"),
        A("director", "director"), A("director-live", "director"), BROADCAST,
        A("screen", "scoreboard-hall"), A("screen", "clock1-table1"),
        A("screen", "clock2-table2"), A("screen", "foyer"), A("screen", "web-central"),
        A("referee", "chief-arbiter"), A("referee-send", "chief-arbiter"),
        A("referee", "deputy"), A("referee-send", "deputy"),
    ]  # fmt: skip
    for topic in every_topic(V, range(1, 6), ("pi-1", "pi-2", "pi-3")):
        writers = {user for user, r in rules.items() if may(r, "write", topic)}
        kind = topics.parse_topic(topic)
        if kind.kind in (topics.TopicKind.PUBLIC_STATE, topics.TopicKind.PUBLIC_EVENTS):
            assert writers == {BROADCAST}, topic  # the delayed feed: never a host
        elif kind.table is not None and kind.kind is not topics.TopicKind.ASSIGNMENT:
            owner = {1: "pi-1", 2: "pi-1", 3: "pi-2", 4: "pi-2"}.get(kind.table)
            assert writers == ({A("host", owner)} if owner else set()), topic
        elif kind.kind is topics.TopicKind.HOST_STATUS:
            assert kind.host is not None
            expected = {A("host", kind.host), A("check", kind.host)}
            assert writers == (expected if kind.host != "pi-3" else set()), topic
        elif kind.kind in (topics.TopicKind.ASSIGNMENT, topics.TopicKind.COMPETITION):
            assert writers == {A("director", "director")}, topic
        else:
            assert kind.kind is topics.TopicKind.ARBITER_COMMANDS
            assert writers == REFEREES


def test_who_may_read_each_topic_of_the_tree() -> None:
    rules = acl_rules(EXAMPLE)
    director, live = A("director", "director"), A("director-live", "director")
    for topic in every_topic(V, range(1, 5), ("pi-1", "pi-2")):
        readers = {user for user, r in rules.items() if may(r, "read", topic)}
        kind = topics.parse_topic(topic).kind
        assert readers >= REFEREES, topic
        assert A("check", "pi-1") not in readers, topic  # the check account reads nothing
        if kind in topics.REFEREE_ONLY:
            assert not readers & (LIVE | PUBLIC), topic
        if kind in (topics.TopicKind.TABLE_STATE, topics.TopicKind.TABLE_EVENTS):
            assert readers >= LIVE | {BROADCAST} and not PUBLIC & readers, topic
        else:
            assert BROADCAST not in readers, topic  # the live tables only
        if kind is topics.TopicKind.TABLE_STATE:
            assert live in readers and director not in readers, topic
        if kind is topics.TopicKind.TABLE_EVENTS:
            assert director in readers and live not in readers, topic
        if kind in (topics.TopicKind.PUBLIC_STATE, topics.TopicKind.PUBLIC_EVENTS):
            assert readers >= LIVE | PUBLIC, topic
    assert may(rules[A("host", "pi-1")], "read", topics.assignment(V, 2))
    assert not may(rules[A("host", "pi-1")], "read", topics.assignment(V, 3))
    assert may(rules[A("host", "pi-2")], "read", topics.arbiter_commands(V))
    assert may(rules[director], "read", topics.arbiter_commands(V))
    assert not may(rules[director], "read", topics.arbiter_alerts(V, 1))
    assert may(rules[live], "read", topics.host_status(V, "pi-1"))
    assert not may(rules[live], "write", topics.assignment(V, 1))
    assert may(rules[A("screen", "foyer")], "read", topics.competition_state(V))


def test_the_acl_text_has_a_block_per_user_and_nothing_else() -> None:
    text = acl_text(EXAMPLE)
    blocks = [line for line in text.splitlines() if line.startswith("user ")]
    assert blocks == [f"user {name}" for name in acl_rules(EXAMPLE)]
    for line in text.splitlines():
        assert not line or line.startswith(("#", "user ", "topic read ", "topic write ",
                                            "topic readwrite "))  # fmt: skip
        if line.startswith("topic"):
            assert line.split()[2].startswith(f"wuzi/v1/{V}/")
    assert "pattern" not in text
    assert "# host pi-1 (tables 1, 2)" in text


def settings(**extra: object) -> BrokerSettings:
    return BrokerSettings(password_file="/b/passwd", acl_file="/b/acl", data_dir="/d", **extra)  # type: ignore[arg-type]


def test_mosquitto_conf_refuses_anonymous_and_raises_the_limits() -> None:
    conf = mosquitto_conf(EXAMPLE, settings(port=1883, bind="10.0.0.1"))
    lines = conf.splitlines()
    for line in (
        "allow_anonymous false",
        "per_listener_settings false",
        "password_file /b/passwd",
        "acl_file /b/acl",
        "listener 1883 10.0.0.1",
        "persistence true",
        "persistence_location /d/",
        f"max_queued_messages {MAX_QUEUED_MESSAGES}",
        "max_inflight_messages 100",
    ):
        assert line in lines, line
    assert MAX_QUEUED_MESSAGES > 1000  # Mosquitto's default drops bursts
    assert "certfile" not in conf and "allow_anonymous true" not in conf


def test_mosquitto_conf_with_tls() -> None:
    tls = TlsListener(8883, "/c/broker.crt", "/c/broker.key", "/c/ca.pem")
    conf = mosquitto_conf(EXAMPLE, settings(port=None, tls=tls)).splitlines()
    assert "listener 8883" in conf
    assert [line for line in conf if line.startswith("listener")] == ["listener 8883"]
    for line in ("cafile /c/ca.pem", "certfile /c/broker.crt", "keyfile /c/broker.key"):
        assert line in conf
    plain_too = mosquitto_conf(EXAMPLE, settings(port=1883, tls=tls))
    assert "listener 1883" in plain_too and "listener 8883" in plain_too
    with pytest.raises(ValueError, match="needs a listener"):
        mosquitto_conf(EXAMPLE, settings(port=None))


def test_names_that_clashed_as_bare_users_are_distinct_accounts() -> None:
    """A referee named like a host, a screen named like the director: each role has its
    own part of the name, so no name can give an account another's rights."""
    text = (ROOT / "deploy" / "venue.example.toml").read_text(encoding="utf-8")
    text = text.replace('name = "deputy"', 'name = "pi-2"')
    venue = parse_venue(text.replace('public = ["foyer",', 'public = ["director",'))
    rules = acl_rules(venue)
    assert rules[A("referee", "pi-2")] == rules[A("referee", "chief-arbiter")]
    assert not may(rules[A("referee", "pi-2")], "write", topics.table_state(V, 3))
    assert not may(rules[A("screen", "director")], "write", topics.assignment(V, 1))


def test_every_listener_binds_the_client_id_to_the_account() -> None:
    tls = TlsListener(8883, "/c/broker.crt", "/c/broker.key")
    conf = mosquitto_conf(EXAMPLE, settings(port=1883, tls=tls)).splitlines()
    listeners = [i for i, line in enumerate(conf) if line.startswith("listener ")]
    binds = [i for i, line in enumerate(conf) if line == "use_username_as_clientid true"]
    assert len(listeners) == len(binds) == 2
    # a listener setting: after its listener line, else Mosquitto opens 1883 for it
    assert listeners[0] < binds[0] < listeners[1] < binds[1]


# --- passwords ---------------------------------------------------------------------------


def test_hashes_are_mosquitto_s_own_format() -> None:
    hashed = hash_password("s3cret", salt=b"\x00" * 12)
    assert hashed.startswith("$7$101$AAAAAAAAAAAAAAAA$") and hashed.endswith("==")
    assert check_password("s3cret", hashed) and not check_password("s3cre", hashed)
    assert not check_password("s3cret", "$6$whatever")
    assert hash_password("s3cret") != hash_password("s3cret")  # a fresh salt each time
    assert hash_for("s3cret", hashed) == hashed
    assert hash_for("other", hashed) != hashed
    with pytest.raises(PasswdError, match="empty"):
        hash_password("")


def test_mosquitto_passwd_hashes_verify(tmp_path: Path) -> None:
    """The other direction: a hash written by mosquitto_passwd is checked the same way."""
    passwd = tmp_path / "passwd"
    subprocess.run(
        ["mosquitto_passwd", "-b", "-c", str(passwd), "alice", "open sesame"],
        check=True,
        capture_output=True,
    )
    entries = parse_passwd(passwd.read_text())
    assert check_password("open sesame", entries["alice"])
    assert not check_password("open sesame!", entries["alice"])


def test_passwd_files_parse_and_format() -> None:
    entries = {"pi-1": "$7$1$a$b", "screens": "$7$2$c$d"}
    text = format_passwd(entries)
    assert text == "pi-1:$7$1$a$b\nscreens:$7$2$c$d\n"
    assert parse_passwd("# comment\n\n" + text) == entries
    with pytest.raises(PasswdError, match="line 2: not 'user:hash'"):
        parse_passwd("a:b\nnonsense\n")
    with pytest.raises(PasswdError, match="line 2: user 'a' appears twice"):
        parse_passwd("a:b\na:c\n")
    with pytest.raises(PasswdError, match="cannot go in a password file"):
        format_passwd({"a:b": "$7$x"})
    with pytest.raises(PasswdError, match="white space"):
        format_passwd({"a": "$7$ x"})


def test_secrets_are_private_and_kept(tmp_path: Path) -> None:
    path = tmp_path / "secrets" / "pi-1.pass"
    assert read_secret(path) is None
    secret, created = ensure_secret(path)
    assert created and len(secret) >= 32
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    assert ensure_secret(path) == (secret, False)
    path.write_text("")
    with pytest.raises(PasswdError, match=r"pi-1\.pass: empty"):
        ensure_secret(path)


# --- the command -------------------------------------------------------------------------


def venue_dir(tmp_path: Path, url: str = "mqtt://127.0.0.1:1884") -> Path:
    text = (ROOT / "deploy" / "venue.example.toml").read_text(encoding="utf-8")
    text = text.replace('url = "mqtts://broker.venue.lan:8883"', f'url = "{url}"')
    if url.startswith("mqtt:"):
        text = text.replace('ca_file = "secrets/venue-ca.pem"', "")
    text = text.replace('broker_password_file = "/etc/wuzi/broker.pass"', "")
    (tmp_path / "venue.toml").write_text(text, encoding="utf-8")
    (tmp_path / "secrets").mkdir(mode=0o700)
    (tmp_path / "secrets" / "deputy.token").write_text("d" * 32 + "\n")
    return tmp_path / "venue.toml"


def run(config: Path, out: Path, *extra: str) -> int:
    return main(
        ["venue", "broker-config", "--config", str(config), "--out", str(out),
         "--data-dir", str(out.parent / "data"), *extra]
    )  # fmt: skip


def test_the_command_writes_the_files_and_the_missing_secrets(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = venue_dir(tmp_path)
    out = tmp_path / "broker"
    assert run(config, out) == 0
    report = capsys.readouterr().out
    secrets = tmp_path / "secrets"
    names = ("pi-1", "pi-2", "director", "broadcast/broadcast", "screens/scoreboard-hall")
    for name in (*names, "screens/foyer", "screens/web-central"):
        assert report.count(f"created {secrets / name}.pass ({MINE}, mode 0600)") == 1, name
        assert stat.S_IMODE((secrets / f"{name}.pass").stat().st_mode) == 0o600
    assert stat.S_IMODE((secrets / "screens").stat().st_mode) == 0o700
    assert stat.S_IMODE((secrets / "broadcast").stat().st_mode) == 0o700
    assert (
        f"broadcast broadcast: created {secrets / 'broadcast' / 'broadcast.pass'} "
        f"({MINE}, mode 0600): "
        "copy it to the machine that runs wuzi broadcast, beside its venue file"
    ) in report
    assert report.count(f"referee deputy: kept {secrets / 'deputy.token'}") == 1
    assert "referee chief-arbiter: logs in with the password of referees[0].password_hash" in report
    assert f"wrote {out / 'passwd'} (16 accounts)" in report
    assert "note: the shared [broker] user 'wuzi' is not an account of this broker" in report
    conf = (out / "mosquitto.conf").read_text()
    assert f"password_file {out / 'passwd'}" in conf and "listener 1884" in conf
    assert (out / "acl").read_text() == acl_text(load_venue(config))
    entries = parse_passwd((out / "passwd").read_text())
    assert list(entries) == list(acl_rules(load_venue(config)))
    password = (secrets / "pi-1.pass").read_text().strip()
    assert check_password(password, entries[A("host", "pi-1")])
    assert check_password(password, entries[A("check", "pi-1")])  # one secret, two accounts
    director = (secrets / "director.pass").read_text().strip()
    assert check_password(director, entries[A("director-live", "director")])
    assert check_password("d" * 32, entries[A("referee", "deputy")])
    assert check_password("d" * 32, entries[A("referee-send", "deputy")])
    hashed = load_venue(config).referees[0].password_hash
    assert entries[A("referee", "chief-arbiter")] == entries[A("referee-send", "chief-arbiter")]
    assert entries[A("referee", "chief-arbiter")] == hashed
    assert stat.S_IMODE((out / "passwd").stat().st_mode) == 0o640
    if os.geteuid() == 0:
        import grp

        assert grp.getgrgid((out / "passwd").stat().st_gid).gr_name == "mosquitto"


def test_running_it_again_changes_nothing(tmp_path: Path) -> None:
    config = venue_dir(tmp_path)
    out = tmp_path / "broker"
    assert run(config, out) == 0
    files = [*out.iterdir(), *(tmp_path / "secrets").rglob("*.*")]
    before = {p.name: p.read_bytes() for p in files}
    assert run(config, out) == 0
    after = {p.name: p.read_bytes() for p in files}
    assert after == before
    # A new password (the organiser replaced a file) gets a new hash; the others stay.
    (tmp_path / "secrets" / "pi-2.pass").write_text("a-new-password\n")
    assert run(config, out) == 0
    entries = parse_passwd((out / "passwd").read_text())
    pi1, pi2 = A("host", "pi-1"), A("host", "pi-2")
    assert check_password("a-new-password", entries[pi2])
    assert check_password("a-new-password", entries[A("check", "pi-2")])
    old = parse_passwd(before["passwd"].decode())
    assert entries[pi1] == old[pi1] and entries[pi2] != old[pi2]


def test_a_bad_venue_file_is_exit_1_naming_the_key(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = venue_dir(tmp_path)
    config.write_text(config.read_text().replace('id = "pi-2"', 'id = "Pi 2"'))
    assert run(config, tmp_path / "broker") == 1
    err = capsys.readouterr().err
    assert err.startswith("wuzi venue broker-config: ")
    assert "hosts[1].id: 'Pi 2' is not topic-safe" in err
    assert not (tmp_path / "broker").exists()
    assert run(tmp_path / "missing.toml", tmp_path / "broker") == 1
    assert "missing.toml: cannot read" in capsys.readouterr().err


def test_the_old_shared_screens_login_is_exit_1_saying_what_to_write(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = venue_dir(tmp_path)
    text = config.read_text()
    start = text.index("\n[screens]\n")
    end = text.index("\n[[hosts]]\n")
    config.write_text(text[: start + 1] + '[screens]\nuser = "screens"\n' + text[end:])
    assert run(config, tmp_path / "broker") == 1
    err = capsys.readouterr().err
    assert "screens.user: the screens no longer share a broker login" in err
    assert "live = [" in err and "secrets/screens/<name>.pass" in err


BRIDGE = """
[bridge]
address = "mqtt.example.org"
username = "venue-out"
password_file = "secrets/bridge.pass"
"""


def test_a_bridge_gets_a_private_file_that_mosquitto_conf_includes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = venue_dir(tmp_path)
    plain = config.read_text()
    config.write_text(plain + BRIDGE)
    out = tmp_path / "broker"
    assert run(config, out) == 1  # the password file is read here, on the broker's machine
    err = capsys.readouterr().err
    assert f"bridge.password_file: cannot read {tmp_path / 'secrets' / 'bridge.pass'}" in err
    assert not (out / "conf.d").exists()
    (tmp_path / "secrets" / "bridge.pass").write_text("outside-secret\n")
    assert run(config, out) == 0
    report = capsys.readouterr().out
    bridge = out / "conf.d" / "bridge.conf"
    assert f"wrote {bridge} (the bridge to mqtt.example.org:1883: public/# and competition/#" in (
        report
    )
    text = bridge.read_text().splitlines()
    assert stat.S_IMODE(bridge.stat().st_mode) == 0o640
    assert "remote_password outside-secret" in text and "remote_username venue-out" in text
    assert [line for line in text if line.startswith("topic ")] == [
        f"topic wuzi/v1/{V}/public/# out 1",
        f"topic wuzi/v1/{V}/competition/# out 1",
    ]
    conf = (out / "mosquitto.conf").read_text()
    assert f"include_dir {out / 'conf.d'}" in conf.splitlines()
    assert "outside-secret" not in conf  # mosquitto.conf is 0644
    if os.geteuid() == 0:
        import grp

        assert grp.getgrgid(bridge.stat().st_gid).gr_name == "mosquitto"
    # Without the [bridge] any more: no include, and the old file with its password goes.
    config.write_text(plain)
    assert run(config, out) == 0
    assert f"removed {bridge}: the venue file has no [bridge]" in capsys.readouterr().out
    assert not bridge.exists() and "include_dir" not in (out / "mosquitto.conf").read_text()


def test_tls_options(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = venue_dir(tmp_path, url="mqtts://broker.lan:8884")
    out = tmp_path / "broker"
    assert run(config, out) == 1
    assert "is mqtts://: give --tls-cert and --tls-key" in capsys.readouterr().err
    cert, key = tmp_path / "b.crt", tmp_path / "b.key"
    assert run(config, out, "--tls-cert", str(cert)) == 1
    assert "give --tls-cert and --tls-key together" in capsys.readouterr().err
    assert run(config, out, "--tls-cert", str(cert), "--tls-key", str(key)) == 1
    assert f"--tls-cert: no file {cert}" in capsys.readouterr().err
    cert.write_text("x")
    key.write_text("x")
    assert run(config, out, "--tls-cert", str(cert), "--tls-key", str(key)) == 0
    conf = (out / "mosquitto.conf").read_text().splitlines()
    assert [line for line in conf if line.startswith("listener")] == ["listener 8884"]
    assert f"certfile {cert}" in conf
    assert run(config, out, "--port", "0") == 1
    assert "--port must be 1..65535" in capsys.readouterr().err


def test_venue_alone_shows_its_subcommands(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["venue"]) == 2
    assert "broker-config" in capsys.readouterr().out
