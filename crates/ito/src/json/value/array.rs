//! [`Array`]: the elements of a JSON array, in an arena or on the heap.
//!
//! It reads like a `Vec<Value>` (it dereferences to a slice: `len`,
//! `iter`, indexing, `for x in &arr`, `==`) and changes like one (`push`,
//! `insert`, `remove`, `pop`, `truncate`, `clear`, `retain`, `extend`).
//! Elements parsed into an [`Arena`](super::Arena) stay there until the
//! length grows or shrinks; then they move into a heap allocation of
//! their own (`seq.rs`: copy on grow).

use std::fmt;
use std::ops::{Deref, DerefMut};

use super::seq::Seq;
use super::Value;

/// The elements of a JSON array (see [`Value::Array`]).
///
/// ```
/// use ito::json::{value::Array, Value};
/// let mut v = Value::from_str("[1, 2]").unwrap();
/// let arr: &mut Array = v.as_array_mut().unwrap();
/// arr.push(3.into());
/// assert_eq!(arr.len(), 3);
/// assert_eq!(arr[2], 3);
/// assert_eq!(arr.iter().filter_map(Value::as_u64).sum::<u64>(), 6);
/// ```
#[derive(Clone, Default)]
pub struct Array<'a>(Seq<'a, Value<'a>>);

impl<'a> Array<'a> {
    /// An empty array (nothing allocated).
    ///
    /// ```
    /// assert!(ito::json::value::Array::new().is_empty());
    /// ```
    pub const fn new() -> Array<'a> {
        Array(Seq::new())
    }

    #[inline(always)]
    #[cfg_attr(not(feature = "serde"), allow(dead_code))] // the parser (serde feature) is its user
    pub(super) fn from_seq(s: Seq<'a, Value<'a>>) -> Array<'a> {
        Array(s)
    }

    /// Whether the elements are in their own heap allocation (not in an
    /// arena, and not empty with nothing allocated).
    ///
    /// ```
    /// let arena = ito::json::Arena::new();
    /// let mut v = ito::json::Value::from_str_in(&arena, "[1]").unwrap();
    /// let arr = v.as_array_mut().unwrap();
    /// assert!(!arr.is_heap());
    /// arr.push(2.into()); // copied to the heap to grow
    /// assert!(arr.is_heap());
    /// ```
    pub fn is_heap(&self) -> bool {
        self.0.is_heap()
    }

    /// Appends `v`.
    ///
    /// ```
    /// let mut a = ito::json::value::Array::new();
    /// a.push(ito::json!("x"));
    /// assert_eq!(a[0], "x");
    /// ```
    pub fn push(&mut self, v: Value<'a>) {
        self.0.with_vec(|vec| vec.push(v));
    }

    /// Removes and returns the last element.
    ///
    /// ```
    /// let mut v = ito::json!([1, 2]);
    /// assert_eq!(v.as_array_mut().unwrap().pop(), Some(2.into()));
    /// ```
    pub fn pop(&mut self) -> Option<Value<'a>> {
        self.0.with_vec(|vec| vec.pop())
    }

    /// Inserts `v` at `index`, shifting the rest right.
    ///
    /// # Panics
    ///
    /// When `index > len`.
    ///
    /// ```
    /// let mut v = ito::json!([1, 3]);
    /// v.as_array_mut().unwrap().insert(1, 2.into());
    /// assert_eq!(v, ito::json!([1, 2, 3]));
    /// ```
    pub fn insert(&mut self, index: usize, v: Value<'a>) {
        self.0.with_vec(|vec| vec.insert(index, v));
    }

    /// Removes and returns the element at `index`, shifting the rest left.
    ///
    /// # Panics
    ///
    /// When `index >= len`.
    ///
    /// ```
    /// let mut v = ito::json!([1, 2, 3]);
    /// assert_eq!(v.as_array_mut().unwrap().remove(0), 1);
    /// assert_eq!(v, ito::json!([2, 3]));
    /// ```
    pub fn remove(&mut self, index: usize) -> Value<'a> {
        self.0.with_vec(|vec| vec.remove(index))
    }

    /// Keeps the first `len` elements.
    ///
    /// ```
    /// let mut v = ito::json!([1, 2, 3]);
    /// v.as_array_mut().unwrap().truncate(1);
    /// assert_eq!(v, ito::json!([1]));
    /// ```
    pub fn truncate(&mut self, len: usize) {
        self.0.with_vec(|vec| vec.truncate(len));
    }

    /// Removes every element.
    ///
    /// ```
    /// let mut v = ito::json!([1, 2]);
    /// v.as_array_mut().unwrap().clear();
    /// assert!(v.as_array().unwrap().is_empty());
    /// ```
    pub fn clear(&mut self) {
        self.0.with_vec(Vec::clear);
    }

    /// Keeps the elements for which `keep` is true, in order.
    ///
    /// ```
    /// let mut v = ito::json!([1, 2, 3, 4]);
    /// v.as_array_mut().unwrap().retain(|x| x.as_u64().unwrap() % 2 == 0);
    /// assert_eq!(v, ito::json!([2, 4]));
    /// ```
    pub fn retain(&mut self, keep: impl FnMut(&Value<'a>) -> bool) {
        self.0.with_vec(|vec| vec.retain(keep));
    }

    /// The elements as a `Vec` (copied out of an arena; a heap array
    /// hands over its allocation).
    ///
    /// ```
    /// let v = ito::json!([1, 2]);
    /// let vec: Vec<_> = v.as_array().unwrap().clone().into_vec();
    /// assert_eq!(vec.len(), 2);
    /// ```
    pub fn into_vec(mut self) -> Vec<Value<'a>> {
        self.0.take_vec()
    }

    /// The elements, for changing the length in ways `Array` does not
    /// offer (arena elements are first copied to the heap).
    ///
    /// ```
    /// let mut v = ito::json!([3, 1, 2]);
    /// v.as_array_mut().unwrap().with_vec(|vec| vec.dedup());
    /// assert_eq!(v.as_array().unwrap().len(), 3);
    /// ```
    pub fn with_vec<R>(&mut self, f: impl FnOnce(&mut Vec<Value<'a>>) -> R) -> R {
        self.0.with_vec(f)
    }
}

impl<'a> Deref for Array<'a> {
    type Target = [Value<'a>];
    #[inline(always)]
    fn deref(&self) -> &[Value<'a>] {
        self.0.as_slice()
    }
}

impl DerefMut for Array<'_> {
    #[inline(always)]
    fn deref_mut(&mut self) -> &mut Self::Target {
        self.0.as_mut_slice()
    }
}

impl<'a> From<Vec<Value<'a>>> for Array<'a> {
    /// Takes over the `Vec`'s allocation.
    fn from(v: Vec<Value<'a>>) -> Self {
        Array(Seq::from_vec(v))
    }
}

impl<'a> From<Array<'a>> for Vec<Value<'a>> {
    fn from(a: Array<'a>) -> Self {
        a.into_vec()
    }
}

impl<'a> FromIterator<Value<'a>> for Array<'a> {
    fn from_iter<I: IntoIterator<Item = Value<'a>>>(iter: I) -> Self {
        Array(Seq::from_vec(iter.into_iter().collect()))
    }
}

impl<'a> Extend<Value<'a>> for Array<'a> {
    fn extend<I: IntoIterator<Item = Value<'a>>>(&mut self, iter: I) {
        self.0.with_vec(|vec| vec.extend(iter));
    }
}

impl<'a> IntoIterator for Array<'a> {
    type Item = Value<'a>;
    type IntoIter = std::vec::IntoIter<Value<'a>>;
    /// The elements, in order (arena elements copied to the heap first).
    fn into_iter(self) -> Self::IntoIter {
        self.into_vec().into_iter()
    }
}

impl<'s, 'a> IntoIterator for &'s Array<'a> {
    type Item = &'s Value<'a>;
    type IntoIter = std::slice::Iter<'s, Value<'a>>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl<'s, 'a> IntoIterator for &'s mut Array<'a> {
    type Item = &'s mut Value<'a>;
    type IntoIter = std::slice::IterMut<'s, Value<'a>>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter_mut()
    }
}

impl PartialEq for Array<'_> {
    fn eq(&self, other: &Self) -> bool {
        self[..] == other[..]
    }
}

impl<'a> PartialEq<[Value<'a>]> for Array<'a> {
    fn eq(&self, other: &[Value<'a>]) -> bool {
        self[..] == *other
    }
}

impl<'a> PartialEq<Vec<Value<'a>>> for Array<'a> {
    fn eq(&self, other: &Vec<Value<'a>>) -> bool {
        self[..] == other[..]
    }
}

impl fmt::Debug for Array<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}
