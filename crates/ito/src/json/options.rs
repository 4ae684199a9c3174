//! [`Options`]: the opt-in escaping and decoding policies.

/// Opt-in policies for [`quote_with`](super::quote_with),
/// [`quote_bytes`](super::quote_bytes) and
/// [`unescape_with`](super::unescape_with).
///
/// `Options::default()` is the RFC 8259 minimal policy of
/// [`quote`](super::quote) and strict decoding. Set fields directly or chain
/// the builder methods of the same names:
///
/// ```
/// use ito::json::{quote_with, Options};
/// let opts = Options::new().html_safe(true).ascii_only(true);
/// let mut out = Vec::new();
/// quote_with(&mut out, "<é>", &opts);
/// assert_eq!(out, br#""\u003c\u00e9\u003e""#);
///
/// let mut o = Options::default();
/// o.uppercase_hex = true;
/// assert!(o.uppercase_hex);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct Options {
    /// Escape every non-ASCII character as `\uXXXX` (UTF-16 surrogate pairs
    /// above U+FFFF), so the output is pure ASCII.
    pub ascii_only: bool,
    /// Escape `/` as `\/` (lets JSON sit inside `</script>`-sensitive text).
    pub escape_slash: bool,
    /// Escape `<`, `>`, `&` and `'` as `\u003c`, `\u003e`, `\u0026`,
    /// `\u0027` (safe to embed in HTML).
    pub html_safe: bool,
    /// Escape U+2028 and U+2029, which are line terminators in older
    /// JavaScript string literals.
    pub js_safe: bool,
    /// Escape DEL (U+007F) and the C1 controls U+0080..=U+009F.
    pub escape_del_and_c1: bool,
    /// Uppercase hex digits in `\uXXXX` escapes (`\u001F` instead of
    /// `\u001f`).
    pub uppercase_hex: bool,
    /// Decoding (`quote_bytes`, `unescape_with`): replace invalid UTF-8 (and,
    /// in `unescape_with`, lone surrogate escapes) with U+FFFD instead of
    /// failing. Invalid UTF-8 is replaced per maximal invalid subpart, as
    /// `String::from_utf8_lossy` does.
    pub replace_invalid: bool,
    /// `unescape_with` only: keep lone surrogate escapes as their WTF-8
    /// three-byte form (for data that came from JavaScript) instead of
    /// failing. Takes precedence over `replace_invalid` for surrogates. The
    /// output is then not necessarily UTF-8.
    pub wtf8: bool,
}

macro_rules! setters {
    ($($name:ident),*) => {$(
        #[doc = concat!("Sets [`Options::", stringify!($name), "`].")]
        ///
        /// ```
        /// let o = ito::json::Options::new();
        #[doc = concat!("assert!(o.", stringify!($name), "(true).", stringify!($name), ");")]
        /// ```
        #[must_use]
        pub const fn $name(mut self, on: bool) -> Self {
            self.$name = on;
            self
        }
    )*};
}

impl Options {
    /// The default options (same as `Options::default()`, usable in
    /// `const`).
    ///
    /// ```
    /// assert_eq!(ito::json::Options::new(), ito::json::Options::default());
    /// ```
    pub const fn new() -> Self {
        Options {
            ascii_only: false,
            escape_slash: false,
            html_safe: false,
            js_safe: false,
            escape_del_and_c1: false,
            uppercase_hex: false,
            replace_invalid: false,
            wtf8: false,
        }
    }

    setters!(
        ascii_only,
        escape_slash,
        html_safe,
        js_safe,
        escape_del_and_c1,
        uppercase_hex,
        replace_invalid,
        wtf8
    );

    /// Whether the escaping output equals the default policy's (the
    /// decoding-only fields do not matter), so the SIMD kernels apply.
    #[inline]
    pub(crate) fn default_escaping(&self) -> bool {
        !(self.ascii_only
            || self.escape_slash
            || self.html_safe
            || self.js_safe
            || self.escape_del_and_c1
            || self.uppercase_hex)
    }
}
