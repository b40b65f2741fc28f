//! `#[derive(ParquetSchema)]` for parquet-serde.
//!
//! The derive implements `parquet_serde::core::schema::ParquetSchema` for a struct or enum so that
//! its Parquet schema mirrors what serde writes for it: fields in declaration order, named by
//! serde's `rename` / `rename_all`, skipped fields left out, flattened structs spliced in.
//! Parquet-only options go in `#[parquet(...)]`. See the `parquet_serde::core::schema::typed` module
//! for the type table and every option.
//!
//! The expansion parses and checks all attributes first; each problem is a compile error at
//! the token that causes it. Options that do not fit the field's type are caught by the type
//! checker through marker traits, at the field's type.

mod assemble;
mod attr;
mod bound;
mod case;
mod direct;
mod expand;

use proc_macro::TokenStream;

/// Derives `parquet_serde::core::schema::ParquetSchema`. See the `parquet_serde::core::schema::typed`
/// module for the type table and the `#[parquet(...)]` options.
#[proc_macro_derive(ParquetSchema, attributes(parquet))]
pub fn derive_parquet_schema(input: TokenStream) -> TokenStream {
    let input = syn::parse_macro_input!(input as syn::DeriveInput);
    match expand::derive(&input) {
        Ok(tokens) => tokens.into(),
        Err(err) => err.to_compile_error().into(),
    }
}
