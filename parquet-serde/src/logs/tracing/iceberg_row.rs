//! The row the layer writes for an Iceberg table (feature `iceberg`): the columns of
//! [`LogEvent`](super::LogEvent) in types Iceberg v2 holds. `thread_id` and `dropped` are
//! signed `INT64` (`long`), `line` is `INT64` (`long`, as Iceberg maps an unsigned 32-bit
//! line), and `fields` (and each span's `fields`) is a `STRING` with the JSON logical type
//! (`string`) holding the VARIANT object's JSON text ([`VariantRef::to_json`]).
//!
//! The writer thread converts each event of a batch on the way out ([`IcebergCursor::prepare`]):
//! a counter above `i64::MAX` cannot be written and is an error (the event is not written,
//! the error is reported and counted), never a clamped value.

use serde::ser::{Error as _, SerializeSeq, SerializeStruct};
use serde::{Deserialize, Serialize, Serializer};

use crate::core::schema::typed::{ColumnOptions, FieldAttrs};
use crate::core::schema::{ParquetSchema, SchemaNode};
use crate::error::{Error, Result};
use crate::variant::{blob, VariantRef};

use super::batch::Cursor;
use super::row::LogLevel;
use super::worker::Row;

/// The schema of the Iceberg rows (and what tests read them back as).
#[derive(Serialize, Deserialize, crate::ParquetSchema, Debug, Clone, PartialEq)]
#[parquet(crate = "crate", name = "log_event")]
pub(crate) struct IcebergEvent {
    #[parquet(timestamp = "micros")]
    pub ts: i64,
    pub level: LogLevel,
    pub target: String,
    pub message: Option<String>,
    pub module_path: Option<String>,
    pub file: Option<String>,
    pub line: Option<i64>,
    pub thread_name: Option<String>,
    pub thread_id: i64,
    /// The VARIANT object's JSON text.
    #[parquet(json)]
    pub fields: String,
    pub spans: Vec<IcebergSpan>,
    pub dropped: Option<i64>,
}

/// One span of an [`IcebergEvent`].
#[derive(Serialize, Deserialize, crate::ParquetSchema, Debug, Clone, PartialEq)]
#[parquet(crate = "crate")]
pub(crate) struct IcebergSpan {
    pub name: String,
    /// The VARIANT object's JSON text.
    #[parquet(json)]
    pub fields: String,
}

/// One event of a batch as an [`IcebergEvent`] row: the JSON texts and signed counters are
/// made by [`prepare`](Self::prepare), then the row is serialized from the batch.
#[derive(Debug, Default)]
pub(crate) struct IcebergCursor {
    cursor: Cursor,
    thread_id: i64,
    dropped: Option<i64>,
    fields: String,
    /// The JSON of each span's fields (the first `spans` are the event's).
    span_fields: Vec<String>,
    spans: usize,
}

/// A counter as Iceberg's signed `long`: above `i64::MAX` is an error naming the column.
fn signed(column: &str, v: u64) -> Result<i64> {
    i64::try_from(v).map_err(|_| {
        Error::data(format!(
            "{v} is above i64::MAX, the most an Iceberg long holds; the event is not written"
        ))
        .with_column(column)
    })
}

/// The JSON text of a VARIANT frame.
fn json_text(frame: &[u8], out: &mut String) -> Result<()> {
    let (metadata, value) = blob::split(frame)?;
    let json = VariantRef::new(metadata, value)?.to_json()?;
    out.clear();
    use std::fmt::Write;
    // Writing to a String cannot fail.
    let _ = write!(out, "{json}");
    Ok(())
}

fn out_of_range(what: &str) -> Error {
    Error::internal(format!(
        "a tracing event batch is malformed: {what} out of range"
    ))
}

impl Row for IcebergCursor {
    fn cursor(&self) -> &Cursor {
        &self.cursor
    }

    fn cursor_mut(&mut self) -> &mut Cursor {
        &mut self.cursor
    }

    fn from_cursor(cursor: Cursor) -> Self {
        IcebergCursor {
            cursor,
            ..IcebergCursor::default()
        }
    }

    fn prepare(&mut self) -> Result<()> {
        let b = &self.cursor.batch;
        let h = b
            .events
            .get(self.cursor.at)
            .ok_or_else(|| out_of_range("the event"))?;
        self.thread_id = signed("thread_id", b.thread_id)?;
        self.dropped = h.dropped.map(|d| signed("dropped", d)).transpose()?;
        let frame = b
            .bytes
            .get(h.fields.clone())
            .ok_or_else(|| out_of_range("fields"))?;
        json_text(frame, &mut self.fields).map_err(|e| e.with_column("fields"))?;
        let spans = b
            .spans
            .get(h.spans.clone())
            .ok_or_else(|| out_of_range("spans"))?;
        if self.span_fields.len() < spans.len() {
            self.span_fields.resize_with(spans.len(), String::new);
        }
        for (span, out) in spans.iter().zip(&mut self.span_fields) {
            let frame = b
                .bytes
                .get(span.fields.clone())
                .ok_or_else(|| out_of_range("span fields"))?;
            json_text(frame, out).map_err(|e| e.with_column("spans.list.element.fields"))?;
        }
        self.spans = spans.len();
        Ok(())
    }
}

/// Same schema as [`IcebergEvent`], whose rows the cursor writes.
impl ParquetSchema for IcebergCursor {
    const PARQUET_MESSAGE_NAME: &'static str = IcebergEvent::PARQUET_MESSAGE_NAME;

    fn parquet_node(name: &str, attrs: &FieldAttrs) -> SchemaNode {
        IcebergEvent::parquet_node(name, attrs)
    }

    fn parquet_collect_column_options(path: &mut Vec<String>, out: &mut Vec<ColumnOptions>) {
        IcebergEvent::parquet_collect_column_options(path, out);
    }
}

/// A span's name and JSON fields, serialized as an [`IcebergSpan`].
struct Span<'a>(&'a str, &'a str);

impl Serialize for Span<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut st = s.serialize_struct("IcebergSpan", 2)?;
        st.serialize_field("name", self.0)?;
        st.serialize_field("fields", self.1)?;
        st.end()
    }
}

struct Spans<'a>(&'a IcebergCursor);

impl Serialize for Spans<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let c = self.0;
        let b = &c.cursor.batch;
        let heads = b
            .events
            .get(c.cursor.at)
            .and_then(|h| b.spans.get(h.spans.clone()))
            .ok_or_else(|| S::Error::custom("spans out of range"))?;
        let mut seq = s.serialize_seq(Some(c.spans))?;
        for (head, json) in heads.iter().zip(&c.span_fields[..c.spans]) {
            seq.serialize_element(&Span(head.name, json))?;
        }
        seq.end()
    }
}

impl Serialize for IcebergCursor {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let b = &self.cursor.batch;
        let h = b
            .events
            .get(self.cursor.at)
            .ok_or_else(|| S::Error::custom("no event at the cursor"))?;
        let message = match &h.message {
            Some(r) => Some(
                b.text
                    .get(r.clone())
                    .ok_or_else(|| S::Error::custom("message out of range"))?,
            ),
            None => None,
        };
        let mut st = s.serialize_struct(IcebergEvent::PARQUET_MESSAGE_NAME, 12)?;
        st.serialize_field("ts", &h.ts)?;
        st.serialize_field("level", &h.level)?;
        st.serialize_field("target", h.target)?;
        st.serialize_field("message", &message)?;
        st.serialize_field("module_path", &h.module_path)?;
        st.serialize_field("file", &h.file)?;
        st.serialize_field("line", &h.line.map(i64::from))?;
        st.serialize_field("thread_name", &b.thread_name.as_deref())?;
        st.serialize_field("thread_id", &self.thread_id)?;
        st.serialize_field("fields", self.fields.as_str())?;
        st.serialize_field("spans", &Spans(self))?;
        st.serialize_field("dropped", &self.dropped)?;
        st.end()
    }
}
