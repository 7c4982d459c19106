"""The table session: one live game joined from board stones, clock presses and the rules.

``wuzi.table.session.TableSession`` is a pure, sans-I/O core (h11 style): the shell feeds
it inputs (``wuzi.table.inputs``) with the host's ``now_ns`` and drains the ordered
outputs (``wuzi.table.outputs``) to journal and publish. See docs/table.md.
"""
