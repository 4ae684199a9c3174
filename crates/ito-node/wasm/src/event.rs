//! A nostr-tools event object (`{id, pubkey, created_at, kind, tags,
//! content, sig}`) read into an [`ito::nostr::Event`], with the Node
//! package's rules (crates/ito-node/src/event.rs): the same checks, the
//! same errors, the same order of reads.

use crate::js::{self, Fail, Keys, Surrogates};
use ito::nostr::{Event, Tags};
use js_sys::Array;
use std::borrow::Cow;
use wasm_bindgen::JsValue;

/// The text of an event object's fields, owned, so that an
/// [`ito::nostr::Event`] can borrow it.
pub(crate) struct Fields {
    pub(crate) id: [u8; 32],
    pub(crate) pubkey: [u8; 32],
    pub(crate) created_at: u64,
    pub(crate) kind: u16,
    /// The tags as compact JSON (what [`Tags::parse`] reads).
    tags: String,
    content: String,
    pub(crate) sig: [u8; 64],
}

/// Which fields to read.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Shape {
    /// A signed event: every field.
    Signed,
    /// An event to hash: no id and no signature yet.
    Unsigned,
    /// An event template to sign: no pubkey either (the key gives it).
    Template,
}

impl Fields {
    /// Reads the fields of `object` (already known to be an object).
    pub(crate) fn read(object: &JsValue, shape: Shape) -> Result<Fields, Fail> {
        js::with_keys(|k| Fields::read_with(k, object, shape))
    }

    fn read_with(k: &Keys, object: &JsValue, shape: Shape) -> Result<Fields, Fail> {
        let mut f = Fields {
            id: [0; 32],
            pubkey: match shape {
                Shape::Template => [0; 32],
                _ => hex_field(object, &k.pubkey, "pubkey")?,
            },
            created_at: 0,
            kind: 0,
            tags: String::new(),
            content: String::new(),
            sig: [0; 64],
        };
        f.created_at = integer(object, &k.created_at, "created_at", MAX_SAFE_INTEGER)?;
        f.kind = integer(object, &k.kind, "kind", u64::from(u16::MAX))? as u16;
        f.tags = tags_json(&js::property(object, &k.tags)?)?;
        let content = js::property(object, &k.content)?;
        f.content = js::string(&content, Surrogates::Reject).map_err(|e| {
            e.into_fail("content", || {
                Fail::value("`content`: not a string", "content", 0)
            })
        })?;
        if shape == Shape::Signed {
            f.id = hex_field(object, &k.id, "id")?;
            f.sig = hex_field(object, &k.sig, "sig")?;
        }
        Ok(f)
    }

    /// The event these fields describe.
    pub(crate) fn event(&self) -> Result<Event<'_>, Fail> {
        Ok(Event {
            id: self.id,
            pubkey: self.pubkey,
            created_at: self.created_at,
            kind: self.kind,
            tags: Tags::parse(&self.tags).map_err(|e| Fail::value(e.to_string(), "tags", 0))?,
            content: Cow::Borrowed(&self.content),
            sig: self.sig,
        })
    }
}

/// JavaScript's `Number.MAX_SAFE_INTEGER`: larger timestamps are not exact.
const MAX_SAFE_INTEGER: u64 = (1 << 53) - 1;

fn hex_field<const N: usize>(
    object: &JsValue,
    key: &JsValue,
    name: &'static str,
) -> Result<[u8; N], Fail> {
    let value = js::property(object, key)?;
    let text = js::string(&value, Surrogates::Replace)
        .map_err(|_| Fail::value(format!("`{name}`: not a string"), name, 0))?;
    ito::hex::decode_array_lower::<N>(text.as_bytes())
        .map_err(|e| Fail::value(format!("`{name}`: {e}"), name, e.offset()))
}

fn integer(object: &JsValue, key: &JsValue, name: &'static str, max: u64) -> Result<u64, Fail> {
    let value = js::property(object, key)?;
    let n = value
        .as_f64()
        .ok_or_else(|| Fail::value(format!("`{name}`: not a number"), name, 0))?;
    if !(n >= 0.0 && n.fract() == 0.0) {
        return Err(Fail::value(
            format!("`{name}`: not a non-negative integer"),
            name,
            0,
        ));
    }
    if n > max as f64 {
        return Err(Fail::value(
            format!("`{name}`: integer larger than {max}"),
            name,
            0,
        ));
    }
    Ok(n as u64)
}

/// An array of arrays of strings written as compact JSON; a value of any
/// other shape is an error naming the tag (its index is the offset).
fn tags_json(tags: &JsValue) -> Result<String, Fail> {
    let not_array = || Fail::value("`tags`: not an array of arrays of strings", "tags", 0);
    let tags: &Array = js::array(tags).ok_or_else(not_array)?;
    let count = tags.length();
    let mut out = Vec::with_capacity(2 + 80 * count as usize);
    out.push(b'[');
    for i in 0..count {
        let tag = js::element(tags, i)?;
        let bad_tag = || {
            Fail::value(
                format!("`tags`: tag {i} is not an array of strings"),
                "tags",
                i as usize,
            )
        };
        let tag = js::array(&tag).ok_or_else(bad_tag)?;
        if i > 0 {
            out.push(b',');
        }
        out.push(b'[');
        for j in 0..tag.length() {
            let item = js::element(tag, j)?;
            let text =
                js::string(&item, Surrogates::Reject).map_err(|e| e.into_fail("tags", bad_tag))?;
            if j > 0 {
                out.push(b',');
            }
            out.push(b'"');
            ito::nostr::escape(&mut out, text.as_bytes());
            out.push(b'"');
        }
        out.push(b']');
    }
    out.push(b']');
    // The strings were UTF-8 and the escaper keeps them UTF-8.
    String::from_utf8(out).map_err(|_| not_array())
}
