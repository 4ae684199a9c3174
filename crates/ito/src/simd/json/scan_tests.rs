//! The string scan (`Kernels::scan` of every level this CPU runs, and
//! [`scan_start`], the parser's entry) against the scalar reference: the
//! stop position exactly, and whether a byte >= 0x80 comes before it
//! conservatively (the parser skips UTF-8 validation and keeps the ASCII
//! fact on a "no"). A "yes" may also count high bytes in the rest of the
//! block holding the stop. Narrowing it to the bytes before the stop saved
//! a third of twitter's short `from_utf8` calls but cost as many
//! instructions as it saved there, and 0.7 % more on citm_catalog
//! (callgrind, Zen 3, portable build, 2026-11-28, on af068c7; see
//! `bench/RESULTS.md`). Inputs end at a `PROT_NONE` guard page.

use super::{kernels_for, scalar, scan_start, Kernels};
use crate::simd::guard::Guarded;
use crate::Kernel;

fn tables() -> Vec<(Kernel, &'static Kernels)> {
    Kernel::available()
        .map(|k| (k, kernels_for(k).expect("available")))
        .collect()
}

fn check(tables: &[(Kernel, &'static Kernels)], input: &[u8], what: &str) {
    // SAFETY: the scalar kernel runs everywhere.
    let want = unsafe { (scalar::SCALAR.scan)(input) };
    for &(k, t) in tables {
        // SAFETY: `kernels_for` only returns tables this CPU runs.
        let got = unsafe { (t.scan)(input) };
        for (name, got) in [("scan", got), ("scan_start", scan_start(t, input))] {
            assert_eq!(got.0, want.0, "{k} {name} {what}: stop");
            // A high byte before the stop is always reported; none
            // anywhere in the input is never reported.
            assert!(got.1 || !want.1, "{k} {name} {what}: missed a high byte");
            let any_high = !input.is_ascii();
            assert!(
                any_high || !got.1,
                "{k} {name} {what}: invented a high byte"
            );
        }
    }
}

/// Every length 0..=130 with a stop byte (`"`, `\`, a control byte, or
/// none) at every position, and a high byte nowhere, just before it, just
/// after it, or in the same block further on.
#[test]
fn stop_and_high_byte_at_every_position() {
    let tables = tables();
    let mut g = Guarded::new();
    let stops = [b'"', b'\\', 0x1F, 0x00];
    let max = if cfg!(miri) { 36 } else { 130usize };
    for len in 0..=max {
        let clean: Vec<u8> = (0..len).map(|i| b'a' + (i % 26) as u8).collect();
        check(&tables, g.place(&clean), &format!("len {len} clean"));
        for stop in 0..len {
            let mut s = clean.clone();
            s[stop] = stops[(stop + len) % stops.len()];
            check(&tables, g.place(&s), &format!("len {len} stop {stop}"));
            for high in [stop.wrapping_sub(1), stop + 1, stop + 7, stop + 20, 0] {
                if high >= len || high == stop {
                    continue;
                }
                let mut h = s.clone();
                h[high] = 0xC3 + (high % 60) as u8;
                check(
                    &tables,
                    g.place(&h),
                    &format!("len {len} stop {stop} high {high}"),
                );
            }
        }
        // No stop byte, one high byte at every position.
        for high in 0..len {
            let mut h = clean.clone();
            h[high] = 0x80;
            check(
                &tables,
                g.place(&h),
                &format!("len {len} no stop, high {high}"),
            );
        }
    }
}
