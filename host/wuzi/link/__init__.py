"""The board link: sans-I/O sessions on top of ``firmware/wire.py`` and the reconciler.

``wuzi.link.wire`` *is* ``firmware/wire.py`` (a symbolic link in the source tree, a copy in a
built wheel): the MCU and the host share one codec. Nothing in this package does I/O or reads
the clock; ``wuzi.io`` drives it.
"""
