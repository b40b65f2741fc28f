//! [`Writer`]: typed rows in, a Parquet file out, one row group at a time.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::marker::PhantomData;
use std::path::Path;

use serde::Serialize;

use crate::core::column::parallel::ColumnPool;
use crate::core::column::{extend_values, truncate_values, ColumnBatch, ColumnChunkWriter};
use crate::core::file::ParquetMetaData;
use crate::core::file::{FileWriter, WriterOptions};
use crate::core::schema::typed::{ColumnOptions, FieldAttrs};
use crate::core::schema::{NodeKind, ParquetSchema, Repetition, Schema, SchemaNode};
use crate::error::{Error, Result};

use super::shredder::Shredder;
use crate::core::file::PendingFile;

/// Rows shredded before their buffers move into the column writers (where they become
/// encoded pages).
const FLUSH_ROWS: usize = 4096;
/// Buffered bytes that also trigger the move, checked every [`CHECK_EVERY`] rows.
const FLUSH_BYTES: usize = 8 << 20;
/// A power of two.
const CHECK_EVERY: usize = 64;

/// Writes rows of `T` to a Parquet file, streaming: memory is bounded by one row group's
/// encoded column chunks (see [`WriterOptions::row_group_size`] and
/// [`WriterOptions::row_group_rows`]), not by the number of rows written.
///
/// Rows are shredded into column buffers, which move into the row group's column writers
/// every few thousand rows (where they become compressed pages). A row group is cut when its
/// size before compression reaches `row_group_size` (as the column writers stood a few
/// thousand rows earlier, plus the rows shredded since), when it holds `row_group_rows`
/// rows, or on [`flush_row_group`](Self::flush_row_group). [`close`](Self::close) writes the
/// footer: until then the output is not a readable file, and a writer dropped without
/// closing leaves it unfinished (one made by [`from_path`](Self::from_path) removes it).
///
/// With [`WriterOptions::threads`] above 1, the column writers work on helper threads
/// (started with the first few thousand rows, stopped when the writer is closed or
/// dropped) while the calling thread shreds the next rows: columns are encoded in
/// parallel, and pages are compressed in parallel. The file is the same byte for byte
/// whatever the number of threads (encrypted files differ only by their random nonces).
///
/// A row that does not fit the schema (a `None` in a required field, a value out of range,
/// ...) is refused with an [`ErrorKind::Data`](crate::ErrorKind::Data) error naming the
/// column and the row; the writer stays usable and the rows before it are kept. An I/O
/// error, or an error while encoding a column (reported by the next call, with the column
/// path, when it happens on a helper thread), leaves the writer failed: later calls return
/// an error.
///
/// Column options written on fields (`#[parquet(compression = .., dictionary = ..,
/// encoding = .., bloom_filter(..))]`) apply as per-column overrides, unless `options` overrides the same
/// column path for that setting.
///
/// ```
/// use parquet_serde::{ParquetSchema, Writer, WriterOptions};
///
/// #[derive(serde::Serialize, ParquetSchema)]
/// struct Point { x: i32, y: Option<f64> }
///
/// let mut writer = Writer::new(Vec::new(), WriterOptions::default().row_group_rows(2))?;
/// writer.write(&Point { x: 1, y: None })?;
/// writer.write_all(&[Point { x: 2, y: Some(0.5) }, Point { x: 3, y: None }])?;
/// assert_eq!(writer.num_rows(), 3);
/// let bytes = writer.into_inner()?;
///
/// let reader = parquet_serde::core::file::FileReader::new(bytes)?;
/// assert_eq!(reader.num_row_groups(), 2);
/// # Ok::<(), parquet_serde::Error>(())
/// ```
pub struct Writer<W: Write, T> {
    file: FileWriter<W>,
    shredder: Shredder,
    /// Column writers of the current row group, one per leaf.
    pool: ColumnPool,
    /// Rows in the column writers (the current row group, shredder buffers excluded).
    group_rows: usize,
    /// Shredder rows at which the buffers move to the column writers.
    flush_at: usize,
    num_rows: u64,
    failed: bool,
    pending: Option<PendingFile>,
    /// A copy of the rows moved into the current row group since [`take_tap`]
    /// (Self::take_tap), kept for the log store's journal when enabled.
    tap: Option<Tap>,
    /// Row groups cut so far.
    cuts: u64,
    _rows: PhantomData<fn(&T)>,
}

/// Rows copied as they move into the column writers: one batch per leaf.
#[derive(Debug)]
pub(crate) struct Tap {
    /// One batch per leaf column, in schema order.
    pub batches: Vec<ColumnBatch>,
    /// Rows the batches hold.
    pub rows: usize,
}

impl<W: Write, T> std::fmt::Debug for Writer<W, T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Writer")
            .field("schema", &self.file.schema().name())
            .field("num_rows", &self.num_rows)
            .field("row_groups", &self.file.num_row_groups())
            .finish_non_exhaustive()
    }
}

impl<T: Serialize + ParquetSchema> Writer<BufWriter<File>, T> {
    /// A writer to a new file at `path`, written through a temporary file in the same
    /// directory: [`close`](Self::close) renames it to `path`; dropping the writer without
    /// closing it, or a failed close, removes it. An existing file at `path` is replaced
    /// only on a successful close.
    pub fn from_path(path: impl AsRef<Path>, options: WriterOptions) -> Result<Self> {
        let (pending, file) = PendingFile::create(path.as_ref())?;
        let mut writer = Writer::new(BufWriter::with_capacity(1 << 16, file), options)?;
        writer.pending = Some(pending);
        Ok(writer)
    }
}

impl<W: Write, T> Writer<W, T> {
    /// Makes [`close`](Self::close) commit `pending` (the file the sink writes) and a drop
    /// before it remove it.
    pub(crate) fn set_pending(&mut self, pending: PendingFile) {
        self.pending = Some(pending);
    }
}

impl<W: Write, T> Writer<W, T> {
    /// A writer of rows of `T` to `sink`. Fails with
    /// [`ErrorKind::Schema`](crate::ErrorKind::Schema) when `T`'s schema is not valid, and
    /// with [`ErrorKind::InvalidArgument`](crate::ErrorKind::InvalidArgument) when a column
    /// asks for an encoding that does not fit its type.
    pub fn new(sink: W, options: WriterOptions) -> Result<Self>
    where
        T: Serialize + ParquetSchema,
    {
        let (schema, wrapped) = schema_of::<T>()?;
        let options = apply_column_options(&schema, options, &T::parquet_column_options())?;
        let mut writer = Self::with_schema(sink, schema, wrapped, options)?;
        writer
            .shredder
            .enable_direct(T::__parquet_direct_layout(), wrapped);
        Ok(writer)
    }

    /// A writer of rows shaped by `schema` (`wrapped` as in [`Shredder::new`]), which
    /// [`write_with`](Self::write_with) writes; checks the encodings `options` asks for.
    pub(crate) fn with_schema(
        sink: W,
        schema: Schema,
        wrapped: bool,
        options: WriterOptions,
    ) -> Result<Self> {
        let schema = options.file_schema(schema)?;
        let options = apply_column_options(&schema, options, &[])?;
        let shredder = Shredder::new(&schema, wrapped)?;
        let file = FileWriter::new(sink, schema, options)?;
        let columns = new_columns(&file)?;
        let mut writer = Writer {
            pool: ColumnPool::new(file.options().threads, columns),
            file,
            shredder,
            group_rows: 0,
            flush_at: 0,
            num_rows: 0,
            failed: false,
            pending: None,
            tap: None,
            cuts: 0,
            _rows: PhantomData,
        };
        writer.flush_at = writer.next_flush();
        Ok(writer)
    }

    /// Writes one row. A row that does not fit the schema is refused (nothing of it is
    /// kept) with an [`ErrorKind::Data`](crate::ErrorKind::Data) error naming the column and
    /// the row number (the number of rows written before it).
    #[inline]
    pub fn write(&mut self, row: &T) -> Result<()>
    where
        T: Serialize + ParquetSchema,
    {
        self.write_with(|shredder| shredder.shred_row(row))
    }

    /// Writes one row, shredded by `shred` (which leaves the shredder as it was when it
    /// fails, as [`Shredder::shred`] does).
    #[inline]
    pub(crate) fn write_with(
        &mut self,
        shred: impl FnOnce(&mut Shredder) -> Result<()>,
    ) -> Result<()> {
        self.check()?;
        if let Err(e) = self.pool.check() {
            self.failed = true;
            return Err(e);
        }
        shred(&mut self.shredder)?;
        self.num_rows += 1;
        let buffered = self.shredder.rows();
        if buffered >= self.flush_at
            || (buffered & (CHECK_EVERY - 1) == 0 && self.shredder.buffered_bytes() >= FLUSH_BYTES)
        {
            self.guard(|w| w.move_buffers(true))?;
        }
        Ok(())
    }

    /// Writes rows in order; stops at the first row that fails (the rows before it are
    /// kept).
    pub fn write_all(&mut self, rows: &[T]) -> Result<()>
    where
        T: Serialize + ParquetSchema,
    {
        rows.iter().try_for_each(|row| self.write(row))
    }

    /// Ends the current row group (if it has rows) and writes it out.
    pub fn flush_row_group(&mut self) -> Result<()> {
        self.check()?;
        self.guard(|w| {
            w.move_buffers(false)?;
            w.cut_row_group()
        })
    }

    /// Rows written so far.
    pub fn num_rows(&self) -> u64 {
        self.num_rows
    }

    /// Row groups written out so far.
    pub fn num_row_groups(&self) -> usize {
        self.file.num_row_groups()
    }

    /// Bytes held in memory: shredded rows not yet encoded plus the current row group's
    /// encoded column chunks.
    pub fn buffered_bytes(&self) -> usize {
        self.shredder.buffered_bytes() + self.pool.buffered_bytes()
    }

    /// Bytes written to the sink so far.
    pub fn bytes_written(&self) -> u64 {
        self.file.bytes_written()
    }

    /// The schema of the file (from `T`).
    pub fn schema(&self) -> &Schema {
        self.file.schema()
    }

    /// The options in effect (with the column options of `T`'s fields merged in).
    pub fn options(&self) -> &WriterOptions {
        self.file.options()
    }

    /// Writes the last row group and the footer; returns the sink.
    pub fn into_inner(self) -> Result<W> {
        self.close().map(|(sink, _)| sink)
    }

    /// Writes the last row group and the footer; returns the sink and the file metadata, as
    /// [`FileWriter::close`](crate::core::file::FileWriter::close) does.
    pub fn close(mut self) -> Result<(W, ParquetMetaData)> {
        self.flush_row_group()?;
        let (sink, metadata) = self.file.close()?;
        if let Some(pending) = self.pending.take() {
            pending.commit()?;
        }
        Ok((sink, metadata))
    }

    fn check(&self) -> Result<()> {
        if self.failed {
            return Err(Error::invalid_argument(
                "the writer failed earlier and cannot write more",
            ));
        }
        Ok(())
    }

    /// Runs `f`; any error marks the writer failed (its buffers may be half moved).
    fn guard(&mut self, f: impl FnOnce(&mut Self) -> Result<()>) -> Result<()> {
        let result = f(self);
        if result.is_err() {
            self.failed = true;
        }
        result
    }

    /// Shredder rows at which to move the buffers next.
    fn next_flush(&self) -> usize {
        let room = self
            .file
            .options()
            .row_group_rows
            .saturating_sub(self.group_rows)
            .max(1);
        FLUSH_ROWS.min(room)
    }

    /// Moves the shredded rows into the column writers; with `cut`, ends the row group when
    /// it is full.
    fn move_buffers(&mut self, cut: bool) -> Result<()> {
        let rows = self.shredder.rows();
        if rows > 0 {
            if let Some(tap) = self.tap.as_mut() {
                for (copy, batch) in tap.batches.iter_mut().zip(self.shredder.batches_mut()) {
                    extend_values(&mut copy.values, &batch.values, 0..batch.values.len());
                    copy.def_levels.extend_from_slice(&batch.def_levels);
                    copy.rep_levels.extend_from_slice(&batch.rep_levels);
                }
                tap.rows += rows;
            }
            // Regular moves may start helper threads; the last one of a small file does not.
            self.pool.write(self.shredder.batches_mut(), cut)?;
            self.shredder.clear();
            self.group_rows += rows;
        }
        if cut {
            let options = self.file.options();
            if self.group_rows >= options.row_group_rows
                || self.pool.group_size()? >= options.row_group_size
            {
                self.cut_row_group()?;
            }
        }
        self.flush_at = self.next_flush();
        Ok(())
    }

    /// Closes the column writers and writes the row group (if it has rows).
    fn cut_row_group(&mut self) -> Result<()> {
        if self.group_rows == 0 {
            return Ok(());
        }
        let group = self.file.num_row_groups();
        let chunks = self.pool.finish().map_err(|e| e.with_row_group(group))?;
        self.file
            .write_row_group(chunks)
            .map_err(|e| e.with_row_group(group))?;
        // After the row group is out: encrypted files bind pages to their row group.
        self.pool.start(new_columns(&self.file)?);
        self.group_rows = 0;
        self.cuts += 1;
        // The tapped rows are in the row group now.
        if let Some(tap) = self.tap.as_mut() {
            clear_tap(tap);
        }
        self.flush_at = self.next_flush();
        Ok(())
    }
}

/// Hooks of the log store (`logs/`): a journal of the rows not yet in a row group.
#[cfg_attr(not(feature = "logs"), allow(dead_code))] // only the log store (logs/) uses it
impl<W: Write, T: Serialize + ParquetSchema> Writer<W, T> {
    /// Starts copying the rows that move into the current row group (see [`Tap`]).
    pub(crate) fn enable_tap(&mut self) {
        let batches = self
            .file
            .schema()
            .columns()
            .iter()
            .map(|c| ColumnBatch::new(c.physical_type, c.type_length))
            .collect();
        self.tap = Some(Tap { batches, rows: 0 });
    }

    /// Moves the shredded rows into the column writers (cutting the row group when full),
    /// so that every row written is either in a row group written out or in the tap.
    pub(crate) fn settle(&mut self) -> Result<()> {
        self.check()?;
        self.guard(|w| w.move_buffers(true))
    }

    /// The rows copied since the last call (or the last row group cut): calls `f` with
    /// them, then empties the copy.
    pub(crate) fn take_tap<R>(&mut self, f: impl FnOnce(&Tap) -> R) -> Option<R> {
        let tap = self.tap.as_mut()?;
        let out = f(tap);
        clear_tap(tap);
        Some(out)
    }

    /// Row groups cut so far.
    pub(crate) fn cuts(&self) -> u64 {
        self.cuts
    }

    /// What a checkpoint of the file records (bytes, row groups, page indexes).
    pub(crate) fn progress(&self) -> crate::core::file::FileProgress {
        self.file.progress()
    }

    /// The sink, to flush and sync it.
    pub(crate) fn sink_mut(&mut self) -> &mut W {
        self.file.sink_mut()
    }
}

/// Empties a tap, keeping its allocations.
fn clear_tap(tap: &mut Tap) {
    for b in &mut tap.batches {
        truncate_values(&mut b.values, 0);
        b.def_levels.clear();
        b.rep_levels.clear();
    }
    tap.rows = 0;
}

impl<T: Serialize + ParquetSchema> Writer<Vec<u8>, T> {
    /// A writer of a file in memory: row groups are copied into the buffer on several
    /// threads when [`WriterOptions::threads`] allows.
    pub(crate) fn in_memory(options: WriterOptions) -> Result<Self> {
        let mut writer = Writer::new(Vec::new(), options)?;
        writer.file.set_bulk_write(crate::core::file::extend_vec);
        Ok(writer)
    }
}

/// Fresh column writers for the next row group of `file`, one per leaf.
fn new_columns<W: Write>(file: &FileWriter<W>) -> Result<Vec<ColumnChunkWriter>> {
    (0..file.schema().num_columns())
        .map(|i| file.column_writer(i))
        .collect()
}

/// The validated schema of rows of `T`, and whether a row is the root's single `value`
/// field rather than the root itself.
pub(crate) fn schema_of<T: ParquetSchema + ?Sized>() -> Result<(Schema, bool)> {
    let node = T::parquet_node(T::PARQUET_MESSAGE_NAME, &FieldAttrs::new());
    let wrapped = !is_plain_group(&node);
    let schema = Schema::new(T::parquet_root())
        .map_err(|e| e.context(format!("the schema of rows of {}", T::PARQUET_MESSAGE_NAME)))?;
    Ok((schema, wrapped))
}

/// Whether `node` is a plain group (the rule `ParquetSchema::parquet_root` uses to decide
/// whether to wrap a row type).
fn is_plain_group(node: &SchemaNode) -> bool {
    matches!(node.kind, NodeKind::Group { .. })
        && node.repetition == Repetition::Required
        && node.logical_type.is_none()
        && node.converted_type.is_none()
}

/// `options` with the column options of `T`'s fields added as per-column overrides, where
/// `options` does not set them for the same column; checks the encodings.
pub(crate) fn apply_column_options(
    schema: &Schema,
    mut options: WriterOptions,
    derived: &[ColumnOptions],
) -> Result<WriterOptions> {
    for column in schema.columns() {
        let path = column.path.to_string();
        let from_type = ColumnOptions::resolve(derived, column.path.parts());
        let mut overrides = options.column_overrides(&path).cloned().unwrap_or_default();
        let before = overrides.clone();
        overrides.compression = overrides.compression.or(from_type.compression);
        overrides.dictionary = overrides.dictionary.or(from_type.dictionary);
        overrides.encoding = overrides.encoding.or(from_type.encoding);
        overrides.bloom_filter = overrides.bloom_filter.or(from_type.bloom_filter);
        if let Some(encoding) = overrides.encoding {
            crate::core::column::check_encoding(encoding, column.physical_type)
                .map_err(|e| e.with_column(path.clone()))?;
        }
        if overrides != before {
            options = options.column(path, overrides);
        }
    }
    Ok(options)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writer_is_send() {
        fn send<S: Send>() {}
        send::<Writer<Vec<u8>, u32>>();
        send::<Writer<BufWriter<File>, std::rc::Rc<u32>>>();
    }
}
