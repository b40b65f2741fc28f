//! Reading every row with helper threads: they fetch, decrypt, decompress and decode the
//! projected column chunks a run of whole rows at a time (and validate text, and build
//! owned `String`s for `String` targets when they are ahead), while the calling thread
//! assembles rows from what they send. Rows of `T` are only ever built on the calling
//! thread, so `T` need not be `Send`.
//!
//! Each column has a bounded lane of an [`exec::Handoff`] ([`AHEAD`] runs). A helper
//! always decodes, among its columns of the current row group, the one it has sent the
//! fewest rows of: the column
//! the calling thread will run out of first. So a helper blocked on a full lane is never
//! what the calling thread waits for, and memory stays bounded by a few pages per column.
//! (Column chunks that disagree on their rows could break that; the hand-off then fails
//! the read instead of waiting for good.)

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;

use serde::de::DeserializeOwned;

use crate::core::column::ColumnChunkReader;
use crate::core::file::{ChunkReader, FileReader};
use crate::core::format::Type;
use crate::error::{Error, Result};
use crate::exec::{self, prefault, Handoff, Producer, Taken};

use super::super::cursor::{Cursor, Feed, Segment};
use super::super::rows::{Assembly, RowLoop};
use super::row_pages::RowPages;
use super::shared_out::share_out;
use super::{
    check_finished, entries_past_last_row, group_rows, stored_bytes, Feeder, Group, GroupOrder,
};

/// Runs of rows decoded ahead per column.
const AHEAD: usize = 2;
/// Rows between two reports of the calling thread's progress (to the prefault helper).
const PROGRESS_ROWS: usize = 256;

/// The runs of every projected column (lane `k` for [`Job::slot`] `k`), and the used
/// segments coming back.
type Lanes = Handoff<Run, Segment>;

/// The error of a helper waiting for room in one of its columns while the calling thread
/// waits on another of them: the column chunks disagree on their rows.
fn stuck() -> Error {
    Error::corrupt("column chunks disagree on where their rows end")
}

/// One projected column as a helper decodes it.
#[derive(Debug, Clone)]
struct Job {
    /// Its lane.
    slot: usize,
    col: usize,
    path: String,
    physical: Type,
    type_length: i32,
    max_def: i16,
    max_rep: i16,
    /// Build owned `String`s (when ahead).
    owned: bool,
}

/// A cursor's feed: the runs a helper sends down the column's lane (and the used ones it
/// gets back, to reuse their buffers).
struct ChannelFeed {
    lanes: Arc<Lanes>,
    slot: usize,
    /// Set once a cursor has met the read's error.
    reported: Arc<AtomicBool>,
}

impl ChannelFeed {
    /// The column cannot go on: the first error of the read.
    fn ended(&self, taken: Taken<Run>) -> Error {
        self.reported.store(true, Ordering::Relaxed);
        match taken {
            Taken::Failed(e) => e,
            _ => Error::corrupt("column data ended before its row group"),
        }
    }
}

/// What a helper sends down a column's lane.
enum Run {
    /// The next rows of the column chunk.
    Rows(Segment),
    /// The column chunk is over, holding exactly its row group's rows.
    End,
}

impl Feed for ChannelFeed {
    fn next_segment(&mut self) -> Result<Segment> {
        match self.lanes.recv(self.slot) {
            Taken::Item(Run::Rows(s)) => Ok(s),
            Taken::Item(Run::End) => Err(Error::corrupt("levels end inside a row")),
            other => Err(self.ended(other)),
        }
    }

    fn end_group(&mut self) -> Result<()> {
        match self.lanes.recv(self.slot) {
            Taken::Item(Run::End) => Ok(()),
            Taken::Item(Run::Rows(_)) => Err(entries_past_last_row()),
            other => Err(self.ended(other)),
        }
    }

    fn recycle(&mut self, used: Segment) {
        self.lanes.give_back(self.slot, used);
    }
}

/// A failure made to happen in a helper (tests of the hand-off protocol): when lane `slot`
/// is about to get its run number `at` (counted over the whole file, the End of each row
/// group included).
#[derive(Debug, Clone, Copy)]
#[cfg_attr(not(test), allow(dead_code))]
struct Fault {
    slot: usize,
    at: usize,
    kind: FaultKind,
}

/// What an injected [`Fault`] does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(not(test), allow(dead_code))]
enum FaultKind {
    /// The helper fails with an error (a corrupt page).
    Error,
    /// The helper ends the lane's column chunk there, unchecked (levels that end early
    /// without the helper seeing it).
    EarlyEnd,
    /// The helper sends the run twice (level entries past the row group's end).
    Extra,
    /// The helper counts the run as holding half a row group more rows than it does (it
    /// then puts the column off while the reader waits for it: levels whose rows the
    /// helper and the reader count differently).
    Overcount,
    /// The helper panics (a bug).
    Panic,
}

/// Reads every row of `file` into `out` with up to `threads` threads (the calling one
/// included), decoding the projected columns of `asm` (its `owned` marks the text columns
/// read into `String`s). Stops at the first error, as a sequential read would.
pub(in crate::de) fn collect<R: ChunkReader, T: DeserializeOwned>(
    file: &FileReader<R>,
    asm: &mut Assembly,
    threads: usize,
    out: &mut Vec<T>,
) -> Result<()> {
    collect_with(file, asm, threads, out, None)
}

/// [`collect`], with `fault` injected into the helper of its lane.
fn collect_with<R: ChunkReader, T: DeserializeOwned>(
    file: &FileReader<R>,
    asm: &mut Assembly,
    threads: usize,
    out: &mut Vec<T>,
    fault: Option<Fault>,
) -> Result<()> {
    let columns = file.schema().columns();
    let owned = &asm.owned;
    let jobs: Vec<Job> = asm
        .projected
        .iter()
        .enumerate()
        .map(|(slot, &col)| {
            let d = &columns[col];
            Job {
                slot,
                col,
                path: d.path.to_string(),
                physical: d.physical_type,
                type_length: d.type_length,
                max_def: d.max_def_level,
                max_rep: d.max_rep_level,
                owned: owned.get(col).copied().unwrap_or(false)
                    && d.physical_type == Type::ByteArray,
            }
        })
        .collect();
    let cols: Vec<usize> = jobs.iter().map(|j| j.col).collect();
    let groups = share_out(&cols, threads.saturating_sub(1).max(1), |c| {
        stored_bytes(file, c, None)
    });
    let mut producer_of = vec![0; jobs.len()];
    for (helper, group) in groups.iter().enumerate() {
        for &k in group {
            producer_of[k] = helper;
        }
    }
    let lanes: Arc<Lanes> = Handoff::new(AHEAD, producer_of, stuck);
    let reported = Arc::new(AtomicBool::new(false));
    let assembled = AtomicBool::new(false);
    let progress = AtomicUsize::new(0);
    exec::scope(|scope| {
        // From here on, every way out (a panic in the row type's code included) stops the
        // helpers, so that the scope's join never waits on them.
        let guard = StopHelpers {
            asm: &mut *asm,
            assembled: &assembled,
            lanes: &lanes,
        };
        for job in &jobs {
            let feed = ChannelFeed {
                lanes: Arc::clone(&lanes),
                slot: job.slot,
                reported: Arc::clone(&reported),
            };
            guard.asm.st.cursors[job.col] =
                Some(Cursor::fed(job.max_def, job.max_rep, Some(Box::new(feed))));
        }
        for (helper, group) in groups.into_iter().enumerate() {
            let mine: Vec<Job> = group.into_iter().map(|k| jobs[k].clone()).collect();
            let producer = lanes.producer(helper);
            let spawned = scope.spawn(format!("parquet-serde-decode-{helper}"), move || {
                // A panic (a bug, not bad input) fails the read with its message; the
                // producer ends its lanes only after that.
                let run = exec::catch(format_args!("decoding thread {helper}"), || {
                    decode(file, &mine, &producer, fault)
                });
                if let Err(e) = run {
                    producer.fail(e);
                }
                Ok(())
            });
            if let Err(e) = spawned {
                lanes.fail(e);
            }
        }
        // The rows' memory is mapped by a helper a little ahead of the rows assembled.
        let spare = out.spare_capacity_mut();
        let (addr, bytes) = (spare.as_ptr() as usize, std::mem::size_of_val(spare));
        if bytes >= prefault::MIN_BYTES {
            let (assembled, progress) = (&assembled, &progress);
            // Without the helper, the pages are mapped as the rows are written.
            let _ = scope.spawn("parquet-serde-prefault", move || {
                prefault::prefault(addr, bytes, || {
                    let rows = progress.load(Ordering::Relaxed);
                    (!assembled.load(Ordering::Relaxed)).then(|| {
                        rows.saturating_mul(std::mem::size_of::<T>())
                            .saturating_add(prefault::AHEAD_BYTES)
                    })
                });
                Ok(())
            });
        }
        let mut feeder = Pipelined {
            reported: &reported,
            order: GroupOrder::default(),
        };
        let mut rows = RowLoop::new();
        let mut result = Ok(());
        // At most PROGRESS_ROWS rows a call (an assembled struct reads them in one), so
        // that the prefault helper hears of progress every PROGRESS_ROWS rows or fewer.
        let mut told = 0;
        while let Some(step) = rows.next_many(file, guard.asm, &mut feeder, out, PROGRESS_ROWS) {
            if let Err(e) = step {
                result = Err(e);
                break;
            }
            if out.len() - told >= PROGRESS_ROWS {
                told = out.len();
                progress.store(told, Ordering::Relaxed);
            }
        }
        drop(guard);
        result
    })
}

/// Stops the helpers of [`collect`] when dropped, whether the calling thread's part ended
/// or unwound: the prefault helper sees `assembled`, and the lanes stop, so decoding
/// helpers waiting for room return. The cursors reading the lanes go too.
struct StopHelpers<'a> {
    asm: &'a mut Assembly,
    assembled: &'a AtomicBool,
    lanes: &'a Lanes,
}

impl Drop for StopHelpers<'_> {
    fn drop(&mut self) {
        self.assembled.store(true, Ordering::Relaxed);
        self.lanes.stop();
        self.asm.clear_cursors();
    }
}

/// The calling thread's side of the pipeline: the cursors stay installed for the whole
/// file, fed by the helpers' channels; a row group ends when every column chunk has ended
/// there too.
struct Pipelined<'s> {
    /// Set once a cursor has met the read's error (a decoding error, not this row's).
    reported: &'s AtomicBool,
    order: GroupOrder,
}

impl Feeder for Pipelined<'_> {
    fn next_group<R: ChunkReader>(
        &mut self,
        file: &FileReader<R>,
        _asm: &mut Assembly,
    ) -> Option<Result<Group>> {
        let (rg, first_row) = self.order.advance(file)?;
        let rows = group_rows(file, rg);
        Some(rows.map(|rows| Group {
            rg,
            rows,
            first_row,
        }))
    }

    fn end_group<R: ChunkReader>(
        &mut self,
        file: &FileReader<R>,
        asm: &mut Assembly,
        group: &Group,
    ) -> Result<()> {
        let rg = group.rg;
        check_finished(&asm.st, &asm.projected, file.schema(), rg)?;
        // Every column chunk must also end here, as its helper found it (row counts).
        for &col in &asm.projected {
            if let Some(c) = asm.st.cursors[col].as_mut() {
                c.end_group().map_err(|e| {
                    e.with_row_group(rg)
                        .with_column(file.schema().columns()[col].path.to_string())
                })?;
            }
        }
        Ok(())
    }

    /// The cursors cannot seek across the runs the helpers send: the rows end at an error
    /// (the whole-file read stops at the first one anyway).
    fn resync(&mut self, _asm: &mut Assembly, _next: usize) -> bool {
        false
    }

    fn decoding_failed(&self) -> bool {
        self.reported.load(Ordering::Relaxed)
    }
}

/// A helper's loop: every row group, its columns' runs in the order the calling thread
/// needs them. Returns early (`Ok`) when the reader has gone.
fn decode<R: ChunkReader>(
    file: &FileReader<R>,
    jobs: &[Job],
    lanes: &Producer<Run, Segment>,
    fault: Option<Fault>,
) -> Result<()> {
    let options = file.options().page_options();
    // Runs sent per job, over the whole file (where an injected fault strikes).
    let mut runs = vec![0usize; jobs.len()];
    for (rg, group) in file.metadata().file.row_groups.iter().enumerate() {
        let rows = usize::try_from(group.num_rows.max(0))
            .map_err(|_| Error::corrupt("row count exceeds memory").with_row_group(rg))?;
        let chunks = jobs
            .iter()
            .map(|j| file.column_chunk(rg, j.col))
            .collect::<Result<Vec<_>>>()?;
        let mut pages: Vec<RowPages<'_>> = chunks
            .iter()
            .zip(jobs)
            .map(|(chunk, j)| {
                let reader = ColumnChunkReader::new(
                    chunk.page_reader(options),
                    j.physical,
                    j.type_length,
                    j.max_def,
                    j.max_rep,
                );
                RowPages::new(reader, j.max_def, j.max_rep)
            })
            .collect();
        let mut sent = vec![0usize; jobs.len()];
        let mut open = vec![true; jobs.len()];
        while let Some(k) = (0..jobs.len())
            .filter(|&k| open[k])
            .min_by_key(|&k| sent[k])
        {
            let job = &jobs[k];
            let at = |e: Error| e.with_row_group(rg).with_column(job.path.clone());
            let injected = fault
                .filter(|f| f.slot == job.slot && f.at == runs[k])
                .map(|f| f.kind);
            runs[k] += 1;
            match injected {
                Some(FaultKind::Error) => return Err(at(Error::corrupt("injected failure"))),
                Some(FaultKind::Panic) => panic!("injected panic"),
                Some(FaultKind::EarlyEnd) => {
                    open[k] = false;
                    if !lanes.send(job.slot, Run::End) {
                        return Ok(());
                    }
                    continue;
                }
                Some(FaultKind::Extra | FaultKind::Overcount) | None => {}
            }
            let spare = lanes.take_back(job.slot).map(Segment::into_spare);
            let (spare_batch, spare_owned) = match spare {
                Some(s) => (Some(s.batch), s.owned),
                None => (None, Vec::new()),
            };
            let Some(batch) = pages[k].next_batch_in(spare_batch).map_err(at)? else {
                open[k] = false;
                if sent[k] != rows {
                    return Err(at(Error::corrupt(format!(
                        "column chunk holds {} rows, its row group {rows}",
                        sent[k]
                    ))));
                }
                if !lanes.send(job.slot, Run::End) {
                    return Ok(());
                }
                continue;
            };
            // Owned strings only while the calling thread has runs of this column waiting:
            // when it is the one waiting, it copies strings itself and this thread gets on.
            let owned = job.owned && lanes.pending(job.slot) > 0;
            let extra = (injected == Some(FaultKind::Extra)).then(|| batch.clone());
            let segment = Segment::prepare_with(
                batch,
                job.max_def,
                job.max_rep,
                owned.then_some(spare_owned),
            )
            .map_err(at)?;
            sent[k] += segment.rows();
            if injected == Some(FaultKind::Overcount) {
                sent[k] += rows / 2;
            }
            if sent[k] > rows {
                return Err(at(Error::corrupt(format!(
                    "column chunk holds more than its row group's {rows} rows"
                ))));
            }
            if let Some(batch) = extra {
                let copy = Segment::prepare_with(batch, job.max_def, job.max_rep, None);
                if !lanes.send(job.slot, Run::Rows(copy.map_err(at)?)) {
                    return Ok(());
                }
            }
            if !lanes.send(job.slot, Run::Rows(segment)) {
                return Ok(());
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests;
