//! The bech32 layer: a prefix, `1`, data characters, a six-character
//! checksum (BIP-173), with NIP-19's longer length limit.
//!
//! Decoding is one pass over the characters (printable ASCII, one case),
//! then the separator, the data alphabet (each error with its position),
//! the checksum (the `bech32` crate's engine), the padding, and the
//! 5-to-8-bit conversion (the crate's iterator).

use ::bech32::primitives::checksum::Engine;
use ::bech32::primitives::iter::Fe32IterExt;
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

/// The 5-bit value of each ASCII byte as a bech32 data character (either
/// case), or -1.
const VALUE: [i8; 128] = {
    let alphabet = b"qpzry9x8gf2tvdw0s3jn54khce6mua7l";
    let mut table = [-1i8; 128];
    let mut i = 0;
    while i < alphabet.len() {
        table[alphabet[i] as usize] = i as i8;
        table[alphabet[i].to_ascii_uppercase() as usize] = i as i8;
        i += 1;
    }
    table
};

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
    let data = &bytes[sep + 1..];
    // Every byte is printable ASCII here (checked above).
    let value = |b: u8| VALUE[usize::from(b & 0x7f)];
    if let Some(i) = data.iter().position(|&b| value(b) < 0) {
        return Err(Error::InvalidChar {
            offset: sep + 1 + i,
            byte: data[i],
        });
    }
    if data.len() < 6 {
        return Err(Error::TooShort { found: data.len() });
    }
    let prefix = s[..sep].to_ascii_lowercase();
    // Over 83 characters: longer than bech32 allows any prefix.
    let hrp = Hrp::parse(&prefix).map_err(|_| Error::UnknownPrefix {
        prefix: prefix.clone(),
    })?;
    // Values are 0..=31 after the check above.
    let fe = |b: u8| Fe32::try_from(value(b) as u8).unwrap_or(Fe32::Q);
    let mut engine = Engine::<Nip19Checksum>::new();
    engine.input_hrp(hrp);
    for &b in data {
        engine.input_fe(fe(b));
    }
    if *engine.residue() != Nip19Checksum::TARGET_RESIDUE {
        return Err(Error::Checksum);
    }
    let payload = &data[..data.len() - 6];
    // BIP-173: the bits left over after the last whole byte (at most 4)
    // must be zero.
    let padding = payload.len() * 5 % 8;
    let last = payload.last().map_or(0, |&b| value(b) as u8);
    if padding > 4 || last & ((1u8 << padding) - 1) != 0 {
        return Err(Error::Padding);
    }
    let data = Zeroizing::new(payload.iter().map(|&b| fe(b)).fes_to_bytes().collect());
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
