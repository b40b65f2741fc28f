//! Walks the public surface from the crate root and prints one entry per item, member and
//! trait impl.

use std::collections::{BTreeMap, BTreeSet};

use syn::visit_mut::{self, VisitMut};
use syn::{Fields, GenericParam, Generics, ImplItem, Item, PathArguments, TraitItem, Type};

use crate::attrs::{derives, doc_hidden, promise};
use crate::print::{squash, tokens};
use crate::resolve::{Kind, Resolved, Target};
use crate::{Count, Entry};

/// Where the public items are.
struct Reach {
    /// Each definition's public paths.
    paths: BTreeMap<usize, BTreeSet<Vec<String>>>,
    /// Public names of another crate's items: (path here, path there, inlined: rustdoc
    /// documents it here unless `#[doc(no_inline)]`).
    ext: BTreeSet<(Vec<String>, Vec<String>, bool)>,
    /// Paths a `#[doc(inline)]` re-export lists an item at besides its canonical one.
    forced: BTreeSet<(usize, Vec<String>)>,
    /// Public `#[doc(hidden)]` modules.
    hidden_mods: BTreeSet<Vec<String>>,
    /// Re-exports of a public re-export: (path here, the path it re-exports).
    aliases: BTreeSet<(Vec<String>, Vec<String>)>,
}

/// Every entry of the public surface of `r`, whose crate is named `krate`.
pub fn collect(r: &Resolved, krate: &str) -> Vec<Entry> {
    let mut reach = Reach {
        paths: BTreeMap::new(),
        ext: BTreeSet::new(),
        hidden_mods: BTreeSet::new(),
        aliases: BTreeSet::new(),
        forced: BTreeSet::new(),
    };
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

fn walk(r: &Resolved, m: usize, path: Vec<String>, depth: usize, reach: &mut Reach) {
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
fn module_path(r: &Resolved, m: usize, krate: &str) -> Option<Vec<String>> {
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
fn canonical(r: &Resolved, d: usize, krate: &str) -> Option<Vec<String>> {
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

struct Collector<'a> {
    r: &'a Resolved,
    out: Vec<Entry>,
    /// The paths each public definition is listed at.
    public: BTreeMap<usize, Vec<Vec<String>>>,
}

fn join(p: &[String]) -> String {
    p.join("::")
}

fn with(p: &[String], name: &str) -> Vec<String> {
    let mut v = p.to_vec();
    v.push(name.to_string());
    v
}

/// `<T: Bound, 'a>`, or nothing (a trailing comma in the source is dropped).
fn params(g: &Generics) -> String {
    if g.params.is_empty() {
        return String::new();
    }
    let p: Vec<String> = g.params.iter().map(tokens).collect();
    format!("<{}>", p.join(", "))
}

/// ` where T: Bound, ..`, or nothing (a trailing comma in the source is dropped).
fn where_(g: &Generics) -> String {
    match &g.where_clause {
        Some(w) if !w.predicates.is_empty() => {
            let p: Vec<String> = w.predicates.iter().map(tokens).collect();
            format!(" where {}", p.join(", "))
        }
        _ => String::new(),
    }
}

/// `<T, 'a, N>`: the generic parameters as arguments.
fn args_of(g: &Generics) -> String {
    if g.params.is_empty() {
        return String::new();
    }
    let names: Vec<String> = g
        .params
        .iter()
        .map(|p| match p {
            GenericParam::Type(t) => t.ident.to_string(),
            GenericParam::Lifetime(l) => l.lifetime.to_string(),
            GenericParam::Const(c) => c.ident.to_string(),
        })
        .collect();
    format!("<{}>", names.join(", "))
}

fn is_pub(v: &syn::Visibility) -> bool {
    matches!(v, syn::Visibility::Public(_))
}

/// A function's signature with `path` in place of its name.
fn signature(sig: &syn::Signature, path: &str) -> String {
    let mut s = String::new();
    if sig.constness.is_some() {
        s.push_str("const ");
    }
    if sig.asyncness.is_some() {
        s.push_str("async ");
    }
    if sig.unsafety.is_some() {
        s.push_str("unsafe ");
    }
    if let Some(abi) = &sig.abi {
        s.push_str(&tokens(abi));
        s.push(' ');
    }
    let inputs: Vec<String> = sig
        .inputs
        .iter()
        .map(|a| match a {
            // A `mut` binding is the body's business, not the signature's.
            syn::FnArg::Receiver(r) => {
                let mut r = r.clone();
                r.attrs.clear();
                if r.reference.is_none() {
                    r.mutability = None;
                }
                tokens(&r)
            }
            syn::FnArg::Typed(t) => {
                let mut pat = (*t.pat).clone();
                if let syn::Pat::Ident(i) = &mut pat {
                    i.mutability = None;
                    i.attrs.clear();
                }
                format!("{}: {}", tokens(&pat), tokens(&t.ty))
            }
        })
        .collect();
    s.push_str(&format!(
        "fn {path}{}({})",
        params(&sig.generics),
        inputs.join(", ")
    ));
    if let syn::ReturnType::Type(_, ty) = &sig.output {
        s.push_str(&format!(" -> {}", tokens(ty)));
    }
    s.push_str(&where_(&sig.generics));
    s
}

/// The standard traits a derive or an unqualified `impl` names through the prelude.
fn prelude(name: &str) -> Option<&'static str> {
    Some(match name {
        "Clone" => "std::clone::Clone",
        "Copy" | "Send" | "Sync" | "Sized" | "Unpin" => {
            return Some(match name {
                "Copy" => "std::marker::Copy",
                "Send" => "std::marker::Send",
                "Sync" => "std::marker::Sync",
                "Sized" => "std::marker::Sized",
                _ => "std::marker::Unpin",
            })
        }
        "Debug" => "std::fmt::Debug",
        "Default" => "std::default::Default",
        "PartialEq" => "std::cmp::PartialEq",
        "Eq" => "std::cmp::Eq",
        "PartialOrd" => "std::cmp::PartialOrd",
        "Ord" => "std::cmp::Ord",
        "Hash" => "std::hash::Hash",
        "From" => "std::convert::From",
        "Into" => "std::convert::Into",
        "TryFrom" => "std::convert::TryFrom",
        "TryInto" => "std::convert::TryInto",
        "AsRef" => "std::convert::AsRef",
        "AsMut" => "std::convert::AsMut",
        "Iterator" => "std::iter::Iterator",
        "IntoIterator" => "std::iter::IntoIterator",
        "ExactSizeIterator" => "std::iter::ExactSizeIterator",
        "DoubleEndedIterator" => "std::iter::DoubleEndedIterator",
        "Extend" => "std::iter::Extend",
        "FromIterator" => "std::iter::FromIterator",
        "Drop" => "std::ops::Drop",
        "Fn" => "std::ops::Fn",
        "FnMut" => "std::ops::FnMut",
        "FnOnce" => "std::ops::FnOnce",
        "ToString" => "std::string::ToString",
        "ToOwned" => "std::borrow::ToOwned",
        _ => return None,
    })
}

fn segments(p: &syn::Path) -> Vec<String> {
    p.segments.iter().map(|s| s.ident.to_string()).collect()
}

/// Rewrites the paths of a signature that name a public type or trait of this crate to its
/// public path, so a listing does not depend on how a module imports it; leaves bodies alone.
struct Qualify<'c, 'r> {
    c: &'c Collector<'r>,
    m: usize,
    /// The generic parameters seen so far: `T` is the parameter, not a type named `T`.
    params: BTreeSet<String>,
}

impl VisitMut for Qualify<'_, '_> {
    fn visit_block_mut(&mut self, _: &mut syn::Block) {}
    fn visit_expr_mut(&mut self, _: &mut syn::Expr) {}
    fn visit_attribute_mut(&mut self, _: &mut syn::Attribute) {}
    fn visit_item_mod_mut(&mut self, _: &mut syn::ItemMod) {}

    fn visit_type_path_mut(&mut self, tp: &mut syn::TypePath) {
        match &mut tp.qself {
            Some(q) => {
                self.visit_type_mut(&mut q.ty);
                for seg in &mut tp.path.segments {
                    self.visit_path_arguments_mut(&mut seg.arguments);
                }
            }
            None => self.visit_path_mut(&mut tp.path),
        }
    }

    fn visit_type_param_mut(&mut self, p: &mut syn::TypeParam) {
        self.params.insert(p.ident.to_string());
        visit_mut::visit_type_param_mut(self, p);
    }

    fn visit_const_param_mut(&mut self, p: &mut syn::ConstParam) {
        self.params.insert(p.ident.to_string());
        visit_mut::visit_const_param_mut(self, p);
    }

    fn visit_path_mut(&mut self, path: &mut syn::Path) {
        visit_mut::visit_path_mut(self, path);
        if path.leading_colon.is_some() || self.params.contains(&path.segments[0].ident.to_string())
        {
            return;
        }
        let Some(Target::Def(d)) = self.c.r.resolve_path(self.m, &segments(path)) else {
            return;
        };
        if !matches!(
            self.c.r.defs[d].kind,
            Kind::Struct | Kind::Enum | Kind::Union | Kind::Trait | Kind::Type
        ) {
            return;
        }
        let Some(public) = self.c.public.get(&d).and_then(|p| p.first()) else {
            return;
        };
        let args = path
            .segments
            .last()
            .map(|s| s.arguments.clone())
            .unwrap_or_default();
        let mut segs: syn::punctuated::Punctuated<syn::PathSegment, syn::Token![::]> = public
            .iter()
            .map(|n| syn::PathSegment::from(syn::Ident::new(n, proc_macro2::Span::call_site())))
            .collect();
        if let Some(last) = segs.last_mut() {
            last.arguments = args;
        }
        path.segments = segs;
    }
}

impl Collector<'_> {
    /// `item` with its signature's paths qualified (see [`Qualify`]), as written in module `m`.
    fn qualify(&self, m: usize, item: &Item) -> Item {
        let mut item = item.clone();
        Qualify {
            c: self,
            m,
            params: BTreeSet::new(),
        }
        .visit_item_mut(&mut item);
        item
    }

    fn push(&mut self, key: Vec<String>, rank: u8, text: String, count: Option<Count>) {
        self.out.push(Entry {
            key,
            rank,
            text: squash(&text),
            count,
        });
    }

    /// The public paths of the type or trait `path` names from module `m`, and whether it
    /// names a definition of this crate at all.
    fn local(&self, m: usize, path: &syn::Path) -> (Option<Vec<Vec<String>>>, Option<Target>) {
        let target = self.r.resolve_path(m, &segments(path));
        match &target {
            Some(Target::Def(d)) => (
                Some(self.public.get(d).cloned().unwrap_or_default()),
                target,
            ),
            _ => (None, target),
        }
    }

    /// A trait path as written, normalized: a trait of this crate by its public path, another
    /// crate's by the full path its `use` names (`core::`/`alloc::` as `std::`), a prelude
    /// trait by its full path. `None` for a trait of this crate that is not public.
    fn trait_name(&self, m: usize, path: &syn::Path, qualified: &syn::Path) -> Option<String> {
        let args = match &qualified.segments.last()?.arguments {
            PathArguments::None => String::new(),
            a => tokens(a),
        };
        let (local, target) = self.local(m, path);
        let base = match (local, target) {
            (Some(paths), _) => join(paths.first()?),
            (None, Some(Target::Ext(p))) => {
                let mut p = p.clone();
                if p.len() == 1 {
                    if let Some(full) = prelude(&p[0]) {
                        return Some(format!("{full}{args}"));
                    }
                }
                if p[0] == "core" || p[0] == "alloc" {
                    p[0] = "std".into();
                }
                join(&p)
            }
            _ => {
                let segs = segments(path);
                match (segs.len(), prelude(&segs[0])) {
                    (1, Some(full)) => full.to_string(),
                    _ => segs.join("::"),
                }
            }
        };
        Some(format!("{base}{args}"))
    }

    fn item(&mut self, d: usize, path: &[String]) {
        let r = self.r;
        let def = &r.defs[d];
        let p = join(path);
        let qualified = def
            .item
            .map(|i| self.qualify(def.module, &r.krate.modules[def.module].items[i]));
        match (def.kind, qualified.as_ref()) {
            (Kind::Mod(_), _) => {
                self.push(path.to_vec(), 0, format!("mod {p}"), Some(Count::Module))
            }
            (Kind::Struct, Some(Item::Struct(s))) => {
                let shape = match &s.fields {
                    Fields::Named(n) if n.named.iter().any(|f| !is_pub(&f.vis)) => {
                        " { /* private fields */ }".to_string()
                    }
                    Fields::Named(_) => " { .. }".to_string(),
                    Fields::Unnamed(u) => {
                        let f: Vec<String> = u
                            .unnamed
                            .iter()
                            .map(|f| {
                                if is_pub(&f.vis) {
                                    format!("pub {}", tokens(&f.ty))
                                } else {
                                    "_".into()
                                }
                            })
                            .collect();
                        format!("({})", f.join(", "))
                    }
                    Fields::Unit => String::new(),
                };
                let text = format!(
                    "{}pub struct {p}{}{shape}{}",
                    promise(&s.attrs),
                    params(&s.generics),
                    where_(&s.generics)
                );
                self.push(path.to_vec(), 0, text, Some(Count::Name));
                if let Fields::Named(n) = &s.fields {
                    for f in n
                        .named
                        .iter()
                        .filter(|f| is_pub(&f.vis) && !doc_hidden(&f.attrs))
                    {
                        let name = f.ident.as_ref().map(|i| i.to_string()).unwrap_or_default();
                        let text =
                            format!("{}pub {p}::{name}: {}", promise(&f.attrs), tokens(&f.ty));
                        self.push(with(path, &name), 0, text, None);
                    }
                }
                self.derived(def.module, &s.attrs, &s.generics, path);
            }
            (Kind::Union, Some(Item::Union(u))) => {
                let text = format!(
                    "{}pub union {p}{}{}",
                    promise(&u.attrs),
                    params(&u.generics),
                    where_(&u.generics)
                );
                self.push(path.to_vec(), 0, text, Some(Count::Name));
                for f in u
                    .fields
                    .named
                    .iter()
                    .filter(|f| is_pub(&f.vis) && !doc_hidden(&f.attrs))
                {
                    let name = f.ident.as_ref().map(|i| i.to_string()).unwrap_or_default();
                    self.push(
                        with(path, &name),
                        0,
                        format!("pub {p}::{name}: {}", tokens(&f.ty)),
                        None,
                    );
                }
                self.derived(def.module, &u.attrs, &u.generics, path);
            }
            (Kind::Enum, Some(Item::Enum(e))) => {
                let text = format!(
                    "{}pub enum {p}{}{}",
                    promise(&e.attrs),
                    params(&e.generics),
                    where_(&e.generics)
                );
                self.push(path.to_vec(), 0, text, Some(Count::Name));
                for v in e.variants.iter().filter(|v| !doc_hidden(&v.attrs)) {
                    let vname = v.ident.to_string();
                    let vpath = with(path, &vname);
                    let shape = match &v.fields {
                        Fields::Named(_) => " { .. }".to_string(),
                        Fields::Unnamed(u) => {
                            let f: Vec<String> = u.unnamed.iter().map(|f| tokens(&f.ty)).collect();
                            format!("({})", f.join(", "))
                        }
                        Fields::Unit => String::new(),
                    };
                    let disc = v
                        .discriminant
                        .as_ref()
                        .map(|(_, e)| format!(" = {}", tokens(e)))
                        .unwrap_or_default();
                    self.push(
                        vpath.clone(),
                        0,
                        format!("{}{p}::{vname}{shape}{disc}", promise(&v.attrs)),
                        None,
                    );
                    if let Fields::Named(n) = &v.fields {
                        for f in &n.named {
                            let name = f.ident.as_ref().map(|i| i.to_string()).unwrap_or_default();
                            let text = format!("{p}::{vname}::{name}: {}", tokens(&f.ty));
                            self.push(with(&vpath, &name), 0, text, None);
                        }
                    }
                }
                self.derived(def.module, &e.attrs, &e.generics, path);
            }
            (Kind::Trait, Some(Item::Trait(t))) => {
                let unsafety = if t.unsafety.is_some() { "unsafe " } else { "" };
                let auto = if t.auto_token.is_some() { "auto " } else { "" };
                let supers = if t.supertraits.is_empty() {
                    String::new()
                } else {
                    format!(": {}", tokens(&t.supertraits))
                };
                let text = format!(
                    "{}pub {unsafety}{auto}trait {p}{}{supers}{}",
                    promise(&t.attrs),
                    params(&t.generics),
                    where_(&t.generics)
                );
                self.push(path.to_vec(), 0, text, Some(Count::Name));
                for ti in &t.items {
                    match ti {
                        TraitItem::Fn(f) if !doc_hidden(&f.attrs) => {
                            let name = f.sig.ident.to_string();
                            let body = if f.default.is_some() { " { .. }" } else { "" };
                            let text = format!(
                                "{}{}{body}",
                                promise(&f.attrs),
                                signature(&f.sig, &format!("{p}::{name}"))
                            );
                            self.push(with(path, &name), 0, text, Some(Count::Method));
                        }
                        TraitItem::Const(c) if !doc_hidden(&c.attrs) => {
                            let name = c.ident.to_string();
                            let default = if c.default.is_some() { " = .." } else { "" };
                            self.push(
                                with(path, &name),
                                0,
                                format!("const {p}::{name}: {}{default}", tokens(&c.ty)),
                                None,
                            );
                        }
                        TraitItem::Type(ty) if !doc_hidden(&ty.attrs) => {
                            let name = ty.ident.to_string();
                            let bounds = if ty.bounds.is_empty() {
                                String::new()
                            } else {
                                format!(": {}", tokens(&ty.bounds))
                            };
                            let default = ty
                                .default
                                .as_ref()
                                .map(|(_, t)| format!(" = {}", tokens(t)))
                                .unwrap_or_default();
                            let text = format!(
                                "type {p}::{name}{}{bounds}{}{default}",
                                params(&ty.generics),
                                where_(&ty.generics)
                            );
                            self.push(with(path, &name), 0, text, None);
                        }
                        _ => {}
                    }
                }
            }
            (Kind::Fn, Some(Item::Fn(f))) => {
                if let Some(a) = f
                    .attrs
                    .iter()
                    .find(|a| a.path().is_ident("proc_macro_derive"))
                {
                    let inner = match &a.meta {
                        syn::Meta::List(l) => crate::print::tokens(&l.tokens),
                        _ => String::new(),
                    };
                    let (name, rest) = inner.split_once(", ").unwrap_or((inner.as_str(), ""));
                    let mut dpath = path.to_vec();
                    if let Some(last) = dpath.last_mut() {
                        *last = name.to_string();
                    }
                    let rest = if rest.is_empty() {
                        String::new()
                    } else {
                        format!(" {rest}")
                    };
                    self.push(
                        dpath.clone(),
                        0,
                        format!("derive {}{rest}", join(&dpath)),
                        Some(Count::Name),
                    );
                    return;
                }
                let text = format!("{}pub {}", promise(&f.attrs), signature(&f.sig, &p));
                self.push(path.to_vec(), 0, text, Some(Count::Name));
            }
            (Kind::Const, Some(Item::Const(c))) => {
                self.push(
                    path.to_vec(),
                    0,
                    format!("pub const {p}: {}", tokens(&c.ty)),
                    Some(Count::Name),
                );
            }
            (Kind::Static, Some(Item::Static(s))) => {
                let m = if matches!(s.mutability, syn::StaticMutability::Mut(_)) {
                    "mut "
                } else {
                    ""
                };
                self.push(
                    path.to_vec(),
                    0,
                    format!("pub static {m}{p}: {}", tokens(&s.ty)),
                    Some(Count::Name),
                );
            }
            (Kind::Type, Some(Item::Type(t))) => {
                let text = format!(
                    "{}pub type {p}{}{} = {}",
                    promise(&t.attrs),
                    params(&t.generics),
                    where_(&t.generics),
                    tokens(&t.ty)
                );
                self.push(path.to_vec(), 0, text, Some(Count::Name));
            }
            (Kind::Macro, _) => {
                self.push(path.to_vec(), 0, format!("macro {p}!"), Some(Count::Name))
            }
            _ => {}
        }
    }

    /// The `#[derive(...)]` impls of a type listed at `path`.
    fn derived(&mut self, m: usize, attrs: &[syn::Attribute], g: &Generics, path: &[String]) {
        for d in derives(attrs) {
            let Some(name) = self.trait_name(m, &d, &d) else {
                continue;
            };
            let text = format!(
                "#[derive] impl{} {name} for {}{}{}",
                params(g),
                join(path),
                args_of(g),
                where_(g)
            );
            self.push(path.to_vec(), 1, text, None);
        }
    }

    fn impl_block(&mut self, m: usize, written: &syn::ItemImpl) {
        // Resolved as written; printed with this crate's types at their public paths.
        let Item::Impl(imp) = self.qualify(m, &Item::Impl(written.clone())) else {
            return;
        };
        let imp = &imp;
        let self_path_written = match &*written.self_ty {
            Type::Path(tp) if tp.qself.is_none() => Some(&tp.path),
            _ => None,
        };
        let self_path = match &*imp.self_ty {
            Type::Path(tp) if tp.qself.is_none() => Some(&tp.path),
            _ => None,
        };
        let self_def =
            self_path_written.and_then(|sp| match self.r.resolve_path(m, &segments(sp)) {
                Some(Target::Def(d))
                    if matches!(self.r.defs[d].kind, Kind::Struct | Kind::Enum | Kind::Union) =>
                {
                    Some(d)
                }
                _ => None,
            });
        let self_paths = self_def
            .and_then(|d| self.public.get(&d).cloned())
            .unwrap_or_default();
        let self_args = self_path
            .and_then(|sp| sp.segments.last())
            .map(|s| match &s.arguments {
                PathArguments::None => String::new(),
                a => tokens(a),
            })
            .unwrap_or_default();
        match &imp.trait_ {
            None => {
                let ctx = if imp.generics.params.is_empty() && imp.generics.where_clause.is_none() {
                    String::new()
                } else {
                    format!(" [impl{}{}]", params(&imp.generics), where_(&imp.generics))
                };
                for p in &self_paths {
                    for it in &imp.items {
                        match it {
                            ImplItem::Fn(f) if is_pub(&f.vis) && !doc_hidden(&f.attrs) => {
                                let name = f.sig.ident.to_string();
                                let at = format!("{}{self_args}::{name}", join(p));
                                let text = format!(
                                    "{}pub {}{ctx}",
                                    promise(&f.attrs),
                                    signature(&f.sig, &at)
                                );
                                self.push(with(p, &name), 0, text, Some(Count::Method));
                            }
                            ImplItem::Const(c) if is_pub(&c.vis) && !doc_hidden(&c.attrs) => {
                                let name = c.ident.to_string();
                                let text = format!(
                                    "pub const {}{self_args}::{name}: {}{ctx}",
                                    join(p),
                                    tokens(&c.ty)
                                );
                                self.push(with(p, &name), 0, text, None);
                            }
                            _ => {}
                        }
                    }
                }
            }
            Some((bang, qpath, _)) => {
                let Some((_, tpath, _)) = &written.trait_ else {
                    return;
                };
                let Some(trait_name) = self.trait_name(m, tpath, qpath) else {
                    return;
                };
                let (trait_local, _) = self.local(m, tpath);
                let head = format!(
                    "{}impl{} {}{trait_name} for",
                    if imp.unsafety.is_some() {
                        "unsafe "
                    } else {
                        ""
                    },
                    params(&imp.generics),
                    if bang.is_some() { "!" } else { "" },
                );
                if !self_paths.is_empty() {
                    for p in &self_paths {
                        let text =
                            format!("{head} {}{self_args}{}", join(p), where_(&imp.generics));
                        self.push(p.clone(), 1, text, None);
                    }
                } else if let (None, Some(tp)) =
                    (self_def, trait_local.and_then(|t| t.first().cloned()))
                {
                    // A trait of this crate implemented for another crate's type.
                    let text = format!("{head} {}{}", tokens(&*imp.self_ty), where_(&imp.generics));
                    self.push(tp, 1, text, None);
                }
            }
        }
    }
}
