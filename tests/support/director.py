"""Shared parts of the director tests: the 16-team final, a venue, signed confirmations,
host result events, and a deterministic referee that decides every game."""

from __future__ import annotations

import hashlib
import re
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from wuzi.bus import topics
from wuzi.bus.auth import sign
from wuzi.bus.schemas import (
    ArbiterCommand,
    Assignment,
    Cleared,
    CompetitionState,
    HostStatus,
    Message,
    TableEvent,
)
from wuzi.director.core import Change, CoreOptions, DirectorCore
from wuzi.director.schedule import PLACE_ROUND
from wuzi.sim.final.setup import HOSTS, REFEREE, TABLES_PER_HOST, create_event, demo_teams
from wuzi.sim.final.setup import write_venue_file as _write_venue_file
from wuzi.tournament.draw import DrawRecord
from wuzi.tournament.entrants import Player, Sex, Team
from wuzi.tournament.event import Competition, EventSettings, Format

TOKEN = "a-referee-token-of-enough-length-0123456789"
KEY = TOKEN.encode()
KEYS = {REFEREE: KEY}
TABLES = [(n, HOSTS[(n - 1) // TABLES_PER_HOST]) for n in range(1, 25)]
NOW = 1_700_000_000_000
"""The director's wall clock in the core's tests (ms)."""


def step(core: DirectorCore, change: Change) -> Change:
    """Commit ``change`` (as the service does once it is stored) and give it back."""
    core.commit(change)
    return change


@dataclass
class Hall:
    """What the hosts and the screens see on the bus: the retained assignments, the
    competition state and the hosts' statuses (subscribe it as a handler)."""

    assignments: dict[int, Assignment] = field(default_factory=dict)
    state: CompetitionState | None = None
    statuses: dict[str, HostStatus] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def __call__(self, topic: str, message: Message) -> None:
        where = topics.parse_topic(topic)
        with self.lock:
            if isinstance(message, Assignment):
                self.assignments[message.table] = message
            elif isinstance(message, Cleared) and where.table is not None:
                self.assignments.pop(where.table, None)
            elif isinstance(message, CompetitionState):
                self.state = message
            elif isinstance(message, HostStatus):
                self.statuses[message.host] = message

    def game(self, table: int) -> str | None:
        """The game id assigned to ``table`` now, or None."""
        with self.lock:
            a = self.assignments.get(table)
            return a.game_id if a is not None else None

    def current(self) -> dict[int, Assignment]:
        """A copy of the assignments by table."""
        with self.lock:
            return dict(self.assignments)


def final(teams: int = 16) -> Competition:
    """The team final as a value: teams T1 … T16 seeded in order."""
    comp = Competition(EventSettings.create(Format.TEAM_KNOCKOUT_PLACEMENT, name="决赛"))
    for i in range(1, teams + 1):
        players = (
            Player(f"T{i}-1", f"T{i} captain", Sex.MALE, 2100 - i),
            Player(f"T{i}-2", f"T{i} second", Sex.MALE, 2000 - i),
            Player(f"T{i}-3", f"T{i} third", Sex.FEMALE, 1900 - i),
        )
        comp = comp.add_team(Team(f"T{i}", f"Team {i}", players), seed=i)
    return comp


def make_core(
    comp: Competition,
    *,
    tables: Sequence[tuple[int, str]] = TABLES,
    draws: Sequence[DrawRecord] = (),
    **options: Any,
) -> DirectorCore:
    return DirectorCore(
        comp, tables, options=CoreOptions(**options), referee_keys=KEYS, draws=draws
    )


OPEN_2019_TIE = {("p1", "p2"): None, ("p1", "p3"): "p1", ("p1", "p4"): "p1",
                 ("p2", "p3"): "p2", ("p2", "p4"): "p2", ("p3", "p4"): "p3"}  # fmt: skip
"""A 2019 open group of four where p1 and p2 end level on everything (2½ points, the same
Sonneborn-Berger, two wins each, a drawn direct encounter): place 1 needs a playoff."""

OPEN_2019_THREE = {("p1", "p2"): None, ("p2", "p3"): None, ("p1", "p3"): None,
                   ("p1", "p4"): "p1", ("p2", "p4"): "p2", ("p3", "p4"): "p3"}  # fmt: skip
"""Three of four level on everything (2 points, SB 2, one win, drawn encounters)."""


def open_group_2019(players: int = 4) -> Competition:
    """The 2019 open's men's group as a round robin (002 六(二)): Chinese 2013 rules with
    designated openings, 60 minutes sudden death, players p1 … pN (p1 the top seed)."""
    comp = Competition(
        EventSettings.create(Format.ROUND_ROBIN, name="2019 全国五子棋公开赛 男子组")
    )
    for i in range(1, players + 1):
        comp = comp.add_player(Player(f"p{i}", f"选手{i}", Sex.MALE, 2000 - 10 * i), seed=i)
    return comp


def round_robin_winner(
    outcomes: dict[tuple[str, str], str | None], black: str, white: str
) -> str | None:
    """'first' (Black, the first seat) or 'second' for a game of ``outcomes`` (who wins each
    pair, None for a draw)."""
    won = outcomes[(black, white) if (black, white) in outcomes else (white, black)]
    return None if won is None else "first" if won == black else "second"


def winner_of(game_id: str, salt: str = "") -> str | None:
    """A deterministic result for a game: 'first', 'second' or None (a draw); draws are
    frequent, so team matches tie and captains' playoffs happen."""
    h = hashlib.sha256(f"{salt}{game_id}".encode()).digest()[0] % 8
    return "first" if h < 3 else "second" if h < 6 else None


def bus_result(winner: str | None) -> str:
    return {"first": "1-0", "second": "0-1", None: "1/2-1/2"}[winner]


def result_event(
    host: str, table: int, game_id: str, winner: str | None, *, reason: str = "five", seq: int = 9
) -> TableEvent:
    return TableEvent(
        event_id=f"{host}/t{table}/{game_id}/{seq}",
        table=table,
        game_id=game_id,
        seq=seq,
        kind="result",
        at_ms=1_700_000_000_000,
        data={
            "at_ns": 123,
            "winner": winner,
            "reason": reason if winner is not None else "agreement",
            "detail": "test",
        },
    )


def confirm(
    table: int,
    game_id: str,
    result: str,
    *,
    now_ms: int,
    command_id: str | None = None,
    key: bytes = KEY,
    referee: str = REFEREE,
    round: int | None = None,
) -> ArbiterCommand:
    """A signed confirm-result, bound to the game and its round (by default the round
    the game id names: ``[<event>-]r<round>-…``, or PLACE_ROUND for a place playoff
    ``[<event>-]pl…``)."""
    if round is None:  # an event's game ids start with the event's id: men-r2-m1-g1
        found = re.search(r"(?:^|-)(?:r(\d+)|pl\d+)-", game_id)
        assert found is not None, f"no round in game id {game_id!r}"
        round = PLACE_ROUND if found.group(1) is None else int(found.group(1))
    cmd = ArbiterCommand(
        command_id=command_id or f"confirm-{game_id}-{result.replace('/', '')}-{now_ms}",
        referee=referee,
        action="confirm-result",
        table=table,
        args={"game_id": game_id, "result": result},
        issued_ms=now_ms,
        game_id=game_id,
        round=round,
    )
    return sign(cmd, key)


def write_venue(folder: Path, venue_id: str, broker_url: str) -> Path:
    count = len(HOSTS) * TABLES_PER_HOST
    return _write_venue_file(
        folder,
        venue_id=venue_id,
        broker_url=broker_url,
        board_ports=[f"sim://board/{n + 1}" for n in range(count)],
        clock_ports=[f"sim://clock/{n + 1}" for n in range(count)],
        token=TOKEN,
    )


def write_event(db: Path, seed: int = 1) -> None:
    create_event(db, demo_teams(seed))
