"""Elo-style ratings for rated events (the team final is rated: 等级分).

For a game between A (rating ``R_A``) and B, A's expected score is
``E_A = 1 / (1 + 10^((R_B − R_A) / 400))``; after the event A's rating becomes
``R_A + K · Σ (S − E)`` over A's rated games, ``S`` being 1, ½ or 0. Every game of the event
uses the ratings from before it (changes are summed, not applied game by game), and the new
rating is rounded to the nearest integer (halves away from zero).

``K = 20`` by default (the event setting ``--k``). Only games played over the board are
rated: byes, forfeits and playoff games (captains' and place playoffs, at faster time
controls) are not. In a team match every board is a rated game between the two players.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from wuzi.tournament.errors import SettingsError

DEFAULT_K = 20.0


@dataclass(frozen=True)
class RatedGame:
    black: str
    white: str
    black_score: float  # 1, ½ or 0


def expected_score(rating: float, opponent: float) -> float:
    """A player's expected score against ``opponent``."""
    return 1.0 / (1.0 + math.pow(10.0, (opponent - rating) / 400.0))


def rating_changes(
    ratings: Mapping[str, float], games: Iterable[RatedGame], k: float = DEFAULT_K
) -> dict[str, float]:
    """Each player's unrounded change, ``K · Σ (S − E)``."""
    if not 0 < k <= 100:
        raise SettingsError(f"the K-factor must be above 0 and at most 100, not {k}")
    changes = dict.fromkeys(ratings, 0.0)
    for game in games:
        for who in (game.black, game.white):
            if who not in ratings:
                raise SettingsError(f"player {who!r} of a rated game has no rating")
        if game.black_score not in (0.0, 0.5, 1.0):
            raise SettingsError(f"a game scores 1, 0.5 or 0, not {game.black_score}")
        expected = expected_score(ratings[game.black], ratings[game.white])
        changes[game.black] += k * (game.black_score - expected)
        changes[game.white] += k * ((1.0 - game.black_score) - (1.0 - expected))
    return changes


def _round_half_away(value: float) -> int:
    return math.floor(abs(value) + 0.5) * (1 if value >= 0 else -1)


def updated_ratings(
    ratings: Mapping[str, float], games: Iterable[RatedGame], k: float = DEFAULT_K
) -> dict[str, int]:
    """Every player's rating after the event."""
    changes = rating_changes(ratings, games, k)
    return {who: _round_half_away(ratings[who] + changes[who]) for who in ratings}
