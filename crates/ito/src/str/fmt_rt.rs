//! Run-time support for `ito::format!` and `ito::concat!` (and the exact-size
//! writer behind [`Str::concat`], [`Str::join`]).
//!
//! The proc macro in `ito-macros` parses the format string at compile time
//! and expands into *measure, then write* code:
//!
//! ```text
//! let p1 = (&&&Arg(a)).__ito_kind().measure(&mut ctx);  // one per placeholder
//! let len = LITERAL_BYTES /* a constant */ + p1.len() + ...;
//! let mut buf = InlineBuf::uninit(); // the room for an inline result
//! let mut w = Writer::new(len, &mut buf); // inline (len <= 23) or ONE exact allocation
//! w.write_known("lit", FACTS);       // literal facts computed at compile time
//! w.piece(&p1, &ctx);                // memcpy, never a classification
//! w.finish()                         // -> Str, no further copy
//! ```
//!
//! Every byte is written by a plain copy. The writer ANDs what is known of
//! the pieces' facts (three-valued, see `known.rs`): a literal's are known
//! at compile time, digits are ASCII and JSON safe, a heap or static `Str`
//! brings what it knows, any other piece is unknown. A heap result stores
//! that in its header: fully known when every piece was, known false as
//! soon as one piece was, otherwise left for the first query to compute.
//!
//! Each argument's *kind* is picked by autoref specialization:
//! - [`StrLike`] (`str`, `String`, `Str`, `StrBuf`, `Box<str>`, `Cow<str>`,
//!   `Rc<str>`, `Arc<str>`, and references to them): the piece borrows the
//!   argument's bytes, nothing is rendered; a `Str`'s known facts are reused;
//! - [`IntLike`] (primitive integers up to 64 bits): digits are counted
//!   exactly by writing them into a 20-byte stack buffer inside the piece;
//! - anything else `Display`, and every placeholder with a spec (`{:?}`,
//!   width, precision, `{:x}`, ...): rendered once through `format_args!`
//!   into [`Ctx`]'s scratch — a 256-byte stack buffer, spilling into a
//!   thread-local `Vec` that keeps its capacity between calls (so steady
//!   state allocates nothing). A `Display` impl that itself calls
//!   `ito::format!` while the outer call has spilled gets a fresh `Vec` (the
//!   only case in which scratch allocates after warm-up).
//!
//! Everything here is `#[doc(hidden)]` plumbing for the macros.

use super::{facts, heap, inline, Known, Str, StrBuf, INLINE_CAP};
use std::borrow::Cow;
use std::cell::Cell;
use std::fmt;
use std::marker::PhantomData;
use std::mem::MaybeUninit;
use std::rc::Rc;
use std::sync::Arc;

/// [`StrLike::ito_facts`] of a piece about which nothing is known.
pub const UNKNOWN: u8 = Known::UNKNOWN.bits();
/// Facts of text that is ASCII and JSON safe (digits, most literals).
pub const ALL: u8 = facts::ALL;
/// The ASCII fact bit.
pub const ASCII: u8 = facts::ASCII;
/// The JSON-safe fact bit.
pub const JSON_SAFE: u8 = facts::JSON_SAFE;

/// The caller's room for an inline result: the writer zeroes it and
/// writes into it when the result fits inline, and leaves it untouched
/// otherwise. It lives outside the [`Writer`] so that taking its address
/// (every copy into it does) does not pin the writer's own fields to
/// memory: they stay in registers between the pieces' copies.
pub type InlineBuf = MaybeUninit<[u8; 24]>;

/// Writes exactly `len` bytes into the caller's [`InlineBuf`] or one
/// exact-size heap allocation, then becomes a [`Str`] without copying
/// (heap) or with one 24-byte move (inline).
///
/// ```
/// use ito::__rt::{InlineBuf, Writer, ALL};
/// let mut buf = InlineBuf::uninit();
/// let mut w = Writer::new(5, &mut buf);
/// w.write_known("hi", ALL);
/// w.write_unknown("!!!");
/// assert_eq!(w.finish(), "hi!!!");
/// ```
pub struct Writer<'b> {
    /// The heap allocation's data when `len > INLINE_CAP`, else the start
    /// of the inline buffer.
    base: *mut u8,
    len: usize,
    pos: usize,
    known: Known,
    inline: PhantomData<&'b mut InlineBuf>,
}

impl<'b> Writer<'b> {
    /// Prepare for a result of exactly `len` bytes: allocates once (exactly
    /// `len` bytes after the header) when `len > 23`, never otherwise (then
    /// `inline` is zeroed and written).
    #[inline]
    pub fn new(len: usize, inline: &'b mut InlineBuf) -> Writer<'b> {
        let base = if len > INLINE_CAP {
            heap::alloc_data(len)
        } else {
            // The inline image is zero after its content.
            inline.write([0; 24]).as_mut_ptr()
        };
        Writer {
            base,
            len,
            pos: 0,
            known: Known::all(facts::ALL),
            inline: PhantomData,
        }
    }

    /// Room for `n` more bytes at the write position.
    ///
    /// # Panics
    /// If more than the announced length would be written.
    #[inline(always)]
    fn slot(&mut self, n: usize) -> *mut u8 {
        assert!(n <= self.len - self.pos, "ito::Str writer overflow");
        // SAFETY: `pos <= len` and `base` has room for `len` bytes (inline:
        // len <= 23 < 24).
        unsafe { self.base.add(self.pos) }
    }

    /// Append `s` with a plain copy.
    #[inline(always)]
    fn copy(&mut self, s: &str) {
        let dst = self.slot(s.len());
        // SAFETY: `slot` checked room for `s.len()` bytes; `dst` is in our
        // allocation or in the inline buffer borrowed mutably for `'b`,
        // neither of which can overlap a `&str` the caller holds.
        unsafe { std::ptr::copy_nonoverlapping(s.as_ptr(), dst, s.len()) };
        self.pos += s.len();
    }

    /// Append `s`, whose facts are not known (a plain copy).
    #[inline(always)]
    pub fn write_unknown(&mut self, s: &str) {
        self.copy(s);
        self.known = self.known.and(Known::UNKNOWN);
    }

    /// Append `s`, whose facts are known to be `facts` (`ASCII | JSON_SAFE`
    /// bits; literals, classified at compile time).
    #[inline(always)]
    pub fn write_known(&mut self, s: &str, facts: u8) {
        self.copy(s);
        self.known = self.known.and(Known::all(facts));
    }

    /// Append `s` with what is known of its facts ([`StrLike::ito_facts`]).
    #[inline(always)]
    fn write_piece(&mut self, s: &str, known: u8) {
        self.copy(s);
        self.known = self.known.and(Known::from_bits(known));
    }

    /// Append a measured piece.
    #[inline(always)]
    pub fn piece(&mut self, piece: &Piece<'_>, ctx: &Ctx) {
        match piece {
            Piece::Str(s, k) => self.write_piece(s, *k),
            Piece::Int(buf, start) => {
                // SAFETY: IntBuf holds ASCII digits and an optional sign.
                let s = unsafe { std::str::from_utf8_unchecked(&buf[*start as usize..]) };
                self.write_known(s, facts::ALL)
            }
            Piece::Scratch(start, len) => {
                let s = &ctx.bytes()[*start..*start + *len];
                // SAFETY: scratch pieces are whole `write_str` outputs of one
                // `fmt::Display` call, hence UTF-8.
                let s = unsafe { std::str::from_utf8_unchecked(s) };
                self.write_unknown(s)
            }
        }
    }

    /// Finish: the announced length must have been written exactly.
    ///
    /// # Panics
    /// If fewer bytes than announced were written.
    #[inline(always)]
    pub fn finish(self) -> Str {
        // Read the fields out without running `Drop`. Wrapping first keeps
        // the fields in registers: a check before it kept the writer alive
        // (for its drop on unwinding), and the move into the wrapper then
        // reloaded its stores with a wider load that missed store
        // forwarding (a 3-piece `format!` of 36 bytes: 24.8 ns against
        // 21.6 ns; Zen 3, portable, 2026-11-28). An underflow frees the
        // allocation itself.
        let this = std::mem::ManuallyDrop::new(self);
        if this.pos != this.len {
            underflow(this.base, this.len);
        }
        if this.len <= INLINE_CAP {
            // SAFETY: `base` is the caller's buffer, zeroed in `new` and
            // borrowed by this writer for `'b`.
            let mut image = unsafe { this.base.cast::<[u8; 24]>().read() };
            image[23] = inline::tag(this.len);
            // SAFETY: `len <= 23` bytes of UTF-8 (each piece was a `&str`,
            // concatenation of UTF-8 is UTF-8), zeros after them.
            unsafe { Str::from_inline_raw(image) }
        } else {
            // SAFETY: fully written allocation of capacity `len`; ownership
            // moves to the `Str` (the writer is not dropped).
            unsafe {
                heap::init_header(this.base, this.len, this.known);
                Str::from_heap_parts(this.base, this.len)
            }
        }
    }
}

/// A writer finished short of its announced length: free its allocation
/// (the writer itself is not dropped) and panic.
#[cold]
#[inline(never)]
fn underflow(base: *mut u8, len: usize) -> ! {
    if len > INLINE_CAP {
        // SAFETY: allocated in `Writer::new` with capacity `len`; the
        // writer that owned it was wrapped in `ManuallyDrop` and is not
        // used again.
        unsafe { heap::free_data(base, len) }
    }
    panic!("ito::Str writer underflow");
}

impl Drop for Writer<'_> {
    fn drop(&mut self) {
        if self.len > INLINE_CAP {
            // SAFETY: allocated in `new` with capacity `len`, never wrapped
            // (`finish` does not drop the writer).
            unsafe { heap::free_data(self.base, self.len) }
        }
    }
}

/// A measured piece of a `format!` result.
pub enum Piece<'a> {
    /// Borrowed text and what is known of its facts
    /// ([`StrLike::ito_facts`]).
    Str(&'a str, u8),
    /// Decimal digits at `buf[start..]`.
    Int([u8; 20], u8),
    /// `len` bytes at `start` in the [`Ctx`] scratch (facts unknown).
    Scratch(usize, usize),
}

impl Piece<'_> {
    /// The piece's length in bytes.
    #[inline(always)]
    pub fn len(&self) -> usize {
        match self {
            Piece::Str(s, _) => s.len(),
            Piece::Int(_, start) => 20 - *start as usize,
            Piece::Scratch(_, len) => *len,
        }
    }

    /// Whether the piece is empty.
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

thread_local! {
    static SCRATCH: Cell<Vec<u8>> = const { Cell::new(Vec::new()) };
}

const STACK_SCRATCH: usize = 256;

/// Scratch space for pieces that must be rendered to be measured.
pub struct Ctx {
    stack: [MaybeUninit<u8>; STACK_SCRATCH],
    len: usize,
    spill: Option<Vec<u8>>,
}

impl Default for Ctx {
    fn default() -> Self {
        Ctx::new()
    }
}

impl Ctx {
    /// An empty scratch (no allocation, nothing initialised).
    #[inline(always)]
    pub fn new() -> Ctx {
        Ctx {
            stack: [const { MaybeUninit::uninit() }; STACK_SCRATCH],
            len: 0,
            spill: None,
        }
    }

    /// Render `args` once into the scratch and return it as a piece.
    #[inline(never)]
    pub fn render(&mut self, args: fmt::Arguments<'_>) -> Piece<'static> {
        if let Some(s) = args.as_str() {
            return Piece::Str(s, UNKNOWN);
        }
        let start = self.len;
        // Writing to the scratch never fails; a `Display` impl returning an
        // error is a bug in that impl, reported like `std::format!` does.
        fmt::write(self, args).expect("a Display implementation returned an error unexpectedly");
        Piece::Scratch(start, self.len - start)
    }

    /// Everything rendered so far.
    #[inline]
    fn bytes(&self) -> &[u8] {
        match &self.spill {
            Some(v) => v,
            // SAFETY: `stack[..len]` was initialised by `write_str`.
            None => unsafe { std::slice::from_raw_parts(self.stack.as_ptr().cast(), self.len) },
        }
    }

    #[cold]
    fn spill(&mut self, extra: usize) {
        let mut v = SCRATCH.try_with(|c| c.take()).unwrap_or_default();
        v.clear();
        v.reserve(self.len + extra);
        // SAFETY: `stack[..len]` is initialised.
        let old = unsafe { std::slice::from_raw_parts(self.stack.as_ptr().cast(), self.len) };
        v.extend_from_slice(old);
        self.spill = Some(v);
    }
}

impl fmt::Write for Ctx {
    #[inline]
    fn write_str(&mut self, s: &str) -> fmt::Result {
        let n = s.len();
        if self.spill.is_none() && n <= STACK_SCRATCH - self.len {
            // SAFETY: room for `n` bytes checked; the stack buffer is ours.
            unsafe {
                std::ptr::copy_nonoverlapping(
                    s.as_ptr(),
                    self.stack.as_mut_ptr().add(self.len).cast::<u8>(),
                    n,
                )
            };
            self.len += n;
            return Ok(());
        }
        if self.spill.is_none() {
            self.spill(n);
        }
        let Some(v) = self.spill.as_mut() else {
            unreachable!("spilled above")
        };
        v.extend_from_slice(s.as_bytes());
        self.len = v.len();
        Ok(())
    }
}

impl Drop for Ctx {
    #[inline(always)]
    fn drop(&mut self) {
        if self.spill.is_some() {
            self.give_back();
        }
    }
}

impl Ctx {
    /// Return the spilled `Vec` (with its capacity) to this thread's slot.
    #[cold]
    #[inline(never)]
    fn give_back(&mut self) {
        if let Some(mut v) = self.spill.take() {
            v.clear();
            let _ = SCRATCH.try_with(|c| c.set(v));
        }
    }
}

/// Wraps a `format!` argument for autoref specialization.
pub struct Arg<'a, T: ?Sized>(pub &'a T);

/// Text types whose `Display` is exactly their `&str` content.
pub trait StrLike {
    /// The content.
    fn ito_str(&self) -> &str;
    /// What is known of the facts (a `Known` byte), [`UNKNOWN`] by default.
    #[inline(always)]
    fn ito_facts(&self) -> u8 {
        UNKNOWN
    }
}

macro_rules! str_like {
    ($($t:ty),*) => {$(
        impl StrLike for $t {
            #[inline(always)]
            fn ito_str(&self) -> &str { self }
        }
    )*};
}
str_like!(str, String, Box<str>, Cow<'_, str>, Rc<str>, Arc<str>);

impl StrLike for Str {
    #[inline(always)]
    fn ito_str(&self) -> &str {
        self.as_str()
    }
    /// What a heap or static `Str` knows; nothing for an inline one (its
    /// facts are never stored).
    #[inline(always)]
    fn ito_facts(&self) -> u8 {
        self.known().bits()
    }
}

impl StrLike for StrBuf {
    #[inline(always)]
    fn ito_str(&self) -> &str {
        self.as_str()
    }
    #[inline(always)]
    fn ito_facts(&self) -> u8 {
        self.known_bits()
    }
}

impl<T: StrLike + ?Sized> StrLike for &T {
    #[inline(always)]
    fn ito_str(&self) -> &str {
        (**self).ito_str()
    }
    #[inline(always)]
    fn ito_facts(&self) -> u8 {
        (**self).ito_facts()
    }
}

impl<T: StrLike + ?Sized> StrLike for &mut T {
    #[inline(always)]
    fn ito_str(&self) -> &str {
        (**self).ito_str()
    }
    #[inline(always)]
    fn ito_facts(&self) -> u8 {
        (**self).ito_facts()
    }
}

/// Primitive integers (up to 64 bits) formatted in decimal without `fmt`.
pub trait IntLike {
    /// Decimal digits right-aligned in `buf`; returns the start index.
    fn ito_dec(&self, buf: &mut [u8; 20]) -> u8;
}

const DIGITS2: &[u8; 200] = b"0001020304050607080910111213141516171819\
2021222324252627282930313233343536373839\
4041424344454647484950515253545556575859\
6061626364656667686970717273747576777879\
8081828384858687888990919293949596979899";

/// Write `n` right-aligned into `buf[..end]`; returns the start index.
#[inline]
fn dec_u64(mut n: u64, buf: &mut [u8; 20], mut end: usize) -> usize {
    while n >= 100 {
        let r = (n % 100) as usize * 2;
        n /= 100;
        end -= 2;
        buf[end..end + 2].copy_from_slice(&DIGITS2[r..r + 2]);
    }
    if n >= 10 {
        let r = n as usize * 2;
        end -= 2;
        buf[end..end + 2].copy_from_slice(&DIGITS2[r..r + 2]);
    } else {
        end -= 1;
        buf[end] = b'0' + n as u8;
    }
    end
}

macro_rules! int_like {
    (unsigned: $($u:ty),*; signed: $($i:ty),*) => {
        $(impl IntLike for $u {
            #[inline]
            fn ito_dec(&self, buf: &mut [u8; 20]) -> u8 {
                dec_u64(*self as u64, buf, 20) as u8
            }
        })*
        $(impl IntLike for $i {
            #[inline]
            fn ito_dec(&self, buf: &mut [u8; 20]) -> u8 {
                // i64::MIN has 19 digits + sign = 20 bytes: fits.
                let mut start = dec_u64(self.unsigned_abs() as u64, buf, 20);
                if *self < 0 {
                    start -= 1;
                    buf[start] = b'-';
                }
                start as u8
            }
        })*
    };
}
int_like!(unsigned: u8, u16, u32, u64, usize; signed: i8, i16, i32, i64, isize);

impl<T: IntLike + ?Sized> IntLike for &T {
    #[inline(always)]
    fn ito_dec(&self, buf: &mut [u8; 20]) -> u8 {
        (**self).ito_dec(buf)
    }
}

/// Kind of a [`StrLike`] argument.
pub struct StrKind<'a, T: ?Sized>(&'a T);
/// Kind of an [`IntLike`] argument.
pub struct IntKind<'a, T: ?Sized>(&'a T);
/// Kind of any other `Display` argument.
pub struct DisplayKind<'a, T: ?Sized>(&'a T);

impl<'a, T: StrLike + ?Sized> StrKind<'a, T> {
    /// Borrow the text.
    #[inline(always)]
    pub fn measure(self, _: &mut Ctx) -> Piece<'a> {
        Piece::Str(self.0.ito_str(), self.0.ito_facts())
    }
}

impl<'a, T: IntLike + ?Sized> IntKind<'a, T> {
    /// Write the digits into the piece.
    #[inline(always)]
    pub fn measure(self, _: &mut Ctx) -> Piece<'a> {
        let mut buf = [0u8; 20];
        let start = self.0.ito_dec(&mut buf);
        Piece::Int(buf, start)
    }
}

impl<'a, T: fmt::Display + ?Sized> DisplayKind<'a, T> {
    /// Render once into the scratch.
    #[inline(always)]
    pub fn measure(self, ctx: &mut Ctx) -> Piece<'a> {
        ctx.render(format_args!("{}", self.0))
    }
}

/// Highest priority: text.
pub trait ViaStr<'a, T: ?Sized> {
    /// Pick the kind.
    fn __ito_kind(&self) -> StrKind<'a, T>;
}
impl<'a, T: StrLike + ?Sized> ViaStr<'a, T> for &&Arg<'a, T> {
    #[inline(always)]
    fn __ito_kind(&self) -> StrKind<'a, T> {
        StrKind(self.0)
    }
}

/// Second priority: integers.
pub trait ViaInt<'a, T: ?Sized> {
    /// Pick the kind.
    fn __ito_kind(&self) -> IntKind<'a, T>;
}
impl<'a, T: IntLike + ?Sized> ViaInt<'a, T> for &Arg<'a, T> {
    #[inline(always)]
    fn __ito_kind(&self) -> IntKind<'a, T> {
        IntKind(self.0)
    }
}

/// Fallback: any `Display`.
pub trait ViaDisplay<'a, T: ?Sized> {
    /// Pick the kind.
    fn __ito_kind(&self) -> DisplayKind<'a, T>;
}
impl<'a, T: fmt::Display + ?Sized> ViaDisplay<'a, T> for Arg<'a, T> {
    #[inline(always)]
    fn __ito_kind(&self) -> DisplayKind<'a, T> {
        DisplayKind(self.0)
    }
}

/// Up to `N` items on the stack, more in a `Vec` (for `Str::join`).
pub(crate) enum Collected<T, const N: usize> {
    Stack(StackVec<T, N>),
    Heap(Vec<T>),
}

pub(crate) struct StackVec<T, const N: usize> {
    buf: [MaybeUninit<T>; N],
    len: usize,
}

impl<T, const N: usize> Drop for StackVec<T, N> {
    fn drop(&mut self) {
        for slot in &mut self.buf[..self.len] {
            // SAFETY: the first `len` slots are initialised and dropped once.
            unsafe { slot.assume_init_drop() }
        }
    }
}

impl<T, const N: usize> Collected<T, N> {
    pub(crate) fn collect<I: IntoIterator<Item = T>>(iter: I) -> Self {
        let mut it = iter.into_iter();
        let mut stack = StackVec {
            buf: [const { MaybeUninit::uninit() }; N],
            len: 0,
        };
        loop {
            let Some(item) = it.next() else {
                return Collected::Stack(stack);
            };
            if stack.len < N {
                stack.buf[stack.len].write(item);
                stack.len += 1;
                continue;
            }
            let mut v = Vec::with_capacity(N * 2 + it.size_hint().0);
            let n = std::mem::replace(&mut stack.len, 0);
            for slot in &stack.buf[..n] {
                // SAFETY: slots `..n` are initialised; `stack.len` is now 0 so
                // they are moved out exactly once.
                v.push(unsafe { slot.assume_init_read() });
            }
            v.push(item);
            v.extend(it);
            return Collected::Heap(v);
        }
    }

    pub(crate) fn as_slice(&self) -> &[T] {
        match self {
            // SAFETY: the first `len` slots are initialised.
            Collected::Stack(s) => unsafe {
                std::slice::from_raw_parts(s.buf.as_ptr().cast::<T>(), s.len)
            },
            Collected::Heap(v) => v,
        }
    }
}
