//! A batch of encoded events of one thread: what the application threads hand to the writer
//! thread. An event is a small fixed head (its metadata's `&'static str`s, time, level,
//! ranges) plus bytes in two buffers shared by the batch: its message text, and the VARIANT
//! frames of its fields and of its spans' fields. Nothing is allocated per event once the
//! buffers have grown; the writer thread serializes each event straight from the batch as
//! one [`LogEvent`] row ([`Cursor`]).

use std::ops::Range;
use std::sync::Arc;

use serde::ser::{Error as _, SerializeSeq, SerializeStruct};
use serde::{Serialize, Serializer};

use crate::core::schema::typed::FieldAttrs;
use crate::core::schema::{ParquetSchema, SchemaNode};
use crate::variant::blob;

use super::row::{LogEvent, LogLevel};

/// Events a batch holds before it is handed over.
pub(crate) const BATCH_EVENTS: usize = 128;
/// Bytes (text and frames) a batch holds before it is handed over.
pub(crate) const BATCH_BYTES: usize = 32 << 10;

/// The fixed part of one event.
#[derive(Debug, Clone)]
pub(crate) struct Head {
    pub ts: i64,
    pub level: LogLevel,
    pub target: &'static str,
    pub module_path: Option<&'static str>,
    pub file: Option<&'static str>,
    pub line: Option<u32>,
    /// The message text in [`Batch::text`].
    pub message: Option<Range<usize>>,
    /// The fields' frame in [`Batch::bytes`].
    pub fields: Range<usize>,
    /// The spans in [`Batch::spans`].
    pub spans: Range<usize>,
    pub dropped: Option<u64>,
}

/// One span of an event.
#[derive(Debug, Clone)]
pub(crate) struct SpanHead {
    pub name: &'static str,
    /// The span's fields' frame in [`Batch::bytes`].
    pub fields: Range<usize>,
}

/// Events of one thread, in the order they happened.
#[derive(Debug, Default)]
pub(crate) struct Batch {
    pub thread_id: u64,
    pub thread_name: Option<Arc<str>>,
    pub events: Vec<Head>,
    pub spans: Vec<SpanHead>,
    pub text: String,
    pub bytes: Vec<u8>,
}

impl Batch {
    /// Forgets the events, keeping the buffers.
    pub fn clear(&mut self) {
        self.thread_name = None;
        self.events.clear();
        self.spans.clear();
        self.text.clear();
        self.bytes.clear();
    }

    /// Whether the batch should be handed over.
    pub fn is_full(&self) -> bool {
        self.events.len() >= BATCH_EVENTS || self.text.len() + self.bytes.len() >= BATCH_BYTES
    }

    /// Bytes the batch's events take: each event's head and span heads, its message text
    /// and its VARIANT frames (what counts against the layer's room).
    pub fn size_bytes(&self) -> usize {
        std::mem::size_of::<Batch>()
            + self.events.len() * std::mem::size_of::<Head>()
            + self.spans.len() * std::mem::size_of::<SpanHead>()
            + self.text.len()
            + self.bytes.len()
    }

    /// Bytes the buffers hold (for keeping recycled batches small).
    pub fn capacity_bytes(&self) -> usize {
        self.events.capacity() * std::mem::size_of::<Head>()
            + self.spans.capacity() * std::mem::size_of::<SpanHead>()
            + self.text.capacity()
            + self.bytes.capacity()
    }
}

/// An event being added to a batch: the parts that are not in its head.
#[derive(Debug, Default)]
pub(crate) struct Parts {
    /// The message text.
    pub message: String,
    /// Whether the event has a message.
    pub has_message: bool,
    /// The fields' frame.
    pub fields: Vec<u8>,
    /// The spans: name and the range of its frame in `span_bytes`.
    pub spans: Vec<(&'static str, Range<usize>)>,
    /// The spans' frames.
    pub span_bytes: Vec<u8>,
    /// Reused to collect the fields.
    pub scratch: super::fields::Fields,
}

impl Parts {
    /// Forgets the event, keeping the buffers.
    pub fn clear(&mut self) {
        self.message.clear();
        self.has_message = false;
        self.fields.clear();
        self.spans.clear();
        self.span_bytes.clear();
    }
}

impl Batch {
    /// Appends an event: `head`'s ranges are set here from `parts`.
    pub fn push(&mut self, mut head: Head, parts: &Parts) {
        head.message = parts.has_message.then(|| {
            let start = self.text.len();
            self.text.push_str(&parts.message);
            start..self.text.len()
        });
        let start = self.bytes.len();
        self.bytes.extend_from_slice(&parts.fields);
        head.fields = start..self.bytes.len();
        let base = self.bytes.len();
        self.bytes.extend_from_slice(&parts.span_bytes);
        let first = self.spans.len();
        self.spans
            .extend(parts.spans.iter().map(|(name, r)| SpanHead {
                name,
                fields: r.start + base..r.end + base,
            }));
        head.spans = first..self.spans.len();
        self.events.push(head);
    }
}

/// One event of a batch as a [`LogEvent`] row: the writer thread points `at` at each event
/// in turn and writes the cursor (the files' rows are read back as [`LogEvent`]).
#[derive(Debug, Default)]
pub(crate) struct Cursor {
    pub batch: Batch,
    pub at: usize,
}

impl Cursor {
    /// The event's time (what partitions the files).
    pub fn ts(&self) -> i64 {
        self.batch.events.get(self.at).map_or(0, |h| h.ts)
    }
}

/// Same schema as [`LogEvent`], whose rows the cursor writes.
impl ParquetSchema for Cursor {
    const PARQUET_MESSAGE_NAME: &'static str = LogEvent::PARQUET_MESSAGE_NAME;

    fn parquet_node(name: &str, attrs: &FieldAttrs) -> SchemaNode {
        LogEvent::parquet_node(name, attrs)
    }

    fn parquet_collect_column_options(
        path: &mut Vec<String>,
        out: &mut Vec<crate::core::schema::typed::ColumnOptions>,
    ) {
        LogEvent::parquet_collect_column_options(path, out);
    }
}

fn malformed<E: serde::ser::Error>(what: &str) -> E {
    E::custom(format!("a tracing event batch is malformed: {what}"))
}

/// A Variant frame, serialized as the crate's serializers carry a Variant.
struct Frame<'a>(&'a [u8]);

impl Serialize for Frame<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_newtype_struct(blob::TOKEN, &blob::Frame(self.0))
    }
}

struct Spans<'a>(&'a Batch, &'a [SpanHead]);

struct Span<'a>(&'a str, &'a [u8]);

impl Serialize for Span<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut st = s.serialize_struct("SpanRecord", 2)?;
        st.serialize_field("name", self.0)?;
        st.serialize_field("fields", &Frame(self.1))?;
        st.end()
    }
}

impl Serialize for Spans<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(self.1.len()))?;
        for span in self.1 {
            let frame = self
                .0
                .bytes
                .get(span.fields.clone())
                .ok_or_else(|| malformed::<S::Error>("span fields out of range"))?;
            seq.serialize_element(&Span(span.name, frame))?;
        }
        seq.end()
    }
}

impl Serialize for Cursor {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let b = &self.batch;
        let h = b
            .events
            .get(self.at)
            .ok_or_else(|| S::Error::custom("no event at the cursor"))?;
        let message = match &h.message {
            Some(r) => Some(
                b.text
                    .get(r.clone())
                    .ok_or_else(|| malformed::<S::Error>("message out of range"))?,
            ),
            None => None,
        };
        let fields = b
            .bytes
            .get(h.fields.clone())
            .ok_or_else(|| malformed::<S::Error>("fields out of range"))?;
        let spans = b
            .spans
            .get(h.spans.clone())
            .ok_or_else(|| malformed::<S::Error>("spans out of range"))?;
        let mut st = s.serialize_struct(LogEvent::PARQUET_MESSAGE_NAME, 12)?;
        st.serialize_field("ts", &h.ts)?;
        st.serialize_field("level", &h.level)?;
        st.serialize_field("target", h.target)?;
        st.serialize_field("message", &message)?;
        st.serialize_field("module_path", &h.module_path)?;
        st.serialize_field("file", &h.file)?;
        st.serialize_field("line", &h.line)?;
        st.serialize_field("thread_name", &b.thread_name.as_deref())?;
        st.serialize_field("thread_id", &b.thread_id)?;
        st.serialize_field("fields", &Frame(fields))?;
        st.serialize_field("spans", &Spans(b, spans))?;
        st.serialize_field("dropped", &h.dropped)?;
        st.end()
    }
}
