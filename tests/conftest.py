"""Test-wide settings.

Hypothesis explores new random examples on every developer run (that is how it finds
bugs), but CI must judge a commit, not the luck of a draw: `.ci/run` sets
``HYPOTHESIS_PROFILE=ci``, which derandomizes the search so a green commit stays green.
A failure found on a developer run becomes a named regression test.
"""

from __future__ import annotations

import os

from hypothesis import settings

settings.register_profile("ci", derandomize=True, print_blob=True)
settings.register_profile("dev", print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))
