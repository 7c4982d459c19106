"""The hall demo's files: a venue file with three ``[[events]]`` and their databases.

The 2019 national open (002 三(二), 四, 六(一), 六(三); /work/shared/EVENTS.md B) plays its
men's, women's and open groups at once in one hall. ``OPEN_2019`` is that hall made small
enough to play to its end in a few minutes of simulated time on one machine:

* **men** (男子组): 8 players, a 3-round Swiss on tables 1-4 — the smallest field whose
  Swiss needs no bye and whose rounds fill four tables; renju, designated openings
  (``wuzi tournament new --group men``);
* **women** (女子组): 6 players, a 3-round Swiss on tables 5-7, the same rules
  (``--group women``);
* **open** (公开组): 4 players, a 2-round Swiss on tables 8-9 of two-game rounds, free
  opening, no forbidden moves (``--group open``): each round is two games in a row at the
  same table, so fewer players and rounds keep the open group's end near the others'.

Three hosts serve the nine tables, as the hall's Pis are laid out, not by event: ``pi-2``
serves a men's table and the women's, ``pi-3`` a women's table and the open group's, so one
host judges a renju game and a free, no-forbidden one at once. Each event's director names
its games under its event's id (``men-r1-m1-g1``), so a game id names one game in the hall
(a host keeps a finished game's record under it). Every event is created with the organisers' own
command (``wuzi tournament new --group …``, ``add-player``), as ``final.setup`` does for
the team final.

Pure apart from writing the files it is asked to write; the players are drawn from
``seed``.
"""

from __future__ import annotations

import contextlib
import io
import random
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from wuzi.sim.final.setup import REFEREE
from wuzi.sim.venue_file import table_toml
from wuzi.tournament import cli as tournament_cli

__all__ = [
    "HALLS",
    "OPEN_2019",
    "HallEvent",
    "HallPlan",
    "create_hall_event",
    "hall_players",
    "write_hall_venue",
]


@dataclass(frozen=True)
class HallEvent:
    """One event of the hall: its venue file entry and its competition."""

    id: str
    name: str
    group: str  # wuzi tournament new --group
    tables: tuple[int, ...]
    players: int
    rounds: int
    sexes: str  # the players' sexes to draw from: "m", "f" or "mf"

    @property
    def tables_text(self) -> str:
        return f"{self.tables[0]}-{self.tables[-1]}"


@dataclass(frozen=True)
class HallPlan:
    """A hall: its events and which host serves which tables."""

    name: str
    title: str
    events: tuple[HallEvent, ...]
    hosts: tuple[tuple[str, tuple[int, ...]], ...]

    @property
    def tables(self) -> tuple[int, ...]:
        return tuple(sorted(n for _, numbers in self.hosts for n in numbers))

    def event_of(self, table: int) -> HallEvent:
        for event in self.events:
            if table in event.tables:
                return event
        raise KeyError(f"table {table} belongs to no event of {self.name}")

    def host_of(self, table: int) -> str:
        for host, numbers in self.hosts:
            if table in numbers:
                return host
        raise KeyError(f"table {table} is served by no host of {self.name}")


OPEN_2019 = HallPlan(
    name="open-2019",
    title="2019年全国五子棋公开赛 National Open 2019",
    events=(
        HallEvent("men", "男子组", "men", (1, 2, 3, 4), 8, 3, "m"),
        HallEvent("women", "女子组", "women", (5, 6, 7), 6, 3, "f"),
        HallEvent("open", "公开组", "open", (8, 9), 4, 2, "mf"),
    ),
    hosts=(("pi-1", (1, 2, 3)), ("pi-2", (4, 5, 6)), ("pi-3", (7, 8, 9))),
)
HALLS = {OPEN_2019.name: OPEN_2019}

_SURNAMES = "王李张刘陈杨黄赵吴周徐孙马朱胡郭何林罗高"
_MEN = ("伟", "强", "磊", "军", "勇", "杰", "涛", "斌", "超", "明", "鹏", "辉")
_WOMEN = ("芳", "娜", "敏", "静", "丽", "艳", "婷", "雪", "琳", "洁", "颖", "倩")
_CLUBS = ("上海", "北京", "浙江", "江苏", "广东", "四川", "湖北", "山东")


@dataclass(frozen=True)
class HallPlayer:
    name: str
    sex: str
    rating: int
    club: str


def hall_players(plan: HallPlan, seed: int) -> dict[str, list[HallPlayer]]:
    """Each event's players, drawn from ``seed``; names unique across the hall (the
    screens show them side by side)."""
    rng = random.Random(f"wuzi-demo-hall-{plan.name}-{seed}")
    used: set[str] = set()
    out: dict[str, list[HallPlayer]] = {}
    for event in plan.events:
        players = []
        for rank in range(event.players):
            sex = rng.choice(event.sexes)
            while True:
                given = rng.choice(_WOMEN if sex == "f" else _MEN)
                name = rng.choice(_SURNAMES) + given + rng.choice(_WOMEN if sex == "f" else _MEN)
                if name not in used:
                    used.add(name)
                    break
            rating = 2200 - rank * 40 + rng.randrange(40)
            players.append(HallPlayer(name, sex, rating, rng.choice(_CLUBS)))
        out[event.id] = players
    return out


def write_hall_venue(
    folder: Path,
    plan: HallPlan,
    *,
    venue_id: str,
    broker_url: str,
    board_ports: Sequence[str],
    clock_ports: Sequence[str],
    token: str,
    databases: dict[str, Path],
) -> Path:
    """Write ``folder/venue.toml`` (three ``[[events]]``, each its database and tables)
    and the referee's token; ``board_ports[i]`` / ``clock_ports[i]`` serve table i + 1.
    The events' rules come from their databases (``new --group``), which the directors
    put in every assignment; the events' ``[[events]]`` defaults say the same for a
    table set up from the venue file."""
    if len(board_ports) != len(plan.tables) or len(clock_ports) != len(board_ports):
        raise ValueError(f"the hall {plan.name} has {len(plan.tables)} tables")
    folder.mkdir(parents=True, exist_ok=True)
    token_file = folder / "referee.token"
    token_file.write_text(token + "\n")
    token_file.chmod(0o600)
    lines = [
        "# The simulated hall's venue (written by `wuzi demo --hall`; docs/config.md).",
        "[venue]",
        f'id = "{venue_id}"',
        f'name = "{plan.title}"',
        "[broker]",
        f'url = "{broker_url}"',
    ]
    for host, numbers in plan.hosts:
        lines += ["[[hosts]]", f'id = "{host}"']
        for number in numbers:
            lines += table_toml(number, board_ports[number - 1], clock_ports[number - 1])
    for event in plan.events:
        renju = event.group != "open"
        lines += [
            "[[events]]",
            f'id = "{event.id}"',
            f'name = "{event.name}"',
            f'database = "{databases[event.id]}"',
            f'tables = "{event.tables_text}"',
            f'ruleset = "{"renju" if renju else "no-forbidden"}"',
            f'opening = "{"chinese-2013" if renju else "free"}"',
            'time_control = "3600"',
        ]
    lines += [
        "[[referees]]",
        f'name = "{REFEREE}"',
        'token_file = "referee.token"',
        "[broadcast]",
        "delay_minutes = 0",
    ]
    path = folder / "venue.toml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def create_hall_event(db: Path, event: HallEvent, players: Sequence[HallPlayer]) -> None:
    """Create one event's database with the organisers' command; ValueError if it
    refuses (its message)."""

    def run(*args: str) -> None:
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = tournament_cli.main(["--db", str(db), *args])
        if code != 0:
            raise ValueError(f"wuzi tournament {args[0]} failed: {err.getvalue().strip()}")

    run("new", "--format", "swiss", "--group", event.group, "--rounds", str(event.rounds),
        "--name", event.name)  # fmt: skip
    for player in players:
        run("add-player", player.name, "--sex", player.sex, "--rating", str(player.rating),
            "--club", player.club)  # fmt: skip
