"""The one alert vocabulary (``wuzi.table.alerts``) and how a board alert input is read."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from wuzi.rules.board import parse_point
from wuzi.table import outputs
from wuzi.table.alerts import BOARD_REASONS, BOARD_TROUBLES, AlertReason, board_alert_reason
from wuzi.table.checks import TableError
from wuzi.table.inputs import BoardAlert, TableSetup
from wuzi.table.outputs import RefereeAlert
from wuzi.table.session import TableSession

TABLE = Path(__file__).resolve().parents[2] / "host" / "wuzi" / "table"


def test_the_reasons_a_board_alert_names_are_the_journals_words() -> None:
    """Journals hold a board alert's kind as these words: they never change."""
    assert {r.value for r in BOARD_REASONS} == {"removed", "moved", "two_stones", "wrong_colour"}
    assert outputs.AlertReason is AlertReason  # one enum, whichever module it is taken from


@pytest.mark.parametrize("word", sorted(r.value for r in BOARD_REASONS))
def test_a_board_alert_naming_a_board_reason_raises_it(word: str) -> None:
    assert board_alert_reason(word) is AlertReason(word)


@pytest.mark.parametrize("word", sorted(BOARD_TROUBLES))
def test_every_other_board_trouble_is_a_board_alert(word: str) -> None:
    assert board_alert_reason(word) is AlertReason.BOARD


@pytest.mark.parametrize(
    ("kind", "match"),
    [
        ("", "unknown board alert kind"),
        ("Removed", "unknown board alert kind"),
        ("two stones", "unknown board alert kind"),
        (None, "unknown board alert kind"),
        ("exploded", "unknown board alert kind"),
        ("forbidden", "a reason only the table raises"),
        ("board", "a reason only the table raises"),
        ("host_restarted", "a reason only the table raises"),
    ],
)
def test_a_board_alert_cannot_pass_for_the_game_or_the_host(kind: object, match: str) -> None:
    with pytest.raises(TableError, match=match):
        board_alert_reason(kind)


def test_the_session_quotes_the_boards_word_for_a_trouble() -> None:
    s = TableSession(TableSetup(opening="free"), 0)
    a1 = parse_point("a1")
    out = s.handle(BoardAlert(now_ns=1, kind="occupied", points=(a1,), detail="3 degrees"))
    assert out == [RefereeAlert(1, AlertReason.BOARD, "board occupied a1: 3 degrees", (a1,))]


def test_the_table_imports_nothing_of_the_board_link() -> None:
    """The host translates the link's reports (``wuzi.host.link_events``); the table session
    knows only its own inputs and words."""
    for path in sorted(TABLE.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            wrong = [n for n in names if n == "wuzi.link" or n.startswith("wuzi.link.")]
            assert not wrong, f"{path.name} imports {wrong}"
