"""``[[links]]`` and ``[central]`` in the venue file (issue 36): this venue's tables linked
to another venue's, and the central broker both halls meet at. The two example halls load
and agree; every mistake is a `ConfigError` naming its key; a venue file without
``[[links]]`` reads as before."""

from __future__ import annotations

from pathlib import Path

import pytest

from wuzi.config import ConfigError, load_venue, parse_venue
from wuzi.config.links import DEFAULT_CENTRAL_PASSWORD_FILE, default_link_id

ROOT = Path(__file__).resolve().parents[2]
HALL_A = ROOT / "deploy" / "venue.linked-a.example.toml"
HALL_B = ROOT / "deploy" / "venue.linked-b.example.toml"

HOSTS = """
[venue]
id = "hall-a"
name = "Hall A"

[broker]
url = "mqtt://localhost"

[[hosts]]
id = "pi-1"
""" + "".join(
    f"""
  [[hosts.tables]]
  number = {n}
  board_port = "sim://board/{n}"
  clock_port = "sim://clock/{n}"
"""
    for n in (1, 2, 3)
)

CENTRAL = """
[central]
url = "mqtt://central.example.org"
"""


def _link(**keys: object) -> str:
    keys = {"table": 1, "other_venue": "hall-b", "other_table": 4, "owner": "here", **keys}
    body = "".join(f"{k} = {v!r}\n".replace("'", '"') for k, v in keys.items() if v is not None)
    return f"\n[[links]]\n{body}"


def _venue(*links: str, central: str = CENTRAL) -> str:
    return HOSTS + central + "".join(links)


def test_a_link_reads_from_both_sides() -> None:
    venue = parse_venue(_venue(_link(), _link(table=2, other_table=5, owner="there", id="b2")))
    first, second = venue.links
    assert (first.id, first.table, first.other_venue, first.other_table) == (
        "hall-a-1-hall-b-4",
        1,
        "hall-b",
        4,
    )
    assert first.owner_here and first.role == "owner" and first.owner_venue == "hall-a"
    assert (first.owner_table, first.away_venue, first.away_table) == (1, "hall-b", 4)
    assert second.id == "b2" and second.role == "away" and second.owner_venue == "hall-b"
    assert (second.owner_table, second.away_table) == (5, 2)
    assert venue.link_of_table(2) == second and venue.link_of_table(3) is None
    central = venue.central
    assert central is not None
    assert (central.host, central.port, central.tls) == ("central.example.org", 1883, False)
    assert central.username == "wuzi.hall-a.bridge.line"
    assert central.password_file == DEFAULT_CENTRAL_PASSWORD_FILE
    assert central.name == "wuzi-hall-a-line"


def test_the_default_id_is_the_same_from_both_sides() -> None:
    here = parse_venue(_venue(_link(owner="there")))
    assert here.links[0].id == default_link_id("hall-b", 4, "hall-a", 1) == "hall-b-4-hall-a-1"
    # the owner may be named by its venue id, either one
    assert parse_venue(_venue(_link(owner="hall-b"))).links[0].id == "hall-b-4-hall-a-1"
    assert parse_venue(_venue(_link(owner="hall-a"))).links[0].owner_here


def test_the_example_halls_agree() -> None:
    a, b = load_venue(HALL_A), load_venue(HALL_B)
    assert [link.id for link in a.links] == [link.id for link in b.links]
    for mine, theirs in zip(a.links, b.links, strict=True):
        assert (mine.table, mine.other_table) == (theirs.other_table, theirs.table)
        assert mine.owner_venue == theirs.owner_venue and mine.owner_here != theirs.owner_here
    assert a.central is not None and a.central.tls
    assert a.central.ca_file == str(HALL_A.parent / "secrets" / "central-ca.pem")
    assert a.central.password_file == str(HALL_A.parent / DEFAULT_CENTRAL_PASSWORD_FILE)


def test_a_venue_without_links_is_unchanged() -> None:
    venue = parse_venue(HOSTS)
    assert venue.links == () and venue.central is None and venue.link_of_table(1) is None
    assert load_venue(ROOT / "deploy" / "venue.example.toml").links == ()


LONG = "v" * 60


@pytest.mark.parametrize(
    ("text", "key", "complaint"),
    [
        (_venue(_link(table=9)), "links[0].table", "table 9 is not served by any host"),
        (_venue(_link(table=0)), "links[0].table", "out of range"),
        (_venue(_link(table="1")), "links[0].table", "expected a table number"),
        (_venue(_link(table=None)), "links[0].table", "missing"),
        (_venue(_link(), _link(other_table=5)), "links[1].table", "already linked by links[0]"),
        (_venue(_link(), _link(table=2)), "links[1].other_table", "table 4 of hall-b is already"),
        (_venue(_link(other_venue="hall-a")), "links[0].other_venue", "is this venue"),
        (_venue(_link(other_venue="Hall B")), "links[0].other_venue", "not a venue id"),
        (_venue(_link(other_venue=None)), "links[0].other_venue", "missing"),
        (_venue(_link(other_table=1000)), "links[0].other_table", "out of range"),
        (_venue(_link(other_table=None)), "links[0].other_table", "missing"),
        (_venue(_link(owner="mine")), "links[0].owner", 'write "here"'),
        (_venue(_link(owner="hall-c")), "links[0].owner", 'write "here"'),
        (_venue(_link(owner=None)), "links[0].owner", "missing"),
        (_venue(_link(id="Board 1")), "links[0].id", "not a link id"),
        (_venue(_link(id="b"), _link(table=2, other_table=5, id="b")), "links[1].id", "already"),
        (_venue(_link(other_venue=LONG)), "links[0].id", "longer than 64"),
        (_venue(_link(colour="black")), "links[0].colour", "unknown key"),
        ('links = "1"\n' + HOSTS + CENTRAL, "links", "array of tables"),
        (_venue(_link(), central=""), "central", "missing"),
        (HOSTS + CENTRAL, "central", "only for [[links]]"),
        ('central = "x"\n' + HOSTS + _link(), "central", "expected a table"),
        (_venue(_link(), central="[central]\n"), "central.url", "missing"),
        (_venue(_link(), central='[central]\nurl = "http://x"\n'), "central.url", "mqtt"),
        (
            _venue(_link(), central='[central]\nurl = "mqtt://u:p@x"\n'),
            "central.url",
            "has a login",
        ),
        (
            _venue(_link(), central='[central]\nurl = "mqtt://x"\nca_file = "ca.pem"\n'),
            "central.ca_file",
            "only used with TLS",
        ),
        (
            _venue(_link(), central='[central]\nurl = "mqtt://x"\nusername = "a b"\n'),
            "central.username",
            "use 1-128",
        ),
        (
            _venue(_link(), central='[central]\nurl = "mqtt://x"\npassword_file = ""\n'),
            "central.password_file",
            "file path",
        ),
        (
            _venue(_link(), central='[central]\nurl = "mqtt://x"\nname = "a/b"\n'),
            "central.name",
            "use 1-64",
        ),
        (
            _venue(_link(), central='[central]\nurl = "mqtt://x"\nport = 1\n'),
            "central.port",
            "unknown key",
        ),
    ],
)
def test_every_mistake_names_its_key(text: str, key: str, complaint: str) -> None:
    with pytest.raises(ConfigError) as caught:
        parse_venue(text, source="hall-a.toml")
    assert caught.value.key == key, caught.value
    assert complaint in caught.value.problem, caught.value
    assert str(caught.value).startswith(f"hall-a.toml: {key}: ")
