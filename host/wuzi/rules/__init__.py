"""The rules engine: pure game rules, no I/O and no clock reading.

* ``board`` — points, notation, the 15×15 board; ``symmetry`` — the 8 board symmetries.
* ``forbidden`` — Black's forbidden moves (double-three, double-four, overline) with
  explanations a referee can read; ``wins`` — rows of five.
* ``game`` — a game in progress: turns, passes, draws, claims, results.
* ``procedure``/``openings`` — opening procedures as step sequences.
* ``record`` — game records and their file formats.
"""
