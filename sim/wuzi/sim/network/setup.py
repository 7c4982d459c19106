"""The network final's files: sixteen halls' venue files and the organisers' (pure but for
the files it is asked to write).

The 2021 championship's final gathers **each team at its own venue** (000 七(四)): hall
``final-2021-NN`` is team NN's, with one host ``pi-NN`` serving its three boards, the
event's tables ``3·NN-2 … 3·NN`` (board 1 first). The organisers' venue
(``final-2021``) is the director's; its broker is the central broker every hall bridges
to, and its file names the halls (``[[halls]]``: docs/linked.md "The network final").
"""

from __future__ import annotations

from pathlib import Path

from wuzi.sim.final.setup import DemoTeam
from wuzi.sim.venue_file import table_toml

__all__ = [
    "BOARDS",
    "EVENT_VENUE",
    "REFEREE",
    "hall_host",
    "hall_tables",
    "hall_venue",
    "write_hall",
    "write_organisers",
]

EVENT_VENUE = "final-2021"
BOARDS = 3
REFEREE = "chief"


def hall_venue(n: int) -> str:
    return f"{EVENT_VENUE}-{n:02d}"


def hall_host(n: int) -> str:
    return f"pi-{n:02d}"


def hall_tables(n: int) -> tuple[int, ...]:
    return tuple(range(BOARDS * (n - 1) + 1, BOARDS * n + 1))


def write_hall(
    path: Path,
    n: int,
    team: DemoTeam,
    broker_url: str,
    ports: list[tuple[str, str]],
    token_file: Path,
) -> Path:
    """Hall ``n``'s venue file: its broker, its host and three tables on ``ports``, the
    chief referee (who resumes a game after a cut line), the rules its games are played
    by when a host starts one itself (never here: the director assigns them)."""
    lines = [
        "[venue]",
        f'id = "{hall_venue(n)}"',
        f'name = "{team.name}队赛场 Hall of {team.name}"',
        "[broker]",
        f'url = "{broker_url}"',
        "[[hosts]]",
        f'id = "{hall_host(n)}"',
    ]
    for number, (board, clock) in zip(hall_tables(n), ports, strict=True):
        lines += table_toml(number, board, clock)
    lines += [
        "[[referees]]",
        f'name = "{REFEREE}"',
        f'token_file = "{token_file}"',
        "[defaults]",
        'ruleset = "renju"',
        'opening = "free"',
        'time_control = "team-final"',
    ]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def write_organisers(
    path: Path, central_url: str, teams: list[DemoTeam], database: Path, token_file: Path
) -> Path:
    """The organisers' venue file: the central broker, the director and its database, the
    chief referee, and ``[[halls]]`` — each team's hall, host and tables."""
    lines = [
        "[venue]",
        f'id = "{EVENT_VENUE}"',
        'name = "2021全国五子棋团体锦标赛 决赛 (network final)"',
        "[broker]",
        f'url = "{central_url}"',
        "[director]",
        'id = "director"',
        f'database = "{database}"',
        "[[referees]]",
        f'name = "{REFEREE}"',
        f'token_file = "{token_file}"',
    ]
    for n, team in enumerate(teams, 1):
        first, last = hall_tables(n)[0], hall_tables(n)[-1]
        lines += [
            "[[halls]]",
            f'venue = "{hall_venue(n)}"',
            f'team = "{team.name}"',
            f'host = "{hall_host(n)}"',
            f'tables = "{first}-{last}"',
        ]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path
