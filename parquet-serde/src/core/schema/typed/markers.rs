//! Marker traits: which Rust types each `#[parquet(...)]` type option fits.
//!
//! The derive asserts, at the span of the field's type, that the type implements the marker of
//! every type option written on the field, so `#[parquet(timestamp = "micros")]` on a `String`
//! is a compile error rather than a schema the serializer cannot fill. Each marker passes
//! through `Option`, pointers, sequences (to the element) and maps (to the value), the same way
//! [`FieldAttrs`](super::FieldAttrs) reach the leaf at run time.
//!
//! Derive plumbing, not API: reachable only through the hidden `parquet_serde::__private`,
//! which the derive's expansion names. A hand-written
//! [`ParquetSchema`](super::ParquetSchema) implementation that reads an option may implement
//! the matching marker there so the derive accepts the option on it.

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet, BinaryHeap, HashMap, HashSet, LinkedList, VecDeque};
use std::rc::Rc;
use std::sync::Arc;
use std::time::SystemTime;

/// Types that take `#[parquet(timestamp = "...", utc = ...)]`: `i64`, `SystemTime`, and with
/// the `chrono` feature `DateTime<Tz>` and `NaiveDateTime`.
#[diagnostic::on_unimplemented(
    message = "`#[parquet(timestamp)]` does not fit `{Self}`",
    label = "a timestamp must be an i64, SystemTime or chrono date-time",
    note = "timestamps are stored as INT64; use `i64` (with a unit) or `std::time::SystemTime`"
)]
pub trait SupportsTimestamp {}

/// Types that take `#[parquet(date)]`: `i32` (days since the epoch) and with the `chrono`
/// feature `NaiveDate`.
#[diagnostic::on_unimplemented(
    message = "`#[parquet(date)]` does not fit `{Self}`",
    label = "a date must be an i32 (days since 1970-01-01)",
    note = "DATE is stored as INT32"
)]
pub trait SupportsDate {}

/// Types that take `#[parquet(time = "millis")]`: `i32` and with the `chrono` feature
/// `NaiveTime`.
#[diagnostic::on_unimplemented(
    message = "`#[parquet(time = \"millis\")]` does not fit `{Self}`",
    label = "a TIME in milliseconds must be an i32",
    note = "TIME(MILLIS) is stored as INT32; micros and nanos use i64"
)]
pub trait SupportsTimeMillis {}

/// Types that take `#[parquet(time = "micros")]` or `time = "nanos"`: `i64` and with the
/// `chrono` feature `NaiveTime`.
#[diagnostic::on_unimplemented(
    message = "`#[parquet(time = \"micros\" | \"nanos\")]` does not fit `{Self}`",
    label = "a TIME in micro- or nanoseconds must be an i64",
    note = "TIME(MICROS|NANOS) is stored as INT64; millis use i32"
)]
pub trait SupportsTimeMicros {}

/// Types that take `#[parquet(decimal(precision = P, scale = S))]`: `i32`, `i64`, `i128`
/// (the unscaled value) and `String`/`str` (decimal text).
#[diagnostic::on_unimplemented(
    message = "`#[parquet(decimal)]` does not fit `{Self}`",
    label = "a decimal must be an i32, i64, i128 (unscaled) or a String",
    note = "the field holds the unscaled integer, or the number as text"
)]
pub trait SupportsDecimal {}

/// Types that take `#[parquet(uuid)]`: `[u8; 16]`, `u128`, `String`/`str` and with the
/// `uuid` feature `uuid::Uuid`.
#[diagnostic::on_unimplemented(
    message = "`#[parquet(uuid)]` does not fit `{Self}`",
    label = "a UUID must be [u8; 16], u128 or a String",
    note = "UUID is stored as FIXED_LEN_BYTE_ARRAY(16)"
)]
pub trait SupportsUuid {}

/// Types that take `#[parquet(json)]`: `String` and `str` (the JSON text itself). Any other
/// serde type is stored as its JSON text with `#[serde(with = "parquet_serde::json")]`.
#[diagnostic::on_unimplemented(
    message = "`#[parquet(json)]` does not fit `{Self}`",
    label = "a JSON column holds the document as a String",
    note = "for any other serde type use `#[serde(with = \"parquet_serde::json\")]`, which \
            stores its JSON text"
)]
pub trait SupportsJson {}

/// Types that take `#[parquet(bytes)]` (or `#[serde(with = "serde_bytes")]`): `Vec<u8>`,
/// `[u8]`, `[u8; N]` and with the `bytes` feature `bytes::Bytes`/`BytesMut`.
#[diagnostic::on_unimplemented(
    message = "`#[parquet(bytes)]` does not fit `{Self}`",
    label = "bytes must be a Vec<u8>, [u8] or [u8; N]",
    note = "`bytes` stores a byte sequence as one BYTE_ARRAY value"
)]
pub trait SupportsBytes {}

/// Types that take `#[parquet(bson)]`: the byte sequences that `bytes` takes but fixed
/// arrays (`Vec<u8>`, `[u8]`, with the `bytes` feature `bytes::Bytes`/`BytesMut`).
#[diagnostic::on_unimplemented(
    message = "`#[parquet(bson)]` does not fit `{Self}`",
    label = "a BSON column holds the encoded document as bytes (Vec<u8>)",
    note = "encode the document to its BSON bytes first"
)]
pub trait SupportsBson {}

/// Types that take `#[parquet(decimal(precision = P, ..))]` with `P` above 38, which only a
/// `BYTE_ARRAY` holds: `String`/`str` (decimal text) and with the `bigdecimal` feature
/// `bigdecimal::BigDecimal`.
#[diagnostic::on_unimplemented(
    message = "`#[parquet(decimal)]` with a precision above 38 does not fit `{Self}`",
    label = "only decimal text or a BigDecimal holds more than 38 digits",
    note = "a 128-bit integer holds at most 38 decimal digits"
)]
pub trait SupportsWideDecimal {}
/// Types that take `#[parquet(geometry)]` or `#[parquet(geography)]`: WKB bytes (`Vec<u8>`,
/// `[u8]`, `bytes::Bytes`) and with the `geo-types` feature the `geo_types` geometries
/// (serialized with `#[serde(with = "parquet_serde::core::geo::serde_wkb")]`).
#[diagnostic::on_unimplemented(
    message = "`#[parquet(geometry)]` / `#[parquet(geography)]` does not fit `{Self}`",
    label = "a geometry column holds WKB bytes: Vec<u8>, [u8] or a geo_types geometry",
    note = "GEOMETRY and GEOGRAPHY are BYTE_ARRAY columns of Well-Known Binary"
)]
pub trait SupportsGeo {}

/// Implements `$marker` for each listed type.
macro_rules! leaves {
    ($marker:ident: $($ty:ty),* $(,)?) => {$(impl $marker for $ty {})*};
}

leaves!(SupportsTimestamp: i64, SystemTime);
leaves!(SupportsDate: i32);
leaves!(SupportsTimeMillis: i32);
leaves!(SupportsTimeMicros: i64);
leaves!(SupportsDecimal: i32, i64, i128, String, str);
leaves!(SupportsUuid: [u8; 16], u128, String, str);
leaves!(SupportsJson: String, str);
leaves!(SupportsBytes: Vec<u8>, [u8]);
leaves!(SupportsBson: Vec<u8>, [u8]);
leaves!(SupportsWideDecimal: String, str);
leaves!(SupportsGeo: Vec<u8>, [u8]);
impl<const N: usize> SupportsBytes for [u8; N] {}

/// Passes `$marker` through the containers whose options reach their content.
macro_rules! pass_through {
    ($($marker:ident),*) => {$(
        impl<T: $marker> $marker for Option<T> {}
        impl<T: $marker + ?Sized> $marker for Box<T> {}
        impl<T: $marker + ?Sized> $marker for Rc<T> {}
        impl<T: $marker + ?Sized> $marker for Arc<T> {}
        impl<T: $marker + ?Sized> $marker for &T {}
        impl<T: $marker + ?Sized> $marker for &mut T {}
        impl<T: $marker + ToOwned + ?Sized> $marker for Cow<'_, T> {}
        impl<T: $marker> $marker for Vec<T> {}
        impl<T: $marker> $marker for [T] {}
        impl<T: $marker> $marker for VecDeque<T> {}
        impl<T: $marker> $marker for LinkedList<T> {}
        impl<T: $marker> $marker for BinaryHeap<T> {}
        impl<T: $marker> $marker for BTreeSet<T> {}
        impl<T: $marker, S> $marker for HashSet<T, S> {}
        impl<K, V: $marker> $marker for BTreeMap<K, V> {}
        impl<K, V: $marker, S> $marker for HashMap<K, V, S> {}
    )*};
}

pass_through!(
    SupportsTimestamp,
    SupportsDate,
    SupportsTimeMillis,
    SupportsTimeMicros,
    SupportsDecimal,
    SupportsUuid,
    SupportsJson,
    SupportsBytes,
    SupportsBson,
    SupportsWideDecimal,
    SupportsGeo
);

/// Arrays pass every marker but `SupportsBytes` and `SupportsUuid` to their element (those
/// two have their own `[u8; N]` / `[u8; 16]` impls, and no element type takes them but `u8`
/// arrays nested deeper).
macro_rules! arrays_pass_through {
    ($($marker:ident),*) => {$(
        impl<T: $marker, const N: usize> $marker for [T; N] {}
    )*};
}

arrays_pass_through!(
    SupportsTimestamp,
    SupportsDate,
    SupportsTimeMillis,
    SupportsTimeMicros,
    SupportsDecimal,
    SupportsWideDecimal,
    SupportsJson
);

/// Implemented by the derive for named structs, whose node is a plain group: the types a
/// field with `#[serde(flatten)]` may have (their fields are spliced into the parent).
#[diagnostic::on_unimplemented(
    message = "`#[serde(flatten)]` on `{Self}` has no Parquet schema",
    label = "only a struct with named fields that derives ParquetSchema can be flattened",
    note = "flattened maps and enums have no fixed columns; a struct with \
            `#[parquet(name)]` fields cannot be flattened either (serde matches its \
            fields by their serde names)"
)]
pub trait FlattenSchema: super::ParquetSchema {}
