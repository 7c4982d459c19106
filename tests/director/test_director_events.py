"""One director per event of a hall of several (issue 35): the event chosen and checked
(`wuzi.director.events`), the database stamped with its event, and the core that runs
only its event's tables, stamps its assignments and competition state with the event,
and waits for a table still playing another event's game."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from support.director import KEYS, NOW, bus_result, confirm, result_event, step
from wuzi.bus.schemas import TableState
from wuzi.config import VenueConfig, parse_venue
from wuzi.config.credentials import CredentialError
from wuzi.director.change import tables_of
from wuzi.director.core import CoreOptions, DirectorCore
from wuzi.director.events import (
    EventStamp,
    check_defaults,
    check_stamp,
    choose_event,
    event_database,
    event_tables,
)
from wuzi.director.schedule import DirectorError
from wuzi.director.service import director_login
from wuzi.director.store import DirectorStore
from wuzi.tournament.entrants import Group, Player, Sex
from wuzi.tournament.event import Competition, EventSettings, Format
from wuzi.tournament.results import MatchKind
from wuzi.tournament.store import TournamentStore

VENUE = """
[venue]
id = "hall"
name = "2019 open"
[broker]
url = "mqtt://localhost:1883"
[[hosts]]
id = "pi-1"
{tables1}
[[hosts]]
id = "pi-2"
{tables2}
[defaults]
ruleset = "renju"
opening = "chinese-2013"
time_control = "3600"
[[events]]
id = "men"
name = "Men's group"
database = "men.db"
tables = "1-4"
[[events]]
id = "open"
name = "Open group"
database = "open.db"
tables = "5-8"
ruleset = "no-forbidden"
opening = "free"
"""


def venue(folder: Path | None = None, text: str = VENUE) -> VenueConfig:
    def tables(numbers: range) -> str:
        return "\n".join(
            f'  [[hosts.tables]]\n  number = {n}\n  board_port = "sim://board/{n}"\n'
            f'  clock_port = "sim://clock/{n}"'
            for n in numbers
        )

    full = text.format(tables1=tables(range(1, 5)), tables2=tables(range(5, 9)))
    return parse_venue(full, source="hall.toml", base_dir=folder)


def round_robin(group: Group, players: int = 4) -> Competition:
    name = {Group.MEN: "男子组", Group.OPEN: "公开组"}[group]
    comp = Competition(EventSettings.create(Format.ROUND_ROBIN, name=name, group=group))
    for i in range(1, players + 1):
        comp = comp.add_player(Player(f"{group.value}{i}", f"{name}{i}", Sex.MALE, 2000 - i))
    return comp


def core_for(v: VenueConfig, event_id: str, comp: Competition, **options: object) -> DirectorCore:
    event = v.event(event_id)
    return DirectorCore(
        comp,
        event_tables(v, event),
        options=CoreOptions(**options),  # type: ignore[arg-type]
        referee_keys=KEYS,
        event_id=event_id,
        venue_tables=tables_of(v),
    )


def actions(change: object) -> list[str]:
    return [a.action for a in change.audit]  # type: ignore[attr-defined]


# -- choosing the event and its database ---------------------------------------------------


def test_the_event_is_required_known_and_refused_without_events() -> None:
    v = venue()
    with pytest.raises(DirectorError, match=r"give --event ID .*events: men, open"):
        choose_event(v, None)
    with pytest.raises(DirectorError, match=r"--event women: no such event in hall.toml"):
        choose_event(v, "women")
    assert choose_event(v, "open") == v.event("open")
    one = parse_venue(
        '[venue]\nid = "v"\nname = "V"\n[broker]\nurl = "mqtt://localhost"\n'
        '[[hosts]]\nid = "pi-1"\n  [[hosts.tables]]\n  number = 1\n'
        '  board_port = "sim://board/1"\n  clock_port = "sim://clock/1"\n',
        source="one.toml",
    )
    assert choose_event(one, None) is None
    with pytest.raises(DirectorError, match=r"one.toml has no \[\[events\]\]"):
        choose_event(one, "men")


def test_the_database_is_the_events_and_never_another_events(tmp_path: Path) -> None:
    v = venue(tmp_path)
    men = v.event("men")
    assert event_database(v, men, None) == str(tmp_path / "men.db")
    assert event_database(v, men, str(tmp_path / "elsewhere.db")) == str(tmp_path / "elsewhere.db")
    with pytest.raises(DirectorError) as refused:
        event_database(v, men, str(tmp_path / "." / "open.db"))
    message = str(refused.value)
    assert "'open'" in message and "'men'" in message and "hall.toml" in message


def test_a_database_stamped_for_another_event_is_refused_naming_both() -> None:
    v = venue()
    men, open_ = v.event("men"), v.event("open")
    check_stamp(None, v, men, "men.db")
    check_stamp(EventStamp("hall", "men"), v, men, "men.db")
    with pytest.raises(DirectorError) as refused:
        check_stamp(EventStamp("hall", "men"), v, open_, "men.db")
    message = str(refused.value)
    assert "event 'men'" in message and "event 'open'" in message and "hall.toml" in message
    with pytest.raises(DirectorError, match="venue 'other'"):
        check_stamp(EventStamp("other", "men"), v, men, "men.db")
    with pytest.raises(DirectorError, match=r"has no \[\[events\]\]"):
        check_stamp(EventStamp("hall", "men"), v, None, "men.db")


def test_the_venue_files_defaults_must_not_contradict_the_competition() -> None:
    v = venue()
    check_defaults(v, v.event("men"), round_robin(Group.MEN))
    check_defaults(v, v.event("open"), round_robin(Group.OPEN))
    with pytest.raises(DirectorError) as refused:  # the men's database under the open group
        check_defaults(v, v.event("open"), round_robin(Group.MEN))
    message = str(refused.value)
    assert "rules: the venue file says no-forbidden" in message and "the database renju" in message
    assert "opening: the venue file says free" in message
    # no ruleset of its own: the venue's [defaults] (renju) count, after defaults_for
    bare = venue(text=VENUE.replace('ruleset = "no-forbidden"\nopening = "free"\n', ""))
    with pytest.raises(DirectorError, match="rules: the venue file says renju"):
        check_defaults(bare, bare.event("open"), round_robin(Group.OPEN))
    slow = venue(text=VENUE.replace('tables = "1-4"', 'tables = "1-4"\ntime_control = "5400"'))
    with pytest.raises(DirectorError, match="time control: the venue file says 5400, the da"):
        check_defaults(slow, slow.event("men"), round_robin(Group.MEN))


def test_the_database_keeps_the_first_events_stamp(tmp_path: Path) -> None:
    db = tmp_path / "men.db"
    comp = round_robin(Group.MEN)
    TournamentStore(db).create(comp.settings, "new")
    store = DirectorStore(db)
    assert store.event_stamp() is None
    store.open()
    assert store.stamp_event(EventStamp("hall", "men")) == EventStamp("hall", "men")
    assert store.stamp_event(EventStamp("hall", "open")) == EventStamp("hall", "men")
    assert DirectorStore(db).event_stamp() == EventStamp("hall", "men")


# -- the core of one event -------------------------------------------------------------------


def test_each_event_assigns_only_its_tables_with_its_own_rules() -> None:
    v = venue()
    men = core_for(v, "men", round_robin(Group.MEN))
    open_ = core_for(v, "open", round_robin(Group.OPEN))
    step(men, men.on_start(NOW))
    step(open_, open_.on_start(NOW))
    assert men.tables == (1, 2, 3, 4) and open_.tables == (5, 6, 7, 8)
    men_games = {t: men.assignment(t) for t in men.tables}
    assert {t for t, a in men_games.items() if a is not None} == {1, 2}
    for a in men_games.values():
        if a is not None:
            assert (a.event_id, a.rule_set, a.opening, a.time_control) == (
                "men",
                "renju",
                "chinese-2013",
                "3600",
            )
    # the open group: free opening, no forbidden moves, two games a round (on two tables)
    open_games = [a for t in open_.tables if (a := open_.assignment(t)) is not None]
    # game ids are the venue's: each event's are its own (a host files records by them)
    assert [a.game_id for a in open_games] == ["open-r1-m1-g1", "open-r1-m2-g1"]
    assert {a.game_id for a in men_games.values() if a} == {"men-r1-m1-g1", "men-r1-m2-g1"}
    for a in open_games:
        assert a.table in (5, 6, 7, 8)
        assert (a.event_id, a.rule_set, a.opening, a.time_control) == (
            "open",
            "no-forbidden",
            "free",
            "3600",
        )
    assert open_.comp.settings.match is MatchKind.TWO_GAME  # game 2 follows on its table
    assert all(a.game_in_match == 1 for a in open_games)
    assert all(men.assignment(t) is None for t in (5, 6, 7, 8))
    assert men.competition_state(NOW).event_id == "men"
    assert open_.competition_state(NOW).event_id == "open"


def test_results_states_and_commands_of_another_events_tables_are_not_this_directors() -> None:
    v = venue()
    men = core_for(v, "men", round_robin(Group.MEN))
    step(men, men.on_start(NOW))
    # the open group's game on table 5 (pi-2)
    event = result_event("pi-2", 5, "open-r1-m1-g1", "first")
    assert men.on_result_event(event, NOW).empty
    state = TableState(
        5, "open-r1-m1-g1", 9, "finished", (), 1, 1, None, "1-0", NOW, "a", "b", event_id="open"
    )
    assert men.on_table_state(state, NOW).empty
    cmd = confirm(5, "open-r1-m1-g1", "1-0", now_ms=NOW)
    assert men.on_command(cmd, NOW).empty
    assert men.games["men-r1-m1-g1"].state == "assigned"
    # its own table 1: taken as ever
    a = men.assignment(1)
    assert a is not None
    change = step(men, men.on_result_event(result_event("pi-1", 1, a.game_id, "first"), NOW))
    assert "result-reported" in actions(change)
    change = step(men, men.on_command(confirm(1, a.game_id, bus_result("first"), now_ms=NOW), NOW))
    assert "result-confirmed" in actions(change)


def test_a_table_still_playing_another_events_game_waits_until_it_ends() -> None:
    """Table 1 moved from the open group to the men's between rounds (the venue file and a
    director restart): the open group's last game on it still runs, so the men's game
    that would go there waits, logged once, and is assigned when that game ends (the
    men's group has two tables here: no other is free)."""
    v = venue(text=VENUE.replace('tables = "1-4"', 'tables = "1-2"'))
    men = core_for(v, "men", round_robin(Group.MEN))
    playing = TableState(
        1, "r3-m1-g2", 40, "playing", (112,), 1000, 1000, "white", None, NOW, "x", "y",
        event_id="open",
    )  # fmt: skip
    step(men, men.on_table_state(playing, NOW))
    start = step(men, men.on_start(NOW))
    assert men.assignment(1) is None
    assert {t for t in men.tables if men.assignment(t) is not None} == {2}
    held = [a for a in start.audit if a.action == "table-held"]
    assert len(held) == 1, start.audit
    assert held[0].details["table"] == 1 and held[0].details["other_event"] == "open"
    assert "r3-m1-g2" in held[0].details["reason"]
    waiting = [g for g in men.games.values() if g.state == "pending"]
    assert len(waiting) == 1
    # the open group's game goes on (a newer state): nothing changes, nothing logged again
    later = replace(playing, seq=41, moves=(112, 113), at_ms=NOW + 10)
    change = step(men, men.on_table_state(later, NOW + 10))
    assert "table-held" not in actions(change) and men.assignment(1) is None
    paused = replace(later, seq=42, status="paused", at_ms=NOW + 20)
    assert "table-held" not in actions(step(men, men.on_table_state(paused, NOW + 20)))
    assert men.assignment(1) is None
    assert men.held(1) and not men.held(2)  # nothing published there, not even a clear
    # it ends: the men's waiting game takes table 1 at once
    over = replace(later, seq=43, status="finished", result="1-0", at_ms=NOW + 30)
    change = step(men, men.on_table_state(over, NOW + 30))
    assert 1 in change.tables
    a = men.assignment(1)
    assert a is not None and a.game_id == waiting[0].id and a.event_id == "men"
    # a restart logs it no more (the note is remembered with the seen ids)
    assert "held:1:open:r3-m1-g2" in men.seen


def test_an_events_director_logs_in_with_the_events_password_file(tmp_path: Path) -> None:
    v = venue(tmp_path)
    anonymous = director_login(v, "director", v.event("men"))  # no file: the shared login
    assert (anonymous.client_id, anonymous.username) == ("wuzi.hall.director.men", None)
    secrets = tmp_path / "secrets" / "events"
    secrets.mkdir(parents=True)
    (secrets / "men.pass").write_text("men-secret\n")
    live = director_login(v, "director-live", v.event("men"))
    assert (live.client_id, live.username, live.password) == (
        "wuzi.hall.director-live.men",
        "wuzi.hall.director-live.men",
        "men-secret",
    )
    named = venue(
        tmp_path,
        VENUE.replace('tables = "5-8"', 'tables = "5-8"\nbroker_password_file = "gone.pass"'),
    )
    with pytest.raises(CredentialError, match=r"events\[1\].broker_password_file.*gone.pass"):
        director_login(named, "director", named.event("open"))
