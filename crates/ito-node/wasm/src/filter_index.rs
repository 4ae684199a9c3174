//! `FilterIndex`: subscription ids over `ito::nostr::Subscriptions` (a
//! subscription is the filters of one `REQ`; an event's matching ids come
//! back once each, in the order the subscriptions were opened); the
//! binding only converts, as crates/ito-node/src/filter_index.rs does.

use crate::js::{self, Fail, Surrogates};
use ito::nostr::{Event, Filter, Subscriptions};
use wasm_bindgen::prelude::*;

/// The open subscriptions of a relay, to find those an event matches.
#[wasm_bindgen]
pub struct FilterIndex {
    subs: Subscriptions<String>,
}

impl Default for FilterIndex {
    fn default() -> Self {
        Self::new()
    }
}

#[wasm_bindgen]
impl FilterIndex {
    /// An empty index.
    #[wasm_bindgen(constructor)]
    pub fn new() -> FilterIndex {
        FilterIndex {
            subs: Subscriptions::new(),
        }
    }

    /// Opens subscription `subId` with `filters`: the JSON of one filter
    /// object or of an array of them. An id already open is replaced.
    pub fn add(&mut self, sub_id: &JsValue, filters: &JsValue) -> Result<(), JsValue> {
        let sub_id = sub_id_of(sub_id, "FilterIndex.add")?;
        let text = text_of(
            filters,
            "FilterIndex.add: filters must be a JSON string or a Uint8Array",
        )?;
        let parsed = if text.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'[') {
            Filter::parse_list(&text)
        } else {
            Filter::parse(&text).map(|f| vec![f])
        }
        .map_err(|e| Fail::from(e).into_js())?;
        self.subs
            .insert(sub_id, parsed.into_iter().map(Filter::into_owned));
        Ok(())
    }

    /// Closes subscription `subId`; returns whether it was open.
    pub fn remove(&mut self, sub_id: &JsValue) -> Result<bool, JsValue> {
        let sub_id = sub_id_of(sub_id, "FilterIndex.remove")?;
        Ok(self.subs.remove(&sub_id))
    }

    /// The number of open subscriptions.
    #[wasm_bindgen(getter)]
    pub fn size(&self) -> u32 {
        self.subs.len() as u32
    }

    /// The ids of the subscriptions that `event` (its JSON, as a string or
    /// `Uint8Array`) matches, each once, in the order they were opened.
    pub fn matches(&mut self, event: &JsValue) -> Result<Vec<String>, JsValue> {
        let bytes = match js::bytes(event) {
            Some(bytes) => bytes,
            None => js::string(event, Surrogates::Reject)
                .map_err(|e| {
                    e.into_fail("event", || {
                        Fail::Type(
                            "FilterIndex.matches: expected the event's JSON as a string or Uint8Array"
                                .into(),
                        )
                    })
                    .into_js()
                })?
                .into_bytes(),
        };
        let event = Event::parse(&bytes).map_err(|e| Fail::from(e).into_js())?;
        let mut ids = Vec::new();
        self.subs.matches(&event, &mut ids);
        Ok(ids)
    }
}

fn text_of(value: &JsValue, wrong_type: &str) -> Result<Vec<u8>, JsValue> {
    if let Some(bytes) = js::bytes(value) {
        return Ok(bytes);
    }
    js::string(value, Surrogates::Reject)
        .map(String::into_bytes)
        .map_err(|e| {
            e.into_fail("filters", || Fail::Type(wrong_type.into()))
                .into_js()
        })
}

fn sub_id_of(value: &JsValue, function: &str) -> Result<String, JsValue> {
    js::string(value, Surrogates::Reject).map_err(|e| {
        e.into_fail("subId", || {
            Fail::Type(format!("{function}: subId must be a string"))
        })
        .into_js()
    })
}
