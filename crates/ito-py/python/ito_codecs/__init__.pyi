from . import hex as hex, json as json, nip19 as nip19, nostr as nostr

__all__ = ["Error", "__version__", "hex", "json", "nip19", "nostr"]

__version__: str

class Error(ValueError):
    """Invalid input. ``offset``: byte offset of the offending byte (in the
    UTF-8 form of a ``str``); ``field``: the Nostr event field concerned."""

    offset: int
    field: str | None
