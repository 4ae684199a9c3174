"""ito_codecs.hex against bytes.hex / bytes.fromhex."""

import random

import pytest

import ito_codecs
from ito_codecs import hex as ihex


def test_round_trip_every_length():
    rng = random.Random(1)
    for n in list(range(200)) + [1000, 4096, 65537]:
        data = bytes(rng.getrandbits(8) for _ in range(n))
        text = ihex.encode(data)
        assert text == data.hex()
        assert ihex.encode(data, upper=True) == data.hex().upper()
        assert ihex.encode(bytearray(data)) == data.hex()
        assert ihex.decode(text) == data == bytes.fromhex(text)
        assert ihex.decode(text.encode()) == data
        assert ihex.decode(text.upper()) == data
        assert ihex.decode(text, lowercase_only=True) == data


def test_every_bad_digit_position():
    good = "0123456789abcdef" * 8
    for at in range(len(good)):
        for byte in "g G/:@`\x00\x7f":
            bad = good[:at] + byte + good[at + 1 :]
            with pytest.raises(ito_codecs.Error) as info:
                ihex.decode(bad)
            assert info.value.offset == at, (at, byte)
            assert isinstance(info.value, ValueError)
        if good[at] in "abcdef":
            upper = good[:at] + good[at].upper() + good[at + 1 :]
            assert ihex.decode(upper) == bytes.fromhex(upper)
            with pytest.raises(ito_codecs.Error, match="uppercase") as info:
                ihex.decode(upper, lowercase_only=True)
            assert info.value.offset == at


def test_odd_length_and_types():
    with pytest.raises(ito_codecs.Error, match="odd") as info:
        ihex.decode("abc")
    assert info.value.offset == 3
    with pytest.raises(ito_codecs.Error) as info:
        ihex.decode(b"00\xff\xfe")
    assert info.value.offset == 2
    with pytest.raises(ito_codecs.Error) as info:
        ihex.decode("00é")  # offsets count UTF-8 bytes
    assert info.value.offset == 2
    for bad in (None, 5, [1]):
        with pytest.raises(TypeError):
            ihex.decode(bad)
        with pytest.raises(TypeError):
            ihex.encode(bad)
    with pytest.raises(TypeError):
        ihex.encode("text")


def test_huge():
    data = bytes(range(256)) * (1 << 16)  # 16 MiB
    text = ihex.encode(data)
    assert text == data.hex()
    assert ihex.decode(text) == data
