"""The showcase (`wuzi demo --showcase`) plays its game to the end."""

from __future__ import annotations

import io
from pathlib import Path

from wuzi.rules.formats import load
from wuzi.sim.showcase import play


def test_showcase_ends_with_the_claimed_double_three(tmp_path: Path) -> None:
    out = io.StringIO()
    assert play(tmp_path, out) == 0
    text = out.getvalue()
    # the equivalent offer is refused at once and the game goes on
    assert "refused  place g10" in text and "equivalent to the offer g8" in text
    # the referee's private channel sees the foul before anyone claims it
    assert text.index("── referee only ──") < text.index("CLAIM by White on e8: correct")
    assert "0-1  White wins (forbidden-33)" in text
    record = load((tmp_path / "showcase-json.json").read_text(encoding="utf-8"), "json")
    assert record.result is not None and record.result.winner == "white"
    assert record.opening is not None and record.opening.label == "1D 寒星 Kansei"
    sgf = load((tmp_path / "showcase-sgf.sgf").read_text(encoding="utf-8"), "sgf")
    assert sgf == record
    assert [m.point for m in record.moves][-1] is not None
