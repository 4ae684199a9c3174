"""NIP-01 Nostr events: ids and signatures, one event or a whole archive.

Single events (``str`` or UTF-8 ``bytes`` holding one JSON object):
``event_id``, ``verify_id``, ``verify``. An event that does not parse
raises :class:`ito_codecs.Error` with ``offset`` and ``field``.
"""

from ._ito import nostr as _native

event_id = _native.event_id
verify_id = _native.verify_id
verify = _native.verify

__all__ = ["event_id", "verify_id", "verify"]
