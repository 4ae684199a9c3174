//! Guard-page test: every input is placed so that its last byte is the last
//! readable byte before a page mapped PROT_NONE. Any read past the end (even
//! by one byte, even inside what would have been the same page) faults.
//! Every length 0..=256, every kernel, escape/quote_bytes/unescape/unquote.

#![cfg(unix)]

mod common;

use common::guard::Guarded;
use ito::json::{self, Options};
use ito::Kernel;

fn patterns(len: usize) -> Vec<Vec<u8>> {
    let cycle = |unit: &[u8]| unit.iter().copied().cycle().take(len).collect::<Vec<u8>>();
    let mut out = vec![
        vec![b'a'; len],
        cycle(b"ab\"c\\d\ne"),
        cycle("xé😀".as_bytes()),
        cycle(br"q\n\u00e9\ud83d\ude00"),
    ];
    for last in [b'\\', b'"', 0x01, 0xC3, 0xF0] {
        let mut v = vec![b'a'; len];
        if let Some(l) = v.last_mut() {
            *l = last;
        }
        out.push(v);
    }
    out
}

#[test]
fn no_kernel_reads_past_the_end() {
    let mut g = Guarded::new();
    let kernels: Vec<Kernel> = Kernel::available().collect();
    let opts = [
        Options::new(),
        Options::new().replace_invalid(true),
        Options::new().ascii_only(true).replace_invalid(true),
    ];
    let mut checked = 0usize;
    for len in 0..=256 {
        for pat in patterns(len) {
            let input = g.place(&pat);
            let want_lossy = String::from_utf8_lossy(&pat).into_owned();
            for &k in &kernels {
                if let Ok(s) = std::str::from_utf8(input) {
                    let mut out = Vec::new();
                    json::escape_with_kernel(k, &mut out, s);
                    let mut q = Vec::new();
                    json::quote(&mut q, s);
                    assert_eq!(&q[1..q.len() - 1], &out[..]);
                    json::escape(&mut Vec::new(), s);
                }
                for o in &opts {
                    let mut out = Vec::new();
                    let r = json::quote_bytes_with_kernel(k, &mut out, input, o);
                    assert_eq!(r.is_ok(), o.replace_invalid || want_lossy.as_bytes() == pat);
                }
                let _ = json::unescape_with_kernel(k, &mut Vec::new(), input, &opts[0]);
                let _ = json::unescape_with_kernel(k, &mut Vec::new(), input, &opts[1]);
                let _ = json::unquote_with_kernel(k, input);
                json::needs_escape_with_kernel(k, input);
                checked += 1;
            }
            json::needs_escape(input);
            let _ = json::unquote(input);
            let _ = json::unescape(&mut Vec::new(), input);
            // As a literal: `"` + text ending at the guard (unterminated),
            // and the same text closed by a `"` that is the last byte.
            let mut lit = vec![b'"'];
            lit.extend_from_slice(&pat);
            for &k in &kernels {
                let _ = json::unquote_with_kernel(k, g.place(&lit));
            }
            lit.push(b'"');
            for &k in &kernels {
                let _ = json::unquote_with_kernel(k, g.place(&lit));
            }
        }
    }
    assert!(checked >= 257 * 9 * 2);
}

/// The medium path (17..=256 bytes): every length × every position of one
/// escape (and of a second one mirrored from the end), each input ending at
/// the guard page, through every kernel and the public entry points, against
/// the scalar reference. An escape in the middle makes the kernels continue
/// in vector steps and finish with the spliced tail, which must neither
/// read past the input nor clobber the output before it.
#[test]
fn medium_path_every_length_and_escape_position() {
    let mut g = Guarded::new();
    let kernels: Vec<Kernel> = Kernel::available().collect();
    // `"` (2-byte escape), `\n` (2), 0x01 (6-byte \u0001), 0x1F.
    let specials = [b'"', b'\n', 0x01, 0x1F];
    let mut checked = 0usize;
    for len in 17..=256usize {
        for pos in 0..len {
            let special = specials[(pos + len) % specials.len()];
            let mut one = vec![b'a'; len];
            for (i, b) in one.iter_mut().enumerate() {
                *b = b'a' + (i % 26) as u8;
            }
            one[pos] = special;
            let mut two = one.clone();
            two[len - 1 - pos] = b'\\';
            for pat in [one, two] {
                let input = std::str::from_utf8(g.place(&pat)).unwrap();
                let mut want = b"[".to_vec();
                json::escape_with_kernel(Kernel::Scalar, &mut want, input);
                let want_quoted = {
                    let mut q = b"[\"".to_vec();
                    q.extend_from_slice(&want[1..]);
                    q.push(b'"');
                    q
                };
                for &k in &kernels {
                    let mut got = b"[".to_vec();
                    json::escape_with_kernel(k, &mut got, input);
                    assert_eq!(got, want, "{k} len {len} pos {pos}");
                    let mut got = b"[".to_vec();
                    json::quote_bytes_with_kernel(k, &mut got, input.as_bytes(), &Options::new())
                        .unwrap();
                    assert_eq!(got, want_quoted, "{k} quote_bytes len {len} pos {pos}");
                    checked += 1;
                }
                let mut got = b"[".to_vec();
                json::quote(&mut got, input);
                assert_eq!(got, want_quoted, "quote len {len} pos {pos}");
                // With room for everything: the kernels' no-growth fast paths.
                let mut got = Vec::with_capacity(8 * len + 256);
                got.push(b'[');
                json::quote(&mut got, input);
                assert_eq!(got, want_quoted, "quote (roomy) len {len} pos {pos}");
                let mut got = b"[".to_vec();
                json::escape(&mut got, input);
                assert_eq!(got, want, "escape len {len} pos {pos}");
            }
        }
    }
    assert!(checked >= 2 * (17..=256).sum::<usize>());
}
