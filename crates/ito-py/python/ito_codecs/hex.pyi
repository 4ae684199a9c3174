"""Hexadecimal encoding and decoding."""

__all__ = ["encode", "decode"]

def encode(data: bytes | bytearray, /, *, upper: bool = False) -> str:
    """Hex digits of ``data`` (``data.hex()``)."""

def decode(text: str | bytes, /, *, lowercase_only: bool = False) -> bytes:
    """The bytes the digits spell; no whitespace skipped; raises :class:`ito_codecs.Error` with the offset."""
