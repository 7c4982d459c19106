"""Names an attacker or a broken spreadsheet gives, shared by the tests of every way a name
enters (``wuzi.base.text``, the tournament's entry, CSV import and store, the venue file).

Each is ``(label, name, code point)``: the name is otherwise plausible, and the code point
is the one the error must name (as ``U+XXXX``)."""

from __future__ import annotations

HOSTILE_NAMES: tuple[tuple[str, str, int], ...] = (
    ("NUL", "Ann\x00a", 0x00),
    ("line feed: an injected TRF record", "Ann\n001 9999 m    Mallory", 0x0A),
    ("carriage return", "Ann\rBob", 0x0D),
    ("tab", "Ann\tBob", 0x09),
    ("escape sequence: clears the screen", "Ann\x1b[2J\x1b[H", 0x1B),
    ("DEL", "Ann\x7f", 0x7F),
    ("C1 next line", "Ann\x85Bob", 0x85),
    ("C1 control sequence introducer", "Ann\x9b31m", 0x9B),
    ("right-to-left override", "Ann\u202eboB", 0x202E),
    ("first strong isolate", "Ann\u2068Bob", 0x2068),
    ("zero-width space: a look-alike of 'AnnBob'", "Ann\u200bBob", 0x200B),
    ("zero-width joiner", "Ann\u200dBob", 0x200D),
    ("BOM inside", "Ann\ufeffBob", 0xFEFF),
    ("soft hyphen", "Ann\u00adBob", 0xAD),
    ("line separator", "Ann\u2028Bob", 0x2028),
    ("paragraph separator", "Ann\u2029Bob", 0x2029),
    ("tag character", "Ann\U000e0041", 0xE0041),
)
"""Every kind of character a name refuses: C0, DEL, C1, bidi, zero-width, line breaks."""

GOOD_NAMES: tuple[str, ...] = (
    "王小明",
    "Anne-Marie O'Neil",
    "José Martínez",
    "Ōtani Shō",
    "李\u3000雷",  # an ideographic space, as Chinese forms write it
    "Team <b>Bold</b> & Co",  # markup is text: escaped by the HTML export, not refused
    "=1+1",  # a formula is text: made inert by the CSV export, not refused
    "🙂 Smile",
)
"""Names that must keep working."""
