//! The row a `tracing` event becomes: [`LogEvent`] and its parts.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::ParquetSchema;

/// An event's level, stored as a Parquet ENUM (`TRACE` .. `ERROR`).
#[derive(
    Serialize, Deserialize, ParquetSchema, Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord,
)]
#[parquet(crate = "crate")]
#[serde(rename_all = "UPPERCASE")]
pub enum LogLevel {
    /// `TRACE`.
    Trace,
    /// `DEBUG`.
    Debug,
    /// `INFO`.
    Info,
    /// `WARN`.
    Warn,
    /// `ERROR`.
    Error,
}

impl From<tracing::Level> for LogLevel {
    fn from(level: tracing::Level) -> Self {
        match level {
            tracing::Level::TRACE => LogLevel::Trace,
            tracing::Level::DEBUG => LogLevel::Debug,
            tracing::Level::INFO => LogLevel::Info,
            tracing::Level::WARN => LogLevel::Warn,
            _ => LogLevel::Error,
        }
    }
}

/// A field's value, kept typed: exactly one member is set (a `Debug` or `Display` value
/// is kept as its text in `str`).
#[derive(Serialize, Deserialize, ParquetSchema, Debug, Clone, PartialEq, Default)]
#[parquet(crate = "crate")]
pub struct FieldValue {
    /// Text (and values recorded with `?` or `%`).
    pub str: Option<String>,
    /// Signed integers.
    #[serde(rename = "i64")]
    pub int: Option<i64>,
    /// Unsigned integers.
    #[serde(rename = "u64")]
    pub uint: Option<u64>,
    /// Floating point numbers.
    #[serde(rename = "f64")]
    pub float: Option<f64>,
    /// Booleans.
    pub bool: Option<bool>,
}

/// One span of an event's span stack: its name and fields.
#[derive(Serialize, Deserialize, ParquetSchema, Debug, Clone, PartialEq, Default)]
#[parquet(crate = "crate")]
pub struct SpanRecord {
    /// The span's name.
    pub name: String,
    /// The span's fields, as recorded so far.
    pub fields: BTreeMap<String, FieldValue>,
}

/// One row of a [`TracingLayer`](super::TracingLayer)'s files: one event, or a count of
/// events dropped because the channel was full. The schema is tabled in the
/// [module docs](crate::logs#the-tracing-layer).
#[derive(Serialize, Deserialize, ParquetSchema, Debug, Clone, PartialEq)]
#[parquet(crate = "crate", name = "log_event")]
pub struct LogEvent {
    /// When the event happened, microseconds since the Unix epoch (UTC).
    #[parquet(timestamp = "micros")]
    pub ts: i64,
    /// The event's level.
    pub level: LogLevel,
    /// The event's target (by default its module path).
    pub target: String,
    /// The `message` field, if any.
    pub message: Option<String>,
    /// The module the event comes from.
    pub module_path: Option<String>,
    /// The source file.
    pub file: Option<String>,
    /// The source line.
    pub line: Option<u32>,
    /// The name of the thread the event happened on.
    pub thread_name: Option<String>,
    /// A number for the thread the event happened on: threads are numbered in the order
    /// of their first event (Rust's thread ids have no stable numeric form).
    pub thread_id: u64,
    /// The event's other fields.
    pub fields: BTreeMap<String, FieldValue>,
    /// The spans the event happened in, outermost first.
    pub spans: Vec<SpanRecord>,
    /// On rows that count dropped events (level `WARN`, target `parquet_serde::logs`):
    /// how many events were dropped since the previous such row.
    pub dropped: Option<u64>,
}
