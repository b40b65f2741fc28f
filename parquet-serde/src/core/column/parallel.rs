//! [`ColumnPool`]: the column chunk writers of one row group, fed batch by batch, on the
//! calling thread or on helper threads.
//!
//! With helper threads, a batch of every column is a task: one column's batches are
//! written in order by one thread at a time (a column writer is moved out of its slot while
//! a thread works on it), different columns in parallel. The pages a column writer makes
//! are tasks of their own (compression, encryption, checksum, header), run by any thread
//! in any order and put back in place. The calling thread shreds rows meanwhile and runs
//! tasks itself when the backlog passes a bound, so memory stays bounded: a few batches per
//! column and a few pages in flight.
//!
//! The file does not depend on the threads: pages are the same, and the size estimate
//! that cuts row groups ([`ColumnPool::group_size`]) looks at the chunk sizes a fixed
//! number of batches back, waiting for them if needed.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};

use crate::core::page::{EncodedPage, PageCodec, StoredPage};
use crate::error::{Error, Result};
use crate::exec::{self, Worker};

use super::batch::{clear_values, empty_values_like};
use super::writer::{PageSlot, WrittenColumnChunk};
use super::{ColumnBatch, ColumnChunkWriter};

/// How many batches back the row group size estimate looks at the column writers' sizes
/// (the batches since count at their shredded size). Also the most batches a column may
/// lag behind the calling thread.
const LAG: usize = 4;
/// Ring of per-batch sizes: batches `k - LAG ..= k` fit.
const RING: usize = LAG + 1;
/// Batches of a column written by one task.
const BATCHES_PER_TASK: usize = 1;

/// The column writers of the current row group.
#[derive(Debug)]
pub(crate) struct ColumnPool {
    threads: usize,
    mode: Mode,
    /// Batches written in this row group.
    batches: usize,
    /// Shredded size of the last `LAG` batches (the newest last).
    recent: VecDeque<usize>,
}

#[derive(Debug)]
enum Mode {
    /// Everything on the calling thread; `sizes[k % RING]` is the chunks' encoded size
    /// after batch `k`.
    Inline {
        columns: Vec<ColumnChunkWriter>,
        sizes: [usize; RING],
    },
    /// Helper threads.
    Parallel(Workers),
}

impl ColumnPool {
    /// A pool writing `columns` (one row group), with up to `threads` threads (the calling
    /// thread included; helper threads start with the first [`write`](Self::write) that
    /// allows them).
    pub fn new(threads: usize, columns: Vec<ColumnChunkWriter>) -> Self {
        ColumnPool {
            threads: threads.max(1),
            mode: Mode::Inline {
                columns,
                sizes: [0; RING],
            },
            batches: 0,
            recent: VecDeque::with_capacity(LAG + 1),
        }
    }

    /// Fails with the first error a helper thread met (the writer is then unusable).
    #[inline]
    pub fn check(&self) -> Result<()> {
        match &self.mode {
            Mode::Parallel(w) if w.shared.failed.load(Ordering::Relaxed) => w.check(),
            _ => Ok(()),
        }
    }

    /// Writes one batch per column (in schema order). The batches are left empty (in
    /// parallel mode they are exchanged for recycled, empty buffers). With `parallel`,
    /// helper threads may start.
    pub fn write<'a>(
        &mut self,
        batches: impl ExactSizeIterator<Item = &'a mut ColumnBatch>,
        parallel: bool,
    ) -> Result<()> {
        if parallel && self.threads > 1 {
            self.go_parallel();
        }
        let mut shredded = 0;
        self.batches += 1;
        let k = self.batches;
        match &mut self.mode {
            Mode::Inline { columns, sizes } => {
                let mut total = 0;
                for (column, batch) in columns.iter_mut().zip(batches) {
                    shredded += batch_bytes(batch);
                    column.write(batch)?;
                    clear_batch(batch);
                    total += column.encoded_size();
                }
                sizes[k % RING] = total;
            }
            Mode::Parallel(w) => {
                shredded = w.submit(batches)?;
                // Bounded backlog: batches (see `group_size`) and pages in flight.
                w.help_until(|s| s.pages_out <= s.max_pages)?;
            }
        }
        self.recent.push_back(shredded);
        if self.recent.len() > LAG {
            self.recent.pop_front();
        }
        Ok(())
    }

    /// The row group's size estimate: the chunks' encoded size (before compression) as of
    /// `LAG` batches ago, plus the shredded size of the batches since. It depends only on
    /// the rows written, so row groups are cut at the same rows whatever the threads. In
    /// parallel mode, waits until every column has written the batch `LAG` back (running
    /// tasks meanwhile): this bounds the batches in flight.
    pub fn group_size(&mut self) -> Result<usize> {
        let k = self.batches;
        let recent: usize = self.recent.iter().sum();
        if k <= LAG {
            return Ok(recent);
        }
        let back = k - LAG;
        let encoded = match &mut self.mode {
            Mode::Inline { sizes, .. } => sizes[back % RING],
            Mode::Parallel(w) => {
                w.help_until(|s| s.slots.iter().all(|slot| slot.done >= back))?;
                w.size_at(back)
            }
        };
        Ok(encoded + recent)
    }

    /// Bytes held by the column writers (an estimate in parallel mode).
    pub fn buffered_bytes(&self) -> usize {
        match &self.mode {
            Mode::Inline { columns, .. } => columns.iter().map(|c| c.buffered_bytes()).sum(),
            Mode::Parallel(w) => w.buffered_bytes(),
        }
    }

    /// Closes the row group's column writers and returns their chunks; the next row group
    /// needs [`start`](Self::start).
    pub fn finish(&mut self) -> Result<Vec<WrittenColumnChunk>> {
        self.batches = 0;
        self.recent.clear();
        match &mut self.mode {
            Mode::Inline { columns, .. } => std::mem::take(columns)
                .into_iter()
                .map(ColumnChunkWriter::close)
                .collect(),
            Mode::Parallel(w) => w.finish(),
        }
    }

    /// Starts the next row group, written by `columns`.
    pub fn start(&mut self, columns: Vec<ColumnChunkWriter>) {
        match &mut self.mode {
            Mode::Inline { columns: c, .. } => *c = columns,
            Mode::Parallel(w) => w.start(columns),
        }
    }

    /// Moves the column writers to helper threads (once; stays inline if no thread starts).
    fn go_parallel(&mut self) {
        let Mode::Inline { columns, sizes } = &mut self.mode else {
            return;
        };
        let Some(mut workers) = Workers::spawn(self.threads - 1, columns.len()) else {
            return;
        };
        // Batches written inline so far count as done, with their sizes.
        let k = self.batches;
        let total: Vec<usize> = (0..RING)
            .map(|back| {
                if back < k {
                    sizes[(k - back) % RING]
                } else {
                    0
                }
            })
            .collect();
        workers.adopt(std::mem::take(columns), k, &total);
        self.mode = Mode::Parallel(workers);
    }
}

/// Bytes of a shredded batch (as the shredder counts them).
fn batch_bytes(batch: &ColumnBatch) -> usize {
    super::dict_encoder::value_bytes(&batch.values)
        + 2 * (batch.def_levels.len() + batch.rep_levels.len())
}

/// Empties a batch, keeping its buffers.
fn clear_batch(batch: &mut ColumnBatch) {
    clear_values(&mut batch.values);
    batch.def_levels.clear();
    batch.rep_levels.clear();
}

// -------------------------------------------------------------------------------------
// Helper threads

/// The helper threads and the state they share with the calling thread.
#[derive(Debug)]
struct Workers {
    shared: Arc<Shared>,
    handles: Vec<Worker<()>>,
    /// Working memory of the tasks the calling thread runs.
    scratch: Vec<u8>,
}

#[derive(Debug)]
struct Shared {
    state: Mutex<State>,
    /// Signalled when tasks are queued, and on shutdown.
    work: Condvar,
    /// Signalled when a task ends.
    progress: Condvar,
    /// `State::failed`, readable without the lock.
    failed: AtomicBool,
}

#[derive(Debug)]
struct State {
    slots: Vec<Slot>,
    ready: VecDeque<Task>,
    /// Page tasks queued or running.
    pages_out: usize,
    /// Bytes of their pages.
    page_bytes: usize,
    /// Bound on `pages_out` before the calling thread helps.
    max_pages: usize,
    /// The first error met, until reported.
    error: Option<Error>,
    /// A task failed: later tasks are dropped, every call fails.
    failed: bool,
    shutdown: bool,
}

impl State {
    fn fail(&mut self, e: Error) {
        if !self.failed {
            self.failed = true;
            self.error = Some(e);
        }
    }

    /// The error to report, once a task failed: the first one, then a generic one.
    fn failure(&mut self) -> Option<Error> {
        if !self.failed {
            return None;
        }
        Some(self.error.take().unwrap_or_else(|| {
            Error::invalid_argument("a column writer failed earlier and cannot write more")
        }))
    }
}

/// One column of the row group.
#[derive(Debug)]
struct Slot {
    /// The column's dotted path, for errors.
    path: String,
    /// `None` while a thread works on it.
    writer: Option<ColumnChunkWriter>,
    /// The writer's buffered bytes when a thread took it.
    out_bytes: usize,
    /// Batches waiting, in order.
    queue: VecDeque<ColumnBatch>,
    /// Empty batches to hand to the shredder.
    free: Vec<ColumnBatch>,
    /// A column task is queued or running.
    scheduled: bool,
    /// Close the writer once the queued batches are written.
    closing: bool,
    /// The writer made its last pages.
    closed: bool,
    /// Pages stored while the writer was out of its slot.
    returned: Vec<(PageSlot, StoredPage, Vec<u8>)>,
    /// Batches of the row group written.
    done: usize,
    /// `sizes[k % RING]`: the writer's encoded size after batch `k`.
    sizes: [usize; RING],
}

enum Task {
    /// Write the column's next queued batch (and close it when asked and none is left).
    Column(usize),
    /// Store a page of a column.
    Page {
        column: usize,
        slot: PageSlot,
        page: Box<EncodedPage>,
        codec: Arc<PageCodec>,
    },
}

impl std::fmt::Debug for Task {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Task::Column(c) => write!(f, "Column({c})"),
            Task::Page { column, slot, .. } => write!(f, "Page({column}, {slot:?})"),
        }
    }
}

fn lock(m: &Mutex<State>) -> MutexGuard<'_, State> {
    // Tasks run outside the lock and their panics are caught, so a poisoned lock can only
    // come from a panic in the bookkeeping itself; the state is still the last one written.
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Workers {
    /// `n` helper threads for `columns` columns; `None` when no thread could start.
    fn spawn(n: usize, columns: usize) -> Option<Self> {
        let shared = Arc::new(Shared {
            state: Mutex::new(State {
                slots: Vec::with_capacity(columns),
                ready: VecDeque::new(),
                pages_out: 0,
                page_bytes: 0,
                max_pages: 4 * (n + 1),
                error: None,
                failed: false,
                shutdown: false,
            }),
            work: Condvar::new(),
            progress: Condvar::new(),
            failed: AtomicBool::new(false),
        });
        let mut handles = Vec::with_capacity(n);
        for i in 0..n {
            let s = Arc::clone(&shared);
            let spawned = Worker::spawn(format!("parquet-serde-writer-{i}"), move |_| {
                worker(i, &s);
                Ok(())
            });
            match spawned {
                Ok(h) => handles.push(h),
                Err(_) => break,
            }
        }
        if handles.is_empty() {
            return None;
        }
        Some(Workers {
            shared,
            handles,
            scratch: Vec::new(),
        })
    }

    fn state(&self) -> MutexGuard<'_, State> {
        lock(&self.shared.state)
    }

    fn check(&self) -> Result<()> {
        match self.state().failure() {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    /// Takes `columns` as the writers of the row group, `done` batches into it; `sizes[b]`
    /// is their total encoded size `b` batches back (counted on the first column).
    fn adopt(&mut self, columns: Vec<ColumnChunkWriter>, done: usize, sizes: &[usize]) {
        self.start(columns);
        let mut st = self.state();
        for slot in &mut st.slots {
            slot.done = done;
        }
        if let Some(first) = st.slots.first_mut() {
            for (back, &size) in sizes.iter().enumerate() {
                if back < done {
                    first.sizes[(done - back) % RING] = size;
                }
            }
        }
    }

    /// Starts a row group written by `columns`.
    fn start(&mut self, columns: Vec<ColumnChunkWriter>) {
        let mut st = self.state();
        let reuse = st.slots.len() == columns.len();
        if !reuse {
            st.slots.clear();
        }
        for (i, mut writer) in columns.into_iter().enumerate() {
            writer.defer_pages();
            let path = writer.path_string();
            if reuse {
                let slot = &mut st.slots[i];
                slot.path = path;
                slot.writer = Some(writer);
                slot.queue.clear();
                slot.scheduled = false;
                slot.closing = false;
                slot.closed = false;
                slot.returned.clear();
                slot.done = 0;
                slot.sizes = [0; RING];
            } else {
                st.slots.push(Slot {
                    path,
                    writer: Some(writer),
                    out_bytes: 0,
                    queue: VecDeque::new(),
                    free: Vec::new(),
                    scheduled: false,
                    closing: false,
                    closed: false,
                    returned: Vec::new(),
                    done: 0,
                    sizes: [0; RING],
                });
            }
        }
    }

    /// Queues one batch per column, exchanged for an empty one; returns their shredded
    /// size.
    fn submit<'a>(
        &mut self,
        batches: impl ExactSizeIterator<Item = &'a mut ColumnBatch>,
    ) -> Result<usize> {
        let mut shredded = 0;
        let mut st = self.state();
        if let Some(e) = st.failure() {
            return Err(e);
        }
        let mut queued = 0;
        for (c, batch) in batches.enumerate() {
            shredded += batch_bytes(batch);
            let State { slots, ready, .. } = &mut *st;
            let Some(slot) = slots.get_mut(c) else {
                break;
            };
            let spare = slot.free.pop().unwrap_or_else(|| ColumnBatch {
                values: empty_values_like(&batch.values),
                def_levels: Vec::new(),
                rep_levels: Vec::new(),
            });
            slot.queue.push_back(std::mem::replace(batch, spare));
            if !slot.scheduled {
                slot.scheduled = true;
                ready.push_back(Task::Column(c));
                queued += 1;
            }
        }
        drop(st);
        for _ in 0..queued.min(self.handles.len()) {
            self.shared.work.notify_one();
        }
        Ok(shredded)
    }

    /// Runs queued tasks on the calling thread, or waits for the helpers, until `done`
    /// holds; fails on the first error a task met.
    fn help_until(&mut self, done: impl Fn(&State) -> bool) -> Result<()> {
        let mut st = lock(&self.shared.state);
        loop {
            if let Some(e) = st.failure() {
                return Err(e);
            }
            if done(&st) {
                return Ok(());
            }
            if let Some(task) = st.ready.pop_front() {
                st = run(&self.shared, st, task, &mut self.scratch);
                self.shared.progress.notify_all();
            } else {
                st = self
                    .shared
                    .progress
                    .wait(st)
                    .unwrap_or_else(PoisonError::into_inner);
            }
        }
    }

    /// Total encoded size of the columns after batch `k` (every column has written it, and
    /// at most `LAG` more).
    fn size_at(&self, k: usize) -> usize {
        self.state().slots.iter().map(|s| s.sizes[k % RING]).sum()
    }

    /// Bytes held: queued batches, pages in flight, and what the column writers hold (as
    /// of when a thread took them, for those out of their slot).
    fn buffered_bytes(&self) -> usize {
        let st = self.state();
        let columns: usize = st
            .slots
            .iter()
            .map(|s| {
                let writer = s
                    .writer
                    .as_ref()
                    .map_or(s.out_bytes, |w| w.buffered_bytes());
                let returned: usize = s.returned.iter().map(|(_, p, _)| p.bytes.len()).sum();
                let queued: usize = s.queue.iter().map(batch_bytes).sum();
                writer + returned + queued
            })
            .sum();
        columns + st.page_bytes
    }

    /// Closes every column writer (on the helper threads) and returns the chunks.
    fn finish(&mut self) -> Result<Vec<WrittenColumnChunk>> {
        {
            let mut st = self.state();
            let State { slots, ready, .. } = &mut *st;
            for (c, slot) in slots.iter_mut().enumerate() {
                slot.closing = true;
                if !slot.scheduled {
                    slot.scheduled = true;
                    ready.push_back(Task::Column(c));
                }
            }
        }
        self.shared.work.notify_all();
        self.help_until(|s| {
            s.pages_out == 0 && s.slots.iter().all(|slot| slot.closed && !slot.scheduled)
        })?;
        let mut st = self.state();
        let mut chunks = Vec::with_capacity(st.slots.len());
        for slot in &mut st.slots {
            let Some(mut writer) = slot.writer.take() else {
                return Err(Error::invalid_argument(
                    "a column writer is missing at the end of a row group",
                )
                .with_column(slot.path.clone()));
            };
            for (at, page, body) in slot.returned.drain(..) {
                writer.put_stored(at, page, body);
            }
            chunks.push(writer.finish()?);
        }
        Ok(chunks)
    }
}

impl Drop for Workers {
    fn drop(&mut self) {
        {
            let mut st = self.state();
            st.shutdown = true;
            st.ready.clear();
        }
        self.shared.work.notify_all();
        for h in self.handles.drain(..) {
            // A helper's panics are caught inside its tasks, and reported by the pool.
            let _ = h.join();
        }
    }
}

/// Helper thread `i`: runs tasks until shutdown. Tasks catch their own panics; should one
/// escape the bookkeeping around them, the pool fails (instead of waiting for the thread).
fn worker(i: usize, shared: &Shared) {
    let run = exec::catch(format_args!("column writer thread {i}"), || {
        work(shared);
        Ok(())
    });
    if let Err(e) = run {
        let mut st = lock(&shared.state);
        st.fail(e);
        shared.failed.store(true, Ordering::Relaxed);
        drop(st);
        shared.progress.notify_all();
    }
}

fn work(shared: &Shared) {
    let mut scratch = Vec::new();
    let mut st = lock(&shared.state);
    loop {
        if st.shutdown {
            return;
        }
        match st.ready.pop_front() {
            Some(task) => {
                st = run(shared, st, task, &mut scratch);
                shared.progress.notify_all();
            }
            None => {
                st = shared.work.wait(st).unwrap_or_else(PoisonError::into_inner);
            }
        }
    }
}

/// Runs `task` with the lock released; returns with it held again.
fn run<'a>(
    shared: &'a Shared,
    mut st: MutexGuard<'a, State>,
    task: Task,
    scratch: &mut Vec<u8>,
) -> MutexGuard<'a, State> {
    if st.failed || st.shutdown {
        if let Task::Page { page, .. } = &task {
            st.pages_out -= 1;
            st.page_bytes -= page.body.len();
        }
        return st;
    }
    match task {
        Task::Column(c) => run_column(shared, st, c),
        Task::Page {
            column,
            slot,
            page,
            codec,
        } => {
            drop(st);
            let stored = exec::catch("a column writer's page task", || {
                codec.store(&page, scratch)
            });
            let mut st = lock(&shared.state);
            st.pages_out -= 1;
            st.page_bytes -= page.body.len();
            match stored {
                Ok(stored) => {
                    if let Some(s) = st.slots.get_mut(column) {
                        match s.writer.as_mut() {
                            Some(w) => w.put_stored(slot, stored, page.body),
                            None => s.returned.push((slot, stored, page.body)),
                        }
                    }
                }
                Err(e) => {
                    let path = st.slots.get(column).map(|s| s.path.clone());
                    st.fail(match path {
                        Some(p) => e.with_column(p),
                        None => e,
                    });
                    shared.failed.store(true, Ordering::Relaxed);
                }
            }
            st
        }
    }
}

/// Writes the next queued batch of column `c` (closing it when asked and none is left),
/// then queues its new pages.
fn run_column<'a>(
    shared: &'a Shared,
    mut st: MutexGuard<'a, State>,
    c: usize,
) -> MutexGuard<'a, State> {
    let Some(slot) = st.slots.get_mut(c) else {
        return st;
    };
    let Some(mut writer) = slot.writer.take() else {
        // Only one column task per column is queued or running at a time.
        slot.scheduled = false;
        return st;
    };
    slot.out_bytes = writer.buffered_bytes();
    // One batch at a time: progress shows sooner, and the threads share a long column.
    let take = slot.queue.len().min(BATCHES_PER_TASK);
    let mut batches: Vec<ColumnBatch> = slot.queue.drain(..take).collect();
    let returned = std::mem::take(&mut slot.returned);
    let close = slot.closing && !slot.closed && slot.queue.is_empty();
    drop(st);

    for (at, page, body) in returned {
        writer.put_stored(at, page, body);
    }
    let mut sizes = Vec::with_capacity(batches.len());
    let result = exec::catch("a column writer's task", || -> Result<()> {
        for batch in &batches {
            #[cfg(test)]
            if writer.path_string() == tests::PANIC_COLUMN {
                panic!("column task panics on purpose");
            }
            writer.write(batch)?;
            sizes.push(writer.encoded_size());
        }
        if close {
            writer.close_pages()?;
        }
        Ok(())
    });
    for batch in &mut batches {
        clear_batch(batch);
    }
    let codec = Arc::clone(writer.codec());
    let pages: Vec<(PageSlot, EncodedPage)> = writer.take_encoded().collect();

    let path = writer.path_string();
    let mut st = lock(&shared.state);
    if let Err(e) = result {
        st.fail(e.with_column(path));
        shared.failed.store(true, Ordering::Relaxed);
    }
    let State {
        slots,
        ready,
        pages_out,
        page_bytes,
        ..
    } = &mut *st;
    let slot = &mut slots[c];
    slot.writer = Some(writer);
    slot.free.append(&mut batches);
    for size in sizes {
        slot.done += 1;
        slot.sizes[slot.done % RING] = size;
    }
    if close {
        slot.closed = true;
    }
    let new_pages = pages.len();
    for (at, page) in pages {
        *pages_out += 1;
        *page_bytes += page.body.len();
        ready.push_back(Task::Page {
            column: c,
            slot: at,
            page: Box::new(page),
            codec: Arc::clone(&codec),
        });
    }
    let more = !slot.queue.is_empty() || slot.closing && !slot.closed;
    if more {
        ready.push_back(Task::Column(c));
    } else {
        slot.scheduled = false;
    }
    for _ in 0..new_pages + usize::from(more) {
        shared.work.notify_one();
    }
    st
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::file::{FileWriter, WriterOptions};
    use crate::core::schema::Schema;
    use crate::core::values::{ByteArrays, ColumnValues};
    use crate::error::ErrorKind;

    /// A column whose tasks panic (test builds only).
    pub(super) const PANIC_COLUMN: &str = "panics";

    const SCHEMA: &str = "message m { required int64 id; optional binary name (STRING); \
                          repeated int32 tags; }";

    fn writers(schema: &Schema, options: &WriterOptions) -> Vec<ColumnChunkWriter> {
        let file = FileWriter::new(Vec::new(), schema.clone(), options.clone()).unwrap();
        (0..schema.num_columns())
            .map(|i| file.column_writer(i).unwrap())
            .collect()
    }

    /// Batches `k` of the three columns: 300 rows each.
    fn batches(k: usize) -> Vec<ColumnBatch> {
        let rows = 300;
        let ids: Vec<i64> = (0..rows).map(|i| (k * rows + i) as i64 % 977).collect();
        let mut names = ByteArrays::new();
        let mut def = Vec::new();
        for i in 0..rows {
            if (i + k).is_multiple_of(3) {
                def.push(0);
            } else {
                def.push(1);
                names.push(format!("name {}", (i * 7 + k) % 500).as_bytes());
            }
        }
        let (mut tags, mut tdef, mut trep) = (Vec::new(), Vec::new(), Vec::new());
        for i in 0..rows {
            let n = (i + k) % 4;
            if n == 0 {
                tdef.push(0);
                trep.push(0);
            }
            for j in 0..n {
                tags.push((i * j) as i32);
                tdef.push(1);
                trep.push(i16::from(j > 0));
            }
        }
        vec![
            ColumnBatch {
                values: ColumnValues::Int64(ids),
                def_levels: vec![],
                rep_levels: vec![],
            },
            ColumnBatch {
                values: ColumnValues::ByteArray(names),
                def_levels: def,
                rep_levels: vec![],
            },
            ColumnBatch {
                values: ColumnValues::Int32(tags),
                def_levels: tdef,
                rep_levels: trep,
            },
        ]
    }

    /// Writes `groups` row groups of `n` batches; returns the chunks' bytes and metadata,
    /// and the size estimates after every batch.
    fn write(threads: usize, groups: usize, n: usize) -> (Vec<Vec<u8>>, Vec<usize>) {
        let schema: Schema = SCHEMA.parse().unwrap();
        let options = WriterOptions::default().page_size(2000);
        let mut pool = ColumnPool::new(threads, writers(&schema, &options));
        let mut out = Vec::new();
        let mut sizes = Vec::new();
        for g in 0..groups {
            for k in 0..n {
                let mut b = batches(g * n + k);
                // The first batch of the file is written inline, as a small file's would be.
                pool.write(b.iter_mut(), g + k > 0).unwrap();
                assert!(b.iter().all(|b| b.num_levels() == 0));
                sizes.push(pool.group_size().unwrap());
                assert!(pool.buffered_bytes() > 0);
            }
            for chunk in pool.finish().unwrap() {
                let mut bytes = chunk.to_bytes();
                crate::core::format::encode(&chunk.metadata, &mut bytes);
                out.push(bytes);
            }
            pool.start(writers(&schema, &options));
        }
        (out, sizes)
    }

    #[test]
    fn same_chunks_whatever_the_threads() {
        let (one, sizes) = write(1, 3, 9);
        assert!(sizes.windows(2).any(|w| w[1] > w[0]));
        for threads in [2, 3, 4] {
            let (many, many_sizes) = write(threads, 3, 9);
            assert_eq!(many, one, "{threads} threads");
            assert_eq!(many_sizes, sizes, "{threads} threads");
        }
    }

    #[test]
    fn empty_row_groups_and_single_batches() {
        let (one, _) = write(1, 2, 1);
        assert_eq!(write(2, 2, 1).0, one);
        let schema: Schema = SCHEMA.parse().unwrap();
        let options = WriterOptions::default();
        let mut pool = ColumnPool::new(2, writers(&schema, &options));
        let mut b = batches(0);
        pool.write(b.iter_mut(), true).unwrap();
        // Dropping a pool with work queued stops its threads.
        drop(pool);
    }

    #[test]
    fn a_panicking_task_is_an_error() {
        let schema: Schema = format!("message m {{ required int32 {PANIC_COLUMN}; }}")
            .parse()
            .unwrap();
        let options = WriterOptions::default();
        let mut pool = ColumnPool::new(2, writers(&schema, &options));
        let batch = || ColumnBatch {
            values: ColumnValues::Int32(vec![1, 2, 3]),
            def_levels: vec![],
            rep_levels: vec![],
        };
        let mut failed = None;
        for _ in 0..50 {
            let mut b = [batch()];
            let r = pool
                .write(b.iter_mut(), true)
                .and_then(|()| pool.group_size().map(drop))
                .and_then(|()| pool.check());
            if let Err(e) = r {
                failed = Some(e);
                break;
            }
        }
        let e = failed.expect("the panic is reported");
        assert_eq!(e.kind(), ErrorKind::Internal);
        assert_eq!(
            e.message(),
            "a column writer's task panicked: column task panics on purpose"
        );
        assert_eq!(e.location().column.as_deref(), Some(PANIC_COLUMN));
        // Every later call fails too, without waiting.
        assert!(pool.check().is_err());
        assert!(pool.finish().is_err());
    }

    #[test]
    fn a_failing_column_is_reported_with_its_path() {
        // Levels that do not fit the column fail inside the column task.
        let schema: Schema = SCHEMA.parse().unwrap();
        let options = WriterOptions::default();
        let mut pool = ColumnPool::new(3, writers(&schema, &options));
        let mut b = batches(0);
        pool.write(b.iter_mut(), true).unwrap();
        let mut bad = batches(1);
        bad[1].def_levels.push(1);
        // Reported by this call (when the calling thread ran the task) or the next one.
        let e = match pool.write(bad.iter_mut(), true) {
            Err(e) => e,
            Ok(()) => pool.finish().unwrap_err(),
        };
        assert_eq!(e.kind(), ErrorKind::Data);
        assert_eq!(e.location().column.as_deref(), Some("name"));
        let mut b = batches(2);
        assert!(pool.write(b.iter_mut(), true).is_err());
    }
}
