//! The serializer's error type.

use std::fmt;
use std::io;

/// What kind of failure an [`Error`] is.
///
/// ```
/// use std::collections::BTreeMap;
/// let mut m = BTreeMap::new();
/// m.insert(vec![1u8], 2);
/// let err = ito::json::to_vec(&m).unwrap_err();
/// assert_eq!(err.category(), ito::json::ser::Category::KeyMustBeAString);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Category {
    /// The output `io::Write` failed ([`to_writer`](super::to_writer)).
    Io,
    /// A map key that JSON cannot represent as a string (a sequence, a map,
    /// bytes, unit, `None`, a non-unit enum variant …), refused as
    /// serde_json refuses it.
    KeyMustBeAString,
    /// A NaN or infinite float used as a map key.
    FloatKeyMustBeFinite,
    /// A `Serialize` implementation reported an error
    /// (`serde::ser::Error::custom`).
    Custom,
    /// serde_json's `arbitrary_precision` number marker used other than as
    /// a `serde_json::Number` uses it, or with text that is not a JSON
    /// number.
    InvalidNumber,
    /// serde_json's `raw_value` marker used other than as a `RawValue`
    /// uses it.
    InvalidRawValue,
}

enum Inner {
    Io(io::Error),
    KeyMustBeAString,
    FloatKeyMustBeFinite,
    Custom(Box<str>),
    InvalidNumber,
    InvalidRawValue,
}

/// An error of [`to_vec`](super::to_vec) and its relatives: an I/O error,
/// a refusal serde_json also makes, or a `Serialize` implementation's own
/// error. Its `Display` is serde_json's message for the same failure.
///
/// One pointer wide, so `Result<(), Error>` stays small on the hot path.
///
/// ```
/// use std::collections::HashMap;
/// let mut m = HashMap::new();
/// m.insert(f64::NAN.to_bits(), 1); // fine: an integer key
/// assert!(ito::json::to_vec(&m).is_ok());
///
/// let mut m = HashMap::new();
/// m.insert((), 1);
/// let err = ito::json::to_vec(&m).unwrap_err();
/// assert_eq!(err.to_string(), "key must be a string");
/// ```
pub struct Error(Box<Inner>);

impl Error {
    pub(crate) fn io(e: io::Error) -> Self {
        Error(Box::new(Inner::Io(e)))
    }

    #[cold]
    pub(crate) fn key_must_be_a_string() -> Self {
        Error(Box::new(Inner::KeyMustBeAString))
    }

    #[cold]
    pub(crate) fn float_key_must_be_finite() -> Self {
        Error(Box::new(Inner::FloatKeyMustBeFinite))
    }

    #[cold]
    pub(crate) fn invalid_number() -> Self {
        Error(Box::new(Inner::InvalidNumber))
    }

    #[cold]
    pub(crate) fn invalid_raw_value() -> Self {
        Error(Box::new(Inner::InvalidRawValue))
    }

    /// What kind of failure this is.
    ///
    /// ```
    /// use serde::ser::Error as _;
    /// let e = ito::json::ser::Error::custom("no");
    /// assert_eq!(e.category(), ito::json::ser::Category::Custom);
    /// ```
    pub fn category(&self) -> Category {
        match *self.0 {
            Inner::Io(_) => Category::Io,
            Inner::KeyMustBeAString => Category::KeyMustBeAString,
            Inner::FloatKeyMustBeFinite => Category::FloatKeyMustBeFinite,
            Inner::Custom(_) => Category::Custom,
            Inner::InvalidNumber => Category::InvalidNumber,
            Inner::InvalidRawValue => Category::InvalidRawValue,
        }
    }

    /// The I/O error, if this is one.
    ///
    /// ```
    /// struct Broken;
    /// impl std::io::Write for Broken {
    ///     fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
    ///         Err(std::io::ErrorKind::BrokenPipe.into())
    ///     }
    ///     fn flush(&mut self) -> std::io::Result<()> { Ok(()) }
    /// }
    /// let err = ito::json::to_writer(Broken, &[1, 2]).unwrap_err();
    /// assert_eq!(err.io_error().unwrap().kind(), std::io::ErrorKind::BrokenPipe);
    /// ```
    pub fn io_error(&self) -> Option<&io::Error> {
        match &*self.0 {
            Inner::Io(e) => Some(e),
            _ => None,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &*self.0 {
            Inner::Io(e) => fmt::Display::fmt(e, f),
            Inner::KeyMustBeAString => f.write_str("key must be a string"),
            Inner::FloatKeyMustBeFinite => {
                f.write_str("float key must be finite (got NaN or +/-inf)")
            }
            Inner::Custom(msg) => f.write_str(msg),
            Inner::InvalidNumber => f.write_str("invalid number"),
            Inner::InvalidRawValue => f.write_str("expected value"),
        }
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &*self.0 {
            Inner::Io(e) => f.debug_tuple("Io").field(e).finish(),
            Inner::Custom(msg) => f.debug_tuple("Custom").field(msg).finish(),
            _ => write!(f, "{:?}", self.category()),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &*self.0 {
            Inner::Io(e) => Some(e),
            _ => None,
        }
    }
}

impl serde::ser::Error for Error {
    #[cold]
    fn custom<T: fmt::Display>(msg: T) -> Self {
        Error(Box::new(Inner::Custom(msg.to_string().into_boxed_str())))
    }
}

/// I/O errors come back as themselves; the others as
/// `io::ErrorKind::InvalidData`, as serde_json converts them.
///
/// ```
/// use serde::ser::Error as _;
/// let e: std::io::Error = ito::json::ser::Error::custom("bad").into();
/// assert_eq!(e.kind(), std::io::ErrorKind::InvalidData);
/// ```
impl From<Error> for io::Error {
    fn from(e: Error) -> io::Error {
        match *e.0 {
            Inner::Io(e) => e,
            _ => io::Error::new(io::ErrorKind::InvalidData, e),
        }
    }
}
