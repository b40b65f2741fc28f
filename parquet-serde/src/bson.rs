//! Any serde type that is a BSON document (`bson::Document`, a struct, a map) stored as the
//! document's bytes in a `BYTE_ARRAY` BSON column: use this module with serde's `with`
//! (feature `bson`).
//!
//! ```
//! use parquet_serde::ParquetSchema;
//! use serde::{Deserialize, Serialize};
//!
//! #[derive(Serialize, Deserialize, ParquetSchema, Debug, PartialEq)]
//! struct Event {
//!     id: u64,
//!     #[serde(with = "parquet_serde::bson")]
//!     doc: bson::Document, // required binary doc (BSON)
//!     #[serde(with = "parquet_serde::bson")]
//!     extra: Option<bson::Document>, // optional binary extra (BSON)
//! }
//!
//! let rows = vec![
//!     Event { id: 1, doc: bson::doc! { "a": [1, "x"], "n": { "k": true } }, extra: None },
//!     Event { id: 2, doc: bson::doc! {}, extra: Some(bson::doc! { "b": 2.5 }) },
//! ];
//! let bytes = parquet_serde::to_vec(&rows)?;
//! let back: Vec<Event> = parquet_serde::from_slice(&bytes)?;
//! assert_eq!(back, rows);
//! // The column holds the documents' bytes.
//! let raw: Vec<parquet_serde::Value> = parquet_serde::from_slice(&bytes)?;
//! let doc_bytes = bson::serialize_to_vec(&rows[0].doc).unwrap();
//! assert_eq!(raw[0].get("doc"), Some(&parquet_serde::Value::Bytes(doc_bytes)));
//! # Ok::<(), parquet_serde::Error>(())
//! ```
//!
//! The derive sees `with = "parquet_serde::bson"` and gives the field the schema of a
//! `#[parquet(bson)] Vec<u8>` (`Option<Vec<u8>>` for an `Option` field: `None` is a null,
//! `Some` a document; `parquet_serde::bson::option` is the same two functions, kept as a
//! second spelling). A value that is not a
//! document (a number, a list) fails to write with an error naming the field; bytes that are
//! not a valid document fail to read, naming the column. Bytes written to a BSON column by
//! any other way (`#[parquet(bson)] Vec<u8>`, a `Value`) are checked to be one document
//! (length prefix, elements, terminator) and fail to write otherwise.

use std::fmt;
use std::marker::PhantomData;

use serde::de::{self, DeserializeOwned, Deserializer, IntoDeserializer, Visitor};
use serde::ser::{Error as _, Serializer};
use serde::Serialize;

/// Serializes `value` as the bytes of a BSON document; an `Option` of one as a null for
/// `None`, the document's bytes for `Some`.
pub fn serialize<T, S>(value: &T, serializer: S) -> Result<S::Ok, S::Error>
where
    T: Serialize,
    S: Serializer,
{
    // BSON serializes `Some(x)` as `x`, so the bytes are the same either way; only a
    // `None` (which is no document) is told apart first.
    let shape = value.serialize(probe::Probe).unwrap_or(probe::Shape::Other);
    if shape == probe::Shape::None {
        return serializer.serialize_none();
    }
    let bytes = ::bson::serialize_to_vec(value)
        .map_err(|e| S::Error::custom(format!("not a BSON document: {e}")))?;
    match shape {
        probe::Shape::Some => serializer.serialize_some(&RawBytes(&bytes)),
        _ => serializer.serialize_bytes(&bytes),
    }
}

/// Deserializes the bytes of a BSON document into `T`; into an `Option` of one, a null as
/// `None`.
pub fn deserialize<'de, T, D>(deserializer: D) -> Result<T, D::Error>
where
    T: DeserializeOwned,
    D: Deserializer<'de>,
{
    deserializer.deserialize_option(MaybeDocument(PhantomData))
}

/// The same two functions: `with = "parquet_serde::bson"` serves `Option` fields as well.
pub mod option {
    pub use super::{deserialize, serialize};
}

/// Bytes serialized as bytes (the inside of a `Some`).
struct RawBytes<'a>(&'a [u8]);

impl Serialize for RawBytes<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_bytes(self.0)
    }
}

/// Reads a null (as `T` from a unit: `None` for an `Option`, an error for a document type)
/// or the bytes of a BSON document into `T`.
struct MaybeDocument<T>(PhantomData<T>);

impl<'de, T: DeserializeOwned> Visitor<'de> for MaybeDocument<T> {
    type Value = T;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the bytes of a BSON document, or a null")
    }

    fn visit_none<E: de::Error>(self) -> Result<T, E> {
        T::deserialize(().into_deserializer())
    }

    fn visit_unit<E: de::Error>(self) -> Result<T, E> {
        self.visit_none()
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<T, D::Error> {
        d.deserialize_bytes(self)
    }

    fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<T, E> {
        ::bson::deserialize_from_slice(v)
            .map_err(|e| E::custom(format!("invalid BSON document: {e}")))
    }
}

/// Tells an `Option`'s `None` and `Some` apart from any other value, without serializing the
/// value: every call but `serialize_none`/`serialize_some` stops at once.
mod probe {
    use serde::ser::{self, Impossible, Serialize};
    use std::fmt;

    use crate::reject::{reject, reject_containers};

    /// What the value's first serializer call was.
    #[derive(Debug, PartialEq, Eq)]
    pub(super) enum Shape {
        None,
        Some,
        Other,
    }

    /// Any call other than an option's (no allocation: the probe runs once per value).
    #[derive(Debug)]
    pub(super) struct NotAnOption;

    impl fmt::Display for NotAnOption {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("not an Option")
        }
    }

    impl std::error::Error for NotAnOption {}

    impl ser::Error for NotAnOption {
        fn custom<T: fmt::Display>(_: T) -> Self {
            NotAnOption
        }
    }

    type Result<T> = std::result::Result<T, NotAnOption>;

    pub(super) struct Probe;

    impl Probe {
        fn reject(&self) -> NotAnOption {
            NotAnOption
        }
    }

    impl ser::Serializer for Probe {
        type Ok = Shape;
        type Error = NotAnOption;
        type SerializeSeq = Impossible<Shape, NotAnOption>;
        type SerializeTuple = Impossible<Shape, NotAnOption>;
        type SerializeTupleStruct = Impossible<Shape, NotAnOption>;
        type SerializeTupleVariant = Impossible<Shape, NotAnOption>;
        type SerializeMap = Impossible<Shape, NotAnOption>;
        type SerializeStruct = Impossible<Shape, NotAnOption>;
        type SerializeStructVariant = Impossible<Shape, NotAnOption>;

        fn serialize_none(self) -> Result<Shape> {
            Ok(Shape::None)
        }
        fn serialize_some<T: Serialize + ?Sized>(self, _: &T) -> Result<Shape> {
            Ok(Shape::Some)
        }
        fn serialize_newtype_struct<T: Serialize + ?Sized>(
            self,
            _: &'static str,
            v: &T,
        ) -> Result<Shape> {
            v.serialize(self)
        }
        fn serialize_newtype_variant<T: Serialize + ?Sized>(
            self,
            _: &'static str,
            _: u32,
            _: &'static str,
            _: &T,
        ) -> Result<Shape> {
            Err(self.reject())
        }
        reject!(
            serialize_bool(bool),
            serialize_i8(i8),
            serialize_i16(i16),
            serialize_i32(i32),
            serialize_i64(i64),
            serialize_u8(u8),
            serialize_u16(u16),
            serialize_u32(u32),
            serialize_u64(u64),
            serialize_f32(f32),
            serialize_f64(f64),
            serialize_char(char),
            serialize_str(&str),
            serialize_bytes(&[u8]),
            serialize_unit(),
            serialize_unit_struct(&'static str),
            serialize_unit_variant(&'static str, u32, &'static str)
        );
        reject_containers!();
    }
}
