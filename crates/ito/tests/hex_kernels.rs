//! Every hex kernel the CPU offers against a plain reference: all 256 byte
//! values, all 65,536 digit pairs, every length 0..=300, guard pages.

mod common;

use ito::hex::{self, Accept, Case, Error};
use ito::Kernel;

fn reference_encode(src: &[u8], case: Case) -> Vec<u8> {
    let digits: &[u8; 16] = if case == Case::Upper {
        b"0123456789ABCDEF"
    } else {
        b"0123456789abcdef"
    };
    src.iter()
        .flat_map(|&b| [digits[(b >> 4) as usize], digits[(b & 15) as usize]])
        .collect()
}

fn value(c: u8, accept: Accept) -> Option<u8> {
    match c {
        b'0'..=b'9' => Some(c - b'0'),
        b'a'..=b'f' => Some(c - b'a' + 10),
        b'A'..=b'F' if accept == Accept::AnyCase => Some(c - b'A' + 10),
        _ => None,
    }
}

fn reference_decode(src: &[u8], accept: Accept) -> Result<Vec<u8>, usize> {
    let mut out = Vec::new();
    for (i, p) in src.chunks_exact(2).enumerate() {
        let hi = value(p[0], accept).ok_or(2 * i)?;
        let lo = value(p[1], accept).ok_or(2 * i + 1)?;
        out.push(hi << 4 | lo);
    }
    Ok(out)
}

fn kernels() -> Vec<Kernel> {
    let ks: Vec<Kernel> = Kernel::available().collect();
    assert!(ks.len() >= 2);
    ks
}

#[test]
fn encode_all_byte_values_every_kernel_every_offset() {
    let all: Vec<u8> = (0..=255u8).collect();
    for kernel in kernels() {
        for case in [Case::Lower, Case::Upper] {
            // Every rotation start, so each byte value hits every lane position.
            for start in 0..64 {
                let src: Vec<u8> = all
                    .iter()
                    .cycle()
                    .skip(start)
                    .take(256 + start)
                    .copied()
                    .collect();
                let mut out = vec![0u8; src.len() * 2];
                hex::encode_with_kernel(kernel, &src, &mut out, case).unwrap();
                assert_eq!(
                    out,
                    reference_encode(&src, case),
                    "{kernel} {case:?} start {start}"
                );
            }
        }
    }
}

#[test]
fn encode_every_length_0_to_300() {
    let src: Vec<u8> = (0..300u32).map(|i| (i * 97 + 13) as u8).collect();
    for kernel in kernels() {
        for len in 0..=300 {
            for case in [Case::Lower, Case::Upper] {
                let mut out = vec![0xEEu8; 2 * len];
                hex::encode_with_kernel(kernel, &src[..len], &mut out, case).unwrap();
                assert_eq!(
                    out,
                    reference_encode(&src[..len], case),
                    "{kernel} len {len}"
                );
            }
        }
    }
    for len in 0..=300 {
        assert_eq!(
            hex::encode(&src[..len]).as_bytes(),
            reference_encode(&src[..len], Case::Lower)
        );
        assert_eq!(
            hex::encode_upper(&src[..len]).as_bytes(),
            reference_encode(&src[..len], Case::Upper)
        );
    }
}

/// Large inputs at every output alignment (the AVX-512 encoder aligns its
/// stores for inputs of 1 KiB and more) and every input alignment.
#[test]
fn large_inputs_at_every_alignment() {
    let src: Vec<u8> = (0..1200u32).map(|i| (i * 89 + 3) as u8).collect();
    let want = reference_encode(&src, Case::Lower);
    let mut out = vec![0u8; 2 * 1200 + 64];
    let mut back = vec![0u8; 1200 + 64];
    for kernel in kernels() {
        for len in [1023, 1024, 1025, 1090, 1200 - 64] {
            for off in 0..64 {
                let input = &src[off % 7..off % 7 + len];
                let o = &mut out[off..off + 2 * len];
                hex::encode_with_kernel(kernel, input, o, Case::Lower).unwrap();
                assert_eq!(
                    &o[..],
                    &want[2 * (off % 7)..2 * (off % 7 + len)],
                    "{kernel} len {len} off {off}"
                );
                let b = &mut back[off..off + len];
                hex::decode_with_kernel(
                    kernel,
                    &want[2 * (off % 7)..2 * (off % 7 + len)],
                    b,
                    Accept::Lowercase,
                )
                .unwrap();
                assert_eq!(&b[..], input, "{kernel} len {len} off {off}");
            }
        }
    }
}

/// All 65,536 two-byte inputs, each placed at a varying position inside a
/// run of valid digits so every lane of every kernel sees every pair.
#[test]
fn decode_all_digit_pairs_every_kernel() {
    let filler = b"0123456789abcdefABCDEF";
    for kernel in kernels() {
        for accept in [Accept::AnyCase, Accept::Lowercase] {
            let mut buf = Vec::with_capacity(300);
            let mut out = [0u8; 150];
            for pair in 0..=u16::MAX {
                let [a, b] = pair.to_le_bytes();
                let len = 2 * (1 + (pair as usize * 7) % 150);
                let pos = 2 * ((pair as usize * 13) % (len / 2));
                buf.clear();
                buf.extend((0..len).map(|i| {
                    let c = filler[(i + pair as usize) % filler.len()];
                    if accept == Accept::Lowercase {
                        c.to_ascii_lowercase()
                    } else {
                        c
                    }
                }));
                buf[pos] = a;
                buf[pos + 1] = b;
                let got = hex::decode_with_kernel(kernel, &buf, &mut out[..len / 2], accept);
                match reference_decode(&buf, accept) {
                    Ok(want) => {
                        assert_eq!(got, Ok(()), "{kernel} pair {pair:#06x}");
                        assert_eq!(&out[..len / 2], &want[..], "{kernel} pair {pair:#06x}");
                    }
                    Err(offset) => {
                        assert_eq!(
                            got.unwrap_err().offset(),
                            offset,
                            "{kernel} pair {pair:#06x}"
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn decode_every_length_and_error_position() {
    let src: Vec<u8> = (0..150u32).map(|i| (i * 61 + 7) as u8).collect();
    let digits = reference_encode(&src, Case::Lower);
    let mixed: Vec<u8> = digits
        .iter()
        .enumerate()
        .map(|(i, c)| {
            if i % 3 == 0 {
                c.to_ascii_uppercase()
            } else {
                *c
            }
        })
        .collect();
    for kernel in kernels() {
        for n in 0..=150 {
            let mut out = vec![0u8; n];
            hex::decode_with_kernel(kernel, &digits[..2 * n], &mut out, Accept::Lowercase).unwrap();
            assert_eq!(out, &src[..n]);
            hex::decode_with_kernel(kernel, &mixed[..2 * n], &mut out, Accept::AnyCase).unwrap();
            assert_eq!(out, &src[..n]);
            // One bad byte at every position.
            for bad_at in 0..2 * n {
                for bad in [b'g', b'/', b':', b'@', b'G', b'`', 0x80 | b'0', 0, b' '] {
                    let mut input = digits[..2 * n].to_vec();
                    input[bad_at] = bad;
                    let err = hex::decode_with_kernel(kernel, &input, &mut out, Accept::AnyCase)
                        .unwrap_err();
                    assert_eq!(
                        err,
                        Error::InvalidDigit {
                            offset: bad_at,
                            byte: bad
                        },
                        "{kernel} n {n}"
                    );
                }
                // An uppercase digit where only lowercase is accepted, plus a
                // later invalid byte: the first one is reported.
                let mut input = digits[..2 * n].to_vec();
                input[bad_at] = b'C';
                if bad_at + 1 < 2 * n {
                    input[2 * n - 1] = b'x';
                }
                let err = hex::decode_with_kernel(kernel, &input, &mut out, Accept::Lowercase)
                    .unwrap_err();
                assert_eq!(
                    err,
                    Error::Uppercase {
                        offset: bad_at,
                        byte: b'C'
                    },
                    "{kernel} n {n}"
                );
            }
        }
    }
}

#[test]
fn public_forms_agree() {
    let src: Vec<u8> = (0..=255u8).rev().collect();
    let text = hex::encode(&src);
    assert_eq!(hex::decode(text.as_bytes()).unwrap(), src);
    let mut v = b"prefix".to_vec();
    hex::decode_to_vec(&mut v, text.as_bytes(), Accept::Lowercase).unwrap();
    assert_eq!(&v[6..], &src[..]);
    assert_eq!(hex::decode(b"abc"), Err(Error::OddLength { len: 3 }));
    let mut before = vec![1, 2, 3];
    assert!(hex::decode_to_vec(&mut before, b"00112g", Accept::AnyCase).is_err());
    assert_eq!(before, [1, 2, 3]);
    let id: [u8; 32] = core::array::from_fn(|i| i as u8 * 8);
    let h: [u8; 64] = hex::encode_array(&id);
    assert_eq!(&h[..], hex::encode(&id).as_bytes());
    assert_eq!(hex::decode_array::<32>(&h), Ok(id));
    assert_eq!(
        hex::decode_array::<31>(&h),
        Err(Error::WrongLength {
            expected: 62,
            found: 64
        })
    );
    assert_eq!(
        hex::decode_array::<32>(&h[..62]),
        Err(Error::WrongLength {
            expected: 64,
            found: 62
        })
    );
    let upper = hex::encode_upper(&id);
    assert_eq!(hex::decode_array::<32>(upper.as_bytes()), Ok(id));
    assert!(matches!(
        hex::decode_array_lower::<32>(upper.as_bytes()),
        Err(Error::Uppercase { .. })
    ));
}

#[test]
fn error_messages_are_readable() {
    assert_eq!(
        hex::decode(b"0g").unwrap_err().to_string(),
        "invalid hex digit 'g' at offset 1"
    );
    assert_eq!(
        hex::decode(b"\x01a").unwrap_err().to_string(),
        "invalid hex digit (byte 0x01) at offset 0"
    );
    assert_eq!(
        hex::decode_array_lower::<1>(b"Aa").unwrap_err().to_string(),
        "uppercase hex digit 'A' at offset 0 (lowercase required)"
    );
    assert_eq!(
        hex::decode_array::<2>(b"aa").unwrap_err().to_string(),
        "expected 4 hex digits, found 2"
    );
}

#[cfg(all(unix, not(miri)))]
mod guard_page {
    use super::*;
    use crate::common::guard::Guarded;

    #[test]
    fn no_kernel_reads_or_writes_past_the_end() {
        let mut input = Guarded::new();
        let mut output = Guarded::new();
        for kernel in kernels() {
            for len in 0..=300usize {
                let src: Vec<u8> = (0..len).map(|i| (i * 31) as u8).collect();
                let want = reference_encode(&src, Case::Lower);
                input.tail(len).copy_from_slice(&src);
                let out = output.tail(2 * len);
                hex::encode_with_kernel(kernel, input.tail(len), out, Case::Lower).unwrap();
                assert_eq!(output.tail(2 * len), &want[..], "{kernel} {len}");
                // Decode: digits end at the guard page, output too.
                input.tail(2 * len).copy_from_slice(&want);
                hex::decode_with_kernel(
                    kernel,
                    input.tail(2 * len),
                    output.tail(len),
                    Accept::Lowercase,
                )
                .unwrap();
                assert_eq!(output.tail(len), &src[..], "{kernel} {len}");
                // A bad last digit right before the guard page.
                if len > 0 {
                    input.tail(1)[0] = b'z';
                    let err = hex::decode_with_kernel(
                        kernel,
                        input.tail(2 * len),
                        output.tail(len),
                        Accept::AnyCase,
                    );
                    assert_eq!(err.unwrap_err().offset(), 2 * len - 1);
                }
            }
        }
    }
}
