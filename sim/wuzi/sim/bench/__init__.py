"""``wuzi bench``: every area's performance figures (``cli``), one module an area (``rules``,
``clock``, ``link``, ``host``, ``tournament``, ``display`` with ``screens``, ``venue``; ``bots``
for the simulator's own players). Each has ``run(emit, quick)``; ``emit(name, value, unit)``
prints one ``BENCH <name> <value> <unit>`` line. Targets live in the issues and docs, never
in pass/fail tests."""
