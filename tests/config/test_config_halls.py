"""``[[halls]]``: a network event's halls in the organisers' venue file (wuzi.config.halls)."""

from __future__ import annotations

import pytest

from wuzi.config import ConfigError, parse_venue

BASE = """
[venue]
id = "final-2021"
name = "Network final"
[broker]
url = "mqtt://central.example.org"
[director]
id = "director"
database = "final.sqlite"
"""
HALLS = """
[[halls]]
venue = "final-2021-01"
team = "上海"
host = "pi-01"
tables = "1-3"
[[halls]]
venue = "final-2021-02"
team = "北京"
host = "pi-02"
tables = "4-6"
"""


def test_the_halls_name_each_table_s_venue_and_host() -> None:
    venue = parse_venue(BASE + HALLS)
    assert [(h.venue, h.team, h.host, h.tables) for h in venue.halls] == [
        ("final-2021-01", "上海", "pi-01", (1, 2, 3)),
        ("final-2021-02", "北京", "pi-02", (4, 5, 6)),
    ]
    assert venue.venue_of_table(5) == "final-2021-02"
    assert venue.venue_of_table(99) == "final-2021"  # not a hall's: this venue's
    assert venue.host_of_table(2).id == "pi-01"  # results are taken from the hall's host
    hall = venue.hall_of_team("北京")
    assert hall is not None and hall.tables == (4, 5, 6)
    assert venue.hall_of_team("天津") is None


@pytest.mark.parametrize(
    ("mistake", "key", "problem"),
    [
        (HALLS.replace('"4-6"', '"3-5"'), "halls[1].tables", "table 3 is already halls[0]'s"),
        (HALLS.replace('team = "北京"', 'team = "上海"'), "halls[1].team", "already plays"),
        (HALLS.replace("final-2021-02", "final-2021-01"), "halls[1].venue", "already"),
        (HALLS.replace("final-2021-02", "final-2021"), "halls[1].venue", "is this venue"),
        (HALLS.replace('"4-6"', '"6-4"'), "halls[1].tables", "backwards"),
        (
            HALLS.replace('host = "pi-02"\n', 'host = "pi-02"\nboard = 1\n'),
            "halls[1].board",
            "unknown key",
        ),
        (HALLS.replace('team = "北京"\n', ""), "halls[1].team", "missing"),
    ],
)
def test_each_mistake_names_its_key(mistake: str, key: str, problem: str) -> None:
    with pytest.raises(ConfigError) as caught:
        parse_venue(BASE + mistake)
    assert caught.value.key == key, str(caught.value)
    assert problem in caught.value.problem


def test_a_venue_without_halls_is_as_it_was() -> None:
    with pytest.raises(ConfigError, match="at least one"):
        parse_venue(BASE)  # no [[hosts]] and no [[halls]]: still refused
