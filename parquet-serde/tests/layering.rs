//! The layering test: every import inside `parquet-serde/src` points down the layer table of
//! `ARCHITECTURE.md` (or sideways where the table allows it), and threads start only in the
//! modules the table names.
//!
//! It reads the crate's sources only (no build artefacts). Each file is mapped to its module
//! (`src/core/file/footer.rs` is `core::file::footer`), each module to the longest entry of
//! the table that is a prefix of it (`core::file`), and each entry to its level. An edge is
//! every `crate::` path (in `use` trees, expressions, types and macro bodies, `$crate::`
//! included), every `super::` path that leaves the entry, and every path through a name the
//! crate root re-exports (`crate::Error` is `error::Error`). Comments, string literals and
//! test code (`#[cfg(test)]` items and the files they declare) are left out: tests may
//! build their inputs with any layer.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::path::Path;

/// The layer table: the fenced block of ARCHITECTURE.md whose info string is `layers`.
#[derive(Debug, Default)]
struct Table {
    /// Entry (a module path such as `core::file`) -> level.
    level: BTreeMap<String, u32>,
    /// Same-level edges the table allows (from, to).
    sideways: BTreeSet<(String, String)>,
    /// Entries where threads may start.
    threads: BTreeSet<String>,
}

impl Table {
    /// Parses the block: `N: a b c` lines (level N holds entries a, b, c), `a -> b` lines
    /// (an allowed same-level edge), a `threads: a b` line; `#` starts a comment.
    fn parse(block: &str) -> Result<Table, String> {
        let mut table = Table::default();
        for (i, raw) in block.lines().enumerate() {
            let line = raw.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let at = |what: &str| format!("layer table line {}: {what}: {raw:?}", i + 1);
            if let Some((from, to)) = line.split_once("->") {
                let (from, to) = (from.trim().to_string(), to.trim().to_string());
                for m in [&from, &to] {
                    if !table.level.contains_key(m) {
                        return Err(at(&format!("{m} has no level (levels come first)")));
                    }
                }
                if table.level[&from] != table.level[&to] {
                    return Err(at("a sideways edge joins two entries of one level"));
                }
                table.sideways.insert((from, to));
            } else if let Some((head, rest)) = line.split_once(':') {
                let names = rest.split_whitespace().map(str::to_string);
                if head.trim() == "threads" {
                    table.threads.extend(names);
                } else {
                    let n: u32 = head.trim().parse().map_err(|_| at("not a level number"))?;
                    for name in names {
                        if table.level.insert(name.clone(), n).is_some() {
                            return Err(at(&format!("{name} is listed twice")));
                        }
                    }
                }
            } else {
                return Err(at("neither `N: modules`, `a -> b` nor `threads: modules`"));
            }
        }
        for t in &table.threads {
            if !table.level.contains_key(t) {
                return Err(format!("layer table: thread entry {t} has no level"));
            }
        }
        if let Some(cycle) = table.sideways_cycle() {
            return Err(format!(
                "layer table: the sideways edges form a cycle: {cycle}"
            ));
        }
        Ok(table)
    }

    /// The block of `ARCHITECTURE.md`.
    fn from_markdown(text: &str) -> Result<Table, String> {
        let start = text
            .find("```layers\n")
            .ok_or("ARCHITECTURE.md has no ```layers block")?;
        let body = &text[start + "```layers\n".len()..];
        let end = body
            .find("```")
            .ok_or("the ```layers block is not closed")?;
        Table::parse(&body[..end])
    }

    /// A cycle among the allowed sideways edges, if any (written `a -> b -> a`).
    fn sideways_cycle(&self) -> Option<String> {
        fn visit<'a>(
            n: &'a str,
            edges: &'a BTreeSet<(String, String)>,
            path: &mut Vec<&'a str>,
            done: &mut BTreeSet<&'a str>,
        ) -> Option<String> {
            if let Some(i) = path.iter().position(|p| *p == n) {
                let mut cycle = path[i..].to_vec();
                cycle.push(n);
                return Some(cycle.join(" -> "));
            }
            if !done.insert(n) {
                return None;
            }
            path.push(n);
            for (from, to) in edges {
                if from == n {
                    if let Some(c) = visit(to, edges, path, done) {
                        return Some(c);
                    }
                }
            }
            path.pop();
            None
        }
        let mut done = BTreeSet::new();
        for (from, _) in &self.sideways {
            if let Some(c) = visit(from, &self.sideways, &mut Vec::new(), &mut done) {
                return Some(c);
            }
            done.clear();
        }
        None
    }

    /// The entry a module path (or an item path) belongs to: the longest entry that is a
    /// prefix of it, or the crate root (`crate`) for the root's own modules when listed.
    fn entry_of(&self, path: &[String]) -> Option<String> {
        (1..=path.len())
            .rev()
            .map(|n| path[..n].join("::"))
            .find(|p| self.level.contains_key(p))
            .or_else(|| path.is_empty().then(|| "crate".to_string()))
            .filter(|p| self.level.contains_key(p))
    }
}

/// A token of Rust source: an identifier (or keyword), `::`, or one punctuation character.
#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Ident(String),
    PathSep,
    Punct(char),
}

/// Splits Rust source into tokens with their 1-based lines, leaving out comments, string,
/// byte-string and character literals, and numbers. Lifetimes become an identifier.
fn lex(src: &str) -> Vec<(Tok, usize)> {
    let b: Vec<char> = src.chars().collect();
    let (mut i, mut line, mut out) = (0, 1, Vec::new());
    let count_lines = |from: usize, to: usize, b: &[char]| -> usize {
        b[from..to.min(b.len())]
            .iter()
            .filter(|c| **c == '\n')
            .count()
    };
    while i < b.len() {
        let c = b[i];
        if c == '\n' {
            line += 1;
            i += 1;
        } else if c.is_whitespace() {
            i += 1;
        } else if c == '/' && b.get(i + 1) == Some(&'/') {
            while i < b.len() && b[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && b.get(i + 1) == Some(&'*') {
            let (start, mut depth) = (i, 0usize);
            while i < b.len() {
                if b[i] == '/' && b.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if b[i] == '*' && b.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
            line += count_lines(start, i, &b);
        } else if let Some(end) = raw_string_end(&b, i) {
            line += count_lines(i, end, &b);
            i = end;
        } else if c == '"' || (c == 'b' && b.get(i + 1) == Some(&'"')) {
            let start = i;
            i += if c == 'b' { 2 } else { 1 };
            while i < b.len() && b[i] != '"' {
                i += if b[i] == '\\' { 2 } else { 1 };
            }
            i += 1;
            line += count_lines(start, i, &b);
        } else if c == '\'' || (c == 'b' && b.get(i + 1) == Some(&'\'')) {
            let q = if c == 'b' { i + 1 } else { i };
            if b.get(q + 1) == Some(&'\\') {
                // An escaped character literal: up to the closing quote.
                i = q + 2;
                while i < b.len() && b[i] != '\'' {
                    i += 1;
                }
                i += 1;
            } else if b.get(q + 2) == Some(&'\'') {
                i = q + 3;
            } else {
                // A lifetime or a loop label: its name is an identifier.
                i = q + 1;
            }
        } else if c.is_alphabetic() || c == '_' {
            let start = i;
            while i < b.len() && (b[i].is_alphanumeric() || b[i] == '_') {
                i += 1;
            }
            let word: String = b[start..i].iter().collect();
            let word = word.strip_prefix("r#").map(str::to_string).unwrap_or(word);
            out.push((Tok::Ident(word), line));
        } else if c.is_ascii_digit() {
            while i < b.len() && (b[i].is_alphanumeric() || b[i] == '_' || b[i] == '.') {
                if b[i] == '.' && b.get(i + 1) == Some(&'.') {
                    break;
                }
                i += 1;
            }
        } else if c == ':' && b.get(i + 1) == Some(&':') {
            out.push((Tok::PathSep, line));
            i += 2;
        } else {
            out.push((Tok::Punct(c), line));
            i += 1;
        }
    }
    out
}

/// The end (exclusive) of a raw string literal (`r"..."`, `r#"..."#`, `br"..."`) at `i`.
fn raw_string_end(b: &[char], i: usize) -> Option<usize> {
    let mut j = i;
    if b.get(j) == Some(&'b') {
        j += 1;
    }
    if b.get(j) != Some(&'r') || (i > 0 && (b[i - 1].is_alphanumeric() || b[i - 1] == '_')) {
        return None;
    }
    j += 1;
    let hashes = b[j..].iter().take_while(|c| **c == '#').count();
    j += hashes;
    if b.get(j) != Some(&'"') {
        return None;
    }
    j += 1;
    while j < b.len() {
        if b[j] == '"'
            && b[j + 1..]
                .iter()
                .take(hashes)
                .filter(|c| **c == '#')
                .count()
                == hashes
        {
            return Some(j + 1 + hashes);
        }
        j += 1;
    }
    Some(b.len())
}

/// One path a file names, with where: the module it is written in and the path it names,
/// both from the crate root.
#[derive(Debug)]
struct Reference {
    line: usize,
    from: Vec<String>,
    to: Vec<String>,
}

/// What one file holds for the test.
#[derive(Debug, Default)]
struct Scan {
    references: Vec<Reference>,
    /// Lines that start a thread.
    threads: Vec<(usize, String)>,
    /// Child modules declared `#[cfg(test)] mod x;` (their files are test code).
    test_children: Vec<String>,
    /// Names the file brings in with `use` at its top level (any visibility): name, path
    /// (from the root, or as written when relative) and whether it was relative.
    aliases: Vec<(String, Vec<String>, bool)>,
    /// Modules declared inline (`mod x { .. }`), from the root.
    inline_modules: Vec<Vec<String>>,
}

fn ident(t: Option<&(Tok, usize)>) -> Option<&str> {
    match t {
        Some((Tok::Ident(s), _)) => Some(s),
        _ => None,
    }
}

fn is(t: Option<&(Tok, usize)>, c: char) -> bool {
    matches!(t, Some((Tok::Punct(p), _)) if *p == c)
}

/// Parses a `use` tree from `toks[i]` (after `prefix`), pushing every leaf path with its
/// line; returns the index after the tree.
fn use_tree(
    toks: &[(Tok, usize)],
    mut i: usize,
    prefix: &mut Vec<String>,
    out: &mut Vec<(Vec<String>, usize, String)>,
) -> usize {
    let depth = prefix.len();
    loop {
        match toks.get(i) {
            Some((Tok::Ident(s), line)) if s != "as" => {
                prefix.push(s.clone());
                i += 1;
                if toks.get(i).map(|t| &t.0) == Some(&Tok::PathSep) {
                    i += 1;
                    continue;
                }
                let mut name = s.clone();
                if ident(toks.get(i)) == Some("as") {
                    name = ident(toks.get(i + 1)).unwrap_or("_").to_string();
                    i += 2;
                }
                if name == "self" {
                    prefix.pop();
                    name = prefix.last().cloned().unwrap_or_default();
                }
                out.push((prefix.clone(), *line, name));
                break;
            }
            Some((Tok::Punct('*'), line)) => {
                out.push((prefix.clone(), *line, "*".into()));
                i += 1;
                break;
            }
            Some((Tok::Punct('{'), _)) => {
                i += 1;
                while !is(toks.get(i), '}') && i < toks.len() {
                    i = use_tree(toks, i, prefix, out);
                    if is(toks.get(i), ',') {
                        i += 1;
                    }
                }
                i += 1;
                break;
            }
            _ => break,
        }
    }
    prefix.truncate(depth);
    i
}

/// The path of `toks[i..]` written as `a::b::c` (identifiers joined by `::`), and the index
/// after it.
fn linear_path(toks: &[(Tok, usize)], mut i: usize) -> (Vec<String>, usize) {
    let mut path = Vec::new();
    while let Some(s) = ident(toks.get(i)) {
        path.push(s.to_string());
        i += 1;
        if toks.get(i).map(|t| &t.0) != Some(&Tok::PathSep) {
            break;
        }
        i += 1;
    }
    (path, i)
}

/// `super` steps resolved from `module` (the module the path is written in).
fn resolve_super(module: &[String], path: &[String]) -> Option<Vec<String>> {
    let ups = path.iter().take_while(|s| *s == "super").count();
    if ups > module.len() {
        return None;
    }
    let mut full = module[..module.len() - ups].to_vec();
    full.extend(path[ups..].iter().filter(|s| *s != "self").cloned());
    Some(full)
}

/// The index after the item starting at `toks[i]`: its `;` or its matching `}`.
fn item_end(toks: &[(Tok, usize)], mut i: usize) -> usize {
    // Attributes of the item first.
    while is(toks.get(i), '#') && is(toks.get(i + 1), '[') {
        i = group_end(toks, i + 1);
    }
    while i < toks.len() {
        if is(toks.get(i), ';') {
            return i + 1;
        }
        if is(toks.get(i), '{') {
            return group_end(toks, i);
        }
        i += 1;
    }
    i
}

/// The index after the group opened at `toks[i]` (`(`, `[` or `{`).
fn group_end(toks: &[(Tok, usize)], mut i: usize) -> usize {
    let mut depth = 0i32;
    while i < toks.len() {
        match toks[i].0 {
            Tok::Punct('(' | '[' | '{') => depth += 1,
            Tok::Punct(')' | ']' | '}') => {
                depth -= 1;
                if depth == 0 {
                    return i + 1;
                }
            }
            _ => {}
        }
        i += 1;
    }
    i
}

/// Whether `toks[i..]` is `#[cfg(test)]`.
fn is_cfg_test(toks: &[(Tok, usize)], i: usize) -> bool {
    let want = ["#", "[", "cfg", "(", "test", ")", "]"];
    want.iter().enumerate().all(|(k, w)| match toks.get(i + k) {
        Some((Tok::Ident(s), _)) => s == w,
        Some((Tok::Punct(c), _)) => w.len() == 1 && w.starts_with(*c),
        _ => false,
    })
}

/// Scans one file of module `module`.
fn scan(src: &str, module: &[String]) -> Scan {
    let toks = lex(src);
    let mut s = Scan::default();
    // Inline modules open at this point: (module path, brace depth at which they close).
    let mut inline: Vec<(Vec<String>, i32)> = Vec::new();
    let mut depth = 0i32;
    let mut i = 0;
    while i < toks.len() {
        let here = inline.last().map_or(module.to_vec(), |m| m.0.clone());
        if is_cfg_test(&toks, i) {
            let item = i + 7;
            // `#[cfg(test)] mod name;`: the child's file is test code.
            if ident(toks.get(item)) == Some("mod") && is(toks.get(item + 2), ';') {
                if let Some(name) = ident(toks.get(item + 1)) {
                    s.test_children.push(name.to_string());
                }
            }
            i = item_end(&toks, item);
            continue;
        }
        match &toks[i] {
            (Tok::Punct('{'), _) => depth += 1,
            (Tok::Punct('}'), _) => {
                if inline.last().is_some_and(|m| m.1 == depth) {
                    inline.pop();
                }
                depth -= 1;
            }
            (Tok::Ident(w), _) if w == "mod" => {
                if let (Some(name), true) = (ident(toks.get(i + 1)), is(toks.get(i + 2), '{')) {
                    let mut m = here.clone();
                    m.push(name.to_string());
                    s.inline_modules.push(m.clone());
                    inline.push((m, depth + 1));
                }
            }
            (Tok::Ident(w), _) if w == "use" => {
                let top_level = depth == inline.last().map_or(0, |m| m.1);
                let mut leaves = Vec::new();
                let next = use_tree(&toks, i + 1, &mut Vec::new(), &mut leaves);
                for (path, line, name) in leaves {
                    let to = match path.first().map(String::as_str) {
                        Some("crate") => Some(path[1..].to_vec()),
                        Some("super") => resolve_super(&here, &path),
                        Some("self") => Some([here.clone(), path[1..].to_vec()].concat()),
                        _ => None,
                    };
                    if let Some(to) = &to {
                        s.references.push(Reference {
                            line,
                            from: here.clone(),
                            to: to.clone(),
                        });
                    }
                    if top_level && name != "*" {
                        let relative = to.is_none();
                        let mut alias = here.clone();
                        alias.push(name);
                        s.aliases
                            .push((alias.join("::"), to.unwrap_or(path), relative));
                    }
                }
                i = next;
                continue;
            }
            (Tok::Ident(w), line) if w == "crate" || w == "super" => {
                let after_in = i > 0 && ident(toks.get(i - 1)) == Some("in");
                let is_path = toks.get(i + 1).map(|t| &t.0) == Some(&Tok::PathSep);
                if is_path && !after_in {
                    let (path, next) = linear_path(&toks, i);
                    let to = if w == "crate" {
                        Some(path[1..].to_vec())
                    } else {
                        resolve_super(&here, &path)
                    };
                    if let Some(to) = to {
                        s.references.push(Reference {
                            line: *line,
                            from: here.clone(),
                            to,
                        });
                    }
                    i = next;
                    continue;
                }
            }
            (Tok::Ident(w), line) if w == "thread" || w == "runtime" || w == "spawn_blocking" => {
                let sep = toks.get(i + 1).map(|t| &t.0) == Some(&Tok::PathSep);
                let next = ident(toks.get(i + 2));
                let starts = match (w.as_str(), sep, next) {
                    ("thread", true, Some(n)) => ["spawn", "Builder", "scope"].contains(&n),
                    ("runtime", true, Some(n)) => n == "Builder",
                    ("spawn_blocking", _, _) => true,
                    _ => false,
                };
                if starts {
                    let what = match next {
                        Some(n) if w != "spawn_blocking" => format!("{w}::{n}"),
                        _ => w.clone(),
                    };
                    s.threads.push((*line, what));
                }
            }
            _ => {}
        }
        i += 1;
    }
    s
}

/// The module of a source file, from its path relative to `src/`; `None` for files of other
/// crate targets (`bin/`).
fn module_of(rel: &str) -> Option<Vec<String>> {
    if rel.starts_with("bin/") {
        return None;
    }
    let rel = rel.strip_suffix(".rs")?;
    let mut parts: Vec<String> = rel.split('/').map(str::to_string).collect();
    if matches!(parts.last().map(String::as_str), Some("mod" | "lib")) {
        parts.pop();
    }
    Some(parts)
}

/// A forbidden import or thread start.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Violation {
    file: String,
    line: usize,
    what: String,
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.file, self.line, self.what)
    }
}

/// Checks the files (path relative to `src/`, text) against the table.
fn check(table: &Table, files: &[(String, String)]) -> Vec<Violation> {
    let mut scans = BTreeMap::new();
    for (rel, text) in files {
        if let Some(module) = module_of(rel) {
            scans.insert(rel.clone(), (module.clone(), scan(text, &module)));
        }
    }
    // Files that are test code: declared `#[cfg(test)] mod x;`, and every file below them.
    let mut test_modules: BTreeSet<Vec<String>> = BTreeSet::new();
    for (module, s) in scans.values() {
        for child in &s.test_children {
            let mut m = module.clone();
            m.push(child.clone());
            test_modules.insert(m);
        }
    }
    let is_test = |m: &[String]| test_modules.iter().any(|t| m.starts_with(t));
    // Every module, and every name a module brings in with `use`: a path through such a
    // name points where the name points (`crate::Error` is `crate::error::Error`).
    let mut modules: BTreeSet<Vec<String>> = BTreeSet::new();
    for (module, s) in scans.values() {
        modules.insert(module.clone());
        modules.extend(s.inline_modules.iter().cloned());
    }
    let mut aliases: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for (_, s) in scans.values() {
        for (alias, path, relative) in &s.aliases {
            let target = if *relative {
                // `use child::x` names a child module; anything else is another crate.
                let mut here = alias.split("::").map(str::to_string).collect::<Vec<_>>();
                here.pop();
                if !modules.contains(&[here.clone(), vec![path[0].clone()]].concat()) {
                    continue;
                }
                [here, path.clone()].concat()
            } else {
                path.clone()
            };
            // The first of two same-named imports (a trait and its derive macro) wins.
            aliases.entry(alias.clone()).or_insert(target);
        }
    }
    let resolve = |to: &[String]| -> Vec<String> {
        let mut path = to.to_vec();
        for _ in 0..16 {
            let hit = (1..=path.len()).rev().find_map(|n| {
                let target = aliases.get(&path[..n].join("::"))?;
                Some([target.clone(), path[n..].to_vec()].concat())
            });
            match hit {
                Some(next) if next != path => path = next,
                _ => break,
            }
        }
        path
    };
    let mut out = Vec::new();
    for (rel, (module, s)) in &scans {
        if is_test(module) {
            continue;
        }
        let Some(own) = table.entry_of(module) else {
            out.push(Violation {
                file: rel.clone(),
                line: 1,
                what: format!(
                    "module {} is in no entry of the layer table",
                    module.join("::")
                ),
            });
            continue;
        };
        for r in &s.references {
            let from = table.entry_of(&r.from).unwrap_or_else(|| own.clone());
            let to_path = resolve(&r.to);
            let Some(to) = table.entry_of(&to_path) else {
                out.push(Violation {
                    file: rel.clone(),
                    line: r.line,
                    what: format!(
                        "crate::{} is in no entry of the layer table",
                        to_path.join("::")
                    ),
                });
                continue;
            };
            if from == to {
                continue;
            }
            let (lf, lt) = (table.level[&from], table.level[&to]);
            let why = if lt > lf {
                "up a layer"
            } else if lt == lf && !table.sideways.contains(&(from.clone(), to.clone())) {
                "sideways, not allowed by the table"
            } else {
                continue;
            };
            out.push(Violation {
                file: rel.clone(),
                line: r.line,
                what: format!("{from} (level {lf}) -> {to} (level {lt}): {why}"),
            });
        }
        if !table.threads.contains(&own) {
            for (line, what) in &s.threads {
                out.push(Violation {
                    file: rel.clone(),
                    line: *line,
                    what: format!("{what} in {own}: threads start only in {:?}", table.threads),
                });
            }
        }
    }
    out.sort();
    out.dedup();
    out
}

/// Every `.rs` file under `dir`, with its path relative to `base` (with `/`).
fn sources(base: &Path, dir: &Path, out: &mut Vec<(String, String)>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("reading {}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            sources(base, &path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let rel = path.strip_prefix(base).unwrap();
            let rel = rel.components().map(|c| c.as_os_str().to_string_lossy());
            let rel = rel.collect::<Vec<_>>().join("/");
            let text = std::fs::read_to_string(&path)
                .unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
            out.push((rel, text));
        }
    }
}

#[test]
fn no_import_points_up_or_forbidden_sideways_and_threads_start_only_where_the_table_says() {
    let crate_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let arch = crate_dir.join("../ARCHITECTURE.md");
    let text = std::fs::read_to_string(&arch)
        .unwrap_or_else(|e| panic!("reading {}: {e}", arch.display()));
    let table = Table::from_markdown(&text).unwrap_or_else(|e| panic!("{e}"));
    let src = crate_dir.join("src");
    let mut files = Vec::new();
    sources(&src, &src, &mut files);
    assert!(files.len() > 100, "only {} source files found", files.len());
    let bad = check(&table, &files);
    let list: Vec<String> = bad.iter().map(ToString::to_string).collect();
    assert!(
        bad.is_empty(),
        "{} forbidden edges (file:line: from -> to):\n{}",
        bad.len(),
        list.join("\n")
    );
}

#[test]
fn every_module_of_the_table_exists() {
    let crate_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(crate_dir.join("../ARCHITECTURE.md")).unwrap();
    let table = Table::from_markdown(&text).unwrap();
    for entry in table.level.keys().filter(|e| *e != "crate") {
        let rel = entry.replace("::", "/");
        let src = crate_dir.join("src");
        let exists = src.join(format!("{rel}.rs")).exists() || src.join(&rel).is_dir();
        // The root's inline modules live in lib.rs.
        let inline = !entry.contains("::")
            && std::fs::read_to_string(src.join("lib.rs"))
                .unwrap()
                .contains(&format!("pub mod {entry} {{"));
        assert!(
            exists || inline,
            "the layer table names {entry}, which is no module"
        );
    }
}

#[test]
fn the_folder_map_names_every_folder_and_file_of_src_and_core() {
    let crate_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(crate_dir.join("../ARCHITECTURE.md")).unwrap();
    let mut missing = Vec::new();
    for (dir, prefix) in [("src", ""), ("src/core", "core/")] {
        for entry in std::fs::read_dir(crate_dir.join(dir)).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            let shown = if path.is_dir() {
                format!("`{prefix}{name}/")
            } else if name.ends_with(".rs") && name != "lib.rs" && name != "mod.rs" {
                format!("`{prefix}{name}`")
            } else {
                continue;
            };
            if !text.contains(&shown) {
                missing.push(shown);
            }
        }
    }
    missing.sort();
    assert!(
        missing.is_empty(),
        "ARCHITECTURE.md's folder map leaves out {missing:?}"
    );
}

/// The checker itself, on a synthetic tree: it must see what it is there to see.
mod checker {
    use super::*;

    const TABLE: &str = "
        0: error exec
        1: low
        2: mid other third
        3: crate
        mid -> other   # allowed sideways
        threads: exec
    ";

    fn files(list: &[(&str, &str)]) -> Vec<(String, String)> {
        list.iter()
            .map(|(p, t)| (p.to_string(), t.to_string()))
            .collect()
    }

    fn run(list: &[(&str, &str)]) -> Vec<String> {
        let table = Table::parse(TABLE).unwrap();
        check(&table, &files(list))
            .iter()
            .map(ToString::to_string)
            .collect()
    }

    const BASE: [(&str, &str); 6] = [
        (
            "lib.rs",
            "pub mod low; pub mod mid; mod exec; mod error;\npub use error::Error;",
        ),
        ("error.rs", "pub struct Error;"),
        ("exec/mod.rs", "pub fn go() { std::thread::spawn(|| ()); }"),
        (
            "low/mod.rs",
            "use crate::error::Error;\npub fn f() -> Error { Error }",
        ),
        ("other.rs", "pub fn g() {}"),
        ("third.rs", "pub fn h() {}"),
    ];

    fn with(extra: &[(&'static str, &'static str)]) -> Vec<String> {
        let mut all = BASE.to_vec();
        all.extend_from_slice(extra);
        run(&all)
    }

    #[test]
    fn a_clean_tree_passes() {
        let mid =
            "use crate::low::f;\nuse crate::{Error, other::g};\npub fn m() { super::low::f(); }";
        assert_eq!(with(&[("mid/mod.rs", mid)]), Vec::<String>::new());
    }

    #[test]
    fn an_upward_import_is_caught_with_file_and_line() {
        let low = "use crate::error::Error;\n\nuse crate::mid::m;\npub fn f() -> Error { Error }";
        let bad = run(&[
            BASE[0],
            BASE[1],
            BASE[2],
            ("low/mod.rs", low),
            ("mid.rs", ""),
        ]);
        assert_eq!(
            bad,
            ["low/mod.rs:3: low (level 1) -> mid (level 2): up a layer"]
        );
    }

    #[test]
    fn upward_paths_in_expressions_groups_super_and_macros_are_caught() {
        let low = "pub fn f() {\n  crate::mid::m();\n}\nuse crate::{error::Error, third::{h}};\n\
                   macro_rules! x { () => { $crate::other::g() } }";
        let nested = "pub fn k() { super::super::super::mid::m(); }";
        let bad = with(&[("low/mod.rs", low), ("low/a/b.rs", nested), ("mid.rs", "")]);
        assert_eq!(
            bad,
            [
                "low/a/b.rs:1: low (level 1) -> mid (level 2): up a layer",
                "low/mod.rs:2: low (level 1) -> mid (level 2): up a layer",
                "low/mod.rs:4: low (level 1) -> third (level 2): up a layer",
                "low/mod.rs:5: low (level 1) -> other (level 2): up a layer",
            ]
        );
    }

    #[test]
    fn a_sideways_import_the_table_does_not_allow_is_caught() {
        // mid -> other is allowed; other -> mid and mid -> third are not.
        let mid = "use crate::other::g;\nuse crate::third::h;";
        let other = "pub fn g() { crate::mid::m() }";
        let bad = with(&[("mid.rs", mid), ("other.rs", other)]);
        assert_eq!(
            bad,
            [
                "mid.rs:2: mid (level 2) -> third (level 2): sideways, not allowed by the table",
                "other.rs:1: other (level 2) -> mid (level 2): sideways, not allowed by the table",
            ]
        );
    }

    #[test]
    fn a_root_reexport_resolves_to_its_module() {
        // `crate::Error` is error::Error (level 0): fine from anywhere.
        assert_eq!(
            with(&[("mid.rs", "use crate::Error;")]),
            Vec::<String>::new()
        );
    }

    #[test]
    fn a_path_through_a_reexport_counts_where_the_item_is_defined() {
        // `mid` re-exports `low`'s `f` and its own `Own`: `crate::mid::f` is an edge to `low`
        // (down: fine), `crate::mid::Own` one to `mid` (sideways: not allowed from `other`).
        let mid = "mod inner;\npub use crate::low::f;\npub use inner::Own;";
        let other = "use crate::mid::f;\nuse crate::mid::Own;";
        let bad = with(&[
            ("mid/mod.rs", mid),
            ("mid/inner.rs", "pub struct Own;"),
            ("other.rs", other),
        ]);
        assert_eq!(
            bad,
            ["other.rs:2: other (level 2) -> mid (level 2): sideways, not allowed by the table"]
        );
    }

    #[test]
    fn comments_strings_and_test_code_are_left_out() {
        let low = "// crate::mid::m\n/* crate::mid::m */\nconst S: &str = \"crate::mid::m\";\n\
                   const R: &str = r#\"crate::mid\"#;\nconst C: char = '\"';\n\
                   #[cfg(test)]\nmod tests { use crate::mid::m; fn t() { std::thread::spawn(|| ()); } }\n\
                   #[cfg(test)]\nmod more;\npub fn f<'a>(x: &'a str) -> &'a str { x }\nuse crate::mid::late;";
        let more = "use crate::mid::m;";
        let bad = with(&[("low/mod.rs", low), ("low/more.rs", more), ("mid.rs", "")]);
        assert_eq!(
            bad,
            ["low/mod.rs:11: low (level 1) -> mid (level 2): up a layer"]
        );
    }

    #[test]
    fn a_thread_outside_the_tables_entries_is_caught() {
        let mid = "fn a() { std::thread::spawn(|| ()); }\nfn b() { let _ = \
                   std::thread::Builder::new(); }\nfn c(h: Handle) { h.spawn_blocking(|| ()); }";
        let bad = with(&[("mid.rs", mid)]);
        assert_eq!(bad.len(), 3, "{bad:?}");
        assert!(
            bad[0].starts_with("mid.rs:1: thread::spawn in mid"),
            "{bad:?}"
        );
        assert!(
            bad[1].starts_with("mid.rs:2: thread::Builder in mid"),
            "{bad:?}"
        );
        assert!(
            bad[2].starts_with("mid.rs:3: spawn_blocking in mid"),
            "{bad:?}"
        );
    }

    #[test]
    fn a_module_missing_from_the_table_is_reported() {
        let bad = with(&[("stray.rs", "pub fn s() {}")]);
        assert_eq!(
            bad,
            ["stray.rs:1: module stray is in no entry of the layer table"]
        );
    }

    #[test]
    fn the_table_rejects_a_sideways_cycle_and_unknown_entries() {
        let cycle = Table::parse("0: a b\na -> b\nb -> a").unwrap_err();
        assert!(cycle.contains("cycle"), "{cycle}");
        let unknown = Table::parse("0: a\na -> z").unwrap_err();
        assert!(unknown.contains("z has no level"), "{unknown}");
        let levels = Table::parse("0: a\n1: b\na -> b").unwrap_err();
        assert!(levels.contains("one level"), "{levels}");
    }
}
