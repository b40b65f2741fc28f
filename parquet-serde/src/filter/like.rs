//! SQL's LIKE: `%` matches any run of characters (none too), `_` exactly one character,
//! every other character itself. Text that is not UTF-8 is matched byte by byte.

/// Whether `value` matches `pattern`.
pub(crate) fn like(value: &[u8], pattern: &str) -> bool {
    match std::str::from_utf8(value) {
        Ok(v) => {
            let v: Vec<char> = v.chars().collect();
            let p: Vec<char> = pattern.chars().collect();
            matches(&v, &p, '%', '_')
        }
        Err(_) => matches(value, pattern.as_bytes(), b'%', b'_'),
    }
}

/// Iterative wildcard matching with backtracking to the last `%` only: linear in the
/// pattern per position, no recursion (no stack growth on hostile patterns).
fn matches<T: PartialEq + Copy>(v: &[T], p: &[T], any: T, one: T) -> bool {
    let (mut i, mut j) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while i < v.len() {
        if j < p.len() && p[j] == any {
            star = Some((j, i));
            j += 1;
        } else if j < p.len() && (p[j] == one || p[j] == v[i]) {
            i += 1;
            j += 1;
        } else if let Some((sj, si)) = star {
            j = sj + 1;
            i = si + 1;
            star = Some((sj, si + 1));
        } else {
            return false;
        }
    }
    p[j..].iter().all(|&c| c == any)
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
}
