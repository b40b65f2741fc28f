//! The typed layer's schema half: [`ParquetSchema`], the Parquet schema of a Rust type.
//!
//! Rows are Rust values that serde serializes; [`ParquetSchema`] gives the Parquet schema that
//! mirrors serde's data model for the type exactly, so the serializer can shred a row into
//! leaf columns by walking the schema alongside serde's calls, and the deserializer can
//! assemble rows by answering those calls from the columns. `#[derive(ParquetSchema)]`
//! (re-exported at the crate root) implements it for structs and enums; this module implements
//! it for the standard library's types.
//!
//! ```
//! use parquet_serde::core::schema::ParquetSchema;
//! use serde::Serialize;
//! use std::collections::BTreeMap;
//!
//! #[derive(Serialize, parquet_serde::ParquetSchema)]
//! struct LogRecord {
//!     #[parquet(timestamp = "micros")]
//!     ts: i64,
//!     level: Level,
//!     message: String,
//!     user_id: Option<u64>,
//!     tags: Vec<String>,
//!     attrs: BTreeMap<String, String>,
//! }
//!
//! #[derive(Serialize, parquet_serde::ParquetSchema)]
//! #[serde(rename_all = "lowercase")]
//! enum Level { Debug, Info, Warn, Error }
//!
//! let root = LogRecord::parquet_root();
//! assert_eq!(root.name, "LogRecord");
//! ```
//!
//! That root is, in the message-type text form:
//!
//! ```text
//! message LogRecord {
//!   required int64 ts (TIMESTAMP(MICROS,true));
//!   required binary level (STRING);
//!   required binary message (STRING);
//!   optional int64 user_id (INTEGER(64,false));
//!   required group tags (LIST) {
//!     repeated group list {
//!       required binary element (STRING);
//!     }
//!   }
//!   required group attrs (MAP) {
//!     repeated group key_value {
//!       required binary key (STRING);
//!       required binary value (STRING);
//!     }
//!   }
//! }
//! ```
//!
//! # The type table
//!
//! Every node also carries the legacy converted type that LogicalTypes.md pairs with its
//! logical type (`UTF8`, `INT_8` .. `UINT_64`, `DECIMAL`, `DATE`, `TIME_MILLIS`/`MICROS`,
//! `TIMESTAMP_MILLIS`/`MICROS`, `ENUM`, `JSON`, `LIST`, `MAP`, and `INTERVAL`, which has
//! no logical type; none for nanosecond units,
//! `UUID` and `FLOAT16`, nor for `BSON`, whose converted type makes DuckDB 2.0 refuse the file). All nodes are `required` unless the table says otherwise.
//!
//! | Rust type | Parquet node | `#[parquet]` options it takes |
//! |---|---|---|
//! | `bool` | `BOOLEAN` | |
//! | `i8`, `i16`, `i32` | `INT32` `INTEGER(8/16/32, true)` | `i32`: `date`, `time = "millis"`, `decimal` |
//! | `u8`, `u16`, `u32` | `INT32` `INTEGER(8/16/32, false)` | |
//! | `i64`, `isize` | `INT64` `INTEGER(64, true)` | `i64`: `timestamp`, `utc`, `time = "micros"/"nanos"`, `decimal` |
//! | `u64`, `usize` | `INT64` `INTEGER(64, false)` | |
//! | `i128` | `FIXED_LEN_BYTE_ARRAY(16)` `DECIMAL(38, 0)` | `decimal` |
//! | `u128` | `FIXED_LEN_BYTE_ARRAY(16)` `DECIMAL(38, 0)` (1) | `uuid` |
//! | `f32`, `f64` | `FLOAT`, `DOUBLE` | |
//! | `NonZeroI8` .. `NonZeroUsize` | as the integer | |
//! | `char`, `str`, `String`, `Path`, `PathBuf` | `BYTE_ARRAY` `STRING` | `str`/`String`: `json`, `uuid` (2), `decimal` (3) |
//! | `Vec<u8>`, `[u8]`, `Box<[u8]>`, `&[u8]` | a `LIST` of `INT32 INTEGER(8, false)` (4) | `bytes`: one `BYTE_ARRAY` |
//! | `[u8; N]` | `FIXED_LEN_BYTE_ARRAY(N)` (5) | `uuid` (`N` = 16) |
//! | `bytes::Bytes`, `BytesMut` (feature `bytes`) | `BYTE_ARRAY` | |
//! | `Option<T>` | `T`'s node, `optional` (6) | those of `T` |
//! | `Box`, `Rc`, `Arc`, `&`, `&mut`, `Cow`, `Cell`, `RefCell`, `Mutex`, `RwLock`, `Wrapping`, `Reverse` of `T` | `T`'s node | those of `T` |
//! | `Vec`, `VecDeque`, `LinkedList`, `BinaryHeap`, `BTreeSet`, `HashSet` of `T`; `[T]`; `[T; N]` | 3-level `LIST` (7) | those of `T`, given to the element |
//! | `BTreeMap<K, V>`, `HashMap<K, V>` | `MAP` (8) | those of `V`, given to the value |
//! | tuples `(T0,)` .. `(T0, .., T15)` | a group with fields `_0`, `_1`, .. | |
//! | `()`, `PhantomData<T>`, unit structs | `BOOLEAN`, `true` when present (9) | |
//! | `std::time::SystemTime` | `INT64` `TIMESTAMP(MICROS, true)` (10) | `timestamp`, `utc` |
//! | `std::time::Duration` | group `{ secs: INT64 INTEGER(64,false); nanos: INT32 INTEGER(32,false) }` (serde's shape) | |
//! | `chrono::DateTime<Tz>` (feature `chrono`) | `INT64` `TIMESTAMP(MICROS, true)` (11) | `timestamp`, `utc` |
//! | `chrono::NaiveDateTime` | `INT64` `TIMESTAMP(MICROS, false)` | `timestamp`, `utc` |
//! | `chrono::NaiveDate` | `INT32` `DATE` | |
//! | `chrono::NaiveTime` | `INT64` `TIME(MICROS, false)` | `time` (`"millis"` gives `INT32`), `utc` |
//! | `uuid::Uuid` (feature `uuid`) | `FIXED_LEN_BYTE_ARRAY(16)` `UUID` | |
//! | `Vec<u8>`, `[u8]`, `bytes::Bytes` holding WKB, with `geometry` / `geography` | `BYTE_ARRAY` `GEOMETRY(crs)` / `GEOGRAPHY(crs, algorithm)` | `geometry`, `geography` |
//! | `geo_types::Geometry<f64>`, `Point`, `LineString`, `Polygon`, `MultiPoint`, `MultiLineString`, `MultiPolygon`, `GeometryCollection` (feature `geo-types`), with `#[serde(with = "parquet_serde::core::geo::serde_wkb")]` | `BYTE_ARRAY` `GEOMETRY` (WKB) | `geometry`, `geography` |
//! | `parquet_serde::Interval` | `FIXED_LEN_BYTE_ARRAY(12)` converted type `INTERVAL` (months, days, millis; little-endian `u32`s) | |
//! | `half::f16` (feature `half`) | `FIXED_LEN_BYTE_ARRAY(2)` `FLOAT16` (statistics ordered as numbers) | |
//! | `rust_decimal::Decimal` (feature `rust_decimal`) | `DECIMAL(38, 18)`: `INT32` up to 9 digits, `INT64` up to 18, else `FIXED_LEN_BYTE_ARRAY` (13) | `decimal` (precision 1 to 38; the type holds 28 digits) |
//! | `bigdecimal::BigDecimal` (feature `bigdecimal`) | as `rust_decimal::Decimal`; above 38 digits `BYTE_ARRAY` (13) | `decimal` (precision 1 to 1000) |
//! | `time::OffsetDateTime` (feature `time`) | `INT64` `TIMESTAMP(MICROS, true)` (14) | `timestamp`, `utc` |
//! | `time::PrimitiveDateTime` | `INT64` `TIMESTAMP(MICROS, false)` | `timestamp`, `utc` |
//! | `time::Date` | `INT32` `DATE` | |
//! | `time::Time` | `INT64` `TIME(MICROS, false)` | `time` (`"millis"` gives `INT32`), `utc` |
//! | `jiff::Timestamp` (feature `jiff`) | `INT64` `TIMESTAMP(MICROS, true)` | `timestamp`, `utc` |
//! | `jiff::Zoned` | `INT64` `TIMESTAMP(MICROS, true)`: its instant (15) | `timestamp`, `utc` |
//! | `jiff::civil::DateTime` | `INT64` `TIMESTAMP(MICROS, false)` | `timestamp`, `utc` |
//! | `jiff::civil::Date` | `INT32` `DATE` | |
//! | `jiff::civil::Time` | `INT64` `TIME(MICROS, false)` | `time` (`"millis"` gives `INT32`), `utc` |
//! | any serde type with `#[serde(with = "parquet_serde::json")]` (`serde_json::Value`, a struct, ..) | `BYTE_ARRAY` `JSON` holding its JSON text (16) | |
//! | derived struct with named fields | a group of its fields, in declaration order | |
//! | derived tuple struct | a group with fields `_0`, `_1`, .. | |
//! | derived newtype struct (or `#[serde(transparent)]`) | the inner type's node | those of the inner type |
//! | derived enum of unit variants only | `BYTE_ARRAY` `STRING` holding the serde variant name (`ENUM` with `#[parquet(enum)]` on the enum); reads from either | |
//! | derived enum with data | a group with one `optional` field per variant (12) | |
//!
//! 1. The column is `DECIMAL(38, 0)`: the serializer rejects `i128` and `u128` values of more
//!    than 38 digits (so every `u128` above 10^38 - 1, which includes all above `i128::MAX`).
//! 2. A `uuid` string is the hyphenated text form; the column holds its 16 bytes big-endian
//!    (`u128` likewise holds the big-endian bytes of the number).
//! 3. A `decimal` string is the number as text with at most `scale` digits after the point;
//!    the column is a `FIXED_LEN_BYTE_ARRAY` of the least length for the precision. On
//!    integers the field holds the unscaled value: `i32` is stored as `INT32`, `i64` as
//!    `INT64`, `i128` as a fixed array of the least length, each widened to the next when the
//!    precision needs it (`INT32` holds up to 9 digits, `INT64` up to 18).
//! 4. serde serializes `Vec<u8>` as a sequence of `u8`, hence the list. With
//!    `#[parquet(bytes)]` or `#[serde(with = "serde_bytes")]` it is one `BYTE_ARRAY` value;
//!    the serializer accepts both `serialize_bytes` and a sequence of `u8` there.
//! 5. serde serializes `[u8; N]` as a tuple of `N` `u8` (or as bytes under `serde_bytes`); the
//!    serializer collects them into one value. `[u8; 0]` is a `BYTE_ARRAY` (a fixed array
//!    needs a positive length).
//! 6. `Option<Option<T>>` has no schema (one null cannot tell `None` from `Some(None)`); it
//!    fails the build when its schema is instantiated. So does an `Option` map key.
//! 7. `<name> (LIST) { repeated group list { <element> } }`, the element named `element`,
//!    `required` unless `T` is an `Option`. serde serializes arrays as tuples and the others
//!    as sequences; both arrive at a `LIST`.
//! 8. `<name> (MAP) { repeated group key_value { required <key>; <value> } }`.
//! 9. Parquet has no column without values, and a group needs at least one field. Unit
//!    values take a `BOOLEAN` that is `true` when present, so `Option<()>` still tells `None`
//!    (null) from `Some(())` (`true`).
//! 10. serde serializes `SystemTime` as a struct `{ secs_since_epoch, nanos_since_epoch }`; the
//!     serializer turns it into the column's unit.
//! 11. chrono serializes as text (RFC 3339 / ISO 8601); the serializer parses it into the
//!     column's integer and the deserializer formats it back. `DateTime<Tz>` keeps the instant,
//!     not the offset.
//! 12. Variant fields are named by their serde names. A unit variant is an `optional BOOLEAN`,
//!     a newtype variant the inner type's node, a tuple variant a group `_0`, `_1`, .., a struct
//!     variant a group of its fields; each made `optional`. Exactly one of them is set in each
//!     row. A newtype variant holding an `Option` fails the build (use a struct variant).
//!     Only externally tagged enums (serde's default) are supported; `tag`, `content` and
//!     `untagged` are compile errors.
//! 13. `Decimal` and `BigDecimal` serialize as text: the serializer writes the exact unscaled
//!     value and fails, naming the field, when the value needs more digits than the precision or
//!     has non-zero digits beyond the scale (trailing zeros are fine). Reading gives the column's
//!     scale. `rust_decimal::Decimal` holds at most 28 digits: a wider column reads into it where
//!     the value fits, else the read fails naming the field.
//! 14. `time` serializes tuples of integers to this crate's (not human-readable) serializer; the
//!     leaf takes them and gives them back. `OffsetDateTime` keeps the instant, not the offset
//!     (it reads back in UTC).
//! 15. jiff serializes as text. A `Zoned` is written as its instant but cannot be read back (jiff
//!     needs the zone name, which the column does not hold): read a `jiff::Timestamp`. jiff reads
//!     years 0000 to 9999 only from this text (it wants six-digit signed years outside them).
//! 16. The whole field is one document (an `Option` is `null` when `None`); the derive gives the
//!     field a `#[parquet(json)] String`'s node. A `String` that already holds JSON text takes
//!     `#[parquet(json)]` alone and is stored as it is.
//!
//! # Field options: `#[parquet(...)]`
//!
//! | Option | Meaning |
//! |---|---|
//! | `timestamp = "millis" \| "micros" \| "nanos"` | `INT64` TIMESTAMP in that unit |
//! | `utc = true \| false` | `isAdjustedToUTC` of a TIMESTAMP or TIME (integers default to `true`) |
//! | `date` | `INT32` DATE (days since 1970-01-01) |
//! | `time = "millis" \| "micros" \| "nanos"` | TIME of day: `INT32` millis on an `i32`, `INT64` micros/nanos on an `i64` |
//! | `decimal(precision = P, scale = S)` | DECIMAL with `1 <= P <= 38`, `0 <= S <= P` (up to 1000 digits on `BigDecimal` and decimal text, stored as `BYTE_ARRAY`); without it `Decimal` / `BigDecimal` are `DECIMAL(38, 18)` |
//! | `uuid` | `FIXED_LEN_BYTE_ARRAY(16)` UUID |
//! | `json` | `BYTE_ARRAY` JSON |
//! | `variant` | any serde type as an optional VARIANT group (`metadata`, `value`), encoded through [`to_variant`](crate::variant::to_variant) and read back through [`from_variant`](crate::variant::from_variant) |
//! | `variant(shred = "Type")` | the same, shredded: `typed_value` columns from `Type`'s schema (struct fields and list elements as groups of `value` and `typed_value`; unsigned integers as the next wider signed type; other shapes stay in `value`), written by VariantShredding.md's rules |
//! | `bytes` | `BYTE_ARRAY` for a byte sequence (also implied by `#[serde(with = "serde_bytes")]`) |
//! | `geometry`, `geometry(crs = "...")` | `BYTE_ARRAY` GEOMETRY of WKB values (planar edges; CRS default `OGC:CRS84`) |
//! | `geography(crs = "...", algorithm = "spherical" \| "vincenty" \| "thomas" \| "andoyer" \| "karney")` | `BYTE_ARRAY` GEOGRAPHY of WKB values |
//! | `bson` | `BYTE_ARRAY` BSON for a byte sequence holding an encoded BSON document (`Vec<u8>`, `[u8]`, `bytes::Bytes`) |
//! | `name = "..."` | the column name (else serde's name: `rename`, `rename_all`) |
//! | `field_id = N` | the field id of the node |
//! | `as_type = "Type"` | take the schema of `Type` instead of the field's type: needed with `#[serde(with)]` or `serialize_with`, which change what serde writes |
//! | `encoding = "plain" \| "rle" \| "delta_binary_packed" \| "delta_length_byte_array" \| "delta_byte_array" \| "byte_stream_split" \| "alp"` | value encoding of the column(s) below the field (the names `Encoding` parses: any case, `-` for `_`) |
//! | `compression = "uncompressed" \| "snappy" \| "gzip" \| "gzip(L)" \| "brotli" \| "brotli(L)" \| "zstd" \| "zstd(L)" \| "lz4_raw"` | codec of the column(s) below the field (default levels: gzip 6, brotli 1, zstd 3); the forms `Compression` parses: also `zstd:L`, `none`, `lz4`, any case |
//! | `dictionary = true \| false` | dictionary encoding of the column(s) below the field |
//! | `bloom_filter`, `bloom_filter(ndv = N, fpp = F)` | a Bloom filter on the column(s) below the field: `N` expected distinct values per column chunk (default: counted per chunk), false positive probability `0 < F < 1` (default 0.01) |
//!
//! The type options (`timestamp` .. `bson`) are exclusive of each other (`utc` goes with
//! `timestamp` or `time`), and the field's type must fit them: the derive checks this with the
//! derive's marker traits (`SupportsTimestamp`, ..., plumbing of the derive, not API), so
//! `#[parquet(timestamp = "micros")] s: String` is a compile
//! error at `String`. Options reach through `Option`, pointers, sequences and map values, so
//! `#[parquet(timestamp = "millis")] t: Option<Vec<i64>>` is a list of timestamps. They do not
//! reach into derived types: for a newtype such as `struct Millis(i64)`, put the option on its
//! inner field (`struct Millis(#[parquet(timestamp = "millis")] i64)`); the field that holds
//! the newtype still sets its column options and field id.
//!
//! On the container, `#[parquet(name = "...")]` names the message (else serde's `rename`, else
//! the type's name), `#[parquet(crate = "path")]` names this crate when it is re-exported,
//! `#[parquet(bound = "T: Trait, ..")]` replaces the inferred bounds, `#[parquet(enum)]`
//! on an enum of unit variants annotates its column `ENUM` rather than `STRING` (pyarrow, and
//! so pandas, read an `ENUM` column as binary; polars, DuckDB and Spark read both as text),
//! and `#[parquet(assemble)]` writes the struct's `Deserialize` (below).
//!
//! # `#[parquet(assemble)]`: the derive writes `Deserialize` too
//!
//! `#[parquet(assemble)]` on a struct with named fields (no type or const parameters;
//! lifetimes are allowed) makes the derive also write the struct's `Deserialize`, in place of
//! `#[derive(Deserialize)]` (deriving both is a compile error: two impls). The impl is serde's
//! derive, item for item, for the attributes it accepts: `rename`, `rename_all`, `alias`,
//! `default` (on fields and on the struct, with or without a path), `skip`,
//! `skip_deserializing`, `with` / `deserialize_with` (on structs without lifetimes),
//! `borrow` (except on a `Cow<str>` or `Cow<[u8]>` field), `deny_unknown_fields`; it reads
//! JSON or any other format as serde's would, with the same errors. Attributes it does not
//! mirror (`flatten`, `from`, `try_from`, `transparent`, `tag`, `untagged`, `remote`,
//! `bound`, ...) are compile errors at the attribute. Every lifetime of the struct is
//! borrowed from the deserializer (`'de: 'a`), as serde's `borrow` would make it; a
//! `Cow<'a, str>` field reads owned, as serde's derive reads it without `borrow` (borrow the
//! text as `&'a str` instead).
//!
//! What it buys: every read of the type (`from_slice`, [`Reader`](crate::Reader), datasets,
//! [`Batch::rows`](crate::Batch::rows), nested inside other types) reads each field straight
//! from its column where the value is certain: a non-null `INT64` into an `i64`, a `DOUBLE`
//! into an `f64`, UTF-8 text into a `String` (or, for rows that borrow from a
//! [`Batch`](crate::Batch), into a `&str`), a null into an `Option`; a `Vec` of those from
//! a LIST of leaves, and a `BTreeMap` of text to text (or to `i64`) from a MAP of leaves,
//! element by element; an `Option` or a `Vec` of another `#[parquet(assemble)]` struct,
//! each struct by its own fast path; when the file has every field in the struct's order,
//! one after the other with no key per field. Anything else (an enum, a struct of serde's
//! derive, other lists and maps, a conversion by a logical type, a value the field may
//! reject, a null into a non-`Option`) goes to the type's own `Deserialize`, through the
//! same deserializer the serde path uses, at the same position: values, conversions,
//! levels, errors and their locations are the serde path's by construction.
//! Fields go to that path by index (one jump), not by name. The reads that collect rows
//! (`from_slice` and the other whole reads, [`Reader::read_all_par`](crate::Reader::read_all_par),
//! [`Batch::rows`](crate::Batch::rows) and [`Batch::rows_in`](crate::Batch::rows_in)) hand the
//! type a run of rows per call (up to a row group, or 256 rows while a pipelined read hands
//! them on), so the per-row way into the type is paid once per run (a `Reader` iterated row
//! by row still asks one row at a time); an error still names its row.
//!
//! Why an opt-in that writes the impl, not a fast path for every derived type: nothing at
//! compile time proves that a type's `Deserialize` is serde's derive with the attributes
//! this derive sees (it may be written by hand or by another macro), and the readers take
//! any `T: Deserialize`, so they cannot ask the type for anything else. Writing the impl
//! from the same parse makes the fast path the meaning of a row by construction.
//!
//! ```
//! use parquet_serde::ParquetSchema;
//! use serde::Serialize;
//!
//! #[derive(Debug, PartialEq, Serialize, ParquetSchema)]
//! #[parquet(assemble)]
//! struct Line {
//!     #[serde(alias = "time")]
//!     ts: i64,
//!     message: String,
//!     #[serde(default)]
//!     user: Option<String>,
//! }
//!
//! let rows = vec![Line { ts: 1, message: "up".into(), user: None }];
//! let bytes = parquet_serde::to_vec(&rows).unwrap();
//! assert_eq!(parquet_serde::from_slice::<Line>(&bytes).unwrap(), rows);
//! // The written Deserialize is serde's for other formats too.
//! let line: Line = serde_json::from_str(r#"{"time": 2, "message": "x"}"#).unwrap();
//! assert_eq!(line, Line { ts: 2, message: "x".into(), user: None });
//!
//! // Rows that borrow their text from a batch of decoded pages.
//! #[derive(Debug, Serialize, ParquetSchema)]
//! #[parquet(assemble)]
//! struct LineRef<'a> {
//!     ts: i64,
//!     message: &'a str,
//!     user: Option<&'a str>,
//! }
//!
//! let reader = parquet_serde::Reader::<_, LineRef<'static>>::new(&bytes[..]).unwrap();
//! for batch in reader.batches() {
//!     let batch = batch.unwrap();
//!     let rows: Vec<LineRef<'_>> = batch.rows().unwrap();
//!     assert_eq!((rows[0].ts, rows[0].message, rows[0].user), (1, "up", None));
//! }
//! ```
//!
//! # serde's attributes
//!
//! The derive reads serde's own attributes so that the schema matches what serde writes:
//! `rename` and `rename_all` (all eight cases, on structs, enums and struct variants, and
//! `rename_all_fields`), `skip` and `skip_serializing` (the field is not in the schema),
//! `skip_serializing_if` (the field is made `optional`: the serializer writes a null when serde
//! skips it), `flatten` (the fields of the flattened struct are spliced in; only derived
//! structs with named fields), `transparent` (the one field's node), `into = "Type"` (the
//! schema of `Type`), `with = "serde_bytes"` (as `bytes`). Any other `with` or
//! `serialize_with` needs `#[parquet(as_type = "...")]`. `default`, `alias`, `borrow`,
//! `deny_unknown_fields` and the deserialize-only attributes do not change the schema.
//!
//! # What the serializer and deserializer see
//!
//! The schema is the contract between serde's calls and the columns:
//!
//! - A derived struct arrives as `serialize_struct` with its fields in schema order (a field
//!   skipped by `skip_serializing_if` arrives as `skip_field`: write null). A struct with a
//!   `flatten` field arrives as `serialize_map` whose keys are the (spliced) field names in
//!   schema order, skipped ones left out: match them by name.
//! - Tuples and tuple structs arrive as `serialize_tuple` / `serialize_tuple_struct`, newtype
//!   structs as `serialize_newtype_struct` (pass through to the same node).
//! - A `LIST` takes `serialize_seq` or `serialize_tuple`; a `MAP` takes `serialize_map`.
//! - An `optional` node takes `serialize_none` (null at this level) or `serialize_some`.
//! - An enum with data arrives as `serialize_*_variant(name, index, variant, ..)`: choose the
//!   field named `variant` (the `index` counts skipped variants, so do not use it) and write
//!   null to the others. A unit-only enum arrives as `serialize_unit_variant` and its leaf
//!   takes the variant name.
//! - Leaves take the calls the table above lists for them, converting to the physical type
//!   and checking ranges (an `INT32 INTEGER(8, false)` takes only values in `0..=255`).
//!
//! Column options written on fields (`#[parquet(encoding, compression, dictionary,
//! bloom_filter)]`) reach the writer through the derive's own (hidden) trait methods; the
//! column options a program sets go in `WriterOptions::column`.

#[doc(hidden)]
pub mod __private;
mod attrs;
pub(crate) mod direct;
#[cfg(feature = "bytes")]
mod impls_bytes;
#[cfg(feature = "chrono")]
mod impls_chrono;
#[cfg(any(feature = "rust_decimal", feature = "bigdecimal"))]
mod impls_decimal;
#[cfg(feature = "geo-types")]
mod impls_geo;
#[cfg(feature = "half")]
mod impls_half;
mod impls_interval;
#[cfg(feature = "jiff")]
mod impls_jiff;
mod impls_std;
#[cfg(feature = "time")]
mod impls_time;
#[cfg(feature = "uuid")]
mod impls_uuid;
mod impls_variant;
mod markers;
mod nodes;
mod variant_nodes;

/// Derive plumbing (the writer asks a row type for the column options its fields carry): not
/// API, reachable for the derive's expansion only.
#[doc(hidden)]
pub use attrs::ColumnOptions;
pub use attrs::GeoSpec;
pub use attrs::{DecimalSpec, FieldAttrs};
pub(crate) use variant_nodes::{shred_variant_at, variant as variant_node};

use crate::core::schema::SchemaNode;

/// The Parquet schema of a Rust type, as serde serializes it.
///
/// Implemented for the standard library's types (see the [module docs](self) for the table)
/// and derived for structs and enums with `#[derive(ParquetSchema)]`. Implementations build
/// the node of a *field* of the type; [`parquet_root`](Self::parquet_root) turns that into the
/// message of a row type.
///
/// ```
/// use parquet_serde::core::schema::PhysicalType as Type;
/// use parquet_serde::core::schema::{NodeKind, ParquetSchema, Repetition};
/// use parquet_serde::core::schema::typed::FieldAttrs;
///
/// let node = <Option<Vec<String>>>::parquet_node("tags", &FieldAttrs::new());
/// assert_eq!(node.repetition, Repetition::Optional);
/// let NodeKind::Group { fields } = &node.kind else { unreachable!() };
/// assert_eq!(fields[0].name, "list");
/// assert_eq!(fields[0].repetition, Repetition::Repeated);
///
/// // A row type that is not a struct is wrapped in a message with one field, `value`.
/// let root = u32::parquet_root();
/// let NodeKind::Group { fields } = &root.kind else { unreachable!() };
/// assert_eq!(fields[0].name, "value");
/// assert!(matches!(fields[0].kind, NodeKind::Primitive { physical_type: Type::Int32, .. }));
/// ```
///
/// A hand-written implementation for a type with a custom `Serialize`:
///
/// ```
/// use parquet_serde::core::schema::{LogicalType, PhysicalType as Type};
/// use parquet_serde::core::schema::{NodeKind, ParquetSchema, Repetition, SchemaNode};
/// use parquet_serde::core::schema::typed::FieldAttrs;
///
/// /// Serializes as its text form.
/// struct Email(String);
///
/// impl ParquetSchema for Email {
///     fn parquet_node(name: &str, attrs: &FieldAttrs) -> SchemaNode {
///         String::parquet_node(name, attrs)
///     }
/// }
///
/// let node = Email::parquet_node("email", &FieldAttrs::new());
/// assert_eq!(node.logical_type, Some(LogicalType::String));
/// ```
pub trait ParquetSchema {
    /// The message name of this type as a row type (the derive uses the type's name, or its
    /// `#[parquet(name)]` / `#[serde(rename)]`).
    const PARQUET_MESSAGE_NAME: &'static str = "schema";

    /// The node of a field of this type named `name`, with the field's options `attrs`.
    ///
    /// The node is `required` unless the type itself is optional (`Option<T>`); the caller
    /// sets the field id and any repetition the field adds.
    fn parquet_node(name: &str, attrs: &FieldAttrs) -> SchemaNode;

    /// The message (root group, `required`) for rows of this type.
    ///
    /// A type whose node is a plain group (a struct, a tuple, an enum with data) is the
    /// message itself, renamed [`PARQUET_MESSAGE_NAME`](Self::PARQUET_MESSAGE_NAME). Any other
    /// node (a leaf, a LIST, a MAP, an optional node) becomes the message's single field,
    /// named `value`.
    fn parquet_root() -> SchemaNode {
        let node = Self::parquet_node(Self::PARQUET_MESSAGE_NAME, &FieldAttrs::new());
        nodes::root(Self::PARQUET_MESSAGE_NAME, node).0
    }

    /// The column options (`encoding`, `compression`, `dictionary`) written on fields of this
    /// row type and of the types below it, each with the path of its node under
    /// [`parquet_root`](Self::parquet_root), parents before children; the writer resolves
    /// them for each leaf. Derive plumbing, not API: the derive implements it.
    #[doc(hidden)]
    fn parquet_column_options() -> Vec<ColumnOptions> {
        let node = Self::parquet_node(Self::PARQUET_MESSAGE_NAME, &FieldAttrs::new());
        let mut path = Vec::new();
        if !nodes::is_plain_group(&node) {
            path.push("value".to_owned());
        }
        let mut out = Vec::new();
        Self::parquet_collect_column_options(&mut path, &mut out);
        out
    }

    /// Appends the column options found below a node of this type at `path` (which is left
    /// as it was found). Types without fields of their own have none: the default. Derive
    /// plumbing, not API.
    #[doc(hidden)]
    fn parquet_collect_column_options(path: &mut Vec<String>, out: &mut Vec<ColumnOptions>) {
        let _ = (path, out);
    }

    /// Whether this type is an `Option` (for the `Option<Option<T>>` check). Not public API.
    #[doc(hidden)]
    const __PARQUET_IS_OPTION: bool = false;

    /// Whether this type is `u8` (for `Vec<u8>` as bytes and `[u8; N]`). Not public API.
    #[doc(hidden)]
    const __PARQUET_IS_BYTE: bool = false;

    /// The offsets and type names of the fields the direct writer writes (which the row's
    /// `Serialize` must hand to `serialize_field` for a row to go that way); `None` when the
    /// type has no direct writer. Not public API.
    #[doc(hidden)]
    fn __parquet_direct_layout() -> Option<direct::Layout> {
        None
    }

    /// Writes the row's fields to `sink`, in order. Not public API.
    #[doc(hidden)]
    fn __parquet_direct_put<S: direct::DirectSink>(
        &self,
        sink: &mut S,
    ) -> crate::error::Result<()> {
        let _ = sink;
        Err(crate::error::Error::internal(
            "a type without a direct writer was written directly",
        ))
    }
}
