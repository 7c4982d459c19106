"""``wuzi.bus`` defers ``urllib.request`` (which paho-mqtt imports for a proxy lookup
Wuzi never needs): importing the bus client runs none of it, and the first use of it
gets the real module."""

from __future__ import annotations

import subprocess
import sys
import textwrap

PROBE = textwrap.dedent(
    """
    import sys
    import wuzi.bus.client
    import paho.mqtt.client

    assert "http.client" not in sys.modules, "urllib.request ran at import"
    import urllib.request  # an import statement alone does not run it either
    from urllib import request
    assert request is urllib.request is sys.modules["urllib.request"]
    assert "http.client" not in sys.modules

    assert urllib.request.getproxies() == {}  # the first use runs it, in place
    assert "http.client" in sys.modules and callable(urllib.request.urlopen)
    assert paho.mqtt.client.urllib.request.proxy_bypass is urllib.request.proxy_bypass
    try:
        urllib.request.no_such_name
    except AttributeError:
        pass
    else:
        raise AssertionError("a missing name must still be an AttributeError")
    print("ok")
    """
)


def test_urllib_request_runs_only_when_first_used() -> None:
    env_free = {"PATH": "/usr/bin:/bin", "PYTHONDONTWRITEBYTECODE": "1"}  # no *_proxy
    done = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, env=env_free, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok"
