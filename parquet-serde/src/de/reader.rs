//! [`Reader`]: typed rows from a file, one row group in memory at a time.

use std::fmt;
use std::fs::File;
use std::marker::PhantomData;
use std::path::Path;
use std::sync::Arc;

use serde::de::{Deserialize, DeserializeOwned};

use crate::core::file::{ChunkReader, FileReader, ParquetMetaData, ReadOptions};
use crate::core::schema::Schema;
use crate::error::{Error, Result};
use crate::filter::{FilterOptions, FilterReport, Predicate};
use crate::value::Value;

use super::batch::Batch;
use super::constant::Constant;
use super::feed::{pipelined, Feeder, FileOrder, Filtered, ReaderFeed};
use super::rows::{Assembly, RowLoop};

/// An iterator of the rows of a Parquet file as values of `T`.
///
/// Opening reads the footer and matches `T` against the file schema (see the
/// [crate docs](crate#reading-into-a-rust-type) for the rules); only the columns `T` reads are fetched and decoded,
/// one row group at a time, so memory is bounded by a row group. With more than one
/// thread allowed ([`ReadOptions::threads`], the default on a multi-core machine), the
/// first row group's columns are decoded on several threads, and each next row group's on
/// a background thread while the rows of the one before are handed out (memory then holds
/// two row groups). With a [`filter`](Self::filter), each matched row group's columns are
/// decoded (for the selected rows) on several threads. Each item is one row; after an
/// error in a row the reader moves on to the next row.
///
/// ```
/// # fn main() -> parquet_serde::Result<()> {
/// use parquet_serde::core::column::ColumnBatch;
/// use parquet_serde::Reader;
/// use parquet_serde::core::file::{FileWriter, WriterOptions};
/// use parquet_serde::core::values::ColumnValues;
///
/// // A file with columns `id` and `score`.
/// let schema = "message m { required int64 id; required double score; }".parse()?;
/// let mut writer = FileWriter::new(Vec::new(), schema, WriterOptions::default())?;
/// let mut id = writer.column_writer(0)?;
/// id.write(&ColumnBatch { values: ColumnValues::Int64(vec![1, 2]), def_levels: vec![], rep_levels: vec![] })?;
/// let mut score = writer.column_writer(1)?;
/// score.write(&ColumnBatch { values: ColumnValues::Double(vec![0.5, 1.5]), def_levels: vec![], rep_levels: vec![] })?;
/// writer.write_row_group(vec![id.close()?, score.close()?])?;
/// let (bytes, _) = writer.close()?;
///
/// #[derive(serde::Deserialize, Debug, PartialEq)]
/// struct Id {
///     id: i64,
/// }
/// let reader = Reader::<_, Id>::new(&bytes[..])?;
/// assert_eq!(reader.num_rows(), 2);
/// assert_eq!(reader.projected_columns(), &[0]); // `score` is never decoded
/// let rows = reader.collect::<Result<Vec<_>, _>>()?;
/// assert_eq!(rows, vec![Id { id: 1 }, Id { id: 2 }]);
/// # Ok(())
/// # }
/// ```
pub struct Reader<R, T> {
    file: FileReader<R>,
    asm: Assembly,
    rows: RowLoop,
    feed: ReaderFeed,
    /// The file's path, when opened by path: its errors name it.
    path: Option<Arc<Path>>,
    _rows: PhantomData<fn() -> T>,
}

impl<R, T> fmt::Debug for Reader<R, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Reader")
            .field("projected", &self.asm.projected)
            .field("row_group", &self.rows.row_group())
            .field("row", &self.rows.rows_read())
            .finish_non_exhaustive()
    }
}

// `Deserialize<'static>`, not `DeserializeOwned`: a type that borrows (read by batches)
// opens a reader too; rows one by one need `DeserializeOwned` (the `Iterator` impl).
impl<R: ChunkReader, T: Deserialize<'static>> Reader<R, T> {
    /// Opens a file with default options (page checksums verified).
    pub fn new(reader: R) -> Result<Self> {
        Self::with_options(reader, ReadOptions::default())
    }

    /// Opens a file with `options`.
    pub fn with_options(reader: R, options: ReadOptions) -> Result<Self> {
        Self::from_file_reader(FileReader::with_options(reader, options)?)
    }

    /// Reads rows of `T` from an opened [`FileReader`].
    pub fn from_file_reader(file: FileReader<R>) -> Result<Self> {
        Self::with_constants(file, &[])
    }

    /// [`from_file_reader`](Self::from_file_reader), with constant top-level fields
    /// filling the fields of `T` the file lacks (a dataset's partition values).
    pub(crate) fn with_constants(file: FileReader<R>, constants: &[Constant]) -> Result<Self> {
        let asm = Assembly::with_constants::<T, &str>(file.schema(), &[], constants)?;
        Ok(Reader {
            file,
            asm,
            rows: RowLoop::new(),
            feed: ReaderFeed::FileOrder(FileOrder::new()),
            path: None,
            _rows: PhantomData,
        })
    }

    /// Reads only the rows where `predicate` holds (see [`filter`](crate::filter)): row
    /// groups are skipped by statistics, dictionaries and Bloom filters, pages by the page
    /// index (only the pages holding candidate rows are fetched), and the remaining rows
    /// are tested exactly, so the rows are those of a full scan filtered row by row. The
    /// predicate's columns need not be fields of `T`: they are decoded for the test only.
    /// Calling it again requires both predicates. Fails when rows were already read, a
    /// column is not a leaf of the schema, or a literal does not fit its column.
    ///
    /// ```
    /// # fn main() -> parquet_serde::Result<()> {
    /// use parquet_serde::filter::col;
    /// use parquet_serde::{ParquetSchema, Reader};
    ///
    /// #[derive(serde::Serialize, ParquetSchema)]
    /// struct Log {
    ///     ts: i64,
    ///     level: String,
    ///     message: String,
    /// }
    /// let logs: Vec<Log> = (0..1000)
    ///     .map(|i| Log {
    ///         ts: i,
    ///         level: if i % 100 == 7 { "ERROR" } else { "INFO" }.into(),
    ///         message: format!("event {i}"),
    ///     })
    ///     .collect();
    /// let bytes = parquet_serde::to_vec(&logs)?;
    ///
    /// #[derive(serde::Deserialize, Debug, PartialEq)]
    /// struct Message {
    ///     message: String, // `level` and `ts` are read for the test only
    /// }
    /// let errors = Reader::<_, Message>::new(&bytes[..])?
    ///     .filter(col("level").eq("ERROR").and(col("ts").between(200, 499)))?
    ///     .collect::<Result<Vec<_>, _>>()?;
    /// let messages: Vec<&str> = errors.iter().map(|m| m.message.as_str()).collect();
    /// assert_eq!(messages, ["event 207", "event 307", "event 407"]);
    /// # Ok(())
    /// # }
    /// ```
    pub fn filter(self, predicate: Predicate) -> Result<Self> {
        self.filter_with_options(predicate, FilterOptions::default())
    }

    /// [`filter`](Self::filter), choosing which metadata is used to skip data (the rows
    /// are the same whatever the options).
    pub fn filter_with_options(
        mut self,
        predicate: Predicate,
        options: FilterOptions,
    ) -> Result<Self> {
        if self.rows.started() {
            return Err(Error::invalid_argument(
                "a filter must be set before the first row is read",
            ));
        }
        let predicate = match &self.feed {
            ReaderFeed::Filtered(f) => match f.predicate() {
                Some(old) => old.clone().and(predicate),
                None => predicate,
            },
            ReaderFeed::FileOrder(_) => predicate,
        };
        let filtered =
            Filtered::new(&self.file, predicate, options).map_err(|e| self.at_file(e))?;
        self.feed = ReaderFeed::Filtered(Box::new(filtered));
        Ok(self)
    }
}

impl<R: ChunkReader> Reader<R, Value> {
    /// Keeps, of the rows' fields, only the leaf columns whose dotted paths are one of
    /// `columns` or lie below one (`a` selects `a.b` and `a.c.d`, not `ab`); the other
    /// columns are never decoded, and groups left without a column are left out of the
    /// rows. A MAP's entries are read whole (key and value). In a VARIANT group a shredded
    /// path can be named alone (`attrs.typed_value.status`): the row's variant then holds
    /// what those columns hold, and the group's `metadata` is read too when a `value`
    /// column is. Every column when `columns` is empty. Fails when rows were already read,
    /// or when nothing that exists is named.
    ///
    /// ```
    /// # fn main() -> parquet_serde::Result<()> {
    /// use parquet_serde::record::Value;
    /// use parquet_serde::{ParquetSchema, Reader};
    ///
    /// #[derive(serde::Serialize, ParquetSchema)]
    /// struct Point {
    ///     x: i32,
    ///     y: i32,
    /// }
    /// #[derive(serde::Serialize, ParquetSchema)]
    /// struct Row {
    ///     id: i64,
    ///     at: Point,
    /// }
    /// let bytes = parquet_serde::to_vec(&[Row { id: 1, at: Point { x: 2, y: 3 } }])?;
    /// let rows = Reader::<_, Value>::new(&bytes[..])?
    ///     .select_columns(&["at.y"])?
    ///     .collect::<Result<Vec<_>, _>>()?;
    /// let y = Value::Group(vec![("y".into(), Value::Int(3))]);
    /// assert_eq!(rows, [Value::Group(vec![("at".into(), y)])]);
    /// # Ok(())
    /// # }
    /// ```
    pub fn select_columns<S: AsRef<str>>(mut self, columns: &[S]) -> Result<Self> {
        if self.rows.started() {
            return Err(Error::invalid_argument(
                "columns must be selected before the first row is read",
            ));
        }
        // Constant fields stay when every field is kept or when one is named.
        let mut constants = self.asm.tree.constants.clone();
        if !columns.is_empty() {
            constants.retain(|c| columns.iter().any(|s| s.as_ref() == c.name()));
        }
        self.asm = Assembly::with_constants::<Value, S>(self.file.schema(), columns, &constants)?;
        Ok(self)
    }
}

impl<R: ChunkReader, T: DeserializeOwned> Reader<R, T> {
    /// Every row left, in order, stopping at the first error, with the row groups decoded
    /// and their rows assembled on [`ReadOptions::threads`] threads at once (the calling
    /// one included): for a row type that may go to another thread (`T: Send`). Each
    /// thread holds one row group's columns at a time, so memory holds at most that many
    /// row groups beside the rows. The rows, and the first error, are those of
    /// [`from_slice`](crate::from_slice); an error names its row group, column and row.
    ///
    /// With one thread allowed, a single row group, a [`filter`](Self::filter) or rows
    /// already read, it reads as `from_slice` does (helper threads decode while this thread
    /// assembles).
    ///
    /// ```
    /// # fn main() -> parquet_serde::Result<()> {
    /// use parquet_serde::{ParquetSchema, ReadOptions, Reader, WriterOptions};
    ///
    /// #[derive(serde::Serialize, serde::Deserialize, ParquetSchema, Debug, PartialEq)]
    /// struct Log {
    ///     ts: i64,
    ///     message: String,
    /// }
    /// let logs: Vec<Log> = (0..1000).map(|ts| Log { ts, message: format!("event {ts}") }).collect();
    /// let bytes = parquet_serde::to_vec_with(&logs, WriterOptions::default().row_group_rows(100))?;
    ///
    /// let options = ReadOptions::default().threads(2);
    /// let rows: Vec<Log> = Reader::with_options(&bytes[..], options)?.read_all_par()?;
    /// assert_eq!(rows, logs);
    /// # Ok(())
    /// # }
    /// ```
    pub fn read_all_par(self) -> Result<Vec<T>>
    where
        T: Send,
    {
        let threads = self.file.options().threads;
        let whole = matches!(&self.feed, ReaderFeed::FileOrder(_)) && !self.rows.started();
        if threads < 2 || !whole || self.file.num_row_groups() < 2 {
            let mut rows = Vec::with_capacity(self.capacity());
            self.collect_into(&mut rows)?;
            return Ok(rows);
        }
        super::parallel::read_all(&self.file, &self.asm.tree, &self.asm.projected, threads)
            .map_err(|e| self.at_file(e))
    }

    /// Appends every row left to `out`, stopping at the first error. With more than one
    /// thread allowed ([`ReadOptions::threads`]) and no filter, helper threads decode the
    /// columns while this thread assembles the rows.
    pub(crate) fn collect_into(mut self, out: &mut Vec<T>) -> Result<()> {
        let threads = self.file.options().threads;
        let whole = matches!(&self.feed, ReaderFeed::FileOrder(_)) && !self.rows.started();
        if threads > 1 && whole && !self.asm.projected.is_empty() {
            return pipelined::collect(&self.file, &mut self.asm, threads, out)
                .map_err(|e| self.at_file(e));
        }
        for row in self {
            out.push(row?);
        }
        Ok(())
    }
}

impl<T: Deserialize<'static>> Reader<File, T> {
    /// Opens the file at `path` (read by positioned reads).
    pub fn from_path(path: impl AsRef<Path>) -> Result<Self> {
        Self::from_path_with_options(path, ReadOptions::default())
    }

    /// Opens the file at `path` with reader options (decryption keys, checksums, ...).
    ///
    /// Every error it returns, opening the file or reading its rows, names the file. A
    /// folder is an error that points to `Dataset`, which reads the files of a folder.
    pub fn from_path_with_options(path: impl AsRef<Path>, options: ReadOptions) -> Result<Self> {
        let path = path.as_ref();
        let at = |e: Error| e.context(format_args!("`{}`", path.display()));
        let file = File::open(path).map_err(|e| at(e.into()))?;
        if file.metadata().is_ok_and(|m| m.is_dir()) {
            return Err(at(crate::core::file::not_a_file()));
        }
        let mut reader = Self::with_options(file, options.file_location(path)).map_err(at)?;
        reader.path = Some(path.into());
        Ok(reader)
    }
}

impl<R: ChunkReader, T> Reader<R, T> {
    /// The next row group's rows as a [`Batch`], which a type that borrows its text and
    /// bytes reads (`&str`, `&[u8]`, `Cow`): `None` after the last. The columns decoded are
    /// those `T` reads; with a [`filter`](Self::filter), the batch holds the selected rows
    /// of the next matching row group. Row groups are decoded as the row iterator decodes
    /// them (the next one on a background thread while the batch is used, when worth it).
    /// With [`ReadOptions::batch_rows`], the batch is the next window of at most that many
    /// rows of the row group instead (not with a filter), decoded when asked for.
    /// After an error, the next call moves on to the next row group. Fails when rows of
    /// the current row group (or window) were read one by one and some are left.
    pub fn next_batch(&mut self) -> Option<Result<Batch>> {
        let next = self
            .rows
            .next_batch(&self.file, &mut self.asm, &mut self.feed)?;
        let spares = self.feed.spares();
        let batch = next.and_then(|(group, st, rows)| {
            Batch::new(
                self.asm.tree.clone(),
                st,
                group,
                rows,
                self.path.clone(),
                spares,
            )
        });
        Some(batch.map_err(|e| self.at_file(e)))
    }

    /// `e` naming the file, when it was opened by path.
    #[cold]
    fn at_file(&self, e: Error) -> Error {
        match &self.path {
            Some(path) => e.context(format_args!("`{}`", path.display())),
            None => e,
        }
    }

    /// The batches of [`next_batch`](Self::next_batch), as an iterator.
    pub fn batches(mut self) -> impl Iterator<Item = Result<Batch>> {
        std::iter::from_fn(move || self.next_batch())
    }

    /// The file's schema.
    pub fn schema(&self) -> &Schema {
        self.file.schema()
    }

    /// The file's metadata.
    pub fn metadata(&self) -> &ParquetMetaData {
        self.file.metadata()
    }

    /// Rows in the file (from the footer).
    pub fn num_rows(&self) -> u64 {
        self.file.metadata().num_rows()
    }

    /// Number of row groups.
    pub fn num_row_groups(&self) -> usize {
        self.file.num_row_groups()
    }

    /// Ordinals of the leaf columns that are decoded: those `T` reads.
    pub fn projected_columns(&self) -> &[usize] {
        &self.asm.projected
    }

    /// Room for the rows left (the footer's row count, capped).
    pub(super) fn capacity(&self) -> usize {
        super::capacity::<R, T>(&self.file)
    }

    /// The underlying reader.
    pub fn get_ref(&self) -> &R {
        self.file.get_ref()
    }

    /// What the [`filter`](Self::filter) skipped: row groups pruned and candidate rows
    /// (known when the filter is set), and `rows_selected` counted so far as row groups are
    /// read. `None` without a filter.
    pub fn filter_report(&self) -> Option<&FilterReport> {
        match &self.feed {
            ReaderFeed::Filtered(f) => Some(f.report()),
            ReaderFeed::FileOrder(_) => None,
        }
    }
}

impl<R: ChunkReader, T: DeserializeOwned> Iterator for Reader<R, T> {
    type Item = Result<T>;

    #[inline]
    fn next(&mut self) -> Option<Result<T>> {
        match self.rows.next(&self.file, &mut self.asm, &mut self.feed)? {
            Err(e) => Some(Err(self.at_file(e))),
            ok => Some(ok),
        }
    }
}
