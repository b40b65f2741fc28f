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
//!     #[serde(with = "parquet_serde::bson::option")]
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
//! `#[parquet(bson)] Vec<u8>` (`Option<Vec<u8>>` for `bson::option`). A value that is not a
//! document (a number, a list) fails to write with an error naming the field; bytes that are
//! not a valid document fail to read, naming the column. Bytes written to a BSON column by
//! any other way (`#[parquet(bson)] Vec<u8>`, a `Value`) are checked to be one document
//! (length prefix, elements, terminator) and fail to write otherwise.

use std::fmt;
use std::marker::PhantomData;

use serde::de::{self, DeserializeOwned, Deserializer, Visitor};
use serde::ser::{Error as _, Serializer};
use serde::Serialize;

/// Serializes `value` as the bytes of a BSON document.
pub fn serialize<T, S>(value: &T, serializer: S) -> Result<S::Ok, S::Error>
where
    T: Serialize,
    S: Serializer,
{
    let bytes = ::bson::serialize_to_vec(value)
        .map_err(|e| S::Error::custom(format!("not a BSON document: {e}")))?;
    serializer.serialize_bytes(&bytes)
}

/// Deserializes the bytes of a BSON document into `T`.
pub fn deserialize<'de, T, D>(deserializer: D) -> Result<T, D::Error>
where
    T: DeserializeOwned,
    D: Deserializer<'de>,
{
    deserializer.deserialize_bytes(Document(PhantomData))
}

/// Reads the BSON document it is given into `T`.
struct Document<T>(PhantomData<T>);

impl<T: DeserializeOwned> Visitor<'_> for Document<T> {
    type Value = T;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the bytes of a BSON document")
    }

    fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<T, E> {
        ::bson::deserialize_from_slice(v)
            .map_err(|e| E::custom(format!("invalid BSON document: {e}")))
    }
}

/// The same for `Option`s: `None` is a null, `Some` a document.
pub mod option {
    use super::*;

    /// Serializes `Some(value)` as a BSON document's bytes, `None` as a null.
    pub fn serialize<T, S>(value: &Option<T>, serializer: S) -> Result<S::Ok, S::Error>
    where
        T: Serialize,
        S: Serializer,
    {
        match value {
            None => serializer.serialize_none(),
            Some(v) => serializer.serialize_some(&Bytes(v)),
        }
    }

    /// Deserializes a null as `None`, a BSON document's bytes as `Some`.
    pub fn deserialize<'de, T, D>(deserializer: D) -> Result<Option<T>, D::Error>
    where
        T: DeserializeOwned,
        D: Deserializer<'de>,
    {
        deserializer.deserialize_option(MaybeDocument(PhantomData))
    }

    /// A value serialized as its document's bytes.
    struct Bytes<'a, T>(&'a T);

    impl<T: Serialize> Serialize for Bytes<'_, T> {
        fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            super::serialize(self.0, serializer)
        }
    }

    struct MaybeDocument<T>(PhantomData<T>);

    impl<'de, T: DeserializeOwned> Visitor<'de> for MaybeDocument<T> {
        type Value = Option<T>;

        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("the bytes of a BSON document, or a null")
        }

        fn visit_none<E: de::Error>(self) -> Result<Option<T>, E> {
            Ok(None)
        }

        fn visit_unit<E: de::Error>(self) -> Result<Option<T>, E> {
            Ok(None)
        }

        fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Option<T>, D::Error> {
            super::deserialize(d).map(Some)
        }
    }
}
