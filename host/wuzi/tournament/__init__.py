"""Pure competition logic: entrants, team matches, placement knockouts, Swiss and round
robin pairings, tie-breaks, standings, playoffs, prize places, the online preliminary's
ranking and Elo ratings.

Nothing here does I/O or reads the clock: results and pairings are plain data, and the
organisers' command (``wuzi tournament``, in ``cli``) keeps them in SQLite (``store``).
See docs/tournament.md for the formats, the tie-break formulas and the conventions.
"""
