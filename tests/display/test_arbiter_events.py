"""The arbiter view in a hall of several events (issue 35): every alert and the focused
table name their event; ``--event`` keeps the view to one event's tables."""

from __future__ import annotations

from pathlib import Path

import pytest

from wuzi.bus import topics
from wuzi.bus.schemas import CompetitionState, HostStatus, OpenAlert, RefereeState
from wuzi.cli import main
from wuzi.config.venue import load_venue
from wuzi.display.arbiter_cli import FILTERS, venue_tables
from wuzi.display.arbiter_model import ArbiterModel
from wuzi.display.sample_hall import HALL_VENUE, sample_hall_messages
from wuzi.rules.ruleset import RuleSet

V = HALL_VENUE
NOW = 10_000_000
EXAMPLE = Path(__file__).resolve().parents[2] / "deploy" / "venue.example.toml"


def forbidden(table: int) -> RefereeState:
    alert = OpenAlert(f"pi/{table}/9", "forbidden", "禁手 double three", (112,), "first")
    return RefereeState(table, f"g{table}", 9, "playing", (alert,), 0, None, 0, 0, 1)


def hall(**kw: object) -> ArbiterModel:
    """The sample hall (men 1-8, women 9-12, open 13-20) with a forbidden-move alert at
    tables 3 (men), 10 (women) and 14 (open), and host pi-2 (tables 9-14) offline."""
    model = ArbiterModel(**kw)  # type: ignore[arg-type]
    for topic, message in sample_hall_messages():
        model.apply(topic, message, NOW)
    for table in (3, 10, 14):
        model.apply(topics.arbiter_state(V, table), forbidden(table), NOW)
    down = HostStatus("pi-2", False, tuple(range(9, 15)), "boot-pi-2", 5, ())
    model.apply(topics.host_status(V, "pi-2"), down, NOW)
    return model


def test_every_alert_names_its_tables_event() -> None:
    alerts = hall().alerts(NOW)
    named = {(a.table, a.kind): a.event for a in alerts}
    assert named[(3, "forbidden")] == "男子组 Men's group"
    assert named[(10, "forbidden")] == "女子组 Women's group"
    assert named[(14, "forbidden")] == "公开组 Open group"
    assert named[(9, "host_offline")] == "女子组 Women's group"  # the host's first table


def test_event_keeps_to_its_tables() -> None:
    model = hall(event="men", focus=3)
    frame = model.frame(NOW)
    assert [(a.table, a.kind) for a in frame.alerts] == [(3, "forbidden")]  # pi-2 serves none
    assert frame.tables == tuple(range(1, 9))
    assert frame.event == "男子组 Men's group"
    assert frame.board is not None and frame.board.event == "男子组 Men's group"
    assert frame.board.clock is not None and frame.board.clock.title.endswith("Men's group")
    women = hall(event="women").frame(NOW)
    assert {(a.table, a.kind) for a in women.alerts} == {(10, "forbidden"), (9, "host_offline")}
    model.cycle_focus(1)
    assert model.focus == 4
    model.focus = 8
    model.cycle_focus(1)
    assert model.focus == 1  # round the men's tables, never into the women's


def test_without_event_every_table() -> None:
    frame = hall().frame(NOW)
    assert frame.tables == tuple(range(1, 21)) and frame.event == ""
    assert {a.table for a in frame.alerts if a.kind == "forbidden"} == {3, 10, 14}


def test_a_table_of_no_known_event_stays_in_view_and_the_venue_file_tells() -> None:
    model = ArbiterModel(event="men")
    model.apply(topics.arbiter_state(V, 30), forbidden(30), NOW)  # no game, no file: unknown
    assert [a.table for a in model.alerts(NOW)] == [30]
    model = ArbiterModel(event="men", table_events={30: "open"})
    model.apply(topics.arbiter_state(V, 30), forbidden(30), NOW)
    assert model.alerts(NOW) == ()


def test_the_competition_names_the_event() -> None:
    model = ArbiterModel(table_events={5: "men"})
    model.apply(topics.arbiter_state(V, 5), forbidden(5), NOW)
    assert model.alerts(NOW)[0].event == "men"  # only the id is known
    summary = next(m for t, m in sample_hall_messages() if t.endswith("/men/state"))
    assert isinstance(summary, CompetitionState)
    assert model.apply(topics.competition_state(V, "men"), summary, NOW)
    assert model.alerts(NOW)[0].event == "男子组 Men's group"
    assert "competition/#" in FILTERS


def test_the_rules_of_a_table_of_the_open_group_from_the_venue_file() -> None:
    model = ArbiterModel(table_rules={14: RuleSet.parse("freestyle")})
    assert str(model.rule_set(14)) == "freestyle"
    assert str(model.rule_set(3)) == "renju"  # the view's default


def two_event_venue(tmp_path: Path) -> Path:
    text = EXAMPLE.read_text(encoding="utf-8").replace(
        'database = "director.sqlite"', "# database: per event"
    )
    text += """
[[events]]
id = "men"
name = "男子组"
database = "men.sqlite"
tables = "1-2"

[[events]]
id = "open"
name = "公开组"
database = "open.sqlite"
tables = "3-4"
ruleset = "freestyle"
"""
    path = tmp_path / "venue.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_venue_tables_from_the_file(tmp_path: Path) -> None:
    events, rules = venue_tables(load_venue(two_event_venue(tmp_path)))
    assert events == {1: "men", 2: "men", 3: "open", 4: "open"}
    assert {n: str(r) for n, r in rules.items()} == {
        1: "renju",
        2: "renju",
        3: "freestyle",
        4: "freestyle",
    }


@pytest.mark.parametrize(("event", "message"), [("Men!", "--event"), ("women", "no event 'women'")])
def test_a_bad_event_is_refused(
    tmp_path: Path, event: str, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    venue = two_event_venue(tmp_path)
    args = ["arbiter", "--config", str(venue), f"--event={event}", "--snapshot", "x.png"]
    assert main(args) == 1
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_snapshot_of_one_event(tmp_path: Path) -> None:
    from wuzi.display.sample import state_json

    state = tmp_path / "hall.json"
    state.write_text(state_json(sample_hall_messages()), encoding="utf-8")
    out = tmp_path / "arbiter.png"
    args = ["arbiter", "--state", str(state), "--event", "women", "--snapshot", str(out)]
    assert main([*args, "--table", "10"]) == 0
    assert out.stat().st_size > 10_000
