"""Rounds as data, and each entrant's history of them.

A ``Round`` is a list of ``Pairing``s; a pairing's result arrives later. ``build_histories``
reads the rounds played so far and gives every entrant one ``RoundEntry`` per round:
what it scored, against whom, with which colour, and whether a game was played over the
board. Pairing (colour preferences, no rematches, byes) and tie-breaks (Buchholz and the
rest) are computed from these entries only, so the convention for unplayed rounds lives in
one place:

* a **bye** scores as a win (the round and all its games) but is not a game;
* a **forfeit** scores as a win or a loss but is not a game: no colour is recorded and the
  two may be paired again;
* a round an entrant was not in (a late entry, after a withdrawal) is **absent**: 0 points.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from wuzi.rules.board import Colour
from wuzi.tournament.errors import ResultError
from wuzi.tournament.results import (
    GameResult,
    MatchKind,
    RoundResult,
    Scoring,
    SideScore,
    bye_score,
    score_round,
)


@dataclass(frozen=True)
class Pairing:
    """One board of a round: ``first`` has Black in game 1; ``second`` is None for a bye.

    ``playoff`` holds the games of a knockout tie's playoff; ``places`` the places a
    placement-knockout match plays for; ``manual_reason`` is set when a referee fixed this
    pairing by hand.
    """

    board: int
    first: str
    second: str | None
    result: RoundResult | None = None
    playoff: tuple[GameResult, ...] = ()
    places: tuple[int, int] | None = None
    manual_reason: str | None = None

    @property
    def is_bye(self) -> bool:
        return self.second is None

    @property
    def finished(self) -> bool:
        return self.is_bye or self.result is not None

    def side_of(self, entrant: str) -> int:
        if entrant == self.first:
            return 0
        if entrant == self.second:
            return 1
        raise KeyError(entrant)

    def opponent_of(self, entrant: str) -> str | None:
        return self.second if entrant == self.first else self.first


@dataclass(frozen=True)
class Round:
    number: int
    pairings: tuple[Pairing, ...]

    @property
    def finished(self) -> bool:
        return all(p.finished for p in self.pairings)

    def board(self, number: int) -> Pairing:
        for pairing in self.pairings:
            if pairing.board == number:
                return pairing
        raise ResultError(f"round {self.number} has no board {number}")

    def entrants(self) -> set[str]:
        found = {p.first for p in self.pairings}
        found.update(p.second for p in self.pairings if p.second is not None)
        return found


class EntryKind(enum.Enum):
    GAME = "game"  # at least one game played over the board
    BYE = "bye"
    FORFEIT = "forfeit"  # paired, but no game was played (won or lost by forfeit)
    ABSENT = "absent"  # not in this round: a late entry or after a withdrawal


@dataclass(frozen=True)
class RoundEntry:
    """What one round was for one entrant."""

    round: int
    kind: EntryKind
    opponent: str | None
    colour: Colour | None  # game-1 colour, only when a game was played
    fraction: float  # 1 win, ½ draw, 0 loss
    points: float  # the fraction in the event's scoring (e.g. 2/1/0)
    game_points: float
    wins: int  # games won over the board

    @property
    def played(self) -> bool:
        return self.kind is EntryKind.GAME


History = Mapping[str, Sequence[RoundEntry]]


def build_histories(
    entrants: Iterable[str],
    rounds: Sequence[Round],
    kind: MatchKind,
    scoring: Scoring,
    game_scoring: Scoring,
) -> dict[str, list[RoundEntry]]:
    """Every entrant's entries for the rounds given; a pairing without a result yet and a
    round an entrant is not in both count as absent (nothing scored)."""
    histories: dict[str, list[RoundEntry]] = {e: [] for e in entrants}
    for rnd in rounds:
        seen: set[str] = set()
        for pairing in rnd.pairings:
            for entrant, entry in _entries(rnd.number, pairing, kind, scoring, game_scoring):
                if entrant not in histories:
                    raise ResultError(f"round {rnd.number} names unknown entrant {entrant!r}")
                if entrant in seen:
                    raise ResultError(f"round {rnd.number} pairs {entrant!r} twice")
                seen.add(entrant)
                histories[entrant].append(entry)
        for entrant, entries in histories.items():
            if entrant not in seen:
                entries.append(
                    RoundEntry(rnd.number, EntryKind.ABSENT, None, None, 0.0, 0.0, 0.0, 0)
                )
    return histories


def _entries(
    number: int, pairing: Pairing, kind: MatchKind, scoring: Scoring, game_scoring: Scoring
) -> list[tuple[str, RoundEntry]]:
    if pairing.second is None:
        bye = bye_score(kind, game_scoring)
        return [(pairing.first, _entry(number, EntryKind.BYE, None, None, bye, scoring))]
    if pairing.result is None:
        absent = RoundEntry(number, EntryKind.ABSENT, None, None, 0.0, 0.0, 0.0, 0)
        return [(pairing.first, absent), (pairing.second, absent)]
    first, second = score_round(pairing.result, kind, game_scoring)
    entry_kind = EntryKind.GAME if first.played else EntryKind.FORFEIT
    colour = Colour.BLACK if first.played else None
    return [
        (
            pairing.first,
            _entry(number, entry_kind, pairing.second, colour, first, scoring),
        ),
        (
            pairing.second,
            _entry(
                number,
                entry_kind,
                pairing.first,
                colour.other if colour is not None else None,
                second,
                scoring,
            ),
        ),
    ]


def _entry(
    number: int,
    kind: EntryKind,
    opponent: str | None,
    colour: Colour | None,
    score: SideScore,
    scoring: Scoring,
) -> RoundEntry:
    return RoundEntry(
        number,
        kind,
        opponent,
        colour,
        score.fraction,
        scoring.points(score.fraction),
        score.game_points,
        score.wins,
    )


def totals(histories: History) -> dict[str, float]:
    """Every entrant's points."""
    return {e: sum(r.points for r in entries) for e, entries in histories.items()}
