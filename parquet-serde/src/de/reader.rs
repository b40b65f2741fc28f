//! [`Reader`]: typed rows from a file, one row group in memory at a time.

use std::fmt;
use std::fs::File;
use std::marker::PhantomData;
use std::path::Path;

use serde::de::DeserializeOwned;

use crate::error::{Error, Result};
use crate::file::{ChunkReader, FileReader, ParquetMetaData, ReadOptions, RowSelection};
use crate::filter::{
    bind_predicate, Bound, Candidate, Filter, FilterOptions, FilterReport, Predicate,
};
use crate::schema::Schema;

use super::cursor::Cursor;
use super::load::{self, ReadAhead};
use super::node::NodeDe;
use super::probe;
use super::state::State;
use super::tree::Tree;

/// An iterator of the rows of a Parquet file as values of `T`.
///
/// Opening reads the footer and matches `T` against the file schema (see the
/// [module docs](super) for the rules); only the columns `T` reads are fetched and decoded,
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
    tree: Tree,
    st: State,
    projected: Vec<usize>,
    /// Projected text columns read into `String` targets.
    owned: Vec<bool>,
    next_row_group: usize,
    row_group: usize,
    rows_in_group: usize,
    rows_left: usize,
    row: u64,
    filtering: Option<Box<Filtering>>,
    /// The next row group, being decoded on a background thread.
    ahead: Option<ReadAhead>,
    _rows: PhantomData<fn() -> T>,
}

/// The selected rows of a row group, their count, and the cursors of its projected columns
/// over those rows (in projected order; decoded in order, they stop at the first error).
type SelectedGroup = (RowSelection, usize, Vec<Result<Cursor>>);

/// The state of a filtered reader: the predicate and the row groups left after pruning.
struct Filtering {
    /// The predicate, its binding and options (taken out while a row group is matched).
    parts: Option<(Predicate, Bound, FilterOptions)>,
    candidates: std::vec::IntoIter<Candidate>,
    report: FilterReport,
    /// The selected rows of the row group being read, and the file row of its first row.
    selected: RowSelection,
    group_start: u64,
}

impl<R, T> fmt::Debug for Reader<R, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Reader")
            .field("projected", &self.projected)
            .field("row_group", &self.row_group)
            .field("row", &self.row)
            .finish_non_exhaustive()
    }
}

impl<R: ChunkReader, T: DeserializeOwned> Reader<R, T> {
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
        let mut tree = Tree::new(file.schema())?;
        let projection = probe::project::<T>(&mut tree)?;
        let mask = &projection.leaves;
        let projected: Vec<usize> = (0..mask.len()).filter(|&c| mask[c]).collect();
        let st = State::for_reading(&tree);
        Ok(Reader {
            file,
            tree,
            st,
            projected,
            owned: projection.owned,
            next_row_group: 0,
            row_group: 0,
            rows_in_group: 0,
            rows_left: 0,
            row: 0,
            filtering: None,
            ahead: None,
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
        if self.next_row_group > 0 || self.row > 0 {
            return Err(Error::invalid_argument(
                "a filter must be set before the first row is read",
            ));
        }
        let predicate = match self.filtering.take().and_then(|f| f.parts) {
            Some((old, _, _)) => old.and(predicate),
            None => predicate,
        };
        let bound = bind_predicate(&predicate, self.file.schema())?;
        let filter = Filter::from_parts(&self.file, predicate, bound, options);
        let (candidates, report) = filter.prune_inner()?;
        let parts = filter.into_parts();
        self.filtering = Some(Box::new(Filtering {
            parts: Some(parts),
            candidates: candidates.into_iter(),
            report,
            selected: RowSelection::none(),
            group_start: 0,
        }));
        Ok(self)
    }
}

impl<R: ChunkReader, T: DeserializeOwned> Reader<R, T> {
    /// Appends every row left to `out`, stopping at the first error. With more than one
    /// thread allowed ([`ReadOptions::threads`]) and no filter, helper threads decode the
    /// columns while this thread assembles the rows.
    pub(super) fn collect_into(mut self, out: &mut Vec<T>) -> Result<()> {
        let threads = self.file.options().threads;
        if threads > 1
            && self.filtering.is_none()
            && self.next_row_group == 0
            && !self.projected.is_empty()
        {
            return super::pipeline::collect(
                &self.file,
                &self.tree,
                &mut self.st,
                &self.projected,
                &self.owned,
                threads,
                out,
            );
        }
        for row in self {
            out.push(row?);
        }
        Ok(())
    }
}

impl<T: DeserializeOwned> Reader<File, T> {
    /// Opens the file at `path` (read by positioned reads).
    pub fn from_path(path: impl AsRef<Path>) -> Result<Self> {
        Self::from_path_with_options(path, ReadOptions::default())
    }

    /// Opens the file at `path` with reader options (decryption keys, checksums, ...).
    pub fn from_path_with_options(path: impl AsRef<Path>, options: ReadOptions) -> Result<Self> {
        let path = path.as_ref();
        let file = File::open(path).map_err(|e| Error::from(e).context(path.display()))?;
        Self::with_options(file, options)
    }
}

impl<R: ChunkReader, T> Reader<R, T> {
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
        self.file.metadata().num_rows().max(0) as u64
    }

    /// Number of row groups.
    pub fn num_row_groups(&self) -> usize {
        self.file.num_row_groups()
    }

    /// Ordinals of the leaf columns that are decoded: those `T` reads.
    pub fn projected_columns(&self) -> &[usize] {
        &self.projected
    }

    /// The underlying reader.
    pub fn get_ref(&self) -> &R {
        self.file.get_ref()
    }

    /// What the [`filter`](Self::filter) skipped: row groups pruned and candidate rows
    /// (known when the filter is set), and `rows_selected` counted so far as row groups are
    /// read. `None` without a filter.
    pub fn filter_report(&self) -> Option<&FilterReport> {
        self.filtering.as_ref().map(|f| &f.report)
    }

    /// Matches the next candidate row group of a filter and decodes the projected columns
    /// for its selected rows only: its row group and selected row count, `None` at the end.
    ///
    /// With more than one thread allowed and enough stored bytes, the projected columns
    /// are shared out among that many threads; the error reported is still the first
    /// failing column's in schema order.
    fn load_filtered(&mut self) -> Option<Result<(usize, usize)>> {
        let threads = self.file.options().threads;
        let f = self.filtering.as_mut()?;
        loop {
            let candidate = f.candidates.next()?;
            let rg = candidate.rg;
            let (predicate, bound, options) = f.parts.take()?;
            let filter = Filter::from_parts(&self.file, predicate, bound, options);
            let file = &self.file;
            let projected = &self.projected;
            let loaded = (|| -> Result<Option<SelectedGroup>> {
                let Some(m) = filter.match_candidate(candidate)? else {
                    return Ok(None);
                };
                let rows = usize::try_from(m.selected.row_count())
                    .map_err(|_| Error::corrupt("row count exceeds memory"))?;
                let decode = |col: usize| {
                    let descr = &file.schema().columns()[col];
                    let batch = filter
                        .read_selected(&m, col)
                        .map_err(|e| e.with_row_group(rg).with_column(descr.path.to_string()))?;
                    load::cursor_of(batch, descr, rg, rows, |held, rows| {
                        format!("column holds {held} selected rows, the filter selected {rows}")
                    })
                };
                let cursors = load::columns(file, rg, projected, threads, decode);
                Ok(Some((m.selected, rows, cursors)))
            })();
            f.parts = Some(filter.into_parts());
            let group_start: u64 = self.file.metadata().file.row_groups[..rg]
                .iter()
                .map(|g| g.num_rows.max(0) as u64)
                .sum();
            f.group_start = group_start;
            let (selected, rows, cursors) = match loaded {
                Ok(Some(x)) => x,
                Ok(None) => continue,
                Err(e) => return Some(Err(e.with_row_group(rg))),
            };
            f.report.rows_selected += selected.row_count();
            f.selected = selected;
            for c in &mut self.st.cursors {
                *c = None;
            }
            for (&col, cursor) in self.projected.iter().zip(cursors) {
                match cursor {
                    Ok(cursor) => self.st.cursors[col] = Some(cursor),
                    Err(e) => return Some(Err(e)),
                }
            }
            return Some(Ok((rg, rows)));
        }
    }

    /// Decodes the projected columns of row group `rg`; its row count.
    ///
    /// With more than one thread allowed ([`ReadOptions::threads`]), the columns are shared
    /// out among that many threads (the calling one included), or were decoded ahead while
    /// the rows of the row group before were read; and the next row group's decoding
    /// starts on a background thread. The error reported is the first failing column's in
    /// schema order, as one thread decoding them in order would find it.
    fn load(&mut self, rg: usize) -> Result<usize> {
        for c in &mut self.st.cursors {
            *c = None;
        }
        let rows = load::group_rows(&self.file, rg)?;
        let threads = self.file.options().threads;
        let (file, projected) = (&self.file, &self.projected);
        let cursors = match self.ahead.take() {
            Some(ahead) if ahead.row_group() == rg => ahead.finish(),
            _ => load::columns(file, rg, projected, threads, |col| {
                load::load_column(file, rg, rows, col)
            }),
        };
        let next = rg + 1;
        if next < file.num_row_groups() && load::worth_threads(file, next, projected, threads) {
            self.ahead = ReadAhead::start(file, next, projected);
        }
        for (&col, cursor) in self.projected.iter().zip(cursors) {
            self.st.cursors[col] = Some(cursor?);
        }
        Ok(rows)
    }

    /// Checks that the finished row group left no level entries unread.
    fn check_finished(&self) -> Result<()> {
        check_finished(
            &self.st,
            &self.projected,
            self.file.schema(),
            self.row_group,
        )
    }
}

/// Checks that the cursors of the `projected` columns of finished row group `rg` hold no
/// level entries past its last row.
pub(super) fn check_finished(
    st: &State,
    projected: &[usize],
    schema: &Schema,
    rg: usize,
) -> Result<()> {
    for &col in projected {
        if let Some(c) = &st.cursors[col] {
            if !c.at_end() {
                return Err(Error::corrupt("column has level entries past the last row")
                    .with_row_group(rg)
                    .with_column(schema.columns()[col].path.to_string()));
            }
        }
    }
    Ok(())
}

impl<R: ChunkReader, T> Reader<R, T> {
    /// Moves to the next row group with rows: `None` when there is none left, `Some(Err)`
    /// when one cannot be decoded (its rows are skipped).
    #[cold]
    fn next_group(&mut self) -> Option<Result<()>> {
        while self.rows_left == 0 {
            if self.next_row_group > 0 && self.st.cursors.iter().any(Option::is_some) {
                let finished = self.check_finished();
                for c in &mut self.st.cursors {
                    *c = None;
                }
                if let Err(e) = finished {
                    return Some(Err(e));
                }
            }
            if self.filtering.is_some() {
                self.next_row_group += 1;
                match self.load_filtered()? {
                    Ok((rg, rows)) => {
                        self.row_group = rg;
                        self.rows_left = rows;
                        self.rows_in_group = rows;
                    }
                    Err(e) => {
                        for c in &mut self.st.cursors {
                            *c = None;
                        }
                        return Some(Err(e));
                    }
                }
                continue;
            }
            let rg = self.next_row_group;
            if rg >= self.file.num_row_groups() {
                return None;
            }
            self.next_row_group += 1;
            self.row_group = rg;
            match self.load(rg) {
                Ok(rows) => {
                    self.rows_left = rows;
                    self.rows_in_group = rows;
                }
                Err(e) => {
                    let rows = self.file.metadata().file.row_groups[rg].num_rows.max(0) as u64;
                    self.row += rows;
                    for c in &mut self.st.cursors {
                        *c = None;
                    }
                    return Some(Err(e));
                }
            }
        }
        Some(Ok(()))
    }

    /// Locates a row's error and moves every cursor to the start of the next row.
    #[cold]
    fn failed_row(&mut self, e: super::error::DeError, row: u64) -> Error {
        let next = self.rows_in_group - self.rows_left;
        for &col in &self.projected {
            if let Some(c) = &mut self.st.cursors[col] {
                c.seek_row(next);
            }
        }
        let row = match &self.filtering {
            // The row's place in the file: the `next - 1`th selected row of the group.
            Some(f) => {
                let mut k = next.saturating_sub(1) as u64;
                let mut at = row;
                for r in f.selected.ranges() {
                    let len = r.end - r.start;
                    if k < len {
                        at = f.group_start + r.start + k;
                        break;
                    }
                    k -= len;
                }
                at
            }
            None => row,
        };
        Error::from(e).with_row_group(self.row_group).with_row(row)
    }
}

impl<R: ChunkReader, T: DeserializeOwned> Iterator for Reader<R, T> {
    type Item = Result<T>;

    #[inline]
    fn next(&mut self) -> Option<Result<T>> {
        if self.rows_left == 0 {
            if let Err(e) = self.next_group()? {
                return Some(Err(e));
            }
        }
        let result = T::deserialize(NodeDe::root(&self.tree, &mut self.st));
        let row = self.row;
        self.row += 1;
        self.rows_left -= 1;
        Some(result.map_err(|e| self.failed_row(e, row)))
    }
}
