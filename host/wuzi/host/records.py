"""Each finished game's record, as the host judged it, written beside the journal.

The journal is the truth of a table; this file is the referee's and the organiser's copy of
one game in the JSON record format (docs/records.md): the score sheet the chief referee
prints, the file the venue demo compares with what its bots played, the game an appeal is
about. It is derived — rebuilt from the journal after a crash — so writing it is
idempotent: the same game gives the same file, written to a temporary name, fsync'd and
renamed so a reader never sees half a record.
"""

from __future__ import annotations

import datetime
import os
import re
from pathlib import Path

from wuzi.bus.schemas import Assignment
from wuzi.rules.record import GameRecord, Player
from wuzi.rules.record_json import record_to_json
from wuzi.table.session import TableSession

__all__ = ["game_record", "record_path", "round_text", "start_time", "write_record"]

_SAFE = re.compile(r"[^A-Za-z0-9_.-]")


def record_path(folder: Path, game_id: str) -> Path:
    """Where the record of ``game_id`` goes (the id made file-name safe)."""
    return folder / f"{_SAFE.sub('_', game_id)}.json"


def start_time(wall_ms: int | None, tz: datetime.tzinfo | None = None) -> str:
    """ISO 8601 of a wall-clock instant, to the second, with its offset from UTC: the
    host's local time (``tz`` None), as the score sheet and the venue's clocks show it;
    "" when not known (a game an older host began)."""
    if wall_ms is None:
        return ""
    moment = datetime.datetime.fromtimestamp(wall_ms / 1000, tz=datetime.UTC)
    return moment.astimezone(tz).isoformat(timespec="seconds")


def round_text(assignment: Assignment) -> str:
    """The record's round: ``3``; a place playoff after the last round (round 0) is
    ``playoff for place 5`` (``playoff`` when the place is not known)."""
    if assignment.round is None:
        return ""
    if assignment.round == 0:
        place = assignment.place
        return "playoff" if place is None else f"playoff for place {place}"
    return str(assignment.round)


def game_record(
    session: TableSession,
    *,
    table: int,
    event: str,
    assignment: Assignment | None,
    started_wall_ms: int | None = None,
) -> GameRecord:
    """The record of the session's current game, named as the director named it: the
    event (the assignment's, else the venue's ``event``), round, match, board, both
    players with their teams and ids, the game in the match, the start time (the wall
    clock when the game began, ``started_wall_ms``), and the game id as a tag (and the
    venue event's id, ``event_id``, in a hall of several events)."""
    setup = session.setup
    fields: dict[str, object] = {
        "event": event,
        "table": table,
        "time_control": setup.time_control,
        "start_time": start_time(started_wall_ms),
    }
    if assignment is not None:
        a = assignment
        # the first seat holds Black at the start: the assignment's Black
        fields["first"] = Player(name=a.black, id=a.black_id, team=a.black_team)
        fields["second"] = Player(name=a.white, id=a.white_id, team=a.white_team)
        fields["event"] = a.event or event
        fields["round"] = round_text(a)
        fields["match"] = a.match
        fields["board"] = a.board
        fields["game_number"] = a.game_in_match
        tags = {"game_id": a.game_id}
        if a.event_id:  # the venue file's event, in a hall of several (docs/records.md)
            tags["event_id"] = a.event_id
        if a.playoff:
            tags["playoff"] = "yes"
        fields["tags"] = tags
    return session.game.record(**fields)


def write_record(folder: Path, game_id: str, record: GameRecord) -> Path:
    """Write ``record`` atomically as ``folder/<game_id>.json``; returns the path."""
    folder.mkdir(parents=True, exist_ok=True)
    path = record_path(folder, game_id)
    text = record_to_json(record) + "\n"
    if path.exists() and path.read_text(encoding="utf-8") == text:
        return path  # already written (a restart rebuilt the same game)
    temporary = path.with_suffix(".json.tmp")
    with temporary.open("w", encoding="utf-8") as out:
        out.write(text)
        out.flush()
        os.fsync(out.fileno())
    os.replace(temporary, path)
    directory = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(directory)
    finally:
        os.close(directory)
    return path
