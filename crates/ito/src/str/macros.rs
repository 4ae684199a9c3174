//! `ito::format!` and `ito::concat!`.
//!
//! A `macro_rules!` front end splits the arguments with the real Rust
//! parser (`$e:expr`, `$name:ident = $e:expr`), so commas inside closures
//! or generics are never mistaken for separators, and hands them, each
//! wrapped in its own group, to the `ito-macros` proc macro. That parses the
//! format string at compile time and expands into measure-then-write code
//! (see `fmt_rt.rs`). The macros are defined in this module (not textually
//! at the crate root) so they do not shadow `std::format!` inside ito.

/// Like [`std::format!`], but returns a [`Str`](crate::Str) built with
/// exactly one allocation of exactly the final size (or none when the result
/// fits inline in 23 bytes).
///
/// Accepts what `std::format!` accepts: positional, named and inline
/// `{name}` arguments, `Display` and `Debug` (`{:?}`, `{:#?}`), width, fill,
/// alignment, sign, `#`, `0`, precision (including `{:.*}` and `{:1$}`
/// parameters), `{:x}`/`{:X}`/`{:o}`/`{:b}`/`{:e}`/`{:E}` and `{{`/`}}`.
///
/// It measures first: literal lengths are compile-time constants,
/// `&str`/`String`/`Str` pieces are borrowed, integers are converted to
/// digits on the stack, anything else is rendered once into a small scratch
/// buffer (a stack buffer, spilling into a thread-local one that keeps its
/// capacity). Then it picks the representation once and writes each byte
/// once, with plain copies. The result's facts (`is_ascii`, `is_json_safe`)
/// are known only as far as they come for free: literals are classified at
/// compile time, digits are ASCII, a `Str` argument brings what it knows;
/// the rest is computed by the first query (see [`crate::str`]).
///
/// ```
/// let name = "world";
/// let s = ito::format!("hello, {name}! {} + {} = {:>4}", 1, 2, 1 + 2);
/// assert_eq!(s, "hello, world! 1 + 2 =    3");
/// let d = ito::format!("{:?} {x:08.3}", "q\"", x = 3.14159);
/// assert_eq!(d, std::format!("{:?} {x:08.3}", "q\"", x = 3.14159));
/// assert!(!d.is_json_safe());
/// ```
///
/// Mistakes are compile errors, as with `std::format!`:
///
/// ```compile_fail
/// let s = ito::format!("{}", 1, 2); // argument 1 never used
/// ```
/// ```compile_fail
/// let s = ito::format!("{} {}", 1); // missing argument
/// ```
/// ```compile_fail
/// let s = ito::format!("{:q}", 1); // unknown format trait
/// ```
/// ```compile_fail
/// let s = ito::format!("a } b"); // unmatched `}`
/// ```
/// ```compile_fail
/// let s = ito::format!("{}", ()); // `()` is not `Display`
/// ```
#[macro_export]
macro_rules! format {
    ($fmt:literal $(,)?) => {
        $crate::__format_impl!($crate; $fmt)
    };
    ($fmt:literal, $($rest:tt)+) => {
        $crate::__format_munch!(@[$crate; $fmt] , $($rest)+)
    };
}

/// Splits `format!` arguments one at a time (internal).
#[doc(hidden)]
#[macro_export]
macro_rules! __format_munch {
    (@[$($done:tt)*]) => {
        $crate::__format_impl!($($done)*)
    };
    (@[$($done:tt)*] ,) => {
        $crate::__format_impl!($($done)*)
    };
    (@[$($done:tt)*] , $name:ident = $e:expr $(, $($rest:tt)*)?) => {
        $crate::__format_munch!(@[$($done)* [$name ($e)]] $(, $($rest)*)?)
    };
    (@[$($done:tt)*] , $e:expr $(, $($rest:tt)*)?) => {
        $crate::__format_munch!(@[$($done)* [($e)]] $(, $($rest)*)?)
    };
}

/// Concatenate values into a [`Str`](crate::Str) with the same guarantees
/// as [`format!`](crate::format!): one exact-size allocation, or none up to
/// 23 bytes.
///
/// Each argument is anything `Display` (as with `"{}"`); string and `char`
/// literals are folded at compile time (like `std::concat!`), `&str`,
/// `String` and `Str` values are borrowed, integers counted exactly.
///
/// ```
/// let who = String::from("ito");
/// let n = 3;
/// let s = ito::concat!("hello, ", who, '!', " x", n);
/// assert_eq!(s, "hello, ito! x3");
/// assert!(s.is_inline());
/// ```
#[macro_export]
macro_rules! concat {
    ($($e:expr),* $(,)?) => {
        $crate::__concat_impl!($crate; $([$e])*)
    };
}
