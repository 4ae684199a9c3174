"""NIP-19 strings: ``npub``, ``nsec``, ``note``, ``nprofile``, ``nevent``, ``naddr``.

``decode`` returns nostr-tools' shapes (``{"type": ..., "data": ...}``) and
``encode`` takes them back. Also reachable as ``ito_codecs.nostr.nip19``.

>>> from ito_codecs import nip19
>>> value = nip19.decode(nip19.encode("nprofile", {"pubkey": bytes(32), "relays": ["wss://r.example"]}))
>>> value["type"], value["data"]["relays"]
('nprofile', ['wss://r.example'])
"""

from ._ito import nip19 as _native

decode = _native.decode
encode = _native.encode

__all__ = ["decode", "encode"]
