"""Virtual sensor boards and clock units behind ptys, running the firmware's code
(``wuzi.sim.firmware``) with fault injection: scripts (``script``), the devices
(``virtual_board``, ``virtual_clock``), the loop that runs them (``runner``) and a random
player for soak runs (``random_play``)."""
