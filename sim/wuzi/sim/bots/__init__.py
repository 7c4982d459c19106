"""The players of the simulated venue: Gomoku bots that make and meet threats and never play a
forbidden point (``bot``, ``patterns``, ``search``), a table's two players as a pure state
machine (``table_player``) and their hands on the simulated hardware (``table_driver``)."""
