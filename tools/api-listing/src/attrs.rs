//! Attributes: which `cfg`s are on, `cfg_attr` expansion, `#[doc(hidden)]`, and the attributes
//! that change what an item promises.

use syn::punctuated::Punctuated;
use syn::{Attribute, Meta, Token};

use crate::print::tokens;

/// Whether every `#[cfg(...)]` of `attrs` holds. Every `feature` is on, `test` is off, the
/// platform is x86_64 Linux (so the listing does not depend on the machine that makes it).
pub fn cfg_on(attrs: &[Attribute]) -> bool {
    attrs
        .iter()
        .filter(|a| a.path().is_ident("cfg"))
        .all(|a| match a.parse_args::<Meta>() {
            Ok(meta) => eval(&meta),
            Err(_) => true,
        })
}

fn eval(meta: &Meta) -> bool {
    match meta {
        Meta::Path(p) => {
            let name = p.get_ident().map(|i| i.to_string()).unwrap_or_default();
            matches!(name.as_str(), "unix" | "debug_assertions")
        }
        Meta::NameValue(nv) => {
            let key = nv
                .path
                .get_ident()
                .map(|i| i.to_string())
                .unwrap_or_default();
            let value = match &nv.value {
                syn::Expr::Lit(syn::ExprLit {
                    lit: syn::Lit::Str(s),
                    ..
                }) => s.value(),
                _ => String::new(),
            };
            match key.as_str() {
                "feature" => true,
                "target_os" => value == "linux",
                "target_family" => value == "unix",
                "target_arch" => value == "x86_64",
                "target_pointer_width" => value == "64",
                "target_endian" => value == "little",
                "panic" => value == "unwind",
                _ => false,
            }
        }
        Meta::List(list) => {
            let name = list
                .path
                .get_ident()
                .map(|i| i.to_string())
                .unwrap_or_default();
            let inner = list
                .parse_args_with(Punctuated::<Meta, Token![,]>::parse_terminated)
                .map(|p| p.into_iter().collect::<Vec<_>>())
                .unwrap_or_default();
            match name.as_str() {
                "all" => inner.iter().all(eval),
                "any" => inner.iter().any(eval),
                "not" => !inner.first().map(eval).unwrap_or(false),
                _ => false,
            }
        }
    }
}

/// Replaces every `#[cfg_attr(pred, a, b)]` by `#[a] #[b]` when `pred` holds, else drops it.
pub fn expand_cfg_attr(attrs: &mut Vec<Attribute>) {
    let mut out = Vec::with_capacity(attrs.len());
    for attr in attrs.drain(..) {
        if !attr.path().is_ident("cfg_attr") {
            out.push(attr);
            continue;
        }
        let Ok(parts) = attr.parse_args_with(Punctuated::<Meta, Token![,]>::parse_terminated)
        else {
            continue;
        };
        let mut parts = parts.into_iter();
        let Some(pred) = parts.next() else { continue };
        if eval(&pred) {
            for meta in parts {
                out.push(syn::parse_quote!(#[#meta]));
            }
        }
    }
    let nested = out.iter().any(|a| a.path().is_ident("cfg_attr"));
    *attrs = out;
    if nested {
        expand_cfg_attr(attrs);
    }
}

/// Whether `attrs` hold `#[doc(hidden)]`.
pub fn doc_hidden(attrs: &[Attribute]) -> bool {
    attrs.iter().any(|a| {
        a.path().is_ident("doc")
            && matches!(&a.meta, Meta::List(l) if l.tokens.clone().into_iter().any(
                |t| matches!(t, proc_macro2::TokenTree::Ident(i) if i == "hidden")))
    })
}

/// `Some(true)` for `#[doc(inline)]`, `Some(false)` for `#[doc(no_inline)]`.
pub fn doc_inline(attrs: &[Attribute]) -> Option<bool> {
    attrs.iter().find_map(|a| match &a.meta {
        Meta::List(l) if a.path().is_ident("doc") => {
            l.tokens.clone().into_iter().find_map(|t| match t {
                proc_macro2::TokenTree::Ident(i) if i == "inline" => Some(true),
                proc_macro2::TokenTree::Ident(i) if i == "no_inline" => Some(false),
                _ => None,
            })
        }
        _ => None,
    })
}

/// The attributes that change an item's promise (`#[non_exhaustive]`, `#[must_use]`,
/// `#[deprecated]`), printed, each followed by a space.
pub fn promise(attrs: &[Attribute]) -> String {
    let mut out = String::new();
    for a in attrs {
        if ["non_exhaustive", "must_use", "deprecated"]
            .iter()
            .any(|n| a.path().is_ident(n))
        {
            out.push_str("#[");
            out.push_str(&tokens(&a.meta));
            out.push_str("] ");
        }
    }
    out
}

/// The trait paths of every `#[derive(...)]`, as written.
pub fn derives(attrs: &[Attribute]) -> Vec<syn::Path> {
    let mut out = Vec::new();
    for a in attrs.iter().filter(|a| a.path().is_ident("derive")) {
        if let Ok(paths) = a.parse_args_with(Punctuated::<syn::Path, Token![,]>::parse_terminated) {
            out.extend(paths);
        }
    }
    out
}
