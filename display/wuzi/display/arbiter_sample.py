"""The arbiter view's built-in sample: twelve tables of the sample hall and their trouble.

Focus on table 3, where Black has just played the double-three l13 (`clock_sample`'s game,
one stone on): a "forbidden move" alert naming its lines, and Black's other forbidden
points on the board (j10 double-three, h9 and m14 double-four, g9 and m15 overline).
Elsewhere: an unannounced White five (table 5), a fallen flag (table 9, as an alert
event newer than the table's referee state), a claim waiting for the referee (table 12,
paused), an infraction acknowledged on this screen (table 2), a board link down
(table 7), a host gone offline (pi-4, tables 13-16) and a running clock not heard from
for twelve minutes (table 11). Chinese player names throughout.

`sample_arbiter_messages` gives ``(topic, message, age_ms)``: the message arrived
``age_ms`` before "now" (the stale clock needs an old one). Deterministic. Pure.
"""

from __future__ import annotations

import random
from dataclasses import replace

from wuzi.bus import topics
from wuzi.bus.schemas import (
    HostStatus,
    Message,
    OpenAlert,
    RefereeState,
    TableEvent,
    TableState,
)
from wuzi.display.clock_sample import (
    SAMPLE_GAME,
    SAMPLE_TABLE,
    sample_assignment,
    sample_clock_state,
)
from wuzi.display.sample import BASE_MS, SAMPLE_VENUE
from wuzi.rules.board import SIZE, parse_points

__all__ = [
    "SAMPLE_ACKED",
    "SAMPLE_FOCUS",
    "SAMPLE_SELECTED",
    "SAMPLE_TABLES",
    "sample_arbiter_messages",
]

SAMPLE_FOCUS = SAMPLE_TABLE
SAMPLE_TABLES = tuple(range(1, 13))
HOSTS = {"pi-1": (1, 2, 3, 4), "pi-2": (5, 6, 7, 8), "pi-3": (9, 10, 11, 12)}
OFFLINE_HOST = ("pi-4", (13, 14, 15, 16))
NAMES = (
    ("张伟", "刘洋"),
    ("陈静", "杨磊"),
    ("王伟", "李秀英"),
    ("黄勇", "赵艳"),
    ("吴杰", "周涛"),
    ("徐明", "孙超"),
    ("马霞", "朱志远"),
    ("胡子涵", "郭浩然"),
    ("何雨桐", "林思远"),
    ("罗一鸣", "高晓东"),
    ("郑欣怡", "梁芳"),
    ("谢娜", "宋敏"),
)
FIVE_GAME = tuple(parse_points("h8 c3 h9 d4 i10 e5 g10 f6 j8 g7"))  # White c3-g7
FORBIDDEN_ALERT = OpenAlert(
    event_id="pi-1/3/412",
    reason="forbidden",
    text="黑 l13 三三禁手 Black l13: double-three (i10 k12 l13 · k14 l13 m12)",
    points=tuple(parse_points("l13 i10 k12 k14 m12")),
    seat="first",
)
SAMPLE_SELECTED = FORBIDDEN_ALERT.event_id
SAMPLE_ACKED = ("pi-1/2/377",)
"""Alert keys acknowledged on the sample's screen (table 2's infraction)."""


def _game(seed: int, count: int) -> tuple[int, ...]:
    rng = random.Random(seed)
    moves = [7 * SIZE + 7]
    while len(moves) < count:
        anchor = moves[rng.randrange(max(0, len(moves) - 5), len(moves))]
        x, y = anchor % SIZE + rng.randint(-1, 1), anchor // SIZE + rng.randint(-1, 1)
        p = y * SIZE + x
        if 0 <= x < SIZE and 0 <= y < SIZE and p not in moves:
            moves.append(p)
    return tuple(moves)


def _state(table: int, moves: tuple[int, ...], **changes: object) -> TableState:
    black, white = NAMES[table - 1]
    state = TableState(
        table=table,
        game_id=f"r4-t{table}-g1",
        seq=len(moves) + 3,
        status="playing",
        moves=moves,
        black_ms=1_500_000 - 20_000 * table,
        white_ms=1_400_000 - 15_000 * table,
        running="black" if len(moves) % 2 == 0 else "white",
        result=None,
        at_ms=BASE_MS,
        black=black,
        white=white,
        board=(table - 1) % 3 + 1,
        game_in_match=1,
    )
    return replace(state, **changes)  # type: ignore[arg-type]


def _referee(
    table: int, seq: int, alerts: tuple[OpenAlert, ...] = (), **changes: object
) -> RefereeState:
    state = RefereeState(
        table=table,
        game_id=f"r4-t{table}-g1",
        seq=seq,
        status="playing",
        alerts=alerts,
        alerts_omitted=0,
        pending_stone=None,
        infractions_first=0,
        infractions_second=0,
        at_ms=BASE_MS,
    )
    return replace(state, **changes)  # type: ignore[arg-type]


def sample_arbiter_messages() -> list[tuple[str, Message, int]]:
    """The sample's messages with how long before "now" each arrived (see the module doc)."""
    v = SAMPLE_VENUE
    out: list[tuple[str, Message, int]] = []
    for host, tables in HOSTS.items():
        down = (7,) if 7 in tables else ()
        status = HostStatus(host, True, tables, f"boot-{host}", BASE_MS, down)
        out.append((topics.host_status(v, host), status, 300_000))
    gone, gone_tables = OFFLINE_HOST
    will = HostStatus(gone, False, gone_tables, f"boot-{gone}", BASE_MS - 600_000, ())
    out.append((topics.host_status(v, gone), will, 240_000))
    for table in SAMPLE_TABLES:
        if table == SAMPLE_TABLE:
            continue
        moves = _game(1000 + table, 8 + 3 * table)
        state = _state(table, moves)
        age = 20_000
        if table == 5:
            state = _state(table, FIVE_GAME, running="black")
        elif table == 9:
            state = _state(table, moves, white_ms=-1_200, running="white")
        elif table == 11:
            age = 12 * 60_000
        elif table == 12:
            state = _state(table, moves, status="paused", running=None)
        out.append((topics.table_state(v, table), state, age))
    focus = replace(
        sample_clock_state(),
        moves=SAMPLE_GAME,
        running="white",
        black_ms=731_000,
        white_ms=522_000,
        seq=42,
    )
    out.append((topics.assignment(v, SAMPLE_TABLE), sample_assignment(), 3_600_000))
    out.append((topics.table_state(v, SAMPLE_TABLE), focus, 15_000))
    out.append(
        (
            topics.arbiter_state(v, SAMPLE_TABLE),
            _referee(SAMPLE_TABLE, 412, (FORBIDDEN_ALERT,)),
            15_000,
        )
    )
    five = OpenAlert(
        event_id="pi-2/5/233",
        reason="five",
        text="白五连未宣告 White five c3-g7, not announced",
        points=tuple(parse_points("c3 d4 e5 f6 g7")),
        seat="second",
    )
    out.append((topics.arbiter_state(v, 5), _referee(5, 233, (five,)), 40_000))
    claim = OpenAlert(
        event_id="pi-3/12/518",
        reason="claim",
        text="白方申诉黑 e9 禁手 second seat (White) claims Black's e9 is forbidden",
        points=tuple(parse_points("e9")),
        seat="second",
    )
    out.append((topics.arbiter_state(v, 12), _referee(12, 518, (claim,), status="paused"), 90_000))
    infraction = OpenAlert(
        event_id="pi-1/2/377",
        reason="press_without_stone",
        text="黑方未落子按钟 first seat (Black) pressed the clock without a stone (1st)",
        points=(),
        seat="first",
    )
    out.append(
        (
            topics.arbiter_state(v, 2),
            _referee(2, 377, (infraction,), infractions_first=1),
            150_000,
        )
    )
    out.append((topics.arbiter_state(v, 9), _referee(9, 300), 60_000))
    flag = TableEvent(
        event_id="pi-3/9/305",
        table=9,
        game_id="r4-t9-g1",
        seq=305,
        kind="alert",
        at_ms=BASE_MS,
        data={
            "reason": "flag",
            "text": "白方超时 White's flag fell (second seat)",
            "points": [],
            "seat": "second",
        },
    )
    out.append((topics.arbiter_alerts(v, 9), flag, 30_000))
    return out
