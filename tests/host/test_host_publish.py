"""What the host publishes: nothing that helps a player reaches a public topic; the table
state maps seats to colours; alerts go to the referees only."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import pytest

from wuzi.bus import topics
from wuzi.bus.schemas import (
    MAX_ALERT_TEXT,
    MAX_OPEN_ALERTS,
    Assignment,
    RefereeState,
    TableEvent,
    TableState,
    encode,
    parse_message,
)
from wuzi.host import publish
from wuzi.host.publish import Audience, PublishError
from wuzi.rules.board import Colour, parse_point
from wuzi.rules.procedure import Seat
from wuzi.table import codec
from wuzi.table.inputs import (
    Adjourn,
    BoardAlert,
    RefereePause,
    SetResult,
    TableInput,
    TableSetup,
    Tick,
)
from wuzi.table.outputs import (
    AlertReason,
    PlayerOutput,
    RefereeAlert,
    RefereeOutput,
    TableOutput,
)
from wuzi.table.session import TableSession

S = 1_000_000_000
B, W = Colour.BLACK, Colour.WHITE
FIRST, SECOND = Seat.FIRST, Seat.SECOND
VENUE, HOST, TABLE = "hall", "pi-1", 3
T0 = 1000 * S  # the session's start on the host's monotonic base
WALL0_MS = 1_700_000_000_000  # the wall time at T0


def junk(value: object) -> Any:
    """A wrong value, passed where the types say it cannot go (the checks must catch it)."""
    return value


def P(name: str) -> int:
    return parse_point(name)


def assignment(**changes: object) -> Assignment:
    fields: dict[str, object] = {
        "table": TABLE,
        "game_id": "r1-b2-g1",
        "black": "Lin Yu",
        "white": "Ana Berg",
        "rule_set": "renju",
        "opening": "chinese-2013",
        "opening_settings": {},
        "time_control": "2700+30",
        "board": 2,
        "game_in_match": 1,
        "playoff": False,
        "issued_ms": 5,
    }
    fields.update(changes)
    return Assignment(**fields)  # type: ignore[arg-type]


@dataclass
class Host:
    """The publishing part of a host shell, for one table, in the test: every output
    becomes one event (public ones numbered 1, 2, 3… among themselves, referee ones by
    the journal's seq), then the states; every message lands in ``sent``."""

    setup: TableSetup
    now: int = T0
    journal_seq: int = 0
    public_seq: int = 0
    open_alerts: list[tuple[str, RefereeAlert]] = field(default_factory=list)
    sent: list[tuple[str, bytes]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.session = TableSession(self.setup, self.now)
        self.assignment = assignment(rule_set=self.setup.ruleset)
        self.journal_seq += 1  # the SessionStarted input
        self.publish(self.session.take_outputs())

    def wall_ms(self, ns: int) -> int:
        return WALL0_MS + (ns - T0) // 1_000_000

    def send(self, topic: str, message: TableEvent | TableState | RefereeState) -> None:
        payload = encode(message)
        assert parse_message(topic, payload) == message  # receivers accept it
        self.sent.append((topic, payload))

    def publish(self, outputs: Sequence[TableOutput]) -> None:
        public = False
        for out in outputs:
            self.journal_seq += 1
            assert isinstance(out, PlayerOutput | RefereeOutput)
            kind, data = codec.encode_output(out)
            if publish.route(kind) is Audience.REFEREE:
                assert isinstance(out, RefereeAlert)
                event_id, seq = f"{HOST}/{TABLE}/{self.journal_seq}", self.journal_seq
                self.open_alerts.append((event_id, out))
            else:
                self.public_seq += 1
                public = True
                event_id = f"{HOST}/{TABLE}/r1-b2-g1/{self.public_seq}"
                seq = self.public_seq
            event = publish.event_message(
                event_id=event_id,
                table=TABLE,
                game_id="r1-b2-g1",
                seq=seq,
                kind=kind,
                at_ms=self.wall_ms(out.at_ns),
                data=data,
            )
            self.send(publish.event_topic(VENUE, TABLE, kind), event)
        if public:
            self.send(topics.table_state(VENUE, TABLE), self.state())
        self.send(topics.arbiter_state(VENUE, TABLE), self.referee())

    def state(self) -> TableState:
        return publish.table_state(
            table=TABLE,
            assignment=self.assignment,
            session=self.session,
            seq=self.public_seq,
            now_ns=self.now,
            at_ms=self.wall_ms(self.now),
        )

    def referee(self) -> RefereeState:
        return publish.referee_state(
            table=TABLE,
            assignment=self.assignment,
            session=self.session,
            seq=self.journal_seq,
            open_alerts=self.open_alerts,
            at_ms=self.wall_ms(self.now),
        )

    def tick(self) -> int:
        self.now += S
        return self.now

    def act(self, method: str, *args: object) -> None:
        self.journal_seq += 1  # the input
        self.publish(getattr(self.session, method)(self.tick(), *args))

    def feed(self, make: type[TableInput], **fields: object) -> None:
        self.journal_seq += 1
        self.publish(self.session.handle(make(now_ns=self.tick(), **fields)))

    def move(self, name: str, colour: Colour, seat: Seat) -> None:
        self.act("stone", P(name), colour)
        self.act("press", seat)

    def public(self) -> list[tuple[str, bytes]]:
        return [(t, p) for t, p in self.sent if topics.parse_topic(t).kind not in REFEREE]

    def referee_messages(self) -> list[tuple[str, bytes]]:
        return [(t, p) for t, p in self.sent if topics.parse_topic(t).kind in REFEREE]


REFEREE = topics.REFEREE_ONLY


def chinese_opening(h: Host, *, decision: str = "stay") -> None:
    """B1 h8, W2 h9, B3 h10 by the opener, the decision, W4 a1, offers j8 g12, j8 kept."""
    for name, colour in (("h8", B), ("h9", W), ("h10", B)):
        h.move(name, colour, FIRST)
    h.act("decide", SECOND, decision)
    h.act("press", SECOND)
    h.move("a1", W, SECOND if decision == "stay" else FIRST)


def to_double_three(h: Host) -> None:
    chinese_opening(h)
    h.act("stone", P("j8"), B)
    h.act("stone", P("g12"), B)
    h.act("press", FIRST)
    h.act("choose", SECOND, P("j8"))
    h.act("press", SECOND)
    h.feed(BoardAlert, kind="removed", points=(P("g12"),))
    h.move("a3", W, SECOND)  # W6
    h.move("j10", B, FIRST)  # B7
    h.move("a5", W, SECOND)  # W8
    h.move("i9", B, FIRST)  # B9: a double-three
    h.move("a7", W, SECOND)  # W10: the game goes on, White has not seen it


# --- nobody is helped -------------------------------------------------------------------


def test_a_double_three_reaches_the_referees_and_nobody_else() -> None:
    renju = Host(TableSetup(opening="chinese-2013", ruleset="renju"))
    to_double_three(renju)
    i9 = P("i9")

    # The referees know at once, with the point.
    alerts = [
        json.loads(p)
        for t, p in renju.referee_messages()
        if topics.parse_topic(t).kind is topics.TopicKind.ARBITER_ALERTS
    ]
    forbidden = [a for a in alerts if a["data"]["reason"] == "forbidden"]
    assert len(forbidden) == 1 and i9 in forbidden[0]["data"]["points"]
    state = parse_message(topics.arbiter_state(VENUE, TABLE), renju.referee_messages()[-1][1])
    assert isinstance(state, RefereeState)
    assert [(a.reason, i9 in a.points) for a in state.alerts] == [("forbidden", True)]

    # Nothing on a public topic says so: not the word, and the stream is byte for byte
    # the one the same game makes where a double-three is allowed.
    public = renju.public()
    assert public and all(b"forbidden" not in p.lower() for _, p in public)
    free = Host(TableSetup(opening="chinese-2013", ruleset="no-forbidden"))
    free.assignment = renju.assignment
    to_double_three(free)
    reasons = [
        json.loads(p)["data"]["reason"] for _, p in free.referee_messages() if b'"alert"' in p
    ]
    assert "forbidden" not in reasons
    assert free.public() == public
    # i9 appears in public only as the stone that stands there (move 9).
    last = parse_message(topics.table_state(VENUE, TABLE), public[-1][1])
    assert isinstance(last, TableState) and last.moves.index(i9) == 8
    assert last.status == "playing" and last.result is None


def test_the_public_numbers_have_no_gaps_where_alerts_sit() -> None:
    h = Host(TableSetup(opening="chinese-2013"))
    to_double_three(h)
    events = [
        json.loads(p)
        for t, p in h.public()
        if topics.parse_topic(t).kind is topics.TopicKind.TABLE_EVENTS
    ]
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
    assert len({e["event_id"] for e in events}) == len(events)
    states = [json.loads(p) for t, p in h.public() if t.endswith("/state")]
    assert states[-1]["seq"] == len(events)
    assert all(e["kind"] != "alert" for e in events)


def test_an_unannounced_five_stays_with_the_referees() -> None:
    h = Host(TableSetup(opening="free"))
    for i, col in enumerate("hijkl"):
        h.move(f"{col}8", B, FIRST)
        if i < 4:
            h.move(f"{col}1", W, SECOND)
    referee = [json.loads(p) for _, p in h.referee_messages() if b'"kind":"alert"' in p]
    assert any(a["data"]["reason"] == "five" for a in referee)
    public = h.public()
    assert all(b"five" not in p.lower() for _, p in public)
    state = h.state()
    assert state.status == "playing" and state.result is None
    # Once announced the result is public; the claim's proof stays with the referees.
    h.act("claim", FIRST, "five")
    assert h.state().status == "finished" and h.state().result == "1-0"
    judged = [
        json.loads(p)
        for _, p in h.referee_messages()
        if b'"kind":"alert"' in p and b"claim_judged" in p
    ]
    assert judged


def test_every_output_kind_is_routed_by_its_audience() -> None:
    assert set(codec.OUTPUT_KINDS) == publish.PUBLIC_KINDS | publish.REFEREE_KINDS
    for kind, cls in codec.OUTPUT_KINDS.items():
        expected = Audience.REFEREE if issubclass(cls, RefereeOutput) else Audience.TABLE
        assert issubclass(cls, PlayerOutput) != issubclass(cls, RefereeOutput)
        assert publish.route(kind) is expected, kind
    assert publish.event_topic(VENUE, 3, "alert") == "wuzi/v1/hall/arbiter/table/3/alerts"
    assert publish.event_topic(VENUE, 3, "move") == "wuzi/v1/hall/table/3/events"


@pytest.mark.parametrize("kind", ["claim-proof", "forbidden", "", "Alert", "moves"])
def test_an_unclassified_kind_is_refused_not_made_public(kind: str) -> None:
    with pytest.raises(PublishError, match="neither public"):
        publish.route(kind)
    with pytest.raises(PublishError, match="neither public"):
        publish.event_message(
            event_id="e1", table=3, game_id="g", seq=1, kind=kind, at_ms=0, data={}
        )


# --- the table state ---------------------------------------------------------------------


def test_an_idle_table_shows_its_assignment() -> None:
    state = publish.table_state(
        table=TABLE, assignment=assignment(), session=None, seq=0, now_ns=0, at_ms=7
    )
    assert state == TableState(
        table=TABLE,
        game_id="r1-b2-g1",
        seq=0,
        status="idle",
        moves=(),
        black_ms=0,
        white_ms=0,
        running=None,
        result=None,
        at_ms=7,
        black="Lin Yu",
        white="Ana Berg",
        offers=(),
        board=2,
        game_in_match=1,
    )
    bare = publish.table_state(table=9, assignment=None, session=None, seq=0, now_ns=0, at_ms=0)
    assert (bare.game_id, bare.black, bare.board, bare.game_in_match) == (None, "", None, None)
    standalone = publish.table_state(
        table=9, assignment=None, session=None, seq=0, now_ns=0, at_ms=0, game_id="solo-1"
    )
    assert standalone.game_id == "solo-1"


def test_clocks_names_and_the_result_follow_the_colours_after_a_swap() -> None:
    h = Host(TableSetup(opening="chinese-2013", time_control="2700+30"))
    chinese_opening(h, decision="swap")  # the second seat takes Black
    assert h.session.game.seat_of(B) is SECOND
    state = h.state()
    assert (state.black, state.white) == ("Ana Berg", "Lin Yu")
    clock = h.session.clock
    assert state.black_ms == clock.remaining_ns(SECOND, h.now) // 1_000_000
    assert state.white_ms == clock.remaining_ns(FIRST, h.now) // 1_000_000
    assert state.black_ms != state.white_ms
    running = clock.at(h.now).running
    assert running is not None
    assert state.running == h.session.game.colour_of(running).label
    assert state.moves == (P("h8"), P("h9"), P("h10"), P("a1"))
    h.feed(SetResult, winner=FIRST, reason="resignation")
    final = h.state()
    assert (final.status, final.result, final.running) == ("finished", "0-1", None)  # White won


def test_a_draw_and_a_black_win() -> None:
    draw = Host(TableSetup(opening="free"))
    draw.feed(SetResult, winner=None, reason="agreement")
    assert draw.state().result == "1/2-1/2"
    black = Host(TableSetup(opening="free"))
    black.feed(SetResult, winner=FIRST, reason="forfeit")
    assert black.state().result == "1-0"


def test_offers_are_shown_apart_from_the_moves() -> None:
    h = Host(TableSetup(opening="chinese-2013"))
    chinese_opening(h)
    h.act("stone", P("j8"), B)
    h.act("stone", P("g12"), B)
    state = h.state()
    assert state.offers == (P("j8"), P("g12"))
    assert P("j8") not in state.moves
    h.act("press", FIRST)
    h.act("choose", SECOND, P("j8"))
    state = h.state()
    assert state.offers == () and state.moves[-1] == P("j8")


def test_paused_and_adjourned() -> None:
    h = Host(TableSetup(opening="free"))
    assert h.state().status == "playing"
    h.feed(RefereePause, reason="a question")
    assert h.state().status == "paused" and h.state().running is None
    a = Host(TableSetup(opening="free"))
    a.feed(Adjourn, reason="lunch")
    assert a.state().status == "adjourned" and a.state().running is None
    assert publish.table_status(a.session) == "adjourned"
    assert publish.table_status(None) == "idle"


def test_a_flag_during_the_offers_is_published_paused_at_once() -> None:
    """Issue 32: Black's flag falls between two fifth-move offers. The timer's tick alone
    publishes the state (a public ``clock`` event): ``paused``, nothing running, Black at
    0; the second offer put down later is not taken and the state stays so."""
    h = Host(TableSetup(opening="chinese-2013", time_control="60"))
    chinese_opening(h)
    h.act("stone", P("j8"), B)
    h.act("press", FIRST)
    assert h.state().status == "playing" and h.state().running == "black"
    flag_ns = h.session.next_due_ns()
    assert flag_ns is not None
    h.now = flag_ns
    sent = len(h.sent)
    h.feed(Tick)  # one second after the flag: the host's timer
    states = [p for t, p in h.sent[sent:] if t == topics.table_state(VENUE, TABLE)]
    assert len(states) == 1, h.sent[sent:]
    state = parse_message(topics.table_state(VENUE, TABLE), states[0])
    assert isinstance(state, TableState)
    assert (state.status, state.running, state.black_ms) == ("paused", None, 0)
    h.act("stone", P("g12"), B)
    state = h.state()
    assert state.offers == (P("j8"),) and state.status == "paused"


def test_a_state_built_between_the_flag_and_the_next_input_says_paused() -> None:
    """A state published before the timer's tick (a republish on a reconnect, say) says
    what its clocks say: nothing runs, the game is paused."""
    h = Host(TableSetup(opening="free", time_control="60"))
    h.move("h8", B, FIRST)
    flag_ns = h.session.next_due_ns()
    assert flag_ns is not None
    h.now = flag_ns + 1
    assert h.session.clock.state.holds == ()  # not on record yet: no input since
    state = h.state()
    assert (state.status, state.running, state.white_ms) == ("paused", None, 0)
    assert publish.table_status(h.session) == "playing"  # as of the last input
    assert publish.table_status(h.session, h.now) == "paused"


def test_bad_arguments_say_what_is_wrong() -> None:
    h = Host(TableSetup(opening="free"))
    with pytest.raises(PublishError, match="for table 3, not table 4"):
        publish.table_state(
            table=4, assignment=h.assignment, session=None, seq=0, now_ns=0, at_ms=0
        )
    with pytest.raises(PublishError, match="table number must be"):
        publish.table_state(table=0, assignment=None, session=None, seq=0, now_ns=0, at_ms=0)
    with pytest.raises(PublishError, match="field 'seq'"):
        publish.table_state(table=3, assignment=None, session=None, seq=-1, now_ns=0, at_ms=0)
    with pytest.raises(PublishError, match="session must be a TableSession"):
        publish.table_state(
            table=3,
            assignment=None,
            session=junk("s"),
            seq=0,
            now_ns=0,
            at_ms=0,
        )
    with pytest.raises(PublishError, match="now_ns must be an integer"):
        publish.table_state(
            table=3,
            assignment=None,
            session=h.session,
            seq=0,
            now_ns=junk(1.5),
            at_ms=0,
        )
    with pytest.raises(PublishError, match="field 'data'"):
        publish.event_message(
            event_id="e1",
            table=3,
            game_id="g",
            seq=1,
            kind="move",
            at_ms=0,
            data=junk([]),
        )
    with pytest.raises(PublishError, match="survive encoding"):
        publish.event_message(
            event_id="e1", table=3, game_id="g", seq=1, kind="move", at_ms=0, data={"p": (1,)}
        )
    with pytest.raises(PublishError, match="field 'event_id'"):
        publish.event_message(
            event_id="a b", table=3, game_id="g", seq=1, kind="move", at_ms=0, data={}
        )


# --- the referee state ---------------------------------------------------------------


def test_the_referee_state_shows_the_waiting_stone_and_the_infractions() -> None:
    h = Host(TableSetup(opening="free"))
    h.act("press", FIRST)  # a press without a stone: an infraction
    h.act("stone", P("h8"), B)
    state = h.referee()
    assert state.pending_stone == P("h8")
    assert (state.infractions_first, state.infractions_second) == (1, 0)
    assert [a.reason for a in state.alerts] == ["press_without_stone"]
    assert state.alerts[0].event_id == h.open_alerts[0][0] and state.alerts[0].seat == "first"
    assert h.state().moves == ()  # the waiting stone is not a move yet


def test_open_alerts_are_capped_deduplicated_and_cut() -> None:
    long = RefereeAlert(0, AlertReason.FIVE, "x" * (MAX_ALERT_TEXT + 50), (5, 6, 5), Seat.SECOND)
    many = [(f"pi-1/3/{n}", long) for n in range(MAX_OPEN_ALERTS + 7)]
    state = publish.referee_state(table=3, session=None, seq=99, open_alerts=many, at_ms=0)
    assert len(state.alerts) == MAX_OPEN_ALERTS and state.alerts_omitted == 7
    assert state.alerts[0].event_id == "pi-1/3/7"  # the newest are kept
    assert state.alerts[0].points == (5, 6)
    assert len(state.alerts[0].text) == MAX_ALERT_TEXT and state.alerts[0].text.endswith("…")
    assert state.status == "idle" and state.pending_stone is None
    with pytest.raises(PublishError, match="RefereeAlert"):
        publish.referee_state(
            table=3,
            session=None,
            seq=0,
            open_alerts=[("e", junk("text"))],
            at_ms=0,
        )
