//! Glob patterns over paths (`logs/**/*.parquet`): `*` matches any run of characters
//! within a name, `?` one character, `[abc]`, `[a-z]` and `[!a]` one character of (or not
//! of) a set, and a `**` component any number of folders (none included). Components are
//! separated by `/`.

use std::path::{Path, PathBuf};

use crate::error::{Error, Result};

/// A compiled glob pattern: the folder the search starts in (the leading components
/// without wildcards) and the components matched below it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Glob {
    /// The leading literal components (`.` when none).
    pub base: PathBuf,
    /// The components below `base`, each `**` or a name pattern.
    parts: Vec<String>,
}

/// Whether `s` holds a wildcard character.
pub(crate) fn is_pattern(s: &str) -> bool {
    s.contains(['*', '?', '['])
}

impl Glob {
    /// Compiles `pattern`. Fails on an unclosed `[` or a pattern without a wildcard.
    pub fn new(pattern: &str) -> Result<Glob> {
        let bad = |why: &str| Error::invalid_argument(format!("glob pattern {pattern:?}: {why}"));
        let mut base = PathBuf::new();
        if pattern.starts_with('/') {
            base.push("/");
        }
        let mut parts = Vec::new();
        for comp in pattern.split('/').filter(|c| !c.is_empty()) {
            if parts.is_empty() && !is_pattern(comp) {
                base.push(comp);
                continue;
            }
            if comp != "**" {
                if comp.contains("**") {
                    return Err(bad("`**` must be a whole path component"));
                }
                check_sets(comp).map_err(|w| bad(&w))?;
            }
            parts.push(comp.to_string());
        }
        if parts.is_empty() {
            return Err(bad("no wildcard (`*`, `?`, `[`)"));
        }
        if base.as_os_str().is_empty() {
            base.push(".");
        }
        Ok(Glob { base, parts })
    }

    /// Whether a file at `rel` (relative to [`base`](Self::base), `/`-separated
    /// components) matches.
    pub fn matches(&self, rel: &[&str]) -> bool {
        match_parts(&self.parts, rel)
    }

    /// Whether a folder at `rel` may hold matching files (so the search goes into it).
    pub fn may_descend(&self, rel: &[&str]) -> bool {
        prefix_may_match(&self.parts, rel)
    }
}

/// Checks that every `[` set is closed.
fn check_sets(comp: &str) -> std::result::Result<(), String> {
    let c: Vec<char> = comp.chars().collect();
    let mut i = 0;
    while i < c.len() {
        if c[i] == '[' {
            match set_end(&c, i) {
                Some(end) => i = end,
                None => return Err(format!("unclosed `[` in {comp:?}")),
            }
        }
        i += 1;
    }
    Ok(())
}

/// The index of the `]` closing the set opened at `open` (a `]` first in the set, after
/// an optional `!`, is a member).
fn set_end(c: &[char], open: usize) -> Option<usize> {
    let mut i = open + 1;
    if c.get(i) == Some(&'!') {
        i += 1;
    }
    if c.get(i) == Some(&']') {
        i += 1;
    }
    while i < c.len() {
        if c[i] == ']' {
            return Some(i);
        }
        i += 1;
    }
    None
}

fn match_parts(parts: &[String], rel: &[&str]) -> bool {
    match parts.split_first() {
        None => rel.is_empty(),
        Some((p, rest)) if p == "**" => (0..=rel.len()).any(|k| match_parts(rest, &rel[k..])),
        Some((p, rest)) => match rel.split_first() {
            Some((name, more)) => match_name(p, name) && match_parts(rest, more),
            None => false,
        },
    }
}

/// Whether a folder at `rel` is a prefix of some path the parts match.
fn prefix_may_match(parts: &[String], rel: &[&str]) -> bool {
    match (parts.split_first(), rel.split_first()) {
        (_, None) => !parts.is_empty(),
        (None, Some(_)) => false,
        (Some((p, _)), Some(_)) if p == "**" => true,
        (Some((p, rest)), Some((name, more))) => {
            match_name(p, name) && prefix_may_match(rest, more)
        }
    }
}

/// Whether `name` matches the name pattern `pat`.
pub(crate) fn match_name(pat: &str, name: &str) -> bool {
    let p: Vec<char> = pat.chars().collect();
    let n: Vec<char> = name.chars().collect();
    // Iterative matching with one backtrack point for the last `*`: linear in practice,
    // quadratic at worst, never exponential.
    let (mut pi, mut ni) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while ni < n.len() {
        if pi < p.len() {
            match p[pi] {
                '*' => {
                    star = Some((pi, ni));
                    pi += 1;
                    continue;
                }
                '?' => {
                    pi += 1;
                    ni += 1;
                    continue;
                }
                '[' => {
                    if let Some(end) = set_end(&p, pi) {
                        if in_set(&p[pi + 1..end], n[ni]) {
                            pi = end + 1;
                            ni += 1;
                            continue;
                        }
                    } else if n[ni] == '[' {
                        pi += 1;
                        ni += 1;
                        continue;
                    }
                }
                c if c == n[ni] => {
                    pi += 1;
                    ni += 1;
                    continue;
                }
                _ => {}
            }
        }
        match star {
            Some((sp, sn)) => {
                pi = sp + 1;
                ni = sn + 1;
                star = Some((sp, sn + 1));
            }
            None => return false,
        }
    }
    p[pi..].iter().all(|&c| c == '*')
}

/// Whether `c` is in the set body `set` (between `[` and `]`).
fn in_set(set: &[char], c: char) -> bool {
    let (negated, set) = match set.split_first() {
        Some(('!', rest)) => (true, rest),
        _ => (false, set),
    };
    let mut i = 0;
    let mut found = false;
    while i < set.len() {
        if i + 2 < set.len() && set[i + 1] == '-' {
            found |= set[i] <= c && c <= set[i + 2];
            i += 3;
        } else {
            found |= set[i] == c;
            i += 1;
        }
    }
    found != negated
}

/// The components of `path` below `base`, as text (`None` when a component is not UTF-8
/// or `path` is not below `base`).
pub(crate) fn components_below<'p>(base: &Path, path: &'p Path) -> Option<Vec<&'p str>> {
    let rel = path.strip_prefix(base).ok()?;
    rel.components().map(|c| c.as_os_str().to_str()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        assert!(match_name("*.parquet", "part-1.parquet"));
        assert!(!match_name("*.parquet", "part-1.parquet.tmp"));
        assert!(match_name("part-?.parquet", "part-1.parquet"));
        assert!(!match_name("part-?.parquet", "part-12.parquet"));
        assert!(match_name("hour=[0-1][0-9]", "hour=13"));
        assert!(!match_name("hour=[0-1][0-9]", "hour=23"));
        assert!(match_name("[!_]*", "a"));
        assert!(!match_name("[!_]*", "_a"));
        assert!(match_name("*", ""));
        assert!(match_name("a*b*c", "aXXbYYc"));
        assert!(!match_name("a*b*c", "aXXbYY"));
        assert!(match_name("[]]", "]"));
        // Many stars stay fast.
        let long = "a".repeat(200);
        assert!(!match_name("*a*a*a*a*a*a*a*b", &long));
    }

    #[test]
    fn paths() {
        let g = Glob::new("logs/**/*.parquet").unwrap();
        assert_eq!(g.base, PathBuf::from("logs"));
        assert!(g.matches(&["a.parquet"]));
        assert!(g.matches(&["date=1", "hour=2", "a.parquet"]));
        assert!(!g.matches(&["date=1", "a.json"]));
        assert!(g.may_descend(&["date=1", "hour=2"]));
        let g = Glob::new("/d/date=*/hour=1?/*.parquet").unwrap();
        assert_eq!(g.base, PathBuf::from("/d"));
        assert!(g.matches(&["date=x", "hour=13", "p.parquet"]));
        assert!(!g.matches(&["date=x", "hour=03", "p.parquet"]));
        assert!(g.may_descend(&["date=x"]));
        assert!(!g.may_descend(&["other"]));
        assert!(!g.may_descend(&["date=x", "hour=03"]));
        assert_eq!(Glob::new("*.parquet").unwrap().base, PathBuf::from("."));
    }

    #[test]
    fn bad_patterns() {
        let e = Glob::new("logs/[a-").unwrap_err();
        assert!(e.message().contains("unclosed"), "{e}");
        assert!(Glob::new("logs/a**").is_err());
        assert!(Glob::new("logs/plain.parquet").is_err());
    }
}
