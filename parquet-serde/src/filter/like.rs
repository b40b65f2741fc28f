//! SQL's LIKE: `%` matches any run of characters (none too), `_` exactly one character,
//! every other character itself. Text that is not UTF-8 is matched byte by byte.

/// Whether `value` matches `pattern`. On UTF-8 text `_` takes one character, on other bytes
/// one byte; everything else compares byte by byte, which on UTF-8 is character by character.
/// No allocation: this runs once per row.
pub(crate) fn like(value: &[u8], pattern: &str) -> bool {
    if std::str::from_utf8(value).is_ok() {
        matches(value, pattern.as_bytes(), utf8_len)
    } else {
        matches(value, pattern.as_bytes(), |_| 1)
    }
}

/// The length of the UTF-8 character that starts with `lead`.
fn utf8_len(lead: u8) -> usize {
    match lead {
        0..=0x7f => 1,
        0xc0..=0xdf => 2,
        0xe0..=0xef => 3,
        _ => 4,
    }
}

/// Iterative wildcard matching with backtracking to the last `%` only: linear in the
/// pattern per position, no recursion (no stack growth on hostile patterns). `step` gives
/// the length of the unit (character or byte) `_` takes, from its first byte; a `%` retried
/// one unit later also moves by it, so positions stay on character boundaries.
fn matches(v: &[u8], p: &[u8], step: impl Fn(u8) -> usize) -> bool {
    let (mut i, mut j) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while i < v.len() {
        if j < p.len() && p[j] == b'%' {
            star = Some((j, i));
            j += 1;
        } else if j < p.len() && p[j] == b'_' {
            i += step(v[i]);
            j += 1;
        } else if j < p.len() && p[j] == v[i] {
            i += 1;
            j += 1;
        } else if let Some((sj, si)) = star {
            let next = si + step(v[si]);
            j = sj + 1;
            i = next;
            star = Some((sj, next));
        } else {
            return false;
        }
    }
    p[j..].iter().all(|&c| c == b'%')
}

/// The text every match starts with (the pattern before its first wildcard), for pruning
/// by min/max.
pub(crate) fn prefix(pattern: &str) -> &str {
    let end = pattern.find(['%', '_']).unwrap_or(pattern.len());
    &pattern[..end]
}

/// Whether the pattern has no wildcard (LIKE is then equality).
pub(crate) fn is_exact(pattern: &str) -> bool {
    prefix(pattern).len() == pattern.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wildcards() {
        assert!(like(b"abc", "a%"));
        assert!(like(b"abc", "%c"));
        assert!(like(b"abc", "a_c"));
        assert!(!like(b"abc", "a_"));
        assert!(like(b"", "%"));
        assert!(!like(b"", "_"));
        assert!(like(b"a%c", "a%%c"));
        assert!(!like(b"ABC", "a%"));
        // No escape character: the backslash is itself.
        assert!(!like(b"a_c", "a\\_c"));
        assert!(like(b"a\\xc", "a\\_c"));
        assert!(like("é!".as_bytes(), "_!"));
        assert!(like(b"mississippi", "%iss%ppi"));
        assert!(!like(b"mississippi", "%iss%ppx"));
        assert!(like(&[0xff, b'x'], "_x"));
        // Linear enough for long hostile input.
        let long = "a".repeat(10_000);
        assert!(!like(long.as_bytes(), &format!("{}b", "%a".repeat(50))));
        assert_eq!(prefix("ab%c_"), "ab");
        assert!(is_exact("abc"));
        assert!(!is_exact("a_c"));
    }

    /// The matcher over characters, as a reference for the byte matcher.
    fn reference(v: &str, p: &str) -> bool {
        let (v, p): (Vec<char>, Vec<char>) = (v.chars().collect(), p.chars().collect());
        fn go(v: &[char], p: &[char]) -> bool {
            match p.split_first() {
                None => v.is_empty(),
                Some(('%', rest)) => (0..=v.len()).any(|k| go(&v[k..], rest)),
                Some((&c, rest)) => !v.is_empty() && (c == '_' || c == v[0]) && go(&v[1..], rest),
            }
        }
        go(&v, &p)
    }

    #[test]
    fn bytes_match_as_characters() {
        // Every value and pattern of up to 4 units over an alphabet of 1- to 4-byte
        // characters and the wildcards, against the character-by-character reference.
        let chars = ['a', 'é', '€', '😀'];
        let units = ['a', 'é', '€', '😀', '%', '_'];
        let strings = |alphabet: &[char], n: usize| {
            let mut all = vec![String::new()];
            let mut last = vec![String::new()];
            for _ in 0..n {
                last = last
                    .iter()
                    .flat_map(|s| alphabet.iter().map(move |c| format!("{s}{c}")))
                    .collect();
                all.extend(last.iter().cloned());
            }
            all
        };
        let (values, patterns) = (strings(&chars, 4), strings(&units, 4));
        let mut checked = 0;
        for v in &values {
            for p in &patterns {
                assert_eq!(like(v.as_bytes(), p), reference(v, p), "{v:?} like {p:?}");
                checked += 1;
            }
        }
        assert_eq!(checked, 341 * 1555);
    }
}
