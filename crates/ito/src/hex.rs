//! Hexadecimal encoding and decoding with SIMD kernels.
//!
//! Encoding turns each byte into two digits (lowercase by default,
//! [`Case::Upper`] on request). Decoding accepts either case, or only
//! lowercase with [`Accept::Lowercase`] (what Nostr requires for ids, keys and
//! signatures). An invalid digit is an [`Error`] naming its byte offset.
//!
//! The work is done by one kernel per instruction-set level (AVX-512, AVX2,
//! SSE2, NEON, SWAR; see `simd/hex.rs` for the algorithms), called directly
//! when the build guarantees its level (`-C target-cpu=native`), else chosen
//! once at run time. Inputs under 16 bytes (encode; up to 32 in a portable
//! build) or under 64 digits (decode) skip the dispatch and run the
//! SSE2/SWAR code on x86_64; the 64 digits of a 32-byte id decode in one
//! AVX-512 (or AVX2) step through their own entry of the kernel table.
//!
//! Forms:
//! - allocating: [`encode`], [`encode_upper`], [`decode`];
//! - appending to a caller's `Vec<u8>`: [`encode_to_vec`], [`decode_to_vec`];
//! - writing into a slice: [`encode_to_slice`], [`decode_to_slice`];
//! - fixed sizes, checked at compile time: [`encode_array`],
//!   [`encode_to_array`], [`decode_array`], [`decode_array_lower`];
//! - a forced kernel, for tests and benchmarks: [`encode_with_kernel`],
//!   [`decode_with_kernel`].
//!
//! ```
//! let id = [0xabu8; 32];
//! let text: [u8; 64] = ito::hex::encode_array(&id);
//! assert_eq!(ito::hex::decode_array_lower::<32>(&text), Ok(id));
//! ```

use crate::simd::hex as k;
use crate::Kernel;
use std::fmt;

/// Letter case of encoded digits.
///
/// ```
/// use ito::hex::{encode_to_slice, Case};
/// let mut out = [0u8; 4];
/// encode_to_slice(&[0xAB, 0x01], &mut out, Case::Upper).unwrap();
/// assert_eq!(&out, b"AB01");
/// assert_eq!(Case::default(), Case::Lower);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Case {
    /// `0-9a-f` (the default).
    #[default]
    Lower,
    /// `0-9A-F`.
    Upper,
}

/// Which digits decoding accepts.
///
/// ```
/// use ito::hex::{decode_to_slice, Accept};
/// let mut out = [0u8; 1];
/// assert!(decode_to_slice(b"AB", &mut out, Accept::AnyCase).is_ok());
/// assert!(decode_to_slice(b"AB", &mut out, Accept::Lowercase).is_err());
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Accept {
    /// `0-9`, `a-f` and `A-F` (the default).
    #[default]
    AnyCase,
    /// Only `0-9` and `a-f`, as Nostr's canonical form requires.
    Lowercase,
}

/// Why hex input was rejected.
///
/// ```
/// use ito::hex::{decode, Error};
/// assert_eq!(decode(b"0g"), Err(Error::InvalidDigit { offset: 1, byte: b'g' }));
/// assert_eq!(decode(b"abc").unwrap_err().to_string(), "odd number of hex digits (3)");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Error {
    /// The byte at `offset` is not a hex digit.
    InvalidDigit {
        /// Offset of the byte in the input.
        offset: usize,
        /// The byte.
        byte: u8,
    },
    /// The byte at `offset` is an uppercase digit (`A-F`) but only lowercase
    /// was accepted.
    Uppercase {
        /// Offset of the byte in the input.
        offset: usize,
        /// The byte.
        byte: u8,
    },
    /// The input has an odd number of digits.
    OddLength {
        /// Length of the input.
        len: usize,
    },
    /// The input or output has the wrong size for a fixed-size form.
    WrongLength {
        /// The length required.
        expected: usize,
        /// The length given.
        found: usize,
    },
}

impl Error {
    /// The byte offset the error refers to (for length errors: the input
    /// length, where the missing or extra digit is).
    ///
    /// ```
    /// assert_eq!(ito::hex::decode(b"00zz").unwrap_err().offset(), 2);
    /// ```
    pub fn offset(&self) -> usize {
        match *self {
            Error::InvalidDigit { offset, .. } | Error::Uppercase { offset, .. } => offset,
            Error::OddLength { len } => len,
            Error::WrongLength { expected, found } => expected.min(found),
        }
    }

    #[cold]
    #[inline(never)]
    fn from_kernel(src: &[u8], offset: usize, accept: Accept) -> Error {
        let byte = src[offset];
        if accept == Accept::Lowercase
            && byte.is_ascii_uppercase()
            && k::digit_value(byte, false).is_some()
        {
            Error::Uppercase { offset, byte }
        } else {
            Error::InvalidDigit { offset, byte }
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Error::InvalidDigit { offset, byte } if byte.is_ascii_graphic() || byte == b' ' => {
                write!(f, "invalid hex digit '{}' at offset {offset}", byte as char)
            }
            Error::InvalidDigit { offset, byte } => {
                write!(
                    f,
                    "invalid hex digit (byte 0x{byte:02x}) at offset {offset}"
                )
            }
            Error::Uppercase { offset, byte } => {
                write!(
                    f,
                    "uppercase hex digit '{}' at offset {offset} (lowercase required)",
                    byte as char
                )
            }
            Error::OddLength { len } => write!(f, "odd number of hex digits ({len})"),
            Error::WrongLength { expected, found } => {
                write!(f, "expected {expected} hex digits, found {found}")
            }
        }
    }
}

impl std::error::Error for Error {}

/// Lowercase hex of `src`.
///
/// ```
/// assert_eq!(ito::hex::encode(b"\x00\xff\x10"), "00ff10");
/// ```
pub fn encode(src: &[u8]) -> String {
    let mut out = Vec::new();
    encode_to_vec(&mut out, src, Case::Lower);
    // SAFETY: hex digits are ASCII.
    unsafe { String::from_utf8_unchecked(out) }
}

/// Uppercase hex of `src`.
///
/// ```
/// assert_eq!(ito::hex::encode_upper(b"\xab\xcd"), "ABCD");
/// ```
pub fn encode_upper(src: &[u8]) -> String {
    let mut out = Vec::new();
    encode_to_vec(&mut out, src, Case::Upper);
    // SAFETY: hex digits are ASCII.
    unsafe { String::from_utf8_unchecked(out) }
}

/// Appends the hex of `src` to `dst`.
///
/// ```
/// use ito::hex::{encode_to_vec, Case};
/// let mut out = b"id=".to_vec();
/// encode_to_vec(&mut out, &[0xde, 0xad], Case::Lower);
/// assert_eq!(out, b"id=dead");
/// ```
#[inline]
pub fn encode_to_vec(dst: &mut Vec<u8>, src: &[u8], case: Case) {
    let n = 2 * src.len();
    dst.reserve(n);
    let len = dst.len();
    // SAFETY: after reserve, the n bytes after len are allocated; the kernel
    // writes exactly those, so they are initialised before set_len.
    unsafe {
        k::encode(src, dst.as_mut_ptr().add(len), case == Case::Upper);
        dst.set_len(len + n);
    }
}

/// Writes the hex of `src` into `dst`, which must be exactly twice as long.
///
/// ```
/// use ito::hex::{encode_to_slice, Case, Error};
/// let mut out = [0u8; 4];
/// encode_to_slice(&[1, 2], &mut out, Case::Upper).unwrap();
/// assert_eq!(&out, b"0102");
/// assert_eq!(encode_to_slice(&[1], &mut out, Case::Lower), Err(Error::WrongLength { expected: 2, found: 4 }));
/// ```
#[inline]
pub fn encode_to_slice(src: &[u8], dst: &mut [u8], case: Case) -> Result<(), Error> {
    if dst.len() != 2 * src.len() {
        return Err(Error::WrongLength {
            expected: 2 * src.len(),
            found: dst.len(),
        });
    }
    // SAFETY: dst holds exactly 2 * src.len() bytes.
    unsafe { k::encode(src, dst.as_mut_ptr(), case == Case::Upper) };
    Ok(())
}

/// Lowercase hex of a fixed-size array; `M` must be `2 * N` (checked at
/// compile time).
///
/// ```
/// let hex: [u8; 8] = ito::hex::encode_array(&[0xca, 0xfe, 0xba, 0xbe]);
/// assert_eq!(&hex, b"cafebabe");
/// ```
#[inline]
pub fn encode_array<const N: usize, const M: usize>(src: &[u8; N]) -> [u8; M] {
    let mut out = [0u8; M];
    encode_to_array(src, &mut out);
    out
}

/// Writes the lowercase hex of `src` into `dst`; `M` must be `2 * N`
/// (checked at compile time), so no length check runs.
///
/// ```
/// let mut hex = [0u8; 64];
/// ito::hex::encode_to_array(&[0x11; 32], &mut hex);
/// assert!(hex.iter().all(|&c| c == b'1'));
/// ```
#[inline]
pub fn encode_to_array<const N: usize, const M: usize>(src: &[u8; N], dst: &mut [u8; M]) {
    const { assert!(M == 2 * N, "hex output must be twice the input length") };
    // SAFETY: M == 2N bytes are writable.
    unsafe { k::encode(src, dst.as_mut_ptr(), false) };
}

/// Decodes hex (either case) into a new `Vec`.
///
/// ```
/// assert_eq!(ito::hex::decode(b"00Ff7f"), Ok(vec![0, 255, 127]));
/// assert!(ito::hex::decode(b"0x").is_err());
/// ```
pub fn decode(src: &[u8]) -> Result<Vec<u8>, Error> {
    let mut out = Vec::new();
    decode_to_vec(&mut out, src, Accept::AnyCase)?;
    Ok(out)
}

/// Appends the bytes that `src` encodes to `dst`. On error `dst` is left as
/// it was.
///
/// ```
/// use ito::hex::{decode_to_vec, Accept, Error};
/// let mut out = vec![9];
/// decode_to_vec(&mut out, b"0a0b", Accept::Lowercase).unwrap();
/// assert_eq!(out, [9, 10, 11]);
/// assert_eq!(
///     decode_to_vec(&mut out, b"0A", Accept::Lowercase),
///     Err(Error::Uppercase { offset: 1, byte: b'A' })
/// );
/// assert_eq!(out, [9, 10, 11]);
/// ```
#[inline]
pub fn decode_to_vec(dst: &mut Vec<u8>, src: &[u8], accept: Accept) -> Result<(), Error> {
    if !src.len().is_multiple_of(2) {
        return Err(Error::OddLength { len: src.len() });
    }
    let n = src.len() / 2;
    dst.reserve(n);
    let len = dst.len();
    // SAFETY: n bytes after len are allocated; on success the kernel wrote all
    // of them, so set_len covers only initialised bytes. On error we keep len.
    unsafe {
        match k::decode(src, dst.as_mut_ptr().add(len), accept == Accept::Lowercase) {
            Ok(()) => {
                dst.set_len(len + n);
                Ok(())
            }
            Err(offset) => Err(Error::from_kernel(src, offset, accept)),
        }
    }
}

/// Decodes `src` into `dst`, which must be exactly half as long. On error the
/// contents of `dst` are unspecified.
///
/// ```
/// use ito::hex::{decode_to_slice, Accept, Error};
/// let mut out = [0u8; 2];
/// decode_to_slice(b"BEEF", &mut out, Accept::AnyCase).unwrap();
/// assert_eq!(out, [0xbe, 0xef]);
/// assert_eq!(decode_to_slice(b"BE", &mut out, Accept::AnyCase), Err(Error::WrongLength { expected: 4, found: 2 }));
/// ```
#[inline]
pub fn decode_to_slice(src: &[u8], dst: &mut [u8], accept: Accept) -> Result<(), Error> {
    if src.len() != 2 * dst.len() {
        return Err(Error::WrongLength {
            expected: 2 * dst.len(),
            found: src.len(),
        });
    }
    // SAFETY: src.len() == 2 * dst.len(), so it is even and dst is big enough.
    unsafe { k::decode(src, dst.as_mut_ptr(), accept == Accept::Lowercase) }
        .map_err(|offset| Error::from_kernel(src, offset, accept))
}

/// Decodes exactly `2 * N` digits (either case) into `[u8; N]`.
///
/// ```
/// assert_eq!(ito::hex::decode_array::<2>(b"aBcD"), Ok([0xab, 0xcd]));
/// assert!(ito::hex::decode_array::<2>(b"abc").is_err());
/// ```
#[inline]
pub fn decode_array<const N: usize>(src: &[u8]) -> Result<[u8; N], Error> {
    let mut out = [0u8; N];
    decode_to_slice(src, &mut out, Accept::AnyCase)?;
    Ok(out)
}

/// Decodes exactly `2 * N` lowercase digits into `[u8; N]` (Nostr's rule for
/// ids, public keys and signatures).
///
/// ```
/// use ito::hex::{decode_array_lower, Error};
/// assert_eq!(decode_array_lower::<1>(b"ff"), Ok([255]));
/// assert_eq!(decode_array_lower::<1>(b"fF"), Err(Error::Uppercase { offset: 1, byte: b'F' }));
/// ```
#[inline]
pub fn decode_array_lower<const N: usize>(src: &[u8]) -> Result<[u8; N], Error> {
    let mut out = [0u8; N];
    decode_to_slice(src, &mut out, Accept::Lowercase)?;
    Ok(out)
}

/// [`encode_to_slice`] with a forced kernel (for tests and benchmarks).
///
/// # Panics
/// If `kernel` is not available on this CPU (see [`Kernel::is_available`]).
///
/// ```
/// use ito::hex::{encode_with_kernel, Case};
/// for kernel in ito::Kernel::available() {
///     let mut out = [0u8; 6];
///     encode_with_kernel(kernel, b"abc", &mut out, Case::Lower).unwrap();
///     assert_eq!(&out, b"616263");
/// }
/// ```
pub fn encode_with_kernel(
    kernel: Kernel,
    src: &[u8],
    dst: &mut [u8],
    case: Case,
) -> Result<(), Error> {
    let f = k::encode_kernel(kernel).unwrap_or_else(|| panic!("kernel {kernel} is not available"));
    if dst.len() != 2 * src.len() {
        return Err(Error::WrongLength {
            expected: 2 * src.len(),
            found: dst.len(),
        });
    }
    // SAFETY: f runs on this CPU; dst holds exactly 2 * src.len() bytes.
    unsafe { f(src, dst.as_mut_ptr(), case == Case::Upper) };
    Ok(())
}

/// [`decode_to_slice`] with a forced kernel (for tests and benchmarks).
///
/// # Panics
/// If `kernel` is not available on this CPU (see [`Kernel::is_available`]).
///
/// ```
/// use ito::hex::{decode_with_kernel, Accept};
/// for kernel in ito::Kernel::available() {
///     let mut out = [0u8; 2];
///     decode_with_kernel(kernel, b"c0DE", &mut out, Accept::AnyCase).unwrap();
///     assert_eq!(out, [0xc0, 0xde]);
/// }
/// ```
pub fn decode_with_kernel(
    kernel: Kernel,
    src: &[u8],
    dst: &mut [u8],
    accept: Accept,
) -> Result<(), Error> {
    let f = k::decode_kernel(kernel).unwrap_or_else(|| panic!("kernel {kernel} is not available"));
    if src.len() != 2 * dst.len() {
        if !src.len().is_multiple_of(2) {
            return Err(Error::OddLength { len: src.len() });
        }
        return Err(Error::WrongLength {
            expected: 2 * dst.len(),
            found: src.len(),
        });
    }
    // SAFETY: f runs on this CPU; src.len() == 2 * dst.len().
    unsafe { f(src, dst.as_mut_ptr(), accept == Accept::Lowercase) }
        .map_err(|offset| Error::from_kernel(src, offset, accept))
}
