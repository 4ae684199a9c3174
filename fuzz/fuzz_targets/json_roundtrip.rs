//! escape → unescape round trip under arbitrary options, every kernel;
//! quote_bytes on arbitrary bytes agrees across kernels and reads back.
#![no_main]

use ito::json::{self, Options};
use ito::Kernel;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|input: (u8, &[u8])| {
    let (bits, data) = input;
    let on = |i: u8| bits >> i & 1 == 1;
    let o = Options::new()
        .ascii_only(on(0))
        .escape_slash(on(1))
        .html_safe(on(2))
        .js_safe(on(3))
        .escape_del_and_c1(on(4))
        .uppercase_hex(on(5))
        .replace_invalid(on(6));
    let text = String::from_utf8_lossy(data);
    let mut q = Vec::new();
    json::quote_with(&mut q, &text, &o);
    let (v, used) = json::unquote(&q).expect("our own output must decode");
    assert_eq!(v, text);
    assert_eq!(used, q.len());
    assert_eq!(serde_json::from_slice::<String>(&q).unwrap(), text);

    let mut want = Vec::new();
    let want_r = json::quote_bytes_with_kernel(Kernel::Scalar, &mut want, data, &o);
    for k in Kernel::available() {
        let mut e = Vec::new();
        json::escape_with_kernel(k, &mut e, &text);
        let mut back = Vec::new();
        json::unescape_with_kernel(k, &mut back, &e, &o).unwrap();
        assert_eq!(back, text.as_bytes());
        let mut got = Vec::new();
        assert_eq!(json::quote_bytes_with_kernel(k, &mut got, data, &o), want_r);
        assert_eq!(got, want);
    }
});
