"""The hall line of a linked game (``wuzi.table.hall_line``), in milliseconds.

Every input of the away table is taken by the owner once and in order, and the owner's
truth by the away side, whatever the line does (loses, repeats, reorders, cuts) and
whichever host crashes; both sides find a cut within ``CUT_AFTER_MS`` plus a tick; a
line back waits for the referees; ``recover`` rebuilds a side from its journal."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from support.hall_line import LINK, Cut, LineSim, Net
from wuzi.table.hall_line import (
    CUT_AFTER_MS,
    PING_EVERY_MS,
    RESEND_AFTER_MS,
    AwayLine,
    Ignored,
    LineBack,
    LineCut,
    OwnerLine,
    Resume,
    ResumeRefused,
    Take,
)
from wuzi.table.line_messages import AwayPress, LinePacket, OwnerTruth

SIM = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _packet(n: int = 0, item: AwayPress | None = None, **kw: object) -> LinePacket[Any]:
    fields: dict[str, object] = dict(
        link=LINK, boot="away-1", sent_ms=1000, state="up", resumes=0, ack=0, last=n,
        echo_ms=None, echo_age_ms=0, n=n, item=item,
    )  # fmt: skip
    fields.update(kw)
    return LinePacket(**fields)  # type: ignore[arg-type]


def _owner_with_clock() -> OwnerLine:
    """An owner that has sent a ping at 1000 and heard it echoed (an estimate exists)."""
    owner = OwnerLine(LINK, "owner-1", "hall-a", "hall-b")
    owner.outgoing(1000)
    owner.receive(_packet(sent_ms=5050, echo_ms=1000, echo_age_ms=0), 1100)
    return owner


def test_items_are_taken_once_in_order_a_gap_waits() -> None:
    owner = _owner_with_clock()
    assert owner.state == "up"
    one, two, three = (AwayPress(1, 5000 + i) for i in range(3))
    assert owner.receive(_packet(2, two, sent_ms=5100), 1150) == []  # 1 is missing: waits
    taken = owner.receive(_packet(1, one, sent_ms=5101), 1160)
    assert [d.record.n for d in taken if isinstance(d, Take)] == [1, 2]
    assert owner.receive(_packet(1, one, sent_ms=5102), 1170) == []  # a repeat: ignored
    taken = owner.receive(_packet(3, three, sent_ms=5103), 1180)
    assert [d.record.item for d in taken if isinstance(d, Take)] == [three]
    ack = owner.outgoing(1181)  # each item received is acknowledged at once
    assert [p.ack for p in ack] == [3]


def test_an_away_stamp_becomes_owner_time_within_its_bound() -> None:
    owner = _owner_with_clock()
    (take,) = owner.receive(_packet(1, AwayPress(1, 5040), sent_ms=5060), 1120)
    assert isinstance(take, Take)
    # away = owner + 4000 ± 51 (50: half the round trip, 1: the stamps), + 1 ms of drift
    assert (take.record.at_ms, take.record.error_ms) == (1040, 52)
    assert owner.to_owner_ms(5040, 1120) == (1040, 52)
    offset = owner.offset(1120)
    assert offset is not None and (offset.offset_ms, offset.rtt_ms) == (4000, 100)


def test_a_stamp_is_never_after_its_receipt() -> None:
    owner = _owner_with_clock()
    (take,) = owner.receive(_packet(1, AwayPress(1, 9999), sent_ms=6000), 1200)
    assert isinstance(take, Take) and take.record.at_ms == 1200


def test_refused_packets_say_why() -> None:
    owner = _owner_with_clock()
    (other,) = owner.receive(_packet(link="x-1-y-1"), 1200)
    assert isinstance(other, Ignored) and "x-1-y-1" in other.why
    (ack,) = owner.receive(_packet(ack=5), 1200)
    assert isinstance(ack, Ignored) and "acknowledges item 5" in ack.why
    (far,) = owner.receive(_packet(10_000, AwayPress(1, 1)), 1200)
    assert isinstance(far, Ignored) and "too far ahead" in far.why


def test_due_says_when_to_call_again() -> None:
    away = AwayLine(LINK, "away-1", "hall-b", "hall-a")
    assert away.due_ms() == 0  # nothing sent yet: at once
    away.outgoing(0)
    assert away.due_ms() == PING_EVERY_MS
    away.receive(_packet(sent_ms=100, boot="owner-1"), 100)
    away.outgoing(100)  # acknowledges nothing, tells it heard: a packet owed
    away.send_input(AwayPress(1, 150), 150)
    assert away.due_ms() == 0
    away.outgoing(150)
    assert away.due_ms() == 150 + RESEND_AFTER_MS - 50  # the ping (at 100 + 250) first
    away.receive(_packet(sent_ms=130, boot="owner-1", ack=1), 180)
    away.outgoing(180)  # an acknowledgement owes no answer
    assert away.due_ms() == 150 + PING_EVERY_MS
    for t in range(190, 800, 10):
        away.outgoing(t)  # pings at 400 and 650
    assert away.due_ms() == 180 + CUT_AFTER_MS  # before the ping at 900


def test_unacknowledged_items_are_resent_in_order_but_not_into_a_cut() -> None:
    away = AwayLine(LINK, "away-1", "hall-b", "hall-a")
    away.receive(_packet(sent_ms=100, boot="owner-1"), 0)
    away.send_input(AwayPress(1, 10), 10)
    away.send_input(AwayPress(2, 11), 11)
    assert [p.n for p in away.outgoing(20)] == [1, 2]
    assert [p.n for p in away.outgoing(20 + RESEND_AFTER_MS - 1)] == [0]  # a ping
    assert [p.n for p in away.outgoing(20 + RESEND_AFTER_MS)] == [1, 2]
    away.receive(_packet(sent_ms=200, boot="owner-1", ack=1), 400)
    (cut,) = away.poll(400 + CUT_AFTER_MS)
    assert isinstance(cut, LineCut) and "700 ms" in cut.why
    assert [p.n for p in away.outgoing(400 + CUT_AFTER_MS + 10)] == [0]  # a ping only
    assert [p.n for p in away.outgoing(3000)] == [0]
    away.send_input(AwayPress(3, 3050), 3050)
    assert [p.n for p in away.outgoing(3050)] == [3]  # a new item is tried even so
    back = away.receive(_packet(sent_ms=3000, boot="owner-1", ack=1, last=2), 3100)
    assert back == [LineBack(3100, LINK, 3100 - 1100, resend=2, missing=2)]
    resent = away.outgoing(3101)  # all at once on return, in order
    assert [(p.n, p.state) for p in resent] == [
        (2, "waiting_for_referees"),
        (3, "waiting_for_referees"),
    ]


def test_a_side_told_it_is_not_heard_cuts_too() -> None:
    owner = _owner_with_clock()
    out = owner.receive(_packet(sent_ms=6000, state="cut"), 1300)
    assert [type(d) for d in out] == [LineCut, LineBack]
    assert isinstance(out[0], LineCut) and "hears nothing" in out[0].why
    assert owner.state == "waiting_for_referees"


def test_resumption_needs_both_halls_or_the_chief() -> None:
    owner = _owner_with_clock()
    assert owner.resume_by_chief("li", 1200) == [ResumeRefused(1200, LINK, "the line is up")]
    owner.receive(_packet(sent_ms=6000, state="cut"), 1300)
    owner.receive(_packet(sent_ms=6001, state="waiting_for_referees"), 1301)
    (refused,) = owner.resume_confirmed("hall-b", "wang", 1302)
    assert isinstance(refused, ResumeRefused) and "no resumption" in refused.why
    (refused,) = owner.resume_requested("hall-c", "zhao", 1302)
    assert isinstance(refused, ResumeRefused) and "hall-c" in refused.why
    assert owner.resume_requested("hall-a", "zhang", 1303) == []
    (refused,) = owner.resume_confirmed("hall-a", "liu", 1304)
    assert isinstance(refused, ResumeRefused) and "other hall" in refused.why
    out = owner.resume_confirmed("hall-b", "wang", 1305)
    assert out[-1] == Resume(1305, LINK, ("hall-a:zhang", "hall-b:wang"))
    assert owner.state == "up" and owner.resumes == 1


def test_resumption_waits_until_the_other_side_holds_too() -> None:
    owner = _owner_with_clock()
    (cut,) = owner.poll(1100 + CUT_AFTER_MS)  # the owner hears nothing; the away side
    assert isinstance(cut, LineCut)  # still thinks the line up
    (back,) = owner.receive(_packet(sent_ms=6000), 2000)
    assert isinstance(back, LineBack) and owner.state == "waiting_for_referees"
    (refused,) = owner.resume_by_chief("li", 2001)
    assert isinstance(refused, ResumeRefused) and "not held its clock" in refused.why
    owner.receive(_packet(sent_ms=6100, state="waiting_for_referees"), 2100)
    assert isinstance(owner.resume_by_chief("li", 2101)[-1], Resume)


def test_resumption_waits_until_nothing_is_missing() -> None:
    owner = _owner_with_clock()
    owner.send_truth(OwnerTruth((), 1, 1, None, True, None, 1200), 1200)
    owner.receive(_packet(sent_ms=6000, state="cut", last=2), 1300)
    (refused,) = owner.resume_by_chief("li", 1301)
    assert isinstance(refused, ResumeRefused) and "not acknowledged" in refused.why
    owner.receive(_packet(sent_ms=6001, state="waiting_for_referees", ack=1, last=2), 1302)
    (refused,) = owner.resume_by_chief("li", 1303)
    assert isinstance(refused, ResumeRefused) and "2 item(s) of the other hall" in refused.why


def test_a_line_that_never_fails_needs_no_referee() -> None:
    sim = LineSim(Net())
    for _ in range(20):
        sim.press()
        sim.run(sim.t + 200)
        sim.truth()
    sim.settle()
    assert [r.item for r in sim.owner.taken] == sim.inputs
    assert [r.item for r in sim.away.taken] == sim.truths
    assert sim.cuts_seen == {"owner": [], "away": []}
    assert not any(isinstance(d, Resume) for d in sim.decisions["owner"])


def _check_bound(sim: LineSim) -> None:
    """Each input the owner took is placed in its time within the stated bound."""
    for record in sim.owner.taken:
        true_ms = sim.input_true_ms[record.item]
        assert abs(record.at_ms - true_ms) <= record.error_ms, record


@SIM
@given(
    seed=st.integers(0, 2**32),
    loss=st.sampled_from([0.0, 0.1, 0.3]),
    dup=st.sampled_from([0.0, 0.2]),
    jitter=st.integers(0, 60),
    cuts=st.lists(
        st.tuples(
            st.integers(0, 8000),
            st.integers(100, 3000),
            st.sampled_from(["both", "to_owner", "to_away"]),
        ),
        max_size=3,
    ),
    crashes=st.lists(
        st.tuples(st.integers(1, 9000), st.sampled_from(["owner", "away"])), max_size=2
    ),
)
def test_any_line_delivers_every_item_once_in_order(
    seed: int,
    loss: float,
    dup: float,
    jitter: int,
    cuts: list[tuple[int, int, str]],
    crashes: list[tuple[int, str]],
) -> None:
    net = Net(loss, dup, 60, 90, jitter, tuple(Cut(s, s + d, w) for s, d, w in cuts))
    sim = LineSim(net, seed)
    crash_at = dict(crashes)
    while sim.t < 10_000:
        if sim.t % 170 == 0:
            sim.press()
        if sim.t % 230 == 0:
            sim.truth()
        if sim.t % 500 == 0:
            sim.resume()
        for at, name in list(crash_at.items()):
            if sim.t >= at:
                before = sim.owner.durable() if name == "owner" else sim.away.durable()
                sim.crash(name)
                after = sim.owner.durable() if name == "owner" else sim.away.durable()
                assert after == before  # rebuilt the same from its journal
                del crash_at[at]
        sim.step()
    sim.settle()
    assert [r.item for r in sim.owner.taken] == sim.inputs
    assert [r.item for r in sim.away.taken] == sim.truths
    assert [r.n for r in sim.owner.taken] == list(range(1, len(sim.inputs) + 1))
    _check_bound(sim)
    for name, items in (("owner", sim.inputs), ("away", sim.truths)):
        takes = [d.record.n for d in sim.decisions[name] if isinstance(d, Take)]
        assert takes == list(range(1, len(items) + 1))  # once each, across the crashes too


@SIM
@given(
    seed=st.integers(0, 2**32),
    to_owner=st.integers(40, 110),
    to_away=st.integers(40, 110),
    jitter=st.integers(0, 20),
    offset=st.integers(-(10**9), 10**9),
)
def test_the_offset_is_within_its_bound(
    seed: int, to_owner: int, to_away: int, jitter: int, offset: int
) -> None:
    sim = LineSim(Net(0.0, 0.0, to_owner, to_away, jitter), seed, offset_ms=offset)
    while sim.t < 15_000:
        sim.step()
        if sim.t % 100 == 0:
            sim.press()
        if sim.t < 1000 or sim.t % 50:
            continue
        for side in (sim.owner, sim.away):
            est = side.offset(sim.now("owner" if side is sim.owner else "away"))
            assert est is not None
            true = sim.away_ms() - sim.t
            assert abs(est.offset_ms - true) <= est.error_ms, (est, true)
            # the worst round trip, each arrival seen up to a tick late
            worst_rtt = to_owner + to_away + 2 * jitter + 2 * sim.tick_ms
            assert est.error_ms <= worst_rtt // 2 + 3
        converted = sim.owner.to_owner_ms(sim.away_ms(), sim.t)
        assert converted is not None and abs(converted[0] - sim.t) <= converted[1]
    sim.settle()
    _check_bound(sim)


def test_the_bound_is_tight_with_jitter_75_each_way() -> None:
    """With 75 ± 20 ms each way the best round trip of the window is near 110 ms."""
    sim = LineSim(Net(0.0, 0.0, 75, 75, 20), 7)
    sim.run(10_000)
    est = sim.owner.offset(sim.t)
    assert est is not None and est.error_ms <= 70


@SIM
@given(
    seed=st.integers(0, 2**32),
    cut_at=st.integers(1000, 5000),
    direction=st.sampled_from(["both", "to_owner", "to_away"]),
    delay=st.integers(20, 120),
)
def test_both_sides_find_a_cut_within_the_limit(
    seed: int, cut_at: int, direction: str, delay: int
) -> None:
    sim = LineSim(Net(0.0, 0.0, delay, delay, 10, (Cut(cut_at, 60_000, direction),)), seed)
    sim.run(cut_at + 3000)
    for name in ("owner", "away"):
        assert sim.cuts_seen[name], name
        assert sim.cuts_seen[name][0] <= cut_at + CUT_AFTER_MS + sim.tick_ms + (
            0 if direction == "both" else PING_EVERY_MS + delay + 30
        ), (name, sim.cuts_seen)
        assert sim.cuts_seen[name][0] >= cut_at  # no false cut before it


def test_both_sides_find_a_full_cut_within_cut_after_plus_a_tick() -> None:
    for cut_at in range(1000, 1300, 7):
        sim = LineSim(Net(0.0, 0.0, 75, 75, 20, (Cut(cut_at, 60_000),)), cut_at)
        sim.run(cut_at + 2000)
        for name in ("owner", "away"):
            (first, *_) = sim.cuts_seen[name]
            assert cut_at < first <= cut_at + CUT_AFTER_MS + sim.tick_ms


def test_inputs_during_a_cut_are_delivered_after_it_in_order() -> None:
    sim = LineSim(Net(0.0, 0.0, 75, 75, 20, (Cut(2000, 5000),)))
    sim.run(3000)
    assert sim.owner.state == "cut" and sim.away.state == "cut"
    taken = len(sim.owner.taken)
    during = [sim.press() for _ in range(3)]
    sim.run(4900)
    assert len(sim.owner.taken) == taken  # nothing judged while cut
    sim.run(5500)
    assert sim.owner.state == "waiting_for_referees" == sim.away.state
    assert [r.item for r in sim.owner.taken[-3:]] == during
    backs = [d for d in sim.decisions["away"] if isinstance(d, LineBack)]
    assert backs and backs[0].resend == 3
    sim.resume()
    sim.run(6000)
    assert sim.owner.state == "up" == sim.away.state  # the away side followed


@settings(SIM, max_examples=40)
@given(
    seed=st.integers(0, 2**32),
    crash_at=st.integers(0, 4000),
    name=st.sampled_from(["owner", "away"]),
)
def test_recover_after_a_crash_at_any_point_rebuilds_the_same(
    seed: int, crash_at: int, name: str
) -> None:
    sim = LineSim(Net(0.2, 0.2, 60, 90, 30, (Cut(1500, 2200),)), seed)
    while sim.t < crash_at:
        if sim.t % 90 == 0:
            sim.press()
        if sim.t % 140 == 0:
            sim.truth()
        sim.step()
    side = sim.owner if name == "owner" else sim.away
    before = side.durable()
    sim.crash(name)
    rebuilt = sim.owner if name == "owner" else sim.away
    assert rebuilt.durable() == before
    assert rebuilt.state == ("cut" if sim.journals[name] else "connecting")
    sim.settle()
    assert [r.item for r in sim.owner.taken] == sim.inputs
    assert [r.item for r in sim.away.taken] == sim.truths


def test_a_request_at_one_host_is_confirmed_at_the_other() -> None:
    """Each hall's referee commands their own host: the request travels on the line."""
    sim = LineSim(Net(0.0, 0.0, 75, 75, 20, (Cut(2000, 3000),)))
    sim.run(3500)
    assert sim.owner.state == "waiting_for_referees" == sim.away.state
    assert sim.away.resume_requested("hall-b", "wang", sim.away_ms()) == []
    (refused,) = sim.owner.resume_confirmed("hall-b", "liu", sim.t)  # not heard yet, and
    assert isinstance(refused, ResumeRefused)  # the same hall could not confirm anyway
    sim.run(3700)
    (refused,) = sim.owner.resume_confirmed("hall-b", "liu", sim.t)
    assert isinstance(refused, ResumeRefused) and "other hall" in refused.why
    out = sim.owner.resume_confirmed("hall-a", "zhang", sim.t)
    assert out[-1] == Resume(sim.t, LINK, ("hall-b:wang", "hall-a:zhang"))
    sim.run(4000)
    assert sim.away.state == "up" and sim.away.resumes == 1 == sim.owner.resumes
