"""A hall's bridge to the central broker and the ACL across it, as text (issue 36;
`wuzi.venue.links`, `wuzi.venue.central`): the bridge block of the example halls carries
their linked tables' line topics only; a host's ACL gains its links' line and nothing
else; the central broker's accounts; the two files must agree; and the commands
``wuzi venue broker-config`` (``conf.d/links.conf``) and ``central-config``. The same
configurations on real brokers: tests/venue/test_linked_bridge.py."""

from __future__ import annotations

import shutil
import stat
from dataclasses import replace
from pathlib import Path

import pytest

from wuzi.cli import main
from wuzi.config import ConfigError, VenueConfig, load_venue, parse_venue
from wuzi.venue.bridge import BridgeError
from wuzi.venue.broker_config import acl_rules, acl_text
from wuzi.venue.central import central_accounts, central_acl_text, check_halls
from wuzi.venue.links import link_host_rules, links_conf

ROOT = Path(__file__).resolve().parents[2]
HALL_A = ROOT / "deploy" / "venue.linked-a.example.toml"
HALL_B = ROOT / "deploy" / "venue.linked-b.example.toml"
A, B = "final-2021-hall-a", "final-2021-hall-b"
THIRD = "final-2021-hall-a-3-final-2021-hall-b-3"


def halls() -> tuple[VenueConfig, VenueConfig]:
    return load_venue(HALL_A), load_venue(HALL_B)


def test_the_bridge_block_carries_the_linked_tables_line_only() -> None:
    a, _ = halls()
    text = links_conf(a, "central-secret").splitlines()
    assert [line for line in text if line.startswith("topic ")] == [
        f"topic wuzi/v1/{A}/line/final-board-1/# out 1",
        f"topic wuzi/v1/{B}/line/final-board-1/# in 1",
        f"topic wuzi/v1/{A}/line/final-board-2/# out 1",
        f"topic wuzi/v1/{B}/line/final-board-2/# in 1",
        f"topic wuzi/v1/{A}/line/{THIRD}/# out 1",
        f"topic wuzi/v1/{B}/line/{THIRD}/# in 1",
    ]
    for line in (
        "connection wuzi-final-2021-hall-a-line",
        "address central.example.org:8883",
        f"remote_username wuzi.{A}.bridge.line",
        f"remote_clientid wuzi.{A}.bridge.line",
        "remote_password central-secret",
        "cleansession false",
        "notifications false",
        f"bridge_cafile {HALL_A.parent / 'secrets' / 'central-ca.pem'}",
        "bridge_insecure false",
    ):
        assert line in text, line
    with pytest.raises(BridgeError, match="white space"):
        links_conf(a, "two words")
    with pytest.raises(BridgeError, match="links no table"):
        links_conf(replace(a, links=()), None)


def test_a_host_gains_its_links_line_and_nothing_else() -> None:
    a, b = halls()
    rules = acl_rules(a)
    pi1 = {(r.access, r.topic) for r in rules[f"wuzi.{A}.host.pi-1"]}
    line_rules = {rule for rule in pi1 if "/line/" in rule[1]}
    assert line_rules == {
        ("readwrite", f"wuzi/v1/{A}/line/final-board-1/#"),
        ("read", f"wuzi/v1/{B}/line/final-board-1/#"),
        ("readwrite", f"wuzi/v1/{A}/line/final-board-2/#"),
        ("read", f"wuzi/v1/{B}/line/final-board-2/#"),
    }
    pi2 = {r.topic for r in rules[f"wuzi.{A}.host.pi-2"] if "/line/" in r.topic}
    assert pi2 == {f"wuzi/v1/{A}/line/{THIRD}/#", f"wuzi/v1/{B}/line/{THIRD}/#"}
    # nobody else of the hall writes a line topic; nobody reads the other hall's but hosts
    for name, user_rules in rules.items():
        if ".host." not in name:
            assert not any("/line/" in r.topic and r.access != "read" for r in user_rules), name
            assert not any(r.topic.startswith(f"wuzi/v1/{B}/") for r in user_rules), name
    # and the rest of the ACL is the same as without links
    plain = acl_text(replace(a, links=(), central=None))
    assert [line for line in acl_text(a).splitlines() if "/line/" not in line] == (
        plain.splitlines()
    )
    assert link_host_rules(b, (9,)) == []


def test_the_central_broker_has_one_account_per_hall() -> None:
    a, b = halls()
    accounts = central_accounts((a, b))
    assert [(x.venue, x.username) for x in accounts] == [
        (A, f"wuzi.{A}.bridge.line"),
        (B, f"wuzi.{B}.bridge.line"),
    ]
    for account, other in zip(accounts, (B, A), strict=True):
        for access, topic in account.rules:
            venue = account.venue if access == "write" else other
            assert topic.startswith(f"wuzi/v1/{venue}/line/") and topic.endswith("/#")
        assert len(account.rules) == 6
    text = central_acl_text((a, b))
    assert text.count("\nuser ") == 2 and "readwrite" not in text


def _mutated(path: Path, old: str, new: str) -> VenueConfig:
    text = path.read_text(encoding="utf-8")
    assert old in text
    return parse_venue(text.replace(old, new, 1), source=path.name, base_dir=path.parent)


@pytest.mark.parametrize(
    ("b", "key", "complaint"),
    [
        (
            ('id = "final-board-1"', 'id = "final-board-one"'),
            "links[0].id",
            "has no link of that id",
        ),
        (("other_table = 2", "other_table = 5"), "links[1]", "links its table 2 to table 5"),
        (('owner = "here"', 'owner = "there"'), "links[1].owner", "neither"),
        (
            ('url = "mqtts://central.example.org:8883"', 'url = "mqtts://other.example.org"'),
            "central.url",
            "would never meet",
        ),
        (
            ('ca_file = "secrets/central-ca.pem"', f'username = "wuzi.{A}.bridge.line"'),
            "central.username",
            "is also",
        ),
    ],
)
def test_the_two_files_must_agree(b: tuple[str, str], key: str, complaint: str) -> None:
    a = load_venue(HALL_A)
    other = _mutated(HALL_B, *b)
    with pytest.raises(ConfigError) as caught:
        check_halls((a, other))
    assert caught.value.key == key and complaint in caught.value.problem, caught.value


def test_every_linked_hall_s_file_is_needed() -> None:
    a, _ = halls()
    with pytest.raises(ConfigError, match=f"links\\[0\\].other_venue: '{B}': its venue file"):
        check_halls((a,))
    with pytest.raises(ConfigError, match=r"venue\.id"):
        check_halls((a, a))
    with pytest.raises(ConfigError, match="give the venue files"):
        check_halls(())


def _copy_halls(tmp_path: Path) -> tuple[Path, Path]:
    paths = []
    for name, source in (("a", HALL_A), ("b", HALL_B)):
        (tmp_path / name).mkdir()
        text = source.read_text(encoding="utf-8")
        text = text.replace(
            'url = "mqtts://central.example.org:8883"', 'url = "mqtt://127.0.0.1:18830"'
        )
        text = text.replace('ca_file = "secrets/central-ca.pem"', "")
        (tmp_path / name / "venue.toml").write_text(text, encoding="utf-8")
        (tmp_path / name / "secrets").mkdir(mode=0o700)
        (tmp_path / name / "secrets" / f"referee-{name}.token").write_text("r" * 32 + "\n")
        paths.append(tmp_path / name / "venue.toml")
    return paths[0], paths[1]


def test_broker_config_writes_the_hall_line_s_bridge(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    hall_a, _ = _copy_halls(tmp_path)
    out = tmp_path / "a" / "broker"
    args = ["--out", str(out), "--data-dir", str(tmp_path / "a" / "data")]
    assert main(["venue", "broker-config", "--config", str(hall_a), *args]) == 0
    report = capsys.readouterr().out
    password_file = tmp_path / "a" / "secrets" / "central" / "bridge.pass"
    assert f"created {password_file} (mode 0600)" in report
    assert stat.S_IMODE(password_file.stat().st_mode) == 0o600
    links = out / "conf.d" / "links.conf"
    assert f"wrote {links} (the hall line to the central broker 127.0.0.1:18830" in report
    assert stat.S_IMODE(links.stat().st_mode) == 0o640
    assert f"remote_password {password_file.read_text().strip()}" in links.read_text()
    conf = (out / "mosquitto.conf").read_text()
    assert f"include_dir {out / 'conf.d'}" in conf.splitlines()
    assert password_file.read_text().strip() not in conf  # mosquitto.conf is 0644
    # without [[links]] (and [central]) any more: the old file, with its password, goes
    text = hall_a.read_text()
    hall_a.write_text(text[: text.index("# The broker both halls meet at")])
    assert main(["venue", "broker-config", "--config", str(hall_a), *args]) == 0
    assert f"removed {links}: the venue file has no [[links]]" in capsys.readouterr().out
    assert not links.exists() and "include_dir" not in (out / "mosquitto.conf").read_text()


def test_central_config_writes_the_central_broker(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    hall_a, hall_b = _copy_halls(tmp_path)
    out = tmp_path / "central"
    args = ["--out", str(out), "--data-dir", str(tmp_path / "data")]
    configs = ["--config", str(hall_a), "--config", str(hall_b)]
    assert main(["venue", "central-config", *configs, *args]) == 0
    report = capsys.readouterr().out
    assert f"hall {A}: bridge account wuzi.{A}.bridge.line, password created" in report
    conf = (out / "mosquitto.conf").read_text().splitlines()
    assert "listener 18830" in conf and "allow_anonymous false" in conf
    assert "use_username_as_clientid true" in conf
    passwd = (out / "passwd").read_text()
    assert passwd.startswith(f"wuzi.{A}.bridge.line:$7$") and passwd.count("\n") == 2
    assert (out / "acl").read_text().count("\nuser ") == 2
    # run again: the same hashes (nobody logged out)
    assert main(["venue", "central-config", *configs, *args]) == 0
    assert (out / "passwd").read_text() == passwd
    # one hall's file alone: exit 1 naming the key
    capsys.readouterr()
    assert main(["venue", "central-config", "--config", str(hall_a), *args]) == 1
    err = capsys.readouterr().err
    assert err.startswith("wuzi venue central-config: ") and "links[0].other_venue" in err
    # a hall without links
    plain = tmp_path / "plain.toml"
    shutil.copy(ROOT / "deploy" / "venue.example.toml", plain)
    assert main(["venue", "central-config", "--config", str(plain), *args]) == 1
    assert "links: the venue file links no table" in capsys.readouterr().err


def test_docs_linked_md_shows_the_bridge_as_generated() -> None:
    """docs/linked.md quotes team A's ``links.conf``; only the password and the CA path
    are written there as placeholders."""
    a, _ = halls()
    page = (ROOT / "docs" / "linked.md").read_text(encoding="utf-8")
    start = page.index("```\n# Hall line of venue") + 4
    shown = page[start : page.index("```", start)].splitlines()
    generated = links_conf(a, "PASSWORD").splitlines()
    generated[generated.index("remote_password PASSWORD")] = (
        "remote_password <the password of secrets/central/bridge.pass>"
    )
    ca = f"bridge_cafile {HALL_A.parent / 'secrets' / 'central-ca.pem'}"
    generated[generated.index(ca)] = (
        "bridge_cafile <the venue file's folder>/secrets/central-ca.pem"
    )
    assert shown == generated


def test_central_config_over_tls_needs_the_certificate(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    configs = ["--config", str(HALL_A), "--config", str(HALL_B)]
    args = ["--out", str(tmp_path / "central"), "--data-dir", str(tmp_path / "data")]
    assert main(["venue", "central-config", *configs, *args]) == 1
    err = capsys.readouterr().err
    assert "the [central] url mqtts://central.example.org:8883 is mqtts://" in err
    assert "--tls-cert" in err and not (tmp_path / "central").exists()
