"""``wuzi broadcast``: the one publisher of the delayed public feed (``public/table/<n>/…``).

`delay` is the pure core (the delay buffer, time as an argument), `journal` keeps what it
holds across a restart, `service` is the bus shell, `cli` the command. docs/broadcast.md.
"""
