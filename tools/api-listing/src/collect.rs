//! Walks the public surface from the crate root and prints one entry per item, member and
//! trait impl.

use std::collections::BTreeMap;

use syn::Item;

use crate::attrs::doc_hidden;
use crate::print::squash;
use crate::reach::{canonical, walk, Reach};
use crate::resolve::{Kind, Resolved};
use crate::signature::join;
use crate::{Count, Entry};

/// Every entry of the public surface of `r`, whose crate is named `krate`.
pub fn collect(r: &Resolved, krate: &str) -> Vec<Entry> {
    let mut reach = Reach::default();
    walk(r, 0, vec![krate.to_string()], 0, &mut reach);
    let mut c = Collector {
        r,
        out: Vec::new(),
        public: BTreeMap::new(),
    };
    // Each item at its canonical path when every module on it is public, else at every
    // path that re-exports it (as rustdoc documents it).
    for (d, reached) in &reach.paths {
        let listed: Vec<Vec<String>> = match canonical(r, *d, krate) {
            Some(p) => {
                let forced: Vec<Vec<String>> = reach
                    .forced
                    .iter()
                    .filter(|(fd, fp)| fd == d && *fp != p)
                    .map(|(_, fp)| fp.clone())
                    .collect();
                for alias in reached.iter().filter(|a| **a != p && !forced.contains(a)) {
                    c.push(
                        alias.clone(),
                        0,
                        format!("pub use {} = {}", alias.join("::"), p.join("::")),
                        None,
                    );
                }
                std::iter::once(p).chain(forced).collect()
            }
            None => reached.iter().cloned().collect(),
        };
        c.public.insert(*d, listed);
    }
    for (path, target, inlined) in &reach.ext {
        let text = format!("pub use {} = {}", path.join("::"), target.join("::"));
        c.push(path.clone(), 0, text, inlined.then_some(Count::Name));
    }
    for (path, target) in &reach.aliases {
        c.push(
            path.clone(),
            0,
            format!("pub use {} = {}", join(path), join(target)),
            None,
        );
    }
    for (m, path) in &r.unresolved {
        let mut key = vec![krate.to_string()];
        key.extend(r.krate.modules[*m].def_path.iter().cloned());
        let text = format!("unresolved: `pub use {}` in {}", join(path), join(&key));
        c.push(key, 0, text, None);
    }
    for (d, mac) in &r.made_by {
        if let Some(paths) = c.public.get(d).cloned() {
            for p in paths {
                let kind = match r.defs[*d].kind {
                    Kind::Struct => "struct",
                    Kind::Enum => "enum",
                    Kind::Trait => "trait",
                    Kind::Type => "type",
                    Kind::Fn => "fn",
                    Kind::Const => "const",
                    _ => "static",
                };
                let text = format!(
                    "pub {kind} {} (made by {mac}!, members not listed)",
                    join(&p)
                );
                c.push(p, 0, text, Some(Count::Name));
            }
        }
    }
    for path in &reach.hidden_mods {
        c.push(
            path.clone(),
            0,
            format!("#[doc(hidden)] mod {} (excluded)", path.join("::")),
            None,
        );
    }
    let public = c.public.clone();
    for (d, paths) in &public {
        for p in paths {
            c.item(*d, p);
        }
    }
    for m in 0..r.krate.modules.len() {
        for item in &r.krate.modules[m].items {
            if let Item::Impl(imp) = item {
                if !doc_hidden(&imp.attrs) {
                    c.impl_block(m, imp);
                }
            }
        }
    }
    c.out
}

/// Makes the entries; knows where each public definition is listed.
pub(crate) struct Collector<'a> {
    /// The resolved crate.
    pub(crate) r: &'a Resolved,
    /// The entries so far.
    pub(crate) out: Vec<Entry>,
    /// The paths each public definition is listed at.
    pub(crate) public: BTreeMap<usize, Vec<Vec<String>>>,
}

impl Collector<'_> {
    /// Adds an entry (its text with whitespace squashed).
    pub(crate) fn push(&mut self, key: Vec<String>, rank: u8, text: String, count: Option<Count>) {
        self.out.push(Entry {
            key,
            rank,
            text: squash(&text),
            count,
        });
    }
}
