"""The venue file: the shipped example loads, and every mistake names its key."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from wuzi.config import ConfigError, VenueConfig, load_venue, parse_venue

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE_PATH = ROOT / "deploy" / "venue.example.toml"
EXAMPLE = EXAMPLE_PATH.read_text(encoding="utf-8")


def edited(old: str, new: str) -> str:
    assert EXAMPLE.count(old) >= 1, old
    return EXAMPLE.replace(old, new, 1)


def test_example_loads_with_every_section() -> None:
    venue = load_venue(EXAMPLE_PATH)
    assert venue.id == "team-final-2025"
    assert venue.broker.tls and venue.broker.port == 8883
    assert venue.broker.host == "broker.venue.lan"
    assert venue.broker.password_file == str(EXAMPLE_PATH.parent / "secrets/broker.pass")
    assert [h.id for h in venue.hosts] == ["pi-1", "pi-2"]
    assert [t.number for t in venue.tables()] == [1, 2, 3, 4]
    assert venue.director_id == "director"
    assert [r.name for r in venue.referees] == ["chief-arbiter", "deputy"]
    gpio = venue.table(2).clock_gpio
    assert gpio is not None and gpio.pins()["claim_button"] == 13
    assert venue.table(4).board_port == "sim://board/4"
    assert venue.table(4).clock_port == "sim://clock/4"
    assert venue.defaults.ruleset is not None and venue.defaults.ruleset.name == "renju"
    assert venue.defaults.opening == "soosorv-8"
    assert venue.defaults.time_control is not None
    assert str(venue.defaults.time_control) == "2700+30"


def test_docs_carry_the_same_example() -> None:
    docs = (ROOT / "docs" / "config.md").read_text(encoding="utf-8")
    assert EXAMPLE.strip() in docs


def test_lookups() -> None:
    venue = parse_venue(EXAMPLE)
    assert venue.host("pi-2").tables[0].number == 3
    assert venue.host_of_table(2).id == "pi-1"
    assert venue.table(3).board_port == "socket://10.0.0.23:7000"
    with pytest.raises(KeyError):
        venue.host("pi-9")
    with pytest.raises(KeyError):
        venue.table(5)
    with pytest.raises(KeyError):
        venue.host_of_table(0)


def test_config_is_frozen_and_hides_the_password() -> None:
    venue = parse_venue(edited('password_file = "secrets/broker.pass"', 'password = "hunter2"'))
    assert venue.broker.password == "hunter2"
    assert "hunter2" not in repr(venue)
    with pytest.raises(dataclasses.FrozenInstanceError):
        venue.id = "x"  # type: ignore[misc]


def test_minimal_venue_and_credentials_in_the_url() -> None:
    text = """
[venue]
id = "club"
name = "Club night"
[broker]
url = "mqtt://ref:s3cret@localhost"
[[hosts]]
id = "h"
[[hosts.tables]]
number = 1
board_port = "sim://board/1"
clock_port = "sim://clock/1"
"""
    venue = parse_venue(text)
    assert isinstance(venue, VenueConfig)
    assert (venue.broker.port, venue.broker.tls) == (1883, False)
    assert (venue.broker.username, venue.broker.password) == ("ref", "s3cret")
    assert venue.director_id is None and venue.referees == ()
    assert venue.defaults.ruleset is None


# (old text, new text, the start of the message after "venue.toml: ")
BROKEN = [
    ('id = "team-final-2025"', 'id = "Team Final"', "venue.id: 'Team Final' is not topic-safe"),
    ('id = "team-final-2025"', "id = 2025", "venue.id: expected a string, found an integer (2025)"),
    ('name = "National Team Championship, Final"\n', "", "venue.name: missing"),
    ("[venue]", "[venu]", "venu: unknown key; did you mean 'venue'?"),
    ('url = "mqtts://broker.venue.lan:8883"', 'url = "http://x"', "broker.url: broker URL"),
    ('url = "mqtts://broker.venue.lan:8883"', 'url = "mqtts://b:99999"', "broker.url: broker URL"),
    ('url = "mqtts://broker.venue.lan:8883"', 'url = "mqtt://b"', "broker.ca_file: is only used"),
    ('url = "mqtts://broker.venue.lan:8883"', 'url = "mqtts://[b"', "broker.url: broker URL"),
    ('username = "wuzi"\n', "", "broker.username: missing: a password needs a username"),
    ('ca_file = "', 'password = "x"\nca_file = "', "broker.password_file: give password or"),
    (
        'username = "wuzi"',
        'usrname = "wuzi"',
        "broker.usrname: unknown key; did you mean 'username'",
    ),
    ('id = "pi-2"', 'id = "pi-1"', "hosts[1].id: 'pi-1' is already used by hosts[0]"),
    (
        "number = 3",
        "number = 2",
        "hosts[1].tables[0].number: 2 is already used by hosts[0].tables[1]",
    ),
    ("number = 3", "number = 1000", "hosts[1].tables[0].number: 1000 is out of range 1..999"),
    (
        "number = 3",
        'number = "3"',
        "hosts[1].tables[0].number: expected an integer, found a string",
    ),
    (
        "number = 3",
        "number = true",
        "hosts[1].tables[0].number: expected an integer, found a boolean",
    ),
    (
        "[[hosts.tables]]\n  number = 1",
        "[[hosts.tabels]]\n  number = 1",
        "hosts[0].tabels: unknown key; did you mean 'tables'?",
    ),
    (
        'board_port = "/dev/wuzi/by-serial/E6614C311B7C8A2F"',
        'board_port = "ttyACM0"',
        "hosts[0].tables[0].board_port: 'ttyACM0' is neither",
    ),
    (
        'clock_port = "/dev/wuzi/by-serial/E6614104037B3F2C"',
        'clock_port = "/dev/wuzi/by-serial/E6614C311B7C8A2F"',
        "hosts[0].tables[0].clock_port: '/dev/wuzi/by-serial/E6614C311B7C8A2F' is already used by "
        "hosts[0].tables[0].board_port",
    ),
    (
        'clock_port = "/dev/wuzi/by-serial/E6614104037B3F2C"',
        'clock_port = "/dev/c"\n  clock_gpio = {}',
        "hosts[0].tables[0].clock_gpio: give clock_port or clock_gpio, not both",
    ),
    (
        'clock_port = "/dev/wuzi/by-serial/E6614104037B3F2C"',
        "#",
        "hosts[0].tables[0].clock_port: missing",
    ),
    (
        "claim_button = 13, clk = 19",
        "claim_button = 13, clk = 5",
        "hosts[0].tables[1].clock_gpio.clk: pin 5 is already used by "
        "hosts[0].tables[1].clock_gpio.black_button",
    ),
    (
        "black_button = 5, white_button = 6, claim_button = 13, clk = 19, dio = 26 }\n\n[[hosts]]",
        "black_button = 5, white_button = 6, claim_button = 13, clk = 19, dio = 40 }\n\n[[hosts]]",
        "hosts[0].tables[1].clock_gpio.dio: 40 is out of range 0..27",
    ),
    (
        "black_button = 5, white_button = 6, claim_button = 13, clk = 19, dio = 26 }\n\n[[hosts]]",
        "black_button = 5, white_button = 6, claim_button = 13, clk = 19 }\n\n[[hosts]]",
        "hosts[0].tables[1].clock_gpio.dio: missing",
    ),
    (
        "clk = 19, dio = 26 }\n\n[[hosts]]",
        "clk = 19, dio = 26, led = 4 }\n\n[[hosts]]",
        "hosts[0].tables[1].clock_gpio.led: unknown key",
    ),
    (
        "clock_gpio = { black",
        "clock_gpio = 7\n  #{ black",
        "hosts[0].tables[1].clock_gpio: expected a table",
    ),
    (
        '[director]\nid = "director"',
        '[director]\nid = "pi-2"',
        "director.id: 'pi-2' is already used by hosts[1]",
    ),
    (
        'name = "deputy"',
        'name = "chief-arbiter"',
        "referees[1].name: 'chief-arbiter' is already used",
    ),
    (
        'name = "deputy"',
        'name = "Li Wei"',
        "referees[1].name: 'Li Wei' cannot sign commands",
    ),
    (
        'password_hash = "$7$',
        'password_hash = "hunter2"\n#"',
        "referees[0].password_hash: is not a password hash",
    ),
    ('token_file = "secrets/deputy.token"', "", "referees[1].password_hash: missing"),
    ('ruleset = "renju"', 'ruleset = "renjoo"', "defaults.ruleset: unknown rule set 'renjoo'"),
    ('opening = "soosorv-8"', 'opening = "swap3"', "defaults.opening: unknown opening procedure"),
    ('time_control = "team-final"', 'time_control = "45 min"', "defaults.time_control: "),
    (
        'time_control = "team-final"',
        "time_control = 2700",
        "defaults.time_control: expected a string",
    ),
    (
        '[[referees]]\nname = "deputy"',
        '[[referee]]\nname = "deputy"',
        "referee: unknown key; did you mean 'referees'?",
    ),
    ('name = "National Team Championship, Final"', "name =", "line 6: TOML syntax: "),
]


@pytest.mark.parametrize(("old", "new", "message"), BROKEN, ids=[b[2][:40] for b in BROKEN])
def test_every_mistake_names_its_key(old: str, new: str, message: str) -> None:
    with pytest.raises(ConfigError) as caught:
        parse_venue(edited(old, new))
    assert str(caught.value).startswith(f"venue.toml: {message}"), str(caught.value)


def test_no_hosts_and_wrong_shapes() -> None:
    base = '[venue]\nid = "v"\nname = "V"\n[broker]\nurl = "mqtt://b"\n'
    with pytest.raises(ConfigError, match=r"^venue\.toml: hosts: missing"):
        parse_venue(base)
    with pytest.raises(ConfigError, match=r"^venue\.toml: hosts: expected an array of tables"):
        parse_venue("hosts = 3\n" + base)
    with pytest.raises(
        ConfigError, match=r"^venue\.toml: director: expected a table \(\[director\]\)"
    ):
        parse_venue(
            "director = 3\n" + base + '[[hosts]]\nid = "h"\n[[hosts.tables]]\nnumber = 1\n'
            'board_port = "sim://board/1"\nclock_port = "sim://clock/1"\n'
        )
    with pytest.raises(ConfigError, match=r"^venue\.toml: hosts\[0\]\.tables: missing"):
        parse_venue(base + '[[hosts]]\nid = "h"\n')
    with pytest.raises(ConfigError, match=r"^venue\.toml: venue: missing"):
        parse_venue("")


def test_load_errors_name_the_file(tmp_path: Path) -> None:
    missing = tmp_path / "nope.toml"
    with pytest.raises(ConfigError, match=r"nope\.toml: cannot read"):
        load_venue(missing)
    bad = tmp_path / "bad.toml"
    bad.write_bytes(b"\xff\xfe")
    with pytest.raises(ConfigError, match=r"bad\.toml: not UTF-8"):
        load_venue(bad)
    typo = tmp_path / "typo.toml"
    typo.write_text(EXAMPLE.replace("[venue]", '[venue]\nnmae = "x"'), encoding="utf-8")
    with pytest.raises(
        ConfigError, match=r"typo\.toml: venue\.nmae: unknown key; did you mean 'name'"
    ):
        load_venue(typo)


_SNIPPETS = st.sampled_from(
    [
        "=",
        '"',
        "[",
        "]",
        "[[hosts]]",
        "[[hosts.tables]]",
        "{",
        "}",
        ",",
        "\n",
        "#",
        "0",
        "-1",
        "true",
        "1.5",
        "'",
        "x = 1\n",
        "number = 1\n",
        "clk = 5",
        "1979-05-27",
        "\\",
        " ",
        "sim",
    ]
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    edits=st.lists(
        st.tuples(
            st.integers(0, len(EXAMPLE)),
            st.integers(0, 12),
            st.one_of(_SNIPPETS, st.text(max_size=4)),
        ),
        min_size=1,
        max_size=4,
    )
)
def test_random_edits_raise_only_config_errors(edits: list[tuple[int, int, str]]) -> None:
    text = EXAMPLE
    for at, cut, insert in edits:
        at = min(at, len(text))
        text = text[:at] + insert + text[at + cut :]
    try:
        venue = parse_venue(text)
    except ConfigError as exc:
        assert str(exc).startswith("venue.toml: ")
    else:
        assert isinstance(venue, VenueConfig)


def uncommented(text: str, *sections: str) -> str:
    """``text`` with the commented-out ``# [section]`` blocks of ``sections`` made live
    (each block runs to the next blank line)."""
    lines, live = [], False
    for line in text.splitlines():
        if line in {f"# [{name}]" for name in sections}:
            live = True
        elif not line:
            live = False
        lines.append(line[2:] if live else line)
    return "\n".join(lines) + "\n"


def test_the_example_s_commented_broadcast_and_bridge_are_valid_as_shown() -> None:
    """Without the sections: the defaults; uncommented, what the comments say."""
    plain = load_venue(EXAMPLE_PATH)
    assert plain.broadcast.id == "broadcast" and plain.broadcast.delay_minutes == 15
    assert plain.bridge is None
    assert "web-central" in plain.screens.public  # wuzi web on the machine "central"
    venue = parse_venue(uncommented(EXAMPLE, "broadcast", "bridge"), base_dir=ROOT / "deploy")
    assert venue.broadcast == dataclasses.replace(
        plain.broadcast, journal=str(ROOT / "deploy" / "broadcast.sqlite"), journal_given=True
    )
    bridge = venue.bridge
    assert bridge is not None
    assert (bridge.host, bridge.port, bridge.tls) == ("mqtt.example.org", 8883, True)
    assert bridge.name == f"wuzi-{venue.id}-public" and bridge.username is not None
    assert bridge.password_file == str(ROOT / "deploy" / "secrets" / "bridge.pass")


@pytest.mark.parametrize(
    ("section", "message"),
    [
        ("[broadcast]\ndelay_minutes = 300\n", "broadcast.delay_minutes: the delay must be 0-240"),
        ('[broadcast]\nid = "a b"\n', "broadcast.id: "),
        ("[broadcast]\ndelay = 5\n", "broadcast.delay: unknown key"),
        ('[bridge]\nusername = "u"\n', "bridge.address: missing"),
        ('[bridge]\naddress = "h"\ntls = false\ncafile = "c"\n', "bridge.tls: is false"),
    ],
)
def test_broadcast_and_bridge_mistakes_name_the_file_and_key(section: str, message: str) -> None:
    with pytest.raises(ConfigError) as info:
        parse_venue(EXAMPLE + "\n" + section, source="venue.toml")
    assert str(info.value).startswith(f"venue.toml: {message}"), str(info.value)
