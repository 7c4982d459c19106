"""pyserial URL handlers of the simulators: ``sim://board`` and ``sim://clock`` (module
``protocol_sim``). The wuzi-sim distribution names this package under the entry-point group
``wuzi.serial_urls``; wuzi.io.ports hands it to pyserial, so a venue file's port
``sim://board`` is opened by ``serial.serial_for_url`` like ``socket://`` or ``rfc2217://``,
and no product module knows the simulators exist."""
