//! `json::Writer`: every call sequence its types allow yields JSON that
//! serde_json parses back to the intended value, byte-identical with what
//! serde_json writes for the same tree; writing into a `Vec` with room
//! allocates nothing.

mod common;

use common::alloc::allocations;
use ito::json::{Array, Escaping, Object, Options, RawJson, Writer};
use proptest::prelude::*;
use serde::ser::{SerializeMap, SerializeSeq};
use serde_json::Value;

#[global_allocator]
static GLOBAL: common::alloc::Counting = common::alloc::Counting;

/// A document tree, and for each node how the Writer is asked to write it
/// (directly through `push`/`field`, or through a slot).
#[derive(Clone, Debug)]
enum Node {
    Null,
    Unit,
    Bool(bool),
    I64(i64),
    U64(u64),
    I128(i128),
    U8(u8),
    F64(f64),
    F32(f32),
    Char(char),
    Str(String),
    ItoStr(String),
    /// Written as `RawJson` of the child's serde_json text, padded with
    /// whitespace that validation trims.
    Raw(Box<Node>),
    /// A slot dropped unused: `null`.
    Unused,
    /// `via_slot`: written through `slot()`/`key()` instead of the direct
    /// container methods.
    Arr(Vec<Node>, bool),
    Obj(Vec<(String, Node)>, bool),
}

impl serde::Serialize for Node {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Node::Null | Node::Unit | Node::Unused => s.serialize_unit(),
            Node::Bool(b) => s.serialize_bool(*b),
            Node::I64(v) => s.serialize_i64(*v),
            Node::U64(v) => s.serialize_u64(*v),
            Node::I128(v) => s.serialize_i128(*v),
            Node::U8(v) => s.serialize_u8(*v),
            Node::F64(v) => s.serialize_f64(*v),
            Node::F32(v) => s.serialize_f32(*v),
            Node::Char(c) => s.serialize_char(*c),
            Node::Str(v) | Node::ItoStr(v) => s.serialize_str(v),
            Node::Raw(inner) => inner.serialize(s),
            Node::Arr(items, _) => {
                let mut seq = s.serialize_seq(Some(items.len()))?;
                for item in items {
                    seq.serialize_element(item)?;
                }
                seq.end()
            }
            Node::Obj(members, _) => {
                let mut map = s.serialize_map(Some(members.len()))?;
                for (k, v) in members {
                    map.serialize_entry(k, v)?;
                }
                map.end()
            }
        }
    }
}

fn write_scalar_slot<E: Escaping>(w: Writer<'_, E>, node: &Node) {
    match node {
        Node::Null => w.null(),
        Node::Unit => w.value(()),
        Node::Bool(b) => w.value(*b),
        Node::I64(v) => w.value(*v),
        Node::U64(v) => w.value(v),
        Node::I128(v) => w.value(*v),
        Node::U8(v) => w.value(*v),
        Node::F64(v) => w.value(*v),
        Node::F32(v) => w.value(*v),
        Node::Char(c) => w.value(*c),
        Node::Str(v) => w.value(v.as_str()),
        Node::ItoStr(v) => w.value(ito::Str::from(v.as_str())),
        Node::Raw(inner) => {
            let text = format!(" \n{}\t", serde_json::to_string(inner).unwrap());
            w.value(RawJson::new(&text).unwrap())
        }
        Node::Unused => drop(w),
        Node::Arr(items, _) => fill_array(w.array(), items),
        Node::Obj(members, _) => fill_object(w.object(), members),
    }
}

fn fill_array<E: Escaping>(mut a: Array<'_, E>, items: &[Node]) {
    for item in items {
        match item {
            Node::Arr(inner, false) => fill_array(a.array(), inner),
            Node::Obj(inner, false) => fill_object(a.object(), inner),
            Node::Bool(b) => {
                a.push(b);
            }
            Node::U64(v) => {
                a.push(*v);
            }
            Node::Str(v) => {
                a.push(v);
            }
            Node::Null => {
                a.push(None::<f32>);
            }
            other => write_scalar_slot(a.slot(), other),
        }
    }
    a.end();
}

fn fill_object<E: Escaping>(mut o: Object<'_, E>, members: &[(String, Node)]) {
    for (k, v) in members {
        match v {
            Node::Arr(inner, false) => fill_array(o.array(k), inner),
            Node::Obj(inner, false) => fill_object(o.object(ito::Str::from(k.as_str())), inner),
            Node::I64(n) => {
                o.field(k.as_str(), *n);
            }
            Node::F64(n) => {
                o.field(k, n);
            }
            Node::ItoStr(s) => {
                o.field(k, ito::Str::from(s.as_str()));
            }
            // The fused key + value paths (one reserve for both), through
            // every kind of key.
            Node::Bool(b) => {
                o.field(ito::Str::from(k.as_str()), *b);
            }
            Node::Unit => {
                o.field(k.clone(), ());
            }
            Node::Null => {
                o.field(k, None::<u64>);
            }
            Node::U64(v) => {
                o.field(Box::<str>::from(k.as_str()), Some(v));
            }
            Node::I128(v) => {
                o.field(std::borrow::Cow::Borrowed(k.as_str()), Box::new(*v));
            }
            Node::Str(v) if v.len() % 2 == 0 => {
                o.field(k, v.as_str());
            }
            Node::Str(v) => {
                o.field(k.as_str(), std::borrow::Cow::Borrowed(v.as_str()));
            }
            Node::U8(v) => {
                o.field(k, v);
            }
            other => write_scalar_slot(o.key(k), other),
        }
    }
    // Dropped, not ended: the drop closes it.
}

fn text() -> impl Strategy<Value = String> {
    let special = prop::sample::select(vec![
        '"', '\\', '/', '\n', '\r', '\t', '\u{8}', '\u{c}', '\0', '\u{1f}', '\u{7f}', 'é', '€',
        '😀', '\u{2028}', '<', '&',
    ]);
    prop::collection::vec(
        prop_oneof![3 => any::<char>(), 2 => special, 4 => prop::char::range('a', 'z')],
        0..24,
    )
    .prop_map(|cs| cs.into_iter().collect())
}

fn number_edge() -> impl Strategy<Value = Node> {
    prop_oneof![
        any::<i64>().prop_map(Node::I64),
        any::<u64>().prop_map(Node::U64),
        any::<i128>().prop_map(Node::I128),
        any::<u8>().prop_map(Node::U8),
        any::<f64>().prop_map(Node::F64),
        any::<f32>().prop_map(Node::F32),
        prop::sample::select(vec![
            Node::F64(-0.0),
            Node::F64(5e-324),
            Node::F64(1e308),
            Node::F64(f64::MAX),
            Node::F64(f64::NAN),
            Node::F64(f64::INFINITY),
            Node::F64(f64::NEG_INFINITY),
            Node::F64(9007199254740993.0),
            Node::F32(f32::MIN_POSITIVE / 2.0),
            Node::U64(u64::MAX),
            Node::I64(i64::MIN),
            Node::I64((1 << 53) + 1),
            Node::I64(-(1 << 53) - 1),
            Node::I128(i128::MIN),
        ]),
    ]
}

fn node() -> impl Strategy<Value = Node> {
    let leaf = prop_oneof![
        Just(Node::Null),
        Just(Node::Unit),
        Just(Node::Unused),
        any::<bool>().prop_map(Node::Bool),
        number_edge(),
        any::<char>().prop_map(Node::Char),
        text().prop_map(Node::Str),
        text().prop_map(Node::ItoStr),
    ];
    leaf.prop_recursive(6, 64, 8, |inner| {
        prop_oneof![
            (prop::collection::vec(inner.clone(), 0..8), any::<bool>())
                .prop_map(|(v, slot)| Node::Arr(v, slot)),
            (
                prop::collection::vec((text(), inner.clone()), 0..8),
                any::<bool>()
            )
                .prop_map(|(v, slot)| Node::Obj(v, slot)),
            inner.prop_map(|n| Node::Raw(Box::new(n))),
        ]
    })
}

/// The value serde_json reads back from its own rendering of `node`
/// (duplicate keys resolved the same way on both sides).
fn intended(node: &Node) -> Value {
    serde_json::from_slice(&serde_json::to_vec(node).unwrap()).unwrap()
}

proptest! {
    #![proptest_config(common::proptest_config(2000))]

    #[test]
    fn writer_matches_serde_json(tree in node(), prefix in prop::collection::vec(any::<u8>(), 0..4)) {
        let mut out = prefix.clone();
        write_scalar_slot(Writer::new(&mut out), &tree);
        prop_assert_eq!(&out[..prefix.len()], &prefix[..]);
        let ours = &out[prefix.len()..];
        let theirs = serde_json::to_vec(&tree).unwrap();
        prop_assert_eq!(String::from_utf8_lossy(ours), String::from_utf8_lossy(&theirs));
        let back: Value = serde_json::from_slice(ours).unwrap();
        prop_assert_eq!(back, intended(&tree));
        // Default options through the options type: the same bytes.
        let mut via_options = Vec::new();
        write_scalar_slot(Writer::with_options(&mut via_options, &Options::default()), &tree);
        prop_assert_eq!(String::from_utf8_lossy(&via_options), String::from_utf8_lossy(&theirs));
    }

    #[test]
    fn writer_options_match_quote_with(s in text(), ascii in any::<bool>(), html in any::<bool>(), slash in any::<bool>()) {
        let opts = Options::new().ascii_only(ascii).html_safe(html).escape_slash(slash);
        let mut out = Vec::new();
        Writer::with_options(&mut out, &opts)
            .object()
            .field(s.as_str(), ito::Str::from(s.as_str()))
            .field(s.as_str(), -7i32)
            .field(s.as_str(), false)
            .field(s.as_str(), None::<bool>)
            .field(s.as_str(), s.clone());
        let mut want = b"{".to_vec();
        ito::json::quote_with(&mut want, &s, &opts);
        want.push(b':');
        ito::json::quote_with(&mut want, &s, &opts);
        for v in ["-7", "false", "null"] {
            want.push(b',');
            ito::json::quote_with(&mut want, &s, &opts);
            want.push(b':');
            want.extend_from_slice(v.as_bytes());
        }
        want.push(b',');
        ito::json::quote_with(&mut want, &s, &opts);
        want.push(b':');
        ito::json::quote_with(&mut want, &s, &opts);
        want.push(b'}');
        prop_assert_eq!(out, want);
    }
}

#[test]
fn slots_and_scopes_close_on_drop() {
    let mut out = Vec::new();
    drop(Writer::new(&mut out));
    assert_eq!(out, b"null");

    let mut out = Vec::new();
    {
        let mut a = Writer::new(&mut out).array();
        let _ = a.slot();
        let mut o = a.object();
        let _ = o.key("k");
        let mut inner = o.array("l");
        let _ = inner.object();
    }
    assert_eq!(out, br#"[null,{"k":null,"l":[{}]}]"#);
}

#[test]
fn relay_message_shape() {
    // What a relay writes: ["EVENT", sub, <stored event verbatim>].
    let stored = r#"{"id":"ab","pubkey":"cd","created_at":1,"kind":1,"tags":[],"content":"hi\n","sig":"ef"}"#;
    let event = RawJson::new(stored).unwrap();
    let mut out = Vec::new();
    Writer::new(&mut out)
        .array()
        .push("EVENT")
        .push("sub-1")
        .push(event);
    assert_eq!(out, format!(r#"["EVENT","sub-1",{stored}]"#).as_bytes());
}

/// A document with every scalar kind, under either escaping.
fn fill_doc<E: Escaping>(w: Writer<'_, E>, long: &str, s: &ito::Str, raw: &RawJson) {
    let mut o = w.object();
    o.field("id", 12345u64)
        .field("pi", std::f64::consts::PI)
        .field("f32", 1.5f32)
        .field("big", u128::MAX)
        .field("neg", i64::MIN)
        .field("t", true)
        .field("n", ())
        .field("s", long)
        .field("ito", s)
        .field("raw", raw)
        .field("é key", 'é');
    let mut a = o.array("list");
    for i in 0..100 {
        a.push(i).push("x");
        a.object().field("i", i).array("deep").push(f64::NAN);
    }
}

#[test]
fn writing_into_a_vec_with_room_allocates_nothing() {
    let long = "a long string with \"quotes\" and escapes\n that exceeds the short path".repeat(4);
    let s = ito::Str::from(long.as_str());
    let raw = RawJson::new(r#"{"a":[1,2,3]}"#).unwrap();
    let opts = Options::new().ascii_only(true);
    let mut out = Vec::with_capacity(1 << 16);
    let render = |out: &mut Vec<u8>, opts: Option<&Options>| {
        out.clear();
        match opts {
            Some(o) => fill_doc(Writer::with_options(out, o), &long, &s, raw),
            None => fill_doc(Writer::new(out), &long, &s, raw),
        }
    };
    render(&mut out, None);
    let len = out.len();
    let ((), n) = allocations(|| render(&mut out, None));
    assert_eq!((n, out.len()), (0, len));
    render(&mut out, Some(&opts));
    let ((), n) = allocations(|| render(&mut out, Some(&opts)));
    assert_eq!(n, 0);
}
