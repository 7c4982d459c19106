"""The table host service (``wuzi host --config venue.toml``) and the referee's command line
(``wuzi referee send``).

The service joins the pure table session (``wuzi.table``), the journal (``wuzi.journal``),
the bus (``wuzi.bus``) and the board and clock drivers (``wuzi.io``): the loop
(``service``), the link's reports as table inputs (``link_events``), each table's runtime
and recovery (``table_runtime``, ``board_recovery``), publishing (``publish``), referee
commands and the control socket (``commands``, ``control``), the clock units' displays
(``displays``), records, sd_notify.
"""
