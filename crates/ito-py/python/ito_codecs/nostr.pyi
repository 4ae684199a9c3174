"""NIP-01 Nostr event ids and signatures, single and batch."""

import os
from typing import Any, Callable, Iterable, Literal, Mapping, Optional, Union, final, overload

from . import nip19 as nip19

__all__ = [
    "event_id", "verify_id", "verify", "verdict", "verify_all", "verify_jsonl", "verify_file", "Verdict", "Summary",
    "sign", "public_key", "generate_secret_key", "Filter", "FilterIndex", "filter_jsonl", "nip19",
]

_SecretKey = Union[bytes, str]

_Check = Literal["signature", "id"]
_Event = Union[str, bytes]

def event_id(event: _Event, /) -> str:
    """The computed id (64 lowercase hex digits); raises :class:`ito_codecs.Error` if the event does not parse."""

def verify_id(event: _Event, /) -> bool:
    """Whether the id matches the contents; raises :class:`ito_codecs.Error` if the event does not parse."""

def verify(event: _Event, /) -> bool:
    """Whether id and BIP-340 signature are valid; releases the GIL; raises :class:`ito_codecs.Error` if the event does not parse."""

@final
class Verdict:
    """The outcome of checking one event; true exactly when ``status == "ok"``."""

    status: Literal["ok", "bad_id", "bad_signature", "invalid"]
    offset: Optional[int]
    field: Optional[str]
    message: Optional[str]
    @property
    def ok(self) -> bool: ...
    def __bool__(self) -> bool: ...

@final
class Summary:
    """Counts from :func:`verify_file`."""

    lines: int
    bytes: int
    events: int
    ok: int
    bad_id: int
    bad_signature: int
    invalid: int
    @property
    def failed(self) -> int: ...

def verdict(event: _Event, /, *, check: _Check = "signature") -> Verdict:
    """Checks one event; never raises for bad input."""

def verify_all(
    events: Iterable[_Event], /, *, check: _Check = "signature", threads: Optional[int] = None
) -> list[Verdict]:
    """One verdict per event, in input order, on every core with the GIL released."""

def verify_jsonl(
    data: _Event, /, *, check: _Check = "signature", threads: Optional[int] = None
) -> list[tuple[int, Verdict]]:
    """``(line_number, verdict)`` for every non-blank line, in input order, on every core."""

def verify_file(
    path: Union[str, os.PathLike[str]],
    /,
    *,
    check: _Check = "signature",
    on_bad: Optional[Callable[[int, bytes, Verdict], object]] = None,
) -> Summary:
    """Streams a JSON-lines file in bounded memory on every core; ``on_bad`` sees each failing event."""

def sign(template: Union[Mapping[str, Any], str, bytes], secret_key: _SecretKey, /) -> str:
    """Signs a template (``created_at``, ``kind``, ``tags``, ``content``) and returns the event's NIP-01 JSON."""

def public_key(secret_key: _SecretKey, /) -> str:
    """The x-only public key (64 lowercase hex digits) of a secret key (32 bytes, hex or ``nsec1``)."""

def generate_secret_key() -> bytes:
    """A new 32-byte secret key from the operating system's random source."""

_FilterLike = Union[str, bytes, Mapping[str, Any], "Filter"]
_Filters = Union[_FilterLike, list[_FilterLike], tuple[_FilterLike, ...]]

@final
class Filter:
    """One NIP-01 filter, from its JSON or a mapping; raises :class:`ito_codecs.Error` for a bad filter."""

    def __new__(cls, filter: _FilterLike, /) -> "Filter": ...
    def matches(self, event: _Event, /) -> bool:
        """Whether the event (its JSON) matches; ids and signatures are not checked."""
    @property
    def json(self) -> str: ...

@final
class FilterIndex:
    """A relay's open subscriptions, to find those an event matches."""

    def __new__(cls) -> "FilterIndex": ...
    def add(self, sub_id: str, filters: _Filters, /) -> None:
        """Opens (or replaces) a subscription with one filter or a list of them."""
    def remove(self, sub_id: str, /) -> bool:
        """Closes a subscription; whether it was open."""
    def matches(self, event: _Event, /) -> list[str]:
        """The ids of the subscriptions the event matches, each once, in the order opened."""
    def __len__(self) -> int: ...
    def __contains__(self, sub_id: object, /) -> bool: ...

@overload
def filter_jsonl(data: str, filters: _Filters, /, *, threads: Optional[int] = None) -> list[str]: ...
@overload
def filter_jsonl(data: bytes, filters: _Filters, /, *, threads: Optional[int] = None) -> list[bytes]: ...
