"""``wuzi bench tournament``: how fast the Swiss pairing and the standings are.

Figures (``emit(name, value, unit)``):

* ``tournament.swiss_pair_s_500`` — seconds to pair round 5 of a 500-player Swiss (after
  four rounds of seeded, rating-based random results with draws), ``pair_swiss_round``
  from the histories; the best of three runs. Target: under 1 s.
* ``tournament.standings_ms_500x9`` — milliseconds for the standings of 500 players after 9
  rounds with every tie-break in the order (histories built from the rounds, then sorted);
  the median of five runs. Target: under 100 ms.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable

from wuzi.tournament.history import Pairing, Round, build_histories, totals
from wuzi.tournament.ratings import expected_score
from wuzi.tournament.results import GameResult, MatchKind, RoundResult, Scoring
from wuzi.tournament.standings import compute_standings
from wuzi.tournament.swiss import SwissEntrant, pair_swiss_round, pairing_numbers
from wuzi.tournament.tiebreaks import Tiebreak

Emit = Callable[[str, float, str], None]
PLAYERS = 500


def _play(
    rng: random.Random, rnd: tuple[Pairing, ...], ratings: dict[str, int]
) -> tuple[Pairing, ...]:
    played = []
    for p in rnd:
        if p.second is None:
            played.append(p)
            continue
        roll = rng.random()
        expected = expected_score(ratings[p.first] + 35, ratings[p.second])
        if roll < 0.15:
            game = GameResult.DRAW
        elif roll < 0.15 + 0.85 * expected:
            game = GameResult.BLACK
        else:
            game = GameResult.WHITE
        played.append(Pairing(p.board, p.first, p.second, RoundResult((game,))))
    return tuple(played)


def _event(rounds: int, seed: int = 500) -> tuple[list[SwissEntrant], list[Round]]:
    rng = random.Random(seed)
    entrants = [SwissEntrant(f"P{i:03d}", rng.randint(1200, 2500), i) for i in range(PLAYERS - 1)]
    entrants.append(SwissEntrant("late", 1500, PLAYERS))  # an odd field: a bye every round
    ratings = {e.id: e.rating for e in entrants}
    numbers = pairing_numbers(entrants)
    ids = [e.id for e in entrants]
    played: list[Round] = []
    for number in range(1, rounds + 1):
        active = entrants if number > 1 else entrants[:-1]  # one late entry in round 2
        histories = build_histories(ids, played, MatchKind.SINGLE, Scoring(), Scoring())
        pairings = pair_swiss_round(number, active, histories, totals(histories), numbers=numbers)
        played.append(Round(number, _play(rng, pairings, ratings)))
    return entrants, played


def run(emit: Emit, quick: bool) -> None:
    entrants, played = _event(4)
    ids = [e.id for e in entrants]
    numbers = pairing_numbers(entrants)
    histories = build_histories(ids, played, MatchKind.SINGLE, Scoring(), Scoring())
    points = totals(histories)
    best = float("inf")
    for _ in range(1 if quick else 3):
        started = time.perf_counter()
        pair_swiss_round(5, entrants, histories, points, numbers=numbers)
        best = min(best, time.perf_counter() - started)
    emit("tournament.swiss_pair_s_500", best, "s")

    entrants, played = _event(9)
    order = tuple(Tiebreak)
    times = []
    for _ in range(1 if quick else 5):
        started = time.perf_counter()
        histories = build_histories(ids, played, MatchKind.SINGLE, Scoring(), Scoring())
        compute_standings(histories, order, prize_places=12, display_order=numbers)
        times.append((time.perf_counter() - started) * 1000)
    emit("tournament.standings_ms_500x9", statistics.median(times), "ms")
