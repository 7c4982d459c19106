"""The hall demo's pure parts: its venue file and databases (``wuzi.sim.hall.setup``),
what its records show (``summary``) and what it checks (``check``), on files written
here — the whole hall is played in tests/e2e/test_hall_demo.py."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from wuzi.config import load_venue
from wuzi.rules.board import parse_points
from wuzi.sim.hall.check import check_hall
from wuzi.sim.hall.setup import (
    OPEN_2019,
    create_hall_event,
    hall_players,
    write_hall_venue,
)
from wuzi.sim.hall.summary import (
    event_figures,
    forbidden_losses,
    forbidden_shapes_played_on,
    two_game_rounds,
)
from wuzi.tournament.results import MatchKind
from wuzi.tournament.store import TournamentStore

# Black: f8 g8 h6 h7, then h8 — a double-three (f8-g8-h8 and h6-h7-h8) — then White a9
DOUBLE_THREE = "f8 a1 g8 a3 h6 a5 h7 a7 h8 a9"


def test_the_venue_file_has_three_events_each_its_tables_database_and_rules(
    tmp_path: Path,
) -> None:
    count = len(OPEN_2019.tables)
    databases = {e.id: tmp_path / f"{e.id}.sqlite" for e in OPEN_2019.events}
    path = write_hall_venue(
        tmp_path,
        OPEN_2019,
        venue_id="hall-1",
        broker_url="mqtt://127.0.0.1:1883",
        board_ports=[f"/dev/pts/b{i}" for i in range(count)],
        clock_ports=[f"/dev/pts/c{i}" for i in range(count)],
        token="secret-token",
        databases=databases,
    )
    venue = load_venue(path)
    assert [(e.id, e.name) for e in venue.events] == [
        ("men", "男子组"),
        ("women", "女子组"),
        ("open", "公开组"),
    ]
    assert [e.tables for e in venue.events] == [(1, 2, 3, 4), (5, 6, 7), (8, 9)]
    assert [Path(str(e.database)) for e in venue.events] == list(databases.values())
    assert venue.defaults_for(3).ruleset is not None and venue.defaults_for(3).ruleset.forbidden
    assert venue.defaults_for(8).ruleset is not None
    assert not venue.defaults_for(8).ruleset.forbidden
    assert venue.defaults_for(8).opening == "free"
    # the hall's Pis by place, not by event: pi-2 serves a men's and women's tables
    assert venue.host_of_table(4).id == venue.host_of_table(5).id == "pi-2"
    assert venue.event("men").has_table(4) and venue.event("women").has_table(5)
    with pytest.raises(ValueError, match="9 tables"):
        write_hall_venue(
            tmp_path,
            OPEN_2019,
            venue_id="hall-1",
            broker_url="mqtt://127.0.0.1:1883",
            board_ports=["/dev/pts/b0"],
            clock_ports=["/dev/pts/c0"],
            token="t",
            databases=databases,
        )


def test_each_group_is_created_with_its_settings_and_its_players(tmp_path: Path) -> None:
    players = hall_players(OPEN_2019, 1)
    assert hall_players(OPEN_2019, 1) == players and hall_players(OPEN_2019, 2) != players
    names = [p.name for group in players.values() for p in group]
    assert len(names) == len(set(names)) == 18
    assert {p.sex for p in players["men"]} == {"m"} and {p.sex for p in players["women"]} == {"f"}
    for event in OPEN_2019.events:
        db = tmp_path / f"{event.id}.sqlite"
        create_hall_event(db, event, players[event.id])
        settings = TournamentStore(db).load().settings
        assert settings.rounds == event.rounds
        if event.id == "open":
            assert settings.match is MatchKind.TWO_GAME and settings.opening == "free"
            assert settings.rules.startswith("no-forbidden")
        else:
            assert settings.match is MatchKind.SINGLE and settings.rules == "renju"
            assert settings.opening == "designated"


def _record(moves: str, *, ruleset: str, reason: str, result: str, **extra: Any) -> dict[str, Any]:
    points = moves.split()
    colours = ["black" if k % 2 == 0 else "white" for k in range(len(points))]
    return {
        "event": "x",
        "round": "1",
        "match": 1,
        "game_number": 1,
        "start_time": "2026-12-07T12:00:00+00:00",
        "ruleset": ruleset,
        "moves": points,
        "move_details": [{"colour": c} for c in colours],
        "result": result,
        "termination": {"reason": reason, "detail": "", "t_ms": 0},
        "tags": {"game_id": extra.pop("game_id", "r1-m1-g1")},
        **extra,
    }


def test_a_forbidden_loss_and_the_same_shape_played_on_are_told_apart() -> None:
    lost = _record(DOUBLE_THREE.rsplit(" ", 1)[0], ruleset="renju", reason="forbidden-33",
                   result="white")  # fmt: skip
    played = _record(DOUBLE_THREE, ruleset="no-forbidden", reason="five", result="black")
    assert forbidden_losses({"a": lost, "b": played}) == ["a"]
    assert forbidden_shapes_played_on({"a": lost}) == []  # the game ended with it
    assert forbidden_shapes_played_on({"b": played}) == ["b: move 9 h8 (double_three)"]
    assert len(parse_points(DOUBLE_THREE)) == 10


def test_two_game_rounds_are_read_by_round_and_match() -> None:
    records = {
        "r1-m1-g1": _record("h8", ruleset="no-forbidden", reason="five", result="black"),
        "r1-m1-g2": _record("h8", ruleset="no-forbidden", reason="five", result="white",
                            game_id="r1-m1-g2", game_number=2),
        "r1-m2-g1": _record("h8", ruleset="no-forbidden", reason="flag", result="white",
                            game_id="r1-m2-g1", match=2),
    }  # fmt: skip
    playoff = _record(
        "h8",
        ruleset="no-forbidden",
        reason="flag",
        result="white",
        game_id="r0-m1-p1",
        round="playoff for place 2",
        game_number=3,
    )
    records["r0-m1-p1"] = playoff  # fmt: skip
    assert two_game_rounds(records) == {("1", 1): [1, 2], ("1", 2): [1]}


def _write_event(out: Path, event: str, records: dict[str, dict[str, Any]], places: int) -> None:
    for folder in ("games", "truth"):
        (out / event / folder).mkdir(parents=True, exist_ok=True)
    for game_id, record in records.items():
        record["players"] = {
            "first": {"name": "A", "id": "A", "team": "上海"},
            "second": {"name": "B", "id": "B", "team": "北京"},
        }
        (out / event / "games" / f"{game_id}.json").write_text(json.dumps(record))
        truth = {"game_id": game_id, "moves": record["moves"], "turns": []}
        (out / event / "truth" / f"{game_id}.json").write_text(json.dumps(truth))
    standings = [{"place": n, "player": f"P{n}"} for n in range(1, places + 1)]
    (out / event / "standings.json").write_text(json.dumps(standings))


def test_the_check_names_a_forbidden_move_that_stood_and_a_round_of_one_game(
    tmp_path: Path,
) -> None:
    """A renju group's record with Black's double-three played on (a claim missed), an
    open group's game lost by a forbidden move, and an open round of one game that no
    flag decided: each named; the figures line says what the records show."""
    stood = _record(DOUBLE_THREE, ruleset="renju", reason="five", result="black")
    _write_event(tmp_path, "men", {"r1-m1-g1": stood}, 8)
    _write_event(tmp_path, "women", {}, 6)
    wrong = _record("h8 a1", ruleset="no-forbidden", reason="forbidden-33", result="white")
    _write_event(tmp_path, "open", {"r1-m1-g1": wrong}, 4)
    problems = check_hall(tmp_path, OPEN_2019, {e.id: tmp_path / "none" for e in OPEN_2019.events})
    assert "men: a forbidden move stood: r1-m1-g1: move 9 h8 (double_three)" in problems
    assert "open: r1-m1-g1 was lost by a forbidden move in a group without them" in problems
    assert any(p.startswith("open: round 1 match 1 has games [1]") for p in problems)
    assert "women: no games in " + str(tmp_path / "women" / "truth") in problems
    assert event_figures("men", tmp_path / "men" / "games").line() == (
        "men: 1 games, 0 lost by a forbidden move, 1 Black moves renju forbids played on"
    )
