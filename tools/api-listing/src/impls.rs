//! The entries of an impl block: inherent pub methods and consts of a public type, or a trait
//! impl listed under its public type (or under its public trait, for another crate's type).

use syn::{ImplItem, Item, PathArguments, Type};

use crate::attrs::{doc_hidden, promise};
use crate::collect::Collector;
use crate::print::tokens;
use crate::resolve::{Kind, Target};
use crate::signature::{is_pub, join, params, segments, signature, where_, with};
use crate::Count;

impl Collector<'_> {
    pub(crate) fn impl_block(&mut self, m: usize, written: &syn::ItemImpl) {
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
