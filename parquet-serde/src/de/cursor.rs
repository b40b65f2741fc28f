//! [`Cursor`]: one decoded leaf column chunk (values and levels) with the position the
//! assembler has reached in it.

use crate::core::column::{count_level, ColumnBatch, LentValues};
use crate::core::values::{ByteArrays, ColumnValues, Int96};
use crate::error::{Error, Result};

/// One physical value, borrowed from a cursor.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Prim<'a> {
    /// BOOLEAN.
    Bool(bool),
    /// INT32.
    I32(i32),
    /// INT64.
    I64(i64),
    /// INT96.
    I96(Int96),
    /// FLOAT.
    F32(f32),
    /// DOUBLE.
    F64(f64),
    /// BYTE_ARRAY or FIXED_LEN_BYTE_ARRAY.
    Bytes(&'a [u8]),
    /// A BYTE_ARRAY value known to be UTF-8.
    Str(&'a str),
}

impl<'a> Prim<'a> {
    /// The value with text seen as its bytes.
    #[inline]
    pub fn raw(self) -> Prim<'a> {
        match self {
            Prim::Str(s) => Prim::Bytes(s.as_bytes()),
            p => p,
        }
    }
}

#[cold]
fn fewer_values() -> Error {
    Error::corrupt("fewer values than the definition levels announce")
}

fn levels_end() -> Error {
    Error::corrupt("levels end inside a row")
}

/// A run of whole rows of one leaf column, checked and ready for a [`Cursor`]: levels,
/// values, the text of a UTF-8 byte-array buffer, and optionally every value as an owned
/// `String` (built ahead, on a decoding thread, for targets that take ownership).
#[derive(Debug)]
pub(crate) struct Segment {
    def: Vec<i16>,
    rep: Vec<i16>,
    values: ColumnValues,
    /// Values lent from a dictionary: `values` is the dictionary, and value `i` is entry
    /// `lent[i]` of it (each index checked in range when decoded).
    lent: Option<Vec<u32>>,
    text: Option<String>,
    /// `text` is cut at every value's bounds: see [`cut_at_chars`].
    text_cut: bool,
    owned: Vec<String>,
    len: usize,
    rows: usize,
}

impl Segment {
    /// Checks a decoded batch (level and value counts agree, so that taking a value where
    /// the levels say there is one never runs out; it starts at a row) and validates its
    /// byte-array buffer as UTF-8 once. When `owned` is given, a UTF-8 buffer's values are
    /// also copied out as `String`s into it (its capacity reused).
    pub fn prepare_with(
        batch: ColumnBatch,
        max_def: i16,
        max_rep: i16,
        owned: Option<Vec<String>>,
    ) -> Result<Self> {
        Self::prepare_lent(batch, None, max_def, max_rep, owned)
    }

    /// [`prepare_with`](Self::prepare_with) for a batch whose values, when `lent` is
    /// given, are left in their dictionary (the batch then holds the levels alone).
    pub fn prepare_lent(
        batch: ColumnBatch,
        lent: Option<LentValues>,
        max_def: i16,
        max_rep: i16,
        owned: Option<Vec<String>>,
    ) -> Result<Self> {
        let ColumnBatch {
            values,
            def_levels,
            rep_levels,
        } = batch;
        let (values, lent) = match lent {
            Some(LentValues {
                dictionary,
                indices,
            }) if values.is_empty() => (ColumnValues::ByteArray(dictionary), Some(indices)),
            Some(_) => return Err(Error::corrupt("values both decoded and lent")),
            None => (values, None),
        };
        let count = lent.as_ref().map_or(values.len(), Vec::len);
        let len = if max_def > 0 {
            def_levels.len()
        } else if max_rep > 0 {
            rep_levels.len()
        } else {
            count
        };
        if max_def > 0 && def_levels.len() != len || max_rep > 0 && rep_levels.len() != len {
            return Err(Error::corrupt(
                "definition and repetition level counts differ",
            ));
        }
        let non_null = if max_def > 0 {
            count_level(&def_levels, max_def)
        } else {
            len
        };
        if non_null != count {
            return Err(Error::corrupt(format!(
                "{count} values where the definition levels announce {non_null}"
            )));
        }
        if max_rep > 0 && rep_levels.first().is_some_and(|&r| r != 0) {
            return Err(Error::corrupt("column chunk starts inside a row"));
        }
        let rows = if max_rep == 0 {
            len
        } else {
            count_level(&rep_levels, 0)
        };
        let mut values = values;
        let text = match &mut values {
            ColumnValues::ByteArray(v) => match String::from_utf8(std::mem::take(&mut v.data)) {
                Ok(text) => Some(text),
                Err(e) => {
                    v.data = e.into_bytes();
                    None
                }
            },
            _ => None,
        };
        let text_cut = match (&values, &text) {
            (ColumnValues::ByteArray(v), Some(text)) => cut_at_chars(&v.offsets, text),
            _ => false,
        };
        let owned = match (&values, &text, owned) {
            (ColumnValues::ByteArray(v), Some(text), Some(mut buf)) => {
                buf.clear();
                owned_strings(v, text, lent.as_deref(), &mut buf);
                buf
            }
            _ => Vec::new(),
        };
        Ok(Segment {
            def: def_levels,
            rep: rep_levels,
            values,
            lent,
            text,
            text_cut,
            owned,
            len,
            rows,
        })
    }

    /// Number of rows.
    pub fn rows(&self) -> usize {
        self.rows
    }
}

/// Whether every value's bounds in `text` (`offsets`) are in order, inside `text` and on
/// character boundaries, so that each value is a `str` slice of it with no check: what
/// [`Cursor::text_at`] then relies on.
fn cut_at_chars(offsets: &[usize], text: &str) -> bool {
    let bytes = text.as_bytes();
    // In order, and so all inside `text` when the last one is (branch-free: vectorized).
    let ordered = offsets.windows(2).fold(true, |ok, w| ok & (w[0] <= w[1]));
    if !ordered || offsets.last().is_some_and(|&e| e > bytes.len()) {
        return false;
    }
    // A boundary: the end, or a byte that does not continue a character (not 0b10xx_xxxx).
    offsets.iter().fold(true, |ok, &o| {
        ok & bytes.get(o).is_none_or(|&b| (b as i8) >= -0x40)
    })
}

/// Every value of a UTF-8 byte-array buffer as a `String`, into `out` (left empty when a
/// value does not start and end on character boundaries: it is not UTF-8 alone). With
/// `lent`, the values are those entries of the buffer.
fn owned_strings(v: &ByteArrays, text: &str, lent: Option<&[u32]>, out: &mut Vec<String>) {
    let value = |k: usize| text.get(*v.offsets.get(k)?..*v.offsets.get(k + 1)?);
    let all = match lent {
        None => {
            out.reserve(v.len());
            (0..v.len()).try_for_each(|k| value(k).map(|s| out.push(s.to_owned())))
        }
        Some(lent) => {
            out.reserve(lent.len());
            lent.iter()
                .try_for_each(|&k| value(k as usize).map(|s| out.push(s.to_owned())))
        }
    };
    if all.is_none() {
        out.clear();
    }
}

/// The buffers of a consumed segment, emptied, for the next one.
#[derive(Debug)]
pub(crate) struct Spare {
    /// Levels and values, empty.
    pub batch: ColumnBatch,
    /// The owned-value buffer, empty.
    pub owned: Vec<String>,
}

impl Segment {
    /// The segment's buffers, emptied (values still held are dropped).
    pub fn into_spare(self) -> Spare {
        let Segment {
            mut def,
            mut rep,
            mut values,
            text,
            mut owned,
            ..
        } = self;
        // Lent values: `values` is their dictionary, emptied below like decoded values.
        def.clear();
        rep.clear();
        if let (ColumnValues::ByteArray(v), Some(text)) = (&mut values, text) {
            v.data = text.into_bytes();
        }
        crate::core::column::truncate_values(&mut values, 0);
        owned.clear();
        Spare {
            batch: ColumnBatch {
                values,
                def_levels: def,
                rep_levels: rep,
            },
            owned,
        }
    }
}

/// How far ahead of the entry being read its cursor asks for the cache lines of the
/// levels and of the owned strings. A decoding thread wrote them, on another core: without
/// the hint, the calling thread waits on most of those lines.
const LEVELS_AHEAD: usize = 64;
const STRINGS_AHEAD: usize = 6;
const VALUES_AHEAD: usize = 16;

/// Hints the CPU to load the cache line of `items[i]`, if there is such an item.
#[inline(always)]
fn prefetch<T>(items: &[T], i: usize) {
    #[cfg(target_arch = "x86_64")]
    if let Some(item) = items.get(i) {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        // SAFETY: SSE, which `_mm_prefetch` needs, is part of the x86_64 baseline; a
        // prefetch of a valid address (an element of a live slice) reads nothing and
        // changes nothing but the cache.
        #[allow(unsafe_code)]
        unsafe {
            _mm_prefetch::<_MM_HINT_T0>((item as *const T).cast())
        };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (items, i);
}

/// Where a cursor's next segment comes from once it has consumed the one it holds.
pub(crate) trait Feed: Send {
    /// The next segment of the column, `Err` when the column cannot go on.
    fn next_segment(&mut self) -> Result<Segment>;

    /// Takes back a consumed segment (its buffers may serve again).
    fn recycle(&mut self, _used: Segment) {}

    /// Checks that the column's data for the current row group ends where its rows did.
    fn end_group(&mut self) -> Result<()> {
        Ok(())
    }
}

/// A decoded leaf column chunk (or a run of its rows, refilled from a [`Feed`]) and the
/// assembler's position in it.
pub(crate) struct Cursor {
    def: Vec<i16>,
    rep: Vec<i16>,
    values: ColumnValues,
    /// The held segment's lent values (see [`Segment`]).
    lent: Option<Vec<u32>>,
    max_def: i16,
    max_rep: i16,
    len: usize,
    /// Next level entry.
    pub pos: usize,
    /// Next non-null value.
    pub vpos: usize,
    /// `(level, value)` position of each row start, built on the first realignment.
    row_starts: Option<Vec<(usize, usize)>>,
    /// The BYTE_ARRAY buffer when it is all UTF-8 (validated once, so each value is a
    /// slice of a `str`, not validated again).
    text: Option<String>,
    /// The held segment's `text_cut`: `text` and the values' offsets, which only
    /// `install` replaces (with the segment's flag), were found cut at characters.
    text_cut: bool,
    /// Every value as an owned `String`, when built ahead (else empty).
    owned: Vec<String>,
    /// Rows in the segments held so far.
    rows: usize,
    /// The source of the next segments (none: the cursor holds the whole chunk).
    feed: Option<Box<dyn Feed>>,
}

impl std::fmt::Debug for Cursor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Cursor")
            .field("len", &self.len)
            .field("pos", &self.pos)
            .field("vpos", &self.vpos)
            .field("fed", &self.feed.is_some())
            .finish_non_exhaustive()
    }
}

impl Cursor {
    /// A cursor over a decoded chunk; checks that the level and value counts agree, so that
    /// taking a value where the levels say there is one never runs out.
    #[cfg(test)]
    pub fn new(batch: ColumnBatch, max_def: i16, max_rep: i16) -> Result<Cursor> {
        Self::lent(batch, None, max_def, max_rep)
    }

    /// [`new`](Self::new) for a batch whose values, when `lent` is given, are left in their
    /// dictionary (the batch then holds the levels alone).
    pub fn lent(
        batch: ColumnBatch,
        lent: Option<LentValues>,
        max_def: i16,
        max_rep: i16,
    ) -> Result<Cursor> {
        let segment = Segment::prepare_lent(batch, lent, max_def, max_rep, None)?;
        let mut c = Cursor::fed(max_def, max_rep, None);
        c.install(segment);
        Ok(c)
    }

    /// An empty cursor that takes its rows from `feed` as it needs them.
    pub fn fed(max_def: i16, max_rep: i16, feed: Option<Box<dyn Feed>>) -> Cursor {
        Cursor {
            def: Vec::new(),
            rep: Vec::new(),
            values: ColumnValues::Boolean(Vec::new()),
            lent: None,
            max_def,
            max_rep,
            len: 0,
            pos: 0,
            vpos: 0,
            row_starts: None,
            text: None,
            text_cut: false,
            owned: Vec::new(),
            rows: 0,
            feed,
        }
    }

    /// The held segment's buffers, emptied, for another cursor's values (the feed, if
    /// any, is dropped).
    pub fn into_spare(mut self) -> Spare {
        let empty = Segment {
            def: Vec::new(),
            rep: Vec::new(),
            values: ColumnValues::Boolean(Vec::new()),
            lent: None,
            text: None,
            text_cut: false,
            owned: Vec::new(),
            len: 0,
            rows: 0,
        };
        self.install(empty).into_spare()
    }

    /// Makes `s` the held segment; returns the one it replaces.
    fn install(&mut self, s: Segment) -> Segment {
        let old = Segment {
            def: std::mem::replace(&mut self.def, s.def),
            rep: std::mem::replace(&mut self.rep, s.rep),
            values: std::mem::replace(&mut self.values, s.values),
            lent: std::mem::replace(&mut self.lent, s.lent),
            text: std::mem::replace(&mut self.text, s.text),
            text_cut: std::mem::replace(&mut self.text_cut, s.text_cut),
            owned: std::mem::replace(&mut self.owned, s.owned),
            len: self.len,
            rows: 0,
        };
        self.len = s.len;
        self.rows += s.rows;
        self.pos = 0;
        self.vpos = 0;
        self.row_starts = None;
        old
    }

    /// Replaces the consumed segment by the feed's next one (the cursor is at a row start).
    #[cold]
    #[inline(never)]
    fn refill(&mut self) -> Result<()> {
        while self.pos >= self.len {
            let Some(feed) = self.feed.as_mut() else {
                return Err(levels_end());
            };
            let segment = feed.next_segment()?;
            let used = self.install(segment);
            // Not the empty stand-in a fed cursor starts with (its buffers have no type).
            if used.len > 0 {
                if let Some(feed) = self.feed.as_mut() {
                    feed.recycle(used);
                }
            }
        }
        Ok(())
    }

    /// At the end of a row group (every entry held consumed): checks with the feed that
    /// the column's data for the row group ends here too.
    pub fn end_group(&mut self) -> Result<()> {
        match self.feed.as_mut() {
            Some(feed) => feed.end_group(),
            None => Ok(()),
        }
    }

    /// Number of rows (level entries with repetition level 0).
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Whether every level entry held has been consumed.
    pub fn at_end(&self) -> bool {
        self.pos >= self.len
    }

    /// Definition level of the next entry.
    #[inline]
    pub fn def(&mut self) -> Result<i16> {
        if self.pos >= self.len {
            self.refill()?;
        }
        Ok(if self.max_def == 0 {
            0
        } else {
            prefetch(&self.def, self.pos + LEVELS_AHEAD);
            self.def[self.pos]
        })
    }

    #[inline]
    fn rep_at(&self, i: usize) -> i16 {
        if self.max_rep == 0 {
            0
        } else {
            self.rep[i]
        }
    }

    /// Consumes the next entry: the index of its value, or `None` when it is null.
    #[inline]
    pub fn take(&mut self) -> Result<Option<usize>> {
        let d = self.def()?;
        self.pos += 1;
        if d == self.max_def {
            let v = self.vpos;
            self.vpos += 1;
            Ok(Some(v))
        } else {
            Ok(None)
        }
    }

    /// The next entry when it is held (no refill is needed): `Some(Some(i))` for value `i`,
    /// `Some(None)` for a null; `None` when the held entries are used up (then
    /// [`take`](Self::take) refills). Nothing is consumed: the assembler's fast path
    /// (`fast.rs`) looks, and consumes with [`advance`](Self::advance) only when it can
    /// give the value exactly as the serde path would.
    #[inline(always)]
    pub fn peek(&self) -> Option<Option<usize>> {
        if self.pos >= self.len {
            return None;
        }
        let d = if self.max_def == 0 {
            0
        } else {
            prefetch(&self.def, self.pos + LEVELS_AHEAD);
            *self.def.get(self.pos)?
        };
        Some((d == self.max_def).then_some(self.vpos))
    }

    /// Consumes the entry [`peek`](Self::peek) saw: what [`take`](Self::take) does after
    /// reading it (`value`: it held a value).
    #[inline(always)]
    pub fn advance(&mut self, value: bool) {
        self.pos += 1;
        self.vpos += usize::from(value);
    }

    /// The values held (for the fast path's typed reads of value `i`, an index
    /// [`peek`](Self::peek) gave).
    #[inline(always)]
    pub fn values(&self) -> &ColumnValues {
        &self.values
    }

    /// Consumes one instance: its first entry and the entries after it whose repetition
    /// level is above `rep`.
    pub fn skip(&mut self, rep: i16) -> Result<()> {
        self.take()?;
        if self.max_rep > rep {
            while self.pos < self.len && self.rep_at(self.pos) > rep {
                self.take()?;
            }
        }
        Ok(())
    }

    /// Number of elements of the list starting at the next entry, whose repeated node has
    /// repetition level `rep`: one, plus the entries of the instance with level `rep`.
    pub fn count(&self, rep: i16) -> usize {
        let mut n = 1;
        if self.max_rep >= rep {
            prefetch(&self.rep, self.pos + LEVELS_AHEAD);
            let mut i = self.pos + 1;
            while i < self.len {
                let r = self.rep_at(i);
                if r < rep {
                    break;
                }
                n += (r == rep) as usize;
                i += 1;
            }
        }
        n
    }

    /// Moves value `i` (an index `take` returned) out as a `String`, when the values are
    /// held owned; each is taken once.
    #[inline]
    pub fn take_owned(&mut self, i: usize) -> Option<String> {
        prefetch(&self.owned, i + STRINGS_AHEAD);
        self.owned.get_mut(i).map(std::mem::take)
    }

    /// Value `i` (an index `take` returned).
    #[inline(always)]
    pub fn value(&self, i: usize) -> Result<Prim<'_>> {
        // The fixed-width numbers inline; the rest in one call.
        let v = match &self.values {
            ColumnValues::Int32(v) => {
                prefetch(v, i + VALUES_AHEAD);
                v.get(i).map(|&x| Prim::I32(x))
            }
            ColumnValues::Int64(v) => {
                prefetch(v, i + VALUES_AHEAD);
                v.get(i).map(|&x| Prim::I64(x))
            }
            ColumnValues::Double(v) => {
                prefetch(v, i + VALUES_AHEAD);
                v.get(i).map(|&x| Prim::F64(x))
            }
            _ => return self.other_value(i),
        };
        v.ok_or_else(fewer_values)
    }

    /// Value `i` (an index `take` returned) as text, when it is a value of a UTF-8
    /// byte-array buffer that is UTF-8 alone (what [`value`](Self::value) gives as
    /// [`Prim::Str`]); `None` otherwise (`value` then says what it is).
    #[inline(always)]
    pub fn text_at(&self, i: usize) -> Option<&str> {
        let (ColumnValues::ByteArray(v), Some(text)) = (&self.values, &self.text) else {
            return None;
        };
        let k = self.entry(i, &v.offsets)?;
        let (&a, &b) = (v.offsets.get(k)?, v.offsets.get(k.checked_add(1)?)?);
        if self.text_cut {
            debug_assert!(text.get(a..b).is_some(), "text cut at {a}..{b}");
            // SAFETY: `text_cut` holds for this `text` and these offsets (`install` sets
            // the three together, and nothing else writes them): `cut_at_chars` found
            // every offset in order, inside `text` and on a character boundary, so
            // `a <= b <= text.len()` and both are boundaries.
            #[allow(unsafe_code)]
            return Some(unsafe { text.get_unchecked(a..b) });
        }
        text.get(a..b)
    }

    /// The entry of the byte-array buffer (bounded by `offsets`) that holds value `i`:
    /// `i` itself, or its index into the dictionary the values are lent from. Asks for the
    /// cache lines of the values a few ahead.
    #[inline(always)]
    fn entry(&self, i: usize, offsets: &[usize]) -> Option<usize> {
        match &self.lent {
            None => {
                prefetch(offsets, i.wrapping_add(VALUES_AHEAD));
                Some(i)
            }
            Some(lent) => {
                prefetch(lent, i.wrapping_add(VALUES_AHEAD));
                lent.get(i).map(|&k| k as usize)
            }
        }
    }

    /// [`value`](Self::value) for the other physical types.
    #[inline(never)]
    fn other_value(&self, i: usize) -> Result<Prim<'_>> {
        let v = match &self.values {
            ColumnValues::Boolean(v) => v.get(i).map(|&b| Prim::Bool(b)),
            ColumnValues::Int32(v) => v.get(i).map(|&x| Prim::I32(x)),
            ColumnValues::Int64(v) => v.get(i).map(|&x| Prim::I64(x)),
            ColumnValues::Int96(v) => v.get(i).map(|&x| Prim::I96(x)),
            ColumnValues::Float(v) => v.get(i).map(|&x| Prim::F32(x)),
            ColumnValues::Double(v) => v.get(i).map(|&x| Prim::F64(x)),
            ColumnValues::ByteArray(v) => {
                let k = self.entry(i, &v.offsets).unwrap_or(usize::MAX);
                match (
                    v.offsets.get(k),
                    v.offsets.get(k.wrapping_add(1)),
                    &self.text,
                ) {
                    // `get` is `None` off a char boundary: such a value is not UTF-8 alone.
                    (Some(&a), Some(&b), Some(text)) => match text.get(a..b) {
                        Some(s) => Some(Prim::Str(s)),
                        None => text.as_bytes().get(a..b).map(Prim::Bytes),
                    },
                    (Some(&a), Some(&b), None) => v.data.get(a..b).map(Prim::Bytes),
                    _ => None,
                }
            }
            ColumnValues::FixedLenByteArray(v) => {
                let range = i
                    .checked_mul(v.width)
                    .and_then(|s| Some(s..s.checked_add(v.width)?));
                range.and_then(|r| v.data.get(r)).map(Prim::Bytes)
            }
        };
        v.ok_or_else(fewer_values)
    }

    /// Back to the first row held. `false` (nothing moved) for a cursor with a feed: its
    /// first rows may be gone.
    pub fn rewind(&mut self) -> bool {
        if self.feed.is_some() {
            return false;
        }
        self.pos = 0;
        self.vpos = 0;
        true
    }

    /// Moves to the start of row `row` (after a row failed half-way); the end when there
    /// is no such row.
    pub fn seek_row(&mut self, row: usize) {
        let starts = self.row_starts.get_or_insert_with(|| {
            let mut starts = Vec::new();
            let mut values = 0;
            for i in 0..self.len {
                let rep = if self.max_rep == 0 { 0 } else { self.rep[i] };
                if rep == 0 {
                    starts.push((i, values));
                }
                if self.max_def == 0 || self.def[i] == self.max_def {
                    values += 1;
                }
            }
            starts
        });
        (self.pos, self.vpos) = starts.get(row).copied().unwrap_or((
            self.len,
            self.lent.as_ref().map_or(self.values.len(), Vec::len),
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `[[1, 2], [], null, [3]]` as an optional list of required int32 (def max 2, rep max 1).
    fn list_cursor() -> Cursor {
        let batch = ColumnBatch {
            values: ColumnValues::Int32(vec![1, 2, 3]),
            def_levels: vec![2, 2, 1, 0, 2],
            rep_levels: vec![0, 1, 0, 0, 0],
        };
        Cursor::new(batch, 2, 1).unwrap()
    }

    #[test]
    fn counts_and_skips() {
        let mut c = list_cursor();
        assert_eq!(c.rows(), 4);
        assert_eq!(c.count(1), 2);
        assert_eq!(c.take().unwrap(), Some(0));
        assert_eq!(c.take().unwrap(), Some(1));
        assert_eq!(c.def().unwrap(), 1);
        c.skip(0).unwrap();
        assert_eq!(c.def().unwrap(), 0);
        c.skip(0).unwrap();
        assert_eq!(c.count(1), 1);
        assert_eq!(c.take().unwrap(), Some(2));
        assert!(matches!(c.value(2).unwrap(), Prim::I32(3)));
        assert!(c.at_end());
        assert!(c.take().is_err());
        assert!(c.def().is_err());
    }

    #[test]
    fn skip_consumes_an_instance_and_seek_finds_rows() {
        let mut c = list_cursor();
        c.skip(0).unwrap();
        assert_eq!((c.pos, c.vpos), (2, 2));
        c.take().unwrap();
        c.seek_row(1);
        assert_eq!((c.pos, c.vpos), (2, 2));
        c.seek_row(3);
        assert_eq!((c.pos, c.vpos), (4, 2));
        c.seek_row(4);
        assert!(c.at_end());
        c.seek_row(0);
        assert_eq!((c.pos, c.vpos), (0, 0));
    }

    #[test]
    fn rejects_inconsistent_batches() {
        let bad_values = ColumnBatch {
            values: ColumnValues::Int32(vec![1]),
            def_levels: vec![1, 1],
            rep_levels: vec![],
        };
        assert!(Cursor::new(bad_values, 1, 0).is_err());
        let bad_levels = ColumnBatch {
            values: ColumnValues::Int32(vec![1]),
            def_levels: vec![1],
            rep_levels: vec![0, 0],
        };
        assert!(Cursor::new(bad_levels, 1, 1).is_err());
        let inside = ColumnBatch {
            values: ColumnValues::Int32(vec![1]),
            def_levels: vec![],
            rep_levels: vec![1],
        };
        assert!(Cursor::new(inside, 0, 1).is_err());
    }

    #[test]
    fn text_is_validated_once() {
        let mut b = crate::core::values::ByteArrays::new();
        b.push("h\u{e9}".as_bytes());
        b.push(b"");
        let c = Cursor::new(batch_of(ColumnValues::ByteArray(b)), 0, 0).unwrap();
        assert!(matches!(c.value(0).unwrap(), Prim::Str("h\u{e9}")));
        assert!(matches!(c.value(1).unwrap(), Prim::Str("")));
        // A buffer that is UTF-8 as a whole, split inside a character.
        let mut b = crate::core::values::ByteArrays::new();
        b.push(&[0xc3]);
        b.push(&[0xa9]);
        let c = Cursor::new(batch_of(ColumnValues::ByteArray(b)), 0, 0).unwrap();
        assert!(matches!(c.value(0).unwrap(), Prim::Bytes(&[0xc3])));
        // Not UTF-8 at all.
        let mut b = crate::core::values::ByteArrays::new();
        b.push(&[0xff]);
        let c = Cursor::new(batch_of(ColumnValues::ByteArray(b)), 0, 0).unwrap();
        assert!(matches!(c.value(0).unwrap(), Prim::Bytes(&[0xff])));
        assert!(matches!(c.value(0).unwrap().raw(), Prim::Bytes(&[0xff])));
    }

    /// `text_at` is `value`'s `Prim::Str`, and `None` wherever `value` is not text.
    #[test]
    fn text_at_is_the_text_value_or_none() {
        let mut b = crate::core::values::ByteArrays::new();
        b.push("h\u{e9}".as_bytes());
        b.push(b"");
        let c = Cursor::new(batch_of(ColumnValues::ByteArray(b)), 0, 0).unwrap();
        assert_eq!(c.text_at(0), Some("h\u{e9}"));
        assert_eq!(c.text_at(1), Some(""));
        assert_eq!(c.text_at(2), None);
        assert_eq!(c.text_at(usize::MAX), None);
        // Split inside a character: not text alone.
        let mut b = crate::core::values::ByteArrays::new();
        b.push(&[0xc3]);
        b.push(&[0xa9]);
        let c = Cursor::new(batch_of(ColumnValues::ByteArray(b)), 0, 0).unwrap();
        assert_eq!((c.text_at(0), c.text_at(1)), (None, None));
        // Not UTF-8; not a byte array.
        let mut b = crate::core::values::ByteArrays::new();
        b.push(&[0xff]);
        let c = Cursor::new(batch_of(ColumnValues::ByteArray(b)), 0, 0).unwrap();
        assert_eq!(c.text_at(0), None);
        let c = Cursor::new(batch_of(ColumnValues::Int32(vec![1])), 0, 0).unwrap();
        assert_eq!(c.text_at(0), None);
    }

    #[test]
    fn text_is_cut_only_at_ordered_character_boundaries() {
        let text = "ab\u{e9}c";
        assert!(cut_at_chars(&[0, 1, 2, 4, 5], text));
        assert!(cut_at_chars(&[0, 0, 5, 5], text));
        assert!(cut_at_chars(&[], text));
        // Inside `é` (bytes 2..4), past the end, out of order.
        assert!(!cut_at_chars(&[0, 3, 5], text));
        assert!(!cut_at_chars(&[0, 6], text));
        assert!(!cut_at_chars(&[0, 4, 2, 5], text));
        // A cursor over cut text takes the unchecked way; over text split inside a
        // character, the checked one.
        let mut b = crate::core::values::ByteArrays::new();
        b.push("h\u{e9}".as_bytes());
        let c = Cursor::new(batch_of(ColumnValues::ByteArray(b)), 0, 0).unwrap();
        assert!(c.text_cut);
        let mut b = crate::core::values::ByteArrays::new();
        b.push(&[0xc3]);
        b.push(&[0xa9]);
        let c = Cursor::new(batch_of(ColumnValues::ByteArray(b)), 0, 0).unwrap();
        assert!(!c.text_cut);
    }

    /// A cursor over values lent from a dictionary reads what one over the same values
    /// copied out reads: text, bytes (a dictionary that is not UTF-8), owned strings, and
    /// positions after a seek.
    #[test]
    fn values_lent_from_a_dictionary_read_as_the_values_copied_out() {
        let def = vec![1, 0, 1, 1, 0, 1, 1];
        let indices = vec![2u32, 0, 1, 1, 0];
        for words in [&["x", "h\u{e9}", ""][..], &["x", "\u{ff}", "y"]] {
            let bytes: Vec<&[u8]> = words
                .iter()
                .map(|w| {
                    if *w == "\u{ff}" {
                        &[0xffu8][..]
                    } else {
                        w.as_bytes()
                    }
                })
                .collect();
            let mut dictionary = ByteArrays::new();
            bytes.iter().for_each(|w| dictionary.push(w));
            let mut copied = ByteArrays::new();
            indices.iter().for_each(|&k| copied.push(bytes[k as usize]));
            let levels = |values| ColumnBatch {
                values,
                def_levels: def.clone(),
                rep_levels: vec![],
            };
            let lent = LentValues {
                dictionary,
                indices: indices.clone(),
            };
            let empty = ColumnValues::ByteArray(ByteArrays::new());
            let mut a = Cursor::lent(levels(empty.clone()), Some(lent.clone()), 1, 0).unwrap();
            let mut b = Cursor::new(levels(ColumnValues::ByteArray(copied)), 1, 0).unwrap();
            for _ in 0..def.len() {
                let (i, j) = (a.take().unwrap(), b.take().unwrap());
                assert_eq!(i, j);
                if let Some(i) = i {
                    assert_eq!(a.text_at(i), b.text_at(i));
                    let (x, y) = (a.value(i).unwrap(), b.value(i).unwrap());
                    assert_eq!(format!("{x:?}"), format!("{y:?}"));
                }
            }
            assert!(a.at_end() && b.at_end());
            a.seek_row(3);
            b.seek_row(3);
            assert_eq!((a.pos, a.vpos), (b.pos, b.vpos));
            a.seek_row(99);
            b.seek_row(99);
            assert_eq!((a.pos, a.vpos), (b.pos, b.vpos));
            // Owned strings built ahead, when the dictionary is text.
            let owned = Segment::prepare_lent(
                levels(empty.clone()),
                Some(lent.clone()),
                1,
                0,
                Some(Vec::new()),
            );
            let copied_owned: Vec<String> = indices
                .iter()
                .filter_map(|&k| {
                    std::str::from_utf8(bytes[k as usize])
                        .ok()
                        .map(str::to_owned)
                })
                .collect();
            let owned = owned.unwrap().owned;
            if words[1] == "\u{ff}" {
                assert!(owned.is_empty());
            } else {
                assert_eq!(owned, copied_owned);
            }
            // Levels announcing more values than are lent; values both decoded and lent.
            let mut short = lent.clone();
            short.indices.pop();
            assert!(Cursor::lent(levels(empty.clone()), Some(short), 1, 0).is_err());
            let mut one = ByteArrays::new();
            one.push(b"z");
            assert!(Cursor::lent(levels(ColumnValues::ByteArray(one)), Some(lent), 1, 0).is_err());
        }
    }

    proptest::proptest! {
        /// Whatever the cuts, `text_at` is the checked slice: the value when it is text
        /// alone, else `None` (the unchecked way is taken only when every cut is sound).
        #[test]
        fn text_at_is_the_checked_slice(
            text in "[a\u{e9}\u{20ac}\u{1f600}]{0,12}",
            cuts in proptest::collection::vec(0usize..50, 0..6),
        ) {
            let bytes = text.as_bytes();
            let mut ends: Vec<usize> = cuts.iter().map(|&c| c % (bytes.len() + 1)).collect();
            ends.sort_unstable();
            let mut b = crate::core::values::ByteArrays::new();
            let mut start = 0;
            for &e in ends.iter().chain([bytes.len()].iter()) {
                b.push(&bytes[start..e]);
                start = e;
            }
            let offsets = b.offsets.clone();
            let c = Cursor::new(batch_of(ColumnValues::ByteArray(b)), 0, 0).unwrap();
            for i in 0..offsets.len() - 1 {
                proptest::prop_assert_eq!(c.text_at(i), text.get(offsets[i]..offsets[i + 1]));
            }
            proptest::prop_assert_eq!(c.text_at(offsets.len() - 1), None);
        }
    }

    fn batch_of(values: ColumnValues) -> ColumnBatch {
        ColumnBatch {
            values,
            def_levels: vec![],
            rep_levels: vec![],
        }
    }

    #[test]
    fn fixed_width_values() {
        let mut f = crate::core::values::FixedLenByteArrays::new(2);
        f.push(b"ab");
        let c = Cursor::new(
            ColumnBatch {
                values: ColumnValues::FixedLenByteArray(f),
                def_levels: vec![],
                rep_levels: vec![],
            },
            0,
            0,
        )
        .unwrap();
        assert!(matches!(c.value(0).unwrap(), Prim::Bytes(b"ab")));
        assert!(c.value(1).is_err());
        assert!(c.value(usize::MAX).is_err());
    }
}
