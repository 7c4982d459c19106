"""``wuzi clock replay --control SPEC`` and ``wuzi clock check`` through the real command."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from wuzi.cli import main

KEYS = ["t_ms", "black_ms", "white_ms", "running", "moves", "flag"]


def replay(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    control: str,
    lines: str,
    *extra: str,
) -> tuple[int, list[dict[str, Any]], str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(lines))
    code = main(["clock", "replay", "--control", control, *extra])
    captured = capsys.readouterr()
    return code, [json.loads(line) for line in captured.out.splitlines()], captured.err


def state(
    t: int, black: int, white: int, running: str | None, moves: tuple[int, int], flag: Any = None
) -> dict[str, Any]:
    return {
        "t_ms": t,
        "black_ms": black,
        "white_ms": white,
        "running": running,
        "moves": {"black": moves[0], "white": moves[1]},
        "flag": flag,
    }


def test_contract_sudden_death_with_pause_adjust_and_tick(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    events = (
        "0 tick\n"
        "100 start\n"
        "1100 press\n"
        "3600 press\n"
        "4000 pause\n"
        "9000 resume\n"
        "9500 adjust white +2000\n"
        "9600 adjust black -400\n"
        "10000 tick\n"
    )
    code, out, err = replay(monkeypatch, capsys, "60", events)
    assert code == 0 and err == ""
    assert out == [
        state(0, 60000, 60000, None, (0, 0)),
        state(100, 60000, 60000, "black", (0, 0)),
        state(1100, 59000, 60000, "white", (1, 0)),
        state(3600, 59000, 57500, "black", (1, 1)),
        state(4000, 58600, 57500, None, (1, 1)),
        state(9000, 58600, 57500, "black", (1, 1)),
        state(9500, 58100, 59500, "black", (1, 1)),
        state(9600, 57600, 59500, "black", (1, 1)),
        state(10000, 57200, 59500, "black", (1, 1)),
    ]
    assert all(list(line) == KEYS for line in out)


def test_contract_fischer_from_move_one(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = replay(monkeypatch, capsys, "300+3", "0 start\n2000 press\n2500 press\n")
    assert code == 0
    assert out[1] == state(2000, 301000, 300000, "white", (1, 0))
    assert out[2] == state(2500, 301000, 302500, "black", (1, 1))


def test_contract_multi_period_time_at_the_completing_press(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = "0 start\n" + "".join(f"{t} press\n" for t in range(1000, 5000, 1000))
    code, out, _ = replay(monkeypatch, capsys, "2/60:30+5", lines)
    assert code == 0
    assert out[1] == state(1000, 59000, 60000, "white", (1, 0))  # one move: no time yet
    assert out[3] == state(3000, 58000 + 30000, 59000, "white", (2, 1))  # black's 2nd press
    assert out[4] == state(4000, 88000, 88000, "black", (2, 2))
    more = lines + "5000 press\n"  # black's first press in period 2: its increment
    code, out, _ = replay(monkeypatch, capsys, "2/60:30+5", more)
    assert out[5] == state(5000, 88000 - 1000 + 5000, 88000, "white", (3, 2))


def test_contract_flag_between_events_then_frozen(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    events = "0 start\n4000 press\n30000 tick\n31000 press\n32000 resume\n"
    code, out, err = replay(monkeypatch, capsys, "10+2", events)
    assert code == 0
    flag = {"side": "white", "t_ms": 14000}  # computed, not when the tick saw it
    assert out[2] == state(30000, 8000, 0, None, (1, 0), flag)
    assert out[3] == state(31000, 8000, 0, None, (1, 0), flag)  # a press changes nothing
    assert out[4] == out[3] | {"t_ms": 32000}
    assert "line 5: note: resume refused" in err and "give time" in err


def test_restart_after_a_flag_with_adjust_and_resume(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    events = "0 start\n12000 tick\n13000 adjust black +5000\n14000 resume\n15000 tick\n"
    code, out, _ = replay(monkeypatch, capsys, "10", events)
    assert code == 0
    flag = {"side": "black", "t_ms": 10000}
    assert out[2] == state(13000, 5000, 10000, None, (0, 0), flag)
    assert out[4] == state(15000, 4000, 10000, "black", (0, 0), flag)


def test_byo_yomi_ms_are_the_time_until_the_flag(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    events = "0 start\n12000 press\n12000 tick\n13000 press\n40000 tick\n"
    code, out, _ = replay(monkeypatch, capsys, "10:3x5", events, "--detail")
    assert code == 0
    assert out[0]["black_ms"] == 25000  # 10 s main + 3 periods of 5 s
    assert out[1]["black_ms"] == 15000  # 2 s into period 1, then the move reset it
    assert out[1]["detail"]["black"]["text"] == "5.0 [3]"
    assert out[4]["flag"] == {"side": "black", "t_ms": 13000 + 15000}
    assert list(out[0])[: len(KEYS)] == KEYS and "detail" in out[0]


def test_refused_events_are_noted_and_change_nothing(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    events = "0 start\n1000 resume\n2000 adjust white -70000\n3000 press\n"
    code, out, err = replay(monkeypatch, capsys, "60", events)
    assert code == 0
    assert out[1] == state(1000, 59000, 60000, "black", (0, 0))
    assert out[2] == state(2000, 58000, 60000, "black", (0, 0))
    assert "line 2: note: resume refused: the clock is not paused" in err
    assert "line 3: note: adjust refused: white: cannot remove 70000 ms" in err


def test_presses_before_start_and_while_paused_change_nothing(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    events = "0 press\n10 start\n20 pause\n30 press\n40 resume\n# a comment\n\n50 press\n"
    code, out, err = replay(monkeypatch, capsys, "60", events)
    assert code == 0 and err == ""
    assert [line["t_ms"] for line in out] == [0, 10, 20, 30, 40, 50]
    assert out[0] == state(0, 60000, 60000, None, (0, 0))
    assert out[3] == state(30, 59990, 60000, None, (0, 0))
    assert out[5] == state(50, 59980, 60000, "white", (1, 0))


def test_extensions(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    events = (
        "0 start\n1000 press white\n2000 set black 30000\n3000 switch white\n"
        "4000 moves white 5\n5000 pause venue\n6000 resume venue\n7000 end\n8000 press\n"
    )
    code, out, _ = replay(monkeypatch, capsys, "60", events)
    assert code == 0
    assert out[1]["running"] == "black"  # white's button while black's clock runs
    assert out[2]["black_ms"] == 30000
    assert out[3]["running"] == "white"
    assert out[4]["moves"] == {"black": 0, "white": 5}
    assert out[5]["running"] is None and out[6]["running"] == "white"
    assert out[7] == out[8] | {"t_ms": 7000}
    assert out[7] == state(7000, 29000, 57000, None, (0, 5))


@pytest.mark.parametrize(
    ("lines", "words"),
    [
        ("0 start\n10 prss\n", "line 2: unknown event 'prss'"),
        ("0 start\nabc press\n", "line 2: t_ms 'abc' is not a whole number"),
        ("0 start\n-5 press\n", "line 2: t_ms '-5'"),
        ("0 start\n10\n", "line 2: an event is missing after 10"),
        ("0 start\n10 adjust black 500\n", "line 2: amount '500' is not +<ms> or -<ms>"),
        ("0 start\n10 adjust red +500\n", "line 2: side 'red' is not black or white"),
        ("0 start\n10 adjust black\n", "line 2: expected '<t_ms> adjust black|white +<ms>|-<ms>'"),
        ("0 start\n10 tick now\n", "line 2: expected '<t_ms> tick'"),
        (
            "0 start\n\n10 press\n5 press\n",
            "line 4: time 5 is earlier than the previous line's (10)",
        ),
    ],
)
def test_malformed_lines_exit_1_naming_the_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], lines: str, words: str
) -> None:
    code, out, err = replay(monkeypatch, capsys, "60", lines)
    assert code == 1
    assert words in err
    assert out[0]["t_ms"] == 0  # the lines before were printed


def test_bad_control(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = replay(monkeypatch, capsys, "40/", "0 start\n")
    assert code == 1 and out == []
    assert "--control: time control '40/': field 1" in err


def test_check(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["clock", "check", "40/5400:1800+30"]) == 0
    assert capsys.readouterr().out == (
        "40/5400:1800+30: 40 moves in 1 h 30 min, then 30 min with 30 s added per move\n"
    )
    assert main(["clock", "check", "3600+x"]) == 1
    assert "character 6 'x'" in capsys.readouterr().err


def test_clock_alone_prints_help(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["clock"]) == 2
    assert "replay" in capsys.readouterr().out


def test_the_installed_command() -> None:
    wuzi = Path(sys.executable).parent / "wuzi"
    command = [str(wuzi)] if wuzi.exists() else [sys.executable, "-m", "wuzi.cli"]
    done = subprocess.run(
        [*command, "clock", "replay", "--control", "2700+30"],
        input="0 start\n1000 press\n500 press\n",
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 1
    assert [json.loads(line)["t_ms"] for line in done.stdout.splitlines()] == [0, 1000]
    assert json.loads(done.stdout.splitlines()[1]) == state(1000, 2729000, 2700000, "white", (1, 0))
    assert "line 3" in done.stderr


@pytest.mark.parametrize(
    ("lines", "words"),
    [
        (
            "0 start\n99999999999999999999 press\n",
            "line 2: t_ms '99999999999999999999' is more than 9223372036854 ms",
        ),
        (
            "0 start\n" + "9" * 4000 + " press\n",
            "line 2: t_ms '99999999999999999999… (4000 characters)'",
        ),
        ("0 start\n" + "9" * 5000 + " press\n", "line 2: the line is longer than 4096"),
        ("0 start\n#" + "x" * 10**6 + "\n", "line 2: the line is longer than 4096"),
        (
            "0 start\n5 adjust black +86400001\n",
            "line 2: amount '+86400001' is more than 86400000 ms (24 h)",
        ),
        (
            "0 start\n5 adjust white -99999999999999999999\n",
            "line 2: amount '-99999999999999999999'",
        ),
        ("0 start\n5 set black 86400001\n", "line 2: amount '86400001' is more than 86400000"),
        ("0 start\n5 moves black 1001\n", "line 2: the number of moves '1001' is more than 1000"),
    ],
)
def test_limits_exit_1_naming_the_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], lines: str, words: str
) -> None:
    code, out, err = replay(monkeypatch, capsys, "60", lines)
    assert code == 1
    assert words in err
    assert len(out) == 1 and out[0]["t_ms"] == 0


def test_limits_themselves_are_taken(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = replay(
        monkeypatch, capsys, "60", "0 start\n5 adjust black +86400000\n9223372036854 tick\n"
    )
    assert code == 0
    assert out[1]["black_ms"] == 60_000 - 5 + 86_400_000
    assert out[2]["t_ms"] == 9_223_372_036_854


def test_bytes_that_are_not_utf8_name_the_line() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "wuzi.cli", "clock", "replay", "--control", "60"],
        input=b"0 start\n\xff\xfe press\n",
        capture_output=True,
        check=False,
    )
    assert done.returncode == 1
    assert b"line 2: it is not UTF-8 text (byte 1 is 0xff)" in done.stderr
    assert b"Traceback" not in done.stderr
