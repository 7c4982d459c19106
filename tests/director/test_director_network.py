"""A network event's director (docs/linked.md "The network final"): each team in its own
hall, each game laid at its two teams' halls — black's team's board *b* owns it, the other
team's board *b* shows it — each table's assignment naming the other, and the whole final
played to its sixteen places that way."""

from __future__ import annotations

from support.director import KEYS, NOW, final, result_event, step, winner_of
from wuzi.bus import topics
from wuzi.bus.schemas import check_outgoing
from wuzi.director.core import CoreOptions, DirectorCore

HALLS = {f"Team {i}": tuple(range(3 * i - 2, 3 * i + 1)) for i in range(1, 17)}
VENUE_OF = {n: f"final-2021-{i:02d}" for i in range(1, 17) for n in HALLS[f"Team {i}"]}
HOST_OF = {n: f"pi-{i:02d}" for i in range(1, 17) for n in HALLS[f"Team {i}"]}


def network_core() -> DirectorCore:
    tables = sorted(HOST_OF.items())
    return DirectorCore(
        final(),
        tables,
        options=CoreOptions(auto_confirm=True),
        referee_keys=KEYS,
        team_tables=HALLS,
        venue_of=VENUE_OF,
    )


def team_of(table: int) -> str:
    return next(team for team, tables in HALLS.items() if table in tables)


def test_every_game_is_laid_at_its_two_teams_halls_and_each_table_names_the_other() -> None:
    core = network_core()
    step(core, core.on_start(NOW))
    owners = {}
    for table in core.tables:
        a = core.assignment(table)
        assert a is not None, table
        check_outgoing(topics.assignment(VENUE_OF[table], table), a)
        assert a.linked_role in ("owner", "away") and a.linked_table is not None
        assert a.linked_venue == VENUE_OF[a.linked_table]
        other = core.assignment(a.linked_table)
        assert other is not None and other.game_id == a.game_id
        assert {a.linked_role, other.linked_role} == {"owner", "away"}
        assert other.linked_table == table
        if a.linked_role == "owner":
            owners[a.game_id] = table
            # black's team's hall owns the game, on the game's board
            assert team_of(table) == a.black_team, (a, team_of(table))
            assert HALLS[team_of(table)].index(table) + 1 == a.board
            assert team_of(a.linked_table) == a.white_team
    assert len(owners) == 24  # 8 matches of 3 boards, each once, 48 tables in all


def test_the_network_final_is_played_to_its_sixteen_places() -> None:
    core = network_core()
    step(core, core.on_start(NOW))
    now = NOW
    while not core.finished:
        now += 1000
        played = 0
        for table in core.tables:
            a = core.assignment(table)
            if a is None or a.linked_role != "owner" or core.games[a.game_id].state != "assigned":
                continue
            event = result_event(HOST_OF[table], table, a.game_id, winner_of(a.game_id))
            step(core, core.on_result_event(event, now))
            played += 1
        assert played, "nothing left to play, but not finished"
    state = core.competition_state(now)
    assert [(s.place, s.place_to) for s in state.standings] == [(p, p) for p in range(1, 17)]
    for game in core.games.values():  # playoffs too: at their teams' board-1 tables
        pair = core.floor.linked_pair(game.plan)
        assert pair is not None and game.table == pair[0], game
