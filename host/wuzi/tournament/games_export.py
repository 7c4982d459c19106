"""The event's game records by round: the files a federation or a renju database imports,
and the games' section of the HTML report.

The hosts write the records (``wuzi host --records-dir``: one Wuzi JSON file per game,
named by its game id); the director keeps only results. So the export is given the
records — ``wuzi tournament export games --records DIR`` reads them — and takes those
whose ``event`` is this event's name (a host's folder may hold other events' games and
standalone games: they are counted, not exported). A game found twice (two copies of a
folder) is exported once when the copies agree and is an error naming both files when
they do not.

A record names its round (``round``: ``3``, or ``playoff for place 5`` for a place
playoff); the games of one round go to one file of each kind, in match, board and game
order:

* ``round-3.sgf`` — an SGF collection ``(;…)(;…)`` of the round's games, each the full
  record (``wuzi.rules.formats.sgf``: EV, RO, GN, PB/PW, BT/WT, DT, RE and Wuzi's own
  properties), so every viewer lists the games by name and Wuzi reads each back whole;
* ``round-3.lib`` — one RenLib library of the round's games (games sharing first moves
  share nodes; each game's comment names it: ``export_lib_games``).

A round whose text is not a number gets a file named after it (``playoff-for-place-5``).
A record an older host wrote names no round: its director's game id (``r2-m3-b1``) gives
round, match and board (``named_by_id``); one without either goes to ``unnamed-round``.
Pure: records in, bytes out.
"""

from __future__ import annotations

import dataclasses
import html
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from wuzi.rules.board import Colour
from wuzi.rules.formats.renlib import export_lib_games
from wuzi.rules.formats.sgf import export_sgf
from wuzi.rules.record import GameRecord
from wuzi.rules.record_json import record_to_json
from wuzi.tournament.diagram import board_svg
from wuzi.tournament.errors import SettingsError

__all__ = ["RoundGames", "event_games", "games_html", "round_files", "rounds_of"]


@dataclass(frozen=True)
class RoundGames:
    """The games of one round: its text as the records give it, and its files' stem."""

    round: str
    stem: str
    records: tuple[GameRecord, ...]


def _game_key(record: GameRecord, source: str) -> str:
    return record.tags.get("game_id") or source


def event_games(
    event: str, found: Iterable[tuple[str, GameRecord]]
) -> tuple[list[GameRecord], list[str]]:
    """The records of ``event`` among ``found`` (source name, record), one per game, and
    notes on what was left out. Raises ``SettingsError`` naming both sources when two
    different records claim the same game id."""
    chosen: dict[str, tuple[str, GameRecord]] = {}
    others = 0
    for source, record in found:
        if record.event != event:
            others += 1
            continue
        key = _game_key(record, source)
        if key in chosen:
            earlier, kept = chosen[key]
            if record_to_json(kept) != record_to_json(record):
                raise SettingsError(
                    f"game {key!r} has two different records: {earlier} and {source}"
                )
            continue
        chosen[key] = (source, named_by_id(record))
    notes = []
    if others:
        notes.append(f"{others} record(s) of other events or standalone games left out")
    return [record for _, record in chosen.values()], notes


_GAME_ID = re.compile(r"r([0-9]+)-m([0-9]+)-([bgp])([0-9]+)(?:-[0-9]+)?")
_PLACE_ID = re.compile(r"pl([0-9]+)-m([0-9]+)-p([0-9]+)(?:-[0-9]+)?")


def named_by_id(record: GameRecord) -> GameRecord:
    """A record an older host wrote (no round) named from its director's game id
    (docs/director.md: ``r2-m3-b1`` round 2, match 3, board 1; ``pl5-m1-p2`` the playoff
    for place 5, match 1); any other record as it is."""
    if record.round:
        return record
    game_id = record.tags.get("game_id", "")
    regular = _GAME_ID.fullmatch(game_id)
    if regular is not None:
        board = int(regular.group(4)) if regular.group(3) == "b" else record.board
        return dataclasses.replace(
            record, round=regular.group(1), match=int(regular.group(2)), board=board
        )
    place = _PLACE_ID.fullmatch(game_id)
    if place is not None:
        return dataclasses.replace(
            record, round=f"playoff for place {place.group(1)}", match=int(place.group(2))
        )
    return record


def _round_order(text: str) -> tuple[int, int, str]:
    return (0, int(text), "") if text.isdigit() else (1, 0, text)


def stem_of(round_text: str) -> str:
    """A file name stem for a round: ``round-3``, ``playoff-for-place-5``."""
    if round_text.isdigit():
        return f"round-{int(round_text)}"
    slug = re.sub(r"[^a-z0-9]+", "-", round_text.lower()).strip("-")
    return slug or "unnamed-round"


def _game_order(record: GameRecord) -> tuple[int, int, int, int, str]:
    big = 10**9
    return (
        record.match if record.match is not None else big,
        record.board if record.board is not None else 0,
        record.game_number if record.game_number is not None else 0,
        record.table if record.table is not None else big,
        record.tags.get("game_id", ""),
    )


def rounds_of(records: Sequence[GameRecord]) -> list[RoundGames]:
    """The records grouped by round, rounds in order (numbers first), games in match,
    board and game order."""
    by_round: dict[str, list[GameRecord]] = {}
    for record in records:
        by_round.setdefault(record.round.strip(), []).append(record)
    stems: dict[str, str] = {}
    rounds = []
    for text in sorted(by_round, key=_round_order):
        stem = stem_of(text)
        if stem in stems.values():  # two texts giving one name: keep both files apart
            stem = f"{stem}-{len(stems) + 1}"
        stems[text] = stem
        games = tuple(sorted(by_round[text], key=_game_order))
        rounds.append(RoundGames(text, stem, games))
    return rounds


def round_files(rounds: Sequence[RoundGames]) -> dict[str, bytes]:
    """``{file name: content}``: each round's SGF collection and RenLib library."""
    files: dict[str, bytes] = {}
    for rnd in rounds:
        collection = "".join(export_sgf(record) for record in rnd.records)
        files[f"{rnd.stem}.sgf"] = collection.encode("utf-8")
        files[f"{rnd.stem}.lib"] = export_lib_games(rnd.records)
    return files


def _caption(record: GameRecord) -> str:
    black, white = record.player_of(Colour.BLACK), record.player_of(Colour.WHITE)
    result = ""
    if record.result is not None:
        result = f" — {record.result.score} ({record.result.reason})"
    start = f"; started {record.start_time}" if record.start_time else ""
    return (
        f"{record.label or record.tags.get('game_id', '')}: ● {black.label or 'Black'} – "
        f"○ {white.label or 'White'}{result}{start}"
    )


def games_html(rounds: Sequence[RoundGames]) -> str:
    """The games' section of the report: per round, each game's board with numbered
    stones (``board_svg``) and a caption naming the game and its result."""
    e = html.escape
    parts = ["<h2>Games</h2>"]
    for rnd in rounds:
        title = f"Round {rnd.round}" if rnd.round.isdigit() else (rnd.round or "Unnamed round")
        parts.append(f'<h3>{e(title)}</h3><div class="games">')
        for record in rnd.records:
            caption = _caption(record)
            parts.append(
                f"<figure>{board_svg(record, caption)}<figcaption>{e(caption)}"
                f" ({len(record.moves)} moves)</figcaption></figure>"
            )
        parts.append("</div>")
    return "\n".join(parts)
