//! The derive's direct row writer (see `schema/typed/direct.rs` in parquet-serde): the
//! `ParquetSchema` items that write a row's fields (`__parquet_direct_layout`,
//! `__parquet_direct_put`) and the `DirectValue` impl that writes the struct wherever it is
//! nested (a field, an `Option`, a `Vec` element), each field through the path its type picks
//! by auto-ref: `DirectValue` types (scalars, `Option`, `Vec`, derived structs) written
//! directly with their levels, other `Serialize` types through serde.

use proc_macro2::TokenStream;
use quote::quote;
use syn::{Ident, ImplGenerics, Type, TypeGenerics, WhereClause};

/// The fields of a struct the direct writer writes: serde writes each as the field's own
/// value, in declaration order.
pub(crate) struct DirectFields {
    idents: Vec<Ident>,
    types: Vec<Type>,
}

impl DirectFields {
    /// The direct fields, given the fields' Rust names and types (`None`: no direct writer).
    pub(crate) fn new(fields: Vec<(Ident, Type)>) -> Option<Self> {
        if fields.is_empty() {
            return None;
        }
        let (idents, types) = fields.into_iter().unzip();
        Some(DirectFields { idents, types })
    }

    /// The items of the `ParquetSchema` impl.
    pub(crate) fn schema_items(&self) -> TokenStream {
        let idents = &self.idents;
        let types = &self.types;
        let index = (0..idents.len() as u32).collect::<Vec<_>>();
        quote!(
            fn __parquet_direct_layout() -> __p::Option<__p::Layout> {
                #[allow(unused_imports)]
                use __p::{ViaNone as _, ViaSerde as _, ViaValue as _};
                if !(true #(&& (&&&__p::Direct::<#types>::NEW).__parquet_direct_ok())*) {
                    return __p::None;
                }
                __p::Some(__p::Vec::from([
                    #((::core::mem::offset_of!(Self, #idents), ::core::any::type_name::<#types>()),)*
                ]))
            }

            #[inline]
            fn __parquet_direct_put<__S: __p::DirectSink>(
                &self,
                __sink: &mut __S,
            ) -> __p::ParquetResult<()> {
                #[allow(unused_imports)]
                use __p::{ViaNone as _, ViaSerde as _, ViaValue as _};
                let __first = __sink.row_first();
                #((&&&__p::Direct::<#types>::NEW)
                    .__parquet_direct_put(__sink, __first + #index, 0, &self.#idents)?;)*
                __p::ParquetResult::Ok(())
            }
        )
    }

    /// `impl DirectValue` for the struct: its fields at the group's nodes when the group is
    /// the struct's and the value's `Serialize` hands exactly its fields (the sink checks),
    /// else the value through serde. Bounded by `Self: Serialize` under a `for<'_>` so that a
    /// struct without `Serialize` still compiles (the impl then never applies).
    pub(crate) fn value_impl(
        &self,
        ident: &Ident,
        impl_generics: &ImplGenerics<'_>,
        ty_generics: &TypeGenerics<'_>,
        where_clause: Option<&WhereClause>,
    ) -> TokenStream {
        let idents = &self.idents;
        let types = &self.types;
        let index = (0..idents.len() as u32).collect::<Vec<_>>();
        let given = where_clause.into_iter().flat_map(|w| w.predicates.iter());
        let mut preds = quote!(#(#given,)*);
        preds.extend(quote!(for<'__parquet_any> #ident #ty_generics: __p::Serialize,));
        quote!(
            #[automatically_derived]
            impl #impl_generics __p::DirectValue for #ident #ty_generics where #preds {
                #[inline]
                fn __parquet_put_at<__S: __p::DirectSink>(
                    &self,
                    __sink: &mut __S,
                    __node: u32,
                    __rep: i16,
                ) -> __p::ParquetResult<()> {
                    #[allow(unused_imports)]
                    use __p::{ViaNone as _, ViaSerde as _, ViaValue as _};
                    if !(true #(&& (&&&__p::Direct::<#types>::NEW).__parquet_direct_ok())*) {
                        return __sink.serde(__node, __rep, self);
                    }
                    let __p::Some(__first) = __sink.group(__node, self) else {
                        return __sink.serde(__node, __rep, self);
                    };
                    #((&&&__p::Direct::<#types>::NEW)
                        .__parquet_direct_put(__sink, __first + #index, __rep, &self.#idents)?;)*
                    __p::ParquetResult::Ok(())
                }
            }
        )
    }
}
