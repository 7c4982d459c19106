"""Facts of a linked game arriving late and out of order (hypothesis; fake time only).

A random linked game is played on a timeline of owner time; each fact then arrives after
a delay of its hall (the owner's own facts within 5 ms, the away hall's within 200 ms,
in any order; the owner's line facts in order). Whatever the order:

* once every fact is in, the clock events and what the clock shows are those of the
  facts taken in the order they happened;
* at any moment, the clock up to the instants every fact of which has arrived is already
  exactly the final one: a late fact never changes what was charged before it;
* the rule's cached clock, queried as the owner does while facts arrive, says what a
  rule rebuilt from the same facts says.
"""

from __future__ import annotations

from dataclasses import dataclass

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from wuzi.clock.linked import LinkedClockRule
from wuzi.clock.linked_facts import (
    GameStarted,
    LineBack,
    LineCut,
    LinkedFact,
    MovePressed,
    MoveShown,
    StoneMirrored,
)
from wuzi.rules.procedure import Seat

GRACE_MS = 10_000
CONTROL = "60+2"
OWNER = Seat.FIRST


@dataclass(frozen=True)
class Arrival:
    fact: LinkedFact
    arrives_ms: int
    tie: int


def earliest_ms(fact: LinkedFact) -> int:
    """The earliest instant at which this fact can change the clock."""
    error = getattr(fact, "error_ms", 0)
    return max(0, fact.at_ms - error)


@st.composite
def linked_games(draw: st.DrawFn) -> list[Arrival]:
    first = draw(st.sampled_from([Seat.FIRST, Seat.SECOND]))
    facts: list[tuple[LinkedFact, int]] = [(GameStarted(seat=first, at_ms=0), 0)]
    now, seat = 0, first
    cut_move = draw(st.integers(0, 12))
    for move in range(1, draw(st.integers(1, 10)) + 1):
        away = seat is not OWNER
        error = draw(st.integers(0, 5)) if away else 0
        noise = draw(st.integers(-error, error))
        think = draw(st.integers(0, 8_000))
        if move == cut_move:  # the line is cut during this think
            cut = now + draw(st.integers(0, think))
            facts.append((LineCut(at_ms=cut), 0))
            facts.append((LineBack(at_ms=cut + draw(st.integers(1, 30_000))), 0))
            now = facts[-1][0].at_ms + think - (cut - now)
        else:
            now += think
        press = MovePressed(seat=seat, move=move, at_ms=max(0, now + noise), error_ms=error)
        facts.append((press, draw(st.integers(0, 200 if away else 5))))
        other = seat.other
        other_away = other is not OWNER
        other_error = draw(st.integers(0, 5)) if other_away else 0
        delay = 200 if other_away else 5
        now += draw(st.integers(0, 150))
        if draw(st.booleans()):  # the display's report may be lost
            shown = MoveShown(seat=other, move=move, at_ms=now, error_ms=other_error)
            facts.append((shown, draw(st.integers(0, delay))))
        now += draw(st.integers(0, 15_000))
        if draw(st.booleans()):  # a board may not report the mirrored stone
            mirrored = StoneMirrored(seat=other, move=move, at_ms=now, error_ms=other_error)
            facts.append((mirrored, draw(st.integers(0, delay))))
        seat = other
    ties = draw(st.permutations(range(len(facts))))
    pairs = zip(facts, ties, strict=True)
    return [Arrival(fact, fact.at_ms + delay, tie) for (fact, delay), tie in pairs]


def stamped_order(arrivals: list[Arrival]) -> list[LinkedFact]:
    return [a.fact for a in sorted(arrivals, key=lambda a: (a.fact.at_ms, a.tie))]


def arrival_order(arrivals: list[Arrival]) -> list[Arrival]:
    """By arrival; the owner's line facts keep their own order (they are the owner's)."""
    return sorted(
        arrivals,
        key=lambda a: (
            a.arrives_ms,
            0 if isinstance(a.fact, LineCut | LineBack) else 1,
            a.fact.at_ms if isinstance(a.fact, LineCut | LineBack) else a.tie,
        ),
    )


def end_ms(arrivals: list[Arrival]) -> int:
    return max(a.arrives_ms for a in arrivals) + 20_000


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(linked_games())
def test_facts_in_any_order_make_the_same_clock(arrivals: list[Arrival]) -> None:
    in_order = LinkedClockRule.replay(CONTROL, stamped_order(arrivals), grace_ms=GRACE_MS)
    late = LinkedClockRule(CONTROL, grace_ms=GRACE_MS)
    for arrival in arrival_order(arrivals):
        late.apply(arrival.fact)
    assert late.events() == in_order.events()
    end = end_ms(arrivals)
    for now in (end // 3, end // 2, end):
        assert late.at(now) == in_order.at(now)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(linked_games())
def test_a_late_fact_never_changes_what_came_before_it(arrivals: list[Arrival]) -> None:
    final = LinkedClockRule.replay(CONTROL, stamped_order(arrivals), grace_ms=GRACE_MS)
    ordered = arrival_order(arrivals)
    rule = LinkedClockRule(CONTROL, grace_ms=GRACE_MS)
    for i, arrival in enumerate(ordered):
        rule.apply(arrival.fact)
        fresh = LinkedClockRule.replay(CONTROL, rule.facts, grace_ms=GRACE_MS)
        assert rule.at(arrival.arrives_ms) == fresh.at(arrival.arrives_ms)  # the cache
        missing = ordered[i + 1 :]
        if not missing:
            break
        settled_ms = min(earliest_ms(a.fact) for a in missing) - 1
        if settled_ms >= 0:
            assert rule.at(settled_ms) == final.at(settled_ms)
