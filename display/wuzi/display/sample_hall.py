"""A built-in sample hall of several events: the 2019 open's three groups at once.

`sample_hall_messages` gives the retained bus messages of one hall playing the men's
(男子组), women's (女子组) and open (公开组) groups of the 2019 open side by side, each with
its own director publishing on ``competition/<event>/state``: Swiss rounds of individual
players, round 5 of 7 in play. Tables are venue-wide and each table's state and assignment
carry their event's id (``event_id``); the men hold tables 1-8, the women 9-12, the open
group 13-20 (two-game rounds). One table of each group is finished, one is in its last
minute. Deterministic, like `wuzi.display.sample`, so tests can look at its pixels.

``wuzi scoreboard --sample hall`` shows it; the screens' tests render it
(docs/scoreboard-hall-3-events.png).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from wuzi.bus import topics
from wuzi.bus.schemas import (
    Assignment,
    CompetitionState,
    HostStatus,
    MatchSummary,
    Message,
    StandingLine,
    TableState,
)
from wuzi.display.sample import _GIVEN, _SURNAMES, BASE_MS, _game

__all__ = ["HALL_EVENTS", "HALL_VENUE", "HallEvent", "sample_hall_messages"]

HALL_VENUE = "open-2019"


@dataclass(frozen=True)
class HallEvent:
    """One group of the sample hall: its id (the venue file's ``[[events]] id``), its name,
    its first table and how many players it has (two a table)."""

    id: str
    name: str
    first_table: int
    players: int
    rule_set: str
    opening: str


HALL_EVENTS = (
    HallEvent("men", "男子组 Men's group", 1, 16, "renju", "designated-26"),
    HallEvent("women", "女子组 Women's group", 9, 8, "renju", "designated-26"),
    HallEvent("open", "公开组 Open group", 13, 16, "freestyle", "free"),
)
ROUND, ROUNDS = 5, 7
TIEBREAKS = ("buchholz", "sonneborn_berger")
FORMULAS = (
    "buchholz: sum of the points of every opponent",
    "sonneborn_berger: the points of the opponents beaten, half those drawn",
)


def _names(rng: random.Random, count: int, used: set[str]) -> list[str]:
    names: list[str] = []
    while len(names) < count:
        name = rng.choice(_SURNAMES) + rng.choice(_GIVEN)
        if name not in used:
            used.add(name)
            names.append(name)
    return names


def _standings(rng: random.Random, players: list[str]) -> tuple[StandingLine, ...]:
    """Four rounds played: points 0-4 in halves, tie-breaks to order the ties."""
    scored = []
    for name in players:
        points = rng.choice((0.0, 1.0, 1.5, 2.0, 2.0, 2.5, 3.0, 3.0, 3.5, 4.0))
        buchholz = float(rng.randint(6, 12)) + (0.5 if rng.random() < 0.3 else 0.0)
        sb = round(points * rng.uniform(1.5, 3.0) * 2) / 2
        scored.append((points, buchholz, sb, name))
    scored.sort(key=lambda s: (-s[0], -s[1], -s[2], s[3]))
    lines = []
    for index, (points, bh, sb, name) in enumerate(scored):
        tied = [i for i, other in enumerate(scored) if other[:3] == (points, bh, sb)]
        lines.append(StandingLine(tied[0] + 1, tied[-1] + 1, name, points, (bh, sb)))
        del index
    return tuple(lines)


def _event_messages(
    rng: random.Random, event: HallEvent, used: set[str]
) -> tuple[list[tuple[str, Message]], CompetitionState]:
    venue = HALL_VENUE
    players = _names(rng, event.players, used)
    standings = _standings(rng, players)
    order = [line.entrant for line in standings]  # pair top down, as a Swiss round would
    messages: list[tuple[str, Message]] = []
    matches: list[MatchSummary] = []
    for index in range(event.players // 2):
        table = event.first_table + index
        black, white = order[2 * index], order[2 * index + 1]
        if index % 2:
            black, white = white, black
        count = rng.randint(8, 44)
        status, result = "playing", None
        running: str | None = "black" if count % 2 == 0 else "white"
        black_ms = rng.randint(600_000, 3_300_000)
        white_ms = rng.randint(600_000, 3_300_000)
        if index == 2:
            status, result, running = "finished", "1-0" if count % 2 else "0-1", None
        elif index == 1:
            running, count = "black", 30
            black_ms = 41_000
        game_in_match = 1 if event.id != "open" else 1 + index % 2
        game_id = f"{event.id}-r{ROUND}-t{table}-g{game_in_match}"
        assignment = Assignment(
            table=table,
            game_id=game_id,
            black=black,
            white=white,
            rule_set=event.rule_set,
            opening=event.opening,
            opening_settings={},
            time_control="3600",
            board=None,
            game_in_match=game_in_match,
            playoff=False,
            issued_ms=BASE_MS,
            event=event.name,
            round=ROUND,
            match=index + 1,
            event_id=event.id,
        )
        state = TableState(
            table=table,
            game_id=game_id,
            seq=count + 3,
            status=status,
            moves=_game(rng, count),
            black_ms=black_ms,
            white_ms=white_ms,
            running=running,
            result=result,
            at_ms=BASE_MS + rng.randint(0, 30_000),
            black=black,
            white=white,
            game_in_match=game_in_match,
            event_id=event.id,
        )
        messages.append((topics.assignment(venue, table), assignment))
        messages.append((topics.table_state(venue, table), state))
        score = (0.0, 0.0)
        if result is not None:
            score = (1.0, 0.0) if result == "1-0" else (0.0, 1.0)
        matches.append(
            MatchSummary(
                label=f"第{index + 1}台 board {index + 1}",
                first=black,
                second=white,
                first_score=score[0],
                second_score=score[1],
                tables=(table,),
                status="finished" if result is not None else "playing",
                winner=None if result is None else (black if result == "1-0" else white),
            )
        )
    competition = CompetitionState(
        event=event.name,
        format="swiss",
        round=ROUND,
        rounds=ROUNDS,
        matches=tuple(matches),
        standings=standings,
        tiebreak_names=TIEBREAKS,
        tiebreak_formulas=FORMULAS,
        bracket=(),
        finished=False,
        at_ms=BASE_MS + 30_000,
        event_id=event.id,
    )
    return messages, competition


def sample_hall_messages() -> list[tuple[str, Message]]:
    """The sample hall's retained messages, in the order a screen would receive them."""
    rng = random.Random(20190501)
    venue = HALL_VENUE
    messages: list[tuple[str, Message]] = []
    for number, (low, high) in enumerate(((1, 8), (9, 14), (15, 20)), start=1):
        status = HostStatus(
            f"pi-{number}", True, tuple(range(low, high + 1)), f"boot-pi-{number}", BASE_MS, ()
        )
        messages.append((topics.host_status(venue, status.host), status))
    used: set[str] = set()
    for event in HALL_EVENTS:
        tables, competition = _event_messages(rng, event, used)
        messages += tables
        messages.append((topics.competition_state(venue, event.id), competition))
    return messages
