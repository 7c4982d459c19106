"""The MQTT bus: the topic tree, versioned message schemas, and a paho-mqtt client shell.

See docs/bus.md for the topics, schemas, QoS and retain rules.

Importing the package first defers ``urllib.request`` (``_import_on_first_use``), before
``wuzi.bus.client`` imports paho-mqtt.
"""

import importlib.util
import sys
import threading
from typing import Any


def _import_on_first_use(name: str) -> None:
    """Put in ``sys.modules`` a module ``name`` whose code runs when an attribute of it is
    first used, not when it is imported.

    paho-mqtt imports ``urllib.request`` at its top (and with it ``http.client``,
    ``email``, …: ~16 ms of a host's start on the development machine, ~60 ms on a Pi 4;
    docs/performance.md) for one thing: reading a proxy from the environment, which it
    does only when PySocks is installed — never in a Wuzi install. So paho binds this
    module instead, and if anything ever uses it, its code runs then, in place, and the
    module is the real one from that instant on.

    Not ``importlib.util.LazyLoader``: its module loads at the next ``import`` statement
    naming it, which reads ``__spec__``. Here ``__spec__`` and the other module attributes
    are set at once, and only a missing attribute (PEP 562's module ``__getattr__``)
    runs the code — once, under a lock, whichever thread comes first.
    """
    if name in sys.modules:
        return
    spec = importlib.util.find_spec(name)
    if spec is None or spec.loader is None:
        return
    loader = spec.loader
    module = importlib.util.module_from_spec(spec)
    lock = threading.Lock()

    def load_then_get(attribute: str) -> Any:
        with lock:
            if vars(module).get("__getattr__") is load_then_get:
                del vars(module)["__getattr__"]
                loader.exec_module(module)
        return getattr(module, attribute)

    vars(module)["__getattr__"] = load_then_get
    sys.modules[name] = module
    parent, _, child = name.rpartition(".")
    if parent:  # as the import system does: the package knows its submodule
        setattr(sys.modules[parent], child, module)


_import_on_first_use("urllib.request")
