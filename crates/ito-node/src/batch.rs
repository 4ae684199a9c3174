//! `verifyEvents` and `verifyJsonl`: `ito::nostr::batch` on a worker
//! thread, every core busy, the JavaScript thread free; the Promise
//! resolves with one answer per event, in input order.
//!
//! The inputs are copied (or, for event objects, written as JSON) on the
//! JavaScript thread before the work starts, so JavaScript may change or
//! drop them meanwhile.

use crate::event::{Fields, Shape};
use crate::js::{Fail, Js, Surrogates};
use ito::nostr::batch::{self, Check, Verdict};
use napi::bindgen_prelude::*;
use napi_derive::napi;

/// Options of the batch forms.
#[napi(object)]
pub struct BatchOptions {
    /// Threads to use (default: one per core).
    pub threads: Option<u32>,
}

/// One line's answer from `verifyJsonl`.
#[napi(object)]
pub struct LineVerdict {
    /// 1-based line number in the buffer.
    pub line: u32,
    /// Whether the event's id and signature are valid.
    pub ok: bool,
    /// `"ok"`, `"bad_id"`, `"bad_signature"` or `"invalid"` (not an event).
    pub status: String,
    /// Byte offset of the parse error within the line (`invalid` only).
    pub offset: Option<u32>,
    /// The event field the parse error concerns, if any (`invalid` only).
    pub field: Option<String>,
    /// The parse error as a sentence (`invalid` only).
    pub message: Option<String>,
}

fn pool_size(js: Js, options: Option<BatchOptions>) -> Result<Option<usize>> {
    match options.and_then(|o| o.threads) {
        Some(0) => Err(js.throw(Fail::value("threads must be at least 1", "threads", 0))),
        Some(n) => Ok(Some(n as usize)),
        None => Ok(None),
    }
}

/// Runs `work` on rayon's global pool, or on a pool of `threads` threads.
fn on_pool<T: Send>(threads: Option<usize>, work: impl FnOnce() -> T + Send) -> Result<T> {
    match threads {
        None => Ok(work()),
        Some(n) => {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(n)
                .build()
                .map_err(|e| Error::from_reason(format!("cannot start {n} threads: {e}")))?;
            Ok(pool.install(work))
        }
    }
}

/// `verifyEvents`: the events, each as JSON, or `None` for an object that
/// is not an event (answered `false` without work).
pub struct VerifyEvents {
    events: Vec<Option<Vec<u8>>>,
    threads: Option<usize>,
}

impl Task for VerifyEvents {
    type Output = Vec<bool>;
    type JsValue = Vec<bool>;

    fn compute(&mut self) -> Result<Vec<bool>> {
        let present: Vec<&[u8]> = self.events.iter().flatten().map(Vec::as_slice).collect();
        let verdicts = on_pool(self.threads, || {
            batch::verify_all(&present, Check::Signature)
        })?;
        let mut verdicts = verdicts.into_iter();
        Ok(self
            .events
            .iter()
            .map(|e| e.is_some() && verdicts.next().is_some_and(|v| v.is_ok()))
            .collect())
    }

    fn resolve(&mut self, _: Env, output: Vec<bool>) -> Result<Vec<bool>> {
        Ok(output)
    }
}

/// Checks many events on every core, off the JavaScript thread: resolves
/// with `verifyEvent`'s answer for each, in input order. Each element is an
/// event object, a JSON string or a `Uint8Array`; an element of another
/// type throws a `TypeError` before any work starts.
#[napi(
    ts_args_type = "events: Array<Event | string | Uint8Array>, options?: BatchOptions",
    ts_return_type = "Promise<boolean[]>"
)]
pub fn verify_events(
    env: Env,
    events: Unknown<'_>,
    options: Option<BatchOptions>,
) -> Result<AsyncTask<VerifyEvents>> {
    let js = Js::new(&env);
    let array = events.raw();
    let Some(len) = js.array_len(array) else {
        return Err(js.throw(Fail::Type("verifyEvents: expected an array".into())));
    };
    let threads = pool_size(js, options)?;
    let mut out = Vec::with_capacity(len as usize);
    let mut scratch = Vec::new();
    for i in 0..len {
        let item = js.element(array, i).map_err(|f| js.throw(f))?;
        out.push(match js.type_of(item) {
            napi::sys::ValueType::napi_string => js
                .string(item, Surrogates::Reject)
                .ok()
                .map(String::into_bytes),
            napi::sys::ValueType::napi_object => match js.bytes(item) {
                Some(bytes) => Some(bytes.to_vec()),
                None => match Fields::read(js, item, Shape::Signed, &mut scratch) {
                    Ok(fields) => fields.event().ok().map(|e| {
                        let mut json = Vec::new();
                        e.to_json(&mut json);
                        json
                    }),
                    Err(Fail::Pending) => {
                        js.clear_pending();
                        None
                    }
                    Err(_) => None,
                },
            },
            _ => {
                return Err(js.throw(Fail::Type(format!(
                "verifyEvents: element {i} is not an event object, a JSON string or a Uint8Array"
            ))))
            }
        });
    }
    Ok(AsyncTask::new(VerifyEvents {
        events: out,
        threads,
    }))
}

/// `verifyJsonl`: a copy of the buffer.
pub struct VerifyJsonl {
    buf: Vec<u8>,
    threads: Option<usize>,
}

impl Task for VerifyJsonl {
    type Output = Vec<(usize, Verdict)>;
    type JsValue = Vec<LineVerdict>;

    fn compute(&mut self) -> Result<Self::Output> {
        let buf = &self.buf;
        on_pool(self.threads, || batch::verify_jsonl(buf, Check::Signature))
    }

    fn resolve(&mut self, _: Env, output: Self::Output) -> Result<Vec<LineVerdict>> {
        Ok(output
            .into_iter()
            .map(|(line, v)| line_verdict(line, v))
            .collect())
    }
}

fn line_verdict(line: usize, verdict: Verdict) -> LineVerdict {
    let mut out = LineVerdict {
        line: u32::try_from(line).unwrap_or(u32::MAX),
        ok: verdict.is_ok(),
        status: String::new(),
        offset: None,
        field: None,
        message: None,
    };
    out.status = match verdict {
        Verdict::Ok => "ok",
        Verdict::BadId => "bad_id",
        Verdict::BadSignature => "bad_signature",
        Verdict::Invalid(e) => {
            out.offset = Some(u32::try_from(e.offset()).unwrap_or(u32::MAX));
            out.field = e.field().map(|f| f.name().to_string());
            out.message = Some(e.to_string());
            "invalid"
        }
        // Not produced: this build has the `schnorr` feature.
        _ => "unchecked",
    }
    .to_string();
    out
}

/// Checks every non-blank line of `buffer` (UTF-8 JSON lines)
/// as one event, on every core, off the JavaScript thread: resolves with
/// one verdict per event line, in input order. `buffer` is a `Uint8Array`
/// (a `Buffer` is one) or a string.
#[napi(
    ts_args_type = "buffer: Uint8Array | string, options?: BatchOptions",
    ts_return_type = "Promise<LineVerdict[]>"
)]
pub fn verify_jsonl(
    env: Env,
    buffer: Unknown<'_>,
    options: Option<BatchOptions>,
) -> Result<AsyncTask<VerifyJsonl>> {
    let js = Js::new(&env);
    let value = buffer.raw();
    let buf = match js.bytes(value) {
        Some(bytes) => bytes.to_vec(),
        // As `Buffer.from(text)` would: a lone surrogate becomes U+FFFD and
        // its line fails its id check, where refusing the whole text would
        // lose every other line's answer.
        None => match js.string(value, Surrogates::Replace) {
            Ok(text) => text.into_bytes(),
            Err(_) => {
                return Err(js.throw(Fail::Type(
                    "verifyJsonl: expected a Uint8Array or a string".into(),
                )))
            }
        },
    };
    let threads = pool_size(js, options)?;
    Ok(AsyncTask::new(VerifyJsonl { buf, threads }))
}
