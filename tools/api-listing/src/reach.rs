//! Where each public item is: a walk from the crate root through public names, and the
//! canonical path rustdoc prefers.

use std::collections::{BTreeMap, BTreeSet};

use crate::resolve::{Kind, Resolved, Target};
use crate::signature::with;

/// Where the public items are.
#[derive(Default)]
pub(crate) struct Reach {
    /// Each definition's public paths.
    pub(crate) paths: BTreeMap<usize, BTreeSet<Vec<String>>>,
    /// Public names of another crate's items: (path here, path there, inlined: rustdoc
    /// documents it here unless `#[doc(no_inline)]`).
    pub(crate) ext: BTreeSet<(Vec<String>, Vec<String>, bool)>,
    /// Paths a `#[doc(inline)]` re-export lists an item at besides its canonical one.
    pub(crate) forced: BTreeSet<(usize, Vec<String>)>,
    /// Public `#[doc(hidden)]` modules.
    pub(crate) hidden_mods: BTreeSet<Vec<String>>,
    /// Re-exports of a public re-export: (path here, the path it re-exports).
    pub(crate) aliases: BTreeSet<(Vec<String>, Vec<String>)>,
}

pub(crate) fn walk(r: &Resolved, m: usize, path: Vec<String>, depth: usize, reach: &mut Reach) {
    if depth > 32 {
        return;
    }
    for ((name, _), b) in &r.names[m] {
        if !b.public {
            continue;
        }
        let mut p = path.clone();
        p.push(name.clone());
        match &b.target {
            Target::Def(d) => {
                let def = &r.defs[*d];
                if b.hidden || def.hidden {
                    if matches!(def.kind, Kind::Mod(_)) {
                        reach.hidden_mods.insert(p);
                    }
                    continue;
                }
                // A re-export of a public re-export is a second name for it (rustdoc does not
                // inline it either).
                if let (Some((t, name, ns)), false) = (&b.via, b.inline == Some(true)) {
                    let through = r.names[*t].get(&(name.clone(), *ns));
                    if let (Some(tp), Some(tb)) = (module_path(r, *t, &path[0]), through) {
                        if tb.public && !tb.hidden && tb.target == b.target && tp != path {
                            reach.aliases.insert((p, with(&tp, name)));
                            continue;
                        }
                    }
                }
                if b.inline == Some(true) {
                    reach.forced.insert((*d, p.clone()));
                }
                if !reach.paths.entry(*d).or_default().insert(p.clone()) {
                    continue;
                }
                if let Kind::Mod(c) = def.kind {
                    // A module with a canonical path is walked there only.
                    match canonical(r, *d, &path[0]) {
                        Some(cp) if cp != p => {}
                        _ => walk(r, c, p, depth + 1, reach),
                    }
                }
            }
            Target::Ext(t) if !b.hidden => {
                reach.ext.insert((p, t.clone(), b.inline != Some(false)));
            }
            Target::Ext(_) => {}
        }
    }
    for (name, b) in &r.ext[m] {
        if b.public && !b.hidden {
            if let Target::Ext(t) = &b.target {
                let mut p = path.clone();
                p.push(name.clone());
                reach.ext.insert((p, t.clone(), b.inline != Some(false)));
            }
        }
    }
}

/// The path of module `m` when it and every module above it are public.
pub(crate) fn module_path(r: &Resolved, m: usize, krate: &str) -> Option<Vec<String>> {
    let mut cur = m;
    while let Some(parent) = r.krate.modules[cur].parent {
        let module = &r.krate.modules[cur];
        if !module.public || module.hidden {
            return None;
        }
        cur = parent;
    }
    let mut p = vec![krate.to_string()];
    p.extend(r.krate.modules[m].def_path.iter().cloned());
    Some(p)
}

/// The path of `d` through its defining modules, when all of them are public.
pub(crate) fn canonical(r: &Resolved, d: usize, krate: &str) -> Option<Vec<String>> {
    let def = &r.defs[d];
    if !def.public || def.hidden {
        return None;
    }
    if def.kind == Kind::Macro {
        return Some(vec![krate.to_string(), def.name.clone()]);
    }
    let mut m = def.module;
    while let Some(parent) = r.krate.modules[m].parent {
        let module = &r.krate.modules[m];
        if !module.public || module.hidden {
            return None;
        }
        m = parent;
    }
    let mut p = vec![krate.to_string()];
    p.extend(r.krate.modules[def.module].def_path.iter().cloned());
    p.push(def.name.clone());
    Some(p)
}
