//! unescape/unquote on arbitrary bytes against serde_json, and every kernel
//! against the scalar reference (values and errors).
#![no_main]

use ito::json::{self, Options};
use ito::Kernel;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|src: &[u8]| {
    let mut lit = Vec::with_capacity(src.len() + 2);
    lit.push(b'"');
    lit.extend_from_slice(src);
    lit.push(b'"');
    let theirs = serde_json::from_slice::<String>(&lit);
    let mut ours = Vec::new();
    let r = json::unescape(&mut ours, src);
    assert_eq!(r.is_ok(), theirs.is_ok(), "{r:?}");
    if let Ok(s) = &theirs {
        assert_eq!(ours, s.as_bytes());
        let (v, used) = json::unquote(&lit).unwrap();
        assert_eq!(v, s.as_str());
        assert_eq!(used, lit.len());
    }
    for o in [
        Options::new(),
        Options::new().replace_invalid(true),
        Options::new().wtf8(true),
    ] {
        let mut want = Vec::new();
        let want_r = json::unescape_with_kernel(Kernel::Scalar, &mut want, src, &o);
        for k in Kernel::available() {
            let mut got = Vec::new();
            assert_eq!(json::unescape_with_kernel(k, &mut got, src, &o), want_r);
            assert_eq!(got, want);
            assert_eq!(
                json::unquote_with_kernel(k, &lit[..lit.len() - 1]),
                json::unquote_with_kernel(Kernel::Scalar, &lit[..lit.len() - 1])
            );
        }
    }
});
