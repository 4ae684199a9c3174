//! UTF-8 validation for the decoders.
//!
//! The common case is valid text, so it goes through `simdutf8`'s
//! vectorised validator (AVX2 / SSE4.2 / NEON, chosen at run time by that
//! crate), which is several times faster than `std::str::from_utf8` on
//! non-ASCII text such as the Japanese strings of twitter.json. Only when
//! the fast check fails does `std` run again, to report exactly where the
//! first invalid sequence starts (`Utf8Error::valid_up_to`). Under Miri,
//! which cannot run vendor intrinsics, `std` does both jobs.

/// `bytes` as `&str`, or the offset of the first byte that is not part of a
/// valid UTF-8 prefix.
#[inline]
pub(crate) fn validate(bytes: &[u8]) -> Result<&str, usize> {
    #[cfg(not(miri))]
    if let Ok(text) = simdutf8::basic::from_utf8(bytes) {
        return Ok(text);
    }
    std::str::from_utf8(bytes).map_err(|e| e.valid_up_to())
}

/// The length of the longest valid UTF-8 prefix of `bytes` (a prefix
/// that ends at a char boundary; `bytes.len()` when all of it is valid).
#[cfg(feature = "serde")] // the serde (de)serializer is its only user
#[inline]
pub(crate) fn valid_up_to(bytes: &[u8]) -> usize {
    #[cfg(not(miri))]
    return match simdutf8::compat::from_utf8(bytes) {
        Ok(_) => bytes.len(),
        Err(e) => e.valid_up_to(),
    };
    #[cfg(miri)]
    match std::str::from_utf8(bytes) {
        Ok(_) => bytes.len(),
        Err(e) => e.valid_up_to(),
    }
}

#[cfg(test)]
mod tests {
    use super::validate;

    #[test]
    fn agrees_with_std_on_every_two_byte_input_and_offsets() {
        for a in 0..=255u8 {
            for b in 0..=255u8 {
                let input = [b'x', a, b, b'y'];
                let std = std::str::from_utf8(&input).map_err(|e| e.valid_up_to());
                assert_eq!(validate(&input), std, "{input:?}");
            }
        }
        let long = "日本語のテキスト🎉".repeat(20);
        assert_eq!(validate(long.as_bytes()), Ok(long.as_str()));
        let mut broken = long.clone().into_bytes();
        broken[100] = 0xFF;
        assert_eq!(
            validate(&broken),
            Err(std::str::from_utf8(&broken).unwrap_err().valid_up_to())
        );
    }
}
