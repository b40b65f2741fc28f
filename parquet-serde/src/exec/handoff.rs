//! [`Handoff`]: bounded lanes of items from producer threads to one reader, each lane read
//! in the order it was filled.
//!
//! Each lane has one producer (a producer may fill several lanes) and holds at most `bound`
//! items: a producer waits for room, the reader waits for an item. Every waiter is released
//! when the reader goes ([`Handoff::stop`]), when a producer fails ([`Producer::fail`]),
//! and when the two would wait on each other for good: the reader waiting on a lane whose
//! producer waits for room in another of its lanes, which only the reader empties. That is
//! a failure too, with the error the hand-off was made with. Used items can go back to the
//! producer of their lane ([`Handoff::give_back`]) to reuse their memory.

use std::collections::VecDeque;
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};

use crate::error::Error;

/// What [`Handoff::recv`] takes from a lane.
#[derive(Debug)]
pub(crate) enum Taken<T> {
    /// The lane's next item.
    Item(T),
    /// The lane is empty and the hand-off failed: the first error, given once.
    Failed(Error),
    /// The lane is empty and gets no more items: its producer ended, or the error was
    /// given already.
    Ended,
}

/// Bounded, ordered lanes from producers to one reader (see the module doc).
#[derive(Debug)]
pub(crate) struct Handoff<T, B> {
    state: Mutex<State<T, B>>,
    /// The reader waits here for an item.
    filled: Condvar,
    /// Producer `p` waits on `room[p]` for room in a lane.
    room: Vec<Condvar>,
    /// Most items a lane holds.
    bound: usize,
    /// The producer of each lane.
    producer_of: Vec<usize>,
    /// The error of a reader and a producer waiting on each other.
    stuck: fn() -> Error,
}

#[derive(Debug)]
struct State<T, B> {
    lanes: Vec<Lane<T, B>>,
    /// Per producer: the lane it waits for room in.
    blocked: Vec<Option<usize>>,
    /// Per producer: it fills no more lanes.
    ended: Vec<bool>,
    /// The lane the reader waits on.
    waiting: Option<usize>,
    /// The first error, until given.
    error: Option<Error>,
    failed: bool,
    /// The reader has gone, or a producer failed: items are refused.
    stopped: bool,
}

#[derive(Debug)]
struct Lane<T, B> {
    items: VecDeque<T>,
    back: Vec<B>,
}

impl<T, B> Handoff<T, B> {
    /// Lanes `0..producer_of.len()` holding up to `bound` items each (at least one), lane
    /// `l` filled by producer `producer_of[l]`; `stuck` makes the error of a reader and a
    /// producer waiting on each other.
    pub fn new(bound: usize, producer_of: Vec<usize>, stuck: fn() -> Error) -> Arc<Self> {
        let producers = producer_of.iter().map(|&p| p + 1).max().unwrap_or(0);
        Arc::new(Handoff {
            state: Mutex::new(State {
                lanes: producer_of
                    .iter()
                    .map(|_| Lane {
                        items: VecDeque::with_capacity(bound),
                        back: Vec::new(),
                    })
                    .collect(),
                blocked: vec![None; producers],
                ended: vec![false; producers],
                waiting: None,
                error: None,
                failed: false,
                stopped: false,
            }),
            filled: Condvar::new(),
            room: (0..producers).map(|_| Condvar::new()).collect(),
            bound: bound.max(1),
            producer_of,
            stuck,
        })
    }

    /// The handle of producer `id`; its lanes end when it is dropped.
    pub fn producer(self: &Arc<Self>, id: usize) -> Producer<T, B> {
        Producer {
            handoff: Arc::clone(self),
            id,
        }
    }

    fn lock(&self) -> MutexGuard<'_, State<T, B>> {
        // Nothing runs under the lock but this module's bookkeeping, which does not panic
        // midway; the state is whole.
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn wake_all(&self) {
        self.filled.notify_all();
        for room in &self.room {
            room.notify_all();
        }
    }

    /// Stops the hand-off with `e` as its error (the first error stays).
    fn fail_locked(&self, st: &mut State<T, B>, e: Error) {
        if !st.failed {
            st.failed = true;
            st.error = Some(e);
        }
        st.stopped = true;
        self.wake_all();
    }

    /// Takes the next item of `lane`, waiting for it. Items already in the lane come out
    /// even after a failure or an end.
    pub fn recv(&self, lane: usize) -> Taken<T> {
        let Some(&p) = self.producer_of.get(lane) else {
            return Taken::Ended;
        };
        let mut st = self.lock();
        loop {
            if let Some(item) = st.lanes[lane].items.pop_front() {
                if st.blocked[p] == Some(lane) {
                    // Released: no longer counts as waiting (see `send`).
                    st.blocked[p] = None;
                    self.room[p].notify_one();
                }
                return Taken::Item(item);
            }
            if st.failed {
                return st.error.take().map_or(Taken::Ended, Taken::Failed);
            }
            if st.ended[p] || st.stopped {
                return Taken::Ended;
            }
            if st.blocked[p].is_some() {
                // The producer waits for room only this thread makes.
                self.fail_locked(&mut st, (self.stuck)());
                continue;
            }
            st.waiting = Some(lane);
            st = self.filled.wait(st).unwrap_or_else(PoisonError::into_inner);
            st.waiting = None;
        }
    }

    /// Hands a used item back to the producer of `lane` (dropped once stopped).
    pub fn give_back(&self, lane: usize, used: B) {
        let mut st = self.lock();
        if !st.stopped {
            if let Some(l) = st.lanes.get_mut(lane) {
                l.back.push(used);
            }
        }
    }

    /// Stops the hand-off with `e` as its error (the first error stays): every waiter
    /// returns, and the reader gets the error once the lane it reads is empty.
    pub fn fail(&self, e: Error) {
        let mut st = self.lock();
        self.fail_locked(&mut st, e);
    }

    /// The reader has gone: producers' items are refused from now on, and waiting ones
    /// return.
    pub fn stop(&self) {
        let mut st = self.lock();
        st.stopped = true;
        drop(st);
        self.wake_all();
    }
}

/// A producer's handle on a [`Handoff`]: fills its lanes; they end when it is dropped
/// (whether its job returned or unwound).
#[derive(Debug)]
pub(crate) struct Producer<T, B> {
    handoff: Arc<Handoff<T, B>>,
    id: usize,
}

impl<T, B> Producer<T, B> {
    /// Appends `item` to `lane` (one of this producer's), waiting while the lane is full.
    /// `false` when the hand-off has stopped: the item is dropped and this producer's work
    /// is no longer wanted.
    pub fn send(&self, lane: usize, item: T) -> bool {
        let h = &*self.handoff;
        if h.producer_of.get(lane) != Some(&self.id) {
            return false;
        }
        let mut st = h.lock();
        loop {
            if st.stopped {
                return false;
            }
            if st.lanes[lane].items.len() < h.bound {
                st.lanes[lane].items.push_back(item);
                if st.waiting == Some(lane) {
                    // Released: no longer counts as waiting (see `recv`).
                    st.waiting = None;
                    h.filled.notify_one();
                }
                return true;
            }
            if st.waiting.is_some_and(|w| h.producer_of[w] == self.id) {
                // The reader waits on another lane of this producer.
                h.fail_locked(&mut st, (h.stuck)());
                return false;
            }
            st.blocked[self.id] = Some(lane);
            st = h.room[self.id]
                .wait(st)
                .unwrap_or_else(PoisonError::into_inner);
            st.blocked[self.id] = None;
        }
    }

    /// An item handed back on `lane`, if any.
    pub fn take_back(&self, lane: usize) -> Option<B> {
        self.handoff.lock().lanes.get_mut(lane)?.back.pop()
    }

    /// Items waiting in `lane` for the reader.
    pub fn pending(&self, lane: usize) -> usize {
        self.handoff
            .lock()
            .lanes
            .get(lane)
            .map_or(0, |l| l.items.len())
    }

    /// [`Handoff::fail`].
    pub fn fail(&self, e: Error) {
        self.handoff.fail(e);
    }
}

impl<T, B> Drop for Producer<T, B> {
    fn drop(&mut self) {
        let mut st = self.handoff.lock();
        if let Some(ended) = st.ended.get_mut(self.id) {
            *ended = true;
        }
        if let Some(blocked) = st.blocked.get_mut(self.id) {
            *blocked = None;
        }
        drop(st);
        self.handoff.filled.notify_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ErrorKind;
    use crate::exec::tests::within;
    use crate::exec::{catch, scope};
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::time::{Duration, Instant};

    fn stuck() -> Error {
        Error::corrupt("stuck")
    }

    /// Waits (up to ten seconds) until `done` holds.
    fn eventually(done: impl Fn() -> bool) {
        let start = Instant::now();
        while !done() {
            assert!(start.elapsed() < Duration::from_secs(10), "never happened");
            std::thread::sleep(Duration::from_millis(1));
        }
    }

    #[test]
    fn every_lane_comes_out_in_the_order_it_was_filled() {
        let got = within(20, || {
            // Two producers of two lanes each, lanes read in turn.
            let h: Arc<Handoff<u32, ()>> = Handoff::new(3, vec![0, 1, 0, 1], stuck);
            scope(|s| {
                for p in 0..2 {
                    let producer = h.producer(p);
                    s.spawn(format!("test-producer-{p}"), move || {
                        for i in 0..500 {
                            for lane in [p, p + 2] {
                                assert!(producer.send(lane, i * 10 + lane as u32));
                            }
                        }
                        Ok(())
                    })
                    .unwrap();
                }
                let mut got = vec![Vec::new(); 4];
                for _ in 0..500 {
                    for (lane, out) in got.iter_mut().enumerate() {
                        match h.recv(lane) {
                            Taken::Item(x) => out.push(x),
                            other => panic!("lane {lane}: {other:?}"),
                        }
                    }
                }
                for lane in 0..4 {
                    assert!(matches!(h.recv(lane), Taken::Ended), "lane {lane} ends");
                }
                got
            })
        });
        for (lane, items) in got.iter().enumerate() {
            let want: Vec<u32> = (0..500).map(|i| i * 10 + lane as u32).collect();
            assert_eq!(items, &want, "lane {lane}");
        }
    }

    #[test]
    fn a_full_lane_holds_its_producer_back() {
        within(20, || {
            let h: Arc<Handoff<usize, usize>> = Handoff::new(2, vec![0], stuck);
            let sent = AtomicUsize::new(0);
            scope(|s| {
                let producer = h.producer(0);
                let sent = &sent;
                s.spawn("test-producer", move || {
                    for i in 0..10 {
                        if !producer.send(0, i) {
                            break;
                        }
                        sent.fetch_add(1, Ordering::SeqCst);
                        // Items handed back come round again.
                        if let Some(b) = producer.take_back(0) {
                            assert!(b < i);
                        }
                    }
                    Ok(())
                })
                .unwrap();
                eventually(|| sent.load(Ordering::SeqCst) == 2);
                std::thread::sleep(Duration::from_millis(50));
                assert_eq!(sent.load(Ordering::SeqCst), 2, "the bound holds");
                let Taken::Item(0) = h.recv(0) else {
                    panic!("first item")
                };
                h.give_back(0, 0);
                eventually(|| sent.load(Ordering::SeqCst) == 3);
                std::thread::sleep(Duration::from_millis(50));
                assert_eq!(sent.load(Ordering::SeqCst), 3, "one taken, one more sent");
                for want in 1..10 {
                    let Taken::Item(x) = h.recv(0) else {
                        panic!("item {want}")
                    };
                    assert_eq!(x, want);
                }
                assert!(matches!(h.recv(0), Taken::Ended));
            });
        });
    }

    #[test]
    fn a_panicking_producer_fails_the_reader_with_its_message() {
        let (first, then) = within(20, || {
            let h: Arc<Handoff<u8, ()>> = Handoff::new(1, vec![0, 1], stuck);
            scope(|s| {
                let producer = h.producer(0);
                s.spawn("test-panics", move || {
                    let run = catch("producer 0", || -> crate::Result<()> {
                        producer.send(0, 1);
                        panic!("producer panics on purpose")
                    });
                    if let Err(e) = run {
                        producer.fail(e);
                    }
                    Ok(())
                })
                .unwrap();
                // The other producer never sends: the failure releases the reader anyway.
                let idle = h.producer(1);
                let first = h.recv(1);
                let then = h.recv(0);
                drop(idle);
                (first, then)
            })
        });
        let Taken::Failed(e) = first else {
            panic!("{first:?}")
        };
        assert_eq!(e.kind(), ErrorKind::Internal);
        assert_eq!(
            e.message(),
            "producer 0 panicked: producer panics on purpose"
        );
        // Items sent before the failure still come out; the error is given once.
        assert!(matches!(then, Taken::Item(1)), "{then:?}");
    }

    #[test]
    fn the_reader_going_releases_blocked_producers() {
        within(20, || {
            let h: Arc<Handoff<u64, ()>> = Handoff::new(1, vec![0, 1], stuck);
            let refused = AtomicUsize::new(0);
            scope(|s| {
                for p in 0..2 {
                    let producer = h.producer(p);
                    let refused = &refused;
                    s.spawn(format!("test-producer-{p}"), move || {
                        for i in 0.. {
                            if !producer.send(p, i) {
                                refused.fetch_add(1, Ordering::SeqCst);
                                break;
                            }
                        }
                        Ok(())
                    })
                    .unwrap();
                }
                assert!(matches!(h.recv(0), Taken::Item(0)));
                // Both producers are blocked on full lanes; the scope's join needs them
                // released.
                h.stop();
            });
            assert_eq!(refused.load(Ordering::SeqCst), 2);
        });
    }

    #[test]
    fn a_reader_and_producer_waiting_on_each_other_fail() {
        // The producer fills lane 0 and waits for room; the reader waits on lane 1.
        for reader_first in [false, true] {
            let got = within(20, move || {
                let h: Arc<Handoff<u8, ()>> = Handoff::new(1, vec![0, 0], stuck);
                scope(|s| {
                    let producer = h.producer(0);
                    let late = Arc::clone(&h);
                    s.spawn("test-producer", move || {
                        if reader_first {
                            // Let the reader wait on lane 1 first.
                            eventually(|| late.lock().waiting.is_some());
                        }
                        let sent = producer.send(0, 1) && producer.send(0, 2);
                        Ok(sent)
                    })
                    .unwrap();
                    if !reader_first {
                        eventually(|| h.lock().blocked[0].is_some());
                    }
                    h.recv(1)
                })
            });
            let Taken::Failed(e) = got else {
                panic!("{got:?}")
            };
            assert_eq!(e.message(), "stuck", "reader first: {reader_first}");
        }
    }
}
