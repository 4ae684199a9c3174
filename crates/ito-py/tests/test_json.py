"""ito_codecs.json against json.dumps / json.loads and a plain reference."""

import json
import random

import pytest

import ito_codecs
from ito_codecs import json as ij

OPTIONS = ["ascii_only", "escape_slash", "html_safe", "js_safe", "escape_del_and_c1", "uppercase_hex"]


def reference_escape(s, ascii_only=False, escape_slash=False, html_safe=False, js_safe=False,
                     escape_del_and_c1=False, uppercase_hex=False):
    """Character-at-a-time reference of ito's escaping policies."""
    short = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t"}
    hexfmt = "\\u%04X" if uppercase_hex else "\\u%04x"
    out = []
    for ch in s:
        c = ord(ch)
        if ch in short:
            out.append(short[ch])
        elif c < 0x20:
            out.append(hexfmt % c)
        elif ch == "/" and escape_slash:
            out.append("\\/")
        elif ch in "<>&'" and html_safe:
            out.append(hexfmt % c)
        elif c in (0x2028, 0x2029) and js_safe:
            out.append(hexfmt % c)
        elif (c == 0x7F or 0x80 <= c <= 0x9F) and escape_del_and_c1:
            out.append(hexfmt % c)
        elif c > 0x7F and ascii_only:
            if c > 0xFFFF:
                c -= 0x10000
                out.append(hexfmt % (0xD800 + (c >> 10)) + hexfmt % (0xDC00 + (c & 0x3FF)))
            else:
                out.append(hexfmt % c)
        else:
            out.append(ch)
    return "".join(out)


ALPHABET = 'ab /"\\\x00\x01\x1f\x7f\x80\x9f<>&\'é\u2028\u2029日😀\n\t'


def random_strings(n, seed=3):
    rng = random.Random(seed)
    yield ""
    for i in range(n):
        length = rng.choice([1, 2, 7, 8, 15, 16, 17, 31, 32, 33, 63, 64, 65, 200, 1000])
        if i % 3 == 0:  # mostly clean text with a rare special character
            s = ["x"] * length
            if length:
                s[rng.randrange(length)] = rng.choice(ALPHABET)
            yield "".join(s)
        else:
            yield "".join(rng.choice(ALPHABET) for _ in range(length))


def test_quote_matches_json_dumps():
    for s in random_strings(3000):
        want = json.dumps(s, ensure_ascii=False)
        assert ij.quote(s) == want
        assert ij.quote_bytes(s) == want.encode()
        assert ij.quote_bytes(s.encode()) == want.encode()
        assert ij.escape(s) == want[1:-1]
        assert ij.escape_bytes(s) == ij.escape_bytes(s.encode()) == want[1:-1].encode()
        # json.dumps's default (ensure_ascii) also escapes DEL
        assert ij.quote(s, ascii_only=True, escape_del_and_c1=True) == json.dumps(s)


def test_every_short_length_and_position():
    # The short-string fast paths (the entry's SWAR check and inline copy up
    # to 32 bytes, ito's short path): every length 0..70, the special byte
    # at every position, every clean length.
    specials = '"\\' + "".join(map(chr, range(0x20))) + " \x7f\x80é/!#[]^_`{|}~"
    for n in range(70):
        clean = "".join(chr(0x21 + (i * 7) % 0x5E) for i in range(n)).replace('"', "#").replace("\\", "]")
        for s in [clean] + [clean[:at] + ch + clean[at + 1:] for at in range(n) for ch in specials]:
            want = json.dumps(s, ensure_ascii=False)
            assert ij.quote(s) == want, (n, s)
            assert ij.quote_bytes(s) == want.encode(), (n, s)
            assert ij.escape(s) == want[1:-1], (n, s)
            assert ij.escape_bytes(s) == want[1:-1].encode(), (n, s)


def test_long_clean_paths_and_chunk_edges():
    # Clean text is scanned and copied in 8 KiB pieces straight into the
    # result (bytes), or joined between quotes (str): a special character
    # at or around every piece boundary, at the ends, and none at all.
    base = "abcdefgh" * 3000  # 24,000 bytes: three pieces
    for at in [0, 1, 63, 64, 8191, 8192, 8193, 16383, 16384, 23999, None]:
        for ch in ['"', "\n", "\\"]:
            s = base if at is None else base[:at] + ch + base[at + 1:]
            want = json.dumps(s, ensure_ascii=False)
            assert ij.quote(s) == want, at
            assert ij.quote_bytes(s) == want.encode(), at
            assert ij.escape(s) == want[1:-1], at
            assert ij.escape_bytes(s) == want[1:-1].encode(), at
    for s in ["x" * 64, "é" * 40, "日本語" * 30, "😀" * 100, base]:
        want = json.dumps(s, ensure_ascii=False)
        assert ij.quote(s) == want and type(ij.quote(s)) is str
        assert ij.escape(s) == s


@pytest.mark.parametrize("option", OPTIONS)
def test_each_option_against_reference(option):
    for s in random_strings(400, seed=hash(option) & 0xFFFF):
        want = reference_escape(s, **{option: True})
        assert ij.escape(s, **{option: True}) == want, repr(s)
        assert ij.quote(s, **{option: True}) == '"' + want + '"'
        assert ij.quote_bytes(s, **{option: True}) == ('"' + want + '"').encode()
        assert ij.escape_bytes(s.encode(), **{option: True}) == want.encode()


def test_all_options_together():
    opts = dict.fromkeys(OPTIONS, True)
    for s in random_strings(400, seed=11):
        assert ij.escape(s, **opts) == reference_escape(s, **opts)


def test_unescape_and_unquote_round_trip():
    for s in random_strings(2000, seed=5):
        lit = json.dumps(s)  # ASCII, \u escapes and surrogate pairs
        assert ij.unquote(lit) == json.loads(lit) == s
        assert ij.unquote(lit.encode()) == s
        assert ij.unquote_bytes(lit) == s.encode()
        assert ij.unescape(lit[1:-1]) == s
        assert ij.unescape_bytes(lit[1:-1].encode()) == s.encode()
        raw = json.dumps(s, ensure_ascii=False)
        assert ij.unquote(raw) == s
        assert ij.unescape(ij.escape(s)) == s


def test_unescape_every_escape_spelling():
    for c in range(0x20):
        assert ij.unescape("\\u%04x" % c) == ij.unescape("\\u%04X" % c) == chr(c)
    for esc, ch in zip('"\\/bfnrt', '"\\/\b\f\n\r\t'):
        assert ij.unescape("\\" + esc) == ch
    assert ij.unescape("\\ud83d\\ude00") == "😀" == json.loads('"\\ud83d\\ude00"')


@pytest.mark.parametrize(
    "text, offset, match",
    [
        ("bad \\x", 4, "invalid escape"),
        ("tail \\", 5, "end"),
        ("\\u12", 0, "end"),  # cut off by the end of input
        ("\\u12zz", 0, "unicode escape"),
        ("ctl \x01", 4, "control"),
        ('raw " quote', 4, "unescaped"),
        ("\\ud800", 0, "surrogate"),
        ("ok \\udc00", 3, "surrogate"),
        ("\\ud800\\u0041", 0, "surrogate"),
    ],
)
def test_unescape_rejects_with_offset(text, offset, match):
    with pytest.raises(ito_codecs.Error, match=match) as info:
        ij.unescape(text)
    assert info.value.offset == offset
    assert isinstance(info.value, ValueError)
    with pytest.raises(ito_codecs.Error):
        ij.unescape_bytes(text.encode())
    # Python's own decoder rejects it too, or is lenient about surrogates
    if "surrogate" not in match:
        with pytest.raises(ValueError):
            json.loads('"' + text + '"')


def test_lenient_surrogates_match_json_loads():
    for text in ["\\ud800", "a\\udc00b", "\\ud800\\u0041", "\\ud83d\\ude00\\ud83d"]:
        assert ij.unescape(text, wtf8=True) == json.loads('"' + text + '"')
        replaced = ij.unescape(text, replace_invalid=True)
        assert "\ufffd" in replaced and all(not 0xD800 <= ord(c) <= 0xDFFF for c in replaced)


def test_invalid_utf8_bytes():
    for bad, at in [(b"ok\xff", 2), (b"\xc3", 0), (b"ab\xed\xa0\x80", 2), (b"x\xc0\xaf", 1)]:
        with pytest.raises(ito_codecs.Error, match="UTF-8") as info:
            ij.quote_bytes(bad)
        assert info.value.offset == at
        with pytest.raises(ito_codecs.Error):
            ij.escape_bytes(bad)
        with pytest.raises(ito_codecs.Error) as info:
            ij.unescape(bad)
        assert info.value.offset == at
        with pytest.raises(ito_codecs.Error):
            ij.unquote(b'"' + bad + b'"')
        want = bad.decode("utf-8", "replace")
        assert ij.quote_bytes(bad, replace_invalid=True) == json.dumps(want, ensure_ascii=False).encode()
        assert ij.unescape(bad, replace_invalid=True) == want


def test_unquote_shape_errors():
    for text, offset in [("", 0), ("abc", 0), ('"abc', 4), ('"a"b', 3), ('"a" ', 3), ('""""', 2)]:
        with pytest.raises(ito_codecs.Error) as info:
            ij.unquote(text)
        assert info.value.offset == offset, text


def test_huge_inputs():
    s = ("clean ascii " * 700_000) + "\n" + "é😀" * 1_000_000
    want = json.dumps(s, ensure_ascii=False)
    assert ij.quote(s) == want
    assert ij.quote_bytes(s) == want.encode()
    assert ij.unquote(want) == s
    assert ij.unescape(ij.escape(s, ascii_only=True)) == s
    # Escape-dense: every byte needs work, 6x growth.
    dense = "\x01" * 3_000_000
    assert ij.quote(dense) == json.dumps(dense)


def test_wrong_types_and_surrogates():
    for f in (ij.quote, ij.escape):
        with pytest.raises(TypeError):
            f(b"bytes")
        with pytest.raises(UnicodeEncodeError):
            f("\ud800")
    for f in (ij.quote_bytes, ij.escape_bytes, ij.unquote, ij.unescape, ij.unescape_bytes):
        with pytest.raises(TypeError):
            f(None)
        with pytest.raises(TypeError):
            f(123)
    with pytest.raises(TypeError):
        ij.quote("x", bogus=True)


class StrSub(str):
    pass


@pytest.mark.parametrize("name", ["quote", "quote_bytes", "escape", "escape_bytes"])
def test_fast_entry_and_fallback_agree(name):
    """The escaping functions have a one-str fast path and fall back to the
    full argument parser for everything else: both give the same result."""
    import inspect

    f = getattr(ij, name)
    for s in ["", "plain", 'q"\\\n', "é😀\x01", "x" * 100, "x" * 40]:
        fast = f(s)
        assert f(StrSub(s)) == fast  # not an exact str: fallback
        assert type(f(StrSub(s))) is type(fast) is (bytes if name.endswith("bytes") else str)
        assert f(s, ascii_only=False) == fast  # keywords: fallback
        if name.endswith("bytes"):
            assert f(s.encode()) == fast  # bytes: fallback
    with pytest.raises(TypeError):
        f()
    with pytest.raises(TypeError):
        f("a", "b")
    with pytest.raises(TypeError):
        f("a", ascii_only=True, nope=1)
    with pytest.raises(TypeError):
        f(s="a")  # positional-only
    with pytest.raises(UnicodeEncodeError):
        f("\ud800")
    assert f.__name__ == name and f.__module__ == "ito_codecs.json"
    params = inspect.signature(f).parameters
    assert list(params)[0] == "s" and params["ascii_only"].default is False
    assert ">>>" in f.__doc__
