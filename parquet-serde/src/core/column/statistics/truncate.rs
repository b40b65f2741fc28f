//! Shortening long byte-string bounds: a lower bound is cut to a prefix, an upper bound to
//! a prefix whose last byte (or character, for UTF-8) is incremented.

/// A shorter lower bound of `value` of at most `limit` bytes, or `None` when `value` is
/// not longer than `limit`. For UTF-8 text the cut falls on a character boundary, so the
/// bound stays valid UTF-8.
pub fn truncate_min(value: &[u8], limit: usize, utf8: bool) -> Option<Vec<u8>> {
    if value.len() <= limit {
        return None;
    }
    let cut = match std::str::from_utf8(value) {
        Ok(s) if utf8 => floor_boundary(s, limit),
        _ => limit,
    };
    Some(value[..cut].to_vec())
}

/// A shorter upper bound of `value` of at most `limit` bytes, or `None` when `value` is
/// not longer than `limit` or no shorter bound exists (a prefix of only 0xFF bytes, or of
/// only U+10FFFF characters).
pub fn truncate_max(value: &[u8], limit: usize, utf8: bool) -> Option<Vec<u8>> {
    if value.len() <= limit {
        return None;
    }
    match std::str::from_utf8(value) {
        Ok(s) if utf8 => {
            let mut prefix: Vec<char> = s[..floor_boundary(s, limit)].chars().collect();
            while let Some(c) = prefix.pop() {
                if let Some(next) = next_char(c) {
                    prefix.push(next);
                    let out: String = prefix.into_iter().collect();
                    // The incremented character may be longer in UTF-8: keep within limit.
                    return (out.len() <= limit).then(|| out.into_bytes());
                }
            }
            None
        }
        _ => {
            let mut prefix = value[..limit].to_vec();
            while let Some(last) = prefix.pop() {
                if last != 0xff {
                    prefix.push(last + 1);
                    return Some(prefix);
                }
            }
            None
        }
    }
}

/// A lower bound of the FIXED_LEN_BYTE_ARRAY `value` of the same width, keeping only its
/// first `limit` bytes (the rest zeros), or `None` when that is `value` itself (not longer
/// than `limit`, or already ending in zeros). A fixed-width bound must keep the type's
/// width, so truncating it means rounding it down.
pub fn round_min_fixed(value: &[u8], limit: usize) -> Option<Vec<u8>> {
    round_fixed(value, limit, 0x00)
}

/// An upper bound of the FIXED_LEN_BYTE_ARRAY `value` of the same width, keeping only its
/// first `limit` bytes (the rest 0xFF), or `None` when that is `value` itself.
pub fn round_max_fixed(value: &[u8], limit: usize) -> Option<Vec<u8>> {
    round_fixed(value, limit, 0xff)
}

fn round_fixed(value: &[u8], limit: usize, fill: u8) -> Option<Vec<u8>> {
    let tail = value.get(limit..)?;
    if tail.iter().all(|&b| b == fill) {
        return None;
    }
    let mut out = value.to_vec();
    out[limit..].fill(fill);
    Some(out)
}

fn floor_boundary(s: &str, limit: usize) -> usize {
    let mut i = limit.min(s.len());
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// The next Unicode scalar value after `c` (skipping surrogates).
fn next_char(c: char) -> Option<char> {
    let n = c as u32 + 1;
    let n = if (0xd800..0xe000).contains(&n) {
        0xe000
    } else {
        n
    };
    char::from_u32(n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_values_stay() {
        assert_eq!(truncate_min(b"abc", 3, false), None);
        assert_eq!(truncate_max(b"abc", 3, true), None);
    }

    #[test]
    fn binary_bounds() {
        assert_eq!(truncate_min(b"abcdef", 3, false), Some(b"abc".to_vec()));
        assert_eq!(truncate_max(b"abcdef", 3, false), Some(b"abd".to_vec()));
        assert_eq!(truncate_max(&[1, 0xff, 0xff, 7], 3, false), Some(vec![2]));
        assert_eq!(truncate_max(&[0xff, 0xff, 0xff, 7], 3, false), None);
    }

    #[test]
    fn utf8_bounds_stay_utf8() {
        // "é" is 2 bytes: a cut at 2 would split it.
        let v = "aébc".as_bytes();
        assert_eq!(truncate_min(v, 2, true), Some(b"a".to_vec()));
        assert_eq!(truncate_max(v, 2, true), Some(b"b".to_vec()));
        assert_eq!(truncate_max(v, 3, true), Some("aê".as_bytes().to_vec()));
        // Incrementing U+D7FF skips the surrogates.
        let s = "\u{d7ff}\u{d7ff}";
        assert_eq!(
            truncate_max(s.as_bytes(), 3, true),
            Some("\u{e000}".as_bytes().to_vec())
        );
        // U+10FFFF cannot be incremented: fall back to the previous character.
        let s = "a\u{10ffff}b";
        assert_eq!(truncate_max(s.as_bytes(), 5, true), Some(b"b".to_vec()));
        // Not UTF-8 after all: byte rules.
        assert_eq!(
            truncate_max(&[0xc3, 0x28, 0x41], 2, true),
            Some(vec![0xc3, 0x29])
        );
    }

    #[test]
    fn fixed_width_bounds_are_rounded_not_cut() {
        let v = [7u8, 1, 2, 3, 4, 5];
        assert_eq!(round_min_fixed(&v, 2), Some(vec![7, 1, 0, 0, 0, 0]));
        assert_eq!(
            round_max_fixed(&v, 2),
            Some(vec![7, 1, 0xff, 0xff, 0xff, 0xff])
        );
        assert_eq!(round_min_fixed(&v, 6), None);
        assert_eq!(round_min_fixed(&v, 9), None);
        assert_eq!(round_min_fixed(&[1, 0, 0], 1), None);
        assert_eq!(round_max_fixed(&[1, 0xff, 0xff], 1), None);
        for limit in 0..v.len() {
            let lo = round_min_fixed(&v, limit).unwrap();
            let hi = round_max_fixed(&v, limit).unwrap();
            assert!(lo.len() == v.len() && lo.as_slice() < &v[..]);
            assert!(hi.len() == v.len() && hi.as_slice() > &v[..]);
        }
    }

    #[test]
    fn bounds_hold() {
        let values: Vec<&[u8]> = vec![
            b"hello world",
            &[0xfe, 0xff, 0x10],
            "日本語テキスト".as_bytes(),
        ];
        for v in values {
            for limit in 1..v.len() {
                for utf8 in [false, true] {
                    if let Some(lo) = truncate_min(v, limit, utf8) {
                        assert!(lo.as_slice() <= v && lo.len() <= limit);
                    }
                    if let Some(hi) = truncate_max(v, limit, utf8) {
                        assert!(hi.as_slice() > v && hi.len() <= limit, "{v:?} {limit}");
                    }
                }
            }
        }
    }
}
