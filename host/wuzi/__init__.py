"""Wuzi: the software that runs the hardware of an offline Gomoku tournament venue.

The pure cores (``rules``, ``clock``, ``tournament``, ``link``) never do I/O and never read
the time; the shells around them (``io``, ``table``, ``journal``, ``bus``, ``director``,
``sim``) do. See ARCHITECTURE.md and README.md.
"""

__version__ = "0.1.0"
