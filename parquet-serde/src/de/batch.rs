//! [`Batch`]: a row group's decoded columns, whose rows may borrow their text and bytes.

use std::cell::{Cell, RefCell};
use std::fmt;
use std::ops::Range;
use std::path::Path;
use std::sync::Arc;

use serde::Deserialize;

use crate::error::{Error, ErrorKind, Result};

use super::fast::with_sink;
use super::feed::{entries_past_last_row, Group, Spares};
use super::node::NodeDe;
use super::state::State;
use super::tree::Tree;

/// The decoded columns of one row group (with a filter, of its selected rows; with
/// [`ReadOptions::batch_rows`](crate::ReadOptions::batch_rows), of a window of at most that
/// many of its rows), whose rows
/// are read with [`rows`](Self::rows) into any `T: Deserialize<'b>`: a type with `&'b str`,
/// `&'b [u8]` (with `serde_bytes`) or `Cow<'b, str>` (with `#[serde(borrow)]`) fields
/// borrows them from the batch, with no allocation per value.
///
/// Batches come from [`Reader::next_batch`](crate::Reader::next_batch) and
/// [`Reader::batches`](crate::Reader::batches) (with or without a
/// [`filter`](crate::Reader::filter)), and from
/// [`DatasetReader::next_batch`](crate::dataset::DatasetReader::next_batch); the columns
/// decoded are those the reader's row type reads (name the borrowing type itself:
/// `Reader::<_, Row>`). A batch owns its data: it may outlive its reader and go to another
/// thread. [`Value`](crate::record::Value) rows stay owned.
///
/// ```
/// # fn main() -> parquet_serde::Result<()> {
/// use std::borrow::Cow;
/// use parquet_serde::{ParquetSchema, Reader};
///
/// #[derive(serde::Serialize, ParquetSchema)]
/// struct Log {
///     level: String,
///     message: String,
///     #[serde(with = "serde_bytes")]
///     payload: Vec<u8>,
/// }
/// let logs: Vec<Log> = (0..3)
///     .map(|i| Log { level: "INFO".into(), message: format!("event {i}"), payload: vec![i] })
///     .collect();
/// let bytes = parquet_serde::to_vec(&logs)?;
///
/// #[derive(serde::Deserialize, Debug, PartialEq)]
/// struct Borrowed<'a> {
///     message: &'a str,
///     #[serde(borrow)]
///     level: Cow<'a, str>,
///     #[serde(with = "serde_bytes")]
///     payload: &'a [u8],
/// }
/// let mut messages = Vec::new();
/// for batch in Reader::<_, Borrowed>::new(&bytes[..])?.batches() {
///     let batch = batch?;
///     let rows: Vec<Borrowed> = batch.rows()?;
///     assert!(matches!(rows[0].level, Cow::Borrowed("INFO")));
///     messages.extend(rows.iter().map(|r| r.message.to_owned()));
/// }
/// assert_eq!(messages, ["event 0", "event 1", "event 2"]);
/// # Ok(())
/// # }
/// ```
///
/// The rows borrow the batch: they cannot outlive it.
///
/// ```compile_fail
/// # fn main() -> parquet_serde::Result<()> {
/// # #[derive(serde::Serialize, parquet_serde::ParquetSchema)]
/// # struct Log { message: String }
/// # let bytes = parquet_serde::to_vec(&[Log { message: "a".into() }])?;
/// #[derive(serde::Deserialize)]
/// struct Borrowed<'a> {
///     message: &'a str,
/// }
/// let mut reader = parquet_serde::Reader::<_, Borrowed>::new(&bytes[..])?;
/// let rows: Vec<Borrowed> = {
///     let batch = reader.next_batch().unwrap()?;
///     batch.rows()? // `batch` is dropped here while `rows` borrow it
/// };
/// # drop(rows);
/// # Ok(())
/// # }
/// ```
pub struct Batch {
    tree: Arc<Tree>,
    /// The cursors (their positions move as rows are read; their buffers never change).
    st: RefCell<State>,
    /// The batch row the cursors stand at, when known (after rows read without error).
    at: Cell<Option<usize>>,
    group: Group,
    /// The file rows of the batch's rows, as runs in order.
    file_rows: Vec<Range<u64>>,
    /// The file's path, when its reader was opened by path: errors name it.
    path: Option<Arc<Path>>,
    /// Where the cursors' buffers go when the batch is dropped (a window's: see
    /// [`ReadOptions::batch_rows`](crate::ReadOptions::batch_rows)), for the next windows.
    spares: Option<Arc<Spares>>,
}

impl Drop for Batch {
    fn drop(&mut self) {
        if let Some(spares) = &self.spares {
            spares.take_back(&mut self.st.get_mut().cursors);
        }
    }
}

impl fmt::Debug for Batch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Batch")
            .field("row_group", &self.group.rg)
            .field("rows", &self.group.rows)
            .finish_non_exhaustive()
    }
}

impl Batch {
    /// The batch of `group`, whose cursors `st` holds (each over the whole group: no feed);
    /// their buffers go to `spares`, if given, when it is dropped.
    pub(super) fn new(
        tree: Arc<Tree>,
        st: State,
        group: Group,
        file_rows: Vec<Range<u64>>,
        path: Option<Arc<Path>>,
        spares: Option<Arc<Spares>>,
    ) -> Result<Batch> {
        let mut st = st.into_lending();
        // What `rows` lends must stay put: a cursor refilled from a feed would replace its
        // buffers while rows borrow them.
        if !st.cursors.iter_mut().flatten().all(|c| c.rewind()) {
            return Err(Error::new(
                ErrorKind::Internal,
                "a batch's cursors must hold their whole row group",
            ));
        }
        Ok(Batch {
            tree,
            st: RefCell::new(st),
            at: Cell::new(Some(0)),
            group,
            file_rows,
            path,
            spares,
        })
    }

    /// The rows of the batch as `T`, in order, stopping at the first error. Text and bytes
    /// read into `&str`, `&[u8]` (with `serde_bytes`) or `Cow` (with `#[serde(borrow)]`)
    /// borrow from the batch; `String`s and the rest are owned as with
    /// [`Reader`](crate::Reader). A `&str` of a value that is converted to become text (a
    /// date, a decimal, a UUID) cannot borrow: that is an error naming the column and row
    /// (read it into a `String` or a `Cow`).
    ///
    /// Each call reads the rows again from the first one (rows of several types may
    /// borrow from one batch at once). An error names the row group, the column and the
    /// row (counted from the start of the file), as a [`Reader`]'s rows do.
    ///
    /// [`Reader`]: crate::Reader
    pub fn rows<'b, T: Deserialize<'b>>(&'b self) -> Result<Vec<T>> {
        self.rows_in(0..self.group.rows)
    }

    /// The rows `rows` of the batch (counted from its first row) as `T`, in order, as
    /// [`rows`](Self::rows) reads them: a batch's rows read a slice at a time keep only
    /// that many rows in memory at once (a batch may be a whole row group; to bound the
    /// decoded values too, see [`ReadOptions::batch_rows`](crate::ReadOptions::batch_rows)).
    /// Reading the slices
    /// in order costs no more than reading them at once; a slice that does not start where
    /// the last one ended first finds its first row.
    ///
    /// ```
    /// # fn main() -> parquet_serde::Result<()> {
    /// # #[derive(serde::Serialize, parquet_serde::ParquetSchema)]
    /// # struct Log { message: String }
    /// # let logs: Vec<Log> = (0..10).map(|i| Log { message: format!("event {i}") }).collect();
    /// # let bytes = parquet_serde::to_vec(&logs)?;
    /// #[derive(serde::Deserialize)]
    /// struct Borrowed<'a> {
    ///     message: &'a str,
    /// }
    /// for batch in parquet_serde::Reader::<_, Borrowed>::new(&bytes[..])?.batches() {
    ///     let batch = batch?;
    ///     let mut start = 0;
    ///     while start < batch.num_rows() {
    ///         let end = (start + 4).min(batch.num_rows());
    ///         let rows: Vec<Borrowed> = batch.rows_in(start..end)?;
    ///         assert_eq!(rows[0].message, format!("event {start}"));
    ///         start = end;
    ///     }
    /// }
    /// # Ok(())
    /// # }
    /// ```
    ///
    /// A range past the batch's rows is an error.
    pub fn rows_in<'b, T: Deserialize<'b>>(&'b self, rows: Range<usize>) -> Result<Vec<T>> {
        if rows.start > rows.end || rows.end > self.group.rows {
            return Err(Error::invalid_argument(format!(
                "rows {}..{} of a batch of {} rows",
                rows.start, rows.end, self.group.rows
            )));
        }
        // Only a `Deserialize` impl that reads this batch inside a row finds it busy.
        let Ok(mut st) = self.st.try_borrow_mut() else {
            return Err(Error::invalid_argument(
                "a batch's rows were asked for while its rows were being read",
            ));
        };
        let st = &mut *st;
        if self.at.get() != Some(rows.start) {
            for c in st.cursors.iter_mut().flatten() {
                if rows.start == 0 {
                    c.rewind();
                } else {
                    c.seek_row(rows.start);
                }
            }
        }
        // Unknown until the rows are read.
        self.at.set(None);
        let mut out = Vec::with_capacity(rows.len());
        let tree = &self.tree;
        while out.len() < rows.len() {
            // An assembled `T` reads the rows after this one into `out` in the same call
            // (`Fast::rows`), leaving in it exactly the rows before a failing one.
            let more = rows.len() - out.len() - 1;
            let row = with_sink(&mut out, more, |sink| {
                T::deserialize(NodeDe::rows(tree, st, sink))
            });
            match row {
                Ok(row) => out.push(row),
                Err(e) => {
                    let k = rows.start + out.len();
                    return Err(self.locate(Error::from(e).with_row(self.file_row(k))));
                }
            }
        }
        if rows.end == self.group.rows {
            for (col, c) in st.cursors.iter().enumerate() {
                if c.as_ref().is_some_and(|c| !c.at_end()) {
                    let path = &self.tree.nodes[self.tree.leaf_nodes[col]].path;
                    let e = entries_past_last_row();
                    return Err(self.locate(e.with_column(path.to_string())));
                }
            }
        }
        self.at.set(Some(rows.end));
        Ok(out)
    }

    /// The batch with its errors naming the file at `path` (a dataset's file).
    pub(crate) fn in_file(mut self, path: &Path) -> Batch {
        self.path = Some(Arc::from(path));
        self
    }

    /// Rows in the batch.
    pub fn num_rows(&self) -> usize {
        self.group.rows
    }

    /// The row group the batch holds (rows of).
    pub fn row_group(&self) -> usize {
        self.group.rg
    }

    /// The file row (counted from the start of the file) of the batch's first row.
    pub fn first_row(&self) -> u64 {
        self.file_rows
            .first()
            .map_or(self.group.first_row, |r| r.start)
    }

    /// The file row of row `k` of the batch.
    fn file_row(&self, k: usize) -> u64 {
        let mut k = k as u64;
        for r in &self.file_rows {
            let len = r.end - r.start;
            if k < len {
                return r.start + k;
            }
            k -= len;
        }
        self.group.first_row
    }

    /// `e` in this batch's row group (and file, when known).
    #[cold]
    fn locate(&self, e: Error) -> Error {
        let e = e.with_row_group(self.group.rg);
        match &self.path {
            Some(path) => e.context(format_args!("`{}`", path.display())),
            None => e,
        }
    }
}
