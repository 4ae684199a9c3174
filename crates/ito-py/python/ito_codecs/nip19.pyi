"""NIP-19 strings: npub, nsec, note, nprofile, nevent, naddr."""

from typing import Any, Literal, Union

__all__ = ["decode", "encode"]

_Type = Literal["npub", "nsec", "note", "nprofile", "nevent", "naddr"]

def decode(s: str, /) -> dict[str, Any]:
    """``{"type": ..., "data": ...}`` in nostr-tools' shapes; raises :class:`ito_codecs.Error` for a bad string."""

def encode(type: _Type, data: Union[str, bytes, dict[str, Any]], /) -> str:
    """The NIP-19 string of ``data`` (the shapes :func:`decode` returns)."""
