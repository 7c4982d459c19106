"""What a finished demo final must show, checked from its output folder alone.

The guarantees the venue makes, read back the way an appeals committee would: every game
the bots played has a record on its host, and the record's moves are the bots' moves —
no stone lost, doubled or invented through kills, cuts and noise; every game's result is
in the director's database exactly once; every record names its game (event, round,
match, board, both players and teams, start time: ``unnamed``); no clock was charged for
an outage (a player's
clock runs only while the table is playing, so its total use is at most the time the
bots spent on their moves plus the hands' own slack — never the length of an outage);
and every one of the 16 places is given once.

The bots' moves are the moves they completed — a stone put down *and* the clock pressed
for it. A stone put down whose press never came (the flag fell first, or the referee set
the result) is not a move and is rightly missing from the record; the truth file lists it
under ``unpressed`` and ``check_notes`` reports it as the information it is. So is a
stone pressed after its mover's flag fell (the hands' own timing of that turn, ``late`` in
the truth file, used up the time the state showed the mover had left): the clock had
stopped, the record rightly ends without it (`pressed_after_flag`).

Pure reading: ``check_run`` returns the problems, an empty list when all holds;
``check_notes`` what is worth saying but is no problem.
"""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path
from typing import Any

__all__ = [
    "check_notes",
    "check_run",
    "director_results",
    "load_truths",
    "pressed_after_flag",
]


SLACK_MS = 1500  # what the people's view of a turn may differ from the host's (an
# outage the check must catch is a host's restart: 4 s and more)


def load_truths(out: Path) -> dict[str, list[str]]:
    """game id -> the moves the bots completed, stone and press (``truth/*.json``)."""
    return {game_id: value[0] for game_id, value in _truth_files(out).items()}


def check_notes(out: Path) -> list[str]:
    """What the run in ``out`` shows that is no problem: the stones the bots put down but
    never pressed for (``unpressed`` in ``truth/*.json``), one line a game."""
    notes = []
    for path in sorted((out / "truth").glob("*.json")):
        value = json.loads(path.read_text(encoding="utf-8"))
        unpressed = [str(p) for p in value.get("unpressed", [])]
        if unpressed:
            stones = ", ".join(unpressed)
            notes.append(
                f"{value['game_id']}: {stones} put down but never pressed (the game ended "
                f"first): not a move, rightly not in the record"
            )
        late = value.get("late")
        record_path = out / "games" / f"{_safe(str(value['game_id']))}.json"
        if isinstance(late, dict) and record_path.exists():
            record = json.loads(record_path.read_text(encoding="utf-8"))
            moves = [str(m) for m in value["moves"]]
            if record.get("moves") != moves and pressed_after_flag(record, moves, late):
                notes.append(
                    f"{value['game_id']}: {moves[-1]} pressed {late['turn_ms']} ms into a "
                    f"turn with {late['left_ms']} ms left: after the flag fell, not a move, "
                    f"rightly not in the record"
                )
    return notes


def pressed_after_flag(
    record: dict[str, Any], moves: list[str], late: dict[str, Any] | None
) -> bool:
    """The bots' last move is missing from the record because its press came after the
    mover's flag fell: the record ends one move short with the mover lost on time, and
    the hands' own timing of that turn (``late`` in the truth file) used up the time the
    mover had left, give or take `SLACK_MS`. Such a stone is no move (the clock had
    stopped; 2013 rules: a flag loses), and the record is right without it."""
    recorded = [str(m) for m in record.get("moves", [])]
    if late is None or recorded != moves[:-1]:
        return False
    mover = "black" if len(recorded) % 2 == 0 else "white"
    winner = "white" if mover == "black" else "black"
    termination = record.get("termination") or {}
    said = f"{termination.get('reason', '')} {termination.get('detail', '')}"
    if record.get("result") != winner or "flag" not in said:
        return False
    used_ms = int(late["turn_ms"]) - int(late["stopped_ms"])
    return used_ms >= int(late["left_ms"]) - SLACK_MS


def _late_turns(out: Path) -> dict[str, dict[str, Any]]:
    """game id -> the ``late`` turn of its truth file, where there is one."""
    found = {}
    for path in sorted((out / "truth").glob("*.json")):
        value = json.loads(path.read_text(encoding="utf-8"))
        if isinstance(value.get("late"), dict):
            found[str(value["game_id"])] = value["late"]
    return found


def _truth_files(out: Path) -> dict[str, tuple[list[str], list[Any]]]:
    found = {}
    for path in sorted((out / "truth").glob("*.json")):
        value = json.loads(path.read_text(encoding="utf-8"))
        moves = [str(m) for m in value["moves"]]
        found[str(value["game_id"])] = (moves, list(value.get("turns", [])))
    return found


def overcharged(record: dict[str, Any], turns: list[Any]) -> list[str]:
    """The moves whose clock charge exceeds the turn as the people saw it, less the time
    the table stood still (``TurnTimer``): a clock that ran through an outage."""
    details = record.get("move_details", [])
    found = re.search(r"\+(\d+(?:\.\d+)?)", str(record.get("time_control", "")))
    increment_ms = round(float(found.group(1)) * 1000) if found else 0
    out = []
    for k in range(1, min(len(details), len(turns))):
        turn = turns[k]
        if turn is None:
            continue
        wall_ms, stopped_ms = int(turn[0]), int(turn[1])
        before, after = details[k - 1], details[k]
        charged = (
            int(before["first_ms"]) + int(before["second_ms"])
            - int(after["first_ms"]) - int(after["second_ms"])
            + increment_ms
        )  # fmt: skip
        if charged > wall_ms - stopped_ms + SLACK_MS:
            out.append(
                f"move {k + 1}: charged {charged} ms, the turn took {wall_ms} ms of which "
                f"the table stood still {stopped_ms} ms"
            )
    return out


def director_results(db: Path) -> dict[str, list[str]]:
    """game id -> every result the director's database holds for it: the game's own row
    (``director_game``, one per game by its key) and each ``result-confirmed`` entry of
    the append-only audit log — a result taken twice (a host's report delivered again
    after a restart, say) shows up as a second confirmation."""
    found: dict[str, list[str]] = {}
    connection = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        rows = connection.execute("SELECT id, result FROM director_game").fetchall()
        audit = connection.execute(
            "SELECT details FROM director_audit WHERE action = 'result-confirmed'"
        ).fetchall()
    finally:
        connection.close()
    confirmed: dict[str, int] = {}
    for (details,) in audit:
        game = json.loads(details).get("game")
        if isinstance(game, str):
            confirmed[game] = confirmed.get(game, 0) + 1
    for game_id, result in rows:
        if result is not None:
            found[str(game_id)] = [str(result)] * max(1, confirmed.get(str(game_id), 0))
    return found


def check_run(
    out: Path,
    *,
    db: Path | None = None,
    places: int = 16,
    names: tuple[str, ...] | None = None,
) -> list[str]:
    """Every problem with the finished run in ``out`` (``wuzi demo --out``): the team
    final's by default; one event of a hall (``wuzi demo --hall``) with its own
    database ``db`` (default ``out/run/final.sqlite``), its number of ``places`` and
    the record fields its games must name (``names``, default ``NAMES``: an individual
    event's games have no board)."""
    problems: list[str] = []
    files = _truth_files(out)
    truths = {game_id: moves for game_id, (moves, _) in files.items()}
    lates = _late_turns(out)
    if not truths:
        return [f"no games in {out / 'truth'}"]
    for game_id, (moves, turns) in files.items():
        path = out / "games" / f"{_safe(game_id)}.json"
        if not path.exists():
            problems.append(f"{game_id}: no record in {out / 'games'}")
            continue
        record = json.loads(path.read_text(encoding="utf-8"))
        recorded = [str(m) for m in record.get("moves", [])]
        if recorded != moves and not pressed_after_flag(record, moves, lates.get(game_id)):
            problems.append(f"{game_id}: recorded {recorded} but the bots played {moves}")
        if record.get("result") is None:
            problems.append(f"{game_id}: the record has no result")
        problems += [f"{game_id}: {p}" for p in overcharged(record, turns)]
        problems += [f"{game_id}: {p}" for p in unnamed(record, names or NAMES)]
    db = db or out / "run" / "final.sqlite"
    if db.exists():
        results = director_results(db)
        for game_id in truths:
            held = results.get(game_id, [])
            if len(held) != 1:
                problems.append(f"{game_id}: {len(held)} results in the director's database")
            elif game_id not in problems_for_records(problems):
                expected = _assigned_winner(out, game_id)
                if expected is not None and held[0] != expected:
                    problems.append(
                        f"{game_id}: the director holds {held[0]!r}, the record says {expected!r}"
                    )
    else:
        problems.append(f"no director database at {db}")
    standings_path = out / "standings.json"
    if standings_path.exists():
        standings = json.loads(standings_path.read_text(encoding="utf-8"))
        given = sorted(int(line["place"]) for line in standings)
        if given != list(range(1, places + 1)):
            problems.append(f"the standings do not give places 1-{places} once each: {given}")
    else:
        problems.append(f"no {standings_path}")
    return problems


NAMES = ("event", "round", "match", "board", "start_time")
"""What every record of the demo's team final must name besides the players and their
teams (docs/records.md: a record names its game)."""


def unnamed(record: dict[str, Any], names: tuple[str, ...] = NAMES) -> list[str]:
    """What the record does not say of which game it is: the event, round, match, board
    and start time (``names``), both players' names and teams (each a problem naming the
    field)."""
    missing = [key for key in names if record.get(key) in (None, "")]
    players = record.get("players") or {}
    for seat in ("first", "second"):
        player = players.get(seat) or {}
        missing += [f"players.{seat}.{key}" for key in ("name", "team") if not player.get(key)]
    return [f"the record does not name its {key}" for key in missing]


def problems_for_records(problems: list[str]) -> set[str]:
    return {p.split(":", 1)[0] for p in problems if "no record" in p}


def _assigned_winner(out: Path, game_id: str) -> str | None:
    """The record's result in the director's terms: the colour the winner was assigned
    (the first seat is the assignment's Black; a swap changes the stones, not the
    seats), or "draw"."""
    path = out / "games" / f"{_safe(game_id)}.json"
    if not path.exists():
        return None
    record = json.loads(path.read_text(encoding="utf-8"))
    result, black_seat = record.get("result"), record.get("black_seat", "first")
    if result == "draw":
        return "draw"
    if result not in ("black", "white"):
        return None
    winner_seat = black_seat if result == "black" else _other(black_seat)
    return "black" if winner_seat == "first" else "white"


def _other(seat: str) -> str:
    return "second" if seat == "first" else "first"


def _safe(game_id: str) -> str:
    return "".join(c if c.isalnum() or c in "-_." else "_" for c in game_id)
