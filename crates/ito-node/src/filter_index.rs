//! `FilterIndex`: a relay's open subscriptions, matched against one event
//! at a time ([`ito::nostr::FilterIndex`]: the cost follows the number of
//! candidate filters, not the number of subscriptions).
//!
//! The bookkeeping (ids, replacement, each id once in opening order) is
//! [`ito::nostr::Subscriptions`]; the binding only converts.

use crate::js::{Fail, Js, Raw, Surrogates};
use ito::nostr::{Event, Filter, Subscriptions};
use napi::bindgen_prelude::*;
use napi_derive::napi;

/// The open subscriptions of a relay, to find those an event matches.
///
/// ```js
/// const index = new FilterIndex()
/// index.add('feed', '[{"kinds":[1]},{"authors":["6e46…"]}]')
/// index.matches(eventJson) // ['feed']
/// index.remove('feed')
/// ```
#[napi]
pub struct FilterIndex {
    subs: Subscriptions<String>,
    text: Vec<u8>,
}

impl Default for FilterIndex {
    fn default() -> Self {
        Self::new()
    }
}

#[napi]
impl FilterIndex {
    /// An empty index.
    #[napi(constructor)]
    pub fn new() -> FilterIndex {
        FilterIndex {
            subs: Subscriptions::new(),
            text: Vec::new(),
        }
    }

    /// Opens subscription `subId` with `filters`: the JSON of one filter
    /// object or of an array of them (a `REQ`'s filters). An id already
    /// open is replaced, as a relay does for a repeated `REQ`. Throws an
    /// `Error` with `offset` (into `filters`) for malformed filters; the
    /// index is unchanged then.
    #[napi(ts_args_type = "subId: string, filters: string | Uint8Array")]
    pub fn add(&mut self, env: Env, sub_id: Unknown<'_>, filters: Unknown<'_>) -> Result<()> {
        let js = Js::new(&env);
        let sub_id = sub_id_of(js, sub_id.raw(), "FilterIndex.add")?;
        let text = text_of(
            js,
            filters.raw(),
            "FilterIndex.add: filters must be a JSON string or a Uint8Array",
        )?;
        let parsed = if text.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'[') {
            Filter::parse_list(&text)
        } else {
            Filter::parse(&text).map(|f| vec![f])
        }
        .map_err(|e| js.throw(Fail::from(e)))?;
        self.subs
            .insert(sub_id, parsed.into_iter().map(Filter::into_owned));
        Ok(())
    }

    /// Closes subscription `subId`; returns whether it was open.
    #[napi(ts_args_type = "subId: string")]
    pub fn remove(&mut self, env: Env, sub_id: Unknown<'_>) -> Result<bool> {
        let js = Js::new(&env);
        let sub_id = sub_id_of(js, sub_id.raw(), "FilterIndex.remove")?;
        Ok(self.subs.remove(&sub_id))
    }

    /// The number of open subscriptions.
    #[napi(getter)]
    pub fn size(&self) -> u32 {
        self.subs.len() as u32
    }

    /// The ids of the subscriptions that `event` (its JSON, as a string or
    /// `Uint8Array`) matches, each once, in the order they were opened.
    /// Throws an `Error` with `offset` and `field` if it is not an event.
    #[napi(ts_args_type = "event: string | Uint8Array")]
    pub fn matches(&mut self, env: Env, event: Unknown<'_>) -> Result<Vec<String>> {
        let js = Js::new(&env);
        let value = event.raw();
        let bytes = match js.bytes(value) {
            Some(bytes) => bytes,
            None => {
                // The text buffer is kept between calls: no allocation.
                self.text.clear();
                js.string_into(value, &mut self.text, Surrogates::Reject)
                    .map_err(|e| {
                        js.throw(e.into_fail("event", || {
                            Fail::Type(
                                "FilterIndex.matches: expected the event's JSON as a string or Uint8Array"
                                    .into(),
                            )
                        }))
                    })?;
                &self.text[..]
            }
        };
        let event = Event::parse(bytes).map_err(|e| js.throw(Fail::from(e)))?;
        let mut ids = Vec::new();
        self.subs.matches(&event, &mut ids);
        Ok(ids)
    }
}

fn text_of(js: Js, value: Raw, wrong_type: &str) -> Result<Vec<u8>> {
    if let Some(bytes) = js.bytes(value) {
        return Ok(bytes.to_vec());
    }
    js.string(value, Surrogates::Reject)
        .map(String::into_bytes)
        .map_err(|e| js.throw(e.into_fail("filters", || Fail::Type(wrong_type.into()))))
}

/// A subscription id. One holding a lone surrogate is refused: written as
/// U+FFFD, distinct ids would become one.
fn sub_id_of(js: Js, value: Raw, function: &str) -> Result<String> {
    js.string(value, Surrogates::Reject).map_err(|e| {
        js.throw(e.into_fail("subId", || {
            Fail::Type(format!("{function}: subId must be a string"))
        }))
    })
}
