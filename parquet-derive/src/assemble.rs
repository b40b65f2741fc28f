//! `#[parquet(assemble)]`: the derive also writes the struct's `Deserialize`.
//!
//! Why the derive writes the impl rather than trusting the user's `#[derive(Deserialize)]`:
//! nothing at compile time proves that a type's `Deserialize` is serde's derive with the
//! attributes this derive sees (it may be written by hand, or by another macro), and the
//! reader's generic entry points (`from_slice::<T>`, `Reader<_, T>`) only know
//! `T: DeserializeOwned`. Generating the impl from the same parse makes the fast path the
//! meaning of a row by construction.
//!
//! The impl is serde_derive's, item for item, for the attributes it accepts (the same field
//! list `FIELDS`, aliases sorted per field, duplicate and missing field errors, container
//! and field defaults, `skip_deserializing`, `with`/`deserialize_with`,
//! `deny_unknown_fields`). Its field identifier also takes a field's index (`visit_u64`, as
//! serde_derive's does), and it registers its `FIELDS` with parquet-serde: the assembler then
//! hands each field as its index, matched by one jump instead of comparing names. Attributes
//! it cannot mirror are spanned compile errors.

use std::collections::BTreeSet;

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use syn::ext::IdentExt;
use syn::meta::ParseNestedMeta;
use syn::spanned::Spanned as _;
use syn::{Data, DeriveInput, Fields, LitStr, Token};

use crate::attr::Errors;
use crate::case::RenameRule;

/// A default: `default` or `default = "path"`.
enum Default {
    None,
    Trait,
    Path(syn::ExprPath),
}

/// What the container's `#[serde(...)]` says about deserialization.
struct Container {
    name: Option<String>,
    rename_all: Option<RenameRule>,
    default: Default,
    deny_unknown_fields: bool,
}

/// One field's deserialization attributes.
struct FieldDe {
    member: syn::Ident,
    ty: syn::Type,
    /// The deserialize name.
    name: String,
    /// Every name the field answers to (its name and aliases), sorted as serde sorts them.
    names: BTreeSet<String>,
    skip: bool,
    default: Default,
    with: Option<syn::ExprPath>,
    span: Span,
}

/// Keys of `#[serde(...)]` on a container that change deserialization in ways this derive
/// does not write.
const UNSUPPORTED_CONTAINER: &[&str] = &[
    "from",
    "try_from",
    "transparent",
    "tag",
    "content",
    "untagged",
    "remote",
    "bound",
    "crate",
    "expecting",
    "variant_identifier",
    "field_identifier",
];

/// Keys of `#[serde(...)]` on a field this derive does not write.
const UNSUPPORTED_FIELD: &[&str] = &["flatten", "bound", "getter", "other"];

/// The `Deserialize` impl and the assembler registration of `input`, which carries
/// `#[parquet(assemble)]` at `span`.
pub fn expand(
    input: &DeriveInput,
    krate: &syn::Path,
    span: Span,
    errors: &mut Errors,
) -> TokenStream {
    let fields = match &input.data {
        Data::Struct(data) => match &data.fields {
            Fields::Named(named) => named,
            _ => {
                errors.at(
                    span,
                    "`#[parquet(assemble)]` goes on a struct with named fields",
                );
                return TokenStream::new();
            }
        },
        _ => {
            errors.at(
                span,
                "`#[parquet(assemble)]` goes on a struct with named fields",
            );
            return TokenStream::new();
        }
    };
    let not_lifetime = input
        .generics
        .params
        .iter()
        .find(|p| !matches!(p, syn::GenericParam::Lifetime(_)));
    if let Some(param) = not_lifetime {
        errors.at(
            param.span(),
            "`#[parquet(assemble)]` needs a struct without type or const parameters (lifetimes \
             are allowed: every one is borrowed from the rows' batch)",
        );
        return TokenStream::new();
    }
    let container = container(&input.attrs, errors);
    let mut out = Vec::new();
    for field in &fields.named {
        if let Some(f) = field_de(field, &container, errors) {
            out.push(f);
        }
    }
    if input.generics.lifetimes().next().is_some() {
        for f in out.iter().filter(|f| f.with.is_some()) {
            errors.at(
                f.span,
                "`#[serde(with)]` and `#[serde(deserialize_with)]` cannot be used with \
                 `#[parquet(assemble)]` on a struct with lifetimes",
            );
        }
    }
    let ident = &input.ident;
    let name = container
        .name
        .clone()
        .unwrap_or_else(|| ident.unraw().to_string());
    emit(ident, &input.generics, &name, &container, &out, krate)
}

/// Calls `f` with each key of each `#[serde(...)]` in `attrs`; a key `f` does not read
/// (returns `false`) has its value skipped.
fn each_key(
    attrs: &[syn::Attribute],
    errors: &mut Errors,
    mut f: impl FnMut(&str, &ParseNestedMeta, &mut Errors) -> syn::Result<bool>,
) {
    for attr in attrs.iter().filter(|a| a.path().is_ident("serde")) {
        let res = attr.parse_nested_meta(|meta| {
            let key = meta
                .path
                .get_ident()
                .map(|i| i.to_string())
                .unwrap_or_default();
            if !f(&key, &meta, errors)? {
                skip_value(&meta)?;
            }
            Ok(())
        });
        // serde's own derive (of Serialize) reports malformed attributes.
        let _ = res;
    }
}

/// Consumes the `= value` or `(...)` after a key nobody read.
fn skip_value(meta: &ParseNestedMeta) -> syn::Result<()> {
    if meta.input.peek(Token![=]) {
        meta.value()?.parse::<syn::Expr>()?;
    } else if meta.input.peek(syn::token::Paren) {
        let content;
        syn::parenthesized!(content in meta.input);
        content.parse::<TokenStream>()?;
    }
    Ok(())
}

/// `key = "x"` or `key(deserialize = "x", ...)`: the deserialize-side string.
fn de_str(meta: &ParseNestedMeta) -> syn::Result<Option<LitStr>> {
    if meta.input.peek(Token![=]) {
        return Ok(Some(meta.value()?.parse()?));
    }
    let mut out = None;
    if meta.input.peek(syn::token::Paren) {
        meta.parse_nested_meta(|inner| {
            if inner.path.is_ident("deserialize") {
                out = Some(inner.value()?.parse()?);
            } else {
                skip_value(&inner)?;
            }
            Ok(())
        })?;
    }
    Ok(out)
}

/// `default` or `default = "path"`.
fn parse_default(meta: &ParseNestedMeta) -> syn::Result<Default> {
    if meta.input.peek(Token![=]) {
        let lit: LitStr = meta.value()?.parse()?;
        return Ok(Default::Path(lit.parse()?));
    }
    Ok(Default::Trait)
}

fn container(attrs: &[syn::Attribute], errors: &mut Errors) -> Container {
    let mut out = Container {
        name: None,
        rename_all: None,
        default: Default::None,
        deny_unknown_fields: false,
    };
    each_key(attrs, errors, |key, meta, errors| {
        match key {
            "rename" => out.name = de_str(meta)?.map(|l| l.value()),
            "rename_all" => {
                out.rename_all = de_str(meta)?.and_then(|l| RenameRule::parse(&l.value()))
            }
            "default" => out.default = parse_default(meta)?,
            "deny_unknown_fields" => out.deny_unknown_fields = true,
            _ if UNSUPPORTED_CONTAINER.contains(&key) => {
                errors.at(
                    meta.path.span(),
                    format!(
                        "`#[serde({key})]` cannot be used with `#[parquet(assemble)]`, which \
                         writes the struct's Deserialize as serde's derive does for a plain \
                         struct"
                    ),
                );
                return Ok(false);
            }
            _ => return Ok(false),
        }
        Ok(true)
    });
    out
}

fn field_de(field: &syn::Field, c: &Container, errors: &mut Errors) -> Option<FieldDe> {
    let rule = c.rename_all;
    let member = field.ident.clone()?;
    let raw = member.unraw().to_string();
    let mut name: Option<String> = None;
    let mut aliases = Vec::new();
    let mut skip = false;
    let mut default = Default::None;
    let mut with = None;
    each_key(&field.attrs, errors, |key, meta, errors| {
        match key {
            "rename" => {
                if let Some(l) = de_str(meta)? {
                    name = Some(l.value());
                }
            }
            "alias" => {
                let lit: LitStr = meta.value()?.parse()?;
                aliases.push(lit.value());
            }
            "skip" | "skip_deserializing" => skip = true,
            // serde's `borrow` adds `'de: 'a` bounds (this derive borrows every lifetime
            // anyway), and on a `Cow<str>` or `Cow<[u8]>` field it also makes the value
            // borrowed, which this derive does not write.
            "borrow" => {
                if is_cow_of_text(&field.ty) {
                    errors.at(
                        meta.path.span(),
                        "`#[serde(borrow)]` on a `Cow` field cannot be used with \
                         `#[parquet(assemble)]`: borrow the text as `&str` or `&[u8]`",
                    );
                }
                return Ok(false);
            }
            "default" => default = parse_default(meta)?,
            "with" => {
                let lit: LitStr = meta.value()?.parse()?;
                let module: syn::Path = lit.parse()?;
                with = Some(syn::parse_quote_spanned!(lit.span()=> #module::deserialize));
            }
            "deserialize_with" => {
                let lit: LitStr = meta.value()?.parse()?;
                with = Some(lit.parse()?);
            }
            _ if UNSUPPORTED_FIELD.contains(&key) => {
                errors.at(
                    meta.path.span(),
                    format!("`#[serde({key})]` cannot be used with `#[parquet(assemble)]`"),
                );
                return Ok(false);
            }
            _ => return Ok(false),
        }
        Ok(true)
    });
    let name = name.unwrap_or_else(|| match rule {
        Some(rule) => rule.apply_to_field(&raw),
        None => raw,
    });
    // serde_derive: a skipped field without a default of its own or of the container
    // takes `Default::default()`.
    if skip && matches!(default, Default::None) && matches!(c.default, Default::None) {
        default = Default::Trait;
    }
    let mut names: BTreeSet<String> = aliases.into_iter().collect();
    names.insert(name.clone());
    Some(FieldDe {
        member,
        ty: field.ty.clone(),
        name,
        names,
        skip,
        default,
        with,
        span: field.ty.span(),
    })
}

/// Whether `ty` is `Cow<_, str>` or `Cow<_, [u8]>`, the fields serde's `borrow` makes
/// borrowed (serde_derive's `is_cow`).
fn is_cow_of_text(ty: &syn::Type) -> bool {
    let syn::Type::Path(path) = ty else {
        return false;
    };
    let Some(last) = path.path.segments.last() else {
        return false;
    };
    if last.ident != "Cow" {
        return false;
    }
    let syn::PathArguments::AngleBracketed(args) = &last.arguments else {
        return false;
    };
    args.args.iter().any(|a| match a {
        syn::GenericArgument::Type(syn::Type::Path(p)) => p.path.is_ident("str"),
        syn::GenericArgument::Type(syn::Type::Slice(s)) => {
            matches!(&*s.elem, syn::Type::Path(p) if p.path.is_ident("u8"))
        }
        _ => false,
    })
}

/// The value of field `f` when the input lacks it (serde_derive's `expr_is_missing`).
fn missing_expr(f: &FieldDe, c: &Container, error: &TokenStream) -> TokenStream {
    match &f.default {
        Default::Trait => return quote_spanned!(f.span=> ::core::default::Default::default()),
        Default::Path(path) => return quote_spanned!(path.span()=> #path()),
        Default::None => {}
    }
    if !matches!(c.default, Default::None) {
        let member = &f.member;
        return quote!(__default.#member);
    }
    let name = &f.name;
    match f.with {
        None => quote_spanned!(f.span=> __a::missing_field::<_, #error>(#name)?),
        Some(_) => quote!(
            return ::core::result::Result::Err(
                <#error as _serde::de::Error>::missing_field(#name),
            )
        ),
    }
}

/// The value of field `f` at position `index` of a sequence that ended before it
/// (serde_derive's `expr_is_missing_seq`).
fn missing_seq_expr(f: &FieldDe, c: &Container, index: usize, expecting: &str) -> TokenStream {
    match &f.default {
        Default::Trait => return quote_spanned!(f.span=> ::core::default::Default::default()),
        Default::Path(path) => return quote_spanned!(path.span()=> #path()),
        Default::None => {}
    }
    if !matches!(c.default, Default::None) {
        let member = &f.member;
        return quote!(__default.#member);
    }
    quote!(
        return ::core::result::Result::Err(
            <__S::Error as _serde::de::Error>::invalid_length(#index, &#expecting),
        )
    )
}

/// The `let __default` of a container default.
fn let_default(c: &Container, ty: &TokenStream) -> TokenStream {
    match &c.default {
        Default::None => TokenStream::new(),
        Default::Trait => quote!(let __default: #ty = ::core::default::Default::default();),
        Default::Path(path) => quote_spanned!(path.span()=> let __default: #ty = #path();),
    }
}

/// Reads one value of field `f` from `next` (`next_value` or `next_element` of the access
/// `access`): through the field's type, or the `with` function's wrapper.
fn read_value(f: &FieldDe, call: TokenStream) -> (TokenStream, TokenStream) {
    let ty = &f.ty;
    match &f.with {
        None => (quote_spanned!(f.span=> #call::<#ty>), TokenStream::new()),
        Some(path) => {
            let wrapper = quote!(
                struct __DeserializeWith {
                    value: #ty,
                }
                impl<'de> _serde::Deserialize<'de> for __DeserializeWith {
                    fn deserialize<__D2: _serde::Deserializer<'de>>(
                        __deserializer: __D2,
                    ) -> ::core::result::Result<Self, __D2::Error> {
                        ::core::result::Result::Ok(__DeserializeWith {
                            value: #path(__deserializer)?,
                        })
                    }
                }
            );
            (quote!(#call::<__DeserializeWith>), wrapper)
        }
    }
}

fn emit(
    ident: &syn::Ident,
    generics: &syn::Generics,
    name: &str,
    c: &Container,
    fields: &[FieldDe],
    krate: &syn::Path,
) -> TokenStream {
    let live: Vec<&FieldDe> = fields.iter().filter(|f| !f.skip).collect();
    let n = live.len();
    let variants: Vec<syn::Ident> = (0..n).map(|i| format_ident!("__field{}", i)).collect();
    let indexes: Vec<u64> = (0..n as u64).collect();
    let all_names: Vec<&String> = live.iter().flat_map(|f| f.names.iter()).collect();
    let name_index: Vec<u32> = live
        .iter()
        .enumerate()
        .flat_map(|(i, f)| std::iter::repeat_n(i as u32, f.names.len()))
        .collect();
    let fields_len = all_names.len();
    let expecting = format!("struct {name}");
    let expecting_seq = format!(
        "struct {name} with {n} element{}",
        if n == 1 { "" } else { "s" }
    );
    let index_expecting = format!("field index 0 <= i < {n}");

    // The field identifier.
    let str_arms = live.iter().zip(&variants).map(|(f, v)| {
        let names = f.names.iter();
        quote!(#(#names)|* => ::core::result::Result::Ok(__Field::#v),)
    });
    let bytes_arms = live.iter().zip(&variants).map(|(f, v)| {
        let names = f
            .names
            .iter()
            .map(|s| syn::LitByteStr::new(s.as_bytes(), Span::call_site()));
        quote!(#(#names)|* => ::core::result::Result::Ok(__Field::#v),)
    });
    let (ignore_variant, u64_fallback, str_fallback, bytes_fallback) = if c.deny_unknown_fields {
        (
            TokenStream::new(),
            quote!(::core::result::Result::Err(_serde::de::Error::invalid_value(
                _serde::de::Unexpected::Unsigned(__value),
                &#index_expecting,
            ))),
            quote!(::core::result::Result::Err(
                _serde::de::Error::unknown_field(__value, &FIELDS)
            )),
            quote!({
                let __value = &::std::string::String::from_utf8_lossy(__value);
                ::core::result::Result::Err(_serde::de::Error::unknown_field(__value, &FIELDS))
            }),
        )
    } else {
        (
            quote!(__ignore,),
            quote!(::core::result::Result::Ok(__Field::__ignore)),
            quote!(::core::result::Result::Ok(__Field::__ignore)),
            quote!(::core::result::Result::Ok(__Field::__ignore)),
        )
    };

    // visit_map.
    let value_arms = live.iter().zip(&variants).map(|(f, v)| {
        let fname = &f.name;
        let slot = format_ident!("__slot_{}", v);
        let (read, wrapper) = read_value(f, quote!(_serde::de::MapAccess::next_value));
        let value = if f.with.is_some() {
            quote!({ #wrapper #read(&mut __map)?.value })
        } else {
            quote!(#read(&mut __map)?)
        };
        quote!(
            __Field::#v => {
                if ::core::option::Option::is_some(&#slot) {
                    return ::core::result::Result::Err(
                        <__M::Error as _serde::de::Error>::duplicate_field(#fname),
                    );
                }
                #slot = ::core::option::Option::Some(#value);
            }
        )
    });
    let value_arms: Vec<TokenStream> = value_arms.collect();
    let slots: Vec<syn::Ident> = variants
        .iter()
        .map(|v| format_ident!("__slot_{}", v))
        .collect();
    let slot_types: Vec<&syn::Type> = live.iter().map(|f| &f.ty).collect();
    let ignored_arm = (!c.deny_unknown_fields).then(|| {
        quote!(_ => {
            let _ = _serde::de::MapAccess::next_value::<_serde::de::IgnoredAny>(&mut __map)?;
        })
    });
    let match_keys = if c.deny_unknown_fields && n == 0 {
        quote!(
            ::core::option::Option::map(
                _serde::de::MapAccess::next_key::<__Field>(&mut __map)?,
                |__impossible| match __impossible {},
            );
        )
    } else {
        quote!(
            while let ::core::option::Option::Some(__key) =
                _serde::de::MapAccess::next_key::<__Field>(&mut __map)?
            {
                match __key {
                    #(#value_arms)*
                    #ignored_arm
                }
            }
        )
    };
    let extract_with = |error: TokenStream| -> Vec<TokenStream> {
        live.iter()
            .zip(&slots)
            .map(|(f, slot)| {
                let missing = missing_expr(f, c, &error);
                quote!(
                    let #slot = match #slot {
                        ::core::option::Option::Some(__v) => __v,
                        ::core::option::Option::None => #missing,
                    };
                )
            })
            .collect()
    };
    let extract = extract_with(quote!(__M::Error));
    let fast_extract = extract_with(quote!(__a::DeError));
    let mut k = 0;
    let result_map = fields.iter().map(|f| {
        let member = &f.member;
        if f.skip {
            // A skipped field's default never fails (no `missing_field`): no error type.
            let value = missing_expr(f, c, &quote!(__a::DeError));
            quote!(#member: #value)
        } else {
            let slot = &slots[k];
            k += 1;
            quote!(#member: #slot)
        }
    });
    let result_map: Vec<TokenStream> = result_map.collect();

    // visit_seq.
    let mut index = 0usize;
    let seq_lets = fields.iter().map(|f| {
        let member = &f.member;
        let var = format_ident!("__seq_{}", member);
        if f.skip {
            let value = missing_seq_expr(f, c, index, &expecting_seq);
            // serde_derive: a skipped field takes its default without consuming an element.
            return quote!(let #var = #value;);
        }
        let (read, wrapper) = read_value(f, quote!(_serde::de::SeqAccess::next_element));
        let missing = missing_seq_expr(f, c, index, &expecting_seq);
        let got = if f.with.is_some() {
            quote!(::core::option::Option::Some(__v) => __v.value,)
        } else {
            quote!(::core::option::Option::Some(__v) => __v,)
        };
        index += 1;
        quote!(
            let #var = {
                #wrapper
                match #read(&mut __seq)? {
                    #got
                    ::core::option::Option::None => #missing,
                }
            };
        )
    });
    let seq_lets: Vec<TokenStream> = seq_lets.collect();
    let seq_members = fields.iter().map(|f| {
        let member = &f.member;
        let var = format_ident!("__seq_{}", member);
        quote!(#member: #var)
    });
    // The struct's lifetimes, each borrowed from the deserializer (`'de: 'a`).
    let lifetimes: Vec<&syn::LifetimeParam> = generics.lifetimes().collect();
    let lifetime_names: Vec<&syn::Lifetime> = lifetimes.iter().map(|l| &l.lifetime).collect();
    let (_, ty_generics, where_clause) = generics.split_for_impl();
    let where_preds = where_clause.map(|w| &w.predicates);
    let bounds = quote!(where #('de: #lifetime_names,)* #where_preds);
    let this = quote!(#ident #ty_generics);
    let let_default_fast = let_default(c, &this);
    let let_default = let_default(c, &quote!(Self::Value));

    // The generated assembler (de/fast.rs): the same fields, read from the reader's
    // access directly when `visit_map` is given it.
    let fast_values: Vec<TokenStream> = live
        .iter()
        .map(|f| {
            let ty = &f.ty;
            if f.with.is_some() {
                let (_, wrapper) = read_value(f, TokenStream::new());
                quote!({ #wrapper __a::Fast::value::<__DeserializeWith>(__f)?.value })
            } else {
                quote_spanned!(f.span=> {
                    #[allow(unused_imports)]
                    use __a::{ReadFast as _, ReadSerde as _};
                    (&__a::Read::<#ty>::NEW).read(__f)?
                })
            }
        })
        .collect();
    let fast_arms = live.iter().enumerate().map(|(i, f)| {
        let fname = &f.name;
        let slot = &slots[i];
        let index = i as u32;
        let value = &fast_values[i];
        quote!(
            #index => {
                if ::core::option::Option::is_some(&#slot) {
                    return ::core::result::Result::Err(
                        <__a::DeError as _serde::de::Error>::duplicate_field(#fname),
                    );
                }
                #slot = ::core::option::Option::Some(#value);
            }
        )
    });
    let fast_arms: Vec<TokenStream> = fast_arms.collect();

    let fast_other = if c.deny_unknown_fields {
        quote!(_ => {
            return ::core::result::Result::Err(<__a::DeError as _serde::de::Error>::invalid_value(
                _serde::de::Unexpected::Unsigned(u64::from(__key)),
                &#index_expecting,
            ));
        })
    } else {
        quote!(_ => {
            let _ = __a::Fast::value::<_serde::de::IgnoredAny>(__f)?;
        })
    };

    quote!(
        #[doc(hidden)]
        #[allow(non_upper_case_globals, non_camel_case_types, unused_qualifications,
                unreachable_code, clippy::all)]
        const _: () = {
            use #krate::__assemble as __a;
            // serde itself, as serde's derive names it: the struct derives `Serialize` too.
            use ::serde as _serde;

            static FIELDS: [&str; #fields_len] = [#(#all_names),*];

            // The generated assembler; an `Option` or `Vec` of this struct is read by it
            // too (de/fast.rs).
            #[automatically_derived]
            impl<'de, #(#lifetimes),*> __a::Assembled<'de> for #this #bounds {
                const FIELDS: &'static [&'static str] = &FIELDS;

                /// The fields straight from the leaf cursors (de/fast.rs).
                #[inline]
                fn assemble(
                    __f: &mut __a::Fast<'_, 'de>,
                ) -> ::core::result::Result<Self, __a::DeError> {
                    if __f.sequential(#n) {
                        // Every field, in order: read one after the other.
                        #let_default_fast
                        #(let #slots = #fast_values;)*
                        return ::core::result::Result::Ok(#ident { #(#result_map),* });
                    }
                    #(let mut #slots: ::core::option::Option<#slot_types> =
                        ::core::option::Option::None;)*
                    while let ::core::option::Option::Some(__key) = __f.next_key() {
                        match __key {
                            #(#fast_arms)*
                            #fast_other
                        }
                    }
                    #let_default_fast
                    #(#fast_extract)*
                    ::core::result::Result::Ok(#ident { #(#result_map),* })
                }
            }

            #[automatically_derived]
            impl<'de, #(#lifetimes),*> _serde::Deserialize<'de> for #this #bounds {
                fn deserialize<__D: _serde::Deserializer<'de>>(
                    __deserializer: __D,
                ) -> ::core::result::Result<Self, __D::Error> {
                    enum __Field {
                        #(#variants,)*
                        #ignore_variant
                    }
                    struct __FieldVisitor;
                    impl<'de> _serde::de::Visitor<'de> for __FieldVisitor {
                        type Value = __Field;
                        fn expecting(
                            &self,
                            __f: &mut ::core::fmt::Formatter<'_>,
                        ) -> ::core::fmt::Result {
                            __f.write_str("field identifier")
                        }
                        fn visit_u64<__E: _serde::de::Error>(
                            self,
                            __value: u64,
                        ) -> ::core::result::Result<__Field, __E> {
                            match __value {
                                #(#indexes => ::core::result::Result::Ok(__Field::#variants),)*
                                _ => #u64_fallback,
                            }
                        }
                        fn visit_str<__E: _serde::de::Error>(
                            self,
                            __value: &str,
                        ) -> ::core::result::Result<__Field, __E> {
                            match __value {
                                #(#str_arms)*
                                _ => #str_fallback,
                            }
                        }
                        fn visit_bytes<__E: _serde::de::Error>(
                            self,
                            __value: &[u8],
                        ) -> ::core::result::Result<__Field, __E> {
                            match __value {
                                #(#bytes_arms)*
                                _ => #bytes_fallback,
                            }
                        }
                    }
                    impl<'de> _serde::Deserialize<'de> for __Field {
                        #[inline]
                        fn deserialize<__D2: _serde::Deserializer<'de>>(
                            __deserializer: __D2,
                        ) -> ::core::result::Result<Self, __D2::Error> {
                            _serde::Deserializer::deserialize_identifier(__deserializer, __FieldVisitor)
                        }
                    }

                    struct __Visitor<'de, #(#lifetimes),*>(
                        ::core::marker::PhantomData<(&'de (), #this)>,
                    ) #where_clause;
                    impl<'de, #(#lifetimes),*> _serde::de::Visitor<'de>
                        for __Visitor<'de, #(#lifetime_names),*> #bounds
                    {
                        type Value = #this;
                        fn expecting(
                            &self,
                            __f: &mut ::core::fmt::Formatter<'_>,
                        ) -> ::core::fmt::Result {
                            __f.write_str(#expecting)
                        }
                        #[inline]
                        fn visit_seq<__S: _serde::de::SeqAccess<'de>>(
                            self,
                            mut __seq: __S,
                        ) -> ::core::result::Result<Self::Value, __S::Error> {
                            #let_default
                            #(#seq_lets)*
                            ::core::result::Result::Ok(#ident { #(#seq_members),* })
                        }
                        #[inline]
                        fn visit_map<__M: _serde::de::MapAccess<'de>>(
                            self,
                            mut __map: __M,
                        ) -> ::core::result::Result<Self::Value, __M::Error> {
                            if let ::core::option::Option::Some(mut __f) =
                                __a::Fast::of(&mut __map)
                            {
                                // This row, and the row loop's next rows when it
                                // asks for them (`Fast::rows`).
                                return __a::done::<'de, __M, #this>(
                                    __f.rows(|__f| {
                                        <#this as __a::Assembled<'de>>::assemble(__f)
                                    }),
                                );
                            }
                            #(let mut #slots: ::core::option::Option<#slot_types> =
                                ::core::option::Option::None;)*
                            #match_keys
                            #let_default
                            #(#extract)*
                            ::core::result::Result::Ok(#ident { #(#result_map),* })
                        }
                    }

                    static __INDEX: __a::FieldIndex =
                        __a::FieldIndex::new(&FIELDS, &[#(#name_index),*]);
                    __a::register(&__INDEX);
                    _serde::Deserializer::deserialize_struct(
                        __deserializer,
                        #name,
                        &FIELDS,
                        __Visitor(::core::marker::PhantomData),
                    )
                }
            }
        };
    )
}
