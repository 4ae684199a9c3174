"""JSON string literals (see the runtime docstrings for examples)."""

__all__ = ["quote", "quote_bytes", "escape", "escape_bytes", "unquote", "unquote_bytes", "unescape", "unescape_bytes"]

def quote(
    s: str,
    /,
    *,
    ascii_only: bool = False,
    escape_slash: bool = False,
    html_safe: bool = False,
    js_safe: bool = False,
    escape_del_and_c1: bool = False,
    uppercase_hex: bool = False,
) -> str:
    """``s`` as a JSON string literal, quotes included (``json.dumps(s, ensure_ascii=False)``)."""

def quote_bytes(
    s: str | bytes,
    /,
    *,
    ascii_only: bool = False,
    escape_slash: bool = False,
    html_safe: bool = False,
    js_safe: bool = False,
    escape_del_and_c1: bool = False,
    uppercase_hex: bool = False,
    replace_invalid: bool = False,
) -> bytes:
    """:func:`quote` as UTF-8 ``bytes``; ``bytes`` input must be UTF-8 (raises :class:`ito_codecs.Error`) unless ``replace_invalid``."""

def escape(
    s: str,
    /,
    *,
    ascii_only: bool = False,
    escape_slash: bool = False,
    html_safe: bool = False,
    js_safe: bool = False,
    escape_del_and_c1: bool = False,
    uppercase_hex: bool = False,
) -> str:
    """:func:`quote` without the quotes."""

def escape_bytes(
    s: str | bytes,
    /,
    *,
    ascii_only: bool = False,
    escape_slash: bool = False,
    html_safe: bool = False,
    js_safe: bool = False,
    escape_del_and_c1: bool = False,
    uppercase_hex: bool = False,
    replace_invalid: bool = False,
) -> bytes:
    """:func:`escape` as UTF-8 ``bytes``."""

def unquote(s: str | bytes, /) -> str:
    """The value of exactly one JSON string literal; strict RFC 8259 (raises :class:`ito_codecs.Error`)."""

def unquote_bytes(s: str | bytes, /) -> bytes:
    """:func:`unquote` as UTF-8 ``bytes``."""

def unescape(s: str | bytes, /, *, replace_invalid: bool = False, wtf8: bool = False) -> str:
    """Decodes the text between a JSON string's quotes."""

def unescape_bytes(s: str | bytes, /, *, replace_invalid: bool = False, wtf8: bool = False) -> bytes:
    """:func:`unescape` as ``bytes`` (WTF-8 with ``wtf8=True``)."""
