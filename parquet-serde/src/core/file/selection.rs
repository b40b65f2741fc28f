//! [`RowSelection`]: the rows of a row group to read, as sorted disjoint ranges, and taking
//! those rows out of a decoded column batch.

use std::ops::Range;

use crate::core::column::{count_level, empty_values_like, ColumnBatch};

/// Rows of a row group, as sorted, disjoint, non-adjacent ranges of row indexes.
///
/// ```
/// use parquet_serde::core::file::RowSelection;
/// let a = RowSelection::from_ranges([0..10, 20..30]);
/// let b = RowSelection::from_ranges([5..25]);
/// assert_eq!(a.intersect(&b).ranges(), &[5..10, 20..25]);
/// assert_eq!(a.union(&b).ranges(), &[0..30]);
/// assert_eq!(a.row_count(), 20);
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct RowSelection {
    ranges: Vec<Range<u64>>,
}

impl RowSelection {
    /// Rows `0..num_rows`.
    pub fn all(num_rows: u64) -> Self {
        Self::from_ranges(std::iter::once(0..num_rows))
    }

    /// No rows.
    pub fn none() -> Self {
        RowSelection::default()
    }

    /// The rows of any ranges (in any order, overlapping or not); empty ranges are dropped.
    pub fn from_ranges(ranges: impl IntoIterator<Item = Range<u64>>) -> Self {
        let mut v: Vec<Range<u64>> = ranges.into_iter().filter(|r| r.start < r.end).collect();
        v.sort_by_key(|r| r.start);
        let mut out: Vec<Range<u64>> = Vec::with_capacity(v.len());
        for r in v {
            match out.last_mut() {
                Some(last) if r.start <= last.end => last.end = last.end.max(r.end),
                _ => out.push(r),
            }
        }
        RowSelection { ranges: out }
    }

    /// The rows `start + i` for every `i` with `mask[i]`.
    pub fn from_mask(start: u64, mask: &[bool]) -> Self {
        let mut ranges = Vec::new();
        let mut i = 0;
        while i < mask.len() {
            if mask[i] {
                let s = i;
                while i < mask.len() && mask[i] {
                    i += 1;
                }
                ranges.push(start + s as u64..start + i as u64);
            } else {
                i += 1;
            }
        }
        RowSelection { ranges }
    }

    /// The ranges, sorted and disjoint.
    pub fn ranges(&self) -> &[Range<u64>] {
        &self.ranges
    }

    /// Number of rows selected.
    pub fn row_count(&self) -> u64 {
        self.ranges.iter().map(|r| r.end - r.start).sum()
    }

    /// Whether no row is selected.
    pub fn is_empty(&self) -> bool {
        self.ranges.is_empty()
    }

    /// Whether `row` is selected.
    pub fn contains(&self, row: u64) -> bool {
        let i = self.ranges.partition_point(|r| r.end <= row);
        self.ranges.get(i).is_some_and(|r| r.start <= row)
    }

    /// The selected rows within `rows`, as ranges in order: the selection's ranges clipped
    /// to `rows`. Found by binary search, so a page's share of a selection of many ranges
    /// costs the ranges it holds, not a walk over all of them.
    ///
    /// ```
    /// use parquet_serde::core::file::RowSelection;
    /// let s = RowSelection::from_ranges([0..10, 20..30, 40..50]);
    /// let within: Vec<_> = s.ranges_within(5..25).collect();
    /// assert_eq!(within, [5..10, 20..25]);
    /// assert_eq!(s.ranges_within(10..20).next(), None);
    /// ```
    pub fn ranges_within(&self, rows: Range<u64>) -> impl Iterator<Item = Range<u64>> + '_ {
        let first = self.ranges.partition_point(|r| r.end <= rows.start);
        self.ranges[first..]
            .iter()
            .take_while(move |r| r.start < rows.end && rows.start < rows.end)
            .map(move |r| r.start.max(rows.start)..r.end.min(rows.end))
    }

    /// Rows in both selections.
    pub fn intersect(&self, other: &RowSelection) -> RowSelection {
        let (mut i, mut j) = (0, 0);
        let mut out = Vec::new();
        while i < self.ranges.len() && j < other.ranges.len() {
            let (a, b) = (&self.ranges[i], &other.ranges[j]);
            let (s, e) = (a.start.max(b.start), a.end.min(b.end));
            if s < e {
                out.push(s..e);
            }
            if a.end < b.end {
                i += 1;
            } else {
                j += 1;
            }
        }
        RowSelection { ranges: out }
    }

    /// Rows in either selection.
    pub fn union(&self, other: &RowSelection) -> RowSelection {
        Self::from_ranges(self.ranges.iter().chain(&other.ranges).cloned())
    }

    /// Rows of `0..num_rows` not in this selection.
    pub fn complement(&self, num_rows: u64) -> RowSelection {
        let mut out = Vec::new();
        let mut at = 0;
        for r in &self.ranges {
            if r.start > at {
                out.push(at..r.start.min(num_rows));
            }
            at = at.max(r.end);
        }
        if at < num_rows {
            out.push(at..num_rows);
        }
        Self::from_ranges(out)
    }
}

/// A cursor over the rows of a decoded batch: level and value positions of row starts.
pub(crate) struct RowCursor<'a> {
    batch: &'a ColumnBatch,
    max_def: i16,
    max_rep: i16,
    levels: usize,
    /// Current row, and the level and value where it starts.
    pub row: usize,
    pub level: usize,
    pub value: usize,
}

impl<'a> RowCursor<'a> {
    pub fn new(batch: &'a ColumnBatch, max_def: i16, max_rep: i16) -> Self {
        RowCursor {
            levels: batch.num_levels(),
            batch,
            max_def,
            max_rep,
            row: 0,
            level: 0,
            value: 0,
        }
    }

    /// Moves to the start of row `to` (or the end of the batch).
    pub fn advance_to(&mut self, to: usize) {
        if to <= self.row {
            return;
        }
        let start = self.level;
        if self.max_rep == 0 {
            self.level = (self.level + (to - self.row)).min(self.levels);
            self.row = to;
        } else {
            let rep = &self.batch.rep_levels;
            while self.row < to && self.level < self.levels {
                self.level += 1;
                while self.level < self.levels && rep[self.level] != 0 {
                    self.level += 1;
                }
                self.row += 1;
            }
            if self.level >= self.levels {
                self.row = to;
            }
        }
        self.value += if self.max_def == 0 {
            self.level - start
        } else {
            count_level(&self.batch.def_levels[start..self.level], self.max_def)
        };
    }
}

/// Positions, within rows decoded from the consecutive row ranges `covered`, of the rows
/// of `selection` (those outside `covered` are left out).
pub(crate) fn local_ranges(covered: &[Range<u64>], selection: &RowSelection) -> Vec<Range<usize>> {
    let mut local = Vec::new();
    let mut base = 0u64;
    for rows in covered {
        for r in selection.ranges_within(rows.clone()) {
            local
                .push((base + r.start - rows.start) as usize..(base + r.end - rows.start) as usize);
        }
        base += rows.end - rows.start;
    }
    local
}

/// The rows `ranges` (sorted, disjoint, batch-relative) of a decoded batch.
pub(crate) fn take_rows(
    batch: &ColumnBatch,
    max_def: i16,
    max_rep: i16,
    ranges: &[Range<usize>],
) -> ColumnBatch {
    let mut out = ColumnBatch {
        values: empty_values_like(&batch.values),
        def_levels: Vec::new(),
        rep_levels: Vec::new(),
    };
    let mut cur = RowCursor::new(batch, max_def, max_rep);
    for r in ranges {
        cur.advance_to(r.start);
        let (l0, v0) = (cur.level, cur.value);
        cur.advance_to(r.end);
        if max_def > 0 {
            out.def_levels
                .extend_from_slice(&batch.def_levels[l0..cur.level]);
        }
        if max_rep > 0 {
            out.rep_levels
                .extend_from_slice(&batch.rep_levels[l0..cur.level]);
        }
        crate::core::column::extend_values(&mut out.values, &batch.values, v0..cur.value);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::values::{ByteArrays, ColumnValues};

    #[test]
    fn normalizes_and_combines() {
        let s = RowSelection::from_ranges([5..7, 0..2, 1..3, 7..9, 4..4]);
        assert_eq!(s.ranges(), &[0..3, 5..9]);
        assert!(s.contains(2) && !s.contains(3) && s.contains(8) && !s.contains(9));
        assert_eq!(s.complement(12).ranges(), &[3..5, 9..12]);
        assert_eq!(RowSelection::all(4).complement(4), RowSelection::none());
        assert_eq!(
            RowSelection::from_mask(10, &[true, true, false, true]).ranges(),
            &[10..12, 13..14]
        );
        let t = RowSelection::from_ranges([2..6, 8..20]);
        assert_eq!(s.intersect(&t).ranges(), &[2..3, 5..6, 8..9]);
        assert_eq!(s.union(&t).ranges(), std::slice::from_ref(&(0..20)));
        assert_eq!(RowSelection::none().intersect(&t), RowSelection::none());
    }

    proptest::proptest! {
        #[test]
        fn ranges_within_agrees_with_intersect(
            ranges in proptest::collection::vec((0u64..200, 0u64..20), 0..40),
            start in 0u64..220,
            len in 0u64..80,
        ) {
            let s = RowSelection::from_ranges(ranges.into_iter().map(|(a, n)| a..a + n));
            let window = start..start + len;
            let within: Vec<_> = s.ranges_within(window.clone()).collect();
            let want = s.intersect(&RowSelection::from_ranges([window]));
            proptest::prop_assert_eq!(within.as_slice(), want.ranges());
        }
    }

    #[test]
    fn takes_flat_rows() {
        let b = ColumnBatch {
            values: ColumnValues::Int32(vec![1, 2, 4, 5]),
            def_levels: vec![1, 1, 0, 1, 1],
            rep_levels: vec![],
        };
        let t = take_rows(&b, 1, 0, &[1..3, 4..5]);
        assert_eq!(t.def_levels, vec![1, 0, 1]);
        assert_eq!(t.values, ColumnValues::Int32(vec![2, 5]));
        let r = ColumnBatch {
            values: ColumnValues::Int64(vec![1, 2, 3]),
            def_levels: vec![],
            rep_levels: vec![],
        };
        assert_eq!(
            take_rows(&r, 0, 0, &[0..1, 2..3]).values,
            ColumnValues::Int64(vec![1, 3])
        );
    }

    #[test]
    fn takes_nested_rows() {
        // rows: [a, b], [], [c], null
        let mut v = ByteArrays::new();
        for s in ["a", "b", "c"] {
            v.push(s.as_bytes());
        }
        let b = ColumnBatch {
            values: ColumnValues::ByteArray(v),
            def_levels: vec![2, 2, 1, 2, 0],
            rep_levels: vec![0, 1, 0, 0, 0],
        };
        let t = take_rows(&b, 2, 1, &[0..1, 2..4]);
        assert_eq!(t.rep_levels, vec![0, 1, 0, 0]);
        assert_eq!(t.def_levels, vec![2, 2, 2, 0]);
        let mut want = ByteArrays::new();
        for s in ["a", "b", "c"] {
            want.push(s.as_bytes());
        }
        assert_eq!(t.values, ColumnValues::ByteArray(want));
        let t = take_rows(&b, 2, 1, std::slice::from_ref(&(1..2)));
        assert_eq!((t.def_levels, t.rep_levels), (vec![1], vec![0]));
        // Past the end: nothing more.
        assert_eq!(
            take_rows(&b, 2, 1, std::slice::from_ref(&(4..9))).def_levels,
            Vec::<i16>::new()
        );
    }
}
