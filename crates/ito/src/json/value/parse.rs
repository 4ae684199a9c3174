//! Parsing JSON text into a [`Value`], on the deserializer's own scanners
//! (whitespace, strings, numbers) and with its errors, but without
//! serde's visitor calls.
//!
//! ```text
//! value:     the byte after whitespace picks the kind (as deserialize_any)
//! string:    no escape: borrowed (Value::from_slice) or copied into a Str
//!            (serde's Deserialize, which cannot borrow); escaped: decoded
//!            into the arena and borrowed from it (Value::from_slice_in),
//!            else a Str
//! container: children pushed on one scratch stack (values, or key and
//!            value pairs); at the closing bracket they move into storage
//!            of exactly their number: a bump in the document's Arena
//!            (Value::from_slice_in), else a heap allocation; objects then
//!            resolve duplicate keys
//! depth:     the deserializer's counter (128 levels, then an error)
//! ```
//!
//! Every grammar decision is the deserializer's, in the same order
//! (`de/access.rs`: `has_next_element`, `has_next_key`; `end_seq`,
//! `end_map`), so errors have serde_json's words and positions.

use std::io;
use std::ptr::NonNull;

use crate::json::de::{Code, Deserializer, Error, ParserNumber, Reference};
use crate::Str;

use super::number::N;
use super::object::LINEAR_MAX;
use super::seq::{Seq, TOO_LONG};
use super::{Arena, Array, Map, Number, Text, Value};

/// The fewest numbers the arena's free room must hold for an array of
/// numbers to be written there (else a new block is opened): a pair fits
/// in the tail of nearly any block, and a longer array that outgrows its
/// room only moves to the stack.
const ROOM_MIN: usize = 2;

/// How a string without escapes becomes a [`Text`] with lifetime `'o`.
trait Strings<'de, 'o> {
    fn clean(s: &'de str) -> Text<'o>;
}

/// Borrow it from the input.
struct Borrow;

impl<'de> Strings<'de, 'de> for Borrow {
    #[inline(always)]
    fn clean(s: &'de str) -> Text<'de> {
        Text::safe(s)
    }
}

/// Copy it (inline up to 23 bytes).
struct Own;

impl<'o> Strings<'_, 'o> for Own {
    #[inline(always)]
    fn clean(s: &str) -> Text<'o> {
        Text::owned(Str::from_str_copy(s))
    }
}

/// The scratch stacks of one parse: the values of the open containers
/// (array elements, object member values) and the keys of the open
/// objects. Values are written straight onto the stack, never returned
/// and copied (a 32-byte return read back in halves stalled the pipeline).
struct Parser<'o> {
    values: Vec<Value<'o>>,
    keys: Vec<Text<'o>>,
    /// The duplicate-key check's scratch and the shapes of recent objects.
    dup_check: super::object::DupCheck,
    /// Keep the text of numbers that are not plain integers.
    exact: bool,
    /// Where closed containers' children go (else the heap).
    arena: Option<&'o Arena>,
    /// How many values owning memory were built so far (strings and
    /// number texts not inline, containers that own or may own some): a
    /// container whose children left it unchanged is pure (`seq.rs`).
    owners: usize,
}

impl<'o> Parser<'o> {
    fn new() -> Self {
        Parser {
            values: Vec::new(),
            keys: Vec::new(),
            dup_check: super::object::DupCheck::new(),
            exact: false,
            arena: None,
            owners: 0,
        }
    }

    fn with_arena(arena: &'o Arena, exact: bool) -> Self {
        Parser {
            exact,
            arena: Some(arena),
            ..Parser::new()
        }
    }

    fn exact() -> Self {
        Parser {
            exact: true,
            ..Parser::new()
        }
    }

    /// The whole value, off the stack.
    fn parse<'de, S: Strings<'de, 'o>>(
        &mut self,
        de: &mut Deserializer<'de>,
    ) -> Result<Value<'o>, Error> {
        self.push::<S>(de)?;
        Ok(self.values.pop().expect("pushed"))
    }

    /// Parses the next value onto the stack. Inlined into each container
    /// loop, so that a scalar costs no call (only containers do: `array`
    /// and `object` stay out of line).
    #[inline(always)]
    fn push<'de, S: Strings<'de, 'o>>(&mut self, de: &mut Deserializer<'de>) -> Result<(), Error> {
        let peek = match de.parse_whitespace() {
            Some(b) => b,
            None => return Err(de.peek_error(Code::EofWhileParsingValue)),
        };
        // Room first, so that a scalar is built in place below.
        self.values.reserve(1);
        let v = match peek {
            b'"' => {
                de.eat_char();
                let s = string::<S>(de, self.arena)?;
                self.owners += s.owns_memory() as usize;
                Value::String(s)
            }
            b'0'..=b'9' | b'-' if self.exact => {
                let n = exact_number(de)?;
                self.owners += n.owns_memory() as usize;
                Value::Number(n)
            }
            b'0'..=b'9' => number(de.parse_integer(true)?),
            b'-' => {
                de.eat_char();
                number(de.parse_integer(false)?)
            }
            b'{' => return self.object::<S>(de),
            b'[' => return self.array::<S>(de),
            b'n' => {
                de.eat_char();
                de.parse_ident(b"ull")?;
                Value::Null
            }
            b't' => {
                de.eat_char();
                de.parse_ident(b"rue")?;
                Value::Bool(true)
            }
            b'f' => {
                de.eat_char();
                de.parse_ident(b"alse")?;
                Value::Bool(false)
            }
            _ => return Err(de.peek_error(Code::ExpectedSomeValue)),
        };
        let len = self.values.len();
        // SAFETY: room for one more was reserved above, and the scalar arms
        // that reach here push nothing in between.
        unsafe {
            self.values.as_mut_ptr().add(len).write(v);
            self.values.set_len(len + 1);
        }
        Ok(())
    }

    /// Pushes a closed container into the slot its opening reserved.
    ///
    /// Why not `Vec::push`: with a growth call between building the value
    /// and storing it, the 32-byte value was built on the machine stack in
    /// 8-byte stores and read back in 16-byte loads, a store-forwarding
    /// stall that took 12 % of `push`'s samples on citm and 28 % on canada.
    /// With no call in between, it is stored straight into its slot.
    ///
    /// # Safety
    ///
    /// `self.values.len() < self.values.capacity()`.
    #[inline(always)]
    unsafe fn put_reserved(&mut self, v: Value<'o>) {
        let len = self.values.len();
        debug_assert!(len < self.values.capacity());
        // SAFETY: `len < capacity` (the caller's promise), so the slot at
        // `len` is allocated and unused; setting the length makes it owned.
        unsafe {
            self.values.as_mut_ptr().add(len).write(v);
            self.values.set_len(len + 1);
        }
    }

    /// The cursor is at `[`.
    #[inline(never)]
    fn array<'de, S: Strings<'de, 'o>>(&mut self, de: &mut Deserializer<'de>) -> Result<(), Error> {
        enter(de)?;
        de.eat_char();
        let mark = self.values.len();
        let owners = self.owners;
        // The closed array's slot (a no-op after `push`, which reserved it).
        self.values.reserve(1);
        let mut first = true;
        let open = de.index;
        if !self.exact && matches!(de.parse_whitespace_indent(), Some(b'0'..=b'9' | b'-')) {
            // In the arena's room only when no whitespace follows `[`:
            // indented arrays (twitter's `[\n 3,\n 11\n]`) stop after one
            // number, whose move to the stack cost them 1-2 %.
            match self.arena {
                Some(arena) if de.index == open => {
                    if self.numbers_in(de, arena)? {
                        return Ok(());
                    }
                }
                _ => self.numbers(de)?,
            }
            first = false;
        }
        loop {
            let peek = match de.parse_whitespace_indent() {
                Some(b) => b,
                None => return Err(de.peek_error(Code::EofWhileParsingList)),
            };
            if peek == b']' {
                de.eat_char();
                break;
            }
            if !first {
                if peek != b',' {
                    return Err(de.peek_error(Code::ExpectedListCommaOrEnd));
                }
                de.eat_char();
                match de.parse_whitespace_indent() {
                    Some(b']') => return Err(de.peek_error(Code::TrailingComma)),
                    Some(_) => {}
                    None => return Err(de.peek_error(Code::EofWhileParsingValue)),
                }
            }
            first = false;
            self.push::<S>(de)?;
        }
        de.remaining_depth += 1;
        let pure = self.owners == owners;
        let items = take_tail(&mut self.values, mark, self.arena, pure)
            .ok_or_else(|| de.peek_error(Code::Message(TOO_LONG.into())))?;
        // SAFETY: `capacity > mark` since the reserve at the opening
        // bracket (capacities never shrink), and `take_tail` left the
        // length at `mark`.
        unsafe { self.put_reserved(Value::Array(Array::from_seq(items))) };
        Ok(())
    }

    /// Array elements that are numbers written without whitespace
    /// (canada.json's coordinates: `[-65.61,43.42]`), the cursor at the
    /// first one's first byte: each is read straight onto the stack, and
    /// one look at the two bytes after it decides whether another follows,
    /// instead of the general loop's whitespace, bracket and comma checks
    /// before each. Stops before the first byte it does not take (a `]`,
    /// whitespace, or a comma not followed by a number), so the general
    /// loop goes on from there as if it had read these elements itself.
    #[inline(always)]
    fn numbers(&mut self, de: &mut Deserializer<'_>) -> Result<(), Error> {
        loop {
            self.values.reserve(1);
            let v = signed_number(de)?;
            let len = self.values.len();
            // SAFETY: room for one more was reserved above, and nothing
            // was pushed since.
            unsafe {
                self.values.as_mut_ptr().add(len).write(v);
                self.values.set_len(len + 1);
            }
            let i = de.index;
            match de.input.get(i..i + 2) {
                Some([b',', b'0'..=b'9' | b'-']) => de.index = i + 1,
                _ => return Ok(()),
            }
        }
    }

    /// [`numbers`](Self::numbers) written straight into the arena's free
    /// room instead of onto the stack: an array of nothing but numbers
    /// (canada's coordinate pairs) then closes where it stands, with no
    /// copy (the copy of each pair from the stack was 10 % of a canada
    /// parse, most of it the 16-byte loads waiting on the numbers' 8-byte
    /// stores just before). Anything else after a number (whitespace, a
    /// comma not followed by a number, the end of the room) moves the
    /// numbers read so far onto the stack and hands the cursor to the
    /// general loop, as `numbers` does. `true` when the array was closed
    /// and pushed (its `[` entered, its slot reserved, by `array`).
    #[inline(always)]
    fn numbers_in(&mut self, de: &mut Deserializer<'_>, arena: &'o Arena) -> Result<bool, Error> {
        let (at, room) = arena.room::<Value<'o>>(ROOM_MIN);
        let at = at.as_ptr();
        let mut n = 0;
        loop {
            let v = signed_number(de)?;
            // SAFETY: `n < room` (checked below before every further
            // number; `room >= ROOM_MIN >= 1` for the first), so the slot
            // is in the arena's free room, which nothing else takes until
            // `take` below or the values leave for the stack.
            unsafe { at.add(n).write(v) };
            n += 1;
            let i = de.index;
            match de.input.get(i) {
                Some(b',')
                    if n < room && matches!(de.input.get(i + 1), Some(b'0'..=b'9' | b'-')) =>
                {
                    de.index = i + 1
                }
                Some(b']') => break,
                _ => {
                    // SAFETY: the `n` values written above are plain
                    // numbers (nothing to drop, so the room they leave
                    // needs no cleanup); they move to the stack's top,
                    // which has room after the reserve.
                    unsafe {
                        self.values.reserve(n);
                        let len = self.values.len();
                        std::ptr::copy_nonoverlapping(at, self.values.as_mut_ptr().add(len), n);
                        self.values.set_len(len + n);
                    }
                    return Ok(false);
                }
            }
        }
        de.eat_char(); // `]`
        de.remaining_depth += 1;
        if n > u32::MAX as usize {
            return Err(de.peek_error(Code::Message(TOO_LONG.into())));
        }
        // SAFETY: `n <= room`, and nothing was taken from the arena since
        // `room` (numbers allocate nothing).
        unsafe { arena.take::<Value<'o>>(n) };
        // SAFETY: the `n` values are initialised and now taken from the
        // arena for this `Seq` alone; numbers own nothing (pure).
        let items = unsafe { Seq::from_arena(NonNull::new_unchecked(at), n as u32, true) };
        // SAFETY: `array` reserved the slot at the opening bracket, and
        // nothing was pushed since.
        unsafe { self.put_reserved(Value::Array(Array::from_seq(items))) };
        Ok(true)
    }

    /// The cursor is at `{`.
    #[inline(never)]
    fn object<'de, S: Strings<'de, 'o>>(
        &mut self,
        de: &mut Deserializer<'de>,
    ) -> Result<(), Error> {
        enter(de)?;
        de.eat_char();
        let (kmark, vmark) = (self.keys.len(), self.values.len());
        let owners = self.owners;
        // The closed object's slot (a no-op after `push`, which reserved it).
        self.values.reserve(1);
        match de.parse_whitespace_indent() {
            Some(b'"') => loop {
                de.eat_char();
                let key = match de.parse_short_key() {
                    Some(k) => S::clean(k),
                    None => string::<S>(de, self.arena)?,
                };
                self.owners += key.owns_memory() as usize;
                self.keys.push(key);
                de.parse_object_colon()?;
                self.push::<S>(de)?;
                match de.parse_whitespace_indent() {
                    Some(b'}') => break,
                    Some(b',') => {
                        de.eat_char();
                        match de.parse_whitespace_indent() {
                            Some(b'"') => {}
                            Some(b'}') => return Err(de.peek_error(Code::TrailingComma)),
                            Some(_) => return Err(de.peek_error(Code::KeyMustBeAString)),
                            None => return Err(de.peek_error(Code::EofWhileParsingValue)),
                        }
                    }
                    Some(_) => return Err(de.peek_error(Code::ExpectedObjectCommaOrEnd)),
                    None => return Err(de.peek_error(Code::EofWhileParsingObject)),
                }
            },
            Some(b'}') => {}
            Some(_) => return Err(de.peek_error(Code::KeyMustBeAString)),
            None => return Err(de.peek_error(Code::EofWhileParsingObject)),
        }
        de.eat_char(); // `}`
        de.remaining_depth += 1;
        // A large object builds its lookup index on a `&self` lookup,
        // which no `&mut` access announces: on the heap it owns it (not
        // pure); in an arena the arena does (`object.rs`).
        if self.arena.is_none() && self.keys.len() - kmark > LINEAR_MAX {
            self.owners += 1;
        }
        let pure = self.owners == owners;
        let members = take_members(
            &mut self.keys,
            kmark,
            &mut self.values,
            vmark,
            self.arena,
            pure,
        )
        .ok_or_else(|| de.peek_error(Code::Message(TOO_LONG.into())))?;
        let obj = Map::from_parsed_in(members, &mut self.dup_check, self.arena);
        // Duplicate keys resolved into a heap copy: the object owns it, so
        // the containers around it are not pure (found by the fuzzer:
        // they were dropped without a walk and leaked it).
        self.owners += obj.owns_storage() as usize;
        // SAFETY: `capacity > vmark` since the reserve at the opening
        // brace (capacities never shrink), and `take_members` left the
        // length at `vmark`.
        unsafe { self.put_reserved(Value::Object(obj)) };
        Ok(())
    }
}

/// Moves `stack[mark..]` into storage of exactly their number (in
/// `arena`, else one heap allocation) with one copy (measured against
/// `drain(mark..).collect()`, which moved element by element:
/// bench/RESULTS.md, 2026-11-29 02:12). `None` when they are more than a
/// `Seq` holds (the stack is left as it was).
#[inline(always)]
fn take_tail<'o, T>(
    stack: &mut Vec<T>,
    mark: usize,
    arena: Option<&'o Arena>,
    pure: bool,
) -> Option<Seq<'o, T>> {
    // `mark` is never above the length (children are only pushed above
    // their container's mark); were it, `n` would wrap and fail the check.
    debug_assert!(mark <= stack.len());
    let n = stack.len().wrapping_sub(mark);
    if n > u32::MAX as usize {
        return None;
    }
    // SAFETY: `mark <= stack.len()` (see above), so `stack[mark..]` is `n`
    // initialised elements, `n <= u32::MAX`; they move into the `Seq` and
    // the stack's length is cut to `mark`, so each has one owner (nothing
    // in between panics but an allocation failure, which aborts).
    unsafe {
        let out = Seq::move_from(stack.as_ptr().add(mark), n, arena, pure);
        stack.set_len(mark);
        Some(out)
    }
}

/// The members of an object: `keys[kmark..]` paired with
/// `values[vmark..]` (equally many), moved into storage of exactly their
/// number (in `arena`, else on the heap). Each pair is written field by
/// field: building the tuple first was 5 % slower on twitter (and the zip
/// of two drains 20 % slower on citm). `None` when they are more than a
/// `Seq` holds.
#[inline(always)]
fn take_members<'o>(
    keys: &mut Vec<Text<'o>>,
    kmark: usize,
    values: &mut Vec<Value<'o>>,
    vmark: usize,
    arena: Option<&'o Arena>,
    pure: bool,
) -> Option<Seq<'o, (Text<'o>, Value<'o>)>> {
    debug_assert!(kmark <= keys.len() && vmark <= values.len());
    let n = keys.len().wrapping_sub(kmark);
    assert_eq!(values.len().wrapping_sub(vmark), n, "one value per key");
    if n > u32::MAX as usize {
        return None;
    }
    if n == 0 {
        return Some(Seq::new());
    }
    let o: *mut (Text<'o>, Value<'o>) = match arena {
        Some(arena) => arena.alloc(n).as_ptr(),
        None => std::mem::ManuallyDrop::new(Vec::with_capacity(n)).as_mut_ptr(),
    };
    // SAFETY: `keys[kmark..]` and `values[vmark..]` are `n` initialised
    // elements each (checked above) and `o` has room for `n` pairs (a
    // fresh allocation: `Vec::with_capacity(n)` allocates exactly `n`);
    // each key and value is read once and written once. Both stacks are
    // cut to their marks before the `Seq` owns the pairs, so every element
    // has one owner; nothing in between panics.
    unsafe {
        let (k, v) = (keys.as_ptr().add(kmark), values.as_ptr().add(vmark));
        for i in 0..n {
            let pair = o.add(i);
            std::ptr::addr_of_mut!((*pair).0).write(k.add(i).read());
            std::ptr::addr_of_mut!((*pair).1).write(v.add(i).read());
        }
        keys.set_len(kmark);
        values.set_len(vmark);
        let o = std::ptr::NonNull::new_unchecked(o);
        Some(match arena {
            Some(_) => Seq::from_arena(o, n as u32, pure),
            None => Seq::from_raw_heap(o, n as u32),
        })
    }
}

/// One level deeper (the deserializer's `check_recursion!`).
#[inline(always)]
fn enter(de: &mut Deserializer<'_>) -> Result<(), Error> {
    de.remaining_depth -= 1;
    if de.remaining_depth == 0 {
        return Err(de.peek_error(Code::RecursionLimitExceeded));
    }
    Ok(())
}

/// A string whose opening quote was consumed. Decoded (it had escapes),
/// it is copied into the arena when there is one and borrowed from it:
/// no allocation of its own, nothing to drop.
#[inline(always)]
fn string<'de, 'o, S: Strings<'de, 'o>>(
    de: &mut Deserializer<'de>,
    arena: Option<&'o Arena>,
) -> Result<Text<'o>, Error> {
    Ok(match de.parse_str_facts()? {
        (Reference::Borrowed(s), _) => S::clean(s),
        (Reference::Copied(s), _) => match arena {
            Some(arena) => Text::unchecked(arena.alloc_str(s)),
            None => Text::owned(Str::from_str_copy(s)),
        },
    })
}

#[inline(always)]
fn number<'o>(n: ParserNumber) -> Value<'o> {
    Value::Number(Number::plain(match n {
        ParserNumber::U64(x) => N::PosInt(x),
        ParserNumber::I64(x) => N::NegInt(x),
        ParserNumber::F64(x) => N::Float(x),
    }))
}

/// A number at the cursor, its sign not consumed (the number arrays'
/// loops: the cursor is at a digit or `-`).
#[inline(always)]
fn signed_number<'o>(de: &mut Deserializer<'_>) -> Result<Value<'o>, Error> {
    // Two calls with constant signs, not one with a variable sign: the
    // latter measured 1.5-3 % slower on canada.
    if de.peek_or_null() == b'-' {
        de.eat_char();
        Ok(number(de.parse_integer(false)?))
    } else {
        Ok(number(de.parse_integer(true)?))
    }
}

/// A number at the cursor (its sign not consumed), its text kept unless
/// it is an integer that fits: the grammar's errors at the deserializer's
/// positions, and no range limit.
fn exact_number(de: &mut Deserializer<'_>) -> Result<Number, Error> {
    let start = de.index;
    if de.peek_or_null() == b'-' {
        de.eat_char();
    }
    de.scan_number()?;
    // SAFETY: scan_number consumed only ASCII digits, signs, `.`, `e`, `E`.
    let text = unsafe { std::str::from_utf8_unchecked(&de.input[start..de.index]) };
    Ok(Number::exact(text))
}

impl<'de> Deserializer<'de> {
    /// As [`parse_value`](Self::parse_value), keeping the text of every
    /// number that is not an integer fitting `u64`/`i64` (see
    /// [`Number`]'s exact precision).
    ///
    /// ```
    /// let mut de = ito::json::Deserializer::from_str("[3.14159265358979323846, 1e999]");
    /// assert_eq!(de.parse_value_exact().unwrap().to_string(), "[3.14159265358979323846,1e999]");
    /// ```
    pub fn parse_value_exact(&mut self) -> Result<Value<'de>, Error> {
        Parser::exact().parse::<Borrow>(self)
    }

    /// Reads the next value as a [`Value`] that borrows its clean strings
    /// from the input (what follows it is left for [`Deserializer::end`]
    /// or the next call).
    ///
    /// ```
    /// let mut de = ito::json::Deserializer::from_str(r#"{"a": 1} [2]"#);
    /// assert_eq!(de.parse_value().unwrap()["a"], 1);
    /// assert_eq!(de.parse_value().unwrap()[0], 2);
    /// de.end().unwrap();
    /// ```
    pub fn parse_value(&mut self) -> Result<Value<'de>, Error> {
        Parser::new().parse::<Borrow>(self)
    }

    /// As [`parse_value`](Self::parse_value), with every string owned.
    pub(super) fn parse_value_owned<'o>(&mut self) -> Result<Value<'o>, Error> {
        Parser::new().parse::<Own>(self)
    }
}

impl<'a> Value<'a> {
    /// Parses JSON bytes: exactly one value, optionally surrounded by
    /// whitespace, with strings that need no unescaping borrowed from
    /// `input`. Errors are [`ito::json::from_slice`](crate::json::from_slice)'s
    /// (serde_json's words, line and column, and the byte offset).
    ///
    /// ```
    /// use ito::json::Value;
    /// let v = Value::from_slice(br#"{"a": [1, "x"]}"#).unwrap();
    /// assert_eq!(v["a"][1], "x");
    /// let err = Value::from_slice(b"[1,]").unwrap_err();
    /// assert_eq!(err.to_string(), "trailing comma at line 1 column 4");
    /// assert_eq!(err.offset(), 3);
    /// ```
    pub fn from_slice(input: &'a [u8]) -> Result<Value<'a>, Error> {
        let mut de = Deserializer::from_slice(input);
        let v = de.parse_value()?;
        de.end()?;
        Ok(v)
    }

    /// As [`Value::from_slice`], with every array's elements and every
    /// object's members in `arena` instead of a heap allocation each: one
    /// bump per container while parsing, no `free` per container when the
    /// value is dropped (the arena frees its blocks when it is dropped).
    /// The value borrows the arena, so it cannot outlive it.
    ///
    /// ```
    /// use ito::json::{Arena, Value};
    /// let arena = Arena::new();
    /// let mut v = Value::from_slice_in(&arena, br#"{"a": [1, "x"]}"#).unwrap();
    /// assert_eq!(v["a"][1], "x");
    /// v["a"].as_array_mut().unwrap().push(2.into()); // moves to the heap to grow
    /// assert_eq!(v.to_string(), r#"{"a":[1,"x",2]}"#);
    /// ```
    pub fn from_slice_in(arena: &'a Arena, input: &'a [u8]) -> Result<Value<'a>, Error> {
        let mut de = Deserializer::from_slice(input);
        let v = Parser::with_arena(arena, false).parse::<Borrow>(&mut de)?;
        de.end()?;
        Ok(v)
    }

    /// As [`Value::from_slice_in`], for text.
    ///
    /// ```
    /// let arena = ito::json::Arena::new();
    /// let v = ito::json::Value::from_str_in(&arena, "[true, null]").unwrap();
    /// assert_eq!(v[0], true);
    /// ```
    pub fn from_str_in(arena: &'a Arena, input: &'a str) -> Result<Value<'a>, Error> {
        Value::from_slice_in(arena, input.as_bytes())
    }

    /// As [`Value::from_slice_exact`], with the containers in `arena` (see
    /// [`Value::from_slice_in`]).
    ///
    /// ```
    /// let arena = ito::json::Arena::new();
    /// let v = ito::json::Value::from_slice_exact_in(&arena, b"[1.50]").unwrap();
    /// assert_eq!(v.to_string(), "[1.50]");
    /// ```
    pub fn from_slice_exact_in(arena: &'a Arena, input: &'a [u8]) -> Result<Value<'a>, Error> {
        let mut de = Deserializer::from_slice(input);
        let v = Parser::with_arena(arena, true).parse::<Borrow>(&mut de)?;
        de.end()?;
        Ok(v)
    }

    /// As [`Value::from_slice`], with exact precision: every number that
    /// is not an integer fitting `u64`/`i64` keeps its text, and renders
    /// as written (see [`Number`]). Numbers have no range limit.
    ///
    /// ```
    /// use ito::json::Value;
    /// let text = br#"{"price": 19.90, "big": 123456789012345678901234567890}"#;
    /// let v = Value::from_slice_exact(text).unwrap();
    /// assert_eq!(v.to_string(), r#"{"price":19.90,"big":123456789012345678901234567890}"#);
    /// // The plain parse rounds: 19.9 and 1.2345678901234568e29.
    /// assert_eq!(Value::from_slice(text).unwrap()["price"].to_string(), "19.9");
    /// ```
    pub fn from_slice_exact(input: &'a [u8]) -> Result<Value<'a>, Error> {
        let mut de = Deserializer::from_slice(input);
        let v = de.parse_value_exact()?;
        de.end()?;
        Ok(v)
    }

    /// As [`Value::from_str`], with exact precision (see
    /// [`Value::from_slice_exact`]).
    ///
    /// ```
    /// let v = ito::json::Value::from_str_exact("[1.0, -0, 1E+2]").unwrap();
    /// assert_eq!(v.to_string(), "[1.0,-0,1E+2]");
    /// ```
    pub fn from_str_exact(input: &'a str) -> Result<Value<'a>, Error> {
        let mut de = Deserializer::from_str(input);
        let v = de.parse_value_exact()?;
        de.end()?;
        Ok(v)
    }

    /// Parses JSON text (see [`Value::from_slice`]).
    ///
    /// ```
    /// let v = ito::json::Value::from_str("[true, null]").unwrap();
    /// assert_eq!(v[0], true);
    /// ```
    #[allow(clippy::should_implement_trait)]
    pub fn from_str(input: &'a str) -> Result<Value<'a>, Error> {
        let mut de = Deserializer::from_str(input);
        let v = de.parse_value()?;
        de.end()?;
        Ok(v)
    }
}

impl Value<'static> {
    /// Reads a reader to its end and parses the text into a value that
    /// owns its strings.
    ///
    /// ```
    /// let v = ito::json::Value::from_reader(std::io::Cursor::new(b"[1, 2]")).unwrap();
    /// assert_eq!(v[1], 2);
    /// ```
    pub fn from_reader<R: io::Read>(mut reader: R) -> Result<Value<'static>, Error> {
        let mut buf = Vec::new();
        reader.read_to_end(&mut buf).map_err(Error::io)?;
        let mut de = Deserializer::from_slice(&buf);
        let v = de.parse_value_owned()?;
        de.end()?;
        Ok(v)
    }
}
