"""What the demo final played, counted from its records: the agreed draws among the
board games, the full-board draws and the captains' playoffs.

The demo promises agreed draws in about a third of the board games, so that tied matches
and captains' playoffs happen (docs/cli.md "wuzi demo"); ``wuzi demo`` prints
this tally at the end so a run shows whether it kept the promise. Pure over the records'
JSON (``DIR/games/NAME.json``): a playoff game's name ends in ``-p<n>``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

__all__ = ["GameTally", "tally_games", "tally_records"]

_PLAYOFF = re.compile(r"-p\d+$")
FULL_BOARD = "full-board"  # the termination reason of a draw by a full board


@dataclass(frozen=True)
class GameTally:
    board_games: int  # the games on a match's boards (not playoffs)
    agreed_draws: int  # board games the players agreed to draw
    full_board_draws: int  # board games drawn by a full board
    playoffs: int  # captains' playoff games played

    @property
    def draw_share(self) -> float:
        """The agreed draws' part of the board games (0 when none was played)."""
        return self.agreed_draws / self.board_games if self.board_games else 0.0

    def line(self) -> str:
        """One line for the demo's end."""
        return (
            f"agreed draws: {self.agreed_draws} of {self.board_games} board games "
            f"({self.draw_share:.0%}); full-board draws: {self.full_board_draws}; "
            f"captains' playoffs: {self.playoffs}"
        )


def tally_games(records: Iterable[tuple[str, Mapping[str, object]]]) -> GameTally:
    """The tally of (game name, record) pairs."""
    board = agreed = full = playoffs = 0
    for name, record in records:
        if _PLAYOFF.search(name):
            playoffs += 1
            continue
        board += 1
        if record.get("result") != "draw":
            continue
        termination = record.get("termination")
        reason = termination.get("reason") if isinstance(termination, Mapping) else None
        if reason == FULL_BOARD:
            full += 1
        else:
            agreed += 1
    return GameTally(board, agreed, full, playoffs)


def tally_records(games: Path) -> GameTally:
    """The tally of a run's ``games/`` folder (a record that cannot be read is skipped:
    the run's checks report it)."""
    pairs: list[tuple[str, Mapping[str, object]]] = []
    for path in sorted(games.glob("*.json")):
        try:
            value = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if isinstance(value, dict):
            pairs.append((path.stem, value))
    return tally_games(pairs)
