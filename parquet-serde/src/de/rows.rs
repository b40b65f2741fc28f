//! The row loop: every read of rows (the [`Reader`](super::Reader) iterator, the
//! pipelined whole-file read, `Value` rows) deserializes its rows here, one at a time from
//! the cursors a [`Feeder`] installs, and locates their errors: row number, row group and
//! column path.

use std::sync::Arc;

use serde::de::{Deserialize, DeserializeOwned};

use crate::core::file::{ChunkReader, FileReader};
use crate::core::schema::Schema;
use crate::error::{Error, Result};

use super::constant::Constant;
use super::error::DeError;
use super::fast::with_sink;
use super::feed::{Feeder, Group};
use super::node::NodeDe;
use super::probe;
use super::select::select_leaves;
use super::state::State;
use super::tree::Tree;

/// What rows of one type are assembled from: the compiled schema, the cursors, and the
/// leaf columns the type reads.
#[derive(Debug)]
pub(crate) struct Assembly {
    /// The compiled schema, projected (shared with the [`Batch`](super::Batch)es read).
    pub tree: Arc<Tree>,
    /// The cursors and struct plans.
    pub st: State,
    /// Ordinals of the leaf columns decoded, ascending.
    pub projected: Vec<usize>,
    /// Per leaf column: text read into `String` targets.
    pub owned: Vec<bool>,
}

impl Assembly {
    /// The assembly of rows of `T` from files of `schema`: only the leaf columns `T` reads
    /// are projected, and of those only the ones `columns` selects (see
    /// [`select_leaves`]; every one when empty).
    pub fn new<T: Deserialize<'static>, S: AsRef<str>>(
        schema: &Schema,
        columns: &[S],
    ) -> Result<Assembly> {
        Self::with_constants::<T, S>(schema, columns, &[])
    }

    /// [`new`](Self::new) with constant top-level fields for the names the file lacks
    /// (see [`constant`](super::constant)).
    pub fn with_constants<T: Deserialize<'static>, S: AsRef<str>>(
        schema: &Schema,
        columns: &[S],
        constants: &[Constant],
    ) -> Result<Assembly> {
        let mut tree = Tree::new(schema)?;
        tree.set_constants(constants);
        let keep = select_leaves(&tree, schema, columns)?;
        let projection = probe::project::<T>(&mut tree, keep.as_deref())?;
        let mask = &projection.leaves;
        let projected = (0..mask.len()).filter(|&c| mask[c]).collect();
        let st = State::for_reading(&tree);
        Ok(Assembly {
            tree: Arc::new(tree),
            st,
            projected,
            owned: projection.owned,
        })
    }

    /// Drops every cursor.
    pub fn clear_cursors(&mut self) {
        for c in &mut self.st.cursors {
            *c = None;
        }
    }
}

/// A row group taken whole for a batch: the group, the state holding its cursors, and its
/// rows' file rows as runs in order.
pub(crate) type BatchParts = (Group, State, Vec<std::ops::Range<u64>>);

/// Where the row loop is: the row group being read and the next row in it.
#[derive(Debug, Default)]
pub(crate) struct RowLoop {
    /// The row group whose cursors are installed.
    group: Group,
    /// Whether `group` is open (its end not yet checked).
    open: bool,
    /// The next row of `group`.
    next: usize,
    /// Rows handed out, errors included.
    read: u64,
    /// No row is left (the feeder could not go on after an error).
    done: bool,
    /// A row group was asked of the feeder.
    started: bool,
}

impl RowLoop {
    /// Before the first row.
    pub fn new() -> Self {
        Self::default()
    }

    /// Rows handed out so far (failed ones included).
    pub fn rows_read(&self) -> u64 {
        self.read
    }

    /// Whether a row group was asked for yet (rows are then being read).
    pub fn started(&self) -> bool {
        self.started
    }

    /// The row group being read.
    pub fn row_group(&self) -> usize {
        self.group.rg
    }

    /// The next row of `T`, `None` after the last.
    #[inline]
    pub fn next<R: ChunkReader, T: DeserializeOwned, F: Feeder>(
        &mut self,
        file: &FileReader<R>,
        asm: &mut Assembly,
        feeder: &mut F,
    ) -> Option<Result<T>> {
        if self.next == self.group.rows {
            if let Err(e) = self.next_group(file, asm, feeder)? {
                return Some(Err(e));
            }
        }
        let result = T::deserialize(NodeDe::root(&asm.tree, &mut asm.st));
        let k = self.next;
        self.next += 1;
        self.read += 1;
        Some(result.map_err(|e| self.failed_row(e, k, asm, feeder)))
    }

    /// The next rows of `T`, at least one and at most `max`, all of one row group, pushed
    /// onto `out`: `None` after the last row; an error as [`next`](Self::next) gives it,
    /// with the rows before the failing one pushed. A `#[parquet(assemble)]` struct reads
    /// them in one call ([`Fast::rows`](super::fast::Fast::rows)); any other type, one.
    #[inline]
    pub fn next_many<R: ChunkReader, T: DeserializeOwned, F: Feeder>(
        &mut self,
        file: &FileReader<R>,
        asm: &mut Assembly,
        feeder: &mut F,
        out: &mut Vec<T>,
        max: usize,
    ) -> Option<Result<()>> {
        if self.next == self.group.rows {
            if let Err(e) = self.next_group(file, asm, feeder)? {
                return Some(Err(e));
            }
        }
        let more = (self.group.rows - self.next).min(max).saturating_sub(1);
        let before = out.len();
        let result = with_sink(out, more, |sink| {
            T::deserialize(NodeDe::rows(&asm.tree, &mut asm.st, sink))
        });
        // The rows the sink took come before this call's last (or failing) one, row `k`.
        let taken = out.len() - before;
        let k = self.next + taken;
        self.next = k + 1;
        self.read += taken as u64 + 1;
        Some(match result {
            Ok(row) => {
                out.push(row);
                Ok(())
            }
            Err(e) => Err(self.failed_row(e, k, asm, feeder)),
        })
    }

    /// Ends the row group read (checking its cursors ended with it) and moves to the next
    /// one with rows: `None` when there is none left, `Some(Err)` when one cannot be
    /// decoded (its rows are skipped) or the one before did not end with its last row.
    #[cold]
    fn next_group<R: ChunkReader, F: Feeder>(
        &mut self,
        file: &FileReader<R>,
        asm: &mut Assembly,
        feeder: &mut F,
    ) -> Option<Result<()>> {
        self.started = true;
        loop {
            if self.done {
                return None;
            }
            if self.open {
                self.open = false;
                let ended = feeder.end_group(file, asm, &self.group);
                if let Err(e) = ended {
                    asm.clear_cursors();
                    return Some(Err(e));
                }
            }
            match feeder.next_group(file, asm) {
                None => {
                    asm.clear_cursors();
                    self.done = true;
                    return None;
                }
                Some(Err(e)) => return Some(Err(e)),
                Some(Ok(group)) => {
                    self.group = group;
                    self.next = 0;
                    self.open = true;
                    if group.rows > 0 {
                        return Some(Ok(()));
                    }
                }
            }
        }
    }

    /// The next row group whole (or window, see
    /// [`ReadOptions::batch_rows`](crate::ReadOptions::batch_rows)), for a
    /// [`Batch`](super::Batch): its cursors taken out of `asm` (a fresh state left in their
    /// place) with the group and its rows' file rows. Fails when rows of the current row
    /// group were read one by one and some are left.
    pub fn next_batch<R: ChunkReader, F: Feeder>(
        &mut self,
        file: &FileReader<R>,
        asm: &mut Assembly,
        feeder: &mut F,
    ) -> Option<Result<BatchParts>> {
        if self.open && self.next < self.group.rows {
            return Some(Err(Error::invalid_argument(format!(
                "a batch starts where a row group (or a window of `batch_rows`) starts, but {} rows of row group {} (file rows {}..) were read one by one and {} are left",
                self.next,
                self.group.rg,
                self.group.first_row,
                self.group.rows - self.next
            ))));
        }
        if let Err(e) = self.next_group(file, asm, feeder)? {
            return Some(Err(e));
        }
        let group = self.group;
        self.next = group.rows;
        self.read += group.rows as u64;
        let st = std::mem::replace(&mut asm.st, State::for_reading(&asm.tree));
        Some(Ok((group, st, feeder.file_rows(&group))))
    }

    /// Locates the error of row `k` of the group and moves every cursor to the next row.
    #[cold]
    fn failed_row<F: Feeder>(
        &mut self,
        e: DeError,
        k: usize,
        asm: &mut Assembly,
        feeder: &mut F,
    ) -> Error {
        let e = Error::from(e).with_row_group(self.group.rg);
        // A decoding error is about the column chunk, not this row: it reads as a reader
        // decoding the chunk before any row reports it.
        let e = if feeder.decoding_failed() {
            e
        } else {
            e.with_row(feeder.file_row(&self.group, k))
        };
        if !feeder.resync(asm, k + 1) {
            self.done = true;
            self.next = self.group.rows;
            self.open = false;
            asm.clear_cursors();
        }
        e
    }
}
