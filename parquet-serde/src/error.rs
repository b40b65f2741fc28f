//! The one error type of the crate.
//!
//! Like `serde_json::Error`, [`Error`] is a single pointer wide: a boxed record with a
//! category ([`ErrorKind`]), a message, where it happened ([`Location`]: column path,
//! row group, page, byte offset, row), and the error of another library that caused it, if
//! any, as [`source()`](std::error::Error::source) (an `std::io::Error`, a codec's error,
//! serde_json's, ...). A bug of this library, not bad input, is [`ErrorKind::Internal`].
//!
//! ```
//! use parquet_serde::{Error, ErrorKind};
//! let err = Error::new(ErrorKind::Corrupt, "page header truncated")
//!     .with_column("a.b")
//!     .with_row_group(2)
//!     .with_page(7)
//!     .with_offset(4096);
//! assert_eq!(err.kind(), ErrorKind::Corrupt);
//! assert_eq!(
//!     err.to_string(),
//!     "corrupt file: page header truncated (column a.b, row group 2, page 7, offset 4096)"
//! );
//! ```

use std::fmt;

/// `Result` with this crate's [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// The category of an [`Error`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// Reading or writing the underlying file or stream failed.
    Io,
    /// The object asked of an object store does not exist (no object at its key). Apart
    /// from its kind it is an I/O error; as an `std::io::Error` it is of kind
    /// [`std::io::ErrorKind::NotFound`]. A missing local file stays [`ErrorKind::Io`],
    /// with the `std::io::Error` (kind `NotFound`) as its `source()`.
    NotFound,
    /// The bytes are not a valid Parquet file: bad magic, truncated or malformed structure,
    /// out-of-range lengths, offsets or counts.
    Corrupt,
    /// A page checksum (CRC32) does not match the page bytes.
    Checksum,
    /// The file uses a feature this library does not implement (a codec such as LZO, say).
    Unsupported,
    /// A schema is invalid, or data does not match the schema.
    Schema,
    /// Values handed to a writer, or asked of a reader, do not fit (a null in a required
    /// field, a type mismatch when deserializing, ...).
    Data,
    /// A codec failed to compress or decompress.
    Compression,
    /// Encryption or decryption failed (wrong key, tampered module, missing key).
    Crypto,
    /// A caller passed an invalid argument or option.
    InvalidArgument,
    /// A bug in this library, not bad input: a broken internal invariant, or a helper
    /// thread of this library that panicked. Please report it.
    Internal,
}

impl ErrorKind {
    fn describe(self) -> &'static str {
        match self {
            ErrorKind::Io => "I/O error",
            ErrorKind::NotFound => "not found",
            ErrorKind::Corrupt => "corrupt file",
            ErrorKind::Checksum => "checksum mismatch",
            ErrorKind::Unsupported => "unsupported",
            ErrorKind::Schema => "schema error",
            ErrorKind::Data => "data error",
            ErrorKind::Compression => "compression error",
            ErrorKind::Crypto => "encryption error",
            ErrorKind::InvalidArgument => "invalid argument",
            ErrorKind::Internal => "internal error",
        }
    }
}

/// Where an error happened. Every part is optional; the innermost layer that knows a part
/// sets it, and outer layers add the parts they know.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Location {
    /// Dotted column path (`a.b.list.element`) or field path.
    pub column: Option<String>,
    /// Row group ordinal.
    pub row_group: Option<usize>,
    /// Page ordinal inside the column chunk (dictionary page included).
    pub page: Option<usize>,
    /// Byte offset in the file (or in the buffer being decoded).
    pub offset: Option<u64>,
    /// Row number (in the file or row group, as the message says).
    pub row: Option<u64>,
}

impl Location {
    fn is_empty(&self) -> bool {
        self.column.is_none()
            && self.row_group.is_none()
            && self.page.is_none()
            && self.offset.is_none()
            && self.row.is_none()
    }
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut sep = "";
        if let Some(c) = &self.column {
            write!(f, "{sep}column {c}")?;
            sep = ", ";
        }
        if let Some(rg) = self.row_group {
            write!(f, "{sep}row group {rg}")?;
            sep = ", ";
        }
        if let Some(p) = self.page {
            write!(f, "{sep}page {p}")?;
            sep = ", ";
        }
        if let Some(o) = self.offset {
            write!(f, "{sep}offset {o}")?;
            sep = ", ";
        }
        if let Some(r) = self.row {
            write!(f, "{sep}row {r}")?;
        }
        Ok(())
    }
}

struct ErrorImpl {
    kind: ErrorKind,
    message: String,
    location: Location,
    source: Option<Box<dyn std::error::Error + Send + Sync + 'static>>,
}

/// The error type of every fallible function in this crate.
pub struct Error(Box<ErrorImpl>);

impl Error {
    /// A new error of `kind` with a message and no location yet.
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Self {
        Error(Box::new(ErrorImpl {
            kind,
            message: message.into(),
            location: Location::default(),
            source: None,
        }))
    }

    /// Shorthand for `Error::new(ErrorKind::Corrupt, message)`.
    pub fn corrupt(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::Corrupt, message)
    }

    /// Shorthand for `Error::new(ErrorKind::Unsupported, message)`.
    pub fn unsupported(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::Unsupported, message)
    }

    /// Shorthand for `Error::new(ErrorKind::Schema, message)`.
    pub fn schema(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::Schema, message)
    }

    /// Shorthand for `Error::new(ErrorKind::Data, message)`.
    pub fn data(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::Data, message)
    }

    /// Shorthand for `Error::new(ErrorKind::InvalidArgument, message)`.
    pub fn invalid_argument(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::InvalidArgument, message)
    }

    /// Shorthand for `Error::new(ErrorKind::Internal, message)`: a bug in this library (a
    /// broken invariant), not bad input.
    pub(crate) fn internal(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::Internal, message)
    }

    /// Shorthand for `Error::new(ErrorKind::Compression, message)`.
    pub fn compression(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::Compression, message)
    }

    /// The category of this error.
    pub fn kind(&self) -> ErrorKind {
        self.0.kind
    }

    /// The message, without the location.
    pub fn message(&self) -> &str {
        &self.0.message
    }

    /// Where the error happened, as far as it is known.
    pub fn location(&self) -> &Location {
        &self.0.location
    }

    /// Attaches the underlying error (an `std::io::Error`, a codec's or serde_json's
    /// error, ...), kept as [`source()`](std::error::Error::source) so that it can be
    /// downcast. `Display` does not print it: the message already says what failed.
    ///
    /// ```
    /// use parquet_serde::{Error, ErrorKind};
    /// let utf8 = std::str::from_utf8(&[0xff]).unwrap_err();
    /// let err = Error::new(ErrorKind::Data, format!("invalid UTF-8: {utf8}")).with_source(utf8);
    /// let source = std::error::Error::source(&err).unwrap();
    /// assert!(source.downcast_ref::<std::str::Utf8Error>().is_some());
    /// assert_eq!(err.to_string(), format!("data error: invalid UTF-8: {utf8}"));
    /// ```
    pub fn with_source(mut self, source: impl std::error::Error + Send + Sync + 'static) -> Self {
        self.0.source = Some(Box::new(source));
        self
    }

    /// Sets the column path unless an inner layer already set it.
    pub fn with_column(mut self, column: impl Into<String>) -> Self {
        if self.0.location.column.is_none() {
            self.0.location.column = Some(column.into());
        }
        self
    }

    /// Sets the row group ordinal unless already set.
    pub fn with_row_group(mut self, row_group: usize) -> Self {
        self.0.location.row_group.get_or_insert(row_group);
        self
    }

    /// Sets the page ordinal unless already set.
    pub fn with_page(mut self, page: usize) -> Self {
        self.0.location.page.get_or_insert(page);
        self
    }

    /// Sets the byte offset unless already set.
    pub fn with_offset(mut self, offset: u64) -> Self {
        self.0.location.offset.get_or_insert(offset);
        self
    }

    /// Sets the row number unless already set.
    pub fn with_row(mut self, row: u64) -> Self {
        self.0.location.row.get_or_insert(row);
        self
    }

    /// Prefixes the message with context (`"reading footer: "` + message).
    pub fn context(mut self, context: impl fmt::Display) -> Self {
        self.0.message = format!("{context}: {}", self.0.message);
        self
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.0.kind.describe(), self.0.message)?;
        if !self.0.location.is_empty() {
            write!(f, " ({})", self.0.location)?;
        }
        Ok(())
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Error({self})")
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.0
            .source
            .as_ref()
            .map(|s| s.as_ref() as &(dyn std::error::Error + 'static))
    }
}

/// An [`ErrorKind::Io`] error with the `std::io::Error`'s text as its message and the
/// `std::io::Error` itself as its `source()` (so its [`std::io::ErrorKind`] stays readable).
impl From<std::io::Error> for Error {
    fn from(err: std::io::Error) -> Self {
        // An `Error` that went through an `std::io::Error` (a sink's `Write`) comes back
        // as it was, not wrapped in a second "I/O error: " prefix.
        if err.get_ref().is_some_and(|inner| inner.is::<Error>()) {
            if let Some(inner) = err.into_inner() {
                if let Ok(e) = inner.downcast::<Error>() {
                    return *e;
                }
            }
            return Error::internal("an std::io::Error lost its inner error");
        }
        Error::new(ErrorKind::Io, err.to_string()).with_source(err)
    }
}

/// An [`ErrorKind::Io`] error made from an `std::io::Error` turns back into one of the same
/// [`std::io::ErrorKind`]; other I/O and internal errors become [`std::io::ErrorKind::Other`],
/// and the rest [`std::io::ErrorKind::InvalidData`]. The `Error` is the new error's inner error.
impl From<Error> for std::io::Error {
    fn from(err: Error) -> Self {
        let io_kind = std::error::Error::source(&err)
            .and_then(|s| s.downcast_ref::<std::io::Error>())
            .map(std::io::Error::kind);
        match (err.kind(), io_kind) {
            (ErrorKind::Io | ErrorKind::NotFound, Some(kind)) => std::io::Error::new(kind, err),
            (ErrorKind::NotFound, None) => std::io::Error::new(std::io::ErrorKind::NotFound, err),
            (ErrorKind::Io | ErrorKind::Internal, _) => std::io::Error::other(err),
            _ => std::io::Error::new(std::io::ErrorKind::InvalidData, err),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn error_is_one_pointer() {
        assert_eq!(std::mem::size_of::<Error>(), std::mem::size_of::<usize>());
    }

    fn source_of<E: std::error::Error + 'static>(e: &Error) -> &E {
        let source = std::error::Error::source(e).expect("a source");
        source.downcast_ref::<E>().expect("the original error")
    }

    #[test]
    fn an_error_through_an_io_error_comes_back_unwrapped() {
        let inner = Error::new(ErrorKind::Io, "object store, a/b: connection reset")
            .context("uploading a part");
        let text = inner.to_string();
        let back = Error::from(std::io::Error::from(inner));
        assert_eq!(back.to_string(), text);
        assert_eq!(
            back.to_string(),
            "I/O error: uploading a part: object store, a/b: connection reset"
        );
        let missing = Error::new(ErrorKind::NotFound, "object store, a/b: no such key");
        let io = std::io::Error::from(missing);
        assert_eq!(io.kind(), std::io::ErrorKind::NotFound);
        assert_eq!(Error::from(io).kind(), ErrorKind::NotFound);
    }

    #[test]
    fn io_error_is_the_source_and_keeps_its_kind() {
        let io = std::io::Error::new(std::io::ErrorKind::NotFound, "no such file");
        let e = Error::from(io).context("opening `x`");
        assert_eq!(e.kind(), ErrorKind::Io);
        assert_eq!(e.to_string(), "I/O error: opening `x`: no such file");
        let source = source_of::<std::io::Error>(&e);
        assert_eq!(source.kind(), std::io::ErrorKind::NotFound);
        // And back: the io::Error made of it has the original kind.
        let back = std::io::Error::from(e);
        assert_eq!(back.kind(), std::io::ErrorKind::NotFound);
        let other = std::io::Error::from(Error::new(ErrorKind::Io, "no source"));
        assert_eq!(other.kind(), std::io::ErrorKind::Other);
        let data = std::io::Error::from(Error::corrupt("x"));
        assert_eq!(data.kind(), std::io::ErrorKind::InvalidData);
    }

    #[test]
    fn json_error_is_the_source() {
        let mut inferrer = crate::record::SchemaInferrer::new(Default::default());
        let e = inferrer.add_json_slice(b"{\"a\": 1} trailing").unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Data);
        assert!(e.message().starts_with("invalid JSON: "), "{e}");
        let source = source_of::<serde_json::Error>(&e);
        assert_eq!(source.line(), 1);
    }

    #[test]
    fn the_source_is_not_printed_twice() {
        let e = Error::data("invalid JSON: x").with_source(std::fmt::Error);
        assert_eq!(e.to_string(), "data error: invalid JSON: x");
        assert_eq!(format!("{e:?}"), "Error(data error: invalid JSON: x)");
    }

    #[test]
    fn inner_location_wins() {
        let e = Error::corrupt("x")
            .with_page(1)
            .with_page(2)
            .with_column("a");
        assert_eq!(e.location().page, Some(1));
        assert_eq!(e.to_string(), "corrupt file: x (column a, page 1)");
    }
}
