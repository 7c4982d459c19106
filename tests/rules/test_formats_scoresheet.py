"""The printable score sheet: everything a referee signs is on it, in text and in HTML."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from test_record import records, sample_record

from wuzi.rules.errors import RecordFormatError
from wuzi.rules.formats import load
from wuzi.rules.formats.scoresheet import (
    clock_text,
    export_scoresheet_html,
    export_scoresheet_text,
)
from wuzi.rules.record import GameRecord, Player


def test_clock_text() -> None:
    assert clock_text(None) == ""
    assert clock_text(59_999) == "0:59"
    assert clock_text(2_700_000) == "45:00"
    assert clock_text(3_723_000) == "1:02:03"
    assert clock_text(-5_000) == "-0:05"


def test_text_sheet_carries_header_moves_events_result_and_signatures() -> None:
    text = export_scoresheet_text(sample_record())
    for expected in (
        "Event         Team final",
        "Round         4",
        "Table         12",
        "Game          2",
        "Black         Ana Kask, team Tallinn, id EE-3, second seat",
        "White         Li Wei, team Shanghai, id CN-17, first seat",
        "Rule set      renju, claim mode",
        "Time control  2700+30",
        "Opening       2D 溪月 Keigetsu (designated), set by lot",
        "Ana Kask (Tallinn) (Black): swap with 3 stones on the",
        "move 5, N = 2 (fixed): j10, k11; kept j10",
        "   1 h8        0:01    45:00  |   2 h9        0:03    44:59",
        "claims forbidden at j10 (33): correct. two threes",
        "clock pressed without a stone",
        "R. Li: pause: checking the board",
        "Result: 0-1  White wins (forbidden-33): Black's j10 makes two threes  at 0:12",
        "Black: Ana Kask",
        "Referee:",
    ):
        assert expected in text, expected
    assert all(len(line) <= 80 for line in text.splitlines()[:20])


def test_html_sheet_prints_on_a4_and_escapes_text() -> None:
    record = GameRecord(event="<Open> & Cup", first=Player(name="Bob <b>"))
    page = export_scoresheet_html(record)
    assert page.startswith("<!DOCTYPE html>")
    assert "@page { size: A4;" in page
    assert "&lt;Open&gt; &amp; Cup" in page and "Bob &lt;b&gt;" in page
    assert "Bob <b>" not in page and "<Open>" not in page
    assert "no moves" in page and "Game not finished" in page
    html = export_scoresheet_html(sample_record())
    assert html.count('class="line"') == 3  # Black, White, Referee
    assert "<td>j10</td>" in html


@settings(max_examples=30, deadline=None)
@given(records())
def test_any_record_makes_a_sheet(record: GameRecord) -> None:
    text = export_scoresheet_text(record)
    assert "Result:" in text and text.count("signature") == 3
    assert export_scoresheet_html(record).rstrip().endswith("</html>")


def test_a_score_sheet_cannot_be_read_back() -> None:
    with pytest.raises(RecordFormatError, match="written for people"):
        load("whatever", "sheet")
