"""The table host service (``wuzi host --config venue.toml``) — its parts so far.

The service joins the pure table session (``wuzi.table``), the journal (``wuzi.journal``),
the bus (``wuzi.bus``) and the board and clock drivers (``wuzi.io``); this package will hold
that wiring. Today it holds the host's benchmarks (``wuzi bench host``).
"""
