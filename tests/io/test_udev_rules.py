"""deploy/udev/99-wuzi-boards.rules, parsed (udevadm is not on the test machines): every rule
that names a device matches it positively, and the names it makes are the documented ones."""

from __future__ import annotations

import re
from pathlib import Path

RULES = Path(__file__).resolve().parents[2] / "deploy" / "udev" / "99-wuzi-boards.rules"
_PAIR = re.compile(r'\s*([A-Za-z_]+(?:\{[^}]*\})?)\s*(==|!=|\+=|-=|:=|=)\s*"([^"]*)"\s*(?:,|$)')


def rules() -> list[list[tuple[str, str, str]]]:
    parsed = []
    for raw in RULES.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        pairs, at = [], 0
        while at < len(line):
            m = _PAIR.match(line, at)
            assert m is not None, f"cannot parse {line[at:]!r}"
            pairs.append((m[1], m[2], m[3]))
            at = m.end()
        parsed.append(pairs)
    return parsed


def test_no_negated_attribute_of_a_parent_device() -> None:
    for rule in rules():
        for key, op, _ in rule:
            assert not (key.startswith("ATTRS") and op == "!="), rule


def test_every_rule_that_acts_matches_the_rp2040_micropython_device() -> None:
    acting = [
        r
        for r in rules()
        if any(op in ("=", "+=") for k, op, _ in r) and r[0][0] not in ("ACTION", "LABEL")
    ]
    assert len(acting) == 3
    for rule in acting:
        matches = {(k, v) for k, op, v in rule if op == "=="}
        assert {("SUBSYSTEM", "tty"), ("ATTRS{idVendor}", "2e8a")} <= matches, rule
        assert ("ATTRS{idProduct}", "0005") in matches, rule
        assert not any(k == "GOTO" for k, _, _ in rule), rule


def test_the_links_are_by_serial_and_by_port() -> None:
    links = [v for r in rules() for k, op, v in r if k == "SYMLINK" and op == "+="]
    assert links == ["wuzi/by-serial/$attr{serial}", "wuzi/by-port/$env{ID_PATH}"]
    by_serial = next(r for r in rules() if ("SYMLINK", "+=", links[0]) in r)
    assert ("ATTRS{serial}", "==", "?*") in by_serial
    assert ("MODE", "=", "0660") in by_serial and ("GROUP", "=", "dialout") in by_serial


def test_the_only_jump_skips_removals_to_the_end_label() -> None:
    gotos = [(r, v) for r in rules() for k, _, v in r if k == "GOTO"]
    assert [v for _, v in gotos] == ["wuzi_end"]
    assert gotos[0][0][0] == ("ACTION", "==", "remove")
    assert rules()[-1] == [("LABEL", "=", "wuzi_end")]


def test_the_example_venue_file_names_only_links_the_rules_make() -> None:
    from wuzi.config import load_venue

    example = RULES.parents[1] / "venue.example.toml"
    venue = load_venue(example)
    hex16 = re.compile(r"[0-9A-F]{16}")
    for table in venue.tables():
        for port, serial in (
            (table.board_port, table.board_serial),
            (table.clock_port, table.clock_serial),
        ):
            if port is None or not port.startswith("/dev/"):
                continue
            assert port.startswith(("/dev/wuzi/by-serial/", "/dev/wuzi/by-port/")), port
            if port.startswith("/dev/wuzi/by-serial/"):
                name = port.rsplit("/", 1)[1]
                assert hex16.fullmatch(name), port
                assert serial in (None, name), (port, serial)
