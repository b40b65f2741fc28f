//! Types in signatures at their public paths.

use std::collections::BTreeSet;

use syn::visit_mut::{self, VisitMut};
use syn::Item;

use crate::collect::Collector;
use crate::resolve::{Kind, Target};
use crate::signature::segments;

/// Rewrites the paths of a signature that name a public type or trait of this crate to its
/// public path, so a listing does not depend on how a module imports it; leaves bodies alone.
pub(crate) struct Qualify<'c, 'r> {
    pub(crate) c: &'c Collector<'r>,
    pub(crate) m: usize,
    /// The generic parameters seen so far: `T` is the parameter, not a type named `T`.
    pub(crate) params: BTreeSet<String>,
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
    pub(crate) fn qualify(&self, m: usize, item: &Item) -> Item {
        let mut item = item.clone();
        Qualify {
            c: self,
            m,
            params: BTreeSet::new(),
        }
        .visit_item_mut(&mut item);
        item
    }
}
