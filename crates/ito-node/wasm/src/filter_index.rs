//! `FilterIndex`: subscription ids over `ito::nostr::FilterIndex`, with
//! the bookkeeping of crates/ito-node/src/filter_index.rs (a subscription
//! is the filters of one `REQ`; an event's matching ids come back once
//! each, in the order the subscriptions were opened).

use crate::js::{self, Fail, Surrogates};
use ito::nostr::{Event, Filter};
use std::collections::HashMap;
use wasm_bindgen::prelude::*;

/// One open subscription: its id and the index's numbers of its filters.
struct Subscription {
    id: String,
    filters: Vec<u32>,
    /// The `matches` call that last reported it (reports it once per call).
    seen: u64,
}

/// The open subscriptions of a relay, to find those an event matches.
#[wasm_bindgen]
pub struct FilterIndex {
    index: ito::nostr::FilterIndex,
    slots: Vec<Option<Subscription>>,
    free: Vec<usize>,
    by_id: HashMap<String, usize>,
    /// The slot of each filter number (`usize::MAX` once removed).
    owner: Vec<usize>,
    calls: u64,
    hits: Vec<u32>,
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
            index: ito::nostr::FilterIndex::new(),
            slots: Vec::new(),
            free: Vec::new(),
            by_id: HashMap::new(),
            owner: Vec::new(),
            calls: 0,
            hits: Vec::new(),
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
        self.close(&sub_id);
        let slot = self.free.pop().unwrap_or(self.slots.len());
        let numbers = parsed
            .into_iter()
            .map(|f| {
                let n = self.index.insert(f.into_owned());
                debug_assert_eq!(n as usize, self.owner.len());
                self.owner.push(slot);
                n
            })
            .collect();
        let sub = Subscription {
            id: sub_id.clone(),
            filters: numbers,
            seen: 0,
        };
        if slot == self.slots.len() {
            self.slots.push(Some(sub));
        } else {
            self.slots[slot] = Some(sub);
        }
        self.by_id.insert(sub_id, slot);
        Ok(())
    }

    /// Closes subscription `subId`; returns whether it was open.
    pub fn remove(&mut self, sub_id: &JsValue) -> Result<bool, JsValue> {
        let sub_id = sub_id_of(sub_id, "FilterIndex.remove")?;
        Ok(self.close(&sub_id))
    }

    fn close(&mut self, sub_id: &str) -> bool {
        let Some(slot) = self.by_id.remove(sub_id) else {
            return false;
        };
        if let Some(sub) = self.slots[slot].take() {
            for n in sub.filters {
                self.index.remove(n);
                self.owner[n as usize] = usize::MAX;
            }
        }
        self.free.push(slot);
        true
    }

    /// The number of open subscriptions.
    #[wasm_bindgen(getter)]
    pub fn size(&self) -> u32 {
        self.by_id.len() as u32
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
        self.index.matches(&event, &mut self.hits);
        self.calls += 1;
        let mut slots: Vec<usize> = Vec::with_capacity(self.hits.len());
        for n in &self.hits {
            let Some(&slot) = self.owner.get(*n as usize) else {
                continue;
            };
            let Some(Some(sub)) = self.slots.get_mut(slot) else {
                continue;
            };
            if sub.seen != self.calls {
                sub.seen = self.calls;
                slots.push(slot);
            }
        }
        slots.sort_by_key(|&s| self.slots[s].as_ref().map_or(0, |sub| sub.filters[0]));
        Ok(slots
            .into_iter()
            .filter_map(|s| self.slots[s].as_ref().map(|sub| sub.id.clone()))
            .collect())
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
