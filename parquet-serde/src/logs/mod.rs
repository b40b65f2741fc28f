//! Application logs as Parquet (feature `logs`): a crash-safe, rolling log store
//! ([`LogWriter`]) and, with the `tracing` feature, a `tracing` layer writing through it.
//!
//! ```
//! use parquet_serde::logs::{LogWriter, TimePartition};
//! use parquet_serde::{Compression, ParquetSchema, WriterOptions};
//! use serde::{Deserialize, Serialize};
//!
//! #[derive(Serialize, Deserialize, ParquetSchema, Debug, PartialEq)]
//! struct Access {
//!     #[parquet(timestamp = "micros")]
//!     ts: i64,
//!     route: String,
//!     status: u16,
//! }
//!
//! let dir = tempfile::tempdir()?;
//! let mut logs = LogWriter::<Access>::builder(dir.path())
//!     .partition(TimePartition::Hourly) // date=YYYY-MM-DD/hour=HH
//!     .time_field(|r| r.ts)
//!     .roll_bytes(256 << 20)
//!     .options(WriterOptions::default().compression(Compression::Zstd(3)))
//!     .open()?; // recovers what a crash left behind first
//! logs.write(&Access { ts: 1_795_525_500_000_000, route: "/".into(), status: 200 })?;
//! logs.flush()?; // the row is durable now
//! let files = logs.close()?;
//! assert!(files[0].ends_with(files[0].file_name().unwrap()));
//! assert!(files[0].parent().unwrap().ends_with("date=2026-11-24/hour=13"));
//! let rows: Vec<Access> = parquet_serde::from_path(&files[0])?;
//! assert_eq!(rows[0].status, 200);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! ## Files
//!
//! | name | what |
//! |---|---|
//! | `DIR/date=YYYY-MM-DD/hour=HH/part-<UTC time>-<pid>-<random>.parquet` | a final file: standard Parquet (the folders per [`TimePartition`]) |
//! | `_part-….parquet.inprogress` | the file being written: magic and whole row groups, no footer yet |
//! | `_part-….journal` | its journal (below) |
//! | `_part-….journal.tmp` | a journal being replaced (removed by recovery) |
//!
//! Names starting with `_` are skipped by pyarrow, Spark and Hive, and the in-progress names
//! do not end in `.parquet`, so `read_parquet('DIR/**/*.parquet')` (DuckDB) skips them too:
//! no reader ever meets a file without a footer. File names start with the UTC time the
//! file was started, so sorting names sorts files by time; the process id and a random
//! number make them unique across processes.
//!
//! ## Durability: row groups in the data file, a journal beside it
//!
//! The data file is written as any Parquet file is: row groups are cut by the row group
//! options ([`WriterOptions::row_group_size`](crate::WriterOptions::row_group_size),
//! [`row_group_rows`](crate::WriterOptions::row_group_rows)) and appended as they fill, and
//! the footer is written when the file rolls or is closed. Flushing never cuts a row
//! group, so a final file is laid out exactly as if it had been written without flushes.
//!
//! The journal is a sequence of records, each framed as `[length u32][CRC-32 u32][kind
//! u8][payload]`:
//!
//! 1. a **header**: the schema (as the footer's schema elements), the codec and the
//!    key-value metadata;
//! 2. a **checkpoint**: the data file's length and the Thrift metadata of its row groups
//!    (and their page indexes) so far;
//! 3. **rows**: the rows written since the previous record that are not in a
//!    checkpointed row group, as raw column batches (definition and repetition levels,
//!    PLAIN values) compressed with LZ4: the shredded form the writer already has, so
//!    journaling costs a copy and a fast compression (log rows shrink about 5x), not a
//!    second encoding.
//!
//! [`LogWriter::flush`] moves the buffered rows into the current row group's column
//! writers, then:
//! - if no row group was cut since the last flush, appends one rows record to the journal
//!   and `fsync`s it;
//! - if one was, `fsync`s the data file, writes a new journal (header, a checkpoint of all
//!   row groups, one rows record for the rows after them), `fsync`s it and renames it over
//!   the old one (then `fsync`s the folder). The journal thus never holds more than the
//!   rows of one row group, and the data file before the checkpointed length is never
//!   written again.
//!
//! **Recovery** ([`UnfinishedFile::recover_all`], and every [`LogWriterBuilder::open`]) reads a journal's whole
//! frames (a torn or corrupt tail is where the acknowledged data ends), truncates the data
//! file to the last checkpoint's length, writes the rows records after it as one last row
//! group, writes the footer (with the page indexes), syncs, and renames the file to its
//! final name. It reads only the journal, whose size is bounded by the rows not yet in a
//! checkpointed row group: linear in the unflushed data, not in the file. Every step is
//! idempotent, so a crash during recovery is recovered by the next one. A journal without
//! a whole header, or without rows, acknowledged nothing: its files are removed.
//!
//! Guarantees: after `kill -9` at any moment, every row whose [`flush`](LogWriter::flush)
//! returned comes back exactly once and in order; rows written after the last flush may
//! be lost (or kept, if a later row group made it to the data file and checkpoint). With
//! [`SyncPolicy::OsBuffers`] flushes skip `fsync`, so the same holds for a killed process
//! but not for a machine that loses power.
//!
//! Memory: besides the current row group's encoded pages, a writer keeps a copy of the
//! rows written since the last flush (as raw column batches, for the journal), so flush
//! regularly ([`flush_interval`](LogWriterBuilder::flush_interval)).
//!
//! Limits: log files cannot be encrypted; [`UnfinishedFile::recover_all`] (without the writer's options)
//! writes the rebuilt last row group with the journal's codec and default encodings;
//! on Linux the files of a running writer are told apart by its process id
//! (`/proc/<pid>`), so a folder may be shared by several processes; elsewhere run recovery
//! only when no other process writes the folder.
//!
//! ## Rolling and retention
//!
//! A file is finished and a new one started when the row's partition differs from the
//! file's, when the file reaches [`roll_bytes`](LogWriterBuilder::roll_bytes) (written plus
//! buffered bytes), [`roll_rows`](LogWriterBuilder::roll_rows), or is older than
//! [`roll_interval`](LogWriterBuilder::roll_interval). After each roll, retention
//! ([`keep_files`](LogWriterBuilder::keep_files), [`keep_age`](LogWriterBuilder::keep_age),
//! [`keep_bytes`](LogWriterBuilder::keep_bytes)) deletes the oldest final files beyond the
//! limits, and partition folders left empty; files being written are never deleted.
//!
//! ## Reading files being written
//!
//! [`UnfinishedFile::list`] lists the files being written under a folder and
//! [`UnfinishedFile::snapshot`]
//! reads the rows a file's journal acknowledges (every flushed row) into a complete Parquet
//! file in memory, without touching the files: `parquet-serde tail DIR` prints rows this way
//! as they are flushed.
//!
//! ## Shipping final files
//!
//! [`LogWriterBuilder::on_finished`] calls a hook with each file that becomes final
//! (rolled, closed, or rebuilt by the recovery at open). With the `object_store` feature,
//! `store::Shipper::hook` is such a hook: it uploads the files to an object store under
//! the same partition folders, in order, with retries, and deletes them locally once
//! uploaded; files left unshipped by a crash are shipped at its next start.
//!
//! ## Threads
//!
//! [`LogWriter`] is `Send`. For many threads, [`LogWriter::into_shared`] gives a cloneable
//! [`SharedLogWriter`] (one lock around the writer; a background thread flushes on the
//! interval).
//!
//! ## The tracing layer
//!
//! With the `tracing` feature, `TracingLayer::builder(dir).build()` gives a
//! `tracing_subscriber` layer and a guard:
//!
//! ```text
//! let (layer, _guard) = parquet_serde::logs::TracingLayer::builder("logs/app").build()?;
//! tracing_subscriber::registry().with(layer).init();
//! ```
//!
//! Each event becomes one `LogEvent` row. The layer encodes the event on the calling
//! thread, without allocating once its buffers have grown: its metadata (target, module,
//! file, line, span names) as `tracing`'s `&'static str`s, its message as text, its fields
//! and its spans' fields (encoded once, when the span is made or recorded) as VARIANT
//! bytes. Events go into a batch of the thread's own; a full batch (128 events or 32 KiB)
//! is handed to a writer thread, which writes the rows with a [`LogWriter`] (hourly
//! partitions by event time, zstd, a flush every second on the clock even under steady
//! traffic, taking every thread's partial batch first). The batches waiting for the
//! writer are bounded in bytes (`capacity_bytes`, default 64 MiB, each event counted at its
//! real size) and optionally in events (`capacity`, no bound by default). When the room is
//! full, the default policy (`Overflow::DropBelowWarn`) drops and counts events below
//! `WARN` while `WARN` and `ERROR` events wait for room, so none of them is lost;
//! `Overflow::Block` makes every event wait, `Overflow::Drop` drops any event. No drop is
//! silent: the counts are written as rows of their own (`dropped`), and reported through
//! the `on_error` callback at most once a second. The guard flushes and closes the files
//! when dropped; `guard.flush()` returns once every event logged before it, on any thread,
//! is durable. Errors of the writer thread (a full disk, ...) and panics in it never reach
//! the application: they go to the `on_error` callback, at most one a second. With or
//! without a callback, each is counted (`guard.errors()`) and the last one kept
//! (`guard.take_last_error()`, and `guard.close()` fails with it); the library prints
//! nothing.
//!
//! Order: the events of one thread are written in the order they happened. Threads'
//! batches interleave as the writer takes them, so rows of different threads are in time
//! order only to within a batch (at most 128 events, or one flush interval for a thread
//! that logs slowly); sort by `ts` when reading for a strict order. Near an hour boundary
//! a late batch may thus start a small extra file in the previous hour's folder.
//!
//! The schema (`message log_event`):
//!
//! | column | Parquet type | what |
//! |---|---|---|
//! | `ts` | `INT64 TIMESTAMP(MICROS, UTC)` | when the event happened |
//! | `level` | `BYTE_ARRAY STRING` | `TRACE`, `DEBUG`, `INFO`, `WARN`, `ERROR` (files written before 0.1 hold ENUM; both read) |
//! | `target` | `STRING` | the event's target |
//! | `message` | optional `STRING` | the `message` field (the format string's text) |
//! | `module_path`, `file` | optional `STRING` | where the event is in the source |
//! | `line` | optional `INT32 INTEGER(32, false)` | the source line |
//! | `thread_name` | optional `STRING` | the thread's name |
//! | `thread_id` | `INT64 INTEGER(64, false)` | the thread's number in this process (in order of first event) |
//! | `fields` | `VARIANT` (group of `metadata`, `value`) | the other fields: an object by field name (below) |
//! | `spans` | `LIST<group>` | the spans the event is in, outermost first: `name` (`STRING`), `fields` (a `VARIANT` object as above) |
//! | `dropped` | optional `INT64 INTEGER(64, false)` | on the rows that count dropped events (level `WARN`, target `parquet_serde::logs`), how many |
//!
//! For an Iceberg table (`TracingLayerBuilder::iceberg`, feature `iceberg`) the layer
//! writes the same columns in types Iceberg v2 holds (every column has a field id):
//!
//! | column | Parquet type | Iceberg type |
//! |---|---|---|
//! | `ts` | `INT64 TIMESTAMP(MICROS, UTC)` | `timestamptz` |
//! | `level`, `target` | `STRING` | `string` |
//! | `message`, `module_path`, `file`, `thread_name` | optional `STRING` | optional `string` |
//! | `line` | optional `INT64` | optional `long` |
//! | `thread_id` | `INT64` | `long` |
//! | `fields` | `STRING` with the JSON logical type: the VARIANT object's JSON text | `string` |
//! | `spans` | `LIST<group>`: `name` (`STRING`), `fields` (JSON `STRING` as above) | `list<struct<name: string, fields: string>>` |
//! | `dropped` | optional `INT64` | optional `long` |
//!
//! A `thread_id` or `dropped` count above `i64::MAX` is not clamped: that event is not
//! written, and the error is reported and counted as the writer thread's errors are. In
//! the JSON text, integers beyond `i64` (up to `u64::MAX`) are JSON numbers, beyond that
//! strings, as `Variant::to_json` maps them.
//!
//! Field values in the VARIANT objects:
//!
//! | recorded as | Variant type |
//! |---|---|
//! | `i64`, and `u64` up to `i64::MAX` | the narrowest of `int8`, `int16`, `int32`, `int64` |
//! | `u64` above `i64::MAX`, `i128` / `u128` beyond 64 bits | `decimal16` with scale 0 (exact); beyond 38 digits, a string of the number |
//! | `f64` | `double` |
//! | `bool` | `boolean` |
//! | `&str`, `?value` (`Debug`), `%value` (`Display`), errors | `string` (the text of one event's fields is cut at 1 GiB in all) |
//!
//! Read them back as [`Variant`](crate::variant::Variant) (`LogEvent::fields`), with
//! DuckDB (`fields.status::INT`, `variant_extract(fields, 'status')`), or with any engine
//! reading VARIANT.

mod active;
mod frame;
mod journal;
mod live;
mod names;
mod recover;
pub(crate) mod retention;
mod shared;
mod snapshot;
#[cfg(feature = "tracing")]
mod tracing;
mod writer;

#[cfg(feature = "tracing")]
pub use self::tracing::{
    LogEvent, LogLevel, Overflow, SpanRecord, TracingGuard, TracingLayer, TracingLayerBuilder,
};
pub use active::SyncPolicy;
pub use names::TimePartition;
pub use recover::RecoveryReport;
pub use shared::SharedLogWriter;
pub use snapshot::UnfinishedFile;
pub use writer::{LogWriter, LogWriterBuilder};
