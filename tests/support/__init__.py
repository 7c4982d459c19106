"""What the tests share, in one place (pytest puts ``tests/`` on the path: ``pythonpath`` in
pyproject.toml): real brokers (``broker``: Mosquitto; ``acl``: a broker set up by
``wuzi venue broker-config``), simulated boards on a loopback link (``boards``), a real
``wuzi host`` on simulated tables (``host``) or in-process (``service``), the director's
final and events (``director``), off-screen frames and pixel checks (``screens``), the
firmware under real MicroPython (``micropython``), a hall line between two hosts
simulated in milliseconds (``hall_line``). Fixtures that use them are in
tests/conftest.py."""
