//! Dynamic records: rows read into a [`Value`] tree, with no Rust type needed (by the same
//! deserializer as typed rows: [`from_slice::<Value>`](crate::from_slice), [`Reader`](crate::Reader)),
//! and their JSON form (the mapping of `parquet-serde cat`).
//!
//! Writing without a Rust type: [`ValueWriter`] writes `Value` rows, JSON
//! text or `serde_json::Value`s against a [`Schema`](crate::core::schema::Schema) given at
//! run time, which [`SchemaInferrer`] can infer from sample rows (the
//! `parquet-serde from-jsonl` command does exactly this):
//!
//! ```
//! use parquet_serde::record::{InferOptions, SchemaInferrer, Value, ValueWriter};
//! use parquet_serde::WriterOptions;
//!
//! let lines = [
//!     r#"{"ts": "2026-11-24T10:00:00Z", "level": "info", "latency": 12, "http": {"status": 200}}"#,
//!     r#"{"ts": "2026-11-24T10:00:01Z", "level": "warn", "latency": 3.5, "tags": ["slow"]}"#,
//! ];
//! // 1. Infer a schema from a sample (here: every line).
//! let mut inferrer = SchemaInferrer::new(InferOptions::default().timestamps(true));
//! for line in &lines {
//!     inferrer.add_json_slice(line.as_bytes())?;
//! }
//! let schema = inferrer.schema()?;
//! // 2. Write the lines against it, shredded straight from the JSON parser.
//! let mut writer = ValueWriter::new(Vec::new(), schema, WriterOptions::default())?;
//! for line in &lines {
//!     writer.write_json_slice(line.as_bytes())?;
//! }
//! let bytes = writer.into_inner()?;
//! // 3. Read back: integers and fractions widened to DOUBLE, absent keys are nulls.
//! let rows: Vec<Value> = parquet_serde::from_slice(&bytes)?;
//! assert_eq!(rows[0].get("latency"), Some(&Value::Double(12.0)));
//! assert_eq!(rows[0].get("tags"), Some(&Value::Null));
//! assert_eq!(rows[1].get("http"), Some(&Value::Null));
//! # Ok::<(), parquet_serde::Error>(())
//! ```

mod infer;
mod write;

pub use crate::value::Value;
pub use infer::{InferOptions, SchemaInferrer};
pub use write::ValueWriter;
