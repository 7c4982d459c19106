"""What a finished hall must show, checked from its output folder alone.

Each event as the team final is checked (``wuzi.sim.final.check.check_run`` on
``DIR/<event>``, with the event's own database and number of places): every record equals
the bots' moves, every result is in that event's database exactly once, no clock was
charged for an outage, every place is given once. And each event's games were judged by
its own rules (``summary``): every record names its event's rule set; in a renju group no
forbidden move stood (White claims every one, and the game is White's); in a group
without forbidden moves no game was lost by one, and every round is two games at one
table (game 2 missing only when game 1's flag decided the round, 002 六(三)2).

Pure reading: ``check_hall`` returns the problems, an empty list when all holds.
"""

from __future__ import annotations

from pathlib import Path

from wuzi.sim.final.check import check_run
from wuzi.sim.hall.setup import HallPlan
from wuzi.sim.hall.summary import (
    forbidden_losses,
    forbidden_shapes_played_on,
    load_records,
    two_game_rounds,
)

__all__ = ["HALL_NAMES", "check_hall"]

HALL_NAMES = ("event", "round", "match", "start_time")
"""What every record of an individual event must name besides its players (no board)."""


def check_hall(out: Path, plan: HallPlan, databases: dict[str, Path]) -> list[str]:
    """Every problem with the finished hall in ``out`` (``wuzi demo --hall --out``)."""
    problems: list[str] = []
    for event in plan.events:
        folder = out / event.id
        found = check_run(folder, db=databases[event.id], places=event.players, names=HALL_NAMES)
        problems += [f"{event.id}: {p}" for p in found]
        records = load_records(folder / "games")
        renju = event.group != "open"
        for game_id, record in sorted(records.items()):
            ruleset = str(record.get("ruleset", ""))
            if (ruleset == "renju") != renju:
                problems.append(f"{event.id}: {game_id} was played under {ruleset!r}")
        if renju:
            problems += [
                f"{event.id}: a forbidden move stood: {what}"
                for what in forbidden_shapes_played_on(records)
            ]
            continue
        problems += [
            f"{event.id}: {game_id} was lost by a forbidden move in a group without them"
            for game_id in forbidden_losses(records)
        ]
        for (round_, match), numbers in two_game_rounds(records).items():
            if numbers not in ([1, 2], [1]) or (
                numbers == [1] and not _flag_decided(records, round_, match)
            ):
                problems.append(
                    f"{event.id}: round {round_} match {match} has games {numbers}, not "
                    "the two games of a two-game round"
                )
    return problems


def _flag_decided(records: dict[str, dict[str, object]], round_: str, match: int) -> bool:
    """Game 1 of the round ended on a flag (the round is lost with it: no game 2)."""
    for record in records.values():
        if str(record.get("round", "")) == round_ and record.get("match") == match:
            termination = record.get("termination")
            if isinstance(termination, dict) and "flag" in str(termination.get("reason", "")):
                return True
    return False
