"""Two directors for two events of one hall on one real Mosquitto (issue 35): each assigns
only its own event's tables with its own rules, takes only its own tables' results, and
publishes its competition state on its own event's topic; a director started on the other
event's database is refused, and ``wuzi director`` says what is missing."""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path

import pytest

from support.broker import MosquittoBroker, wait_until
from support.director import result_event
from wuzi.bus import topics
from wuzi.bus.client import BusClient
from wuzi.bus.schemas import Assignment, CompetitionState, HostStatus, Message, TableState
from wuzi.config import load_venue
from wuzi.director.schedule import DirectorError
from wuzi.director.service import DirectorOptions, DirectorService
from wuzi.director.store import DirectorStore
from wuzi.tournament.entrants import Group, Player, Sex
from wuzi.tournament.event import Competition, EventSettings, Format
from wuzi.tournament.store import TournamentStore


@dataclass
class Seen:
    """The retained assignments and every competition state, by topic."""

    assignments: dict[int, Assignment] = field(default_factory=dict)
    states: dict[str, CompetitionState] = field(default_factory=dict)
    online: dict[str, bool] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def __call__(self, topic: str, message: Message) -> None:
        with self.lock:
            if isinstance(message, Assignment):
                self.assignments[message.table] = message
            elif isinstance(message, CompetitionState):
                self.states[topic] = message
            elif isinstance(message, HostStatus):
                self.online[message.host] = message.online


def write_venue(folder: Path, venue_id: str, url: str) -> Path:
    lines = [
        f'[venue]\nid = "{venue_id}"\nname = "Hall"\n[broker]\nurl = "{url}"',
        '[defaults]\nruleset = "renju"\nopening = "chinese-2013"\ntime_control = "3600"',
    ]
    for host, numbers in (("pi-1", range(1, 5)), ("pi-2", range(5, 9))):
        lines.append(f'[[hosts]]\nid = "{host}"')
        for n in numbers:
            lines.append(
                f'  [[hosts.tables]]\n  number = {n}\n  board_port = "sim://board/{n}"\n'
                f'  clock_port = "sim://clock/{n}"'
            )
    lines.append('[[events]]\nid = "men"\nname = "Men"\ndatabase = "men.db"\ntables = "1-4"')
    lines.append(
        '[[events]]\nid = "open"\nname = "Open"\ndatabase = "open.db"\ntables = "5-8"\n'
        'ruleset = "no-forbidden"\nopening = "free"'
    )
    config = folder / "hall.toml"
    config.write_text("\n".join(lines) + "\n")
    return config


def write_group(db: Path, group: Group) -> None:
    comp = Competition(EventSettings.create(Format.ROUND_ROBIN, name=group.value, group=group))
    for i in range(1, 5):
        comp = comp.add_player(Player(f"{group.value}{i}", f"P{i}", Sex.MALE, 2000 - i))
    store = TournamentStore(db)
    store.create(comp.settings, "new")
    store.update(lambda _: comp, "add-player ×4")


@dataclass
class Hall:
    venue_id: str
    config: Path
    seen: Seen
    bus: BusClient


@pytest.fixture
def hall(tmp_path: Path, mosquitto: MosquittoBroker) -> Iterator[Hall]:
    venue_id = f"hall-{uuid.uuid4().hex[:8]}"
    config = write_venue(tmp_path, venue_id, mosquitto.url)
    write_group(tmp_path / "men.db", Group.MEN)
    write_group(tmp_path / "open.db", Group.OPEN)
    seen = Seen()
    bus = BusClient(mosquitto.url, f"observer-{venue_id}")
    for topic_filter in (
        topics.all_assignments(venue_id),
        topics.all_competitions(venue_id),
        topics.all_host_statuses(venue_id),
    ):
        bus.subscribe(topic_filter, seen)
    bus.connect()
    assert bus.wait_connected(5) and bus.wait_subscribed(5)
    yield Hall(venue_id, config, seen, bus)
    bus.close()


def director(hall: Hall, event: str, db: str | None = None) -> DirectorService:
    venue = load_venue(hall.config)
    path = Path(db or venue.event(event).database or "")
    return DirectorService(venue, DirectorOptions(db_path=path, event_id=event))


def test_two_directors_each_run_only_their_events_tables_and_topic(hall: Hall) -> None:
    men, open_ = director(hall, "men"), director(hall, "open")
    men.start()
    try:
        open_.start()
        try:
            seen = hall.seen
            wait_until(lambda: len(seen.assignments) == 4, 10, "four retained assignments")
            by_table = dict(seen.assignments)
            assert sorted(by_table) == [1, 2, 5, 6]
            for n in (1, 2):
                a = by_table[n]
                assert (a.event_id, a.rule_set, a.opening) == ("men", "renju", "chinese-2013")
            for n in (5, 6):
                a = by_table[n]
                assert (a.event_id, a.rule_set, a.opening) == ("open", "no-forbidden", "free")
            men_topic = topics.competition_state(hall.venue_id, "men")
            open_topic = topics.competition_state(hall.venue_id, "open")
            wait_until(lambda: {men_topic, open_topic} <= set(seen.states), 10, "both states")
            assert topics.competition_state(hall.venue_id) not in seen.states
            assert seen.states[men_topic].event_id == "men"
            assert seen.states[open_topic].event_id == "open"
            wait_until(lambda: seen.online.get("men") and seen.online.get("open"), 5, "online")
            # a result at table 5 (the open group's) goes to the open group's director
            # alone; each event's game ids are its own
            game = by_table[5].game_id
            assert game.startswith("open-r1-") and by_table[1].game_id.startswith("men-r1-")
            event = result_event("pi-2", 5, game, "first")
            hall.bus.publish(topics.table_events(hall.venue_id, 5), event)
            assert open_.wait_for(lambda core: core.games[game].state == "reported", 10)
            time.sleep(0.3)
            men_game = "men-" + game.removeprefix("open-")  # the men's game of that slot
            assert men.core is not None and men.core.games[men_game].state == "assigned"
        finally:
            open_.close()
    finally:
        men.close()
    men_log = DirectorStore(Path(hall.config.parent / "men.db")).audit_records()
    assert not [r for r in men_log if r.details.get("table") == 5], men_log
    assert [r.details["event_id"] for r in men_log if r.action == "director-started"] == ["men"]
    assert DirectorStore(hall.config.parent / "open.db").event_stamp() is not None
    assigned = [r for r in men_log if r.action == "assignment"]
    assert assigned and all(r.details["event_id"] == "men" for r in assigned)


def test_the_audit_printout_names_the_event(hall: Hall, capsys: pytest.CaptureFixture[str]) -> None:
    from wuzi.cli import main

    men = director(hall, "men")
    men.start()
    men.close()
    assert main(["director", "audit", "--db", str(hall.config.parent / "men.db")]) == 0
    out = capsys.readouterr().out
    assert f"— men (event men of venue {hall.venue_id})" in out.splitlines()[0], out[:300]


def test_a_director_on_the_other_events_database_is_refused(hall: Hall) -> None:
    men = director(hall, "men")
    men.start()
    men.close()
    men_db = str(hall.config.parent / "men.db")
    # the venue file gives men.db to the men's group
    with pytest.raises(DirectorError, match=r"database of event 'men'.*not of event 'open'"):
        director(hall, "open", men_db).start()
    # a copy of it elsewhere: its stamp says whose it is
    copy = hall.config.parent / "copy.db"
    copy.write_bytes(Path(men_db).read_bytes())
    with pytest.raises(DirectorError) as refused:
        director(hall, "open", str(copy)).start()
    message = str(refused.value)
    assert "event 'men'" in message and "event 'open'" in message and "hall.toml" in message
    # the men's database under the open group's rules (never stamped): refused too
    fresh = hall.config.parent / "fresh.db"
    write_group(fresh, Group.MEN)
    with pytest.raises(DirectorError, match="rules: the venue file says no-forbidden"):
        director(hall, "open", str(fresh)).start()
    assert DirectorStore(fresh).event_stamp() is None  # nothing written when refused


def test_the_command_line_wants_the_event(hall: Hall, capsys: pytest.CaptureFixture[str]) -> None:
    from wuzi.cli import main

    assert main(["director", "--config", str(hall.config)]) == 1
    assert "give --event ID" in capsys.readouterr().err
    assert main(["director", "--config", str(hall.config), "--event", "women"]) == 1
    assert "no such event in" in capsys.readouterr().err
    men_db = str(hall.config.parent / "men.db")
    assert main(["director", "--config", str(hall.config), "--event", "open", "--db", men_db]) == 1
    assert "the database of event 'men'" in capsys.readouterr().err


def test_a_table_still_playing_another_events_game_is_not_assigned_at_start(hall: Hall) -> None:
    """Table 1 was the open group's until the venue file gave it to the men's group; the
    open group's game there still runs when the men's director starts: its retained state
    says so, and the start assigns table 1 nothing (the game takes another free table)."""
    running = TableState(
        1, "r2-m1-g2", 30, "playing", (112,), 1000, 1000, "black", None, 1, "x", "y",
        event_id="open",
    )  # fmt: skip
    hall.bus.publish(topics.table_state(hall.venue_id, 1), running)
    assert hall.bus.wait_drained(5)
    men = director(hall, "men")
    men.start()
    try:
        wait_until(lambda: len(hall.seen.assignments) == 2, 10, "two retained assignments")
        time.sleep(0.3)
        assert sorted(hall.seen.assignments) == [2, 3]
        assert men.core is not None and men.core.held(1)
        # the open group's game ends: table 1 is free (nothing waits for it now)
        over = replace(running, seq=31, status="finished", result="1-0", at_ms=2)
        hall.bus.publish(topics.table_state(hall.venue_id, 1), over)
        assert men.wait_for(lambda core: not core.held(1), 10)
    finally:
        men.close()
    log = DirectorStore(hall.config.parent / "men.db").audit_records()
    held = [r for r in log if r.action == "table-held"]
    assert [(r.details["table"], r.details["other_event"]) for r in held] == [(1, "open")]
