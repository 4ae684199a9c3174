//! Checking many events on every core (feature `parallel`, pulls in rayon).
//!
//! Three shapes of input, one per function, all answering in input order:
//!
//! - [`verify_all`]: a slice of events already split apart.
//! - [`verify_jsonl`]: one buffer of JSON lines (blank lines skipped).
//! - [`verify_reader`]: any [`Read`], streamed in bounded memory.
//!
//! The streaming engine ([`for_each_line`]) is the one the `ito` CLI and the
//! Python bindings share:
//!
//! ```text
//! loop:
//!     read until the buffer holds `chunk` bytes (or the input ends)
//!     cut after the last '\n' (a line longer than the chunk grows the buffer)
//!     work(line) for every complete line, in parallel (rayon)
//!     sink(line, result) for every line, in input order, on this thread
//!     keep the unfinished tail for the next round
//! ```
//!
//! Memory is the chunk plus the longest line plus one result per line of a
//! chunk, whatever the input size. Checking signatures costs ~50 µs per
//! event and ids ~1 µs, so a chunk of a few MiB is thousands of events: the
//! pool stays busy and the sequential read and sink are a small share.
//!
//! Without the `schnorr` feature [`Check::Signature`] cannot check
//! signatures: it checks the id and answers [`Verdict::SignatureUnchecked`]
//! for events whose id is right, never [`Verdict::Ok`]. Ask
//! [`Check::is_available`] first to refuse such a request up front.

use super::{event_id, Error, Event};
use rayon::prelude::*;
use std::io::{self, Read};

/// What to check for every event.
///
/// ```
/// use ito::nostr::batch::Check;
/// assert!(Check::Id.is_available());
/// assert_eq!(Check::Signature.is_available(), cfg!(feature = "schnorr"));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Check {
    /// The event parses and its id is the sha256 of its canonical form.
    Id,
    /// [`Check::Id`], then the BIP-340 signature by `pubkey` over the id
    /// (needs the `schnorr` feature; see the [module docs](self) for what
    /// happens without it).
    Signature,
}

impl Check {
    /// Whether this build can perform the check: always for [`Check::Id`],
    /// with the `schnorr` feature for [`Check::Signature`].
    ///
    /// ```
    /// # use ito::nostr::batch::Check;
    /// if !Check::Signature.is_available() {
    ///     eprintln!("built without signature checking");
    /// }
    /// ```
    pub const fn is_available(self) -> bool {
        match self {
            Check::Id => true,
            Check::Signature => cfg!(feature = "schnorr"),
        }
    }
}

/// The outcome of checking one event.
///
/// ```
/// use ito::nostr::batch::{verify_one, Check, Verdict};
/// assert!(matches!(verify_one(b"{}", Check::Id), Verdict::Invalid(_)));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Verdict {
    /// Everything asked for holds.
    Ok,
    /// The event parses but its id is not the hash of its contents.
    BadId,
    /// The id is right but the signature is not valid.
    BadSignature,
    /// Not an event: the parse error, with the byte offset within the event.
    Invalid(Error),
    /// [`Check::Signature`] in a build without the `schnorr` feature: the
    /// id is right, the signature was not checked.
    SignatureUnchecked,
}

impl Verdict {
    /// Whether the event passed every check asked for.
    ///
    /// ```
    /// assert!(ito::nostr::batch::Verdict::Ok.is_ok());
    /// ```
    pub fn is_ok(&self) -> bool {
        matches!(self, Verdict::Ok)
    }
}

/// Counts of the verdicts of one run of [`verify_reader`].
///
/// ```
/// use ito::nostr::batch::{verify_reader, Check};
/// let summary = verify_reader(&b"\n{}\n"[..], Check::Id, |_, _, _| Ok(())).unwrap();
/// assert_eq!((summary.events, summary.invalid, summary.lines), (1, 1, 2));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Summary {
    /// Lines read, blank ones included.
    pub lines: u64,
    /// Bytes read.
    pub bytes: u64,
    /// Non-blank lines, each checked as one event.
    pub events: u64,
    /// [`Verdict::Ok`] count.
    pub ok: u64,
    /// [`Verdict::BadId`] count.
    pub bad_id: u64,
    /// [`Verdict::BadSignature`] count.
    pub bad_signature: u64,
    /// [`Verdict::Invalid`] count.
    pub invalid: u64,
    /// [`Verdict::SignatureUnchecked`] count.
    pub unchecked: u64,
}

impl Summary {
    fn count(&mut self, verdict: &Verdict) {
        self.events += 1;
        match verdict {
            Verdict::Ok => self.ok += 1,
            Verdict::BadId => self.bad_id += 1,
            Verdict::BadSignature => self.bad_signature += 1,
            Verdict::Invalid(_) => self.invalid += 1,
            Verdict::SignatureUnchecked => self.unchecked += 1,
        }
    }
}

/// Checks one event (on the calling thread).
///
/// ```
/// use ito::nostr::batch::{verify_one, Check, Verdict};
/// let event = br#"{"id":"4376c65d2f232afbe9b882a35baa4f6fe8667c4e684749af565f981833ed6a65","pubkey":"6e468422dfb74a5738702a8823b9b28168abab8655faacb6853cd0ee15deee93","created_at":1673347337,"kind":1,"tags":[["e","3da979448d9ba263864c4d6f14984c423a3838364ec255f03c7904b1ae77f206"],["p","bf2376e17ba4ec269d10fcc996a4746b451152be9031fa48e74553dde5526bce"]],"content":"Walled gardens became prisons, and nostr is the first step towards tearing down the prison walls.","sig":"908a15e46fb4d8675bab026fc230a0e3542bfade63da02d542fb78b2a8513fcd0092619a2c8c1221e581946e0191f2af505dfdf8657a414dbca329186f009262"}"#;
/// assert_eq!(verify_one(event, Check::Id), Verdict::Ok);
/// ```
pub fn verify_one(event: &[u8], check: Check) -> Verdict {
    let event = match Event::parse(event) {
        Ok(event) => event,
        Err(e) => return Verdict::Invalid(e),
    };
    if event_id(&event) != event.id {
        return Verdict::BadId;
    }
    match check {
        Check::Id => Verdict::Ok,
        Check::Signature => signature_verdict(&event),
    }
}

#[cfg(feature = "schnorr")]
fn signature_verdict(event: &Event<'_>) -> Verdict {
    if super::verify_signature(event) {
        Verdict::Ok
    } else {
        Verdict::BadSignature
    }
}

#[cfg(not(feature = "schnorr"))]
fn signature_verdict(_: &Event<'_>) -> Verdict {
    Verdict::SignatureUnchecked
}

/// Checks every event on every core; the verdicts are in input order.
///
/// ```
/// use ito::nostr::batch::{verify_all, Check, Verdict};
/// let verdicts = verify_all(&["{}", "[]"], Check::Id);
/// assert_eq!(verdicts.len(), 2);
/// assert!(verdicts.iter().all(|v| matches!(v, Verdict::Invalid(_))));
/// ```
pub fn verify_all<T: AsRef<[u8]> + Sync>(events: &[T], check: Check) -> Vec<Verdict> {
    events
        .par_iter()
        .with_min_len(MIN_LINES_PER_TASK)
        .map(|e| verify_one(e.as_ref(), check))
        .collect()
}

/// Checks every non-blank line of `buf` as one event, on every core: the
/// 1-based line number and verdict of each, in input order. Lines end at
/// `\n`; a line of JSON whitespace only is blank.
///
/// ```
/// use ito::nostr::batch::{verify_jsonl, Check, Verdict};
/// let out = verify_jsonl(b"{}\n\n  \r\n[1]", Check::Id);
/// assert_eq!(out.iter().map(|(line, _)| *line).collect::<Vec<_>>(), [1, 4]);
/// ```
pub fn verify_jsonl(buf: &[u8], check: Check) -> Vec<(usize, Verdict)> {
    let lines: Vec<(usize, &[u8])> = split_lines(buf)
        .enumerate()
        .filter(|(_, line)| !is_blank(line))
        .map(|(i, line)| (i + 1, line))
        .collect();
    lines
        .par_iter()
        .with_min_len(MIN_LINES_PER_TASK)
        .map(|&(n, line)| (n, verify_one(line, check)))
        .collect()
}

/// Streams `reader` as JSON lines, checking each non-blank line as one
/// event on every core with bounded memory (see the [module docs](self)).
/// `on_verdict(line_number, line, verdict)` is called on this thread in
/// input order, with the line without its `\n`; its first error stops the
/// run and is returned, as is a read error.
///
/// ```
/// use ito::nostr::batch::{verify_reader, Check, Verdict};
/// let input = std::io::Cursor::new(b"{}\n\n{\"id\":1}\n".to_vec());
/// let mut bad_lines = Vec::new();
/// let summary = verify_reader(input, Check::Id, |line, _, verdict| {
///     if !verdict.is_ok() {
///         bad_lines.push(line);
///     }
///     Ok(())
/// })?;
/// assert_eq!(bad_lines, [1, 3]);
/// assert_eq!((summary.lines, summary.events, summary.invalid), (3, 2, 2));
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn verify_reader<R: Read>(
    reader: R,
    check: Check,
    mut on_verdict: impl FnMut(usize, &[u8], Verdict) -> io::Result<()>,
) -> io::Result<Summary> {
    let mut summary = Summary::default();
    let stats = for_each_line(
        reader,
        DEFAULT_CHUNK,
        |line| (!is_blank(line)).then(|| verify_one(line, check)),
        |n, line, verdict| match verdict {
            Some(verdict) => {
                summary.count(&verdict);
                on_verdict(n, line, verdict)
            }
            None => Ok(()),
        },
    )?;
    summary.lines = stats.lines;
    summary.bytes = stats.bytes;
    Ok(summary)
}

/// The chunk size [`verify_reader`] uses: large enough to keep every core
/// busy for a while, small enough for bounded memory.
///
/// ```
/// // A reader's memory is bounded by a few chunks, whatever its length.
/// assert_eq!(ito::nostr::batch::DEFAULT_CHUNK, 4 * 1024 * 1024);
/// ```
pub const DEFAULT_CHUNK: usize = 4 << 20;

/// Below this many lines a rayon task is not split further (per-task
/// overhead would exceed the id-check work).
const MIN_LINES_PER_TASK: usize = 16;

/// What [`for_each_line`] read.
///
/// ```
/// let stats = ito::nostr::batch::for_each_line(&b"a\nb"[..], 1 << 16, |l| l.len(), |_, _, _| Ok(()))?;
/// assert_eq!((stats.lines, stats.bytes), (2, 3));
/// # Ok::<(), std::io::Error>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct LineStats {
    /// Lines read (a last line without `\n` counts).
    pub lines: u64,
    /// Bytes read.
    pub bytes: u64,
}

/// The streaming engine: reads `reader` in chunks of about `chunk` bytes,
/// runs `work(line)` on every line of a chunk in parallel, then calls
/// `sink(line_number, line, result)` for each line in input order on this
/// thread. Lines are given without their `\n` (a `\r` before it stays);
/// line numbers start at 1. Memory stays near `chunk` plus the longest
/// line. The first error of `sink` or of a read stops the run.
///
/// ```
/// use ito::nostr::batch::for_each_line;
/// let mut out = Vec::new();
/// for_each_line(&b"ab\ncde\n"[..], 4, |line| line.len(), |n, _, len| {
///     out.push((n, len));
///     Ok(())
/// })?;
/// assert_eq!(out, [(1, 2), (2, 3)]);
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn for_each_line<R, T, W, S>(
    mut reader: R,
    chunk: usize,
    work: W,
    mut sink: S,
) -> io::Result<LineStats>
where
    R: Read,
    T: Send,
    W: Fn(&[u8]) -> T + Sync,
    S: FnMut(usize, &[u8], T) -> io::Result<()>,
{
    let chunk = chunk.max(1);
    let mut stats = LineStats::default();
    let mut buf: Vec<u8> = Vec::with_capacity(chunk);
    let mut results: Vec<T> = Vec::new();
    // Bytes of `buf` already known to hold no '\n' (a long line's head).
    let mut scanned = 0;
    loop {
        let eof = fill(&mut reader, &mut buf, scanned + chunk)?;
        let cut = if eof {
            buf.len()
        } else {
            match memchr::memrchr(b'\n', &buf[scanned..]) {
                Some(i) => scanned + i + 1,
                None => {
                    // One line longer than the chunk: read on.
                    scanned = buf.len();
                    continue;
                }
            }
        };
        scanned = 0;
        stats.bytes += cut as u64;
        // One small allocation per chunk (the line slices borrow `buf`).
        let round: Vec<&[u8]> = split_lines(&buf[..cut]).collect();
        round
            .par_iter()
            .with_min_len(MIN_LINES_PER_TASK)
            .map(|line| work(line))
            .collect_into_vec(&mut results);
        let first = stats.lines as usize + 1;
        stats.lines += round.len() as u64;
        for (k, (line, result)) in round.iter().zip(results.drain(..)).enumerate() {
            sink(first + k, line, result)?;
        }
        drop(round);
        buf.drain(..cut);
        if eof {
            return Ok(stats);
        }
    }
}

/// Reads until `buf` holds at least `target` bytes or the input ends;
/// returns whether it ended.
fn fill<R: Read>(reader: &mut R, buf: &mut Vec<u8>, target: usize) -> io::Result<bool> {
    while buf.len() < target {
        let want = target - buf.len();
        match reader.by_ref().take(want as u64).read_to_end(buf) {
            Ok(0) => return Ok(true),
            Ok(_) => {}
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(false)
}

/// The lines of `buf`, split at `\n`, without it; no empty last line after
/// a final `\n`.
fn split_lines(buf: &[u8]) -> impl Iterator<Item = &[u8]> {
    let mut start = 0;
    let mut ends = memchr::memchr_iter(b'\n', buf);
    std::iter::from_fn(move || match ends.next() {
        Some(end) => {
            let line = &buf[start..end];
            start = end + 1;
            Some(line)
        }
        None if start < buf.len() => {
            let line = &buf[start..];
            start = buf.len();
            Some(line)
        }
        None => None,
    })
}

/// JSON whitespace only (what [`Event::parse`] would skip).
fn is_blank(line: &[u8]) -> bool {
    line.iter()
        .all(|&b| matches!(b, b' ' | b'\t' | b'\r' | b'\n'))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A reader that hands out at most `step` bytes per call.
    struct Trickle<'a> {
        data: &'a [u8],
        step: usize,
    }

    impl Read for Trickle<'_> {
        fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
            let n = self.step.min(out.len()).min(self.data.len());
            out[..n].copy_from_slice(&self.data[..n]);
            self.data = &self.data[n..];
            Ok(n)
        }
    }

    #[test]
    fn split_lines_is_std_split_exhaustively() {
        // Every text of up to 10 bytes over {a, \n, \r}.
        for len in 0..=10u32 {
            for code in 0..3usize.pow(len) {
                let text: Vec<u8> = (0..len)
                    .map(|d| b"a\n\r"[code / 3usize.pow(d) % 3])
                    .collect();
                let want: Vec<&[u8]> = text
                    .split_inclusive(|&b| b == b'\n')
                    .map(|l| l.strip_suffix(b"\n").unwrap_or(l))
                    .collect();
                assert_eq!(split_lines(&text).collect::<Vec<_>>(), want, "{text:?}");
            }
        }
    }

    #[test]
    fn engine_matches_split_for_every_chunk_and_step() {
        let text = b"a\n\nbcd\nlonger line here\r\nx\n\nlast";
        let expected: Vec<(usize, Vec<u8>)> = split_lines(text)
            .enumerate()
            .map(|(i, l)| (i + 1, l.to_vec()))
            .collect();
        for chunk in 1..text.len() + 3 {
            for step in [1, 2, 3, 7, 100] {
                let mut got = Vec::new();
                let stats = for_each_line(
                    Trickle { data: text, step },
                    chunk,
                    |l| l.to_vec(),
                    |n, line, owned| {
                        assert_eq!(line, owned.as_slice());
                        got.push((n, owned));
                        Ok(())
                    },
                )
                .unwrap();
                assert_eq!(got, expected, "chunk {chunk} step {step}");
                assert_eq!(stats.bytes, text.len() as u64);
                assert_eq!(stats.lines, expected.len() as u64);
            }
        }
    }

    #[test]
    fn engine_stops_at_the_first_sink_error() {
        let mut calls = 0;
        let err = for_each_line(
            &b"1\n2\n3\n"[..],
            2,
            |_| (),
            |n, _, ()| {
                calls += 1;
                if n == 2 {
                    Err(io::Error::other("stop"))
                } else {
                    Ok(())
                }
            },
        )
        .unwrap_err();
        assert_eq!(err.to_string(), "stop");
        assert_eq!(calls, 2);
    }

    #[test]
    fn empty_input_has_no_lines() {
        let stats = for_each_line(&b""[..], 8, |_| (), |_, _, ()| panic!()).unwrap();
        assert_eq!(stats, LineStats::default());
        assert!(verify_jsonl(b"", Check::Id).is_empty());
    }
}
