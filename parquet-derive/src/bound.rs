//! Bounds for generic types: `T: ParquetSchema` for each type parameter a serialized field
//! uses (serde's own rule), unless the container gives `#[parquet(bound = "...")]`.

use proc_macro2::{TokenStream, TokenTree};
use quote::ToTokens;
use syn::{Generics, Ident, Type, WherePredicate};

/// The type parameters of `generics`.
pub fn type_params(generics: &Generics) -> Vec<Ident> {
    generics.type_params().map(|p| p.ident.clone()).collect()
}

/// Whether `ty` mentions any of `params` (by identifier, anywhere in its tokens).
pub fn mentions_params(ty: &Type, params: &[Ident]) -> bool {
    !params.is_empty() && tokens_mention(ty.to_token_stream(), params)
}

/// Whether any identifier in `tokens` is one of `params`.
fn tokens_mention(tokens: TokenStream, params: &[Ident]) -> bool {
    tokens.into_iter().any(|tt| match tt {
        TokenTree::Ident(ident) => params.contains(&ident),
        TokenTree::Group(group) => tokens_mention(group.stream(), params),
        TokenTree::Punct(_) | TokenTree::Literal(_) => false,
    })
}

/// Whether `ty` is a `PhantomData<..>`, whose schema needs nothing of its parameter.
fn is_phantom(ty: &Type) -> bool {
    match ty {
        Type::Path(path) => path
            .path
            .segments
            .last()
            .is_some_and(|s| s.ident == "PhantomData"),
        _ => false,
    }
}

/// `P: ParquetSchema` for each of `params` that one of `types` uses (through `__p`, the
/// private module the expansion imports).
pub fn inferred(types: &[Type], params: &[Ident]) -> Vec<WherePredicate> {
    params
        .iter()
        .filter(|param| {
            types
                .iter()
                .filter(|ty| !is_phantom(ty))
                .any(|ty| tokens_mention(ty.to_token_stream(), std::slice::from_ref(param)))
        })
        .map(|param| syn::parse_quote!(#param: __p::ParquetSchema))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use quote::quote;

    #[test]
    fn infers_used_params_only() {
        let generics: Generics = syn::parse_quote!(<'a, T, U, V, const N: usize>);
        let params = type_params(&generics);
        let types: Vec<Type> = vec![
            syn::parse_quote!(Vec<Option<T>>),
            syn::parse_quote!(std::marker::PhantomData<U>),
            syn::parse_quote!(&'a str),
            syn::parse_quote!([u8; N]),
        ];
        let preds = inferred(&types, &params);
        let text: Vec<String> = preds.iter().map(|p| quote!(#p).to_string()).collect();
        assert_eq!(text, vec!["T : __p :: ParquetSchema"]);
        assert!(mentions_params(
            &syn::parse_quote!(HashMap<String, V>),
            &params
        ));
        assert!(!mentions_params(
            &syn::parse_quote!(HashMap<String, Vx>),
            &params
        ));
        assert!(!mentions_params(&syn::parse_quote!(T), &[]));
    }
}
