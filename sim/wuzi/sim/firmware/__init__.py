"""The MCU's own files, run by the simulator: every module here is a symbolic link to the file
of the same name in ``firmware/`` (a copy in a built wheel), so a virtual board runs exactly
the code flashed on the RP2040. The firmware imports nothing of Wuzi: inside this package its
``from . import wire`` finds the sibling file, on the MCU ``import wire`` the top-level one."""
