"""``python -m wuzi.cli …`` is the ``wuzi`` command (tests and tools start it this way)."""

import sys

from wuzi.cli import main

sys.exit(main())
