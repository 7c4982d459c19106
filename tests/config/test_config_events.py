"""``[[events]]`` in the venue file: several events in one hall, each on tables of its own
with its own database and defaults (issue 35; 002 三(二), 四, 六(一), 六(三)). Two and
three events load; every mistake is a `ConfigError` naming its key; a venue file without
``[[events]]`` reads as before."""

from __future__ import annotations

from pathlib import Path

import pytest

from wuzi.config import ConfigError, load_venue, parse_venue
from wuzi.config.events import parse_tables

ROOT = Path(__file__).resolve().parents[2]
HALL_2019 = ROOT / "deploy" / "venue.open-2019.example.toml"

HOSTS = """
[venue]
id = "hall"
name = "One hall"

[broker]
url = "mqtt://localhost"

[defaults]
ruleset = "renju"
opening = "chinese-2013"
time_control = "3600"

[[hosts]]
id = "pi-1"
""" + "".join(
    f"""
  [[hosts.tables]]
  number = {n}
  board_port = "sim://board/{n}"
  clock_port = "sim://clock/{n}"
"""
    for n in (1, 2, 3, 4, 5)
)

TWO = (
    HOSTS
    + """
[[events]]
id = "men"
name = "Men's group"
database = "men.sqlite"
tables = "1-2"

[[events]]
id = "open"
name = "Open group"
database = "open.sqlite"
tables = [3, 4]
ruleset = "no-forbidden"
opening = "free"
broker_password_file = "keys/open.pass"
"""
)


def two(old: str, new: str) -> str:
    assert TWO.count(old) == 1, old
    return TWO.replace(old, new)


def refused(text: str) -> ConfigError:
    with pytest.raises(ConfigError) as caught:
        parse_venue(text)
    return caught.value


def test_two_events_load_with_their_tables_and_defaults() -> None:
    venue = parse_venue(TWO)
    assert [(e.id, e.name, e.tables) for e in venue.events] == [
        ("men", "Men's group", (1, 2)),
        ("open", "Open group", (3, 4)),
    ]
    assert [e.key for e in venue.events] == ["events[0]", "events[1]"]
    assert venue.event("open").database == "open.sqlite"
    assert venue.event("open").broker_password_file == "keys/open.pass"
    assert venue.event("men").broker_password_file is None
    event = venue.event_of_table(2)
    assert event is not None and event.id == "men"
    assert venue.event_of_table(5) is None  # a spare table
    men, open_group = venue.defaults_for(1), venue.defaults_for(3)
    assert men == venue.defaults  # the men's group names none: the venue's
    assert (
        open_group.ruleset is not None and str(open_group.ruleset) == "no-forbidden:overline=both"
    )
    assert open_group.opening == "free"
    assert open_group.time_control == venue.defaults.time_control  # not given: the venue's
    with pytest.raises(KeyError, match=r"no event 'women' \(events: men, open\)"):
        venue.event("women")


def test_the_2019_open_hall_loads_its_three_groups_with_002_s_rules() -> None:
    venue = load_venue(HALL_2019)
    assert [e.id for e in venue.events] == ["men", "women", "open"]
    assert venue.director_database is None
    tables = {e.id: e.tables for e in venue.events}
    assert tables == {"men": tuple(range(1, 9)), "women": (9, 10, 11, 12), "open": (13, 14, 15, 16)}
    assert venue.event("men").database == str(HALL_2019.parent / "men.sqlite")
    for table, rules, opening in ((1, "renju", "chinese-2013"), (9, "renju", "chinese-2013"),
                                  (13, "no-forbidden:overline=both", "free")):  # fmt: skip
        found = venue.defaults_for(table)
        assert (str(found.ruleset), found.opening, str(found.time_control)) == (
            rules,
            opening,
            "3600",  # 六(三): 每方60分钟
        ), table


def test_paths_of_an_event_are_taken_relative_to_the_venue_file(tmp_path: Path) -> None:
    path = tmp_path / "venue.toml"
    path.write_text(TWO, encoding="utf-8")
    venue = load_venue(path)
    assert venue.event("men").database == str(tmp_path / "men.sqlite")
    assert venue.event("open").broker_password_file == str(tmp_path / "keys/open.pass")


def test_a_venue_without_events_reads_as_before() -> None:
    text = HOSTS + '\n[director]\nid = "dir"\ndatabase = "event.sqlite"\n'
    venue = parse_venue(text)
    assert venue.events == ()
    assert (venue.director_id, venue.director_database) == ("dir", "event.sqlite")
    assert venue.event_of_table(1) is None
    assert venue.defaults_for(1) == venue.defaults
    with pytest.raises(KeyError, match="none: the file has no"):
        venue.event("men")


@pytest.mark.parametrize(
    ("text", "key", "problem"),
    [
        (
            two("tables = [3, 4]", 'tables = "2-4"'),
            "events",
            "table 2 is claimed by two events, 'men' (events[0]) and 'open' (events[1]): "
            "a table belongs to one event at a time",
        ),
        (two('opening = "free"', 'openings = "free"'), "events[1].openings", "unknown key"),
        (two('tables = "1-2"', 'tables = "1-6"'), "events[0].tables", "table 6 is not served"),
        (two('tables = "1-2"', 'tables = "2-1"'), "events[0].tables", "'2-1' runs backwards"),
        (two('tables = "1-2"', 'tables = "1-x"'), "events[0].tables", "'1-x' is not a table"),
        (two('tables = "1-2"', 'tables = "1, 1"'), "events[0].tables", "table 1 is given twice"),
        (two('tables = "1-2"', 'tables = "0-2"'), "events[0].tables", "out of range 1..999"),
        (two('tables = "1-2"', 'tables = ""'), "events[0].tables", "ranges such as"),
        (two('tables = "1-2"', "tables = 1.5"), "events[0].tables", "found a float"),
        (two("tables = [3, 4]", 'tables = [3, "4"]'), "events[1].tables", "table numbers"),
        (two('tables = "1-2"\n', ""), "events[0].tables", "missing"),
        (two('id = "open"', 'id = "men"'), "events[1].id", "'men' is already used by events[0]"),
        (
            two('database = "open.sqlite"', 'database = "men.sqlite"'),
            "events[1].database",
            "'men.sqlite' is already used by events[0]",
        ),
        (two('database = "men.sqlite"\n', ""), "events[0].database", "missing"),
        (two('id = "open"', 'id = "pi-1"'), "events[1].id", "'pi-1' is also a host's id"),
        (two('id = "men"', 'id = "Men"'), "events[0].id", "is not topic-safe"),
        (two('name = "Men\'s group"\n', ""), "events[0].name", "missing"),
        (two('ruleset = "no-forbidden"', 'ruleset = "caro"'), "events[1].ruleset", "caro"),
        (two('opening = "free"', 'opening = "surprise"'), "events[1].opening", "surprise"),
        (
            two('opening = "free"', 'opening = "free"\ntime_control = "60 minutes"'),
            "events[1].time_control",
            "time control '60 minutes'",
        ),
        (
            TWO + '\n[director]\nid = "dir"\ndatabase = "event.sqlite"\n',
            "director.database",
            "with [[events]] each event names its own database",
        ),
        (TWO + '\n[director]\nid = "men"\n', "events[0].id", "'men' is also [director] id"),
        (
            two('opening = "free"', 'opening = "free"\nmirroring_grace_s = 601'),
            "events[1].mirroring_grace_s",
            "0-600, not 601",
        ),
        (
            two('time_control = "3600"', 'time_control = "3600"\nmirroring_grace_s = "10"'),
            "defaults.mirroring_grace_s",
            "not '10'",
        ),
        ("events = 3\n" + HOSTS, "events", "expected an array of tables ([[events]])"),
    ],
)
def test_each_mistake_names_its_key(text: str, key: str, problem: str) -> None:
    error = refused(text)
    assert error.key == key, str(error)
    assert problem in error.problem
    assert str(error).startswith(f"venue.toml: {key}: ")


def test_the_mirroring_grace_is_the_event_s_over_the_venue_s() -> None:
    """A linked game's grace (docs/linked.md "The time rule") is read as the time control
    is: ``[defaults]``, an event's over it, 10 s when neither names one."""
    assert parse_venue(TWO).defaults_for(1).mirroring_grace_ms == 10_000
    text = two('time_control = "3600"', 'time_control = "3600"\nmirroring_grace_s = 15')
    text = text.replace('opening = "free"', 'opening = "free"\nmirroring_grace_s = 7.5')
    venue = parse_venue(text)
    assert venue.defaults_for(1).mirroring_grace_ms == 15_000  # the men's: the venue's
    assert venue.defaults_for(3).mirroring_grace_ms == 7_500  # the open group's own


def test_parse_tables_reads_ranges_and_lists() -> None:
    assert parse_tables("1-3, 7 ,10 - 11") == (1, 2, 3, 7, 10, 11)
    assert parse_tables("20, 1-2") == (1, 2, 20)
    with pytest.raises(ValueError, match="٣"):
        parse_tables("٣")
    with pytest.raises(ValueError, match=r"out of range 1\.\.9"):
        parse_tables("5-12", high=9)


EVENT_LINES = [
    ('id = "men"', "events[0].id"),
    ('name = "Men\'s group"', "events[0].name"),
    ('database = "men.sqlite"', "events[0].database"),
    ('tables = "1-2"', "events[0].tables"),
    ("tables = [3, 4]", "events[1].tables"),
    ('ruleset = "no-forbidden"', "events[1].ruleset"),
    ('opening = "free"', "events[1].opening"),
    ('broker_password_file = "keys/open.pass"', "events[1].broker_password_file"),
]


@pytest.mark.parametrize(("line", "key"), EVENT_LINES)
@pytest.mark.parametrize("value", ["7", "1.5", "true", "{ a = 1 }", '[1, "x"]', "2019-07-15"])
def test_a_value_of_another_type_is_named_by_its_key(line: str, key: str, value: str) -> None:
    name = line.split(" = ")[0]
    error = refused(two(line, f"{name} = {value}"))
    assert error.key == key, str(error)
