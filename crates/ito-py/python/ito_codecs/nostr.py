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
"""

from ._ito import nostr as _native

event_id = _native.event_id
verify_id = _native.verify_id
verify = _native.verify
verdict = _native.verdict
verify_all = _native.verify_all
verify_jsonl = _native.verify_jsonl
verify_file = _native.verify_file
Verdict = _native.Verdict
Summary = _native.Summary

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
]
