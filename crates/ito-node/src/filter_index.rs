//! `FilterIndex`: a relay's open subscriptions, matched against one event
//! at a time ([`ito::nostr::FilterIndex`]: the cost follows the number of
//! candidate filters, not the number of subscriptions).
//!
//! The binding only keeps the names: which subscription owns which filter
//! number, so that `matches` answers with subscription ids.

use crate::js::{Fail, Js, Raw, Surrogates};
use ito::nostr::{Event, Filter};
use napi::bindgen_prelude::*;
use napi_derive::napi;
use std::collections::HashMap;

/// One subscription: its id and the numbers of its filters in the index.
struct Subscription {
    id: String,
    filters: Vec<u32>,
    /// The last `matches` call that listed it (answers name it once).
    seen: u64,
}

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
    index: ito::nostr::FilterIndex,
    /// Subscription slots; a removed one is `None` until reused.
    slots: Vec<Option<Subscription>>,
    free: Vec<usize>,
    by_id: HashMap<String, usize>,
    /// Filter number -> slot of its subscription (`usize::MAX` once
    /// removed); the index numbers filters 0, 1, 2, ... and never reuses one.
    owner: Vec<usize>,
    calls: u64,
    hits: Vec<u32>,
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
            index: ito::nostr::FilterIndex::new(),
            slots: Vec::new(),
            free: Vec::new(),
            by_id: HashMap::new(),
            owner: Vec::new(),
            calls: 0,
            hits: Vec::new(),
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
    #[napi(ts_args_type = "subId: string")]
    pub fn remove(&mut self, env: Env, sub_id: Unknown<'_>) -> Result<bool> {
        let js = Js::new(&env);
        let sub_id = sub_id_of(js, sub_id.raw(), "FilterIndex.remove")?;
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
    #[napi(getter)]
    pub fn size(&self) -> u32 {
        self.by_id.len() as u32
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
        // Filter numbers grow with each `add`, so a subscription's first
        // filter number orders subscriptions by opening.
        slots.sort_by_key(|&s| self.slots[s].as_ref().map_or(0, |sub| sub.filters[0]));
        Ok(slots
            .into_iter()
            .filter_map(|s| self.slots[s].as_ref().map(|sub| sub.id.clone()))
            .collect())
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
