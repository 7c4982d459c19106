"""The demo venue's files load as a real venue would, and the event is the 16-team final."""

from __future__ import annotations

from pathlib import Path

from wuzi.config import load_venue
from wuzi.sim.final.setup import (
    HOSTS,
    TABLES_PER_HOST,
    TEAMS,
    create_event,
    demo_teams,
    write_venue_file,
)
from wuzi.tournament.store import TournamentStore


def test_teams_are_seeded_by_the_seed_with_a_woman_on_board_three() -> None:
    teams = demo_teams(7)
    assert demo_teams(7) == teams and demo_teams(8) != teams
    assert sorted(t.name for t in teams) == sorted(TEAMS)
    assert [t.seed for t in teams] == list(range(1, 17))
    assert all(t.boards[2][1] == "f" for t in teams)
    names = [b[0] for t in teams for b in t.boards]
    assert len(set(names)) == len(names) == 48


def test_the_venue_file_loads_and_the_event_holds_every_team(tmp_path: Path) -> None:
    count = len(HOSTS) * TABLES_PER_HOST
    path = write_venue_file(
        tmp_path,
        venue_id="demo-final",
        broker_url="mqtt://127.0.0.1:1883",
        board_ports=[f"/dev/pts/b{i}" for i in range(count)],
        clock_ports=[f"/dev/pts/c{i}" for i in range(count)],
        token="secret-token",
    )
    venue = load_venue(path)
    assert [h.id for h in venue.hosts] == list(HOSTS)
    assert [t.number for t in venue.tables()] == list(range(1, count + 1))
    assert venue.host_of_table(7).id == "pi-2"
    db = tmp_path / "event.sqlite"
    create_event(db, demo_teams(1))
    competition = TournamentStore(db).load()
    assert len(competition.seeded()) == 16
