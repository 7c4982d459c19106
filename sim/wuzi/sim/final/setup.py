"""The demo venue's files: the venue file, the referee's token and the event's database.

What an organiser would prepare before a real final, generated for the simulated one: 24
tables on four hosts (six tables each, as four Raspberry Pis would serve them), the
director, one referee, and the 16 teams of the national team championship's final with
their three boards (board 1 the captain, board 3 a woman). The event is created through
the organisers' own command (``wuzi tournament new`` / ``add-team``), so the demo runs
exactly what an organiser types.

Pure apart from writing the files it is asked to write; the team names and players are
fixed, the seeding follows ``seed`` so different seeds give different finals.
"""

from __future__ import annotations

import contextlib
import io
import random
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from wuzi.sim.venue_file import table_toml
from wuzi.tournament import cli as tournament_cli

__all__ = [
    "DIRECTOR_ID",
    "HOSTS",
    "REFEREE",
    "TABLES_PER_HOST",
    "TEAMS",
    "DemoTeam",
    "create_event",
    "demo_teams",
    "write_venue_file",
]

DIRECTOR_ID = "director"
REFEREE = "chief-arbiter"
HOSTS = ("pi-1", "pi-2", "pi-3", "pi-4")
TABLES_PER_HOST = 6

TEAMS = (
    "上海", "北京", "浙江", "江苏", "广东", "四川", "湖北", "山东",
    "天津", "福建", "河南", "湖南", "辽宁", "安徽", "重庆", "陕西",
)  # fmt: skip
_SURNAMES = "王李张刘陈杨黄赵吴周徐孙马朱胡郭何林罗高"
_MEN = ("伟", "强", "磊", "军", "勇", "杰", "涛", "斌", "超", "明", "鹏", "辉")
_WOMEN = ("芳", "娜", "敏", "静", "丽", "艳", "婷", "雪", "琳", "洁", "颖", "倩")


@dataclass(frozen=True)
class DemoTeam:
    name: str
    seed: int
    boards: tuple[tuple[str, str, int], ...]  # (name, sex, rating), board 1 first


def demo_teams(seed: int) -> list[DemoTeam]:
    """The 16 teams, seeded in an order drawn from ``seed``; names unique."""
    rng = random.Random(f"wuzi-demo-teams-{seed}")
    order = list(TEAMS)
    rng.shuffle(order)
    used: set[str] = set()
    teams = []
    for rank, team in enumerate(order, 1):
        boards = []
        for board, sex in ((1, "m"), (2, "m"), (3, "f")):
            while True:
                given = rng.choice(_WOMEN if sex == "f" else _MEN)
                name = rng.choice(_SURNAMES) + given + (rng.choice(_MEN) if board == 2 else "")
                if name not in used:
                    used.add(name)
                    break
            rating = 2300 - rank * 25 - board * 40 + rng.randrange(40)
            boards.append((name, sex, rating))
        teams.append(DemoTeam(team, rank, tuple(boards)))
    return teams


def write_venue_file(
    folder: Path,
    *,
    venue_id: str,
    broker_url: str,
    board_ports: Sequence[str],
    clock_ports: Sequence[str],
    token: str,
    delay_minutes: float = 0,
) -> Path:
    """Write ``folder/venue.toml`` and the referee's token; returns the venue file.

    Every process reads this one file — ``wuzi broadcast`` and ``wuzi web`` too, with its
    ``[broadcast] delay_minutes`` (0 in the demo: the public feed at once); a host that
    reaches the broker through the demo's fault proxy is started with ``wuzi host
    --broker URL``, so the file stays what an organiser would write."""
    if len(board_ports) != len(HOSTS) * TABLES_PER_HOST or len(clock_ports) != len(board_ports):
        raise ValueError(f"the demo venue has {len(HOSTS) * TABLES_PER_HOST} tables")
    folder.mkdir(parents=True, exist_ok=True)
    token_file = folder / "referee.token"
    token_file.write_text(token + "\n")
    token_file.chmod(0o600)
    lines = [
        "# The simulated final's venue (written by `wuzi demo`; docs/config.md).",
        "[venue]",
        f'id = "{venue_id}"',
        'name = "全国五子棋团体锦标赛 决赛 National Team Championship Final"',
        "[broker]",
        f'url = "{broker_url}"',
        "[director]",
        f'id = "{DIRECTOR_ID}"',
    ]
    number = 0
    for host in HOSTS:
        lines += ["[[hosts]]", f'id = "{host}"']
        for _ in range(TABLES_PER_HOST):
            board, clock = board_ports[number], clock_ports[number]
            number += 1
            lines += table_toml(number, board, clock)
    lines += [
        "[[referees]]",
        f'name = "{REFEREE}"',
        'token_file = "referee.token"',
        "[broadcast]",
        f"delay_minutes = {delay_minutes:g}",
    ]
    path = folder / "venue.toml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def create_event(db: Path, teams: Sequence[DemoTeam]) -> None:
    """Create the final's event with the organisers' command; ValueError if it refuses."""

    def run(*args: str) -> None:
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = tournament_cli.main(["--db", str(db), *args])
        if code != 0:
            raise ValueError(f"wuzi tournament {args[0]} failed: {err.getvalue().strip()}")

    run("new", "--format", "team-knockout-placement", "--name", "全国五子棋团体锦标赛 决赛")
    for team in teams:
        players = [f"--player={n},{s},{r}" for n, s, r in team.boards]
        run("add-team", team.name, *players, "--seed", str(team.seed), "--club", team.name)
