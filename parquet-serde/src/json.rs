//! Any serde type stored as its JSON text in a `BYTE_ARRAY` JSON column: use this module with
//! serde's `with`.
//!
//! ```
//! use parquet_serde::ParquetSchema;
//! use serde::{Deserialize, Serialize};
//!
//! #[derive(Serialize, Deserialize, ParquetSchema, Debug, PartialEq)]
//! struct Event {
//!     id: u64,
//!     #[serde(with = "parquet_serde::json")]
//!     payload: serde_json::Value, // required binary payload (JSON)
//! }
//!
//! let rows = vec![Event { id: 1, payload: serde_json::json!({"a": [1, "x", null]}) }];
//! let bytes = parquet_serde::to_vec(&rows)?;
//! let back: Vec<Event> = parquet_serde::from_slice(&bytes)?;
//! assert_eq!(back, rows);
//! // The column holds the JSON text.
//! let text: Vec<parquet_serde::Value> = parquet_serde::from_slice(&bytes)?;
//! assert_eq!(
//!     text[0].get("payload"),
//!     Some(&parquet_serde::Value::String(r#"{"a":[1,"x",null]}"#.into()))
//! );
//! # Ok::<(), parquet_serde::Error>(())
//! ```
//!
//! The derive sees `with = "parquet_serde::json"` and gives the field the schema of a
//! `#[parquet(json)] String`. The whole field is one document: an `Option` is the text `null`
//! when `None`, a `Vec` one JSON array. A `String` field that already holds JSON text takes
//! `#[parquet(json)]` alone and is stored as it is, once checked to be JSON: text that is not
//! (or holds a lone surrogate escape such as `"\ud800"`) fails to write, naming the field.
//!
//! ```
//! #[derive(serde::Serialize, parquet_serde::ParquetSchema)]
//! struct Row {
//!     #[parquet(json)]
//!     doc: String,
//! }
//! let e = parquet_serde::to_vec(&[Row { doc: "{bad json".into() }]).unwrap_err();
//! assert!(e.to_string().contains("not valid JSON"), "{e}");
//! assert_eq!(e.location().column.as_deref(), Some("doc"));
//! ```

use std::fmt;
use std::marker::PhantomData;

use serde::de::{self, DeserializeOwned, Deserializer, Visitor};
use serde::ser::{Error as _, Serializer};
use serde::Serialize;

/// Serializes `value` as its JSON text (a string).
pub fn serialize<T, S>(value: &T, serializer: S) -> Result<S::Ok, S::Error>
where
    T: Serialize + ?Sized,
    S: Serializer,
{
    let text = serde_json::to_string(value).map_err(S::Error::custom)?;
    serializer.serialize_str(&text)
}

/// Deserializes a string of JSON text into `T`.
pub fn deserialize<'de, T, D>(deserializer: D) -> Result<T, D::Error>
where
    T: DeserializeOwned,
    D: Deserializer<'de>,
{
    // Parsed inside the visitor, so that the deserializer locates an error at its column.
    deserializer.deserialize_str(JsonText(PhantomData))
}

/// Parses the JSON text it is given into `T`.
struct JsonText<T>(PhantomData<T>);

impl<T: DeserializeOwned> Visitor<'_> for JsonText<T> {
    type Value = T;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("JSON text")
    }

    fn visit_str<E: de::Error>(self, text: &str) -> Result<T, E> {
        serde_json::from_str(text)
            .map_err(|e| E::custom(format!("invalid JSON in a JSON column: {e}")))
    }

    fn visit_bytes<E: de::Error>(self, text: &[u8]) -> Result<T, E> {
        serde_json::from_slice(text)
            .map_err(|e| E::custom(format!("invalid JSON in a JSON column: {e}")))
    }
}
