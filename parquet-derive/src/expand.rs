//! From the parsed and checked item to the `impl ParquetSchema`.

use std::collections::HashSet;

use proc_macro2::{Span, TokenStream};
use quote::{quote, quote_spanned, ToTokens};
use syn::ext::IdentExt;
use syn::spanned::Spanned as _;
use syn::{Data, DeriveInput, Fields, Ident, Type, WherePredicate};

use crate::attr::{self, Codec, ContainerParquet, ContainerSerde, Errors, FieldParquet, Unit};
use crate::bound;
use crate::case::RenameRule;
use crate::direct::DirectFields;

/// One serialized field, with everything the expansion needs.
struct Field {
    /// Column name.
    name: String,
    /// Span for errors about the name.
    name_span: Span,
    /// The type whose schema the field takes (`as_type` or the declared type).
    ty: Type,
    /// `#[parquet(...)]` options.
    parquet: FieldParquet,
    /// `bytes` from `#[parquet(bytes)]` or `#[serde(with = "serde_bytes")]`.
    bytes: bool,
    /// `json` from `#[parquet(json)]` or `#[serde(with = "parquet_serde::json")]`.
    json: bool,
    /// `bson` from `#[parquet(bson)]` or `#[serde(with = "parquet_serde::bson")]`.
    bson: bool,
    /// `skip_serializing_if`: serde may leave it out, so the node is optional.
    skippable: bool,
    /// `#[serde(flatten)]`.
    flatten: bool,
    /// The field's name in Rust (`None` for a tuple field).
    ident: Option<Ident>,
    /// Serialized by a `with` / `serialize_with` function, or written by `as_type`.
    custom: bool,
}

/// Expands `#[derive(ParquetSchema)]` for `input`.
pub fn derive(input: &DeriveInput) -> syn::Result<TokenStream> {
    let mut errors = Errors::default();
    let cparquet = attr::container_parquet(&input.attrs, &mut errors);
    let cserde = attr::container_serde(&input.attrs);
    let krate = cparquet
        .krate
        .clone()
        .unwrap_or_else(|| syn::parse_quote!(::parquet_serde));
    let message = cparquet
        .name
        .clone()
        .or_else(|| cserde.rename.clone())
        .unwrap_or_else(|| input.ident.unraw().to_string());

    let body = match &input.data {
        Data::Struct(data) => {
            if let Some(span) = cparquet.enum_annotation {
                errors.at(
                    span,
                    "`#[parquet(enum)]` goes on an enum whose variants are all unit variants",
                );
            }
            expand_struct(input, &data.fields, &cserde, &mut errors)
        }
        Data::Enum(data) => expand_enum(input, data, &cserde, &cparquet, &mut errors),
        Data::Union(data) => {
            errors.push(syn::Error::new(
                data.union_token.span,
                "ParquetSchema cannot be derived for a union (serde cannot serialize one)",
            ));
            Body::default()
        }
    };
    let assembler = match cparquet.assemble {
        Some(span) => crate::assemble::expand(input, &krate, span, &mut errors),
        None => TokenStream::new(),
    };
    errors.finish()?;
    let mut out = emit(input, &cparquet, &krate, &message, body);
    out.extend(assembler);
    Ok(out)
}

/// The pieces of an impl, before the generics and paths are put around them.
#[derive(Default)]
struct Body {
    /// Statements of `parquet_node`, ending in the node expression.
    node: TokenStream,
    /// Statements of `parquet_collect_column_options`.
    options: TokenStream,
    /// Extra items of the impl (`__PARQUET_IS_OPTION`).
    extra: TokenStream,
    /// Whether the type is a struct with named fields, which `#[serde(flatten)]` may take.
    flattenable: bool,
    /// Field types (`as_type` applied) that need `ParquetSchema`, for bounds.
    types: Vec<Type>,
    /// Extra where-predicates (markers and `FlattenSchema` on generic field types).
    predicates: Vec<TokenStream>,
    /// The fields the direct writer writes (a plain struct with named fields).
    direct: Option<DirectFields>,
}

// ---------------------------------------------------------------------------------------------
// Fields

/// The serialized fields of `fields` (skipped ones left out), named by `rule` unless renamed.
/// Unnamed fields are named `_0`, `_1`, .. by their position.
fn collect_fields(fields: &Fields, rule: Option<RenameRule>, errors: &mut Errors) -> Vec<Field> {
    let mut out = Vec::new();
    for (index, field) in fields.iter().enumerate() {
        let serde = attr::field_serde(&field.attrs);
        let parquet = attr::field_parquet(&field.attrs, errors);
        if serde.skip_serializing {
            continue;
        }
        let (default_name, name_span) = match &field.ident {
            Some(ident) => {
                let raw = ident.unraw().to_string();
                let name = match (&serde.rename, rule) {
                    (Some(rename), _) => rename.clone(),
                    (None, Some(rule)) => rule.apply_to_field(&raw),
                    (None, None) => raw,
                };
                (name, ident.span())
            }
            None => (format!("_{index}"), field.ty.span()),
        };
        let (name, name_span) = match &parquet.name {
            Some(n) => (n.value.clone(), n.span),
            None => (default_name, name_span),
        };
        // With `geometry`/`geography` the `with` module writes the WKB the type's schema names.
        if let (Some(span), None, None) = (serde.custom_with, &parquet.as_type, &parquet.geo) {
            errors.at(
                span,
                "ParquetSchema cannot see what `#[serde(with)]` / `serialize_with` writes; add \
                 `#[parquet(as_type = \"Type\")]` naming a type that serializes the same way",
            );
        }
        if let Some(span) = serde.flatten {
            if field.ident.is_none() {
                errors.at(span, "`#[serde(flatten)]` needs a named field");
            }
            if let Some(attr_span) = parquet.attr_span {
                errors.at(
                    attr_span,
                    "`#[parquet(...)]` cannot go on a `#[serde(flatten)]` field (its fields \
                     are spliced into this struct; put options on them)",
                );
            }
        }
        // `with = "parquet_serde::json"` writes the field as its JSON text: a String's schema.
        // `with = "parquet_serde::bson"` writes a document's bytes, `zoned_utc` an instant.
        let span = field.ty.span();
        let ty = match (
            &parquet.as_type,
            serde.json_with,
            serde.bson_with,
            serde.zoned_with,
        ) {
            (Some(ty), ..) => ty.clone(),
            (None, true, ..) => syn::parse_quote_spanned!(span=> ::std::string::String),
            (None, _, Some(false), _) if !is_option(&field.ty) => {
                syn::parse_quote_spanned!(span=> ::std::vec::Vec<u8>)
            }
            (None, _, Some(_), _) => {
                syn::parse_quote_spanned!(span=> ::std::option::Option<::std::vec::Vec<u8>>)
            }
            (None, _, _, Some(false)) if !is_option(&field.ty) => {
                syn::parse_quote_spanned!(span=> ::jiff::Timestamp)
            }
            (None, _, _, Some(_)) => {
                syn::parse_quote_spanned!(span=> ::std::option::Option<::jiff::Timestamp>)
            }
            (None, false, None, None) => field.ty.clone(),
        };
        let custom = serde.custom_with.is_some()
            || serde.json_with
            || serde.serde_bytes
            || serde.bson_with.is_some()
            || serde.zoned_with.is_some()
            || parquet.as_type.is_some();
        out.push(Field {
            name,
            name_span,
            ty,
            bytes: parquet.bytes.is_some() || serde.serde_bytes || serde.bson_with.is_some(),
            json: parquet.json.is_some() || serde.json_with,
            bson: parquet.bson.is_some() || serde.bson_with.is_some(),
            parquet,
            skippable: serde.skip_serializing_if,
            flatten: serde.flatten.is_some(),
            ident: field.ident.clone(),
            custom,
        });
    }
    let mut seen = HashSet::new();
    for field in out.iter().filter(|f| !f.flatten) {
        if !seen.insert(field.name.clone()) {
            errors.at(
                field.name_span,
                format!("duplicate column name `{}` in one group", field.name),
            );
        }
    }
    if out.iter().any(|f| f.flatten) {
        for field in &out {
            if let Some(name) = &field.parquet.name {
                errors.at(
                    name.span,
                    "`#[parquet(name)]` cannot be used in a struct with a `#[serde(flatten)]` \
                     field: serde writes such a struct as a map keyed by serde names; use \
                     `#[serde(rename)]`",
                );
            }
        }
    }
    out
}

/// Whether the struct is `#[repr(packed)]` (its fields cannot be borrowed, which the direct
/// writer does).
fn is_packed(input: &DeriveInput) -> bool {
    let mut packed = false;
    for attr in input.attrs.iter().filter(|a| a.path().is_ident("repr")) {
        // `packed`, `packed(N)`, beside `C`, `align(N)`, ...
        let _ = attr.parse_nested_meta(|meta| {
            packed |= meta.path.is_ident("packed");
            if meta.input.peek(syn::token::Paren) {
                let _args;
                syn::parenthesized!(_args in meta.input);
            }
            Ok(())
        });
    }
    packed
}

/// The direct row writer of a struct with named fields (see `direct.rs`): none when serde
/// writes a field other than as the field's own value (`flatten`, `skip_serializing_if`,
/// `with`, `as_type`).
fn direct_fields(fields: &[Field]) -> Option<DirectFields> {
    let plain = fields
        .iter()
        .all(|f| !f.flatten && !f.skippable && !f.custom && f.ident.is_some());
    if !plain {
        return None;
    }
    DirectFields::new(
        fields
            .iter()
            .filter_map(|f| Some((f.ident.clone()?, f.ty.clone())))
            .collect(),
    )
}

/// `&FieldAttrs` for `field`, built as a constant.
fn attrs_expr(field: &Field) -> TokenStream {
    let p = &field.parquet;
    let mut sets = Vec::new();
    let unit = |u: Unit| match u {
        Unit::Millis => quote!(__p::TimeUnit::Millis),
        Unit::Micros => quote!(__p::TimeUnit::Micros),
        Unit::Nanos => quote!(__p::TimeUnit::Nanos),
    };
    if let Some(t) = &p.timestamp {
        let u = unit(t.value);
        sets.push(quote!(__a.timestamp = __p::Some(#u);));
    }
    if let Some(utc) = &p.utc {
        let v = utc.value;
        sets.push(quote!(__a.utc = __p::Some(#v);));
    }
    if p.date.is_some() {
        sets.push(quote!(__a.date = true;));
    }
    if let Some(t) = &p.time {
        let u = unit(t.value);
        sets.push(quote!(__a.time = __p::Some(#u);));
    }
    if let Some(d) = &p.decimal {
        let (prec, scale) = d.value;
        if prec > 38 {
            sets.push(quote!(__a.decimal = __p::Some(__p::decimal_wide(#prec, #scale));));
        } else {
            sets.push(quote!(__a.decimal = __p::Some(__p::decimal(#prec, #scale));));
        }
    }
    if p.uuid.is_some() {
        sets.push(quote!(__a.uuid = true;));
    }
    if field.json {
        sets.push(quote!(__a.json = true;));
    }
    if field.bytes {
        sets.push(quote!(__a.bytes = true;));
    }
    if field.bson {
        sets.push(quote!(__a.bson = true;));
    }
    if let Some(geo) = &p.geo {
        let g = &geo.value;
        let crs = match &g.crs {
            Some(c) => quote!(__p::Some(#c)),
            None => quote!(__p::None),
        };
        let spec = if g.geography {
            let alg = match g.algorithm {
                Some(v) => {
                    let v = Ident::new(v, Span::call_site());
                    quote!(__p::Some(__p::EdgeInterpolationAlgorithm::#v))
                }
                None => quote!(__p::None),
            };
            quote!(__p::GeoSpec::geography(#crs, #alg))
        } else {
            quote!(__p::GeoSpec::geometry(#crs))
        };
        sets.push(quote!(__a.geo = __p::Some(#spec);));
    }
    if let Some(enc) = p.encoding {
        sets.push(quote!(__a.encoding = __p::Some(__p::Encoding::from_i32(#enc));));
    }
    if let Some(codec) = p.compression {
        let c = match codec {
            Codec::Uncompressed => quote!(__p::Compression::Uncompressed),
            Codec::Snappy => quote!(__p::Compression::Snappy),
            Codec::Gzip(l) => quote!(__p::Compression::Gzip(#l)),
            Codec::Brotli(l) => quote!(__p::Compression::Brotli(#l)),
            Codec::Zstd(l) => quote!(__p::Compression::Zstd(#l)),
            Codec::Lz4Raw => quote!(__p::Compression::Lz4Raw),
        };
        sets.push(quote!(__a.compression = __p::Some(#c);));
    }
    if let Some(d) = p.dictionary {
        sets.push(quote!(__a.dictionary = __p::Some(#d);));
    }
    if let Some((ndv, fpp)) = p.bloom_filter {
        let ndv = match ndv {
            Some(n) => quote!(__p::Some(#n)),
            None => quote!(__p::None),
        };
        sets.push(
            quote!(__a.bloom_filter = __p::Some(__p::BloomFilterOptions { ndv: #ndv, fpp: #fpp });),
        );
    }
    if sets.is_empty() {
        return quote!(&__p::FieldAttrs::new());
    }
    quote!(&{
        const __A: __p::FieldAttrs = {
            let mut __a = __p::FieldAttrs::new();
            #(#sets)*
            __a
        };
        __A
    })
}

/// `Option<i32>` expression for the field id.
fn field_id_expr(field: &Field) -> TokenStream {
    match field.parquet.field_id {
        Some(id) => quote!(__p::Some(#id)),
        None => quote!(__p::None),
    }
}

/// The marker checks of `field`'s type options, spanned at its type; and, for a type that
/// mentions a type parameter, the matching where-predicates.
fn marker_checks(field: &Field, body: &mut Body, params: &[Ident]) -> TokenStream {
    let p = &field.parquet;
    let mut markers: Vec<(&str, &str)> = Vec::new();
    if p.timestamp.is_some() {
        markers.push(("assert_timestamp", "SupportsTimestamp"));
    }
    if p.date.is_some() {
        markers.push(("assert_date", "SupportsDate"));
    }
    match p.time.as_ref().map(|t| t.value) {
        Some(Unit::Millis) => markers.push(("assert_time_millis", "SupportsTimeMillis")),
        Some(_) => markers.push(("assert_time_micros", "SupportsTimeMicros")),
        None => {}
    }
    if let Some(d) = &p.decimal {
        markers.push(("assert_decimal", "SupportsDecimal"));
        if d.value.0 > 38 {
            markers.push(("assert_wide_decimal", "SupportsWideDecimal"));
        }
    }
    if p.uuid.is_some() {
        markers.push(("assert_uuid", "SupportsUuid"));
    }
    if field.json {
        markers.push(("assert_json", "SupportsJson"));
    }
    if field.bytes {
        markers.push(("assert_bytes", "SupportsBytes"));
    }
    if field.bson {
        markers.push(("assert_bson", "SupportsBson"));
    }
    if p.geo.is_some() {
        markers.push(("assert_geo", "SupportsGeo"));
    }
    if field.flatten {
        markers.push(("assert_flatten", "FlattenSchema"));
    }
    let ty = &field.ty;
    let span = ty.span();
    let generic = bound::mentions_params(ty, params);
    let mut out = TokenStream::new();
    for (func, marker) in markers {
        let func = Ident::new(func, span);
        out.extend(quote_spanned!(span=> __p::#func::<#ty>();));
        if generic {
            let marker = Ident::new(marker, span);
            body.predicates
                .push(quote_spanned!(span=> #ty: __p::#marker));
        }
    }
    out
}

/// Statements pushing the nodes of `fields` onto `__fields`, and the matching column-option
/// statements; records types for bounds.
fn fields_code(fields: &[Field], body: &mut Body, params: &[Ident]) -> (TokenStream, TokenStream) {
    let mut node = TokenStream::new();
    let mut options = TokenStream::new();
    for field in fields {
        node.extend(marker_checks(field, body, params));
        let ty = &field.ty;
        if field.flatten {
            node.extend(quote!(__p::flatten_into::<#ty>(&mut __fields);));
            options.extend(quote!(__p::flatten_options::<#ty>(__path, __out);));
        } else if field.parquet.variant.is_some() {
            // Any serde type: no ParquetSchema bound on it.
            let name = &field.name;
            let id = field_id_expr(field);
            match &field.parquet.variant_shred {
                Some(shred) => node.extend(quote!(
                    __fields.push(__p::variant_shredded_field::<#shred>(#name, #id));
                )),
                None => node.extend(quote!(__fields.push(__p::variant_field(#name, #id));)),
            }
            continue;
        } else {
            let name = &field.name;
            let attrs = attrs_expr(field);
            let id = field_id_expr(field);
            let skippable = field.skippable;
            node.extend(quote!(
                __fields.push(__p::field::<#ty>(#name, #attrs, #id, #skippable));
            ));
            options.extend(quote!(__p::field_options::<#ty>(__path, #name, #attrs, __out);));
        }
        body.types.push(ty.clone());
    }
    (node, options)
}

/// A group of `fields` named by the expression `name`.
fn group_code(
    fields: &[Field],
    name: TokenStream,
    body: &mut Body,
    params: &[Ident],
) -> (TokenStream, TokenStream) {
    let (pushes, options) = fields_code(fields, body, params);
    let n = fields.len();
    let node = quote!({
        let mut __fields: __p::Vec<__p::SchemaNode> = __p::Vec::with_capacity(#n);
        #pushes
        __p::group(#name, __fields)
    });
    (node, options)
}

// ---------------------------------------------------------------------------------------------
// Structs

/// Body for a struct.
fn expand_struct(
    input: &DeriveInput,
    fields: &Fields,
    cserde: &ContainerSerde,
    errors: &mut Errors,
) -> Body {
    let params = bound::type_params(&input.generics);
    if let Some(into) = &cserde.into {
        return into_body(into);
    }
    if let Some((key, span)) = &cserde.unsupported_repr {
        if key == "tag" {
            errors.at(
                *span,
                "`#[serde(tag)]` on a struct adds a field serde writes; ParquetSchema does not \
                 support it (add the field to the struct instead)",
            );
        }
    }
    let mut body = Body::default();
    match fields {
        Fields::Unit => {
            body.node = quote!(__p::unit(__name));
        }
        Fields::Named(_) if !cserde.transparent => {
            let fields = collect_fields(fields, cserde.rename_all, errors);
            if fields.is_empty() {
                errors.at(
                    input.ident.span(),
                    "a struct with no serialized fields has no Parquet schema (a group needs \
                     at least one field)",
                );
            }
            let (node, options) = group_code(&fields, quote!(__name), &mut body, &params);
            body.node = node;
            body.options = options;
            body.flattenable = fields.iter().all(|f| f.parquet.name.is_none());
            if !is_packed(input) {
                body.direct = direct_fields(&fields);
            }
        }
        _ => {
            let mut all = collect_fields(fields, cserde.rename_all, errors);
            let newtype = cserde.transparent || fields.len() == 1;
            if newtype {
                if all.len() != 1 {
                    errors.at(
                        input.ident.span(),
                        "a transparent or newtype struct needs exactly one serialized field",
                    );
                    return body;
                }
                // The length was checked just above.
                let field = all.remove(0);
                newtype_body(&field, &mut body, &params, errors);
            } else {
                if all.is_empty() {
                    errors.at(
                        input.ident.span(),
                        "a tuple struct with no serialized fields has no Parquet schema",
                    );
                }
                let (node, options) = group_code(&all, quote!(__name), &mut body, &params);
                body.node = node;
                body.options = options;
            }
        }
    }
    body
}

/// Body for a newtype (or transparent) struct: the inner field's node under the outer name.
fn newtype_body(field: &Field, body: &mut Body, params: &[Ident], errors: &mut Errors) {
    if let Some(name) = &field.parquet.name {
        errors.at(
            name.span,
            "`#[parquet(name)]` has no effect on the field of a newtype struct (the field that \
             holds the newtype names the column)",
        );
    }
    if field.flatten {
        errors.at(
            field.name_span,
            "a newtype struct's field cannot be flattened",
        );
    }
    let checks = marker_checks(field, body, params);
    let ty = &field.ty;
    let attrs = attrs_expr(field);
    let id = field_id_expr(field);
    body.node = quote!({
        #checks
        __p::inner::<#ty>(__name, #attrs, __attrs, #id)
    });
    body.options = quote!(__p::inner_options::<#ty>(__path, #attrs, __out););
    body.extra = quote!(
        const __PARQUET_IS_OPTION: bool = <#ty as __p::ParquetSchema>::__PARQUET_IS_OPTION;
    );
    body.types.push(ty.clone());
}

/// Body for `#[serde(into = "Type")]`: the schema of `Type`.
fn into_body(into: &Type) -> Body {
    Body {
        node: quote!(<#into as __p::ParquetSchema>::parquet_node(__name, __attrs)),
        options: quote!(<#into as __p::ParquetSchema>::parquet_collect_column_options(__path, __out);),
        extra: quote!(
            const __PARQUET_IS_OPTION: bool = <#into as __p::ParquetSchema>::__PARQUET_IS_OPTION;
        ),
        flattenable: false,
        types: vec![into.clone()],
        predicates: Vec::new(),
        direct: None,
    }
}

// ---------------------------------------------------------------------------------------------
// Enums

/// Body for an enum.
fn expand_enum(
    input: &DeriveInput,
    data: &syn::DataEnum,
    cserde: &ContainerSerde,
    cparquet: &ContainerParquet,
    errors: &mut Errors,
) -> Body {
    let params = bound::type_params(&input.generics);
    if let Some((key, span)) = &cserde.unsupported_repr {
        errors.at(
            *span,
            format!(
                "`#[serde({key})]` changes how serde writes the enum; ParquetSchema supports \
                 only externally tagged enums (serde's default)"
            ),
        );
        return Body::default();
    }
    if let Some(into) = &cserde.into {
        return into_body(into);
    }
    let mut variants = Vec::new();
    for variant in &data.variants {
        attr::reject_variant_parquet(&variant.attrs, errors);
        let vserde = attr::variant_serde(&variant.attrs);
        if vserde.skip_serializing {
            continue;
        }
        if let Some(span) = vserde.untagged {
            errors.at(span, "untagged variants are not supported by ParquetSchema");
        }
        if let Some(span) = vserde.with {
            errors.at(
                span,
                "ParquetSchema cannot see what `#[serde(with)]` / `serialize_with` writes for \
                 a variant",
            );
        }
        let raw = variant.ident.unraw().to_string();
        let name = match (&vserde.rename, cserde.rename_all) {
            (Some(rename), _) => rename.clone(),
            (None, Some(rule)) => rule.apply_to_variant(&raw),
            (None, None) => raw,
        };
        let field_rule = vserde.rename_all.or(cserde.rename_all_fields);
        variants.push((variant, name, field_rule));
    }
    if variants.is_empty() {
        errors.at(
            input.ident.span(),
            "an enum with no serialized variants has no Parquet schema",
        );
        return Body::default();
    }
    let mut body = Body::default();
    if variants
        .iter()
        .all(|(v, _, _)| matches!(v.fields, Fields::Unit))
    {
        // STRING by default: every reader reads it as text (pyarrow reads ENUM as binary).
        body.node = if cparquet.enum_annotation.is_some() {
            quote!(__p::enum_leaf(__name))
        } else {
            quote!(__p::string_leaf(__name))
        };
        return body;
    }
    if let Some(span) = cparquet.enum_annotation {
        errors.at(
            span,
            "`#[parquet(enum)]` goes on an enum whose variants are all unit variants",
        );
    }
    let mut seen = HashSet::new();
    let mut pushes = TokenStream::new();
    let mut options = TokenStream::new();
    for (variant, name, rule) in &variants {
        if !seen.insert(name.clone()) {
            errors.at(
                variant.ident.span(),
                format!("duplicate variant name `{name}`"),
            );
        }
        match &variant.fields {
            Fields::Unit => {
                pushes.extend(quote!(__variants.push(__p::optional(__p::unit(#name)));));
            }
            Fields::Unnamed(unnamed) if unnamed.unnamed.len() == 1 => {
                let mut fields = collect_fields(&variant.fields, *rule, errors);
                if fields.len() != 1 {
                    errors.at(
                        variant.ident.span(),
                        "the field of a newtype variant cannot be skipped",
                    );
                    continue;
                }
                let field = fields.remove(0);
                if let Some(n) = &field.parquet.name {
                    errors.at(
                        n.span,
                        "`#[parquet(name)]` has no effect on the field of a newtype variant (the \
                         variant's serde name names the column)",
                    );
                }
                let checks = marker_checks(&field, &mut body, &params);
                let ty = &field.ty;
                let attrs = attrs_expr(&field);
                let id = field_id_expr(&field);
                pushes.extend(quote!({
                    #checks
                    #[allow(clippy::let_unit_value)]
                    let () = __p::AssertVariantNotOption::<#ty>::OK;
                    __variants.push(__p::optional(__p::field::<#ty>(#name, #attrs, #id, false)));
                }));
                options.extend(quote!(__p::field_options::<#ty>(__path, #name, #attrs, __out);));
                body.types.push(ty.clone());
            }
            _ => {
                let fields = collect_fields(&variant.fields, *rule, errors);
                if let Some(f) = fields.iter().find(|f| f.flatten) {
                    errors.at(
                        f.name_span,
                        "`#[serde(flatten)]` inside an enum variant is not supported by \
                         ParquetSchema",
                    );
                }
                if fields.is_empty() {
                    errors.at(
                        variant.ident.span(),
                        "a variant with no serialized fields has no Parquet schema; make it \
                         a unit variant",
                    );
                }
                let (group, field_options) = group_code(&fields, quote!(#name), &mut body, &params);
                pushes.extend(quote!(__variants.push(__p::optional(#group));));
                options.extend(quote!(
                    __p::nested(__path, #name, |__path| { #field_options });
                ));
            }
        }
    }
    let n = variants.len();
    body.node = quote!({
        let mut __variants: __p::Vec<__p::SchemaNode> = __p::Vec::with_capacity(#n);
        #pushes
        __p::group(__name, __variants)
    });
    body.options = options;
    body
}

// ---------------------------------------------------------------------------------------------
// Output

/// The impl(s) for `body`.
fn emit(
    input: &DeriveInput,
    cparquet: &ContainerParquet,
    krate: &syn::Path,
    message: &str,
    body: Body,
) -> TokenStream {
    let ident = &input.ident;
    let params = bound::type_params(&input.generics);
    let mut generics = input.generics.clone();
    let preds: Vec<WherePredicate> = match &cparquet.bound {
        Some(given) => given.clone(),
        None => {
            let mut preds = bound::inferred(&body.types, &params);
            for extra in &body.predicates {
                // Built from a type and a path, so it parses as a predicate.
                if let Ok(pred) = syn::parse2::<WherePredicate>(extra.clone()) {
                    preds.push(pred);
                }
            }
            preds
        }
    };
    generics.make_where_clause().predicates.extend(preds);
    let (impl_generics, ty_generics, where_clause) = generics.split_for_impl();
    let Body {
        node,
        options,
        extra,
        flattenable,
        direct,
        ..
    } = body;
    let direct_items = direct.as_ref().map(DirectFields::schema_items);
    let direct_impl = direct
        .as_ref()
        .map(|d| d.value_impl(ident, &impl_generics, &ty_generics, where_clause));
    let flatten_impl = flattenable.then(|| {
        quote!(
            #[automatically_derived]
            impl #impl_generics __p::FlattenSchema for #ident #ty_generics #where_clause {}
        )
    });
    let krate_tokens = krate.to_token_stream();
    quote!(
        #[doc(hidden)]
        #[allow(non_upper_case_globals, unused_qualifications, clippy::all)]
        const _: () = {
            use #krate_tokens::__private as __p;

            #[automatically_derived]
            impl #impl_generics __p::ParquetSchema for #ident #ty_generics #where_clause {
                const PARQUET_MESSAGE_NAME: &'static str = #message;

                fn parquet_node(__name: &str, __attrs: &__p::FieldAttrs) -> __p::SchemaNode {
                    #node
                }

                fn parquet_collect_column_options(
                    __path: &mut __p::Vec<__p::String>,
                    __out: &mut __p::Vec<__p::ColumnOptions>,
                ) {
                    #options
                }

                #extra
                #direct_items
            }

            #flatten_impl
            #direct_impl
        };
    )
}

/// Whether `ty` is spelled `Option<..>` (any path ending in `Option`): a field that
/// `with = "parquet_serde::zoned_utc"` stores as an optional instant.
fn is_option(ty: &syn::Type) -> bool {
    match ty {
        syn::Type::Path(p) => p.path.segments.last().is_some_and(|s| s.ident == "Option"),
        syn::Type::Group(g) => is_option(&g.elem),
        syn::Type::Paren(p) => is_option(&p.elem),
        _ => false,
    }
}
