//! citm_catalog as typed structs: best-of-N wall time of ito's and
//! serde_json's `to_vec`, alternated in one process (a quicker A/B than the
//! criterion bench; wrap it in `flock /tmp/bench.lock` on a shared host):
//!
//! ```text
//! cargo run --release -p ito-bench --example citm_time -- 300
//! ```
//!
//! `-- 300 value` renders the document as a `serde_json::Value` instead,
//! with the floors of that tree: walking it alone, and walking it while
//! writing JSON without any escaping (the ceiling's denominator).
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

/// The `serde_json::Value` tree walked as both serializers walk it (map
/// entries in order, the `Value` and `Number` dispatch), doing nothing
/// but summing lengths: the traversal floor.
#[inline(never)]
fn walk(v: &serde_json::Value) -> usize {
    use serde_json::Value;
    match v {
        Value::Null => 4,
        Value::Bool(b) => 4 + !*b as usize,
        Value::Number(n) => n.as_u64().map_or(1, |u| u as usize & 7),
        Value::String(s) => s.len(),
        Value::Array(a) => a.iter().map(walk).sum(),
        Value::Object(o) => o.iter().map(|(k, x)| k.len() + walk(x)).sum(),
    }
}

/// The walk formatting each number with itoa and appending its digits to
/// `out` (nothing else written): the walk plus the integer floor.
#[inline(never)]
fn walk_itoa(v: &serde_json::Value, out: &mut Vec<u8>) {
    use serde_json::Value;
    match v {
        Value::Number(n) => {
            if let Some(u) = n.as_u64() {
                out.extend_from_slice(itoa::Buffer::new().format(u).as_bytes());
            }
        }
        Value::Array(a) => a.iter().for_each(|x| walk_itoa(x, out)),
        Value::Object(o) => o.values().for_each(|x| walk_itoa(x, out)),
        _ => {}
    }
}

/// `walk_itoa` also reading the last byte of every key and string (their
/// bytes live in separate heap blocks: one more dependent load each,
/// which any serializer pays to copy them).
#[inline(never)]
fn walk_itoa_touch(v: &serde_json::Value, out: &mut Vec<u8>) -> usize {
    use serde_json::Value;
    let last = |s: &str| s.as_bytes().last().map_or(0, |&b| b as usize);
    match v {
        Value::Number(n) => {
            if let Some(u) = n.as_u64() {
                out.extend_from_slice(itoa::Buffer::new().format(u).as_bytes());
            }
            0
        }
        Value::String(s) => last(s),
        Value::Array(a) => a.iter().map(|x| walk_itoa_touch(x, out)).sum(),
        Value::Object(o) => o
            .iter()
            .map(|(k, x)| last(k) + walk_itoa_touch(x, out))
            .sum(),
        _ => 0,
    }
}

/// The same walk writing the compact JSON with no escaping at all (keys
/// and strings copied between quotes, integers by itoa appended): a lower
/// bound for any serializer of this tree (its output lacks the
/// backslashes of the few citm strings that hold quotes).
fn naive(v: &serde_json::Value, out: &mut Vec<u8>) {
    use serde_json::Value;
    match v {
        Value::Null => out.extend_from_slice(b"null"),
        Value::Bool(b) => out.extend_from_slice(if *b { b"true" } else { b"false" }),
        Value::Number(n) => match n.as_u64() {
            Some(u) => out.extend_from_slice(itoa::Buffer::new().format(u).as_bytes()),
            None => out.extend_from_slice(n.to_string().as_bytes()),
        },
        Value::String(s) => {
            out.push(b'"');
            out.extend_from_slice(s.as_bytes());
            out.push(b'"');
        }
        Value::Array(a) => {
            out.push(b'[');
            for (i, x) in a.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                naive(x, out);
            }
            out.push(b']');
        }
        Value::Object(o) => {
            out.push(b'{');
            for (i, (k, x)) in o.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                out.push(b'"');
                out.extend_from_slice(k.as_bytes());
                out.extend_from_slice(b"\":");
                naive(x, out);
            }
            out.push(b'}');
        }
    }
}

/// `citm_time N value`: the same document as a `serde_json::Value`, with
/// its floors (the walk alone; the walk writing JSON without escaping).
fn value(n: usize) {
    let v: serde_json::Value = serde_json::from_str(CITM).unwrap();
    let want = serde_json::to_vec(&v).unwrap();
    assert_eq!(ito::json::to_vec(&v).unwrap(), want);
    let mut out = Vec::new();
    naive(&v, &mut out);
    // A few citm strings hold quotes, which the floor leaves unescaped:
    // it writes a few bytes fewer (a floor all the same).
    assert!(out.len() <= want.len() && out.len() + 64 > want.len());
    let mut best = [f64::MAX; 7];
    let mut reused = Vec::with_capacity(want.len());
    for _ in 0..n {
        let t = Instant::now();
        drop(black_box(ito::json::to_vec(black_box(&v)).unwrap()));
        best[0] = best[0].min(t.elapsed().as_secs_f64() * 1e6);
        let t = Instant::now();
        drop(black_box(serde_json::to_vec(black_box(&v)).unwrap()));
        best[1] = best[1].min(t.elapsed().as_secs_f64() * 1e6);
        let t = Instant::now();
        black_box(walk(black_box(&v)));
        best[2] = best[2].min(t.elapsed().as_secs_f64() * 1e6);
        let t = Instant::now();
        let mut out = Vec::with_capacity(128);
        naive(black_box(&v), &mut out);
        drop(black_box(out));
        best[3] = best[3].min(t.elapsed().as_secs_f64() * 1e6);
        let t = Instant::now();
        reused.clear();
        walk_itoa(black_box(&v), &mut reused);
        black_box(&reused);
        best[4] = best[4].min(t.elapsed().as_secs_f64() * 1e6);
        let t = Instant::now();
        reused.clear();
        naive(black_box(&v), &mut reused);
        black_box(&reused);
        best[5] = best[5].min(t.elapsed().as_secs_f64() * 1e6);
        let t = Instant::now();
        reused.clear();
        black_box(walk_itoa_touch(black_box(&v), &mut reused));
        black_box(&reused);
        best[6] = best[6].min(t.elapsed().as_secs_f64() * 1e6);
    }
    let [a, b, w, f, wi, r, wt] = best;
    println!(
        "Value: ito {a:.1} us  serde_json {b:.1} us  ratio {:.2}",
        b / a
    );
    println!(
        "Value floors: walk {w:.1} us, walk + itoa appended {wi:.1} us \
         (serde_json / that = {:.2}), the same reading every key's and string's last byte \
         {wt:.1} us (serde_json / that = {:.2}); walk writing unescaped JSON: fresh Vec {f:.1} us, \
         reused Vec {r:.1} us",
        b / wi,
        b / wt
    );
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
    if std::env::args().nth(2).as_deref() == Some("value") {
        return value(n);
    }
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
