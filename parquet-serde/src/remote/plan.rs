//! The fetch plan: the byte ranges a read will ask for, grouped into units (the metadata a
//! predicate needs; then one unit per row group), each fetched as a few coalesced requests.

use std::ops::Range;

/// A group of ranges fetched together (concurrently) when the reader first needs one of
/// them.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct UnitPlan {
    /// The ranges the reader is expected to read, in the order planned.
    pub wanted: Vec<Range<u64>>,
    /// The requests: `wanted` sorted and merged where less than the coalescing gap apart.
    pub fetch: Vec<Range<u64>>,
    /// Kept until the file is dropped (metadata read more than once), instead of dropped
    /// once every wanted range has been read.
    pub keep: bool,
}

impl UnitPlan {
    /// A unit of `wanted` ranges within a file of `len` bytes, coalesced with `gap`:
    /// empty ranges and ranges outside the file are left out (the reader's own checks
    /// report those when it asks).
    pub fn new(mut wanted: Vec<Range<u64>>, len: u64, gap: u64, keep: bool) -> UnitPlan {
        wanted.retain(|r| r.start < r.end && r.end <= len);
        let fetch = coalesce(&wanted, gap);
        UnitPlan {
            wanted,
            fetch,
            keep,
        }
    }
}

/// `ranges` sorted, with overlapping ones and those at most `gap` bytes apart merged.
pub(crate) fn coalesce(ranges: &[Range<u64>], gap: u64) -> Vec<Range<u64>> {
    let mut sorted: Vec<Range<u64>> = ranges.to_vec();
    sorted.sort_by_key(|r| (r.start, r.end));
    let mut out: Vec<Range<u64>> = Vec::with_capacity(sorted.len());
    for r in sorted {
        match out.last_mut() {
            Some(last) if r.start <= last.end.saturating_add(gap) => {
                last.end = last.end.max(r.end);
            }
            _ => out.push(r),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn merges_overlapping_and_near_ranges_only() {
        let got = coalesce(&[20..30, 0..10, 12..15, 5..8, 100..110], 2);
        assert_eq!(got, vec![0..15, 20..30, 100..110]);
        assert_eq!(coalesce(&[0..10, 10..20], 0), vec![0..20]);
        assert_eq!(coalesce(&[0..10, 11..20], 0), vec![0..10, 11..20]);
        assert_eq!(coalesce(&[], 10), Vec::<Range<u64>>::new());
    }

    #[test]
    fn units_leave_out_ranges_outside_the_file() {
        let unit = UnitPlan::new(vec![0..4, 90..120, 50..50, 10..20], 100, 5, false);
        assert_eq!(unit.wanted, vec![0..4, 10..20]);
        assert_eq!(unit.fetch, vec![0..4, 10..20]);
        let near = UnitPlan::new(vec![10..20, 0..4], 100, 6, true);
        assert_eq!(near.wanted, vec![10..20, 0..4]);
        assert_eq!(near.fetch, vec![0..20]);
    }
}
