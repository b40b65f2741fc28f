//! [`DeError`]: the crate's [`Error`] as a `serde::de::Error`, with the bookkeeping that
//! names the field path of errors raised inside serde's generated code.

use std::fmt;

use crate::error::{Error, ErrorKind};

/// The deserializer's error type: an [`Error`] plus the name of a field serde reported
/// missing (so that the struct it belongs to can prefix its path).
///
/// The kinds say whether an error depends on the data: a type that cannot be read from the
/// file's columns at all (`invalid_type`, a missing field) is [`ErrorKind::Schema`]; a value
/// the target rejects (`invalid_value`, an unknown variant, a custom message) is
/// [`ErrorKind::Data`].
///
/// One pointer wide (the hot path returns `Result`s of it everywhere). Public only for the
/// code `#[parquet(assemble)]` generates (hidden `__assemble`).
#[doc(hidden)]
pub struct DeError(Box<Inner>);

struct Inner {
    error: Error,
    missing: Option<&'static str>,
    /// Set by `invalid_type`: the value the visitor was given and what it expected, for the
    /// leaf to restate in Parquet's words (see [`DeError::at_leaf`]).
    mismatch: Option<(String, String)>,
}

impl DeError {
    /// Wraps an error.
    pub(crate) fn new(error: Error) -> Self {
        DeError(Box::new(Inner {
            error,
            missing: None,
            mismatch: None,
        }))
    }

    /// Restates a type mismatch raised by a visitor given a value of leaf `node`: the
    /// column's Parquet type and the Rust type, and the value only when it came from the
    /// file (not from the schema probe's stand-ins, with `probing`).
    #[cold]
    pub(crate) fn at_leaf(mut self, node: &super::tree::Node, probing: bool) -> Self {
        if let Some((value, expected)) = self.0.mismatch.take() {
            let message = if probing {
                format!(
                    "the column holds {} values, which the Rust type cannot read: it \
                     expects {expected}",
                    node.value_type()
                )
            } else {
                format!(
                    "the file holds {} value {value} where the Rust type expects {expected}",
                    node.value_type()
                )
            };
            self.0.error = Error::new(ErrorKind::Schema, message);
        }
        self.at(&node.path)
    }

    /// The error.
    pub(crate) fn error(&self) -> &Error {
        &self.0.error
    }

    /// Sets the field path of the error (unless an inner node already did) to the node at
    /// `path`; a field serde reported missing is named below it.
    #[cold]
    pub(crate) fn at(mut self, path: &str) -> Self {
        let inner = &mut *self.0;
        let error = std::mem::replace(&mut inner.error, Error::data(""));
        inner.error = if let Some(field) = inner.missing.take() {
            let full = if path.is_empty() {
                field.to_owned()
            } else {
                format!("{path}.{field}")
            };
            error.with_column(full)
        } else if !path.is_empty() {
            error.with_column(path)
        } else {
            error
        };
        self
    }
}

impl From<Error> for DeError {
    fn from(inner: Error) -> Self {
        DeError::new(inner)
    }
}

impl From<DeError> for Error {
    fn from(e: DeError) -> Self {
        let Inner { error, missing, .. } = *e.0;
        match missing {
            Some(field) => error.with_column(field),
            None => error,
        }
    }
}

impl fmt::Display for DeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.error.fmt(f)
    }
}

impl fmt::Debug for DeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.error.fmt(f)
    }
}

impl std::error::Error for DeError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.0.error.source()
    }
}

impl serde::de::Error for DeError {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        DeError::new(Error::data(msg.to_string()))
    }

    fn invalid_type(unexp: serde::de::Unexpected<'_>, exp: &dyn serde::de::Expected) -> Self {
        let mut e = DeError::new(Error::new(
            ErrorKind::Schema,
            format!("the file holds {unexp} where the Rust type expects {exp}"),
        ));
        e.0.mismatch = Some((unexp.to_string(), exp.to_string()));
        e
    }

    fn missing_field(field: &'static str) -> Self {
        DeError(Box::new(Inner {
            error: Error::schema(format!(
                "field `{field}` is not in the file and has no default"
            )),
            missing: Some(field),
            mismatch: None,
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::de::Error as _;

    #[test]
    fn kinds_and_paths() {
        let e = DeError::missing_field("b").at("a");
        let e = Error::from(e);
        assert_eq!(e.kind(), ErrorKind::Schema);
        assert_eq!(e.location().column.as_deref(), Some("a.b"));
        let e = Error::from(DeError::custom("bad").at("x").at("y"));
        assert_eq!(e.kind(), ErrorKind::Data);
        assert_eq!(e.location().column.as_deref(), Some("x"));
        let e = Error::from(DeError::invalid_type(
            serde::de::Unexpected::Bool(true),
            &"a string",
        ));
        assert_eq!(e.kind(), ErrorKind::Schema);
        assert!(e.message().contains("boolean `true`"), "{e}");
        let e = Error::from(DeError::missing_field("top").at(""));
        assert_eq!(e.location().column.as_deref(), Some("top"));
    }
}
