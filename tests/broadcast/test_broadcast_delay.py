"""The public feed's delay buffer (pure): held until due, never early, repeats dropped,
nothing but live table states and events, at_ms moved by the delay; and its journal."""

from __future__ import annotations

from pathlib import Path

import pytest

from support.public_feed import live_event, live_state
from wuzi.broadcast.delay import DelayError, PublicDelay, public_copy
from wuzi.broadcast.journal import Journal, JournalError
from wuzi.bus import topics
from wuzi.bus.schemas import Cleared, RefereeState, TableEvent, TableState, check_outgoing

V = "hall"
DELAY = 60_000


def state_topic(n: int = 3) -> str:
    return topics.table_state(V, n)


def test_a_message_comes_out_exactly_when_due_never_before() -> None:
    delay = PublicDelay(V, DELAY)
    s1 = live_state(3, (112,), at_ms=1_000)
    held = delay.accept(state_topic(), s1, received_ms=10_000)
    assert held is not None and held.due_ms == 70_000
    assert delay.due(69_999) == []
    assert delay.next_due_ms() == 70_000
    out = delay.due(70_000)
    assert [h.message for h in out] == [s1]
    topic, public = public_copy(out[0].topic, out[0].message, DELAY)
    assert topic == topics.public_state(V, 3)
    assert isinstance(public, TableState)
    assert public.at_ms == 61_000  # moved forward by the delay, nothing else changed
    assert public == TableState(**{**vars(s1), "at_ms": 61_000})
    check_outgoing(topic, public)  # the same schema: valid on the public topic


def test_due_times_never_go_back_and_order_is_kept() -> None:
    delay = PublicDelay(V, DELAY)
    a = delay.accept(state_topic(1), live_state(1, (112,)), received_ms=50_000)
    b = delay.accept(
        state_topic(2), live_state(2, (112,)), received_ms=40_000
    )  # clock stepped back
    assert a is not None and b is not None
    assert b.due_ms == a.due_ms  # never ahead of what came before it
    assert [h.key for h in delay.due(10**9)] == [a.key, b.key]


def test_zero_delay_passes_at_once() -> None:
    delay = PublicDelay(V, 0)
    assert delay.accept(state_topic(), live_state(3), received_ms=5) is not None
    assert len(delay.due(5)) == 1


def test_repeats_and_older_states_are_dropped() -> None:
    delay = PublicDelay(V, DELAY)
    s2 = live_state(3, (112, 113), at_ms=2_000)
    assert delay.accept(state_topic(), s2, 1) is not None
    assert delay.accept(state_topic(), s2, 2) is None  # retained again on resubscribe
    older = live_state(3, (112,), at_ms=1_000)
    assert delay.accept(state_topic(), older, 3) is None  # a queued one after the newer
    e1 = live_event(3, 1, 112)
    assert delay.accept(topics.table_events(V, 3), e1, 4) is not None
    assert delay.accept(topics.table_events(V, 3), e1, 5) is None
    assert delay.accept(topics.table_events(V, 3), live_event(3, 2, 113), 6) is not None
    # another game is ordered by the host's time (wuzi.bus.newest): a copy of the game
    # before, late (a broker restored from an old database), is dropped; the next is not
    before = live_state(3, (112, 113, 114), game_id="g-0", at_ms=1_500)
    assert delay.accept(state_topic(), before, 7) is None
    new_game = live_state(3, (), game_id="g-2", at_ms=2_500)
    assert delay.accept(state_topic(), new_game, 7) is not None
    assert delay.accept(state_topic(), s2, 7) is None  # the game before, late
    assert delay.accept(state_topic(), Cleared(state_topic()), 8) is not None
    assert delay.accept(state_topic(), Cleared(state_topic()), 9) is None


@pytest.mark.parametrize(
    "topic",
    [
        topics.arbiter_state(V, 3),
        topics.arbiter_alerts(V, 3),
        topics.arbiter_commands(V),
        topics.public_state(V, 3),
        topics.host_status(V, "pi-1"),
        topics.table_state("other", 3),
    ],
)
def test_anything_but_live_table_topics_of_the_venue_is_refused(topic: str) -> None:
    delay = PublicDelay(V, DELAY)
    referee = RefereeState(3, "g-1", 1, "playing", (), 0, None, 0, 0, 1)
    with pytest.raises(DelayError):
        delay.accept(topic, referee if "arbiter" in topic else live_state(3), 1)
    assert len(delay) == 0


def test_a_state_on_the_events_topic_is_refused() -> None:
    with pytest.raises(DelayError, match="does not go on this topic"):
        PublicDelay(V, 0).accept(topics.table_events(V, 3), live_state(3), 1)


def test_the_journal_gives_everything_back_after_a_restart(tmp_path: Path) -> None:
    path = tmp_path / "b.sqlite"
    delay, journal = PublicDelay(V, DELAY), Journal(path, V)
    items = []
    for i, message in enumerate(
        [live_state(3, (112,)), live_event(3, 1, 112), live_state(4, (), game_id="g-9")]
    ):
        topic = (
            topics.table_events(V, message.table)
            if isinstance(message, TableEvent)
            else topics.table_state(V, message.table)
        )
        held = delay.accept(topic, message, 1_000 + i)
        assert held is not None
        journal.add(held, delay.remembered(message.table))
        items.append(held)
    journal.sent([items[0].key])  # the first went out and was acknowledged
    journal.close()

    again = Journal(path, V)
    restored = PublicDelay(V, DELAY)
    restored.restore(again.held(), again.remembered())
    assert [h.key for h in restored.due(10**9)] == [items[1].key, items[2].key]
    # what was taken before is still known: the retained repeat at reconnect is dropped
    assert restored.accept(topics.table_state(V, 3), items[0].message, 5_000) is None
    later = restored.accept(topics.table_state(V, 3), live_state(3, (112, 113)), 5_000)
    assert later is not None and later.key > items[2].key
    again.close()


def test_a_journal_of_another_venue_is_refused(tmp_path: Path) -> None:
    Journal(tmp_path / "b.sqlite", V).close()
    with pytest.raises(JournalError, match="belongs to venue 'hall'"):
        Journal(tmp_path / "b.sqlite", "other")


def test_a_negative_delay_is_refused() -> None:
    with pytest.raises(DelayError):
        PublicDelay(V, -1)
