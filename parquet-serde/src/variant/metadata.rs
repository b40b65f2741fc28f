//! The metadata dictionary of a Variant: [`Metadata`], a checked view over its bytes, and
//! [`Dictionary`], the sorted set of names an encoder writes.

use crate::error::{Error, Result};

/// The only metadata version the encoding defines.
pub(crate) const VERSION: u8 = 1;

/// A checked view of Variant metadata bytes: the header, dictionary size, offsets and
/// strings are all validated when it is made, so looking a name up cannot fail later.
///
/// ```
/// use parquet_serde::__internals::variant::Metadata;
/// // version 1, sorted, 1-byte offsets; two names: "a", "bc".
/// let m = Metadata::new(&[0x11, 2, 0, 1, 3, b'a', b'b', b'c'])?;
/// assert_eq!(m.len(), 2);
/// assert_eq!(m.get(1), Some("bc"));
/// assert_eq!(m.find("bc"), Some(1));
/// # Ok::<(), parquet_serde::Error>(())
/// ```
#[derive(Debug, Clone, Copy)]
pub struct Metadata<'a> {
    bytes: &'a [u8],
    offset_size: usize,
    len: usize,
    sorted: bool,
    /// Where the strings start in `bytes`.
    strings: usize,
    /// The strings, checked UTF-8 once, with every name boundary on a char boundary (so a
    /// name is a slice of it, with no check per look-up).
    text: &'a str,
}

/// Reads the little-endian unsigned integer of `size` (1 to 4) bytes at `at`.
#[inline]
pub(crate) fn read_uint(bytes: &[u8], at: usize, size: usize) -> Option<usize> {
    let b = bytes.get(at..at.checked_add(size)?)?;
    // One load per width (the encoding's sizes are 1 to 4 bytes).
    Some(match *b {
        [x] => usize::from(x),
        [x, y] => usize::from(u16::from_le_bytes([x, y])),
        [x, y, z] => u32::from_le_bytes([x, y, z, 0]) as usize,
        [x, y, z, w] => u32::from_le_bytes([x, y, z, w]) as usize,
        _ => b
            .iter()
            .enumerate()
            .fold(0usize, |v, (i, &x)| v | (x as usize) << (8 * i)),
    })
}

impl<'a> Metadata<'a> {
    /// Checks `bytes` as a whole metadata (trailing bytes are an error).
    pub fn new(bytes: &'a [u8]) -> Result<Metadata<'a>> {
        let (m, used) = Metadata::prefix(bytes)?;
        if used != bytes.len() {
            return Err(Error::corrupt(format!(
                "variant metadata: {} bytes after the dictionary's end at byte {used}",
                bytes.len() - used
            )));
        }
        Ok(m)
    }

    /// Checks the metadata at the start of `bytes`; returns it and its length in bytes.
    pub fn prefix(bytes: &'a [u8]) -> Result<(Metadata<'a>, usize)> {
        let bad = |what: String| Error::corrupt(format!("variant metadata: {what}"));
        let &header = bytes.first().ok_or_else(|| bad("empty".into()))?;
        let version = header & 0x0f;
        if version != VERSION {
            return Err(bad(format!("version {version} (only 1 is defined)")));
        }
        if header & 0x20 != 0 {
            return Err(bad("reserved header bit 5 is set".into()));
        }
        let sorted = header & 0x10 != 0;
        let offset_size = usize::from(header >> 6) + 1;
        let len = read_uint(bytes, 1, offset_size)
            .ok_or_else(|| bad("dictionary size is cut short".into()))?;
        let offsets = 1 + offset_size;
        // Each offset takes `offset_size` bytes: a count the bytes cannot hold is refused
        // before anything is sized by it.
        let strings = len
            .checked_add(1)
            .and_then(|n| n.checked_mul(offset_size))
            .and_then(|n| n.checked_add(offsets))
            .filter(|&end| end <= bytes.len())
            .ok_or_else(|| bad(format!("{len} names do not fit in {} bytes", bytes.len())))?;
        let mut m = Metadata {
            bytes,
            offset_size,
            len,
            sorted,
            strings,
            text: "",
        };
        let mut prev = 0usize;
        for i in 0..=len {
            let off = m.offset(i);
            if (i == 0 && off != 0) || off < prev {
                return Err(bad(format!("offset {i} ({off}) is out of order")));
            }
            prev = off;
        }
        let end = strings
            .checked_add(prev)
            .filter(|&e| e <= bytes.len())
            .ok_or_else(|| {
                bad(format!(
                    "the names end at byte {} past the {} bytes",
                    strings.saturating_add(prev),
                    bytes.len()
                ))
            })?;
        // One UTF-8 check of all the names; a name is UTF-8 when the whole is and its
        // bounds are char boundaries of it.
        let whole = std::str::from_utf8(&bytes[strings..end]).ok();
        let not_utf8 = |i: usize| bad(format!("name {i} is not UTF-8"));
        m.text = match whole {
            Some(text) => text,
            None => {
                let i = (0..len)
                    .find(|&i| std::str::from_utf8(m.raw(i)).is_err())
                    .unwrap_or(0);
                return Err(not_utf8(i));
            }
        };
        if !sorted {
            // The first start and the last end bound the whole text.
            for i in 1..len {
                if !m.text.is_char_boundary(m.offset(i)) {
                    return Err(not_utf8(i));
                }
            }
            return Ok((m, end));
        }
        let mut last: Option<&str> = None;
        for i in 0..len {
            let (a, b) = (m.offset(i), m.offset(i + 1));
            let s = m.text.get(a..b).ok_or_else(|| not_utf8(i))?;
            if last.is_some_and(|l| l >= s) {
                return Err(bad(format!(
                    "marked sorted but name {i} ({s:?}) is not after the one before"
                )));
            }
            last = Some(s);
        }
        Ok((m, end))
    }

    #[inline]
    fn offset(&self, i: usize) -> usize {
        // In range: `new` checked that the offsets fit.
        read_uint(self.bytes, 1 + self.offset_size * (1 + i), self.offset_size).unwrap_or(0)
    }

    #[inline]
    fn raw(&self, i: usize) -> &'a [u8] {
        let (a, b) = (self.offset(i), self.offset(i + 1));
        self.bytes
            .get(self.strings + a..self.strings + b)
            .unwrap_or_default()
    }

    /// Number of names in the dictionary.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the dictionary is empty.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Whether the header says the names are sorted and unique (checked by `new`).
    pub fn is_sorted(&self) -> bool {
        self.sorted
    }

    /// The metadata bytes.
    pub fn as_bytes(&self) -> &'a [u8] {
        self.bytes
    }

    /// Name `id`, or `None` when `id` is not below [`len`](Self::len).
    pub fn get(&self, id: usize) -> Option<&'a str> {
        if id >= self.len {
            return None;
        }
        // Bounds on char boundaries, checked by `new`.
        self.text.get(self.offset(id)..self.offset(id + 1))
    }

    /// The id of `name` (binary search when sorted, else the first match).
    pub fn find(&self, name: &str) -> Option<usize> {
        if self.sorted {
            let (mut lo, mut hi) = (0, self.len);
            while lo < hi {
                let mid = lo + (hi - lo) / 2;
                match self.get(mid)?.cmp(name) {
                    std::cmp::Ordering::Less => lo = mid + 1,
                    std::cmp::Ordering::Greater => hi = mid,
                    std::cmp::Ordering::Equal => return Some(mid),
                }
            }
            None
        } else {
            (0..self.len).find(|&i| self.get(i) == Some(name))
        }
    }

    /// The names in id order.
    pub fn names(&self) -> impl Iterator<Item = &'a str> + '_ {
        (0..self.len).filter_map(|i| self.get(i))
    }
}

/// The names an encoder writes: sorted and unique, so the metadata is marked sorted and
/// objects list their fields in id order.
///
/// ```
/// use parquet_serde::__internals::variant::{Dictionary, Metadata};
/// let d = Dictionary::new(["b", "a", "b"]);
/// assert_eq!(d.id("b"), Some(1));
/// let bytes = d.to_bytes();
/// assert!(Metadata::new(&bytes)?.is_sorted());
/// # Ok::<(), parquet_serde::Error>(())
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Dictionary {
    names: Vec<String>,
}

impl Dictionary {
    /// The dictionary of `names` (duplicates dropped).
    pub fn new<S: Into<String>>(names: impl IntoIterator<Item = S>) -> Dictionary {
        let mut names: Vec<String> = names.into_iter().map(Into::into).collect();
        names.sort_unstable();
        names.dedup();
        Dictionary { names }
    }

    /// The id of `name`.
    #[inline]
    pub fn id(&self, name: &str) -> Option<usize> {
        self.names.binary_search_by(|n| n.as_str().cmp(name)).ok()
    }

    /// Number of names.
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// Whether there are no names.
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    /// The names in id order.
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// The metadata bytes: version 1, sorted, the narrowest offset size.
    pub fn to_bytes(&self) -> Vec<u8> {
        let total: usize = self.names.iter().map(String::len).sum();
        let size = uint_size(total.max(self.names.len()));
        let mut out = Vec::with_capacity(1 + size * (self.names.len() + 2) + total);
        out.push(VERSION | 0x10 | (((size - 1) as u8) << 6));
        write_uint(&mut out, self.names.len(), size);
        let mut off = 0;
        write_uint(&mut out, 0, size);
        for n in &self.names {
            off += n.len();
            write_uint(&mut out, off, size);
        }
        for n in &self.names {
            out.extend_from_slice(n.as_bytes());
        }
        out
    }
}

/// Bytes (1 to 4) an unsigned value up to `max` takes.
#[inline]
pub(crate) fn uint_size(max: usize) -> usize {
    match max {
        0..=0xff => 1,
        0x100..=0xffff => 2,
        0x1_0000..=0xff_ffff => 3,
        _ => 4,
    }
}

/// Appends the low `size` bytes of `v`, little-endian.
#[inline]
pub(crate) fn write_uint(out: &mut Vec<u8>, v: usize, size: usize) {
    // One fixed-size copy per width (a copy of a run-time length is a call to memcpy).
    let b = (v as u32).to_le_bytes();
    match size {
        1 => out.push(b[0]),
        2 => out.extend_from_slice(&[b[0], b[1]]),
        3 => out.extend_from_slice(&[b[0], b[1], b[2]]),
        _ => out.extend_from_slice(&b),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_offset_width_round_trips() {
        for n in [0usize, 1, 3, 300, 70_000] {
            let names: Vec<String> = (0..n).map(|i| format!("k{i:06}")).collect();
            let d = Dictionary::new(names.clone());
            let bytes = d.to_bytes();
            let m = Metadata::new(&bytes).unwrap();
            assert_eq!(m.len(), n);
            assert!(m.is_sorted());
            for (i, name) in d.names().iter().enumerate().step_by(97) {
                assert_eq!(m.get(i), Some(name.as_str()));
                assert_eq!(m.find(name), Some(i));
            }
            assert_eq!(m.find("zz"), None);
        }
    }

    #[test]
    fn unsorted_dictionaries_are_searched_in_order() {
        // 2-byte offsets, unsorted: "b", "a", "b".
        let bytes = [0x41, 3, 0, 0, 0, 1, 0, 2, 0, 3, 0, b'b', b'a', b'b'];
        let m = Metadata::new(&bytes).unwrap();
        assert!(!m.is_sorted());
        assert_eq!(m.find("b"), Some(0));
        assert_eq!(m.find("a"), Some(1));
        assert_eq!(m.names().collect::<Vec<_>>(), ["b", "a", "b"]);
    }

    #[test]
    fn hostile_metadata_is_refused() {
        let cases: &[&[u8]] = &[
            &[],
            &[0x02, 0, 0],                   // version 2
            &[0x31, 0, 0],                   // reserved bit
            &[0x01],                         // no size
            &[0xc1, 0xff, 0xff, 0xff, 0xff], // 4 billion names in 5 bytes
            &[0x01, 1, 0, 5, b'a'],          // string past the end
            &[0x01, 2, 0, 2, 1, b'a', b'b'], // offsets go back
            &[0x01, 1, 1, 1, b'a'],          // first offset not 0
            &[0x01, 1, 0, 1, 0xff],          // not UTF-8
            &[0x01, 2, 0, 1, 2, 0xc3, 0xa9], // "é" split across two names
            &[0x11, 2, 0, 1, 2, 0xc3, 0xa9], // the same, marked sorted
            &[0x11, 2, 0, 1, 2, b'b', b'a'], // "sorted" but not
            &[0x11, 2, 0, 1, 2, b'a', b'a'], // "sorted" but repeated
            &[0x01, 0, 0, 7],                // trailing byte
        ];
        for bytes in cases {
            assert!(Metadata::new(bytes).is_err(), "{bytes:?}");
        }
    }
}
