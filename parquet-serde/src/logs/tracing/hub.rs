//! Where application threads leave their events and the writer thread takes them: one
//! [`Slot`] per thread (a partial batch and the full batches waiting), a bound on the full
//! batches waiting in all slots (their bytes, and optionally their events), and the guard's
//! requests.
//!
//! Order: a slot's batches are taken oldest first and its partial batch after its full
//! ones, so one thread's events are written in the order they happened. Threads' batches
//! interleave in the order the writer thread visits the slots: rows of different threads
//! are in time order only to within a batch (at most [`BATCH_EVENTS`](super::batch) events
//! or one flush interval).
//!
//! Locks: a slot's lock, then the central lock (never the other way round); no user code
//! runs under either, and no thread waits for room while holding its slot.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::SyncSender;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::Instant;

use super::batch::{Batch, Head, Parts};
use super::layer::Overflow;

/// Recycled batches at most this big are kept for reuse.
const POOL_BATCH_BYTES: usize = 256 << 10;
/// At most this many recycled batches are kept.
const POOL_BATCHES: usize = 64;

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    // A panic under these locks leaves consistent data (no user code runs there).
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// One application thread's events for one layer.
#[derive(Debug)]
pub(crate) struct Slot {
    state: Mutex<SlotState>,
}

#[derive(Debug)]
struct SlotState {
    thread_id: u64,
    thread_name: Option<Arc<str>>,
    /// Full batches waiting for the writer, oldest first.
    full: VecDeque<Batch>,
    /// The batch being filled.
    partial: Option<Batch>,
    /// Set when the writer has stopped: events are dropped.
    closed: bool,
}

/// What the writer thread waits on.
#[derive(Debug, Default)]
struct Central {
    /// Full batches waiting in all slots.
    queued: usize,
    /// Their bytes ([`Batch::size_bytes`]).
    queued_bytes: usize,
    /// Flushes asked for by the guard, answered once done.
    flushes: Vec<SyncSender<()>>,
    shutdown: bool,
}

/// What woke the writer thread.
#[derive(Debug, Default)]
pub(crate) struct Wake {
    /// Answer these once the events before them are flushed.
    pub flushes: Vec<SyncSender<()>>,
    /// Write what is left, close, stop.
    pub shutdown: bool,
}

/// Shared by the layer, the guard and the writer thread.
#[derive(Debug)]
pub(crate) struct Hub {
    /// Tells this hub's slots apart in a thread's list (see the layer).
    pub id: u64,
    /// The room: full batches that may wait, and their bytes (a batch always finds room
    /// when none waits).
    room_batches: usize,
    room_bytes: usize,
    overflow: Overflow,
    /// Events dropped since the last count row.
    pub dropped: AtomicU64,
    /// Set when the writer thread has stopped.
    stopped: AtomicBool,
    central: Mutex<Central>,
    /// The writer waits here for full batches and requests.
    work: Condvar,
    /// Application threads wait here for room (events the [`Overflow`] policy keeps).
    room: Condvar,
    slots: Mutex<Vec<Arc<Slot>>>,
    pool: Mutex<Vec<Batch>>,
}

impl Hub {
    /// A hub letting at most `batches` full batches of at most `bytes` in all wait.
    pub fn new(batches: usize, bytes: usize, overflow: Overflow) -> Hub {
        static NEXT: AtomicU64 = AtomicU64::new(1);
        Hub {
            id: NEXT.fetch_add(1, Ordering::Relaxed),
            room_batches: batches.max(1),
            room_bytes: bytes,
            overflow,
            dropped: AtomicU64::new(0),
            stopped: AtomicBool::new(false),
            central: Mutex::new(Central::default()),
            work: Condvar::new(),
            room: Condvar::new(),
            slots: Mutex::new(Vec::new()),
            pool: Mutex::new(Vec::new()),
        }
    }

    /// Whether the writer thread has stopped (events are dropped).
    pub fn stopped(&self) -> bool {
        self.stopped.load(Ordering::Relaxed)
    }

    /// Counts `n` dropped events.
    pub fn drop_events(&self, n: u64) {
        self.dropped.fetch_add(n, Ordering::Relaxed);
    }

    /// A new slot for a thread.
    pub fn register(&self, thread_id: u64, thread_name: Option<Arc<str>>) -> Arc<Slot> {
        // Read `stopped` under the list's lock: `stop` sets it before it closes the
        // listed slots, so a slot is either listed in time or born closed.
        let mut slots = lock(&self.slots);
        let slot = Arc::new(Slot {
            state: Mutex::new(SlotState {
                thread_id,
                thread_name,
                full: VecDeque::new(),
                partial: None,
                closed: self.stopped(),
            }),
        });
        slots.push(Arc::clone(&slot));
        slot
    }

    /// Whether a slot refuses events (its hub has stopped).
    pub fn is_closed(slot: &Slot) -> bool {
        lock(&slot.state).closed
    }

    fn new_batch(&self, st: &SlotState) -> Batch {
        let mut b = lock(&self.pool).pop().unwrap_or_default();
        b.thread_id = st.thread_id;
        b.thread_name.clone_from(&st.thread_name);
        b
    }

    /// Gives back a written batch for reuse.
    pub fn recycle(&self, mut batch: Batch) {
        batch.clear();
        if batch.capacity_bytes() > POOL_BATCH_BYTES {
            return;
        }
        let mut pool = lock(&self.pool);
        if pool.len() < POOL_BATCHES {
            pool.push(batch);
        }
    }

    /// Whether a batch of `bytes` finds room beside those waiting.
    fn has_room(&self, c: &Central, bytes: usize) -> bool {
        c.queued == 0
            || (c.queued < self.room_batches
                && c.queued_bytes.saturating_add(bytes) <= self.room_bytes)
    }

    /// Adds an event to the thread's slot. When its batch is full, the batch goes to the
    /// writer if there is room; else the event waits for room or is dropped and counted,
    /// as the [`Overflow`] policy says for its level. Returns whether the event was kept.
    pub fn push(&self, slot: &Slot, head: Head, parts: &Parts) -> bool {
        let waits = self.overflow.waits(head.level);
        loop {
            let mut guard = lock(&slot.state);
            if guard.closed {
                drop(guard);
                self.drop_events(1);
                return false;
            }
            let st = &mut *guard;
            if st.partial.is_none() {
                st.partial = Some(self.new_batch(st));
            }
            if let Some(partial) = st.partial.as_mut().filter(|p| !p.is_full()) {
                partial.push(head, parts);
                return true;
            }
            let full_bytes = st.partial.as_ref().map_or(0, Batch::size_bytes);
            {
                let mut c = lock(&self.central);
                // Past shutdown the writer takes whatever the slots hold (see `stop`):
                // nothing is waited for then.
                if self.has_room(&c, full_bytes) || c.shutdown {
                    c.queued += 1;
                    c.queued_bytes += full_bytes;
                    self.work.notify_one();
                    drop(c);
                    let mut next = self.new_batch(st);
                    next.push(head, parts);
                    if let Some(full) = st.partial.replace(next) {
                        st.full.push_back(full);
                    }
                    return true;
                }
            }
            if !waits {
                drop(guard);
                self.drop_events(1);
                return false;
            }
            // Wait for room without holding the slot: the writer takes from it meanwhile.
            drop(guard);
            let c = lock(&self.central);
            let c = self
                .room
                .wait_while(c, |c| !self.has_room(c, full_bytes) && !c.shutdown)
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            drop(c);
        }
    }

    /// Waits until a batch is full, the guard asks something, or `deadline`.
    pub fn wait(&self, deadline: Instant) -> Wake {
        let mut c = lock(&self.central);
        loop {
            if c.queued > 0 || !c.flushes.is_empty() || c.shutdown {
                break;
            }
            let now = Instant::now();
            if now >= deadline {
                break;
            }
            c = match self.work.wait_timeout(c, deadline - now) {
                Ok((c, _)) => c,
                Err(p) => p.into_inner().0,
            };
        }
        Wake {
            flushes: std::mem::take(&mut c.flushes),
            shutdown: c.shutdown,
        }
    }

    /// Moves the full batches of every slot to `out` (each slot's oldest first), and with
    /// `partials` the partial batches too (after their slot's full ones). Slots of threads
    /// that have ended are forgotten once empty.
    pub fn take(&self, partials: bool, out: &mut Vec<Batch>) {
        let (mut taken, mut taken_bytes) = (0, 0);
        lock(&self.slots).retain(|slot| {
            let mut st = lock(&slot.state);
            taken += st.full.len();
            taken_bytes += st.full.iter().map(Batch::size_bytes).sum::<usize>();
            out.extend(st.full.drain(..));
            if partials {
                if let Some(p) = st.partial.take() {
                    if p.events.is_empty() {
                        st.partial = Some(p);
                    } else {
                        out.push(p);
                    }
                }
            }
            let empty =
                st.full.is_empty() && st.partial.as_ref().is_none_or(|p| p.events.is_empty());
            // Only the list holds the slot once its thread is gone.
            !(empty && Arc::strong_count(slot) == 1)
        });
        if taken > 0 {
            let mut c = lock(&self.central);
            c.queued = c.queued.saturating_sub(taken);
            c.queued_bytes = c.queued_bytes.saturating_sub(taken_bytes);
            self.room.notify_all();
        }
    }

    /// Asks the writer thread to flush; the answer comes on `done` (or never, when the
    /// thread has stopped: then `done`'s sender is dropped).
    pub fn request_flush(&self, done: SyncSender<()>) -> bool {
        let mut c = lock(&self.central);
        if self.stopped() {
            return false;
        }
        c.flushes.push(done);
        self.work.notify_one();
        true
    }

    /// Asks the writer thread to write what is left and stop.
    pub fn request_shutdown(&self) {
        let mut c = lock(&self.central);
        c.shutdown = true;
        self.work.notify_one();
        self.room.notify_all();
    }

    /// Marks the writer stopped: slots refuse events from now on (counted as dropped),
    /// waiting threads and flushes are released. Moves the events still in the slots to
    /// `out`.
    pub fn stop(&self, out: &mut Vec<Batch>) {
        {
            let mut c = lock(&self.central);
            self.stopped.store(true, Ordering::Relaxed);
            c.shutdown = true;
            c.flushes.clear();
            self.room.notify_all();
        }
        for slot in lock(&self.slots).iter() {
            let mut st = lock(&slot.state);
            st.closed = true;
            out.extend(st.full.drain(..));
            out.extend(st.partial.take().filter(|p| !p.events.is_empty()));
        }
        let mut c = lock(&self.central);
        c.queued = 0;
        c.queued_bytes = 0;
    }
}
