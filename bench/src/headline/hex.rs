//! Hex: encoding and decoding 32-byte ids and 1 MiB buffers, against
//! const-hex and faster-hex.

use std::hint::black_box;

use super::{op, Area, Runner};

/// The area.
pub const AREA: Area = Area {
    slug: "hex",
    title: "Hex",
    about: "Slice to slice on every side (no allocation): 32 bytes (an id) and \
            1 MiB of pseudo-random bytes; decoding accepts either case, as the \
            peers do.",
    run,
};

fn run(r: &mut Runner) {
    let mut rng = crate::Rng(0x4e58_0001);
    for (label, len) in [("32 B", 32usize), ("1 MiB", 1 << 20)] {
        let bytes: Vec<u8> = (0..len).map(|_| rng.next_u64() as u8).collect();
        let digits = ito::hex::encode(&bytes).into_bytes();
        let (bytes, digits) = (bytes.as_slice(), digits.as_slice());
        let (mut o1, mut o2, mut o3) = (vec![0u8; 2 * len], vec![0u8; 2 * len], vec![0u8; 2 * len]);
        r.case(
            &format!("encode {label}"),
            vec![
                op("ito", || {
                    ito::hex::encode_to_slice(black_box(bytes), &mut o1, ito::hex::Case::Lower)
                        .unwrap();
                    black_box(&o1);
                }),
                op("const-hex", || {
                    const_hex::encode_to_slice(black_box(bytes), &mut o2).unwrap();
                    black_box(&o2);
                }),
                op("faster-hex", || {
                    faster_hex::hex_encode(black_box(bytes), &mut o3).unwrap();
                    black_box(&o3);
                }),
            ],
        );
        let (mut b1, mut b2, mut b3) = (vec![0u8; len], vec![0u8; len], vec![0u8; len]);
        r.case(
            &format!("decode {label}"),
            vec![
                op("ito", || {
                    ito::hex::decode_to_slice(
                        black_box(digits),
                        &mut b1,
                        ito::hex::Accept::AnyCase,
                    )
                    .unwrap();
                    black_box(&b1);
                }),
                op("const-hex", || {
                    const_hex::decode_to_slice(black_box(digits), &mut b2).unwrap();
                    black_box(&b2);
                }),
                op("faster-hex", || {
                    faster_hex::hex_decode(black_box(digits), &mut b3).unwrap();
                    black_box(&b3);
                }),
            ],
        );
    }
}
