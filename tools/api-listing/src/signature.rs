//! Signatures and generics printed on one line.

use syn::{GenericParam, Generics};

use crate::print::tokens;

pub(crate) fn join(p: &[String]) -> String {
    p.join("::")
}

pub(crate) fn with(p: &[String], name: &str) -> Vec<String> {
    let mut v = p.to_vec();
    v.push(name.to_string());
    v
}

/// `<T: Bound, 'a>`, or nothing (a trailing comma in the source is dropped).
pub(crate) fn params(g: &Generics) -> String {
    if g.params.is_empty() {
        return String::new();
    }
    let p: Vec<String> = g.params.iter().map(tokens).collect();
    format!("<{}>", p.join(", "))
}

/// ` where T: Bound, ..`, or nothing (a trailing comma in the source is dropped).
pub(crate) fn where_(g: &Generics) -> String {
    match &g.where_clause {
        Some(w) if !w.predicates.is_empty() => {
            let p: Vec<String> = w.predicates.iter().map(tokens).collect();
            format!(" where {}", p.join(", "))
        }
        _ => String::new(),
    }
}

/// `<T, 'a, N>`: the generic parameters as arguments.
pub(crate) fn args_of(g: &Generics) -> String {
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

pub(crate) fn is_pub(v: &syn::Visibility) -> bool {
    matches!(v, syn::Visibility::Public(_))
}

/// A function's signature with `path` in place of its name.
pub(crate) fn signature(sig: &syn::Signature, path: &str) -> String {
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

pub(crate) fn segments(p: &syn::Path) -> Vec<String> {
    p.segments.iter().map(|s| s.ident.to_string()).collect()
}
