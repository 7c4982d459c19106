"""A game's events: ``Game.replay`` rebuilds an identical game from them, they survive
JSON (``wuzi.rules.events``), and malformed or tampered lists are refused by name."""

from __future__ import annotations

import json
from typing import Any

import pytest
from test_game import SwapAfterThree, corrected_game, eventful_game, play, snapshot

import wuzi.rules.events
import wuzi.rules.game
import wuzi.rules.game_state
from wuzi.rules.errors import RecordFormatError
from wuzi.rules.events import (
    EVENT_TYPES,
    GameEvent,
    event_from_dict,
    event_to_dict,
    events_from_dicts,
)
from wuzi.rules.game import Game
from wuzi.rules.openings import chinese_2013, swap2
from wuzi.rules.procedure import Seat

FIRST, SECOND = Seat.FIRST, Seat.SECOND


def test_replay_rebuilds_an_identical_game() -> None:
    game = eventful_game()
    again = Game.replay(game.events, opening=SwapAfterThree())
    assert snapshot(again) == snapshot(game)
    assert again.events == game.events


def test_events_survive_json_and_replay() -> None:
    game = eventful_game()
    text = json.dumps([event_to_dict(e) for e in game.events], ensure_ascii=False)
    events = events_from_dicts(json.loads(text))
    assert events == list(game.events)
    assert snapshot(Game.replay(events, opening=SwapAfterThree())) == snapshot(game)
    first_alert = next(event_to_dict(e) for e in game.events if e.kind == "alert")
    assert first_alert["alert"]["point"] == "i8" and first_alert["alert"]["forbidden"] == "33"


def test_replay_refuses_events_that_do_not_follow() -> None:
    events = list(eventful_game().events)
    with pytest.raises(RecordFormatError, match="'swap2' procedure was given"):
        Game.replay(events, opening=swap2())
    with pytest.raises(RecordFormatError, match="cannot rebuild the 'test-swap-after-3' opening"):
        Game.replay(events)
    with pytest.raises(RecordFormatError, match="event 0"):
        Game.replay(events[1:], opening=SwapAfterThree())
    tampered = list(events)
    index = next(i for i, e in enumerate(events) if e.kind == "alert")
    del tampered[index]  # the referee's alert of the 33 went missing
    with pytest.raises(RecordFormatError, match=f"event {index}"):
        Game.replay(tampered, opening=SwapAfterThree())
    swapped = list(events)
    swapped[1], swapped[2] = swapped[2], swapped[1]
    with pytest.raises(RecordFormatError, match=r"event 2 \(placed\): t_ms 1000 is earlier"):
        Game.replay(swapped, opening=SwapAfterThree())


@pytest.mark.parametrize(
    ("data", "words"),
    [
        ({"kind": "teleported"}, "unknown event kind 'teleported'"),
        ("placed", "expected an object"),
        ({"kind": "placed", "seat": "first", "colour": "black"}, "missing key 'point'"),
        ({"kind": "placed", "seat": "first", "point": "z1", "colour": None}, "key 'point'"),
        ({"kind": "placed", "seat": "third", "point": "h8", "colour": None}, "key 'seat'"),
        ({"kind": "passed", "seat": "first", "colour": "red"}, "key 'colour'"),
        ({"kind": "passed", "seat": "first", "colour": "black", "x": 1}, "unknown key 'x'"),
        ({"kind": "passed", "seat": "first", "colour": "black", "t_ms": "1"}, "key 't_ms'"),
        ({"kind": "declared", "seat": "first", "number": True}, "key 'number'"),
        ({"kind": "resigned", "seat": "first", "clocks": {"first_ms": 1}}, "key 'clocks'"),
        ({"kind": "ended", "result": {"winner": None}}, "key 'result'"),
    ],
)
def test_malformed_event_dicts_name_the_key(data: Any, words: str) -> None:
    with pytest.raises(RecordFormatError, match=words):
        event_from_dict(data, where="event 7")
    with pytest.raises(RecordFormatError, match="event 7"):
        event_from_dict(data, where="event 7")


def test_every_event_class_has_its_own_kind() -> None:
    classes = {
        cls
        for cls in vars(wuzi.rules.events).values()
        if isinstance(cls, type) and issubclass(cls, GameEvent) and cls is not GameEvent
    }
    assert set(EVENT_TYPES.values()) == classes  # none missing, no kind used twice
    assert all(cls.kind == kind for kind, cls in EVENT_TYPES.items())
    derived = sorted(kind for kind, cls in EVENT_TYPES.items() if cls.derived)
    assert derived == ["alert", "ended", "judged"]


def small_games() -> list[Game]:
    """Between them, every kind of input event."""
    games = [eventful_game(), corrected_game()]
    offers = Game("renju", opening=chinese_2013(n="1-3"))
    play(offers, "h8 i9 j10")
    offers.declare(1)
    offers.decide("stay")
    play(offers, "g9 a1")
    offers.choose("a1")
    games.append(offers)
    for end in ("resign", "agree", "forfeit", "decide"):
        game = Game()
        play(game, "h8 i9")
        if end == "resign":
            game.resign(FIRST)
        elif end == "agree":
            game.agree_draw()
        elif end == "forfeit":
            game.forfeit(SECOND, "left the hall")
        else:
            game.referee_decide(None, "the hall closes")
        games.append(game)
    return games


def test_every_kind_of_input_event_replays() -> None:
    games = small_games()
    kinds = {e.kind for game in games for e in game.events}
    assert kinds == set(EVENT_TYPES)
    for game in games:
        swaps = game.opening.name == SwapAfterThree.name  # not a registry procedure
        again = Game.replay(game.events, opening=SwapAfterThree() if swaps else None)
        assert snapshot(again) == snapshot(game)


def test_the_public_names_of_the_game_modules_are_importable_from_game() -> None:
    """Code written against the one-module game (``from wuzi.rules.game import …``)
    keeps working after the split."""
    for module in (wuzi.rules.events, wuzi.rules.game_state):
        for name in module.__all__:
            if name in {"GameState", "as_point", "check_name", "check_seat", "check_text"}:
                continue  # the building blocks of Game, not its vocabulary
            assert getattr(wuzi.rules.game, name) is getattr(module, name), name
            assert name in wuzi.rules.game.__all__, name
