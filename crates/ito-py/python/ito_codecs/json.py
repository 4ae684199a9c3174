"""JSON string literals, byte-identical with ``json.dumps`` and serde_json.

``quote``/``escape`` return ``str``; ``quote_bytes``/``escape_bytes`` return
UTF-8 ``bytes`` (and accept ``bytes`` input). ``unquote``/``unescape``
decode, strictly by default. Invalid input raises
:class:`ito_codecs.Error` with the byte offset.
"""

from ._ito import json as _native

quote = _native.quote
quote_bytes = _native.quote_bytes
escape = _native.escape
escape_bytes = _native.escape_bytes
unquote = _native.unquote
unquote_bytes = _native.unquote_bytes
unescape = _native.unescape
unescape_bytes = _native.unescape_bytes

__all__ = [
    "quote",
    "quote_bytes",
    "escape",
    "escape_bytes",
    "unquote",
    "unquote_bytes",
    "unescape",
    "unescape_bytes",
]
