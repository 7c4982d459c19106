"""Seven-segment patterns for the clock displays (TM1637 bit order: bit 0 = a ... 6 = g, bit 7 =
the colon, lit through the second digit). Pure: the host formats the time, the unit shows it.
"""

from __future__ import annotations

DIGITS = bytes((0x3F, 0x06, 0x5B, 0x4F, 0x66, 0x6D, 0x7D, 0x07, 0x7F, 0x6F))
COLON = 0x80
LETTERS = {
    " ": 0x00,
    "-": 0x40,
    "_": 0x08,
    "a": 0x77,
    "b": 0x7C,
    "c": 0x39,
    "d": 0x5E,
    "e": 0x79,
    "f": 0x71,
    "g": 0x3D,
    "h": 0x76,
    "i": 0x04,
    "j": 0x1E,
    "k": 0x75,  # the usual compromise: h with a top bar
    "l": 0x38,
    "m": 0x37,  # an n with both legs: unmistakable only next to other letters
    "n": 0x54,
    "o": 0x5C,
    "p": 0x73,
    "r": 0x50,
    "s": 0x6D,
    "t": 0x78,
    "u": 0x3E,
    "w": 0x2A,
    "y": 0x6E,
}
"""Every board column a–o can be shown (offers are named on the display), plus what the
menu labels need (``SWAP``, ``StAY``, ``AdJ``)."""


def text(s: str, colon: bool = False) -> bytes:
    """Four characters (digits, space, dash and a few letters) as segment bytes."""
    if len(s) != 4:
        raise ValueError(f"a display shows 4 characters, not {len(s)} ({s!r})")
    out = bytearray(4)
    for i, ch in enumerate(s.lower()):
        if "0" <= ch <= "9":
            out[i] = DIGITS[int(ch)]
        elif ch in LETTERS:
            out[i] = LETTERS[ch]
        else:
            raise ValueError(f"{ch!r} cannot be shown on a seven-segment display")
    if colon:
        out[1] |= COLON
    return bytes(out)


def clock_time(remaining_ms: int) -> bytes:
    """A player's time: ``MM:SS`` under an hour, ``H:MM`` (hours:minutes) above, rounded up
    to the next whole second the way players read a clock (0.4 s left shows 00:01)."""
    if remaining_ms < 0:
        remaining_ms = 0
    seconds = (remaining_ms + 999) // 1000
    if seconds >= 3600:
        hours, minutes = divmod(seconds // 60, 60)
        return text(f"{min(hours, 9):>2}{minutes:02d}", colon=True)
    minutes, secs = divmod(seconds, 60)
    return text(f"{minutes:02d}{secs:02d}", colon=True)
