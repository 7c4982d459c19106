"""Screens: the venue scoreboard, the table clock display and the arbiter view (pyglet),
each a pure view model fed from MQTT plus a thin drawing layer."""
