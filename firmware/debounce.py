"""Button debounce shared by the clock unit's firmware and the Pi's gpiozero clock driver.

Clock presses must be fast (the press stops the player's time) and never doubled, so a press
is accepted on its *first* edge, and any edge within ``debounce_ms`` of the previous edge
(contact bounce on press or release) is ignored. Pure: time is an argument, in ms (wrapping
ticks are fine: only differences are used, through ``ticks_diff``).
"""

# On the MCU each file is a top-level module; the host imports its copies as a package
# (wuzi.link, wuzi.sim.firmware). Nothing here knows the host's layout. mypy: IN_PACKAGE is
# always false for the firmware's check (firmware/mypy.ini), always true for the host's.
IN_PACKAGE = "." in __name__
if IN_PACKAGE:
    from . import wire
else:
    import wire


class EdgeDebouncer:
    def __init__(self, debounce_ms: int = 30) -> None:
        if debounce_ms < 0:
            raise ValueError("debounce_ms must be >= 0")
        self.debounce_ms = debounce_ms
        self.pressed = False
        self.last_edge_ms = 0
        self.seen_edge = False

    def edge(self, pressed: bool, now_ms: int) -> bool:
        """The button's level changed to ``pressed`` at ``now_ms``; True if that is a press."""
        quiet = not self.seen_edge or wire.ticks_diff(now_ms, self.last_edge_ms) >= self.debounce_ms
        self.seen_edge = True
        self.last_edge_ms = now_ms
        was = self.pressed
        self.pressed = pressed
        return pressed and not was and quiet
