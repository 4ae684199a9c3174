//! The escape kernels of every level this CPU runs, called through their
//! tables (`quote` and `escape`, so also the AVX-512 masked-block kernel
//! that the public entry points reach only for some lengths), against the
//! scalar reference. Inputs end at a `PROT_NONE` guard page, so a read past
//! the end faults; outputs start in vectors of several capacities (empty,
//! exactly full, with a prefix, with room for everything), so both the
//! growth paths and the no-growth fast paths run. Each level's medium
//! path (`quote_medium`, `escape_medium`) runs on the lengths it takes.

use super::{escape_reference, kernels_for, Kernels};
use crate::simd::guard::Guarded;
use crate::Kernel;

/// Every available level's table, by name.
fn tables() -> Vec<(Kernel, &'static Kernels)> {
    Kernel::available()
        .map(|k| (k, kernels_for(k).expect("available")))
        .collect()
}

/// Runs `quote` and `escape` of every table on `input` into outputs of
/// several starting states, against the reference.
fn check(tables: &[(Kernel, &'static Kernels)], input: &[u8], what: &str) {
    let mut want = Vec::new();
    escape_reference(&mut want, input);
    let mut want_quoted = vec![b'"'];
    want_quoted.extend_from_slice(&want);
    want_quoted.push(b'"');
    for &(k, t) in tables {
        for start in 0..4 {
            let fresh = || -> Vec<u8> {
                match start {
                    0 => Vec::new(),
                    // Room for any output: the kernels' no-growth fast paths.
                    2 => {
                        let mut v = Vec::with_capacity(8 * input.len() + 256);
                        v.extend_from_slice(b"roomy:");
                        v
                    }
                    // Full: any growth reallocates.
                    1 => {
                        let mut v = Vec::with_capacity(5);
                        v.extend_from_slice(b"[1,2]");
                        v.shrink_to_fit();
                        v
                    }
                    _ => b"prefix:".to_vec(),
                }
            };
            let base = fresh();
            let mut got = fresh();
            // SAFETY: `kernels_for` only returns tables this CPU runs.
            unsafe { (t.escape)(&mut got, input) };
            assert_eq!(&got[..base.len()], &base[..], "{k} escape {what}: prefix");
            assert_eq!(&got[base.len()..], &want[..], "{k} escape {what}");
            let mut got = fresh();
            // SAFETY: as above.
            unsafe { (t.quote)(&mut got, input) };
            assert_eq!(&got[..base.len()], &base[..], "{k} quote {what}: prefix");
            assert_eq!(&got[base.len()..], &want_quoted[..], "{k} quote {what}");
            if t.medium_max == 0 || input.len() > t.medium_max {
                continue;
            }
            // The level's medium path, which a portable build runs for
            // such lengths only at that level (`ITO_KERNEL`).
            let mut got = fresh();
            // SAFETY: as above; the length is within the level's bound.
            unsafe { (t.escape_medium)(&mut got, input) };
            assert_eq!(&got[base.len()..], &want[..], "{k} escape_medium {what}");
            let mut got = fresh();
            // SAFETY: as above.
            unsafe { (t.quote_medium)(&mut got, input) };
            assert_eq!(
                &got[..base.len()],
                &base[..],
                "{k} quote_medium {what}: prefix"
            );
            assert_eq!(
                &got[base.len()..],
                &want_quoted[..],
                "{k} quote_medium {what}"
            );
        }
    }
}

fn text(len: usize) -> Vec<u8> {
    (0..len).map(|i| b'a' + (i % 26) as u8).collect()
}

/// Every length 0..=300 with no escape, one escape at every position (each
/// kind in turn: two-byte, six-byte, `"`, `\`), and two escapes (the
/// second mirrored from the end).
#[test]
fn every_length_and_escape_position() {
    let tables = tables();
    let mut g = Guarded::new();
    let specials = [b'\n', 0x01, b'"', b'\\', 0x1F, b'\t', 0x7F, 0xC3];
    // Miri interprets: the SWAR block and its tails are covered by 40.
    let max = if cfg!(miri) { 40 } else { 300usize };
    for len in 0..=max {
        let clean = text(len);
        check(&tables, g.place(&clean), &format!("len {len} clean"));
        for pos in 0..len {
            let mut one = clean.clone();
            one[pos] = specials[(pos + len) % specials.len()];
            check(&tables, g.place(&one), &format!("len {len} at {pos}"));
            let mut two = one.clone();
            two[len - 1 - pos] = specials[(pos * 3 + 1) % specials.len()];
            check(
                &tables,
                g.place(&two),
                &format!("len {len} at {pos} and mirrored"),
            );
        }
    }
}

/// Escape-dense inputs (the byte-by-byte translation), runs of six-byte
/// escapes (the most growth per block), and mixes of dense and sparse
/// blocks, at lengths around the block sizes.
#[test]
fn dense_and_growing_inputs() {
    let tables = tables();
    let mut g = Guarded::new();
    let units: [&[u8]; 5] = [
        b"\x01",
        b"a\"",
        b"\\\n\x02x",
        b"abcdefgh\x1f",
        b"0123456789abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ\"",
    ];
    for unit in units {
        // Miri interprets: every length up to 80, then a few.
        let lens: Vec<usize> = if cfg!(miri) {
            (0..=80).chain([130, 260]).collect()
        } else {
            (0..=260).chain([511, 512, 513, 1000, 4096]).collect()
        };
        for len in lens {
            let input: Vec<u8> = unit.iter().copied().cycle().take(len).collect();
            check(&tables, g.place(&input), &format!("{unit:?} x {len}"));
        }
    }
    // Each density per 64-byte block, in every block of a 256-byte input.
    for every in 1..=12usize {
        for block in 0..4 {
            let mut input = text(256);
            for (i, b) in input[64 * block..64 * block + 64].iter_mut().enumerate() {
                if i % every == 0 {
                    *b = 0x01;
                }
            }
            check(
                &tables,
                g.place(&input),
                &format!("1 in {every}, block {block}"),
            );
        }
    }
}

/// Long inputs written at every output offset modulo 64 (a prefix of
/// 0..64 bytes), with an escape at every position of the first 140 bytes:
/// the AVX-512 kernel's first block of a long input stops where the output
/// reaches the 64-byte grid, so its cut moves with the offset.
#[test]
fn long_inputs_at_every_output_offset() {
    let tables = tables();
    let mut g = Guarded::new();
    let lens: &[usize] = if cfg!(miri) { &[300] } else { &[257, 300, 520] };
    let prefixes = if cfg!(miri) { 0..4 } else { 0..64 };
    for &len in lens {
        for pos in 0..140 {
            let mut input = text(len);
            input[pos] = [b'"', 0x01, b'\\', b'\n'][pos % 4];
            let input = g.place(&input);
            let mut want = Vec::new();
            escape_reference(&mut want, input);
            for prefix in prefixes.clone() {
                for &(k, t) in &tables {
                    let mut got = Vec::with_capacity(prefix + 8 * len + 256);
                    got.resize(prefix, b'.');
                    // SAFETY: `kernels_for` only returns tables this CPU runs.
                    unsafe { (t.quote)(&mut got, input) };
                    assert_eq!(
                        got.len(),
                        prefix + want.len() + 2,
                        "{k} len {len} at {pos}, prefix {prefix}"
                    );
                    assert_eq!(
                        got[prefix + 1..got.len() - 1],
                        want[..],
                        "{k} len {len} at {pos}, prefix {prefix}"
                    );
                    assert_eq!((got[prefix], got[got.len() - 1]), (b'"', b'"'));
                }
            }
        }
    }
}
