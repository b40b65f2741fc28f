//! Mapping the pages of a large buffer ahead of its first writes, from a helper thread.
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

/// Pages mapped per system call, so that the calling thread soon finds its next pages
/// mapped, and the work stops early when `stop` says so.
const STEP: usize = 2 << 20;

/// Asks the kernel to map the pages of the `len` bytes at address `addr` writable
/// (whole pages inside the range only), in steps from the start, until `stop()` holds.
///
/// The range should be memory the caller owns and keeps for the call (a `Vec`'s spare
/// capacity); a range freed meanwhile costs at most a failed call, as the pages' contents
/// are never touched.
pub(crate) fn prefault(addr: usize, len: usize, stop: impl Fn() -> bool) {
    #[cfg(target_os = "linux")]
    {
        const PAGE: usize = 4096;
        let start = addr.saturating_add(PAGE - 1) & !(PAGE - 1);
        let end = addr.saturating_add(len) & !(PAGE - 1);
        let mut at = start;
        while at < end && !stop() {
            let n = STEP.min(end - at);
            // SAFETY: MADV_POPULATE_WRITE only maps pages (as a write would, without
            // writing): it never changes the contents of memory, so no Rust object can
            // observe it, whatever the range holds. A range that is not mapped fails with
            // an error code, which ends the work.
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
    let _ = (addr, len, stop);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_contents_and_tolerates_any_range() {
        let mut v: Vec<u64> = Vec::with_capacity(4 << 20);
        v.extend(0..1000);
        let spare = v.spare_capacity_mut();
        prefault(
            spare.as_ptr() as usize,
            std::mem::size_of_val(spare),
            || false,
        );
        // The written part is untouched, and the rest is usable.
        prefault(v.as_ptr() as usize, v.len() * 8, || false);
        assert!(v.iter().copied().eq(0..1000));
        v.extend(1000..(4 << 20));
        assert_eq!(v[(4 << 20) - 1], (4 << 20) - 1);
        // Unaligned, empty and unmapped ranges do nothing harmful.
        prefault(1, 10, || false);
        prefault(0, 0, || false);
        prefault(4096, 1 << 20, || false);
        // Stopping before the first step.
        prefault(v.as_ptr() as usize, 1 << 20, || true);
    }
}
