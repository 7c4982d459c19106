"""Records other programs wrote (issue 20, item 8): each quirk read, warned of or named.

The files are in ``tests/rules/data`` (its README names the program behind each); the
smaller quirks are reproduced inline, each test naming the program that writes it where
it is known. A warning is one sentence naming the line or byte, handed to ``warn``; the
CLI prints it as ``warning: FILE: …`` and exits 0.
"""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest
from test_record import P

from wuzi.cli import main
from wuzi.rules.board import Colour
from wuzi.rules.errors import RecordFormatError
from wuzi.rules.formats import RecordWarning, export, load, read_record
from wuzi.rules.formats.psq import export_psq, load_psq
from wuzi.rules.formats.renlib import load_pos
from wuzi.rules.formats.sgf import export_sgf, load_sgf
from wuzi.rules.procedure import Seat
from wuzi.rules.record import GameRecord

DATA = Path(__file__).parent / "data"


def _read(name: str) -> tuple[GameRecord, list[str]]:
    seen: list[str] = []
    return read_record(DATA / name, warn=seen.append), seen


# --- SGF: GM[1] / GM[5] on SZ[15] ----------------------------------------------------------


def test_gowrite_gm1_gb2312_and_repeated_labels() -> None:
    """GoWrite: GM[1] on SZ[15], CA[gb2312] holding GBK, LB twice in one node."""
    seen: list[str] = []
    record = read_record(DATA / "gowrite.sgf", warn=seen.append)
    assert record.points == tuple(P(p) for p in ("h8", "h9", "j10", "i9", "g7", "i7"))
    assert record.player_of(Colour.BLACK).name == "李堃"  # 堃 is GBK, not GB2312
    assert record.player_of(Colour.WHITE).name == "王喆"
    assert record.event == "城市联赛"
    assert record.result is not None and record.result.reason == "resignation"
    assert record.ruleset == "renju" and "sgf-rules" not in record.tags
    assert len(seen) == 2, seen
    gm, lb = seen
    assert gm.startswith("line 1: GM[1] is Go's number") and "SZ[15]" in gm
    assert lb.startswith("line 3: property LB given twice in one node (first on line 3)")
    assert lb.endswith("Wuzi does not read LB, so both are ignored")


def test_katagomo_gm1_and_its_rules_string() -> None:
    """KataGomo's WriteSgf: GM[1], RU from Rules::toString, comments on the root and moves."""
    seen: list[str] = []
    record = read_record(DATA / "katagomo.sgf", warn=seen.append)
    assert len(record.moves) == 8 and record.points[:2] == (P("h8"), P("i9"))
    assert record.ruleset == "renju" and "sgf-rules" not in record.tags
    assert record.result is not None and record.result.winner == "white"
    assert [w.split(":")[0] for w in seen] == ["line 1"] and "GM[1]" in seen[0]


def test_katagomo_freestyle_and_a_variant_it_cannot_hold() -> None:
    """KataGomo: basicruleFREESTYLE is freestyle; a VCN variant is kept as a tag."""
    plain = "(;FF[4]GM[1]SZ[15]RU[basicruleFREESTYLEvcnruleNOVCfirstpasswin0maxmoves0];B[hh])"
    assert load_sgf(plain, warn=lambda w: None).ruleset == "freestyle"
    seen: list[str] = []
    variant = "(;GM[1]SZ[15]RU[basicruleRENJUvcnruleVC2_Bfirstpasswin0maxmoves0];B[hh])"
    record = load_sgf(variant, warn=seen.append)
    assert record.tags["sgf-rules"] == "basicruleRENJUvcnruleVC2_Bfirstpasswin0maxmoves0"
    assert any("RU[basicruleRENJUvcnruleVC2_B" in w for w in seen)


def test_zjrenju_and_orc_gm5() -> None:
    """ZJRenju and ORC write GM[5]: read on a 15×15 board, with a warning."""
    record, seen = _read("gm5.sgf")
    assert len(record.moves) == 4
    assert len(seen) == 1 and seen[0].startswith("line 1: GM[5] is Nine Men's Morris's number")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("(;GM[1];B[hh])", "GM: GM[1] is not Gomoku/Renju (GM[4]); no SZ[15] says the board"),
        ("(;GM[1]SZ[19];B[pd])", "line 1: GM: GM[1] is not Gomoku/Renju (GM[4])"),
        ("(;GM[go]SZ[15];B[hh])", "line 1: GM: GM[go] is not Gomoku/Renju"),
    ],
)
def test_another_game_without_a_15x15_board_is_still_refused(text: str, message: str) -> None:
    with pytest.raises(RecordFormatError) as info:
        load_sgf(text, warn=lambda w: None)
    assert message in str(info.value)


# --- SGF: RU, repeats, identifiers, character sets --------------------------------------


@pytest.mark.parametrize("rules", ["Yamaguchi", "Taraguchi-10", "swap2", "Gomoku", "五子棋"])
def test_an_unknown_rule_is_kept_as_a_tag_with_a_warning(rules: str) -> None:
    """The RU values of the real files tried for issue 20 (opening rules, game names)."""
    seen: list[str] = []
    record = load_sgf(f"(;GM[4]SZ[15]\nRU[{rules}];B[hh])", warn=seen.append)
    assert record.ruleset == "renju" and record.tags["sgf-rules"] == rules
    assert "read as renju, and the text kept as the tag sgf-rules" in seen[0]
    assert len(seen) == 1 and seen[0].startswith(f"line 2: RU[{rules}]: unknown rule set")
    # the tag survives Wuzi's own SGF and is no warning then
    again: list[str] = []
    assert load_sgf(export_sgf(record), warn=again.append).tags["sgf-rules"] == rules
    assert again == []


def test_a_repeated_property_wuzi_reads_is_still_an_error() -> None:
    """GoWrite repeats LB (ignored); a repeated B, PB or WZ… property is ambiguous."""
    for text, ident in (
        ("(;GM[4]\nPB[x]PB[y])", "PB"),
        ("(;GM[4];B[hh]B[ii])", "B"),
        ("(;GM[4]WZTB[1]WZTB[2])", "WZTB"),
    ):
        with pytest.raises(RecordFormatError, match=f"property {ident} given twice"):
            load_sgf(text, warn=lambda w: None)


def test_a_repeated_ignored_property_warns_once() -> None:
    seen: list[str] = []
    text = "(;GM[4];B[hh]LB[hh:1]LB[ig:A];W[ig]LB[hh:1]LB[ig:2]TR[jj]TR[kk])"
    assert len(load_sgf(text, warn=seen.append).moves) == 2
    assert [w.split("property ")[1].split()[0] for w in seen] == ["LB", "TR"]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("(;GM[4]\n6A[hh])", "line 2: '6A' is not a valid property identifier (SGF identifiers"),
        ("(;GM[4];B[hh]W_L[10])", "line 1: 'W_L' is not a valid property identifier"),
        ("(;GM[4];B[hh]\n  B2[ii])", "line 2: 'B2' is not a valid property identifier"),
    ],
)
def test_an_invalid_property_identifier_is_named_as_such(text: str, message: str) -> None:
    with pytest.raises(RecordFormatError) as info:
        load_sgf(text)
    assert message in str(info.value)


def test_a_renju_server_game_gm5_5a_and_an_empty_last_node() -> None:
    """Renju game servers' SGF, as RenLib's Sgf::Parse reads it: GM[5], 5A (the fifth
    move's alternative, an identifier SGF does not allow), RE[W+Resign], a final ';'."""
    record, seen = _read("renju-server.sgf")
    assert len(record.moves) == 10 and record.points[4] == P("i11")
    assert record.result is not None
    assert (record.result.winner, record.result.reason) == ("white", "resignation")
    assert (record.player_of(Colour.BLACK).name, record.time_control) == ("Alpha", "600")
    assert record.tags["sgf-5A"] == "ki"
    assert [w.split(":")[0] for w in seen] == ["line 1", "line 3"]
    assert "'5A' is not a valid property identifier" in seen[1]
    assert "kept as the tag sgf-5A" in seen[1]


@pytest.mark.parametrize("label", ["gb2312", "GB2312", "GBK", "cp936", "gb18030"])
def test_gb_labels_decode_as_gb18030(label: str) -> None:
    data = f"(;GM[4]CA[{label}]PB[刘镕]PW[周昇];B[hh])".encode("gb18030")
    record = load_sgf(data)
    assert (record.first.name, record.second.name) == ("刘镕", "周昇")


# a RenLib library converted to SGF (lfz084/renju-beta's 24地毯之丘月.lib.sgf, shared/interop):
# the header says UTF-8, the labels are GBK
MISLABELLED = (
    b"(\n  ;GM[1]CA[UTF-8]SZ[15]LB[hh:" + "天元".encode("gbk") + b"]\n  ;B[hh]LB[ih:"
    + "直".encode("gbk") + b"]\n  ;W[ih]\n)"
)  # fmt: skip


def test_a_file_that_says_utf8_but_holds_gbk_is_read_with_a_warning() -> None:
    seen: list[str] = []
    record = load_sgf(MISLABELLED, warn=seen.append)
    assert len(record.points) == 2 and record.points[0] == P("h8")  # the moves are all read
    assert seen[0] == (
        "line 2: CA[UTF-8], but LB[…] is not UTF-8 (byte 31): read as GB18030 (GBK), the "
        "character set Chinese Gomoku programs write"
    )
    # neither UTF-8 nor GB18030: still refused, naming the byte
    with pytest.raises(RecordFormatError, match=r"byte 19: not UTF-8 text \(CA\[UTF-8\]\)"):
        load_sgf(b"(;GM[4]CA[UTF-8]PB[\x80];B[hh])")


def test_the_cli_names_the_mislabelled_file_and_field(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "24地毯之丘月.lib.sgf"
    source.write_bytes(MISLABELLED)
    assert main(["rules", "record", "convert", str(source), str(tmp_path / "game.json")]) == 0
    err = capsys.readouterr().err
    assert f"warning: {source}: line 2: CA[UTF-8], but LB[…] is not UTF-8" in err


# --- SGF: Gomoku Quest's QPR and QSLW ----------------------------------------------------


def test_gomoku_quest_opening_stones_are_the_first_moves() -> None:
    """Gomoku Quest: QPR the designated opening (珠型), QSLW White's fourth move."""
    record, seen = _read("gomokuquest.sgf")
    assert seen == []
    moves = record.moves
    assert [m.point for m in moves] == [P(p) for p in ("h8", "h9", "j10", "i9", "g9", "i7", "f8")]
    assert [m.colour for m in moves] == [Colour.BLACK, Colour.WHITE] * 3 + [Colour.BLACK]
    opening = record.opening
    assert (opening.procedure, opening.opening_id) == ("designated", "3D")
    assert opening.opening_name == "疏星 Sosei"


def test_gomoku_quest_stones_written_again_as_moves_are_the_same_moves() -> None:
    """Gomoku Quest may repeat the opening's stones as B/W nodes: they are not placed twice."""
    text = "(;GM[4]SZ[15];QPR[hh,hg,jf];QSLW[ig];B[hh];W[hg];B[jf];W[ig];B[gg];W[ii])"
    record = load_sgf(text)
    assert record.points == tuple(P(p) for p in ("h8", "h9", "j10", "i9", "g9", "i7"))


def test_gomoku_quest_errors_name_the_property() -> None:
    with pytest.raises(RecordFormatError, match="line 2: QPR: \\[zz\\] is off the 15×15 board"):
        load_sgf("(;GM[4]\n;QPR[hh,zz])")
    with pytest.raises(RecordFormatError, match="QSLW: \\[\\] is not a list of points"):
        load_sgf("(;GM[4];QPR[hh,hg,jf];QSLW[])")
    with pytest.raises(RecordFormatError, match="move 6: h8 is already occupied"):
        load_sgf("(;GM[4];QPR[hh,hg,jf];QSLW[ig];B[gg];W[hh])")


def test_gomoku_quest_records_round_trip_through_wuzi_sgf_and_json() -> None:
    record, _ = _read("gomokuquest.sgf")
    for fmt in ("sgf", "json"):
        assert load(export(record, fmt), fmt) == record


# --- PSQ: seats, first mover, header fields ---------------------------------------------


def test_psq_names_follow_piskvork_seats_and_the_first_mover() -> None:
    """Piskvork's savePsq: names in seat order; the header's last field is who moved first."""
    record = read_record(DATA / "piskvork-alternate.psq")
    # player 2 (pbrain-two) moved first, so held Black: Wuzi's first seat
    assert record.player_of(Colour.BLACK).name == "pbrain-two.exe"
    assert record.player_of(Colour.WHITE).name == "pbrain-one.exe"
    assert record.black_seat is Seat.FIRST and record.first.name == "pbrain-two.exe"
    assert [m.t_ms for m in record.moves] == [1000, 3000, 3500]
    assert dict(record.tags) == {"psq-levels": "11:7", "psq-first-player": "1", "psq-end": "3"}


def test_psq_reexport_keeps_the_header_and_the_end_code() -> None:
    """Piskvork: read and written again, the file is the same, levels and end code kept."""
    original = (DATA / "piskvork-alternate.psq").read_text(encoding="ascii")
    record = load_psq(original)
    assert export_psq(record) == original
    # through JSON and SGF too (the tags travel)
    for fmt in ("json", "sgf"):
        assert export_psq(load(export(record, fmt), fmt)) == original


def test_psq_first_player_0_reads_player_1_as_black() -> None:
    record = load_psq("Piskvorky 15x15, 0:0, 0\n8,8,0\n9,9,0\nAda\nBob\n0\n")
    assert record.player_of(Colour.BLACK).name == "Ada" and dict(record.tags) == {}


def test_piskvork_human_names_and_a_gui_save_without_names() -> None:
    """Piskvork writes a human as homo-1/homo-2; a GUI save has no names, end code -1."""
    record = load_psq("Piskvorky 15x15, 0:3, 1\n8,8,0\nhomo-1\npbrain-x.exe\n0\n")
    assert (record.first.name, record.second.name) == ("pbrain-x.exe", "")
    assert export_psq(record).splitlines()[-3:] == ["homo-1", "pbrain-x.exe", "0"]
    gui = load_psq("Piskvorky 15x15, 7:0, 0\n8,8,120\n9,9,80\n-1\n")
    assert gui.first.name == gui.second.name == "" and gui.tags["psq-end"] == "-1"
    assert gui.tags["psq-levels"] == "7:0"


def test_a_file_with_the_end_code_before_the_names() -> None:
    record = load_psq(
        "Piskvorky 15x15, 11:11, 1\r\n8,8,0\r\n9,8,0\r\n-1\r\nRAPFI25.zip\r\nJAX25.zip\r\n"
        "0,Freestyle15_1\r\n"
    )
    assert record.player_of(Colour.BLACK).name == "JAX25.zip"  # player 2 moved first
    assert record.player_of(Colour.WHITE).name == "RAPFI25.zip"
    assert record.tags["psq-end"] == "-1"


@pytest.mark.parametrize(
    ("tags", "message"),
    [
        ({"psq-levels": "fast"}, "tag psq-levels: 'fast' is not two AI levels"),
        ({"psq-first-player": "2"}, "tag psq-first-player: must be 0 or 1, not '2'"),
        ({"psq-end": "end"}, "tag psq-end: 'end' is not a whole number"),
    ],
)
def test_psq_header_tags_that_are_no_header_are_refused(tags: dict[str, str], message: str) -> None:
    with pytest.raises(RecordFormatError, match=message):
        export_psq(GameRecord.from_points([P("h8")], tags=tags))


# --- RenLib .pos padding -------------------------------------------------------------


def test_pos_padding_after_the_moves_reads_as_renlib_reads_it() -> None:
    """RenLib's Pos::Read uses bytes 0..N of its 226-byte buffer: padding is ignored."""
    record, seen = _read("padded.pos")
    assert record.points == (P("h8"), P("h9"), P("i8"))
    assert seen == [
        "byte 4: 12 byte(s) after the 3 moves ignored (RenLib reads only the moves too)"
    ]


def test_without_a_callback_a_warning_is_a_record_warning() -> None:
    with pytest.warns(RecordWarning, match="byte 2: 1 byte"):
        load_pos(bytes([1, 112, 0]))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        load_pos(bytes([1, 112]))  # nothing to warn of


# --- the command line ------------------------------------------------------------------


def test_the_cli_prints_warnings_on_stderr_and_exits_0(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "game.json"
    code = main(["rules", "record", "convert", str(DATA / "gowrite.sgf"), str(out)])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    lines = captured.err.splitlines()
    assert len(lines) == 2 and all(line.startswith("warning: ") for line in lines)
    assert f"warning: {DATA / 'gowrite.sgf'}: line 1: GM[1]" in captured.err
    assert read_record(out).player_of(Colour.BLACK).name == "李堃"
