//! The entries of one public item: its declaration, fields, variants, trait items, derives.

use syn::{Fields, Generics, Item, TraitItem};

use crate::attrs::{derives, doc_hidden, promise};
use crate::collect::Collector;
use crate::print::tokens;
use crate::resolve::Kind;
use crate::signature::{args_of, is_pub, join, params, signature, where_, with};
use crate::Count;

impl Collector<'_> {
    pub(crate) fn item(&mut self, d: usize, path: &[String]) {
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
    pub(crate) fn derived(
        &mut self,
        m: usize,
        attrs: &[syn::Attribute],
        g: &Generics,
        path: &[String],
    ) {
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
}
