//! The plain byte-at-a-time reference ([`Kernel::Scalar`]).
//!
//! Written independently of the block loop (no shared scanning or tail
//! logic, UTF-8 checked with `std`) so tests can hold every vector kernel
//! against it. Never chosen automatically.

use super::{Kernels, UnescapeMode};
use crate::simd::escape::{decode_escape, encode_utf8};
use crate::simd::fault::{Fault, FaultKind};

pub(crate) static SCALAR: Kernels = Kernels {
    escape: escape_reference,
    quote: quote_reference,
    escape_utf8: escape_utf8_reference,
    unescape: unescape_reference,
    scan: scan_reference,
    // The byte unescaper's scalar reference lives with its user
    // (`nostr::scan`); this level runs the portable SWAR instantiation.
    unescape_bytes: super::swar::SWAR.unescape_bytes,
    unescape_bytes_in_place: super::swar::SWAR.unescape_bytes_in_place,
    medium_max: 0,
    quote_medium: quote_reference,
    escape_medium: escape_reference,
};

/// Appends the default-policy escape of `src` (bytes >= 0x80 verbatim).
pub(crate) fn escape_reference(dst: &mut Vec<u8>, src: &[u8]) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    for &b in src {
        match b {
            b'"' => dst.extend_from_slice(b"\\\""),
            b'\\' => dst.extend_from_slice(b"\\\\"),
            0x08 => dst.extend_from_slice(b"\\b"),
            0x0C => dst.extend_from_slice(b"\\f"),
            b'\n' => dst.extend_from_slice(b"\\n"),
            b'\r' => dst.extend_from_slice(b"\\r"),
            b'\t' => dst.extend_from_slice(b"\\t"),
            0x00..=0x1F => {
                dst.extend_from_slice(b"\\u00");
                dst.push(HEX[(b >> 4) as usize]);
                dst.push(HEX[(b & 15) as usize]);
            }
            _ => dst.push(b),
        }
    }
}

fn quote_reference(dst: &mut Vec<u8>, src: &[u8]) {
    dst.push(b'"');
    escape_reference(dst, src);
    dst.push(b'"');
}

fn escape_utf8_reference(dst: &mut Vec<u8>, src: &[u8], replace: bool) -> Result<(), Fault> {
    match std::str::from_utf8(src) {
        Ok(s) => escape_reference(dst, s.as_bytes()),
        Err(e) if !replace => {
            // Match the kernels, which write the valid prefix before failing.
            escape_reference(dst, &src[..e.valid_up_to()]);
            return Err(Fault::new(e.valid_up_to(), FaultKind::InvalidUtf8));
        }
        Err(_) => escape_reference(dst, String::from_utf8_lossy(src).as_bytes()),
    }
    Ok(())
}

fn scan_reference(src: &[u8]) -> (usize, bool) {
    let i = src
        .iter()
        .position(|&b| b == b'"' || b == b'\\' || b < 0x20)
        .unwrap_or(src.len());
    (i, !src[..i].is_ascii())
}

/// Byte-at-a-time unescape with the same contract as `unescape_core`.
pub(crate) fn unescape_reference(
    dst: &mut Vec<u8>,
    src: &[u8],
    start: usize,
    mode: UnescapeMode,
) -> Result<usize, Fault> {
    // Verbatim runs are collected, then checked with std when they end.
    let flush = |dst: &mut Vec<u8>, run: &[u8], at: usize| -> Result<(), Fault> {
        if mode.trusted {
            return Ok(());
        }
        match std::str::from_utf8(run) {
            Ok(_) => Ok(()),
            Err(e) if !mode.replace => {
                Err(Fault::new(at + e.valid_up_to(), FaultKind::InvalidUtf8))
            }
            Err(_) => {
                dst.truncate(dst.len() - run.len());
                dst.extend_from_slice(String::from_utf8_lossy(run).as_bytes());
                Ok(())
            }
        }
    };
    let mut s = start;
    let mut run_start = 0;
    while s < src.len() {
        let b = src[s];
        if b == b'\\' || b == b'"' || b < 0x20 {
            flush(dst, &src[run_start..s], run_start)?;
            if b == b'\\' {
                let (cp, len) = decode_escape(src, s, mode.surrogates())?;
                let mut buf = [0u8; 4];
                let k = encode_utf8(cp, &mut buf);
                dst.extend_from_slice(&buf[..k]);
                s += len;
                run_start = s;
                continue;
            }
            if b == b'"' && mode.stop_at_quote {
                return Ok(s);
            }
            let kind = if b == b'"' {
                FaultKind::UnescapedQuote
            } else {
                FaultKind::ControlCharacter(b)
            };
            return Err(Fault::new(s, kind));
        }
        dst.push(b);
        s += 1;
    }
    flush(dst, &src[run_start..], run_start)?;
    if mode.stop_at_quote {
        Err(Fault::new(src.len(), FaultKind::Unterminated))
    } else {
        Ok(src.len())
    }
}
