//! Reading and changing a [`Value`]: kinds (`is_*`, `as_*`), `get` and
//! `v["key"]`/`v[0]` (missing gives null, as serde_json), RFC 6901
//! pointers, `push`, `insert`, `remove`, and equality with Rust values.

use std::ops;

use super::{Array, Map, Number, Text, Value, NULL};

/// What a [`Value`] can be indexed by: `str` (an object's key) or `usize`
/// (an array's position). Sealed.
///
/// ```
/// let v = ito::json!({"a": [10, 20]});
/// assert_eq!(v.get("a").and_then(|a| a.get(1)), Some(&ito::json!(20)));
/// ```
pub trait ValueIndex: private::Sealed {
    /// The element this index names in `v`, if any.
    #[doc(hidden)]
    fn index_into<'v, 'a>(&self, v: &'v Value<'a>) -> Option<&'v Value<'a>>;
    /// The element this index names in `v`, to change, if any.
    #[doc(hidden)]
    fn index_into_mut<'v, 'a>(&self, v: &'v mut Value<'a>) -> Option<&'v mut Value<'a>>;
}

mod private {
    pub trait Sealed {}
    impl Sealed for str {}
    impl Sealed for String {}
    impl Sealed for usize {}
    impl<T: Sealed + ?Sized> Sealed for &T {}
}

impl ValueIndex for str {
    #[inline]
    fn index_into<'v, 'a>(&self, v: &'v Value<'a>) -> Option<&'v Value<'a>> {
        v.as_object()?.get(self)
    }
    #[inline]
    fn index_into_mut<'v, 'a>(&self, v: &'v mut Value<'a>) -> Option<&'v mut Value<'a>> {
        v.as_object_mut()?.get_mut(self)
    }
}

impl ValueIndex for String {
    fn index_into<'v, 'a>(&self, v: &'v Value<'a>) -> Option<&'v Value<'a>> {
        self.as_str().index_into(v)
    }
    fn index_into_mut<'v, 'a>(&self, v: &'v mut Value<'a>) -> Option<&'v mut Value<'a>> {
        self.as_str().index_into_mut(v)
    }
}

impl ValueIndex for usize {
    #[inline]
    fn index_into<'v, 'a>(&self, v: &'v Value<'a>) -> Option<&'v Value<'a>> {
        v.as_array()?.get(*self)
    }
    #[inline]
    fn index_into_mut<'v, 'a>(&self, v: &'v mut Value<'a>) -> Option<&'v mut Value<'a>> {
        v.as_array_mut()?.get_mut(*self)
    }
}

impl<T: ValueIndex + ?Sized> ValueIndex for &T {
    #[inline]
    fn index_into<'v, 'a>(&self, v: &'v Value<'a>) -> Option<&'v Value<'a>> {
        (**self).index_into(v)
    }
    #[inline]
    fn index_into_mut<'v, 'a>(&self, v: &'v mut Value<'a>) -> Option<&'v mut Value<'a>> {
        (**self).index_into_mut(v)
    }
}

impl<'a> Value<'a> {
    /// The member or element `index` names, if this is an object or array
    /// that has it.
    ///
    /// ```
    /// let v = ito::json!({"a": [1]});
    /// assert_eq!(v.get("a").unwrap().get(0), Some(&ito::json!(1)));
    /// assert_eq!(v.get("b"), None);
    /// assert_eq!(v.get(0), None); // not an array
    /// ```
    #[inline]
    pub fn get<I: ValueIndex>(&self, index: I) -> Option<&Value<'a>> {
        index.index_into(self)
    }

    /// As [`get`](Self::get), to change the value in place.
    ///
    /// ```
    /// let mut v = ito::json!([1, 2]);
    /// *v.get_mut(1).unwrap() = ito::json!("two");
    /// assert_eq!(v, ito::json!([1, "two"]));
    /// ```
    #[inline]
    pub fn get_mut<I: ValueIndex>(&mut self, index: I) -> Option<&mut Value<'a>> {
        index.index_into_mut(self)
    }

    /// The value at an RFC 6901 JSON pointer (`""` is the whole value,
    /// `/a/0` member `a`'s first element; `~1` is `/`, `~0` is `~`).
    ///
    /// ```
    /// let v = ito::json!({"a/b": {"c~": [7]}});
    /// assert_eq!(v.pointer("/a~1b/c~0/0"), Some(&ito::json!(7)));
    /// assert_eq!(v.pointer(""), Some(&v));
    /// assert_eq!(v.pointer("a"), None); // must start with `/`
    /// ```
    pub fn pointer(&self, pointer: &str) -> Option<&Value<'a>> {
        if pointer.is_empty() {
            return Some(self);
        }
        let rest = pointer.strip_prefix('/')?;
        let mut at = self;
        for token in rest.split('/') {
            let token = unescape_token(token);
            at = match at {
                Value::Object(o) => o.get(&token)?,
                Value::Array(a) => a.get(parse_index(&token)?)?,
                _ => return None,
            };
        }
        Some(at)
    }

    /// As [`pointer`](Self::pointer), to change the value in place.
    ///
    /// ```
    /// let mut v = ito::json!({"a": [0]});
    /// *v.pointer_mut("/a/0").unwrap() = ito::json!(1);
    /// assert_eq!(v["a"][0], 1);
    /// ```
    pub fn pointer_mut(&mut self, pointer: &str) -> Option<&mut Value<'a>> {
        if pointer.is_empty() {
            return Some(self);
        }
        let rest = pointer.strip_prefix('/')?;
        let mut at = self;
        for token in rest.split('/') {
            let token = unescape_token(token);
            at = match at {
                Value::Object(o) => o.get_mut(&token)?,
                Value::Array(a) => a.get_mut(parse_index(&token)?)?,
                _ => return None,
            };
        }
        Some(at)
    }

    /// Whether this is `null`.
    ///
    /// ```
    /// assert!(ito::json!(null).is_null());
    /// ```
    #[inline]
    pub fn is_null(&self) -> bool {
        matches!(self, Value::Null)
    }

    /// Whether this is `true` or `false`.
    ///
    /// ```
    /// assert!(ito::json!(false).is_boolean());
    /// ```
    #[inline]
    pub fn is_boolean(&self) -> bool {
        matches!(self, Value::Bool(_))
    }

    /// Whether this is a number.
    ///
    /// ```
    /// assert!(ito::json!(1.5).is_number());
    /// ```
    #[inline]
    pub fn is_number(&self) -> bool {
        matches!(self, Value::Number(_))
    }

    /// Whether this is a number that fits a `u64`.
    ///
    /// ```
    /// assert!(ito::json!(1).is_u64() && !ito::json!(-1).is_u64());
    /// ```
    #[inline]
    pub fn is_u64(&self) -> bool {
        self.as_u64().is_some()
    }

    /// Whether this is an integer that fits an `i64`.
    ///
    /// ```
    /// assert!(ito::json!(-1).is_i64());
    /// ```
    #[inline]
    pub fn is_i64(&self) -> bool {
        self.as_i64().is_some()
    }

    /// Whether this is a number held as a float (or an exact number
    /// within `f64`'s range: [`Number::is_f64`]).
    ///
    /// ```
    /// assert!(ito::json!(1.0).is_f64() && !ito::json!(1).is_f64());
    /// ```
    #[inline]
    pub fn is_f64(&self) -> bool {
        matches!(self, Value::Number(n) if n.is_f64())
    }

    /// Whether this is a string.
    ///
    /// ```
    /// assert!(ito::json!("a").is_string());
    /// ```
    #[inline]
    pub fn is_string(&self) -> bool {
        matches!(self, Value::String(_))
    }

    /// Whether this is an array.
    ///
    /// ```
    /// assert!(ito::json!([]).is_array());
    /// ```
    #[inline]
    pub fn is_array(&self) -> bool {
        matches!(self, Value::Array(_))
    }

    /// Whether this is an object.
    ///
    /// ```
    /// assert!(ito::json!({}).is_object());
    /// ```
    #[inline]
    pub fn is_object(&self) -> bool {
        matches!(self, Value::Object(_))
    }

    /// The boolean, if this is one.
    ///
    /// ```
    /// assert_eq!(ito::json!(true).as_bool(), Some(true));
    /// ```
    #[inline]
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Value::Bool(b) => Some(*b),
            _ => None,
        }
    }

    /// The number, if this is one.
    ///
    /// ```
    /// assert_eq!(ito::json!(2).as_number(), Some(&ito::json::Number::from(2)));
    /// ```
    #[inline]
    pub fn as_number(&self) -> Option<&Number> {
        match self {
            Value::Number(n) => Some(n),
            _ => None,
        }
    }

    /// The number as a `u64`, if it is a non-negative integer.
    ///
    /// ```
    /// assert_eq!(ito::json!(7).as_u64(), Some(7));
    /// ```
    #[inline]
    pub fn as_u64(&self) -> Option<u64> {
        self.as_number()?.as_u64()
    }

    /// The number as an `i64`, if it is an integer in range.
    ///
    /// ```
    /// assert_eq!(ito::json!(-7).as_i64(), Some(-7));
    /// ```
    #[inline]
    pub fn as_i64(&self) -> Option<i64> {
        self.as_number()?.as_i64()
    }

    /// The number as an `f64`, if this is a number.
    ///
    /// ```
    /// assert_eq!(ito::json!(1).as_f64(), Some(1.0));
    /// ```
    #[inline]
    pub fn as_f64(&self) -> Option<f64> {
        self.as_number()?.as_f64()
    }

    /// The string, if this is one.
    ///
    /// ```
    /// assert_eq!(ito::json!("a").as_str(), Some("a"));
    /// ```
    #[inline]
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::String(s) => Some(s.as_str()),
            _ => None,
        }
    }

    /// The string as held ([`Text`]: borrowed or owned), if this is one.
    ///
    /// ```
    /// assert!(ito::json!("a").as_text().unwrap().is_borrowed());
    /// ```
    #[inline]
    pub fn as_text(&self) -> Option<&Text<'a>> {
        match self {
            Value::String(s) => Some(s),
            _ => None,
        }
    }

    /// The elements, if this is an array.
    ///
    /// ```
    /// assert_eq!(ito::json!([1, 2]).as_array().unwrap().len(), 2);
    /// ```
    #[inline]
    pub fn as_array(&self) -> Option<&Array<'a>> {
        match self {
            Value::Array(a) => Some(a),
            _ => None,
        }
    }

    /// The elements, to change, if this is an array.
    ///
    /// ```
    /// let mut v = ito::json!([1]);
    /// v.as_array_mut().unwrap().clear();
    /// assert_eq!(v, ito::json!([]));
    /// ```
    #[inline]
    pub fn as_array_mut(&mut self) -> Option<&mut Array<'a>> {
        match self {
            Value::Array(a) => Some(a),
            _ => None,
        }
    }

    /// The members, if this is an object.
    ///
    /// ```
    /// assert_eq!(ito::json!({"a": 1}).as_object().unwrap().len(), 1);
    /// ```
    #[inline]
    pub fn as_object(&self) -> Option<&Map<'a>> {
        match self {
            Value::Object(o) => Some(o),
            _ => None,
        }
    }

    /// The members, to change, if this is an object.
    ///
    /// ```
    /// let mut v = ito::json!({});
    /// v.as_object_mut().unwrap().insert("a", 1.into());
    /// assert_eq!(v, ito::json!({"a": 1}));
    /// ```
    #[inline]
    pub fn as_object_mut(&mut self) -> Option<&mut Map<'a>> {
        match self {
            Value::Object(o) => Some(o),
            _ => None,
        }
    }

    /// Appends `value` to an array; returns `false` (and drops `value`)
    /// if this is not an array.
    ///
    /// ```
    /// let mut v = ito::json!([1]);
    /// assert!(v.push(2));
    /// assert_eq!(v, ito::json!([1, 2]));
    /// ```
    pub fn push(&mut self, value: impl Into<Value<'a>>) -> bool {
        match self {
            Value::Array(a) => {
                a.push(value.into());
                true
            }
            _ => false,
        }
    }

    /// Sets `key`'s value in an object (see [`Map::insert`]): the old
    /// value, or `None` if it is new or this is not an object (then
    /// nothing changes).
    ///
    /// ```
    /// let mut v = ito::json!({"a": 1});
    /// assert_eq!(v.insert("b", 2), None);
    /// assert_eq!(v.insert("a", 3), Some(ito::json!(1)));
    /// assert_eq!(v.to_string(), r#"{"a":3,"b":2}"#);
    /// ```
    pub fn insert(
        &mut self,
        key: impl Into<Text<'a>>,
        value: impl Into<Value<'a>>,
    ) -> Option<Value<'a>> {
        self.as_object_mut()?.insert(key, value.into())
    }

    /// Removes `key`'s member from an object (see [`Map::remove`]).
    ///
    /// ```
    /// let mut v = ito::json!({"a": 1});
    /// assert_eq!(v.remove("a"), Some(ito::json!(1)));
    /// assert_eq!(v, ito::json!({}));
    /// ```
    pub fn remove(&mut self, key: &str) -> Option<Value<'a>> {
        self.as_object_mut()?.remove(key)
    }

    /// Takes the value out, leaving null.
    ///
    /// ```
    /// let mut v = ito::json!([1]);
    /// assert_eq!(v.take(), ito::json!([1]));
    /// assert!(v.is_null());
    /// ```
    pub fn take(&mut self) -> Value<'a> {
        std::mem::take(self)
    }
}

/// A pointer token with `~1` and `~0` decoded (in that order, per RFC 6901).
fn unescape_token(token: &str) -> std::borrow::Cow<'_, str> {
    if token.contains('~') {
        token.replace("~1", "/").replace("~0", "~").into()
    } else {
        token.into()
    }
}

/// An array index in a pointer, as serde_json reads it: digits only, no
/// leading zero (except `0` itself).
fn parse_index(s: &str) -> Option<usize> {
    if s.starts_with('+') || (s.starts_with('0') && s.len() != 1) {
        return None;
    }
    s.parse().ok()
}

impl<'a, I: ValueIndex> ops::Index<I> for Value<'a> {
    type Output = Value<'a>;
    /// The member or element, or null when there is none (as serde_json).
    #[inline]
    fn index(&self, index: I) -> &Value<'a> {
        index.index_into(self).unwrap_or(NULL)
    }
}

impl<'a> ops::IndexMut<&str> for Value<'a> {
    /// The member `key`, inserted as null when missing; a null value
    /// becomes an empty object first (as serde_json). Panics on other
    /// kinds.
    fn index_mut(&mut self, key: &str) -> &mut Value<'a> {
        if self.is_null() {
            *self = Value::Object(Map::new());
        }
        match self {
            Value::Object(o) => {
                if !o.contains_key(key) {
                    o.insert(Text::from(key.to_owned()), Value::Null);
                }
                o.get_mut(key).expect("inserted above")
            }
            other => panic!("cannot access key {key:?} in JSON {}", kind(other)),
        }
    }
}

impl<'a> ops::IndexMut<usize> for Value<'a> {
    /// The element at `i`. Panics when this is not an array or `i` is out
    /// of bounds (as serde_json).
    fn index_mut(&mut self, i: usize) -> &mut Value<'a> {
        match self {
            Value::Array(a) => {
                let len = a.len();
                a.get_mut(i).unwrap_or_else(|| {
                    panic!("cannot access index {i} of JSON array of length {len}")
                })
            }
            other => panic!("cannot access index {i} of JSON {}", kind(other)),
        }
    }
}

fn kind(v: &Value<'_>) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

// Equality with Rust values, as serde_json defines it.
macro_rules! eq_via {
    ($as:ident $target:ty: $($t:ty)*) => {$(
        impl PartialEq<$t> for Value<'_> {
            #[inline]
            fn eq(&self, other: &$t) -> bool {
                self.$as().is_some_and(|x| x == *other as $target)
            }
        }
        impl PartialEq<Value<'_>> for $t {
            #[inline]
            fn eq(&self, other: &Value<'_>) -> bool {
                other == self
            }
        }
    )*};
}
eq_via!(as_i64 i64: i8 i16 i32 i64 isize);
eq_via!(as_u64 u64: u8 u16 u32 u64 usize);
eq_via!(as_f64 f64: f32 f64);
eq_via!(as_bool bool: bool);

impl PartialEq<str> for Value<'_> {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == Some(other)
    }
}

impl PartialEq<&str> for Value<'_> {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == Some(*other)
    }
}

impl PartialEq<String> for Value<'_> {
    fn eq(&self, other: &String) -> bool {
        self.as_str() == Some(other.as_str())
    }
}

impl PartialEq<Value<'_>> for str {
    fn eq(&self, other: &Value<'_>) -> bool {
        other == self
    }
}

impl PartialEq<Value<'_>> for &str {
    fn eq(&self, other: &Value<'_>) -> bool {
        other == self
    }
}

impl PartialEq<Value<'_>> for String {
    fn eq(&self, other: &Value<'_>) -> bool {
        other == self
    }
}
