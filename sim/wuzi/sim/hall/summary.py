"""What a finished hall's records show, event by event: read back from the output folder.

The hall demo's promise is that each event's games were judged by its own rules: in a
renju group a forbidden move loses (White claimed it; ``forbidden_losses``), while in the
open group the very same kind of move — a Black double-three, double-four or overline,
judged by the referee's own ``wuzi.rules.forbidden.judge`` on the position before it — is
a move like any other and the game goes on (``forbidden_shapes_played_on``); and the open
group's rounds are two games at one table, colours swapped (``two_game_rounds``). Pure
reading of ``DIR/<event>/games/*.json`` (the hosts' records, docs/records.md).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from wuzi.rules.board import Board, Colour, parse_point
from wuzi.rules.forbidden import judge
from wuzi.rules.verdict import Verdict

__all__ = [
    "EventFigures",
    "event_figures",
    "forbidden_losses",
    "forbidden_shapes_played_on",
    "load_records",
    "two_game_rounds",
]

FORBIDDEN = (Verdict.OVERLINE, Verdict.DOUBLE_FOUR, Verdict.DOUBLE_THREE)


def load_records(games: Path) -> dict[str, dict[str, Any]]:
    """game id (the record's ``game_id`` tag, else the file's name) -> its record."""
    out = {}
    for path in sorted(games.glob("*.json")):
        record = json.loads(path.read_text(encoding="utf-8"))
        out[str((record.get("tags") or {}).get("game_id") or path.stem)] = record
    return out


def _reason(record: dict[str, Any]) -> str:
    termination = record.get("termination") or {}
    return str(termination.get("reason") or "")


def forbidden_losses(records: dict[str, dict[str, Any]]) -> list[str]:
    """The games Black lost by a forbidden move (the record's termination:
    ``forbidden-33``, ``forbidden-44``, ``forbidden-overline``), by id."""
    return sorted(g for g, r in records.items() if _reason(r).startswith("forbidden"))


def forbidden_shapes_played_on(records: dict[str, dict[str, Any]]) -> list[str]:
    """Each Black move that renju forbids (judged on the position before it) after which
    the game went on — another move followed — as ``"GAME: move N POINT (KIND)"``. None
    in a renju group (such a move ends the game once claimed); the open group's games
    play them (no forbidden moves, 002 六(一)2)."""
    found = []
    for game_id, record in sorted(records.items()):
        board = Board()
        moves = [str(m) for m in record.get("moves", [])]
        details = record.get("move_details") or []
        for k, text in enumerate(moves):
            point = parse_point(text)
            said = details[k].get("colour") if k < len(details) else None
            colour = Colour.WHITE if said == "white" else Colour.BLACK
            if said is None:  # an older record: Black moves first, then in turn
                colour = Colour.BLACK if k % 2 == 0 else Colour.WHITE
            if colour is Colour.BLACK and k + 1 < len(moves):
                verdict = judge(board, point)
                if verdict in FORBIDDEN:
                    found.append(f"{game_id}: move {k + 1} {text} ({verdict.name.lower()})")
            board.place(point, colour)
    return found


def two_game_rounds(records: dict[str, dict[str, Any]]) -> dict[tuple[str, int], list[int]]:
    """(round, match) -> the game numbers its records hold, in order: ``[1, 2]`` for a
    two-game round played through (game 2 may be left out only when game 1's flag
    decided the round, 002 六(三)2). The rounds of the event only: a place playoff after
    the last round (``playoff for place N``) plays by its own rules (002 六(四)3)."""
    rounds: dict[tuple[str, int], list[int]] = {}
    for record in records.values():
        match, number = record.get("match"), record.get("game_number")
        regular = str(record.get("round", "")).isdigit()
        if regular and isinstance(match, int) and isinstance(number, int):
            rounds.setdefault((str(record.get("round", "")), match), []).append(number)
    return {key: sorted(numbers) for key, numbers in sorted(rounds.items())}


@dataclass(frozen=True)
class EventFigures:
    """One event's games as the summary prints them."""

    event: str
    games: int
    forbidden_losses: int
    played_on: int  # Black moves renju forbids, played on
    two_game_rounds: int  # rounds with both games recorded

    def line(self) -> str:
        text = f"{self.event}: {self.games} games, {self.forbidden_losses} lost by a forbidden move"
        if self.two_game_rounds:
            text += f", {self.two_game_rounds} two-game rounds"
        if self.played_on:
            text += f", {self.played_on} Black moves renju forbids played on"
        return text


def event_figures(event: str, games: Path) -> EventFigures:
    records = load_records(games)
    pairs = sum(1 for numbers in two_game_rounds(records).values() if numbers[:2] == [1, 2])
    return EventFigures(
        event,
        len(records),
        len(forbidden_losses(records)),
        len(forbidden_shapes_played_on(records)),
        pairs,
    )
