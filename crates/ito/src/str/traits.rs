//! The std traits users expect of a string type, all consistent with `str`.

use super::{inline, Str, StrBuf};
use std::borrow::{Borrow, Cow};
use std::cmp::Ordering;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::ops::Deref;

impl Deref for Str {
    type Target = str;
    #[inline(always)]
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl AsRef<str> for Str {
    #[inline]
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl AsRef<[u8]> for Str {
    #[inline]
    fn as_ref(&self) -> &[u8] {
        self.as_bytes()
    }
}

impl Borrow<str> for Str {
    #[inline]
    fn borrow(&self) -> &str {
        self.as_str()
    }
}

impl Default for Str {
    #[inline]
    fn default() -> Str {
        Str::new()
    }
}

impl PartialEq for Str {
    #[inline]
    fn eq(&self, other: &Str) -> bool {
        self.as_bytes() == other.as_bytes()
    }
}

impl Eq for Str {}

impl PartialOrd for Str {
    #[inline]
    fn partial_cmp(&self, other: &Str) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Str {
    #[inline]
    fn cmp(&self, other: &Str) -> Ordering {
        self.as_str().cmp(other.as_str())
    }
}

impl Hash for Str {
    /// Hashes exactly like `str` (so `HashMap<Str, _>::get(&str)` works);
    /// the cached [`Str::content_hash`] is a separate, seeded hash.
    #[inline]
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.as_str().hash(state)
    }
}

macro_rules! eq_with {
    ($($t:ty),*) => {$(
        impl PartialEq<$t> for Str {
            #[inline]
            fn eq(&self, other: &$t) -> bool {
                self.as_str() == AsRef::<str>::as_ref(other)
            }
        }
        impl PartialEq<Str> for $t {
            #[inline]
            fn eq(&self, other: &Str) -> bool {
                AsRef::<str>::as_ref(self) == other.as_str()
            }
        }
    )*};
}
eq_with!(str, &str, String, Cow<'_, str>);

impl PartialOrd<str> for Str {
    #[inline]
    fn partial_cmp(&self, other: &str) -> Option<Ordering> {
        Some(self.as_str().cmp(other))
    }
}

impl PartialOrd<Str> for str {
    #[inline]
    fn partial_cmp(&self, other: &Str) -> Option<Ordering> {
        Some(self.cmp(other.as_str()))
    }
}

impl fmt::Display for Str {
    #[inline]
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self.as_str(), f)
    }
}

impl fmt::Debug for Str {
    #[inline]
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl From<&str> for Str {
    /// Copy (inline up to 23 bytes, else one exact-size allocation and a
    /// `memcpy`; the facts are computed by the first query that needs them).
    #[inline(always)]
    fn from(s: &str) -> Str {
        Str::from_str_copy(s)
    }
}

impl From<&mut str> for Str {
    #[inline]
    fn from(s: &mut str) -> Str {
        Str::from_str_copy(s)
    }
}

impl From<&String> for Str {
    #[inline]
    fn from(s: &String) -> Str {
        Str::from_str_copy(s)
    }
}

impl From<String> for Str {
    /// Copies: a `String`'s buffer has no room for the header, so it cannot
    /// be reused without a second allocation (see the module docs).
    #[inline]
    fn from(s: String) -> Str {
        Str::from_str_copy(&s)
    }
}

impl From<Box<str>> for Str {
    /// Copies, like `From<String>`.
    #[inline]
    fn from(s: Box<str>) -> Str {
        Str::from_str_copy(&s)
    }
}

impl From<Cow<'_, str>> for Str {
    #[inline]
    fn from(s: Cow<'_, str>) -> Str {
        Str::from_str_copy(&s)
    }
}

impl From<char> for Str {
    /// Always inline.
    #[inline]
    fn from(c: char) -> Str {
        let mut buf = [0u8; 4];
        let s = c.encode_utf8(&mut buf);
        // SAFETY: at most 4 bytes of UTF-8.
        unsafe { inline::new(s.as_bytes()) }
    }
}

impl From<Str> for String {
    #[inline]
    fn from(s: Str) -> String {
        s.as_str().to_owned()
    }
}

impl std::str::FromStr for Str {
    type Err = std::convert::Infallible;
    #[inline]
    fn from_str(s: &str) -> Result<Str, Self::Err> {
        Ok(Str::from_str_copy(s))
    }
}

impl FromIterator<char> for Str {
    fn from_iter<I: IntoIterator<Item = char>>(iter: I) -> Str {
        let mut b = StrBuf::new();
        b.extend(iter);
        b.freeze()
    }
}

impl<'a> FromIterator<&'a str> for Str {
    fn from_iter<I: IntoIterator<Item = &'a str>>(iter: I) -> Str {
        let mut b = StrBuf::new();
        b.extend(iter);
        b.freeze()
    }
}

impl FromIterator<String> for Str {
    fn from_iter<I: IntoIterator<Item = String>>(iter: I) -> Str {
        let mut b = StrBuf::new();
        iter.into_iter().for_each(|s| b.push_str(&s));
        b.freeze()
    }
}

impl FromIterator<Str> for Str {
    fn from_iter<I: IntoIterator<Item = Str>>(iter: I) -> Str {
        let mut b = StrBuf::new();
        iter.into_iter().for_each(|s| b.push_str(&s));
        b.freeze()
    }
}

#[cfg(feature = "serde")]
mod serde_impls {
    use super::Str;
    use crate::str::known::Known;
    use serde::de::{self, Visitor};
    use serde::{Deserialize, Deserializer, Serialize, Serializer};
    use std::fmt;

    impl Serialize for Str {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            // ito's JSON serializer copies a JSON-safe Str without a scan;
            // every serializer sees a plain string.
            if self.is_json_safe() {
                return crate::json::ser::serialize_json_safe_str(self.as_str(), s);
            }
            s.serialize_str(self.as_str())
        }
    }

    struct StrVisitor;

    impl Visitor<'_> for StrVisitor {
        type Value = Str;
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("a string")
        }
        fn visit_str<E: de::Error>(self, v: &str) -> Result<Str, E> {
            Ok(Str::from(v))
        }
        fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<Str, E> {
            std::str::from_utf8(v)
                .map(Str::from)
                .map_err(|_| E::invalid_value(de::Unexpected::Bytes(v), &self))
        }
    }

    impl<'de> Deserialize<'de> for Str {
        /// From ito's JSON deserializer (a value, an element, a field or
        /// an object key) the string arrives with what the parser's scan
        /// proved of it: one with no escape is known JSON-safe, so ito's
        /// serializer later copies it without a scan. Every other
        /// deserializer is asked for a plain string.
        #[inline]
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Str, D::Error> {
            let make = |s: &str, proven: u8| Str::from_str_with_facts(s, Known::from_bits(proven));
            match crate::json::de::with_facts(d, &StrVisitor, make) {
                Ok(read) => read,
                Err(d) => d.deserialize_str(StrVisitor),
            }
        }
    }
}

/// What `Str` knows right after ito's deserializer made it (nothing is
/// queried first: a query would compute and cache the facts itself).
#[cfg(all(test, feature = "serde"))]
mod scan_facts_tests {
    use super::Str;
    use crate::simd::facts;
    use crate::str::known::Known;
    use std::collections::BTreeMap;

    const CLEAN: &str = "a clean ASCII string, long enough for the heap";
    const WIDE: &str = "é and 糸: clean, but not ASCII, and long enough";

    fn known(s: &Str) -> Known {
        assert!(s.is_heap(), "{s:?}");
        s.known()
    }

    #[test]
    fn clean_strings_arrive_known() {
        let text = format!(r#"["{CLEAN}", "{WIDE}"]"#);
        for v in [
            crate::json::from_str::<Vec<Str>>(&text).unwrap(),
            crate::json::from_slice::<Vec<Str>>(text.as_bytes()).unwrap(),
        ] {
            assert_eq!(known(&v[0]), Known::all(facts::ALL));
            // ASCII is not claimed: the scan saw a byte >= 0x80.
            assert_eq!(known(&v[1]), Known::json_safe(true));
        }
        // Fields, options and map keys and values alike.
        let doc = format!(r#"{{"{CLEAN}": ["{WIDE}", null]}}"#);
        let m: BTreeMap<Str, Vec<Option<Str>>> = crate::json::from_str(&doc).unwrap();
        let (k, v) = m.iter().next().unwrap();
        assert_eq!(known(k), Known::all(facts::ALL));
        assert_eq!(known(v[0].as_ref().unwrap()), Known::json_safe(true));
    }

    #[test]
    fn escaped_strings_arrive_unknown() {
        for lit in [
            r#""a \"quoted\" string, long enough for the heap""#,
            r#""a line\nbreak, long enough for the heap too""#,
            r#""only a harmless \/ escape, long enough for the heap""#,
            r#""a \u00e9 escape, long enough for the heap too""#,
        ] {
            let s: Str = crate::json::from_str(lit).unwrap();
            assert_eq!(known(&s), Known::UNKNOWN, "{lit}");
            let key: BTreeMap<Str, u8> = crate::json::from_str(&format!("{{{lit}: 1}}")).unwrap();
            assert_eq!(known(key.keys().next().unwrap()), Known::UNKNOWN, "{lit}");
        }
    }

    #[test]
    fn other_deserializers_claim_nothing() {
        let s: Str = serde_json::from_str(&format!("\"{CLEAN}\"")).unwrap();
        assert_eq!(known(&s), Known::UNKNOWN);
    }
}
