"""``wuzi rules forbidden`` and ``wuzi rules explain``: the exact command-line contracts.

Most tests call ``wuzi.cli.main`` with stdin replaced and stdout captured; one runs the
installed ``wuzi`` command itself, so the console script is checked end to end.
"""

from __future__ import annotations

import importlib.util
import io
import subprocess
import sys
from pathlib import Path

import pytest

from wuzi.cli import main

VECTOR_INPUT = """\
# F01
f8 a1 g8 c1 h6 e1 h7 g1
# F03: four-three is legal
e8 d8 f8 a1 g8 c1 h6 e1 h7 g1
# F10
d8 a1 e8 c1 f8 e1 g8 g1 h6 i1 h7 k1 f6 m1 g7 o1
# F17
e8 d8 f8 h4 g8 a1 h5 c1 h6 m1 h7 o1 f6 a15 g7 c15
# F08
d8 a1 e8 c1 f8 e1 h8 g1 i8 i1
"""
VECTOR_OUTPUT = """\
= h8:33
=
= e7:33 f7:33 f9:33 g5:33 g6:33 i6:33
= f7:33 f9:33 g6:33 h8:44 i6:33
= g8:ol
"""


def run(
    argv: list[str], stdin: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_forbidden_answers_one_line_per_position(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(["rules", "forbidden"], VECTOR_INPUT, monkeypatch, capsys)
    assert code == 0
    assert out == VECTOR_OUTPUT


def test_every_shared_vector_through_the_command(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # The records are kept with the API tests; load that file by path (no package needed).
    spec = importlib.util.spec_from_file_location(
        "forbidden_vectors", Path(__file__).with_name("test_forbidden_vectors.py")
    )
    assert spec is not None and spec.loader is not None
    vectors = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, spec.name, vectors)  # its dataclasses look it up
    spec.loader.exec_module(vectors)
    stdin = vectors.VECTORS  # the file itself: comments, positions and "=" answer lines
    positions = [line for line in stdin.splitlines() if not line.startswith(("#", "="))]
    answers = [line for line in stdin.splitlines() if line.startswith("=")]
    assert len(positions) == len(answers) == 19
    code, out, _ = run(["rules", "forbidden"], "\n".join(positions) + "\n", monkeypatch, capsys)
    assert code == 0
    assert out.splitlines() == answers


def test_empty_line_is_the_empty_board_and_comments_are_skipped(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(["rules", "forbidden"], "# nothing\n\n#\nh8\n", monkeypatch, capsys)
    assert code == 0
    assert out == "=\n=\n"


def test_bad_lines_say_why_and_processing_continues(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    stdin = "h8 z9\nf8 a1 g8 c1 h6 e1 h7 g1\nh8 h8\nh8 i16\n\n"
    code, out, _ = run(["rules", "forbidden"], stdin, monkeypatch, capsys)
    assert code == 1
    lines = out.splitlines()
    assert len(lines) == 5
    assert lines[0].startswith("! ") and "'z9'" in lines[0]
    assert lines[1] == "= h8:33"
    assert lines[2].startswith("! ") and "h8" in lines[2] and "occupied" in lines[2]
    assert lines[3].startswith("! ") and "'i16'" in lines[3]
    assert lines[4] == "="


def test_the_set_is_for_black_whoever_is_to_move(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # F01 with one more White stone far away: now Black is to move (before, White was).
    stdin = "f8 a1 g8 c1 h6 e1 h7 g1\nf8 a1 g8 c1 h6 e1 h7 g1 o15 a15\n"
    _, out, _ = run(["rules", "forbidden"], stdin, monkeypatch, capsys)
    assert out == "= h8:33\n= h8:33\n"


def test_windows_line_endings_and_spaces(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    stdin = "  f8 a1  g8 c1 h6 e1 h7 g1  \r\n"
    code, out, _ = run(["rules", "forbidden"], stdin, monkeypatch, capsys)
    assert (code, out) == (0, "= h8:33\n")


def test_installed_command_runs_the_vectors() -> None:
    wuzi = Path(sys.executable).parent / "wuzi"
    if not wuzi.exists():
        pytest.skip("the wuzi console script is not installed next to this Python")
    done = subprocess.run(
        [str(wuzi), "rules", "forbidden"],
        input=VECTOR_INPUT + "h8 h8\n",
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 1
    assert done.stdout.splitlines()[:-1] == VECTOR_OUTPUT.splitlines()
    assert done.stdout.splitlines()[-1].startswith("! ")


def test_explain_a_double_three(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    moves = "f8 a1 g8 c1 h6 e1 h7 g1"
    argv = ["rules", "explain", *moves.split(), "--point", "h8"]
    code, out, _ = run(argv, "", monkeypatch, capsys)
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "h8: FORBIDDEN for Black — double-three (33)"
    assert "  horizontal row 8: three f8 g8 h8 — real" in lines
    assert "  vertical column h: three h6 h7 h8 — real" in lines
    assert "    straight-four point e8: legal" in lines
    assert lines[-1] == "  => 2 real threes: double-three"


def test_explain_a_three_that_does_not_count(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # Row 7 d7 e7 _ g7: its only straight-four point f7 also completes f3–f7, a five.
    moves = "d7 f2 e7 a1 f3 a3 f4 a5 f5 a7 f6 a9 g8 a11 g9 a13"
    code, out, _ = run(
        ["rules", "explain", *moves.split(), "--point", "g7"], "", monkeypatch, capsys
    )
    assert code == 0
    assert out.splitlines()[0] == "g7: legal for Black"
    assert "  horizontal row 7: three d7 e7 g7 — not real" in out
    assert "    straight-four point f7: makes five there, so it is no straight four" in out
    assert out.splitlines()[-1] == "  => 1 real three, 1 three that does not count: legal"


def test_explain_four_three_three(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    moves = "e8 d8 f8 a1 g8 c1 h6 e1 h7 g1 f6 i1 g7 k1"  # F16
    code, out, _ = run(
        ["rules", "explain", *moves.split(), "--point", "h8"], "", monkeypatch, capsys
    )
    assert code == 0
    assert out.splitlines() == [
        "h8: FORBIDDEN for Black — double-three (33)",
        "  horizontal row 8: four e8 f8 g8 h8 (five on i8)",
        "  vertical column h: three h6 h7 h8 — real",
        "    straight-four point h5: legal",
        "    straight-four point h9: legal",
        "  diagonal a1–o15: three f6 g7 h8 — real",
        "    straight-four point e5: legal",
        "    straight-four point i9: legal",
        "  => 1 four, 2 real threes: double-three (four-three-three)",
    ]


def test_explain_names_a_straight_four(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(
        ["rules", "explain", "e8", "a1", "f8", "a3", "g8", "--point", "h8"], "", monkeypatch, capsys
    )
    assert code == 0
    assert out.splitlines() == [
        "h8: legal for Black",
        "  horizontal row 8: straight four e8 f8 g8 h8 (five on d8 i8)",
        "  => 1 four, 0 real threes: legal",
    ]


def test_explain_a_five(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    moves = "d8 a1 e8 c1 f8 m1 g8 o1 h5 a15 h6 c15 h7 e15 h9 g15 h10 i15"
    code, out, _ = run(
        ["rules", "explain", *moves.split(), "--point", "h8"], "", monkeypatch, capsys
    )
    assert code == 0
    assert out.startswith("h8: Black makes five")
    assert "  horizontal row 8: five d8 e8 f8 g8 h8" in out
    assert "  vertical column h: overline of 6: h5 h6 h7 h8 h9 h10" in out


def test_explain_the_empty_board(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(["rules", "explain", "--point", "h8"], "", monkeypatch, capsys)
    assert code == 0
    assert out.splitlines() == [
        "h8: legal for Black",
        "  no five, overline, four or three on any line",
        "  => 0 real threes: legal",
    ]


@pytest.mark.parametrize(
    ("moves", "point", "words"),
    [
        ("h8 i9", "h8", "h8 is occupied by a black stone"),
        ("h8 i9", "i9", "i9 is occupied by a white stone"),
        ("h8", "p3", "'p3' is not a point"),
        ("h8 h8", "a1", "h8 is already occupied"),
    ],
)
def test_explain_errors_exit_1_with_the_reason(
    moves: str,
    point: str,
    words: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = run(
        ["rules", "explain", *moves.split(), "--point", point], "", monkeypatch, capsys
    )
    assert code == 1
    assert out == ""
    assert err.startswith("wuzi rules explain: ")
    assert words in err


def test_explain_needs_a_point(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["rules", "explain", "h8"])
    assert exc.value.code == 2
    assert "--point" in capsys.readouterr().err


def test_an_over_long_or_undecodable_line_is_a_bad_line_and_held_bounded() -> None:
    """Issue 19: a 30 MB line cost 0.9 GB; now each line is read 4 kB at most."""
    stdin = b"h8\n" + b"h8 " * 10_000_000 + b"\n\xff h8\nh8 h9\n"
    done = subprocess.run(
        [sys.executable, "-c", _PEAK, "rules", "forbidden"],
        input=stdin,
        capture_output=True,
        check=False,
    )
    assert done.returncode == 1, done.stderr
    assert b"Traceback" not in done.stderr
    out = done.stdout.decode().splitlines()
    assert out[:4] == [
        "=",
        "! line 2: the line is longer than 4096 bytes",
        "! line 3: it is not UTF-8 text (byte 1 is 0xff)",
        "=",
    ]
    assert int(done.stderr.decode().split()[-1]) < 200_000  # peak RSS in kB


# Runs ``wuzi`` and prints its peak memory (kB) on stderr at the end.
# The peak RSS of this process alone, in kB: VmHWM belongs to the address space exec made.
# Not getrusage's ru_maxrss: Linux keeps it across fork and execve, so a child of a large
# pytest process would report the parent's size.
_PEAK = (
    "import sys\n"
    "from wuzi.cli import main\n"
    "code = main(sys.argv[1:])\n"
    "sys.stdout.flush()\n"
    "hwm = [l for l in open('/proc/self/status') if l.startswith('VmHWM:')][0]\n"
    "print(hwm.split()[1], file=sys.stderr)\n"
    "sys.exit(code)\n"
)
