"""Every ``wuzi`` command that reads a file or stdin, fed random and hostile input.

Issue 19: no bad input of any command may end in a traceback. Each command here reads what
a user or a script hands it — stdin (``rules forbidden``, ``clock replay``, ``rules record
convert -``), a file (records, a tournament CSV, a venue file, a database, a saved screen
state) or an argument that is parsed (a time control). It gets a fixed list of hostile
inputs (empty, NUL, bytes that are not UTF-8, numbers of thousands of digits, a line of
hundreds of kB, JSON and TOML nested 100 000 deep, TOML garbage) and then what hypothesis
makes: random bytes, and a valid input of its kind with hostile pieces put in, cut out or
a number replaced. The check: the exit status is 0, 1 or 2 and nothing on stderr (nor in
the log) is a traceback.

The commands run in this process through ``wuzi.cli.main(argv)`` with their own stdin,
stdout and stderr (fast: one parser per call, no interpreter start); the services
(``wuzi host``, ``wuzi director``) are replaced by a stub after the config is parsed, so
nothing serves. A few inputs go through the installed ``wuzi`` console script in a real
subprocess too — the path users run. Examples per command: 25, or ``WUZI_FUZZ_EXAMPLES``.
"""

from __future__ import annotations

import io
import logging
import os
import shutil
import subprocess
import sys
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from wuzi.cli import main
from wuzi.rules.board import parse_point
from wuzi.rules.formats import export
from wuzi.rules.record import ClockReading, GameRecord, GameResult, RecordedMove, alternating_moves

EXAMPLES = int(os.environ.get("WUZI_FUZZ_EXAMPLES", "25"))
REPO = Path(__file__).resolve().parents[2]
WUZI = Path(sys.executable).with_name("wuzi")

HOSTILE: tuple[bytes, ...] = (
    b"",
    b"\n",
    b"\x00",
    b"\x00" * 1000,
    b"\xff\xfe\xfa\xc3\x28\n",
    b"\xef\xbb\xbf",
    b"9" * 5000,
    b"-" + b"9" * 5000 + b"\n",
    b"0 start\n" + b"9" * 4000 + b" press\n",
    b"1e999999\nNaN\n-inf\n",
    b"a" * 300_000,
    b"h8 " * 50_000 + b"\n",
    b"[" * 100_000,
    b'{"a":' * 50_000,
    b"a = " + b"[" * 100_000,
    b"a = {b = " * 20_000,
    b"[[[[[[[[\n= = =\n",
    b"\r\n" * 1000,
    b"\t\x0b\x0c\x1b[31m\x7f",
    b"a = 99999999999999999999999999999999999999\n" + b"b = " + b"9" * 5000 + b"\n",
)

TOKENS: tuple[bytes, ...] = (
    b"99999999999999999999",
    b"9" * 5000,
    b"-1",
    b"0",
    b"1e999",
    b"NaN",
    b"\x00",
    b"\xff",
    b"\n",
    b'"',
    b"[",
    b"]",
    b"{",
    b"=",
    b" ",
    b",",
    b":",
    b"x" * 5000,
    b"2026-02-30",
    b"0x" + b"f" * 30,
    b"'''",
    b"[[hosts]]\n",
    b"inf",
    b"\xed\xa0\x80",  # a UTF-16 surrogate written as UTF-8: not UTF-8
    b"\xe2\x80\xae",  # right-to-left override
)


def _sample_record() -> GameRecord:
    points = [parse_point(n) for n in ("h8", "h9", "i10", "j8", "j10", "g9")]
    moves = alternating_moves(points, times=[1500 * (i + 1) for i in range(len(points))])
    timed = tuple(
        RecordedMove(m.point, m.colour, m.seat, m.t_ms, ClockReading(2_700_000 - i, 2_699_000))
        for i, m in enumerate(moves)
    )
    return GameRecord(
        moves=timed,
        result=GameResult("white", "resignation", "", 12_000),
        table=12,
        game_number=2,
        time_control="2700+30",
    )


def _as_bytes(data: str | bytes) -> bytes:
    return data.encode("utf-8") if isinstance(data, str) else data


RECORD = _sample_record()
RECORDS: dict[str, bytes] = {
    fmt: _as_bytes(export(RECORD, fmt)) for fmt in ("json", "sgf", "psq", "pos", "lib", "moves")
}
EXTENSION = {"json": ".json", "sgf": ".sgf", "psq": ".psq", "pos": ".pos", "lib": ".lib"}
EXTENSION["moves"] = ".txt"
VENUE = b"""
[venue]
id = "fuzz"
name = "Fuzz hall"

[broker]
url = "mqtt://127.0.0.1:9"

[[hosts]]
id = "pi-1"
  [[hosts.tables]]
  number = 1
  board_port = "sim://board/1"
  clock_port = "sim://clock/1"

[[referees]]
name = "deputy"
token_file = "deputy.token"

[defaults]
ruleset = "renju"
opening = "soosorv-8"
time_control = "2700+30"
"""
REPLAY = b"0 start\n2000 press\n3000 pause\n4000 resume\n5000 adjust white +3000\n70000 tick\n"
POSITIONS = b"h8 i9 j10\n\n# a comment\nh8 h9 i8 i9 j7 j9 g9 j8\n"
CSV = b"name,sex,rating,club\nAnna Li,F,2100,Shanghai\nBo Wang,M,1900,\n"
STATE = (
    b'[{"topic": "wuzi/v1/sample-hall/host/pi-1/status", "payload": {"at_ms": 1767225600000, '
    b'"boot_id": "boot-pi-1", "host": "pi-1", "links_down": [], "online": true, '
    b'"tables": [1, 2], "v": 1}}]\n'
)


# --- running a command ----------------------------------------------------------------


@dataclass(frozen=True)
class Outcome:
    code: int
    out: str
    err: str


class _BinaryCapture(io.TextIOWrapper):
    """A text stream over bytes, as ``sys.stdin``/``sys.stdout`` are (``.buffer`` too)."""

    def __init__(self, data: bytes = b"", errors: str = "strict") -> None:
        super().__init__(io.BytesIO(data), encoding="utf-8", errors=errors, newline=None)

    def text(self) -> str:
        self.flush()
        raw = self.buffer
        assert isinstance(raw, io.BytesIO)
        return raw.getvalue().decode("utf-8", "replace")


def run_cli(argv: list[str], stdin: bytes = b"") -> Outcome:
    """``wuzi ARGV`` in this process; a crash is returned as its traceback on stderr."""
    streams = (sys.stdin, sys.stdout, sys.stderr)
    sys.stdin = _BinaryCapture(stdin)
    out, err = _BinaryCapture(), _BinaryCapture(errors="backslashreplace")  # as Python's
    sys.stdout, sys.stderr = out, err
    handler = logging.StreamHandler(err)
    root = logging.getLogger()
    root.addHandler(handler)
    try:
        try:
            code = main(argv)
        except SystemExit as exc:  # argparse's usage errors
            code = exc.code if isinstance(exc.code, int) else 2
        except BaseException:  # the very thing looked for
            err.write(traceback.format_exc())
            code = -1
    finally:
        root.removeHandler(handler)
        sys.stdin, sys.stdout, sys.stderr = streams
    return Outcome(int(code or 0), out.text(), err.text())


def check(argv: list[str], outcome: Outcome, data: bytes) -> None:
    shown = data[:120] + (b"..." if len(data) > 120 else b"")
    words = " ".join(w if len(w) <= 60 else f"{w[:50]}…({len(w)})" for w in argv)
    assert outcome.code in (0, 1, 2) and "Traceback" not in outcome.err, (
        f"wuzi {words} with input {shown!r} ({len(data)} bytes): exit "
        f"{outcome.code}\n{outcome.err[-3000:]}"
    )


# --- the commands ---------------------------------------------------------------------


class _StubService:
    """Stands in for HostService/DirectorService: the config was parsed, nothing serves."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        pass

    def request_stop(self) -> None:
        pass

    def start(self) -> None:
        pass

    def run(self) -> None:
        pass

    def close(self) -> None:
        pass


@dataclass(frozen=True)
class Target:
    """One command: its name, a valid input of its kind, and how to run it on ``data``."""

    name: str
    valid: bytes
    run: Callable[[bytes, Path], tuple[list[str], Outcome]]
    expect: int = 0  # the exit status of ``valid``


def _stdin(argv: list[str]) -> Callable[[bytes, Path], tuple[list[str], Outcome]]:
    def run(data: bytes, tmp: Path) -> tuple[list[str], Outcome]:
        return argv, run_cli(argv, data)

    return run


def _file(
    name: str, argv: Callable[[Path, Path], list[str]]
) -> Callable[[bytes, Path], tuple[list[str], Outcome]]:
    """Writes ``data`` to ``tmp/name``; ``argv(file, tmp)`` is the command line."""

    def run(data: bytes, tmp: Path) -> tuple[list[str], Outcome]:
        path = tmp / name
        path.write_bytes(data)
        args = argv(path, tmp)
        return args, run_cli(args)

    return run


def _text_arg(
    argv: Callable[[str, Path], list[str]],
) -> Callable[[bytes, Path], tuple[list[str], Outcome]]:
    """``data`` as a command-line word (as a shell passes bytes: surrogate escapes; no NUL)."""

    def run(data: bytes, tmp: Path) -> tuple[list[str], Outcome]:
        word = os.fsdecode(data.replace(b"\x00", b""))
        args = argv(word, tmp)
        return args, run_cli(args)

    return run


def _tournament_import(data: bytes, tmp: Path) -> tuple[list[str], Outcome]:
    db = tmp / "event.sqlite"
    shutil.copy(_tournament_db(tmp.parent), db)
    (tmp / "entrants.csv").write_bytes(data)
    args = ["tournament", "--db", str(db), "import", str(tmp / "entrants.csv")]
    return args, run_cli(args)


def _tournament_db(folder: Path) -> Path:
    """An empty Swiss event (made once per test's folder)."""
    db = folder / "template.sqlite"
    if not db.exists():
        made = run_cli(["tournament", "--db", str(db), "new", "--format", "swiss", "--rounds", "3"])
        assert made.code == 0, made.err
    return db


TARGETS: tuple[Target, ...] = (
    Target("rules forbidden", POSITIONS, _stdin(["rules", "forbidden"])),
    Target("clock replay", REPLAY, _stdin(["clock", "replay", "--control", "600:5x30"])),
    Target(
        "clock replay --detail",
        REPLAY,
        _stdin(["clock", "replay", "--control", "40/5400:1800+30", "--detail"]),
    ),
    Target(
        "clock replay --control",
        b"40/5400+30:1800+30",
        _text_arg(lambda w, t: ["clock", "replay", "--control", w]),
    ),
    Target("clock check", b"600:c25/300", _text_arg(lambda w, t: ["clock", "check", w])),
    Target("rules opening", b"h8 g7 g9", _text_arg(lambda w, t: ["rules", "opening", *w.split()])),
    Target(
        "rules explain",
        b"h8 h9 i8 i9 j7",
        _text_arg(lambda w, t: ["rules", "explain", *w.split(), "--point", "g9"]),
    ),
    *(
        Target(
            f"rules record convert - --from {fmt}",
            RECORDS[fmt],
            _stdin(["rules", "record", "convert", "-", "-", "--from", fmt, "--to", "json"]),
        )
        for fmt in RECORDS
    ),
    *(
        Target(
            f"rules record show {EXTENSION[fmt]}",
            RECORDS[fmt],
            _file(f"game{EXTENSION[fmt]}", lambda f, t: ["rules", "record", "show", str(f)]),
        )
        for fmt in RECORDS
    ),
    Target("tournament import", CSV, _tournament_import),
    Target(
        "tournament --db GARBAGE",
        b"SQLite format 3\x00",
        _file("event.sqlite", lambda f, t: ["tournament", "--db", str(f), "standings"]),
        expect=1,
    ),
    Target(
        "tournament new --time-control",
        b"2700+30",
        _text_arg(
            lambda w, t: [
                *("tournament", "--db", str(t / "new.sqlite"), "new", "--format", "swiss"),
                *("--rounds", "3", "--time-control", w),
            ]
        ),
    ),
    Target(
        "director audit --db GARBAGE",
        b"SQLite format 3\x00",
        _file("director.sqlite", lambda f, t: ["director", "audit", "--db", str(f)]),
        expect=1,
    ),
    Target(
        "host --config",
        VENUE,
        _file(
            "venue.toml",
            lambda f, t: ["host", "--config", str(f), "--host", "pi-1", "--state-dir", str(t)],
        ),
    ),
    Target(
        "director --config",
        VENUE,
        _file(
            "venue.toml",
            lambda f, t: ["director", "--config", str(f), "--db", str(_tournament_db(t.parent))],
        ),
    ),
    Target(
        "venue check --config",
        VENUE,
        _file(
            "venue.toml",
            lambda f, t: [
                "venue",
                "check",
                "--config",
                str(f),
                "--host",
                "pi-1",
                "--timeout",
                "0.1",
            ],
        ),
        expect=1,  # no broker at 127.0.0.1:9
    ),
    Target(
        "venue broker-config --config",
        VENUE,
        _file(
            "venue.toml",
            lambda f, t: [
                "venue",
                "broker-config",
                "--config",
                str(f),
                "--out",
                str(t / "broker"),
                "--data-dir",
                str(t / "data"),
            ],
        ),
    ),
    Target(
        "referee send --config",
        VENUE,
        _file(
            "venue.toml",
            lambda f, t: [
                "referee",
                "send",
                "--config",
                str(f),
                "--referee",
                "deputy",
                "--token-file",
                str(t / "no-token"),
                "--socket",
                str(t / "no.sock"),
                "--timeout",
                "0.1",
                "--table",
                "1",
                "pause",
                "reason=test",
            ],
        ),
        expect=1,  # no token file, no socket
    ),
    Target(
        "scoreboard --state",
        STATE,
        _file(
            "state.json",
            lambda f, t: ["scoreboard", "--state", str(f), "--save-state", str(t / "out.json")],
        ),
    ),
)


@pytest.fixture(autouse=True)
def _no_services(monkeypatch: pytest.MonkeyPatch) -> None:
    """``wuzi host``/``wuzi director`` stop after parsing: their services are stubs."""
    import wuzi.director.service
    import wuzi.host.service

    monkeypatch.setattr(wuzi.host.service, "HostService", _StubService)
    monkeypatch.setattr(wuzi.director.service, "DirectorService", _StubService)


def _folder(base: Path) -> Path:
    """A fresh folder for one example (the command may write into it)."""
    n = len(list(base.iterdir()))
    folder = base / f"example-{n}"
    folder.mkdir()
    return folder


@pytest.mark.parametrize("target", TARGETS, ids=lambda t: t.name)
def test_valid_input_runs(target: Target, tmp_path: Path) -> None:
    """The seed of each command is well formed: the fuzzing starts from something real."""
    args, outcome = target.run(target.valid, _folder(tmp_path))
    check(args, outcome, target.valid)
    assert outcome.code == target.expect, outcome.err


@pytest.mark.parametrize("target", TARGETS, ids=lambda t: t.name)
@pytest.mark.parametrize("data", HOSTILE, ids=range(len(HOSTILE)))
def test_hostile_input_is_refused_cleanly(target: Target, data: bytes, tmp_path: Path) -> None:
    args, outcome = target.run(data, _folder(tmp_path))
    check(args, outcome, data)


@st.composite
def mutated(draw: st.DrawFn, valid: bytes) -> bytes:
    """``valid`` with a few hostile edits: a token put in, a piece cut out, a number made huge."""
    data = valid
    for _ in range(draw(st.integers(1, 3))):
        at = draw(st.integers(0, len(data)))
        kind = draw(st.sampled_from(("insert", "cut", "number", "bytes")))
        if kind == "insert":
            data = data[:at] + draw(st.sampled_from(TOKENS)) + data[at:]
        elif kind == "cut":
            data = data[:at] + data[at + draw(st.integers(1, 40)) :]
        elif kind == "number":
            digits = [i for i, c in enumerate(data) if chr(c).isdigit()]
            if digits:
                i = draw(st.sampled_from(digits))
                data = data[:i] + draw(st.sampled_from(TOKENS[:6])) + data[i + 1 :]
        else:
            data = data[:at] + draw(st.binary(min_size=1, max_size=8)) + data[at:]
    return data


def _inputs(target: Target) -> st.SearchStrategy[bytes]:
    return st.one_of(st.binary(max_size=400), mutated(target.valid))


@pytest.mark.parametrize("target", TARGETS, ids=lambda t: t.name)
def test_random_input_is_refused_cleanly(target: Target, tmp_path: Path) -> None:
    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )
    @given(data=_inputs(target))
    def one(data: bytes) -> None:
        args, outcome = target.run(data, _folder(tmp_path))
        check(args, outcome, data)

    one()


# --- through the installed console script ----------------------------------------------

SUBPROCESS_CASES = (
    (["rules", "forbidden"], b"h8\n" + b"a" * 200_000 + b"\n\xff\xfe\nh8 i9\n"),
    (["clock", "replay", "--control", "600"], b"0 start\n" + b"9" * 4000 + b" press\n"),
    (["clock", "replay", "--control", "600"], b"0 start\n10 adjust black +99999999999999\n"),
    (["rules", "record", "convert", "-", "-", "--from", "json", "--to", "sgf"], b"[" * 100_000),
    (["rules", "record", "convert", "-", "-", "--from", "sgf", "--to", "json"], b"(;" * 50_000),
)


@pytest.mark.parametrize("case", SUBPROCESS_CASES, ids=range(len(SUBPROCESS_CASES)))
def test_console_script_refuses_cleanly(case: tuple[list[str], bytes]) -> None:
    argv, data = case
    done = subprocess.run(
        [str(WUZI), *argv], input=data, capture_output=True, timeout=60, check=False
    )
    err = done.stderr.decode("utf-8", "replace")
    assert done.returncode == 1 and "Traceback" not in err, err[-3000:]
    assert "line" in err or "nested" in err or done.stdout.startswith(b"=")


def test_console_script_refuses_a_garbage_venue_file(tmp_path: Path) -> None:
    venue = tmp_path / "venue.toml"
    venue.write_bytes(VENUE.replace(b'"2700+30"', b'"99999999999999999999"'))
    done = subprocess.run(
        [str(WUZI), "venue", "check", "--config", str(venue), "--timeout", "0.1"],
        capture_output=True,
        timeout=60,
        check=False,
    )
    err = done.stderr.decode("utf-8", "replace")
    assert done.returncode == 1 and "Traceback" not in err, err
    assert "defaults.time_control" in err and "24 h" in err


# --- numbers on the command line ------------------------------------------------------

NUMBERS = ("nan", "inf", "-inf", "-1", "0", "1e308", "99999999999999999999", "9" * 5000)

NUMERIC_OPTIONS: tuple[tuple[str, Callable[[str, Path], list[str]]], ...] = (
    (
        "host --command-max-age",
        lambda x, t: [
            *("host", "--config", str(t / "venue.toml"), "--host", "pi-1"),
            *("--state-dir", str(t), "--command-max-age", x),
        ],
    ),
    (
        "director --time-scale",
        lambda x, t: [
            *("director", "--config", str(t / "venue.toml")),
            *("--db", str(_tournament_db(t.parent)), "--time-scale", x),
        ],
    ),
    (
        "director --command-max-age",
        lambda x, t: [
            *("director", "--config", str(t / "venue.toml")),
            *("--db", str(_tournament_db(t.parent)), "--command-max-age", x),
        ],
    ),
    (
        "venue check --timeout",
        lambda x, t: ["venue", "check", "--config", str(t / "venue.toml"), "--timeout", x],
    ),
    (
        "referee send --timeout",
        lambda x, t: [
            *("referee", "send", "--config", str(t / "venue.toml"), "--referee", "deputy"),
            *("--socket", str(t / "no.sock"), "--timeout", x, "--table", "1", "pause"),
        ],
    ),
    (
        "referee send adjust-time delta_ms",
        lambda x, t: [
            *("referee", "send", "--config", str(t / "venue.toml"), "--referee", "deputy"),
            *("--socket", str(t / "no.sock"), "--timeout", "0.1", "--table", "1"),
            *("adjust-time", "seat=black", f"delta_ms={x}"),
        ],
    ),
    (
        "tournament new --rounds",
        lambda x, t: [
            *("tournament", "--db", str(t / "n.sqlite"), "new", "--format", "swiss"),
            *("--rounds", x),
        ],
    ),
    (
        "tournament new --k",
        lambda x, t: [
            *("tournament", "--db", str(t / "n.sqlite"), "new", "--format", "swiss"),
            *("--rounds", "3", "--k", x),
        ],
    ),
    (
        "scoreboard --delay-minutes",
        lambda x, t: [
            *("scoreboard", "--state", str(t / "state.json"), "--public"),
            *("--delay-minutes", x, "--save-state", str(t / "out.json")),
        ],
    ),
    (
        "scoreboard --page-seconds",
        lambda x, t: [
            *("scoreboard", "--state", str(t / "state.json"), "--page-seconds", x),
            *("--save-state", str(t / "out.json")),
        ],
    ),
)


@pytest.mark.parametrize("number", NUMBERS, ids=lambda n: n[:12])
@pytest.mark.parametrize("option", NUMERIC_OPTIONS, ids=lambda o: o[0])
def test_hostile_numbers_on_the_command_line(
    option: tuple[str, Callable[[str, Path], list[str]]], number: str, tmp_path: Path
) -> None:
    folder = _folder(tmp_path)
    (folder / "venue.toml").write_bytes(VENUE)
    (folder / "state.json").write_bytes(STATE)
    args = option[1](number, folder)
    check(args, run_cli(args), number.encode())


def test_an_event_refuses_a_time_control_beyond_24_hours(tmp_path: Path) -> None:
    """Issue 19: a time control of 99999999999999999999 s gave clocks of 1e23 ms."""
    db = tmp_path / "event.sqlite"
    argv = ["tournament", "--db", str(db), "new", "--format", "swiss", "--rounds", "3"]
    for option in ("--time-control", "--playoff-time-control"):
        outcome = run_cli([*argv, option, "99999999999999999999"])
        assert outcome.code == 1, outcome.err
        assert "at most 86400 s (24 h)" in outcome.err
        assert not db.exists()


# --- crashes the fuzzing found (issue 19): regressions ---


def test_an_sgf_naming_a_codec_that_is_no_text_encoding(tmp_path: Path) -> None:
    (tmp_path / "g.sgf").write_bytes(b"\x80(;FF[4]GM[4]CA[uu];B[hh])")
    args = ["rules", "record", "show", str(tmp_path / "g.sgf")]
    check(args, run_cli(args), b"")


def test_broker_config_with_a_token_file_name_too_long(tmp_path: Path) -> None:
    venue = tmp_path / "venue.toml"
    venue.write_bytes(VENUE.replace(b'"deputy.token"', b'"' + b"d" * 300 + b'.token"'))
    args = [
        *("venue", "broker-config", "--config", str(venue)),
        *("--out", str(tmp_path / "out"), "--data-dir", str(tmp_path / "data")),
    ]
    check(args, run_cli(args), b"")
