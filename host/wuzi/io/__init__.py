"""The only code that touches serial ports and GPIO pins: drivers around the pure link sessions."""
