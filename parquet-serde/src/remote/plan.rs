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
    /// A unit of `wanted` ranges within a file of `len` bytes, coalesced with `gap` (see
    /// [`coalesce`]): empty ranges and ranges outside the file are left out (the reader's
    /// own checks report those when it asks), and so are ranges that lie inside one of
    /// `in_memory` (the tail fetched with the footer, the fetch ranges of units kept in
    /// memory), which the reader is served from without a request. A range reaching into
    /// the tail (the one of `in_memory` ending at `len`) is cut at the tail's start: the
    /// reader reads the rest from the tail.
    pub fn new(
        mut wanted: Vec<Range<u64>>,
        len: u64,
        gap: u64,
        keep: bool,
        in_memory: &[Range<u64>],
    ) -> UnitPlan {
        if let Some(tail) = in_memory.iter().find(|m| m.end == len) {
            for r in wanted.iter_mut() {
                if r.start < tail.start && tail.start < r.end {
                    r.end = tail.start;
                }
            }
        }
        wanted.retain(|r| {
            r.start < r.end
                && r.end <= len
                && !in_memory
                    .iter()
                    .any(|m| m.start <= r.start && r.end <= m.end)
        });
        let fetch = within_budget(coalesce(&wanted, gap), gap);
        UnitPlan {
            wanted,
            fetch,
            keep,
        }
    }
}

/// The absolute gap always bridged, as a fraction of the coalescing gap (64 KiB of the
/// default 256 KiB: about what a round trip costs in transfer time, and the gap between a
/// small column's dictionary and its pages).
const SMALL_GAP_DIVISOR: u64 = 4;

/// A larger gap is bridged when it is at most this fraction of the request it makes
/// (1/32, about 3%).
const GAP_SHARE_DIVISOR: u64 = 32;

/// `ranges` sorted, with overlapping and adjacent ones merged, and ranges apart by a gap
/// merged when that gap is small: at most `max_gap / 4` bytes, or at most 1/32 of the
/// bytes the merged request would hold, and never more than `max_gap`. Two requests cost
/// a round trip more than one; a large gap costs its bytes (a dictionary page merged with
/// a data page a quarter megabyte away fetches that quarter megabyte for nothing).
pub(crate) fn coalesce(ranges: &[Range<u64>], max_gap: u64) -> Vec<Range<u64>> {
    let mut sorted: Vec<Range<u64>> = ranges.to_vec();
    sorted.sort_by_key(|r| (r.start, r.end));
    let mut out: Vec<Range<u64>> = Vec::with_capacity(sorted.len());
    for r in sorted {
        match out.last_mut() {
            Some(last) if r.start <= last.end => last.end = last.end.max(r.end),
            Some(last) if bridged(r.start - last.end, last, &r, max_gap) => last.end = r.end,
            _ => out.push(r),
        }
    }
    out
}

/// Requests a unit sends at most when gaps up to the coalescing gap can make it so: a
/// row group's unit has about one request per column read.
const UNIT_REQUESTS: usize = 8;

/// `fetch` (sorted, apart) with its smallest gaps bridged while it holds more than
/// [`UNIT_REQUESTS`] requests, the smallest gap is at most `max_gap`, and the bytes
/// bridged stay within a quarter of the bytes wanted or `max_gap`, whichever is more (a
/// round trip costs about as much as a quarter megabyte: a small unit, a few pages and
/// a dictionary a little way off, is not split into more requests to save less).
fn within_budget(mut fetch: Vec<Range<u64>>, max_gap: u64) -> Vec<Range<u64>> {
    let wanted: u64 = fetch.iter().map(|r| r.end - r.start).sum();
    let budget = (wanted / 4).max(max_gap);
    let mut bridged = 0u64;
    while fetch.len() > UNIT_REQUESTS {
        let Some((i, gap)) = fetch
            .windows(2)
            .enumerate()
            .map(|(i, w)| (i, w[1].start - w[0].end))
            .min_by_key(|&(_, gap)| gap)
        else {
            break;
        };
        if gap > max_gap || bridged.saturating_add(gap) > budget {
            break;
        }
        bridged += gap;
        fetch[i].end = fetch[i + 1].end;
        fetch.remove(i + 1);
    }
    fetch
}

/// Whether a gap of `gap` bytes between `last` and `next` is fetched to save a request.
fn bridged(gap: u64, last: &Range<u64>, next: &Range<u64>, max_gap: u64) -> bool {
    let request = (last.end - last.start)
        .saturating_add(next.end - next.start)
        .saturating_add(gap);
    gap <= max_gap && (gap <= max_gap / SMALL_GAP_DIVISOR || gap <= request / GAP_SHARE_DIVISOR)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn merges_overlapping_adjacent_and_small_gaps_only() {
        // max gap 8: gaps up to 2 bytes always, larger ones up to 1/32 of the request.
        let got = coalesce(&[20..30, 0..10, 12..15, 5..8, 100..110], 8);
        assert_eq!(got, vec![0..15, 20..30, 100..110]);
        assert_eq!(coalesce(&[0..10, 10..20], 0), vec![0..20]);
        assert_eq!(coalesce(&[0..10, 11..20], 0), vec![0..10, 11..20]);
        assert_eq!(coalesce(&[], 10), Vec::<Range<u64>>::new());
    }

    #[test]
    fn a_gap_is_bridged_only_when_small_against_the_request_or_absolutely() {
        let max = 256 << 10;
        // A 4 KiB dictionary and a 4 KiB page 250 KB apart: two requests.
        assert_eq!(
            coalesce(&[0..4096, 254_096..258_192], max),
            vec![0..4096, 254_096..258_192]
        );
        // 64 KiB apart (max / 4): one.
        assert_eq!(coalesce(&[0..4096, 69_632..73_728], max), vec![0..73_728]);
        assert_eq!(
            coalesce(&[0..4096, 69_633..73_729], max),
            vec![0..4096, 69_633..73_729]
        );
        // Two 4 MiB pages 100 KB apart: 100 KB is under 1/32 of the 8 MiB request.
        let (a, b) = (0..4 << 20, (4 << 20) + 100_000..(8 << 20) + 100_000);
        assert_eq!(coalesce(&[a.clone(), b.clone()], max), vec![a.start..b.end]);
        // ... but never over the maximum gap.
        assert_eq!(coalesce(&[a.clone(), b.clone()], 50_000), vec![a, b]);
    }

    #[test]
    fn a_unit_of_many_ranges_bridges_its_smallest_gaps_within_the_maximum() {
        // Ten ranges of 100 KB, 100 KB apart (the last 300 KB): the first gaps bridged,
        // two of them (under a quarter of the 1 MB wanted).
        let mut wanted: Vec<Range<u64>> = (0..10u64)
            .map(|i| i * 200_000..i * 200_000 + 100_000)
            .collect();
        wanted[9] = 2_000_000..2_100_000;
        let unit = UnitPlan::new(wanted.clone(), 1 << 30, 256 << 10, false, &[]);
        assert_eq!(unit.fetch.len(), UNIT_REQUESTS);
        assert_eq!(unit.fetch[0], 0..500_000);
        assert_eq!(unit.fetch[7], 2_000_000..2_100_000);
        // Gaps over the maximum stay.
        let apart = UnitPlan::new(wanted.clone(), 1 << 30, 50_000, false, &[]);
        assert_eq!(apart.fetch.len(), 10);
        // So do gaps that would fetch more than a quarter of the bytes wanted, or the
        // maximum gap, besides: of nine gaps of 180 KB around 200 KB wanted, one.
        let small: Vec<Range<u64>> = wanted.iter().map(|r| r.start..r.start + 20_000).collect();
        let costly = UnitPlan::new(small, 1 << 30, 256 << 10, false, &[]);
        assert_eq!(costly.fetch.len(), 9);
        assert_eq!(costly.fetch[0], 0..220_000);
        // A 63-byte dictionary 75 KB before its pages, in a unit of nine requests wanting
        // 640 KB (the 1% window at 20% of issue 35): bridged although 75 KB plus the 70 KB
        // bridged before are over a quarter of the bytes wanted, being under the maximum.
        let window = vec![
            257_586..270_808,
            508_775..508_838,
            584_212..587_742,
            657_674..657_990,
            807_357..815_017,
            6_144_264..6_407_363,
            12_251_098..12_304_106,
            13_256_413..13_310_828,
            13_705_877..13_723_587,
            17_166_113..17_325_682,
        ];
        let unit = UnitPlan::new(window, 1 << 30, 256 << 10, false, &[]);
        assert_eq!(unit.fetch.len(), UNIT_REQUESTS);
        assert_eq!(unit.fetch[1], 508_775..657_990);
    }

    #[test]
    fn units_leave_out_ranges_outside_the_file_or_in_memory() {
        let unit = UnitPlan::new(vec![0..4, 90..120, 50..50, 10..20], 100, 5, false, &[]);
        assert_eq!(unit.wanted, vec![0..4, 10..20]);
        assert_eq!(unit.fetch, vec![0..4, 10..20]);
        let near = UnitPlan::new(vec![10..20, 0..4], 100, 24, true, &[]);
        assert_eq!(near.wanted, vec![10..20, 0..4]);
        assert_eq!(near.fetch, vec![0..20]);
        // 80..90 lies in the tail, 30..35 in a kept unit; 38..45 only partly: fetched.
        let served = UnitPlan::new(
            vec![30..35, 38..45, 80..90],
            100,
            0,
            false,
            &[70..100, 25..40],
        );
        assert_eq!(served.wanted, vec![38..45]);
        assert_eq!(served.fetch, vec![38..45]);
        // 60..80 reaches into the tail: its first 10 bytes fetched; 20..30 reaches into a
        // kept unit (not the tail): fetched whole.
        let cut = UnitPlan::new(vec![60..80, 20..30], 100, 0, false, &[70..100, 25..40]);
        assert_eq!(cut.wanted, vec![60..70, 20..30]);
        assert_eq!(cut.fetch, vec![20..30, 60..70]);
    }
}
