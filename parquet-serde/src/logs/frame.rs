//! The journal's framing: `[length u32][crc32 u32][kind u8][payload]`, little endian, where
//! the length counts the kind byte and the payload and the CRC covers both. A reader stops
//! at the first frame that is short, too long or fails its CRC: the torn tail a crash
//! leaves behind.

use crate::error::{Error, Result};

/// Bytes before a frame's kind byte.
const HEAD: usize = 8;
/// The largest frame accepted (a journal holds at most one row group of rows per frame).
pub(crate) const MAX_FRAME: usize = 1 << 30;

/// Appends one frame holding `kind` and `payload` to `out`.
pub(crate) fn put(kind: u8, payload: &[u8], out: &mut Vec<u8>) -> Result<()> {
    let len = payload
        .len()
        .checked_add(1)
        .filter(|&n| n <= MAX_FRAME)
        .ok_or_else(|| {
            Error::invalid_argument(format!(
                "journal record of {} bytes is larger than the {MAX_FRAME} allowed",
                payload.len()
            ))
        })?;
    let mut crc = crc32fast::Hasher::new();
    crc.update(&[kind]);
    crc.update(payload);
    out.reserve(HEAD + len);
    out.extend_from_slice(&(len as u32).to_le_bytes());
    out.extend_from_slice(&crc.finalize().to_le_bytes());
    out.push(kind);
    out.extend_from_slice(payload);
    Ok(())
}

/// One frame read back: its kind, payload and where it starts in the journal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Frame<'a> {
    /// The record kind.
    pub kind: u8,
    /// The record's bytes.
    pub payload: &'a [u8],
    /// Byte offset of the frame in the journal.
    pub offset: usize,
}

/// The whole frames at the start of `bytes`, in order, and the offset where the valid
/// frames end (the rest is a torn or corrupt tail).
pub(crate) fn frames(bytes: &[u8]) -> (Vec<Frame<'_>>, usize) {
    let mut out = Vec::new();
    let mut at = 0usize;
    while let Some(head) = bytes.get(at..at + HEAD) {
        let len = u32::from_le_bytes([head[0], head[1], head[2], head[3]]) as usize;
        let crc = u32::from_le_bytes([head[4], head[5], head[6], head[7]]);
        if len == 0 || len > MAX_FRAME {
            break;
        }
        let Some(body) = bytes.get(at + HEAD..at + HEAD + len) else {
            break;
        };
        if crc32fast::hash(body) != crc {
            break;
        }
        out.push(Frame {
            kind: body[0],
            payload: &body[1..],
            offset: at,
        });
        at += HEAD + len;
    }
    (out, at)
}

/// Reads little-endian fields from a payload; every read is checked against its end.
#[derive(Debug)]
pub(crate) struct Cursor<'a> {
    bytes: &'a [u8],
    at: usize,
    what: &'static str,
}

impl<'a> Cursor<'a> {
    /// A cursor over `bytes`, named `what` in errors.
    pub fn new(bytes: &'a [u8], what: &'static str) -> Self {
        Cursor { bytes, at: 0, what }
    }

    /// The next `n` bytes.
    pub fn take(&mut self, n: usize) -> Result<&'a [u8]> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.bytes.len());
        let Some(end) = end else {
            return Err(Error::corrupt(format!(
                "{}: {n} bytes wanted at byte {} of {}",
                self.what,
                self.at,
                self.bytes.len()
            ))
            .with_offset(self.at as u64));
        };
        let out = &self.bytes[self.at..end];
        self.at = end;
        Ok(out)
    }

    /// A `u8`.
    pub fn u8(&mut self) -> Result<u8> {
        Ok(self.take(1)?[0])
    }

    /// A `u32`.
    pub fn u32(&mut self) -> Result<u32> {
        let b = self.take(4)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    /// A `u64`.
    pub fn u64(&mut self) -> Result<u64> {
        let b = self.take(8)?;
        let mut a = [0u8; 8];
        a.copy_from_slice(b);
        Ok(u64::from_le_bytes(a))
    }

    /// A `u32` length followed by that many bytes.
    pub fn bytes(&mut self) -> Result<&'a [u8]> {
        let n = self.u32()? as usize;
        self.take(n)
    }

    /// A `u32` length followed by that many bytes of UTF-8.
    pub fn str(&mut self) -> Result<&'a str> {
        let at = self.at;
        std::str::from_utf8(self.bytes()?).map_err(|e| {
            Error::corrupt(format!("{}: text at byte {at} is not UTF-8", self.what)).with_source(e)
        })
    }

    /// The bytes not read yet.
    pub fn rest(&mut self) -> &'a [u8] {
        let out = &self.bytes[self.at..];
        self.at = self.bytes.len();
        out
    }

    /// Whether every byte was read.
    pub fn is_done(&self) -> bool {
        self.at == self.bytes.len()
    }
}

/// Appends a `u32` length and `bytes`; fails past 4 GiB.
pub(crate) fn put_bytes(bytes: &[u8], out: &mut Vec<u8>) -> Result<()> {
    let n = u32::try_from(bytes.len())
        .map_err(|_| Error::invalid_argument("journal field larger than 4 GiB"))?;
    out.extend_from_slice(&n.to_le_bytes());
    out.extend_from_slice(bytes);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_round_trip_and_stop_at_a_torn_or_corrupt_tail() {
        let mut j = Vec::new();
        put(1, b"hello", &mut j).unwrap();
        put(2, b"", &mut j).unwrap();
        let whole = j.len();
        put(3, b"world", &mut j).unwrap();
        let (f, end) = frames(&j);
        assert_eq!(f.len(), 3);
        assert_eq!((f[0].kind, f[0].payload), (1, &b"hello"[..]));
        assert_eq!((f[1].kind, f[1].payload, f[1].offset), (2, &b""[..], 14));
        assert_eq!(end, j.len());
        // Every truncation keeps exactly the whole frames before the cut.
        for cut in 0..j.len() {
            let (f, end) = frames(&j[..cut]);
            assert!(end <= cut);
            let ends = [14, whole, j.len()];
            assert_eq!(
                f.len(),
                ends.iter().filter(|&&e| e <= cut).count(),
                "cut {cut}"
            );
        }
        // A flipped byte in the last frame drops it only.
        let mut bad = j.clone();
        let last = bad.len() - 1;
        bad[last] ^= 1;
        let (f, end) = frames(&bad);
        assert_eq!((f.len(), end), (2, whole));
        // A huge length is a tail, not an allocation.
        let mut huge = j[..whole].to_vec();
        huge.extend_from_slice(&u32::MAX.to_le_bytes());
        huge.extend_from_slice(&[0; 8]);
        assert_eq!(frames(&huge).0.len(), 2);
    }

    #[test]
    fn cursor_checks_every_read() {
        let mut payload = Vec::new();
        put_bytes(b"abc", &mut payload).unwrap();
        payload.extend_from_slice(&7u64.to_le_bytes());
        let mut c = Cursor::new(&payload, "test");
        assert_eq!(c.str().unwrap(), "abc");
        assert_eq!(c.u64().unwrap(), 7);
        assert!(c.is_done());
        assert!(c.u8().is_err());
        let mut c = Cursor::new(&[255, 255, 255, 255, 1], "test");
        assert!(c.bytes().is_err());
    }
}
