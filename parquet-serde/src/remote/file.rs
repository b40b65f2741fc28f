//! [`RemoteFile`]: a [`ChunkReader`] over a file fetched by ranges, serving the synchronous
//! reader from the units of a fetch plan that are fetched (coalesced, concurrently) the
//! first time the reader asks for one of their ranges, a few units ahead.

use std::borrow::Cow;
use std::fmt;
use std::ops::Range;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, Weak};

use bytes::Bytes;
use tokio::task::AbortHandle;

use crate::core::file::{check_range, ChunkReader};
use crate::error::{Error, ErrorKind, Result};

use super::plan::UnitPlan;
use super::runtime::{wait, Runtime};
use super::source::{check_len, RangeSource};

/// Requests and bytes a [`RemoteFile`] fetched.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct FetchStats {
    /// Requests sent (ranged GETs, or seek-and-read of an async reader).
    pub requests: u64,
    /// Bytes received.
    pub bytes: u64,
    /// Requests for ranges the plan did not foresee (fetched on demand, one at a time).
    pub unplanned_requests: u64,
}

#[derive(Debug, Default)]
struct Counters {
    requests: AtomicU64,
    bytes: AtomicU64,
    unplanned: AtomicU64,
}

impl Counters {
    fn fetched(&self, bytes: u64) {
        self.requests.fetch_add(1, Ordering::Relaxed);
        self.bytes.fetch_add(bytes, Ordering::Relaxed);
    }
}

/// Where a unit is.
enum UnitState {
    Planned,
    /// Being fetched by a task of the runtime.
    Fetching(AbortHandle),
    /// One buffer per fetch range.
    Ready(Vec<Bytes>),
    /// The fetch failed (kind, message and the fetch's error as the `source()`, handed to
    /// every reader of the unit).
    Failed(ErrorKind, String, Option<Arc<Error>>),
}

struct Unit {
    plan: UnitPlan,
    /// Which wanted ranges were read.
    served: Vec<bool>,
    state: UnitState,
}

struct Shared {
    source: Arc<dyn RangeSource>,
    runtime: Runtime,
    len: u64,
    /// The end of the file, fetched first (the footer).
    tail_start: u64,
    tail: Bytes,
    /// Units fetched ahead of the one the reader asks for.
    prefetch: usize,
    units: Mutex<Vec<Unit>>,
    /// Signalled whenever a unit's fetch ends.
    done: Condvar,
    counters: Counters,
}

impl Drop for Shared {
    /// Stops the fetches still running: nobody will read what they bring.
    fn drop(&mut self) {
        let units = match self.units.get_mut() {
            Ok(u) => u,
            Err(poisoned) => poisoned.into_inner(),
        };
        for unit in units.iter() {
            if let UnitState::Fetching(task) = &unit.state {
                task.abort();
            }
        }
    }
}

/// A Parquet file read by ranges from an object store or an async reader: the
/// [`ChunkReader`] the [`Reader`](crate::Reader)s of `parquet_serde::store` and
/// `parquet_serde::stream` read from.
///
/// It holds the file's tail (footer) and a fetch plan made from the footer, the projection
/// and the predicate: the metadata a predicate prunes with (page indexes, Bloom filters,
/// dictionaries), then per row group the column chunks, or only the pages, the read needs.
/// The first time the reader asks for a range of a unit, the whole unit is fetched
/// (nearby ranges coalesced into one request, requests sent concurrently), and the next
/// units are fetched ahead; a row group's unit is dropped once its ranges have been read,
/// so memory holds a few row groups' projected bytes. A range outside the plan is fetched
/// on its own. Dropping the file stops the fetches under way.
pub struct RemoteFile {
    shared: Arc<Shared>,
}

impl fmt::Debug for RemoteFile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RemoteFile")
            .field("source", &self.shared.source.describe())
            .field("len", &self.shared.len)
            .field("stats", &self.stats())
            .finish_non_exhaustive()
    }
}

/// Where a fetch task leaves its unit's new state, when it ends or is cancelled.
struct Landing {
    shared: Weak<Shared>,
    unit: usize,
    state: Option<UnitState>,
}

impl Landing {
    /// Stores `state` in the unit (when dropped, right away).
    fn land(mut self, state: UnitState) {
        self.state = Some(state);
    }
}

impl Drop for Landing {
    fn drop(&mut self) {
        let Some(shared) = self.shared.upgrade() else {
            return; // the file is gone
        };
        let state = self.state.take().unwrap_or_else(|| {
            UnitState::Failed(
                ErrorKind::Io,
                "the fetch was cancelled (its runtime shut down)".into(),
                None,
            )
        });
        let mut units = shared
            .units
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some(unit) = units.get_mut(self.unit) {
            unit.state = state;
        }
        drop(units);
        shared.done.notify_all();
    }
}

/// Units dropped behind the one being fetched, whether or not all their ranges were read
/// (a filter reads only some of the pages planned).
const KEEP_BEHIND: usize = 2;

impl RemoteFile {
    /// The bytes fetched with the footer: reads inside them need no request.
    pub(crate) fn tail_range(&self) -> Range<u64> {
        self.shared.tail_start..self.shared.len
    }

    /// A file of `len` bytes whose last bytes are `tail` (fetched with the length).
    pub(crate) fn new(
        source: Arc<dyn RangeSource>,
        runtime: Runtime,
        len: u64,
        tail: Bytes,
        prefetch: usize,
    ) -> RemoteFile {
        let tail_start = len.saturating_sub(tail.len() as u64);
        let counters = Counters::default();
        counters.fetched(tail.len() as u64);
        RemoteFile {
            shared: Arc::new(Shared {
                source,
                runtime,
                len,
                tail_start,
                tail,
                prefetch,
                units: Mutex::new(Vec::new()),
                done: Condvar::new(),
                counters,
            }),
        }
    }

    /// Requests and bytes fetched so far (the footer included).
    pub fn stats(&self) -> FetchStats {
        let c = &self.shared.counters;
        FetchStats {
            requests: c.requests.load(Ordering::Relaxed),
            bytes: c.bytes.load(Ordering::Relaxed),
            unplanned_requests: c.unplanned.load(Ordering::Relaxed),
        }
    }

    /// The file, as its source names it.
    pub fn describe(&self) -> String {
        self.shared.source.describe()
    }

    /// Adds units to the plan (fetched when first needed, in the order added).
    pub(crate) fn plan(&self, units: Vec<UnitPlan>) {
        let mut all = self.lock();
        all.extend(units.into_iter().map(|plan| Unit {
            served: vec![false; plan.wanted.len()],
            plan,
            state: UnitState::Planned,
        }));
    }

    fn lock(&self) -> MutexGuard<'_, Vec<Unit>> {
        // A panic while the lock was held left the units consistent (each step is one
        // assignment), so a poisoned lock is taken over.
        self.shared
            .units
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn wait_done<'a>(&self, guard: MutexGuard<'a, Vec<Unit>>) -> MutexGuard<'a, Vec<Unit>> {
        self.shared
            .done
            .wait(guard)
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Starts the fetch of unit `i` if it is not in memory or under way, and of the
    /// `prefetch` units after it; drops the units far enough behind.
    fn start(&self, units: &mut [Unit], i: usize) {
        for j in i..units.len().min(i + 1 + self.shared.prefetch) {
            if matches!(units[j].state, UnitState::Planned) {
                units[j].state =
                    UnitState::Fetching(self.spawn_fetch(j, units[j].plan.fetch.clone()));
            }
        }
        for unit in units[..i.saturating_sub(KEEP_BEHIND)].iter_mut() {
            if !unit.plan.keep && matches!(unit.state, UnitState::Ready(_)) {
                unit.state = UnitState::Planned;
            }
        }
    }

    /// A task fetching the ranges of unit `i` concurrently; it stores them (or the first
    /// error) in the unit and wakes the waiting readers, also when the task is cancelled
    /// (the runtime shut down).
    fn spawn_fetch(&self, i: usize, ranges: Vec<Range<u64>>) -> AbortHandle {
        let landing = Landing {
            shared: Arc::downgrade(&self.shared),
            unit: i,
            state: None,
        };
        let source = Arc::clone(&self.shared.source);
        let task = self.shared.runtime.handle().spawn(async move {
            let fetches = ranges.iter().map(|r| source.range(r.clone()));
            let result = futures::future::try_join_all(fetches).await;
            let counted = result.and_then(|parts| {
                for (part, range) in parts.iter().zip(&ranges) {
                    check_len(part, range)?;
                    if let Some(shared) = landing.shared.upgrade() {
                        shared.counters.fetched(part.len() as u64);
                    }
                }
                Ok(parts)
            });
            landing.land(match counted {
                Ok(parts) => UnitState::Ready(parts),
                Err(e) => UnitState::Failed(e.kind(), e.to_string(), Some(Arc::new(e))),
            });
        });
        task.abort_handle()
    }

    /// The bytes `start..end` from a unit in memory, marking the wanted ranges they cover
    /// as read (and dropping the unit when all are).
    fn take(units: &mut [Unit], start: u64, end: u64) -> Option<Vec<u8>> {
        for unit in units.iter_mut() {
            let UnitState::Ready(parts) = &unit.state else {
                continue;
            };
            let Some((k, r)) = unit
                .plan
                .fetch
                .iter()
                .enumerate()
                .find(|(_, r)| r.start <= start && end <= r.end)
            else {
                continue;
            };
            let from = (start - r.start) as usize;
            let out = parts[k][from..from + (end - start) as usize].to_vec();
            for (w, served) in unit.plan.wanted.iter().zip(unit.served.iter_mut()) {
                if (start <= w.start && w.end <= end) || (w.start <= start && end == w.end) {
                    *served = true;
                }
            }
            if !unit.plan.keep && unit.served.iter().all(|&s| s) {
                unit.state = UnitState::Planned;
                unit.served.iter_mut().for_each(|s| *s = false);
            }
            return Some(out);
        }
        None
    }

    /// A range outside the plan, fetched on its own.
    fn fetch_unplanned(&self, start: u64, end: u64) -> Result<Vec<u8>> {
        let c = &self.shared.counters;
        c.unplanned.fetch_add(1, Ordering::Relaxed);
        let range = start..end;
        let bytes = wait(
            &self.shared.runtime,
            self.shared.source.range(range.clone()),
        )?;
        check_len(&bytes, &range)?;
        c.fetched(bytes.len() as u64);
        Ok(bytes.to_vec())
    }
}

impl ChunkReader for RemoteFile {
    fn len_bytes(&self) -> u64 {
        self.shared.len
    }

    fn read_range(&self, start: u64, len: usize) -> Result<Cow<'_, [u8]>> {
        check_range(self.shared.len, start, len)?;
        let end = start + len as u64;
        let at = |e: Error| e.with_offset(start).context(self.shared.source.describe());
        let tail_start = self.shared.tail_start;
        if start >= tail_start {
            let from = (start - tail_start) as usize;
            return Ok(Cow::Borrowed(&self.shared.tail[from..from + len]));
        }
        if end > tail_start {
            // Adjacent pages read as one, the last of them in the tail (and left out of
            // the plan): the bytes before the tail, then the tail's.
            let head = self.read_range(start, (tail_start - start) as usize)?;
            let mut out = Vec::with_capacity(len);
            out.extend_from_slice(&head);
            out.extend_from_slice(&self.shared.tail[..(end - tail_start) as usize]);
            return Ok(Cow::Owned(out));
        }
        if len == 0 {
            return Ok(Cow::Borrowed(&[]));
        }
        let mut units = self.lock();
        loop {
            if let Some(bytes) = Self::take(&mut units, start, end) {
                return Ok(Cow::Owned(bytes));
            }
            let planned = units.iter().position(|u| {
                u.plan
                    .fetch
                    .iter()
                    .any(|r| r.start <= start && end <= r.end)
            });
            let Some(i) = planned else {
                drop(units);
                return self.fetch_unplanned(start, end).map(Cow::Owned).map_err(at);
            };
            match &units[i].state {
                UnitState::Failed(kind, msg, source) => {
                    let e = Error::new(*kind, msg.clone());
                    return Err(at(match source {
                        Some(source) => e.with_source(Arc::clone(source)),
                        None => e,
                    }));
                }
                UnitState::Fetching(_) => {}
                _ => self.start(&mut units, i),
            }
            // Also wakes when another unit's fetch ends: the loop looks again.
            units = self.wait_done(units);
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::AtomicUsize;

    use super::*;
    use crate::remote::BoxFuture;

    /// Bytes in memory, counting requests; ranges from `fail_from` on fail.
    struct Memory {
        bytes: Bytes,
        requests: AtomicUsize,
        fail_from: u64,
    }

    impl RangeSource for Memory {
        fn tail(&self, n: u64) -> BoxFuture<Result<(Bytes, u64)>> {
            let len = self.bytes.len() as u64;
            let tail = self.bytes.slice((len - n.min(len)) as usize..);
            Box::pin(async move { Ok((tail, len)) })
        }

        fn range(&self, range: Range<u64>) -> BoxFuture<Result<Bytes>> {
            self.requests.fetch_add(1, Ordering::SeqCst);
            let out = match range.end > self.fail_from {
                true => Err(Error::new(ErrorKind::Io, "connection reset")),
                false => Ok(self.bytes.slice(range.start as usize..range.end as usize)),
            };
            Box::pin(async move { out })
        }

        fn describe(&self) -> String {
            "memory".into()
        }
    }

    fn file(fail_from: u64) -> (RemoteFile, Arc<Memory>) {
        let bytes = Bytes::from((0..=255u8).cycle().take(1000).collect::<Vec<u8>>());
        let memory = Arc::new(Memory {
            bytes: bytes.clone(),
            requests: AtomicUsize::new(0),
            fail_from,
        });
        let runtime = Runtime::owned().unwrap();
        let tail = bytes.slice(900..);
        (
            RemoteFile::new(memory.clone(), runtime, 1000, tail, 1),
            memory,
        )
    }

    #[test]
    fn units_are_fetched_coalesced_when_first_needed_and_dropped_when_read() {
        let (f, memory) = file(u64::MAX);
        f.plan(vec![
            UnitPlan::new(vec![0..10, 12..20, 100..150], 1000, 64, false, &[]),
            UnitPlan::new(std::iter::once(200..300).collect(), 1000, 64, false, &[]),
            UnitPlan::new(std::iter::once(400..500).collect(), 1000, 64, false, &[]),
        ]);
        assert_eq!(memory.requests.load(Ordering::SeqCst), 0);
        assert_eq!(&*f.read_range(12, 8).unwrap(), &memory.bytes[12..20]);
        // Unit 0 in two requests (0..20 coalesced, 100..150), unit 1 fetched ahead.
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
        while memory.requests.load(Ordering::SeqCst) < 3 {
            assert!(std::time::Instant::now() < deadline);
            std::thread::yield_now();
        }
        assert_eq!(&*f.read_range(0, 10).unwrap(), &memory.bytes[0..10]);
        assert_eq!(&*f.read_range(100, 50).unwrap(), &memory.bytes[100..150]);
        assert_eq!(&*f.read_range(950, 10).unwrap(), &memory.bytes[950..960]); // the tail
        assert_eq!(&*f.read_range(200, 100).unwrap(), &memory.bytes[200..300]);
        assert_eq!(&*f.read_range(400, 100).unwrap(), &memory.bytes[400..500]);
        assert_eq!(f.stats().unplanned_requests, 0);
        // Unit 0 was read whole and dropped: reading it again fetches it again (two
        // requests; unit 1, also dropped, is fetched ahead again: one more).
        let before = memory.requests.load(Ordering::SeqCst);
        assert_eq!(&*f.read_range(0, 4).unwrap(), &memory.bytes[0..4]);
        while memory.requests.load(Ordering::SeqCst) < before + 3 {
            assert!(std::time::Instant::now() < deadline);
            std::thread::yield_now();
        }
        // A read across the start of the tail: its first part from a unit, no request
        // for the part in the tail.
        f.plan(vec![UnitPlan::new(
            vec![880..900, 900..950],
            1000,
            0,
            false,
            &[f.tail_range()],
        )]);
        let before = f.stats().requests;
        assert_eq!(&*f.read_range(880, 40).unwrap(), &memory.bytes[880..920]);
        assert_eq!(f.stats().requests, before + 1);
        // Outside the plan: fetched on its own.
        assert_eq!(&*f.read_range(600, 5).unwrap(), &memory.bytes[600..605]);
        assert_eq!(f.stats().unplanned_requests, 1);
        assert!(f.read_range(990, 20).is_err());
    }

    #[test]
    fn a_failed_fetch_is_every_reader_s_error() {
        let (f, _) = file(300);
        f.plan(vec![UnitPlan::new(
            vec![100..200, 250..350],
            1000,
            0,
            false,
            &[],
        )]);
        let err = f.read_range(100, 100).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::Io);
        assert!(err.to_string().contains("connection reset"), "{err}");
        // The fetch's own error stays reachable as the source.
        let source = std::error::Error::source(&err).expect("a source");
        let fetch = source
            .downcast_ref::<Arc<Error>>()
            .expect("the fetch's error");
        assert_eq!(fetch.message(), "connection reset");
        assert!(f.read_range(250, 10).is_err());
        assert!(f.read_range(500, 10).is_err());
    }
}
