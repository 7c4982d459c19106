"""A built-in sample venue, and the saved-state file format that ``--state`` replays.

**Saved state** (``--state FILE.json``): the retained bus messages of a venue, as a JSON
list of ``{"topic": "wuzi/v1/<venue>/…", "payload": {…}}`` objects, oldest first. Each
payload is exactly the message's JSON object on the bus (with its ``"v"``); ``null``
stands for an empty (cleared) retained message. `parse_state_json` checks every entry
with `wuzi.bus.schemas.parse_message` and names the first bad one; `state_json` writes
the format. Replaying them in order into a fresh `VenueModel` gives the screen the venue
as it was (all received "now": running clocks show their saved readings).

**The sample** (`sample_messages`): the last round of a 16-team placement knockout, eight
team matches of three boards on 24 tables, every table in play with Chinese team and
player names; one table finished, one paused, one in its last ten seconds, one with its
board link down and one whose host has gone offline (both show the stale badge). The
bracket has every place (1-16 down to 15-16) and the standings have tie-break columns.
Deterministic: the same every time, so tests can check pixels against it.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from wuzi.base.files import STATE_FILE, FileError, read_text
from wuzi.bus import topics
from wuzi.bus.schemas import (
    BracketMatch,
    CompetitionState,
    HostStatus,
    MatchSummary,
    Message,
    MessageError,
    StandingLine,
    TableState,
    encode,
    parse_message,
)
from wuzi.rules.board import SIZE

__all__ = [
    "BASE_MS",
    "SAMPLE_VENUE",
    "StateFileError",
    "load_state_file",
    "parse_state_json",
    "sample_messages",
    "sample_state_json",
    "state_json",
]

SAMPLE_VENUE = "sample-hall"
BASE_MS = 1_767_225_600_000  # 2026-01-01 00:00 UTC: the sample's host time stamps

TEAMS = (
    "上海",
    "北京",
    "浙江",
    "江苏",
    "广东",
    "四川",
    "湖北",
    "天津",
    "山东",
    "福建",
    "河南",
    "辽宁",
    "安徽",
    "湖南",
    "重庆",
    "黑龙江",
)
_SURNAMES = "王李张刘陈杨黄赵吴周徐孙马朱胡郭何林罗高郑梁谢宋唐许韩冯邓曹彭曾肖田董潘袁蔡蒋余"
_GIVEN = (
    "伟",
    "芳",
    "娜",
    "敏",
    "静",
    "强",
    "磊",
    "洋",
    "艳",
    "勇",
    "杰",
    "涛",
    "明",
    "超",
    "秀英",
    "霞",
    "志远",
    "子涵",
    "浩然",
    "雨桐",
    "思远",
    "一鸣",
    "晓东",
    "欣怡",
)
BOARDS = 3


class StateFileError(ValueError):
    """A saved-state file that cannot be replayed; names the entry and what is wrong."""


def _players(rng: random.Random) -> dict[str, list[str]]:
    used: set[str] = set()
    roster: dict[str, list[str]] = {}
    for team in TEAMS:
        names: list[str] = []
        while len(names) < BOARDS:
            name = rng.choice(_SURNAMES) + rng.choice(_GIVEN)
            if name not in used:
                used.add(name)
                names.append(name)
        roster[team] = names
    return roster


def _game(rng: random.Random, count: int) -> tuple[int, ...]:
    """``count`` distinct points grown around the centre, as a game would be."""
    moves: list[int] = [7 * SIZE + 7]
    taken = set(moves)
    while len(moves) < count:
        anchor = moves[rng.randrange(max(0, len(moves) - 6), len(moves))]
        x, y = anchor % SIZE + rng.randint(-2, 2), anchor // SIZE + rng.randint(-2, 2)
        if 0 <= x < SIZE and 0 <= y < SIZE and y * SIZE + x not in taken:
            taken.add(y * SIZE + x)
            moves.append(y * SIZE + x)
    return tuple(moves)


def _team_result(rng: random.Random, favourite_first: bool) -> tuple[float, float]:
    options = [(2.0, 1.0), (2.5, 0.5), (3.0, 0.0), (1.5, 1.5)]
    first, second = rng.choice(options[:3])
    if not favourite_first:
        first, second = second, first
    return first, second


def _bracket(rng: random.Random) -> tuple[list[BracketMatch], list[tuple[str, str]]]:
    """Rounds 1-3 of the placement knockout played, and round 4's eight pairings."""
    bracket: list[BracketMatch] = []
    # groups: (first place, entrants in seed order)
    groups: list[tuple[int, list[str]]] = [(1, list(TEAMS))]
    for number in (1, 2, 3):
        next_groups: list[tuple[int, list[str]]] = []
        for low, group in groups:
            size = len(group)
            winners, losers = [], []
            for i in range(size // 2):
                first, second = group[i], group[size - 1 - i]
                a, b = _team_result(rng, rng.random() < 0.75)
                if a == b:
                    a, b = a + 0.5, b - 0.5
                winner = first if a > b else second
                winners.append(winner)
                losers.append(second if winner == first else first)
                bracket.append(
                    BracketMatch(
                        round=number,
                        places=f"{low}-{low + size - 1}",
                        first=first,
                        second=second,
                        first_score=a,
                        second_score=b,
                        winner=winner,
                    )
                )
            next_groups += [(low, winners), (low + size // 2, losers)]
        groups = next_groups
    finals = [(group[0], group[1]) for _low, group in groups]
    return bracket, finals


def sample_messages() -> list[tuple[str, Message]]:
    """The sample venue's retained messages, in the order a screen would receive them."""
    rng = random.Random(20260101)
    roster = _players(rng)
    bracket, finals = _bracket(rng)
    venue = SAMPLE_VENUE
    messages: list[tuple[str, Message]] = []
    hosts = {"pi-1": (1, 5), "pi-2": (6, 10), "pi-3": (11, 15), "pi-4": (16, 20), "pi-5": (21, 23)}
    for host, (lo, hi) in hosts.items():
        down = (7,) if lo <= 7 <= hi else ()
        alive = HostStatus(host, True, tuple(range(lo, hi + 1)), f"boot-{host}", BASE_MS, down)
        messages.append((topics.host_status(venue, host), alive))
    will = HostStatus("pi-6", False, (24,), "boot-pi-6", BASE_MS - 60_000, ())
    messages.append((topics.host_status(venue, "pi-6"), will))

    matches: list[MatchSummary] = []
    states: list[TableState] = []
    for index, (first, second) in enumerate(finals):
        low = 2 * index + 1
        scores = [0.0, 0.0]
        tables = tuple(range(3 * index + 1, 3 * index + 4))
        for board, table in enumerate(tables, start=1):
            home, away = roster[first][board - 1], roster[second][board - 1]
            black, white = (home, away) if board % 2 == 1 else (away, home)
            count = rng.randint(6, 48)
            status = "playing"
            result: str | None = None
            running: str | None = "black" if count % 2 == 0 else "white"
            black_ms = rng.randint(120_000, 1_700_000)
            white_ms = rng.randint(120_000, 1_700_000)
            if table == 5:
                status, result, running = "finished", "1-0", None
            elif table == 18:
                status, result, running = "finished", "0-1", None
            elif table == 9:
                status, running = "paused", None
            elif table == 13:
                running, white_ms, count = "white", 8_400, 41
            elif table == 2:
                running, black_ms, count = "black", 47_000, 36
            if result is not None:
                black_first = board % 2 == 1
                black_won = result == "1-0"
                scores[0 if black_won == black_first else 1] += 1.0
            states.append(
                TableState(
                    table=table,
                    game_id=f"r4-m{index + 1}-b{board}-g1",
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
                    board=board,
                    game_in_match=1,
                )
            )
        matches.append(
            MatchSummary(
                label=f"places {low}-{low + 1}",
                first=first,
                second=second,
                first_score=scores[0],
                second_score=scores[1],
                tables=tables,
                status="playing",
                winner=None,
            )
        )
    for state in states:
        messages.append((topics.table_state(venue, state.table), state))
    for index, (first, second) in enumerate(finals):
        low = 2 * index + 1
        bracket.append(
            BracketMatch(
                4,
                f"{low}-{low + 1}",
                first,
                second,
                matches[index].first_score,
                matches[index].second_score,
                None,
            )
        )
    standings = _standings(bracket)
    competition = CompetitionState(
        event="2026 全国五子棋团体锦标赛 National Team Championship",
        format="team-knockout-placement",
        round=4,
        rounds=4,
        matches=tuple(matches),
        standings=standings,
        tiebreak_names=("board_points", "buchholz"),
        tiebreak_formulas=(
            "board_points: sum of board points over all matches",
            "buchholz: sum of the match points of every opponent",
        ),
        bracket=tuple(bracket),
        finished=False,
        at_ms=BASE_MS + 30_000,
    )
    messages.append((topics.competition_state(venue), competition))
    return messages


def _standings(bracket: list[BracketMatch]) -> tuple[StandingLine, ...]:
    points: dict[str, float] = dict.fromkeys(TEAMS, 0.0)
    boards: dict[str, float] = dict.fromkeys(TEAMS, 0.0)
    opponents: dict[str, list[str]] = {team: [] for team in TEAMS}
    for m in bracket:
        boards[m.first] += m.first_score
        boards[m.second] += m.second_score
        opponents[m.first].append(m.second)
        opponents[m.second].append(m.first)
        if m.winner is not None:
            points[m.winner] += 2.0
    buchholz = {t: sum(points[o] for o in opponents[t]) for t in TEAMS}
    order = sorted(TEAMS, key=lambda t: (-points[t], -boards[t], -buchholz[t], TEAMS.index(t)))
    keys = {t: (points[t], boards[t], buchholz[t]) for t in TEAMS}
    lines = []
    for team in order:
        tied = [i for i, other in enumerate(order) if keys[other] == keys[team]]
        lines.append(
            StandingLine(
                tied[0] + 1, tied[-1] + 1, team, points[team], (boards[team], buchholz[team])
            )
        )
    return tuple(lines)


def state_json(messages: list[tuple[str, Message]]) -> str:
    """The saved-state JSON of ``messages`` (the format of ``--state``)."""
    entries: list[dict[str, Any]] = []
    for topic, message in messages:
        payload = encode(message)
        entries.append({"topic": topic, "payload": json.loads(payload) if payload else None})
    return json.dumps(entries, ensure_ascii=False, indent=1) + "\n"


def sample_state_json() -> str:
    """The sample venue as a saved-state file (a starting point for hand-made states)."""
    return state_json(sample_messages())


def parse_state_json(text: str, source: str = "state file") -> list[tuple[str, Message]]:
    """The messages of a saved-state file; `StateFileError` names the first bad entry."""
    try:
        entries = json.loads(text)
    except ValueError as exc:
        raise StateFileError(f"{source}: not valid JSON: {exc}") from None
    except RecursionError:
        raise StateFileError(f"{source}: not valid JSON: nested too deeply") from None
    if not isinstance(entries, list):
        raise StateFileError(f"{source}: must be a JSON list of {{topic, payload}} objects")
    out: list[tuple[str, Message]] = []
    for index, entry in enumerate(entries):
        where = f"{source}: entry {index}"
        if not isinstance(entry, dict) or set(entry) != {"topic", "payload"}:
            raise StateFileError(f"{where}: must be an object with exactly 'topic' and 'payload'")
        topic, payload = entry["topic"], entry["payload"]
        if not isinstance(topic, str):
            raise StateFileError(f"{where}: 'topic' must be a string")
        if topic.split("/")[3:4] == ["arbiter"]:
            raise StateFileError(f"{where}: {topic!r} is referee-only; a screen state holds none")
        if payload is None:
            data = b""
        elif isinstance(payload, dict):
            data = json.dumps(payload, ensure_ascii=False).encode()
        else:
            raise StateFileError(f"{where}: 'payload' must be an object or null")
        try:
            out.append((topic, parse_message(topic, data)))
        except MessageError as exc:
            raise StateFileError(f"{where}: {exc}") from None
    return out


def load_state_file(path: str | Path) -> list[tuple[str, Message]]:
    """`parse_state_json` of a file; `StateFileError` if it cannot be read."""
    try:
        text = read_text(path, STATE_FILE)
    except FileError as exc:
        raise StateFileError(f"cannot read state file {exc}") from None
    return parse_state_json(text, source=str(path))
