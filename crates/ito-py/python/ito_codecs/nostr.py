"""NIP-01 Nostr events: ids and signatures, one event or a whole archive.

Single events (``str`` or UTF-8 ``bytes`` holding one JSON object):
``event_id``, ``verify_id``, ``verify`` raise :class:`ito_codecs.Error`
(with ``offset`` and ``field``) for an event that does not parse;
``verdict`` returns a :class:`Verdict` instead.

Many events, on every core with the GIL released, one :class:`Verdict` per
event in input order and no exception for a bad event: ``verify_all``
(a list of events), ``verify_jsonl`` (a buffer of JSON lines) and
``verify_file`` (a JSON-lines file streamed in bounded memory, returning a
:class:`Summary`).

Creating events, with nostr-tools' names in Python spelling: ``sign``
(``finalizeEvent``), ``public_key`` (``getPublicKey``),
``generate_secret_key`` (``generateSecretKey``); :mod:`ito_codecs.nip19`
(also ``nostr.nip19``) for ``npub``/``nsec``/``note``/``nprofile``/
``nevent``/``naddr`` strings.

Subscription filters (NIP-01): :class:`Filter` (one filter, ``matches``),
:class:`FilterIndex` (a relay's open subscriptions: which of them an event
matches) and ``filter_jsonl`` (the matching lines of a JSON-lines buffer,
on every core with the GIL released).
"""

from ._ito import nostr as _native
from . import nip19

event_id = _native.event_id
verify_id = _native.verify_id
verify = _native.verify
verdict = _native.verdict
verify_all = _native.verify_all
verify_jsonl = _native.verify_jsonl
verify_file = _native.verify_file
Verdict = _native.Verdict
Summary = _native.Summary
sign = _native.sign
public_key = _native.public_key
generate_secret_key = _native.generate_secret_key
Filter = _native.Filter
FilterIndex = _native.FilterIndex
filter_jsonl = _native.filter_jsonl

__all__ = [
    "event_id",
    "verify_id",
    "verify",
    "verdict",
    "verify_all",
    "verify_jsonl",
    "verify_file",
    "Verdict",
    "Summary",
    "sign",
    "public_key",
    "generate_secret_key",
    "Filter",
    "FilterIndex",
    "filter_jsonl",
    "nip19",
]
