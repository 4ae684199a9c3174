//! citm_catalog as typed structs: best-of-N wall time of ito's and
//! serde_json's `to_vec`, alternated in one process (a quicker A/B than the
//! criterion bench; wrap it in `flock /tmp/bench.lock` on a shared host):
//!
//! ```text
//! cargo run --release -p ito-bench --example citm_time -- 300
//! ```
//!
//! Checks the outputs byte-equal first. Also times floors on the same
//! document's integers (values and integer map keys, in document order):
//! `itoa` alone (only the length used), `itoa` with its digits copied out
//! as one fixed 24-byte block (ito's copy), and with
//! `Vec::extend_from_slice` (serde_json's); and one `memcpy` of the whole
//! output. Copying the digits out costs the same whichever way: it is
//! waiting for itoa's stores, which both serializers pay.

use std::hint::black_box;
use std::time::Instant;

use ito_bench::docs::Citm;
use ito_bench::CITM;

/// Every integer the typed document renders (values, and map keys that
/// are integers), in document order.
fn integers(v: &serde_json::Value, out: &mut Vec<u64>) {
    match v {
        serde_json::Value::Number(n) => out.extend(n.as_u64()),
        serde_json::Value::Array(a) => a.iter().for_each(|x| integers(x, out)),
        serde_json::Value::Object(o) => {
            for (k, x) in o {
                out.extend(k.parse::<u64>().ok());
                integers(x, out);
            }
        }
        _ => {}
    }
}

#[inline(never)]
fn itoa_floor(ints: &[u64], out: &mut Vec<u8>) -> usize {
    out.clear();
    for &i in black_box(ints) {
        let mut b = itoa::Buffer::new();
        out.extend_from_slice(b.format(i).as_bytes());
    }
    out.len()
}

#[inline(never)]
fn itoa_only(ints: &[u64]) -> usize {
    let mut n = 0;
    for &i in black_box(ints) {
        let mut b = itoa::Buffer::new();
        n += black_box(b.format(i)).len();
    }
    n
}

/// itoa's buffer followed by padding, so that 24 bytes can be read from
/// the digits' start (as ito's emitter does).
#[repr(C)]
struct Padded {
    itoa: itoa::Buffer,
    pad: [std::mem::MaybeUninit<u8>; 24],
}

/// itoa, then 24 bytes from its digits' start copied as one fixed block
/// (ito's `Digits` copy: no length-dependent branches).
#[inline(never)]
fn itoa_fixed(ints: &[u64], out: &mut Vec<u8>) -> usize {
    out.clear();
    out.reserve(ints.len() * 24 + 24);
    let p = out.as_mut_ptr();
    let mut len = 0;
    for &i in black_box(ints) {
        let mut b = Padded {
            itoa: itoa::Buffer::new(),
            pad: [std::mem::MaybeUninit::uninit(); 24],
        };
        let t = b.itoa.format(i);
        let n = t.len();
        // SAFETY: `t` lies in `b.itoa` (offset 0 of `Padded`), so 24 bytes
        // from its start lie in `b`; the output has room for 24 bytes at
        // every `len` (reserved above, len <= 20 per integer).
        unsafe {
            let src = t.as_ptr().cast::<std::mem::MaybeUninit<[u8; 24]>>();
            std::ptr::copy_nonoverlapping(src, p.add(len).cast(), 1);
        }
        len += n;
    }
    len
}

fn main() {
    let c: Citm = serde_json::from_str(CITM).unwrap();
    assert_eq!(
        ito::json::to_vec(&c).unwrap(),
        serde_json::to_vec(&c).unwrap()
    );
    let n: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(300);
    let (mut a, mut b) = (f64::MAX, f64::MAX);
    for _ in 0..n {
        let t = Instant::now();
        drop(black_box(ito::json::to_vec(black_box(&c)).unwrap()));
        a = a.min(t.elapsed().as_secs_f64() * 1e6);
        let t = Instant::now();
        drop(black_box(serde_json::to_vec(black_box(&c)).unwrap()));
        b = b.min(t.elapsed().as_secs_f64() * 1e6);
    }
    println!("ito {a:.1} us  serde_json {b:.1} us  ratio {:.2}", b / a);
    let mut ints = Vec::new();
    integers(&serde_json::from_str(CITM).unwrap(), &mut ints);
    let whole = ito::json::to_vec(&c).unwrap();
    let (mut f, mut m, mut o, mut x) = (f64::MAX, f64::MAX, f64::MAX, f64::MAX);
    let mut out = Vec::with_capacity(whole.len());
    let mut digits = 0;
    for _ in 0..n {
        let t = Instant::now();
        digits = black_box(itoa_floor(&ints, &mut out));
        f = f.min(t.elapsed().as_secs_f64() * 1e6);
        let t = Instant::now();
        black_box(itoa_fixed(&ints, &mut out));
        x = x.min(t.elapsed().as_secs_f64() * 1e6);
        let t = Instant::now();
        black_box(itoa_only(&ints));
        o = o.min(t.elapsed().as_secs_f64() * 1e6);
        let t = Instant::now();
        out.clear();
        out.extend_from_slice(black_box(&whole));
        black_box(&out);
        m = m.min(t.elapsed().as_secs_f64() * 1e6);
    }
    println!(
        "floors: itoa {o:.1} us, itoa+fixed copy {x:.1} us, itoa+append {f:.1} us ({} integers, {digits} digits), \
         memcpy of the output {m:.1} us ({} bytes)",
        ints.len(),
        whole.len()
    );
}
