"""``wuzi bench host``: the table host's figures.

Measured so far: ``host.journal_us_per_event``, the cost of one durable journal append
(committed and fsync'd before it returns), on the disk of the current directory's temp
area — the figure is mostly that disk's fsync latency, so measure on the Pi's own storage.
``host.move_latency_p99_ms`` and ``host.recovery_s_24_tables`` join once the service lands.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from wuzi.bench import Emit
from wuzi.journal.journal import measure_append_us


def run(emit: Emit, quick: bool) -> None:
    with tempfile.TemporaryDirectory(prefix="wuzi-bench-journal-") as folder:
        us = measure_append_us(Path(folder) / "journal.sqlite", 100 if quick else 500)
    emit("host.journal_us_per_event", us, "us")
