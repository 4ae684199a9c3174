//! The bech32 layer: a prefix, `1`, data characters, a six-character
//! checksum (BIP-173), with NIP-19's longer length limit.
//!
//! Decoding checks, in order, each with its position: printable ASCII, one
//! case, the separator, the data alphabet, then the checksum and padding
//! (the `bech32` crate), then hands back the prefix and the bytes.

use ::bech32::primitives::decode::UncheckedHrpstring;
use ::bech32::{Checksum, Fe1024, Fe32, Hrp};
use zeroize::Zeroizing;

use super::{Error, MAX_LENGTH};

/// BIP-173's checksum with NIP-19's length limit: bech32 proper stops at
/// 90 characters (and the crate's `Bech32` at 1023); `nprofile` and `naddr`
/// strings with relays are longer. The error-detection guarantee of the code
/// holds up to 1023 characters; past that it still catches almost every
/// error, which is what nostr-tools and rust-nostr accept too.
pub(super) enum Nip19Checksum {}

impl Checksum for Nip19Checksum {
    type MidstateRepr = u32;
    type CorrectionField = Fe1024;
    const ROOT_GENERATOR: Fe1024 = Fe1024::new([Fe32::P, Fe32::X]);
    const ROOT_EXPONENTS: core::ops::RangeInclusive<usize> = 24..=26;
    const CODE_LENGTH: usize = MAX_LENGTH;
    const CHECKSUM_LENGTH: usize = 6;
    // The generator of BIP-173 and its four shifts (BIP-173's reference code).
    const GENERATOR_SH: [u32; 5] = [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3];
    // Bech32, not Bech32m (whose residue is 0x2bc830a3).
    const TARGET_RESIDUE: u32 = 1;
}

const ALPHABET: &[u8; 32] = b"qpzry9x8gf2tvdw0s3jn54khce6mua7l";

/// Splits and checks `s`; returns the lowercased prefix and the data bytes
/// (zeroed when dropped: they may be a secret key).
pub(super) fn decode(s: &str) -> Result<(String, Zeroizing<Vec<u8>>), Error> {
    let bytes = s.as_bytes();
    if bytes.len() > MAX_LENGTH {
        return Err(Error::TooLong {
            length: bytes.len(),
        });
    }
    let mut case: Option<bool> = None; // Some(true): upper
    for (offset, &byte) in bytes.iter().enumerate() {
        if !(0x21..=0x7e).contains(&byte) {
            return Err(Error::InvalidChar { offset, byte });
        }
        if byte.is_ascii_alphabetic() {
            let upper = byte.is_ascii_uppercase();
            match case {
                None => case = Some(upper),
                Some(c) if c != upper => return Err(Error::MixedCase { offset }),
                Some(_) => {}
            }
        }
    }
    let sep = match bytes.iter().rposition(|&b| b == b'1') {
        Some(0) | None => return Err(Error::MissingSeparator),
        Some(at) => at,
    };
    for (i, &byte) in bytes[sep + 1..].iter().enumerate() {
        if !ALPHABET.contains(&byte.to_ascii_lowercase()) {
            return Err(Error::InvalidChar {
                offset: sep + 1 + i,
                byte,
            });
        }
    }
    let data_chars = bytes.len() - sep - 1;
    if data_chars < 6 {
        return Err(Error::TooShort { found: data_chars });
    }
    // The checks above leave the crate nothing to refuse but the checksum
    // (and an over-long prefix, more than 83 characters).
    let unchecked = UncheckedHrpstring::new(s).map_err(|_| Error::UnknownPrefix {
        prefix: s[..sep].to_ascii_lowercase(),
    })?;
    let checked = unchecked
        .validate_and_remove_checksum::<Nip19Checksum>()
        .map_err(|_| Error::Checksum)?;
    checked
        .validate_segwit_padding()
        .map_err(|_| Error::Padding)?;
    let prefix = s[..sep].to_ascii_lowercase();
    let data = Zeroizing::new(checked.byte_iter().collect::<Vec<u8>>());
    Ok((prefix, data))
}

/// `prefix` (a NIP-19 constant) and `data` as a lowercase bech32 string.
pub(super) fn encode(prefix: &'static str, data: &[u8]) -> Result<String, Error> {
    let length = prefix.len() + 1 + (data.len() * 8).div_ceil(5) + 6;
    if length > MAX_LENGTH {
        return Err(Error::TooLong { length });
    }
    let hrp = Hrp::parse_unchecked(prefix);
    ::bech32::encode_lower::<Nip19Checksum>(hrp, data).map_err(|_| Error::TooLong { length })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checksum_constants_are_consistent() {
        Nip19Checksum::sanity_check();
    }

    #[test]
    fn length_limit_is_exact() {
        // "nprofile" + "1" + data + checksum; d bytes make ceil(8d/5) characters.
        let fits = (0..4000)
            .rev()
            .find(|d| 8 + 1 + (d * 8usize).div_ceil(5) + 6 <= MAX_LENGTH)
            .unwrap();
        let s = encode("nprofile", &vec![0; fits]).unwrap();
        assert!(s.len() <= MAX_LENGTH);
        assert_eq!(decode(&s).unwrap().1.len(), fits);
        assert!(matches!(
            encode("nprofile", &vec![0; fits + 1]),
            Err(Error::TooLong { .. })
        ));
    }
}
