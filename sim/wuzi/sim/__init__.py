"""Everything that stands in for the venue's people and hardware, and measures Wuzi: never
installed on a Pi's path to play (nothing in ``host/`` imports it).

- ``firmware``: the MCU's own files; ``devices``: virtual boards and clock units on ptys;
  ``cli``: ``wuzi sim board``
- ``bots``: Gomoku bots and a table's two players acting through the simulated hardware
- ``box``: a venue in a box (a real Mosquitto, simulated tables, a ``wuzi host`` process)
- ``final``: the simulated final with faults; ``demo``: ``wuzi demo``; ``showcase``:
  ``wuzi demo --showcase``
- ``bench``: ``wuzi bench`` and every area's figures
"""
