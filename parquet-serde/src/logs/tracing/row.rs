//! The row a `tracing` event becomes: [`LogEvent`] and its parts.

use serde::{Deserialize, Serialize};

use crate::variant::Variant;
use crate::ParquetSchema;

/// An event's level, stored as a Parquet STRING (`TRACE` .. `ERROR`), which every reader
/// reads as text.
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

/// One span of an event's span stack: its name and fields.
#[derive(Serialize, Deserialize, ParquetSchema, Debug, Clone, PartialEq, Default)]
#[parquet(crate = "crate")]
pub struct SpanRecord {
    /// The span's name.
    pub name: String,
    /// The span's fields, as recorded so far: a VARIANT object (values typed as in
    /// [`LogEvent::fields`]).
    pub fields: Variant,
}

/// One row of a [`TracingLayer`](super::TracingLayer)'s files: one event, or a count of
/// events dropped because the writer thread was behind. The schema is tabled in the
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
    /// The event's other fields: a VARIANT object by field name. Integers are the
    /// narrowest Variant int (`i64` and `u64` up to `i64::MAX`); integers beyond (a `u64`
    /// above `i64::MAX`, `i128`, `u128`) are `decimal16` with scale 0, exact (beyond 38
    /// digits, text); `f64` is a double, `bool` a boolean; text, and values recorded with
    /// `?` (`Debug`) or `%` (`Display`) and errors, are strings.
    pub fields: Variant,
    /// The spans the event happened in, outermost first.
    pub spans: Vec<SpanRecord>,
    /// On rows that count dropped events (level `WARN`, target `parquet_serde::logs`):
    /// how many events were dropped since the previous such row.
    pub dropped: Option<u64>,
}
