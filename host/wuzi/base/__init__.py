"""What every layer of Wuzi may use: the release number and the words for JSON values in error
messages. The lowest layer: it imports nothing of Wuzi (``.importlinter``)."""

__version__ = "0.1.0"
