"""Game records: the model, and the JSON form the demo and the director read.

The hypothesis strategies here (``records`` and friends) are imported by the format tests
(tests/rules/test_formats_*.py), so every format is tried on the same kind of record.
"""

from __future__ import annotations

import datetime
import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wuzi.rules.board import POINTS, Colour, Point, parse_point
from wuzi.rules.errors import RecordFormatError
from wuzi.rules.procedure import Seat
from wuzi.rules.record import (
    KNOWN_REASONS,
    Claim,
    ClockReading,
    GameRecord,
    GameResult,
    Infraction,
    Offer,
    OfferRound,
    OpeningDecision,
    OpeningRecord,
    Player,
    RecordedMove,
    RefereeAction,
)
from wuzi.rules.record_json import (
    record_from_dict,
    record_from_json,
    record_to_dict,
    record_to_json,
)

RULESETS = [
    "renju",
    "no-forbidden:overline=both",
    "no-forbidden:overline=white-only",
    "no-forbidden:overline=none",
    "standard",
    "freestyle",
]

seats = st.sampled_from([Seat.FIRST, Seat.SECOND])
colours = st.sampled_from([Colour.BLACK, Colour.WHITE])
times = st.none() | st.integers(0, 10**9)
tokens = st.from_regex(r"[a-z0-9][a-z0-9_.+-]{0,10}", fullmatch=True)
texts = st.text(max_size=30)
points = st.integers(0, POINTS - 1)
clocks = st.none() | st.builds(
    ClockReading, st.integers(-(10**6), 10**8), st.integers(-(10**6), 10**8)
)


@st.composite
def move_lists(
    draw: st.DrawFn, max_size: int = 40, passes: bool = True
) -> tuple[RecordedMove, ...]:
    """Moves on distinct points (and passes), any colours, seats, times and clocks."""
    stones = draw(st.lists(points, unique=True, max_size=max_size))
    sequence: list[Point | None] = list(stones)
    if passes:
        for _ in range(draw(st.integers(0, 3))):
            sequence.insert(draw(st.integers(0, len(sequence))), None)
    return tuple(
        RecordedMove(p, draw(colours), draw(seats), draw(times), draw(clocks)) for p in sequence
    )


@st.composite
def offer_rounds(draw: st.DrawFn) -> OfferRound:
    offered = draw(st.lists(points, unique=True, max_size=5))
    kept = draw(st.none() | st.sampled_from(offered)) if offered else None
    return OfferRound(
        move=draw(st.integers(1, 30)),
        n=draw(st.integers(1, 10)),
        offers=tuple(Offer(p, draw(seats), draw(times)) for p in offered),
        kept=kept,
        declared_by=draw(st.none() | seats),
        chosen_by=draw(st.none() | seats),
    )


openings = st.builds(
    OpeningRecord,
    procedure=tokens,
    opening_id=st.none() | texts,
    opening_name=st.none() | texts,
    set_by=st.none() | st.sampled_from(["opener", "lot", "referee"]),
    decisions=st.lists(
        st.builds(OpeningDecision, seats, tokens, st.integers(0, 225), times), max_size=3
    ).map(tuple),
    offers=st.none() | offer_rounds(),
)

claims = st.builds(
    Claim,
    seat=seats,
    kind=tokens,
    verdict=tokens,
    point=st.none() | points,
    t_ms=times,
    forbidden=st.none() | st.sampled_from(["33", "44", "ol"]),
    proof=texts,
)
results = st.builds(
    GameResult,
    winner=st.sampled_from(["black", "white", "draw"]),
    reason=st.sampled_from(KNOWN_REASONS) | tokens,
    detail=texts,
    t_ms=times,
)
players = st.builds(Player, name=texts, id=texts, team=texts)
start_times = st.just("") | st.datetimes(
    min_value=datetime.datetime(2000, 1, 1), max_value=datetime.datetime(2099, 1, 1)
).map(lambda d: d.replace(microsecond=0).isoformat())


@st.composite
def records(
    draw: st.DrawFn, moves: st.SearchStrategy[tuple[RecordedMove, ...]] | None = None
) -> GameRecord:
    """Any record the model allows."""
    return GameRecord(
        moves=draw(moves if moves is not None else move_lists()),
        result=draw(st.none() | results),
        ruleset=draw(st.sampled_from(RULESETS)),
        mode=draw(st.sampled_from(["claim", "auto"])),
        opening=draw(openings),
        black_seat=draw(seats),
        claims=tuple(draw(st.lists(claims, max_size=3))),
        infractions=tuple(
            draw(st.lists(st.builds(Infraction, seats, texts, times, st.booleans()), max_size=3))
        ),
        referee_actions=tuple(
            draw(st.lists(st.builds(RefereeAction, tokens, texts, times, texts), max_size=3))
        ),
        event=draw(texts),
        round=draw(texts),
        match=draw(st.none() | st.integers(1, 999)),
        board=draw(st.none() | st.integers(1, 9)),
        table=draw(st.none() | st.integers(0, 10**4)),
        game_number=draw(st.none() | st.integers(1, 99)),
        first=draw(players),
        second=draw(players),
        time_control=draw(st.just("") | st.sampled_from(["2700+30", "3600", "40/5400:1800+30"])),
        start_time=draw(start_times),
        tags=draw(st.dictionaries(texts, texts, max_size=3)),
    )


def P(name: str) -> Point:
    return parse_point(name)


def sample_record() -> GameRecord:
    """A designated-opening game with a swap, two offers, a claim and a referee's pause."""
    names = ["h8", "h9", "i10", "j8", "j10", "g9"]
    seats_played = [Seat.FIRST] * 3 + [Seat.FIRST, Seat.SECOND, Seat.FIRST]
    moves = tuple(
        RecordedMove(
            P(n),
            Colour.BLACK if i % 2 == 0 else Colour.WHITE,
            seats_played[i],
            1500 * (i + 1),
            ClockReading(2_700_000 - 700 * i, 2_699_000 - 300 * i),
        )
        for i, n in enumerate(names)
    )
    return GameRecord(
        moves=moves,
        result=GameResult("white", "forbidden-33", "Black's j10 makes two threes", 12_000),
        ruleset="renju",
        mode="claim",
        opening=OpeningRecord(
            procedure="designated",
            opening_id="2D",
            opening_name="溪月 Keigetsu",
            set_by="lot",
            decisions=(OpeningDecision(Seat.SECOND, "swap", 3, 4_000),),
            offers=OfferRound(
                move=5,
                n=2,
                offers=(Offer(P("j10"), Seat.SECOND, 7_000), Offer(P("k11"), Seat.SECOND, 7_400)),
                kept=P("j10"),
                chosen_by=Seat.FIRST,
            ),
        ),
        black_seat=Seat.SECOND,
        claims=(Claim(Seat.FIRST, "forbidden", "correct", P("j10"), 11_900, "33", "two threes"),),
        infractions=(Infraction(Seat.SECOND, "clock pressed without a stone", 9_000),),
        referee_actions=(RefereeAction("pause", "R. Li", 9_100, "checking the board"),),
        event="Team final",
        round="4",
        match=3,
        board=1,
        table=12,
        game_number=2,
        first=Player("Li Wei", "CN-17", "Shanghai"),
        second=Player("Ana Kask", "EE-3", "Tallinn"),
        time_control="2700+30",
        start_time="2026-05-01T09:30:00+08:00",
        tags={"board": "sensor-12"},
    )


# --- the model --------------------------------------------------------------------------


def test_model_answers_who_played_what() -> None:
    record = sample_record()
    assert record.seat_of(Colour.BLACK) is Seat.SECOND  # after the swap
    assert record.player_of(Colour.BLACK).name == "Ana Kask"
    assert record.player_of(Colour.WHITE).name == "Li Wei"
    assert record.points[:3] == (P("h8"), P("h9"), P("i10"))
    assert record.result_value == "white"
    assert record.result is not None and record.result.score == "0-1"
    assert record.opening.label == "2D 溪月 Keigetsu"
    assert OpeningRecord().label == "free"
    assert (
        record.moves[0].clocks is not None and record.moves[0].clocks.of(Seat.SECOND) == 2_699_000
    )


def test_from_points_alternates_colours_by_the_seats_holding_them() -> None:
    record = GameRecord.from_points([P("h8"), None, P("i9")], black_seat=Seat.SECOND)
    assert [m.colour for m in record.moves] == [Colour.BLACK, Colour.WHITE, Colour.BLACK]
    assert [m.seat for m in record.moves] == [Seat.SECOND, Seat.FIRST, Seat.SECOND]
    assert record.moves[1].is_pass and str(record.moves[1]) == "pass"


# --- JSON -------------------------------------------------------------------------------


def test_json_keeps_the_demo_contract() -> None:
    data = json.loads(record_to_json(sample_record()))
    assert data["format"] == "wuzi-record" and data["version"] == 1
    assert data["moves"] == ["h8", "h9", "i10", "j8", "j10", "g9"]
    assert data["result"] == "white"
    assert data["termination"]["reason"] == "forbidden-33"
    assert data["move_details"][0] == {
        "colour": "black",
        "seat": "first",
        "t_ms": 1500,
        "first_ms": 2_700_000,
        "second_ms": 2_699_000,
    }
    assert data["opening"]["id"] == "2D" and data["opening"]["offers"]["kept"] == "j10"


def test_json_of_a_running_game_has_a_null_result_and_passes_as_pass() -> None:
    record = GameRecord.from_points([P("h8"), None])
    data = json.loads(record_to_json(record))
    assert data["result"] is None and data["termination"] is None
    assert data["moves"] == ["h8", "pass"]


@settings(max_examples=150, deadline=None)
@given(records())
def test_json_round_trips_any_record(record: GameRecord) -> None:
    assert record_from_json(record_to_json(record)) == record
    assert record_from_json(record_to_json(record).encode("utf-8")) == record


def test_a_minimal_json_record_fills_in_defaults() -> None:
    record = record_from_dict(
        {"format": "wuzi-record", "version": 1, "moves": ["h8", "i9"], "result": None}
    )
    assert record.points == (P("h8"), P("i9"))
    assert record.moves[1].colour is Colour.WHITE and record.moves[1].seat is Seat.SECOND
    assert record.ruleset == "renju" and record.result is None


def _bad(change: Any) -> str:
    """The error message for the sample record's JSON after ``change(data)``."""
    data = record_to_dict(sample_record())
    change(data)
    with pytest.raises(RecordFormatError) as info:
        record_from_dict(data)
    return str(info.value)


def _set(path: list[Any], value: Any) -> Any:
    def change(data: Any) -> None:
        for key in path[:-1]:
            data = data[key]
        data[path[-1]] = value

    return change


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        (["moves", 3], "z9", "moves[3]: 'z9' is not a point"),
        (["moves", 3], "h8", "moves[3]: h8 is already occupied (by moves[0])"),
        (["moves", 2], "H8x", "moves[2]: 'H8x' is not a point"),
        (["moves", 1], 7, "moves[1]: expected a string, not the number 7"),
        (["format"], "pgn", "format: expected 'wuzi-record'"),
        (["version"], 2, "version: this program reads version 1 records, not 2"),
        (["result"], "win", "result: expected one of black, white, draw, not 'win'"),
        (["termination"], None, "termination: missing; result 'white' needs a reason"),
        (["termination", "reason"], "Five!", "termination.reason: 'Five!' is not a token"),
        (["move_details", 2, "seat"], "third", "move_details[2].seat: seat must be"),
        (["move_details", 0, "t_ms"], -5, "move_details[0].t_ms: -5 is negative"),
        (["move_details", 0, "colour"], "red", "move_details[0].colour: colour must be"),
        (["move_details", 1, "first_ms"], None, "move_details[1]: give both clock readings"),
        (["opening", "set_by"], "coin", "opening.set_by: expected one of opener, lot, referee"),
        (["opening", "offers", "kept"], "a1", "opening.offers.kept: a1 is not one of the offers"),
        (["opening", "offers", "points", 1, "point"], "j10", "opening.offers.points[1]: j10 was"),
        (["opening", "decisions", 0, "stones"], "3", "opening.decisions[0].stones: expected an"),
        (["claims", 0, "forbidden"], "55", "claims[0].forbidden: expected one of 33, 44, ol"),
        (["infractions", 0, "loses"], "no", "infractions[0].loses: expected true or false"),
        (["referee_actions", 0, "action"], "", "referee_actions[0].action: '' is not a token"),
        (["ruleset"], "chess", "ruleset: unknown rule set 'chess'"),
        (["ruleset"], "RIF", "ruleset: write the rule set as 'renju', not 'RIF'"),
        (["mode"], "manual", "mode: expected one of claim, auto"),
        (["start_time"], "yesterday", "start_time: 'yesterday' is not an ISO 8601 time"),
        (["game_number"], 0, "game_number: 0 must be at least 1"),
        (["table"], True, "table: expected an integer, not a boolean"),
        (["players", "first", "name"], None, "players.first.name: expected a string, not null"),
        (["tags", "board"], 12, "tags.board: expected a string"),
        (["players", "third"], {}, "players: unknown key 'third'"),
        (["colour"], "black", "record: unknown key 'colour'"),
    ],
)
def test_json_errors_name_the_path(path: list[Any], value: Any, message: str) -> None:
    assert message in _bad(_set(path, value))


def test_json_errors_for_missing_and_mismatched_parts() -> None:
    assert "move_details: 5 entries for 6 moves" in _bad(lambda d: d["move_details"].pop())
    assert "format: missing" in _bad(lambda d: d.pop("format"))
    assert "termination: given, but result is null" in _bad(_set(["result"], None))
    assert "moves: expected a list, not an object" in _bad(_set(["moves"], {}))
    assert "claims[0]: expected an object, not a list" in _bad(_set(["claims", 0], []))


def test_json_text_errors_name_line_and_column() -> None:
    with pytest.raises(RecordFormatError, match=r"line 2 column 1"):
        record_from_json('{"format": "wuzi-record",\n}')
    with pytest.raises(RecordFormatError, match="byte 1: not UTF-8"):
        record_from_json(b"{\xff}")
    with pytest.raises(RecordFormatError, match="record: expected an object, not a list"):
        record_from_json("[1, 2]")
