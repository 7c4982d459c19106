"""The clock display's and the arbiter view's built-in sample: one known game in progress.

Table 3 of the sample hall (`wuzi.display.sample.SAMPLE_VENUE`): a renju game of 26
stones between two players with Chinese names, Black to move with 7.25 s left (the face
shows tenths, ``7.3``) and White on 4:21, under ``2700+30``, board 2 of a team match.
The arbiter sample continues the same game one stone further (Black's forbidden l13).
Deterministic, so tests can check pixels against it. Pure.
"""

from __future__ import annotations

from wuzi.bus import topics
from wuzi.bus.schemas import Assignment, Message, TableState
from wuzi.display.sample import BASE_MS, SAMPLE_VENUE
from wuzi.rules.board import parse_points

__all__ = [
    "SAMPLE_GAME",
    "SAMPLE_TABLE",
    "sample_assignment",
    "sample_clock_messages",
    "sample_clock_state",
]

SAMPLE_TABLE = 3
SAMPLE_GAME = tuple(
    parse_points(
        "h8 i7 i9 i8 h6 g6 h10 g5 i11 h11 i10 h12 j12 h13 k13 l12 k12 j13 m12 n12 "
        "j14 k15 k14 i13 l14 m13 l13"
    )
)
"""27 stones, Black first; the last one (l13) is a double-three (the arbiter sample)."""
BLACK_NAME = "王伟"
WHITE_NAME = "李秀英"


def sample_assignment(table: int = SAMPLE_TABLE) -> Assignment:
    return Assignment(
        table=table,
        game_id=f"r4-t{table}-g1",
        black=BLACK_NAME,
        white=WHITE_NAME,
        rule_set="renju",
        opening="swap2",
        opening_settings={},
        time_control="2700+30",
        board=2,
        game_in_match=1,
        playoff=False,
        issued_ms=BASE_MS - 3_600_000,
    )


def sample_clock_state(table: int = SAMPLE_TABLE) -> TableState:
    """Black to move after 26 stones, 7.25 s left; White 4:21."""
    return TableState(
        table=table,
        game_id=f"r4-t{table}-g1",
        seq=41,
        status="playing",
        moves=SAMPLE_GAME[:26],
        black_ms=7_250,
        white_ms=261_000,
        running="black",
        result=None,
        at_ms=BASE_MS,
        black=BLACK_NAME,
        white=WHITE_NAME,
        board=2,
        game_in_match=1,
    )


def sample_clock_messages() -> list[tuple[str, Message]]:
    """The retained messages a clock display of the sample table receives."""
    return [
        (topics.assignment(SAMPLE_VENUE, SAMPLE_TABLE), sample_assignment()),
        (topics.table_state(SAMPLE_VENUE, SAMPLE_TABLE), sample_clock_state()),
    ]
