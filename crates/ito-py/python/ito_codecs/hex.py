"""Hexadecimal encoding and decoding with SIMD kernels.

Invalid digits raise :class:`ito_codecs.Error` with their byte offset.
"""

from ._ito import hex as _native

encode = _native.encode
decode = _native.decode

__all__ = ["encode", "decode"]
