"""Every command that reads a named file, handed what is no such file (issue 34).

A directory, a FIFO (which blocks a plain ``open`` for ever), ``/dev/null`` and
``/dev/zero`` (devices: the second grows a plain ``read()`` until memory runs out), a
file one byte over its kind's cap (sparse: it costs no disk) and a file with Arabic-Indic
or fullwidth digits where a number belongs. Each command must answer at once with exit
status 1 or 2 and one line naming the file and what is wrong, no traceback, and change
nothing (no output written, a tournament database byte for byte as before).

Each command runs in a forked child (``wuzi.cli.main`` with its own stdout and stderr,
no interpreter start), so a command that blocks on a FIFO is killed after `TIMEOUT_S`
and fails the test instead of hanging it.
"""

from __future__ import annotations

import hashlib
import io
import os
import signal
import sys
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from tests.support.acl import write_venue

from wuzi.base import files
from wuzi.cli import main

TIMEOUT_S = 20.0


@dataclass(frozen=True)
class Run:
    code: int
    err: str


def run_forked(argv: list[str], tmp: Path) -> Run:
    """``wuzi ARGV`` in a forked child with stdin from /dev/null; killed after TIMEOUT_S."""
    out_path, err_path = tmp / "child.out", tmp / "child.err"
    pid = os.fork()
    if pid == 0:  # the child: never returns into pytest
        code = 99
        try:
            null = os.open(os.devnull, os.O_RDONLY)
            os.dup2(null, 0)
            os.dup2(os.open(out_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), 1)
            os.dup2(os.open(err_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), 2)
            sys.stdin = io.TextIOWrapper(io.FileIO(0, "r", closefd=False))
            sys.stdout = io.TextIOWrapper(io.FileIO(1, "w", closefd=False), write_through=True)
            sys.stderr = io.TextIOWrapper(io.FileIO(2, "w", closefd=False), write_through=True)
            code = main(argv)
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else 2
        except BaseException:
            traceback.print_exc()
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(code)
    deadline = time.monotonic() + TIMEOUT_S
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        if time.monotonic() > deadline:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            pytest.fail(f"wuzi {' '.join(argv)} hung for {TIMEOUT_S} s (a FIFO read?)")
        time.sleep(0.01)
    return Run(os.waitstatus_to_exitcode(status), err_path.read_text(errors="replace"))


@dataclass(frozen=True)
class Reader:
    """One command that reads a file: its argv for a path, the cap of its kind, what a
    file of odd digits holds for it (None: the file holds no numbers) and the words an
    odd-digits error says."""

    name: str
    argv: Callable[[str, Path], list[str]]
    kind: files.FileKind
    suffix: str
    odd: Callable[[str], str] | None = None
    odd_says: tuple[str, ...] = ()
    setup: Callable[[Path], None] = field(default=lambda tmp: None)
    in_folder: bool = False
    """The command takes a folder and reads every ``*.json`` in it: the file is put there
    as ``records/g.json``, a symbolic link to what is tried."""


def _new_event(tmp: Path) -> None:
    db = str(tmp / "event.sqlite")
    assert main(["tournament", "--db", db, "new", "--format", "swiss", "--rounds", "3"]) == 0


def _venue(tmp: Path) -> None:
    write_venue(tmp, 1883)


def _psq(digits: str) -> str:
    return f"Piskvorky 15x15, 0:0, 0\n8,8,1000\n{digits[0]},{digits[1]},1000\nAda\nBo\n-1\n"


def _sgf(digits: str) -> str:
    return f"(;GM[4]FF[4]SZ[15]WZMA[{digits}];B[hh])"


def _csv(digits: str) -> str:
    return f"name,sex,rating\nAda,f,1900\nBo,m,{digits}\n"


def _toml(digits: str) -> str:
    return f'[venue]\nid = "v"\nname = "V"\n\n[broker]\nurl = "mqtt://127.0.0.1:{digits}"\n'


def _script(digits: str) -> str:
    return f"0 place h8 black\n{digits} place h9 white\n"


READERS = (
    Reader(
        "rules record show",
        lambda p, tmp: ["rules", "record", "show", p, "--from", "psq"],
        files.RECORD_FILE,
        ".psq",
        _psq,
        ("line 3", "not a move"),
    ),
    Reader(
        "rules record convert",
        lambda p, tmp: ["rules", "record", "convert", p, str(tmp / "out.json"), "--from", "sgf"],
        files.RECORD_FILE,
        ".sgf",
        _sgf,
        ("WZMA", "not a whole number"),
    ),
    Reader(
        "tournament import",
        lambda p, tmp: ["tournament", "--db", str(tmp / "event.sqlite"), "import", p],
        files.ENTRANTS_CSV,
        ".csv",
        _csv,
        ("line 3", "column 'rating'", "ASCII digits"),
        _new_event,
    ),
    Reader(
        "venue broker-config",
        lambda p, tmp: ["venue", "broker-config", "--config", p, "--out", str(tmp / "broker")],
        files.VENUE_FILE,
        ".toml",
        _toml,
        ("broker.url", "port must be a number"),
    ),
    Reader(
        "referee send --token-file",
        lambda p, tmp: [
            *("referee", "send", "--config", str(tmp / "venue.toml"), "--referee", "deputy"),
            *("--token-file", p, "--socket", str(tmp / "no.sock"), "--table", "1", "pause"),
        ],
        files.TOKEN_FILE,
        ".token",
        setup=_venue,
    ),
    Reader(
        "referee send --password-file",
        lambda p, tmp: [
            *("referee", "send", "--config", str(tmp / "venue.toml"), "--referee", "chief"),
            *("--password-file", p, "--socket", str(tmp / "no.sock"), "--table", "1", "pause"),
        ],
        files.SECRET_FILE,
        ".pass",
        setup=_venue,
    ),
    Reader(
        "tournament export --records",
        lambda p, tmp: [
            *("tournament", "--db", str(tmp / "event.sqlite"), "export", "html"),
            *("--records", p, "--output", str(tmp / "out.html")),
        ],
        files.RECORD_FILE,
        ".json",
        setup=_new_event,
        in_folder=True,
    ),
    Reader(
        "scoreboard --state",
        lambda p, tmp: ["scoreboard", "--state", p],
        files.STATE_FILE,
        ".json",
    ),
    Reader(
        "clock-display --state",
        lambda p, tmp: ["clock-display", "--state", p],
        files.STATE_FILE,
        ".json",
    ),
    Reader(
        "sim board --script",
        lambda p, tmp: ["sim", "board", "--script", p, "--linger", "0"],
        files.SCRIPT_FILE,
        ".script",
        _script,
        ("line 2", "the time must be a whole number"),
    ),
)

ODD_DIGITS = {"Arabic-Indic": "٣٤٥٦", "fullwidth": "３４５６"}


def _abuse(case: str, reader: Reader, tmp: Path) -> tuple[str, tuple[str, ...]]:
    """The path handed to the reader for ``case`` and the words its error must say."""
    if case == "directory":
        path = tmp / f"folder{reader.suffix}"
        path.mkdir()
        return str(path), ("is a directory",)
    if case == "fifo":
        path = tmp / f"pipe{reader.suffix}"
        os.mkfifo(path)
        return str(path), ("FIFO",)
    if case in ("/dev/null", "/dev/zero"):
        return case, ("character device",)
    if case == "over the cap":
        path = tmp / f"big{reader.suffix}"
        with path.open("wb") as f:
            f.truncate(reader.kind.max_bytes + 1)  # sparse: one byte over, no disk used
        return str(path), ("larger than",)
    raise AssertionError(case)


def _state(tmp: Path) -> dict[str, str]:
    """What a refused command must leave unchanged: every file under ``tmp`` but the
    child's own output, by its digest."""
    return {
        str(p.relative_to(tmp)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(tmp.rglob("*"))
        if p.is_file() and not p.name.startswith("child.")
    }


def _check(reader: Reader, run: Run, path: str, says: tuple[str, ...]) -> None:
    lines = [line for line in run.err.splitlines() if line.strip()]
    assert run.code in (1, 2), (reader.name, run)
    assert "Traceback" not in run.err, run.err
    assert len(lines) == 1, (reader.name, run.err)
    assert path in lines[0], (reader.name, lines[0])
    for word in says:
        assert word in lines[0], (reader.name, word, lines[0])


CASES = ("directory", "fifo", "/dev/null", "/dev/zero", "over the cap")


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("reader", READERS, ids=lambda r: r.name)
def test_a_file_that_is_none_is_refused_in_one_line(
    reader: Reader, case: str, tmp_path: Path
) -> None:
    reader.setup(tmp_path)
    path, says = _abuse(case, reader, tmp_path)
    named = path
    if reader.in_folder:
        (tmp_path / "records").mkdir()
        named = str(tmp_path / "records" / "g.json")
        os.symlink(path, named)
        path = str(tmp_path / "records")
    before = _state(tmp_path)
    run = run_forked(reader.argv(path, tmp_path), tmp_path)
    _check(reader, run, named, says)
    assert _state(tmp_path) == before, f"{reader.name} changed a file after refusing {case}"
    for output in ("out.json", "out.html", "broker"):
        assert not (tmp_path / output).exists(), output


@pytest.mark.parametrize("script", ODD_DIGITS, ids=str)
@pytest.mark.parametrize("reader", [r for r in READERS if r.odd], ids=lambda r: r.name)
def test_digits_of_another_script_are_no_number(
    reader: Reader, script: str, tmp_path: Path
) -> None:
    reader.setup(tmp_path)
    assert reader.odd is not None
    path = tmp_path / f"odd{reader.suffix}"
    path.write_text(reader.odd(ODD_DIGITS[script]), encoding="utf-8")
    before = _state(tmp_path)
    run = run_forked(reader.argv(str(path), tmp_path), tmp_path)
    _check(reader, run, str(path), reader.odd_says)
    assert _state(tmp_path) == before
    assert not (tmp_path / "out.json").exists()


@pytest.mark.parametrize("reader", [r for r in READERS if r.odd], ids=lambda r: r.name)
def test_the_same_file_in_ascii_digits_is_read(reader: Reader, tmp_path: Path) -> None:
    """The control: the odd-digits file with 0-9 gets past the number (a test that could
    not fail otherwise: the error might come from anywhere)."""
    reader.setup(tmp_path)
    assert reader.odd is not None
    path = tmp_path / f"odd{reader.suffix}"
    path.write_text(reader.odd("99" if reader.suffix == ".psq" else "1883"), encoding="utf-8")
    run = run_forked(reader.argv(str(path), tmp_path), tmp_path)
    for word in reader.odd_says:
        assert word not in run.err, (reader.name, run.err)
