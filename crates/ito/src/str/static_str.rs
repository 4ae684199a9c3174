//! The static representation: a borrowed `&'static str`, no copy, no count.
//!
//! ```text
//! Str (24 bytes)
//! +----------------+----------------+-------------+-----+
//! | ptr: *const u8 | len: usize     | pad[0..7]=0 | tag |
//! +----------------+----------------+-------------+-----+
//!   0                8                16            23
//! tag = 0b0 S A 11111   (bit 7 clear: no count; L = 31: pointer form)
//! ```
//!
//! Clone is a bitwise copy and drop does nothing: no atomics. The facts are
//! computed by a `const fn` scan in [`Str::from_static`], so in a `const` or
//! `static` item they cost nothing at run time; a run-time call scans once
//! (no copy happens, so there is no copy to fuse with).

use super::{Head, Last, PtrLen, Str, FACTS_SHIFT, PTR_FORM};
use crate::simd::facts;

impl Str {
    /// Wrap a `&'static str` without copying it. `const`, so it can build
    /// `const`/`static` items; cloning and dropping it never touch an atomic.
    ///
    /// ```
    /// use ito::Str;
    /// const GREETING: Str = Str::from_static("hello, world");
    /// assert_eq!(GREETING, "hello, world");
    /// assert!(GREETING.is_static() && GREETING.is_json_safe());
    /// ```
    #[inline]
    pub const fn from_static(s: &'static str) -> Str {
        let f = facts::classify_scalar(s.as_bytes());
        let tag = PTR_FORM | (f << FACTS_SHIFT);
        Str {
            head: Head {
                ptr: PtrLen {
                    ptr: s.as_ptr(),
                    len: s.len(),
                },
            },
            last: Last::with_tag(tag),
        }
    }
}
