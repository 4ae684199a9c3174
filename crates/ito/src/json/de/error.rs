//! The deserializer's error type: serde_json's conditions, messages and
//! positions, plus the exact byte offset.

use std::fmt;
use std::io;

/// What kind of failure an [`Error`] is: serde_json's four categories.
///
/// ```
/// use ito::json::de::Category;
/// let err = ito::json::from_str::<Vec<u8>>("[1, 2").unwrap_err();
/// assert_eq!(err.category(), Category::Eof);
/// let err = ito::json::from_str::<Vec<u8>>("[1, x]").unwrap_err();
/// assert_eq!(err.category(), Category::Syntax);
/// let err = ito::json::from_str::<Vec<u8>>("[1, 300]").unwrap_err();
/// assert_eq!(err.category(), Category::Data);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Category {
    /// Reading the input failed ([`from_reader`](super::from_reader)).
    Io,
    /// The input is not JSON.
    Syntax,
    /// The input is JSON, but not of the type asked for (a `Deserialize`
    /// implementation refused it).
    Data,
    /// The input ended in the middle of a value.
    Eof,
}

/// The condition, with serde_json's wording.
#[derive(Debug)]
pub(crate) enum Code {
    Message(Box<str>),
    Io(io::Error),
    EofWhileParsingList,
    EofWhileParsingObject,
    EofWhileParsingString,
    EofWhileParsingValue,
    ExpectedColon,
    ExpectedListCommaOrEnd,
    ExpectedObjectCommaOrEnd,
    ExpectedSomeIdent,
    ExpectedSomeValue,
    ExpectedDoubleQuote,
    InvalidEscape,
    InvalidNumber,
    NumberOutOfRange,
    InvalidUnicodeCodePoint,
    ControlCharacterWhileParsingString,
    KeyMustBeAString,
    ExpectedNumericKey,
    LoneLeadingSurrogateInHexEscape,
    TrailingComma,
    TrailingCharacters,
    UnexpectedEndOfHexEscape,
    RecursionLimitExceeded,
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Code::Message(msg) => msg,
            Code::Io(e) => return fmt::Display::fmt(e, f),
            Code::EofWhileParsingList => "EOF while parsing a list",
            Code::EofWhileParsingObject => "EOF while parsing an object",
            Code::EofWhileParsingString => "EOF while parsing a string",
            Code::EofWhileParsingValue => "EOF while parsing a value",
            Code::ExpectedColon => "expected `:`",
            Code::ExpectedListCommaOrEnd => "expected `,` or `]`",
            Code::ExpectedObjectCommaOrEnd => "expected `,` or `}`",
            Code::ExpectedSomeIdent => "expected ident",
            Code::ExpectedSomeValue => "expected value",
            Code::ExpectedDoubleQuote => "expected `\"`",
            Code::InvalidEscape => "invalid escape",
            Code::InvalidNumber => "invalid number",
            Code::NumberOutOfRange => "number out of range",
            Code::InvalidUnicodeCodePoint => "invalid unicode code point",
            Code::ControlCharacterWhileParsingString => {
                "control character (\\u0000-\\u001F) found while parsing a string"
            }
            Code::KeyMustBeAString => "key must be a string",
            Code::ExpectedNumericKey => "invalid value: expected key to be a number in quotes",
            Code::LoneLeadingSurrogateInHexEscape => "lone leading surrogate in hex escape",
            Code::TrailingComma => "trailing comma",
            Code::TrailingCharacters => "trailing characters",
            Code::UnexpectedEndOfHexEscape => "unexpected end of hex escape",
            Code::RecursionLimitExceeded => "recursion limit exceeded",
        })
    }
}

struct Inner {
    code: Code,
    /// 1-based; 0 when the error has no position (yet).
    line: usize,
    column: usize,
    offset: usize,
}

/// An error of [`from_slice`](super::from_slice) and its relatives.
///
/// Its `Display` is serde_json's text for the same condition at the same
/// position (`"expected `,` or `]` at line 1 column 8"`), `line()` and
/// `column()` count as serde_json counts (the column is the number of
/// bytes from the start of the line up to and including the byte at
/// fault), and `offset()` is the byte offset of that byte in the input
/// (the input's length when it ended too early).
///
/// One pointer wide, so results stay small on the hot path.
///
/// ```
/// let err = ito::json::from_str::<Vec<u32>>("[1, 2 3]").unwrap_err();
/// assert_eq!(err.to_string(), "expected `,` or `]` at line 1 column 7");
/// assert_eq!((err.line(), err.column(), err.offset()), (1, 7, 6));
/// ```
pub struct Error(Box<Inner>);

impl Error {
    /// An error at position `i` of `input` in serde_json's terms: `i` is the
    /// index just past the byte at fault (or the input length at its end).
    #[cold]
    pub(crate) fn at(code: Code, input: &[u8], i: usize) -> Error {
        let i = i.min(input.len());
        let before = &input[..i];
        let line_start = before
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |p| p + 1);
        let line = 1 + before[..line_start].iter().filter(|&&b| b == b'\n').count();
        let eof = matches!(
            code,
            Code::EofWhileParsingList
                | Code::EofWhileParsingObject
                | Code::EofWhileParsingString
                | Code::EofWhileParsingValue
        );
        let offset = if eof { i } else { i.saturating_sub(1) };
        Error(Box::new(Inner {
            code,
            line,
            column: i - line_start,
            offset,
        }))
    }

    /// An error with no position.
    #[cold]
    pub(crate) fn bare(code: Code) -> Error {
        Error(Box::new(Inner {
            code,
            line: 0,
            column: 0,
            offset: 0,
        }))
    }

    #[cold]
    pub(crate) fn io(e: io::Error) -> Error {
        Error::bare(Code::Io(e))
    }

    /// Gives a positionless error (one a `Deserialize` implementation
    /// raised) the position `i`, as serde_json does; others are returned
    /// unchanged.
    #[cold]
    pub(crate) fn fix_position(self, input: &[u8], i: usize) -> Error {
        if self.0.line == 0 && !matches!(self.0.code, Code::Io(_)) {
            let Inner { code, .. } = *self.0;
            Error::at(code, input, i)
        } else {
            self
        }
    }

    /// The line of the error, 1-based; 0 if the error has no position
    /// (an I/O error, or one raised outside the parser).
    ///
    /// ```
    /// let err = ito::json::from_str::<bool>("\n\n  tru").unwrap_err();
    /// assert_eq!((err.line(), err.column()), (3, 5));
    /// ```
    pub fn line(&self) -> usize {
        self.0.line
    }

    /// The column of the error: bytes from the start of its line up to and
    /// including the byte at fault, as serde_json counts (so the first byte
    /// of a line is column 1, and an error at the start of an empty input
    /// is column 0).
    ///
    /// ```
    /// let err = ito::json::from_str::<u8>("x").unwrap_err();
    /// assert_eq!(err.column(), 1);
    /// ```
    pub fn column(&self) -> usize {
        self.0.column
    }

    /// The byte offset of the byte at fault in the input, or the input's
    /// length if it ended too early ([`Category::Eof`]); 0 when the error
    /// has no position.
    ///
    /// ```
    /// let err = ito::json::from_str::<Vec<u8>>("[1,\n 2,]").unwrap_err();
    /// assert_eq!(err.offset(), 7); // the `]` after the trailing comma
    /// let err = ito::json::from_str::<Vec<u8>>("[1,\n 2,").unwrap_err();
    /// assert_eq!(err.offset(), 7); // the end of the input
    /// ```
    pub fn offset(&self) -> usize {
        self.0.offset
    }

    /// serde_json's category of the error.
    ///
    /// ```
    /// let err = ito::json::from_str::<String>("\"abc").unwrap_err();
    /// assert!(err.is_eof());
    /// assert_eq!(err.category(), ito::json::de::Category::Eof);
    /// ```
    pub fn category(&self) -> Category {
        match self.0.code {
            Code::Message(_) => Category::Data,
            Code::Io(_) => Category::Io,
            Code::EofWhileParsingList
            | Code::EofWhileParsingObject
            | Code::EofWhileParsingString
            | Code::EofWhileParsingValue => Category::Eof,
            _ => Category::Syntax,
        }
    }

    /// Whether this is an I/O error.
    ///
    /// ```
    /// let err = ito::json::from_str::<u8>("-").unwrap_err();
    /// assert!(!err.is_io());
    /// ```
    pub fn is_io(&self) -> bool {
        self.category() == Category::Io
    }

    /// Whether the input is not JSON.
    ///
    /// ```
    /// assert!(ito::json::from_str::<Vec<u8>>("[}").unwrap_err().is_syntax());
    /// ```
    pub fn is_syntax(&self) -> bool {
        self.category() == Category::Syntax
    }

    /// Whether the input is JSON of the wrong type.
    ///
    /// ```
    /// assert!(ito::json::from_str::<u8>("true").unwrap_err().is_data());
    /// ```
    pub fn is_data(&self) -> bool {
        self.category() == Category::Data
    }

    /// Whether the input ended in the middle of a value.
    ///
    /// ```
    /// assert!(ito::json::from_str::<u8>("").unwrap_err().is_eof());
    /// ```
    pub fn is_eof(&self) -> bool {
        self.category() == Category::Eof
    }

    /// The I/O error, if this is one.
    ///
    /// ```
    /// struct Broken;
    /// impl std::io::Read for Broken {
    ///     fn read(&mut self, _: &mut [u8]) -> std::io::Result<usize> {
    ///         Err(std::io::ErrorKind::BrokenPipe.into())
    ///     }
    /// }
    /// let err = ito::json::from_reader::<_, u8>(Broken).unwrap_err();
    /// assert_eq!(err.io_error().unwrap().kind(), std::io::ErrorKind::BrokenPipe);
    /// ```
    pub fn io_error(&self) -> Option<&io::Error> {
        match &self.0.code {
            Code::Io(e) => Some(e),
            _ => None,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.line == 0 {
            fmt::Display::fmt(&self.0.code, f)
        } else {
            write!(
                f,
                "{} at line {} column {}",
                self.0.code, self.0.line, self.0.column
            )
        }
    }
}

/// serde_json's layout: `Error("expected value", line: 1, column: 1)`.
impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Error({:?}, line: {}, column: {})",
            self.0.code.to_string(),
            self.0.line,
            self.0.column
        )
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.0.code {
            Code::Io(e) => e.source(),
            _ => None,
        }
    }
}

impl serde::de::Error for Error {
    #[cold]
    fn custom<T: fmt::Display>(msg: T) -> Error {
        message(msg.to_string())
    }

    #[cold]
    fn invalid_type(unexp: serde::de::Unexpected<'_>, exp: &dyn serde::de::Expected) -> Error {
        Error::custom(format_args!(
            "invalid type: {}, expected {}",
            JsonUnexpected(unexp),
            exp
        ))
    }

    #[cold]
    fn invalid_value(unexp: serde::de::Unexpected<'_>, exp: &dyn serde::de::Expected) -> Error {
        Error::custom(format_args!(
            "invalid value: {}, expected {}",
            JsonUnexpected(unexp),
            exp
        ))
    }
}

/// I/O errors come back as themselves; syntax and data errors as
/// `InvalidData`, EOF errors as `UnexpectedEof` (as serde_json converts).
///
/// ```
/// let err = ito::json::from_str::<Vec<u8>>("[").unwrap_err();
/// let io: std::io::Error = err.into();
/// assert_eq!(io.kind(), std::io::ErrorKind::UnexpectedEof);
/// ```
impl From<Error> for io::Error {
    fn from(e: Error) -> io::Error {
        match e.category() {
            Category::Io => match e.0.code {
                Code::Io(e) => e,
                _ => unreachable!("Io category holds an io::Error"),
            },
            Category::Eof => io::Error::new(io::ErrorKind::UnexpectedEof, e),
            Category::Syntax | Category::Data => io::Error::new(io::ErrorKind::InvalidData, e),
        }
    }
}

/// serde_json's rendering of an unexpected value: `null` for unit, a float
/// in backticks with its shortest round-trip text.
struct JsonUnexpected<'a>(serde::de::Unexpected<'a>);

impl fmt::Display for JsonUnexpected<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            serde::de::Unexpected::Unit => f.write_str("null"),
            serde::de::Unexpected::Float(v) => {
                write!(f, "floating point `{}`", zmij::Buffer::new().format(v))
            }
            other => fmt::Display::fmt(&other, f),
        }
    }
}

/// A message error; a message that ends in serde_json's own
/// " at line N column M" (an error passed through `custom` by a type-erasing
/// layer) keeps that position, as serde_json does.
fn message(mut msg: String) -> Error {
    let (line, column) = split_position(&mut msg).unwrap_or((0, 0));
    Error(Box::new(Inner {
        code: Code::Message(msg.into_boxed_str()),
        line,
        column,
        offset: 0,
    }))
}

fn split_position(msg: &mut String) -> Option<(usize, usize)> {
    let suffix = msg.rfind(" at line ")?;
    let rest = &msg[suffix + " at line ".len()..];
    let line_len = rest.bytes().take_while(u8::is_ascii_digit).count();
    let rest2 = rest[line_len..].strip_prefix(" column ")?;
    let col_len = rest2.bytes().take_while(u8::is_ascii_digit).count();
    if col_len != rest2.len() {
        return None;
    }
    let line = rest[..line_len].parse().ok()?;
    let column = rest2.parse().ok()?;
    msg.truncate(suffix);
    Some((line, column))
}
