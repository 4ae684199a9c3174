//! Every hex kernel the CPU offers must agree with the scalar reference on
//! arbitrary input: same bytes, or the same error offset; encode round-trips.
#![no_main]

use ito::hex::{self, Accept, Case};
use ito::Kernel;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let (accept, digits) = match data.split_first() {
        Some((&flag, rest)) => (if flag & 1 == 0 { Accept::AnyCase } else { Accept::Lowercase }, rest),
        None => return,
    };
    let even = &digits[..digits.len() & !1];
    let mut want = vec![0u8; even.len() / 2];
    let reference = hex::decode_with_kernel(Kernel::Scalar, even, &mut want, accept);
    for kernel in Kernel::available() {
        let mut got = vec![0u8; even.len() / 2];
        let result = hex::decode_with_kernel(kernel, even, &mut got, accept);
        assert_eq!(result, reference, "{kernel}");
        if result.is_ok() {
            assert_eq!(got, want, "{kernel}");
        }
        let mut encoded = vec![0u8; 2 * digits.len()];
        hex::encode_with_kernel(kernel, digits, &mut encoded, Case::Lower).unwrap();
        assert_eq!(hex::decode(&encoded).unwrap(), digits);
    }
    // The public forms agree with the kernels.
    let mut v = Vec::new();
    assert_eq!(hex::decode_to_vec(&mut v, even, accept), reference);
    if reference.is_ok() {
        assert_eq!(v, want);
    }
    if digits.len() % 2 == 1 {
        assert!(hex::decode(digits).is_err());
    }
});
