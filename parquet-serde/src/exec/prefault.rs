//! A worker's job: mapping the pages of a large buffer ahead of its first writes.
//!
//! A fresh allocation of many megabytes (the `Vec<T>` of a whole file's rows, the bytes of
//! a file written in memory) is mapped by the kernel one 4 KiB page at a time, on the first
//! write to each page: on the calling thread, tens of milliseconds per hundred megabytes.
//! [`prefault`] has a helper thread ask for the pages first (Linux's
//! `MADV_POPULATE_WRITE`), while the calling thread works. It never reads or writes the
//! memory, so the buffer may be written meanwhile; elsewhere, or on kernels before 5.14, it
//! does nothing.

/// Smallest buffer worth a helper thread's time.
pub(crate) const MIN_BYTES: usize = 8 << 20;

/// How far ahead of the bytes in use the pages are mapped: the work stays ahead of the
/// calling thread without mapping much memory it may never reach (a footer may promise
/// rows the file does not hold).
pub(crate) const AHEAD_BYTES: usize = 32 << 20;

/// Pages mapped per system call.
const STEP: usize = 2 << 20;

/// Asks the kernel to map the pages of the `len` bytes at address `addr` writable
/// (whole pages inside the range only), in steps from the start. `limit()` says how many
/// bytes from `addr` may be mapped by now, `None` to stop; the thread waits while the
/// work has reached the limit.
///
/// The range should be memory the caller owns and keeps for the call (a `Vec`'s spare
/// capacity); a range freed meanwhile costs at most a failed call, as the pages' contents
/// are never touched.
pub(crate) fn prefault(addr: usize, len: usize, limit: impl Fn() -> Option<usize>) {
    #[cfg(target_os = "linux")]
    {
        const PAGE: usize = 4096;
        let start = addr.saturating_add(PAGE - 1) & !(PAGE - 1);
        let end = addr.saturating_add(len) & !(PAGE - 1);
        let mut at = start;
        while at < end {
            let Some(limit) = limit() else {
                return;
            };
            let allowed = addr.saturating_add(limit).min(end) & !(PAGE - 1);
            if at >= allowed {
                std::thread::sleep(std::time::Duration::from_micros(200));
                continue;
            }
            let n = STEP.min(allowed - at);
            // SAFETY: MADV_POPULATE_WRITE only maps pages (as a write would, without
            // writing): it never changes the contents of memory, so no Rust object can
            // observe it, whatever the range holds. A range that is not mapped fails with
            // an error code, which ends the work.
            #[allow(unsafe_code)]
            let failed =
                unsafe { libc::madvise(at as *mut libc::c_void, n, libc::MADV_POPULATE_WRITE) }
                    != 0;
            if failed {
                return;
            }
            at += n;
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (addr, len, limit);
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    const ALL: fn() -> Option<usize> = || Some(usize::MAX);

    #[test]
    fn keeps_contents_and_tolerates_any_range() {
        let mut v: Vec<u64> = Vec::with_capacity(4 << 20);
        v.extend(0..1000);
        let spare = v.spare_capacity_mut();
        prefault(spare.as_ptr() as usize, std::mem::size_of_val(spare), ALL);
        // The written part is untouched, and the rest is usable.
        prefault(v.as_ptr() as usize, v.len() * 8, ALL);
        assert!(v.iter().copied().eq(0..1000));
        v.extend(1000..(4 << 20));
        assert_eq!(v[(4 << 20) - 1], (4 << 20) - 1);
        // Unaligned, empty and unmapped ranges do nothing harmful.
        prefault(1, 10, ALL);
        prefault(0, 0, ALL);
        prefault(4096, 1 << 20, ALL);
        // Stopping before the first step.
        prefault(v.as_ptr() as usize, 1 << 20, || None);
    }

    #[test]
    fn waits_for_the_limit_to_move() {
        let v: Vec<u8> = Vec::with_capacity(64 << 20);
        let (addr, len) = (v.as_ptr() as usize, v.capacity());
        let limit = AtomicUsize::new(0);
        let calls = AtomicUsize::new(0);
        std::thread::scope(|s| {
            s.spawn(|| {
                prefault(addr, len, || {
                    calls.fetch_add(1, Ordering::Relaxed);
                    Some(limit.load(Ordering::Relaxed))
                })
            });
            // The helper waits at limit 0, asking again and again, and finishes once the
            // limit covers the range.
            while calls.load(Ordering::Relaxed) < 3 {
                std::thread::yield_now();
            }
            limit.store(usize::MAX, Ordering::Relaxed);
        });
        assert!(calls.load(Ordering::Relaxed) >= 3);
    }
}
