"""Bench figures of the Gomoku bots (for ``wuzi bench``: ``run(emit, quick)``).

* ``bot.move_ms_mean`` / ``bot.move_ms_p50`` / ``bot.move_ms_p99`` — one ``next_action``
  of normal play from move 8 on (the middle game: patterns, the fours search, Black's
  forbidden checks), in ms, over whole chinese-2013 games between two bots through the
  rules engine; the window tables warm from one game first, as in a venue that has been
  playing a while.
* ``bot.move_ms_cold_mean`` — the same in the first game with the tables emptied.
* ``bot.five_share`` — the share of those games ended by a five (the rest: full board).

Not wired into ``wuzi bench`` by this module (the lead owns ``wuzi.sim.bench``); call
``run(wuzi.sim.bench.emit, quick=False)``.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable

from wuzi.rules.game import Game
from wuzi.rules.openings import make_procedure
from wuzi.sim.bots import bot
from wuzi.sim.bots import patterns as bot_patterns

Emit = Callable[[str, float, str], None]


def _game(seed: int) -> tuple[list[float], bool]:
    """Per-move times (ms, normal play from move 8) of one game, and whether a five ended it."""
    rng = random.Random(seed)
    game = Game("renju", mode="auto", opening=make_procedure("chinese-2013"))
    times: list[float] = []
    clock = time.perf_counter_ns
    while not game.is_over:
        middle = game.step is None and len(game.moves) >= 8
        started = clock()
        action = bot.next_action(game, rng)
        elapsed = (clock() - started) / 1e6
        if action is None:
            break
        if middle:
            times.append(elapsed)
        bot.apply_action(game, action)
    result = game.result
    return times, result is not None and result.reason.value == "five"


def run(emit: Emit, quick: bool) -> None:
    for table in bot_patterns._TABLES.values():
        table.clear()
    bot_patterns.VALUES.clear()
    cold, _ = _game(1)
    emit("bot.move_ms_cold_mean", statistics.fmean(cold), "ms")
    times: list[float] = []
    fives = 0
    games = 5 if quick else 60
    for seed in range(2, 2 + games):
        got, five = _game(seed)
        times += got
        fives += five
    times.sort()
    emit("bot.move_ms_mean", statistics.fmean(times), "ms")
    emit("bot.move_ms_p50", times[len(times) // 2], "ms")
    emit("bot.move_ms_p99", times[min(len(times) - 1, int(len(times) * 0.99))], "ms")
    emit("bot.five_share", fives / games, "of games")
