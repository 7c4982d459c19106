"""The SQLite store: a competition comes back exactly as it went in; a change that fails
half way stores nothing."""

from __future__ import annotations

import random
import re
import sqlite3
from pathlib import Path

import pytest

from wuzi.tournament.entrants import Player, Sex
from wuzi.tournament.errors import StoreError
from wuzi.tournament.event import Competition, Format
from wuzi.tournament.results import GameResult, RoundResult
from wuzi.tournament.simulate import _Simulation
from wuzi.tournament.store import TournamentStore


@pytest.mark.parametrize(
    ("fmt", "entrants", "rounds"),
    [
        (Format.TEAM_KNOCKOUT_PLACEMENT, 11, None),
        (Format.SWISS, 13, 5),
        (Format.ROUND_ROBIN, 5, None),
    ],
)
def test_round_trip(tmp_path: Path, fmt: Format, entrants: int, rounds: int | None) -> None:
    sim = _Simulation(fmt, entrants, rounds, seed=9)
    sim.run()
    comp = sim.comp
    store = TournamentStore(tmp_path / "e.db")
    store.create(comp.settings, "new")
    store.update(lambda _: comp, "everything")
    assert store.load() == comp
    assert store.log() == ["new", "everything"]


def test_swiss_facts_survive_the_store(tmp_path: Path) -> None:
    sim = _Simulation(Format.SWISS, 8, 4, seed=1)
    comp: Competition = sim.comp
    rng = random.Random(1)
    comp = comp.pair(fixed=[("Player 1", "Player 2")], reason="by hand")
    for p in comp.rounds[-1].pairings:
        game = rng.choice([GameResult.BLACK, GameResult.WHITE_BY_FORFEIT, GameResult.DRAW])
        comp = comp.set_result(1, p.board, RoundResult((game,)))
    comp = comp.add_player(Player("late", "Late Comer", Sex.FEMALE, 1650, "Quzhou"))
    comp = comp.withdraw("Player 3")
    store = TournamentStore(tmp_path / "s.db")
    store.create(comp.settings, "new")
    store.update(lambda _: comp, "set")
    back = store.load()
    assert back == comp
    assert back.entrant("late").joined_round == 2 and back.entrant("Player 3").withdrawn_round == 2
    assert [p.manual_reason for p in back.rounds[0].pairings].count("by hand") == 1


def test_a_change_that_raises_stores_nothing(tmp_path: Path) -> None:
    sim = _Simulation(Format.SWISS, 6, 3, seed=2)
    store = TournamentStore(tmp_path / "f.db")
    store.create(sim.comp.settings, "new")
    store.update(lambda _: sim.comp, "players")
    before = (tmp_path / "f.db").read_bytes()

    def half_way(comp: Competition) -> Competition:
        comp.pair()
        raise StoreError("stop")

    with pytest.raises(StoreError, match="stop"):
        store.update(half_way, "pair")
    assert (tmp_path / "f.db").read_bytes() == before
    assert store.log() == ["new", "players"]
    with pytest.raises(StoreError, match="already exists"):
        store.create(sim.comp.settings, "new")


@pytest.mark.parametrize(
    ("sql", "where"),
    [
        ("UPDATE setting SET value = 'Open\x1b[2J' WHERE key = 'name'", "bad setting: event name"),
        (
            "UPDATE entrant SET name = 'Player 1\n001' WHERE id = 'Player 1'",
            "row 'Player 1', column name",
        ),
        (
            "UPDATE player SET club = 'Q\u202ez' WHERE id = 'Player 2'",
            "table player, row 'Player 2', column club",
        ),
        (
            "UPDATE pairing SET manual_reason = 'x' || char(0) WHERE board = 1",
            "table pairing, row 'round 1 board 1'",
        ),
        (
            "UPDATE player SET name = '' WHERE id = 'Player 3'",
            "breaks the rules: player name: is empty",
        ),
    ],
)
def test_a_stored_bad_name_is_a_store_error_naming_where(
    tmp_path: Path, sql: str, where: str
) -> None:
    """Written by an older Wuzi or by hand: loading says where, and never hands the name on."""
    sim = _Simulation(Format.SWISS, 6, 3, seed=2)
    comp = sim.comp.pair(fixed=[("Player 1", "Player 2")], reason="by hand")
    store = TournamentStore(tmp_path / "b.db")
    store.create(comp.settings, "new")
    store.update(lambda _: comp, "players")
    conn = sqlite3.connect(tmp_path / "b.db")
    conn.execute(sql)
    conn.commit()
    conn.close()
    with pytest.raises(StoreError, match=re.escape(where)):
        store.load()
