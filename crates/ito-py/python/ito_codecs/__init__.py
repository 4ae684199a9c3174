"""ito's string codecs for Python.

Distribution ``ito-codecs``, import name ``ito_codecs``:

- :mod:`ito_codecs.json` -- JSON string literals: ``quote``, ``escape``,
  ``unquote``, ``unescape`` (``str`` results) and ``*_bytes`` forms.
- :mod:`ito_codecs.hex` -- ``encode``, ``decode``.
- :mod:`ito_codecs.nostr` -- NIP-01 ``event_id``, ``verify_id``,
  ``verify``, batch verification that releases the GIL and uses every
  core, and ``sign``, ``public_key``, ``generate_secret_key``.
- :mod:`ito_codecs.nip19` -- ``decode`` and ``encode`` of ``npub``,
  ``nsec``, ``note``, ``nprofile``, ``nevent`` and ``naddr`` strings.

Invalid input raises :class:`Error`, a ``ValueError`` whose ``offset`` is
the byte offset of the offending byte.
"""

from ._ito import Error, __version__
from . import hex, json, nip19, nostr

__all__ = ["Error", "__version__", "hex", "json", "nip19", "nostr"]
