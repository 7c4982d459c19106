"""The MQTT bus: the topic tree, versioned message schemas, and a paho-mqtt client shell.

See docs/bus.md for the topics, schemas, QoS and retain rules.
"""
