//! Parsing and checking of `#[parquet(...)]` and the `#[serde(...)]` attributes that change
//! what serde writes.
//!
//! Every problem with a `#[parquet]` attribute is an error spanned at the offending token.
//! `#[serde]` attributes are read leniently: serde's own derive reports their mistakes, so an
//! attribute that does not parse here is skipped.

use proc_macro2::{Span, TokenStream};
use syn::meta::ParseNestedMeta;
use syn::punctuated::Punctuated;
use syn::{Attribute, Lit, LitInt, LitStr, Token, WherePredicate};

use crate::case::RenameRule;

/// Collects errors so one expansion reports all of them.
#[derive(Default)]
pub struct Errors(Option<syn::Error>);

impl Errors {
    /// Records `err`.
    pub fn push(&mut self, err: syn::Error) {
        match &mut self.0 {
            Some(all) => all.combine(err),
            None => self.0 = Some(err),
        }
    }

    /// Records an error at `span`.
    pub fn at(&mut self, span: Span, msg: impl std::fmt::Display) {
        self.push(syn::Error::new(span, msg));
    }

    /// `Err` with every recorded error, or `Ok`.
    pub fn finish(self) -> syn::Result<()> {
        match self.0 {
            Some(err) => Err(err),
            None => Ok(()),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// #[parquet(...)] on fields

/// A TIME / TIMESTAMP unit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unit {
    Millis,
    Micros,
    Nanos,
}

/// A codec with its level, as written in `compression = "..."`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Codec {
    Uncompressed,
    Snappy,
    Gzip(u32),
    Brotli(u32),
    Zstd(i32),
    Lz4Raw,
}

/// The value encodings `encoding = "..."` may name: the name, as
/// `parquet_serde::core::column::Encoding`'s `FromStr` accepts it (compared after the same
/// normalisation: trimmed, lower case, `-` for `_`), and its number in parquet.thrift (the
/// expansion is `Encoding::from_i32(n)`, so ALP, which the enum does not name yet, needs no
/// special case).
pub const ENCODINGS: &[(&str, i32)] = &[
    ("plain", 0),
    ("rle", 3),
    ("delta_binary_packed", 5),
    ("delta_length_byte_array", 6),
    ("delta_byte_array", 7),
    ("byte_stream_split", 9),
    ("alp", 10),
    ("group_var_int", 1),
];

/// The other names `Encoding`'s `FromStr` accepts: encodings that are not value encodings
/// (the writer would refuse them), refused here at compile time with a reason.
pub const NOT_VALUE_ENCODINGS: &[(&str, &str)] = &[
    ("rle_dictionary", DICTIONARY_HINT),
    ("dictionary", DICTIONARY_HINT),
    ("plain_dictionary", DICTIONARY_HINT),
    ("bit_packed", "it is a deprecated encoding of levels"),
];

const DICTIONARY_HINT: &str = "dictionary encoding is chosen with `dictionary = true`";

/// The names `compression = "..."` takes, as `parquet_serde::Compression`'s `FromStr`
/// accepts them (after the same normalisation), and the codec each means with its default
/// level.
pub const CODECS: &[(&str, Codec)] = &[
    ("uncompressed", Codec::Uncompressed),
    ("none", Codec::Uncompressed),
    ("snappy", Codec::Snappy),
    ("gzip", Codec::Gzip(6)),
    ("brotli", Codec::Brotli(1)),
    ("zstd", Codec::Zstd(3)),
    ("lz4_raw", Codec::Lz4Raw),
    ("lz4", Codec::Lz4Raw),
    ("lz4raw", Codec::Lz4Raw),
];

/// A value with the span of the token it came from.
#[derive(Debug, Clone)]
pub struct Spanned<T> {
    pub value: T,
    pub span: Span,
}

/// What `#[parquet(...)]` says about one field.
#[derive(Default)]
pub struct FieldParquet {
    pub timestamp: Option<Spanned<Unit>>,
    pub utc: Option<Spanned<bool>>,
    pub date: Option<Span>,
    pub time: Option<Spanned<Unit>>,
    pub decimal: Option<Spanned<(u32, u32)>>,
    pub uuid: Option<Span>,
    pub json: Option<Span>,
    /// `variant`: the field (any serde type) is stored as a VARIANT group.
    pub variant: Option<Span>,
    /// `variant(shred = "Type")`: the VARIANT group shreds the fields `Type` names into
    /// `typed_value` columns.
    pub variant_shred: Option<syn::Type>,
    pub bytes: Option<Span>,
    pub bson: Option<Span>,
    /// `geometry(crs = ..)` / `geography(crs = .., algorithm = ..)`.
    pub geo: Option<Spanned<GeoAttr>>,
    pub name: Option<Spanned<String>>,
    pub field_id: Option<i32>,
    /// `encoding = "..."`: the encoding's number in parquet.thrift.
    pub encoding: Option<i32>,
    pub compression: Option<Codec>,
    pub dictionary: Option<bool>,
    /// `bloom_filter` / `bloom_filter(ndv = N, fpp = F)`: expected distinct values and
    /// false positive probability.
    pub bloom_filter: Option<(Option<u64>, f64)>,
    pub as_type: Option<syn::Type>,
    /// Span of the first `#[parquet]` attribute, for errors about the field as a whole.
    pub attr_span: Option<Span>,
}

const FIELD_KEYS: &str = "timestamp, utc, date, time, decimal, uuid, json, variant, bytes, bson, \
                          geometry, geography, name, field_id, as_type, encoding, compression, \
                          dictionary, bloom_filter";

/// Parses every `#[parquet(...)]` in `attrs` as field options.
pub fn field_parquet(attrs: &[Attribute], errors: &mut Errors) -> FieldParquet {
    let mut out = FieldParquet::default();
    for attr in attrs.iter().filter(|a| a.path().is_ident("parquet")) {
        out.attr_span.get_or_insert(
            attr.path()
                .get_ident()
                .map_or_else(Span::call_site, |i| i.span()),
        );
        if let Err(err) = attr.parse_nested_meta(|meta| parse_field_key(&meta, &mut out)) {
            errors.push(err);
        }
    }
    check_type_options(&out, errors);
    out
}

/// Records one key of a field's `#[parquet(...)]`.
fn parse_field_key(meta: &ParseNestedMeta, out: &mut FieldParquet) -> syn::Result<()> {
    let key = path_name(&meta.path);
    let span = meta_span(meta);
    macro_rules! once {
        ($slot:expr) => {
            if $slot.is_some() {
                return Err(meta.error(format!("duplicate parquet attribute `{key}`")));
            }
        };
    }
    match key.as_str() {
        "timestamp" => {
            once!(out.timestamp);
            let unit = parse_unit(meta, "timestamp")?;
            out.timestamp = Some(Spanned { value: unit, span });
        }
        "time" => {
            once!(out.time);
            let unit = parse_unit(meta, "time")?;
            out.time = Some(Spanned { value: unit, span });
        }
        "utc" => {
            once!(out.utc);
            let value = parse_bool(meta, "utc")?;
            out.utc = Some(Spanned { value, span });
        }
        "date" => {
            once!(out.date);
            no_value(meta, "date")?;
            out.date = Some(span);
        }
        "uuid" => {
            once!(out.uuid);
            no_value(meta, "uuid")?;
            out.uuid = Some(span);
        }
        "json" => {
            once!(out.json);
            no_value(meta, "json")?;
            out.json = Some(span);
        }
        "variant" => {
            once!(out.variant);
            out.variant = Some(span);
            if meta.input.peek(Token![=]) {
                return Err(meta.error("expected `variant` or `variant(shred = \"Type\")`"));
            }
            if meta.input.peek(syn::token::Paren) {
                meta.parse_nested_meta(|inner| {
                    if !inner.path.is_ident("shred") || out.variant_shred.is_some() {
                        return Err(inner.error("expected one `shred = \"Type\"`"));
                    }
                    let lit = parse_str(&inner, "shred")?;
                    let ty = lit.parse::<syn::Type>().map_err(|err| {
                        syn::Error::new(lit.span(), format!("`shred` must name a type: {err}"))
                    })?;
                    out.variant_shred = Some(ty);
                    Ok(())
                })?;
            }
        }
        "bytes" => {
            once!(out.bytes);
            no_value(meta, "bytes")?;
            out.bytes = Some(span);
        }
        "bson" => {
            once!(out.bson);
            no_value(meta, "bson")?;
            out.bson = Some(span);
        }
        "geometry" | "geography" => {
            if out.geo.is_some() {
                return Err(meta.error("duplicate parquet attribute `geometry`/`geography`"));
            }
            let value = parse_geo(meta, key == "geography")?;
            out.geo = Some(Spanned { value, span });
        }
        "decimal" => {
            once!(out.decimal);
            let value = parse_decimal(meta)?;
            out.decimal = Some(Spanned { value, span });
        }
        "name" => {
            once!(out.name);
            let lit = parse_str(meta, "name")?;
            let value = lit.value();
            if value.is_empty() {
                return Err(syn::Error::new(
                    lit.span(),
                    "a column name must not be empty",
                ));
            }
            out.name = Some(Spanned {
                value,
                span: lit.span(),
            });
        }
        "field_id" => {
            once!(out.field_id);
            let lit: LitInt = parse_lit(meta, "field_id", "an integer")?;
            let id = lit.base10_parse::<i32>().map_err(|_| {
                syn::Error::new(lit.span(), "`field_id` must fit a 32-bit signed integer")
            })?;
            out.field_id = Some(id);
        }
        "as_type" => {
            once!(out.as_type);
            let lit = parse_str(meta, "as_type")?;
            let ty = lit.parse::<syn::Type>().map_err(|err| {
                syn::Error::new(lit.span(), format!("`as_type` must name a type: {err}"))
            })?;
            out.as_type = Some(ty);
        }
        "encoding" => {
            once!(out.encoding);
            let lit = parse_str(meta, "encoding")?;
            out.encoding = Some(parse_encoding(&lit)?);
        }
        "compression" => {
            once!(out.compression);
            let lit = parse_str(meta, "compression")?;
            out.compression = Some(parse_codec(&lit)?);
        }
        "dictionary" => {
            once!(out.dictionary);
            out.dictionary = Some(if meta.input.peek(Token![=]) {
                parse_bool(meta, "dictionary")?
            } else {
                true
            });
        }
        "bloom_filter" => {
            once!(out.bloom_filter);
            out.bloom_filter = Some(parse_bloom_filter(meta)?);
        }
        _ => {
            return Err(meta.error(format!(
                "unknown parquet attribute `{key}`; expected one of: {FIELD_KEYS}"
            )))
        }
    }
    Ok(())
}

/// At most one option that picks the column's type; `utc` only with `timestamp` or `time`.
fn check_type_options(attrs: &FieldParquet, errors: &mut Errors) {
    let chosen: Vec<(&str, Span)> = [
        ("timestamp", attrs.timestamp.as_ref().map(|s| s.span)),
        ("date", attrs.date),
        ("time", attrs.time.as_ref().map(|s| s.span)),
        ("decimal", attrs.decimal.as_ref().map(|s| s.span)),
        ("uuid", attrs.uuid),
        ("json", attrs.json),
        ("variant", attrs.variant),
        ("bytes", attrs.bytes),
        ("bson", attrs.bson),
        ("geometry", attrs.geo.as_ref().map(|g| g.span)),
    ]
    .into_iter()
    .filter_map(|(name, span)| span.map(|s| (name, s)))
    .collect();
    if let Some(((first, _), rest)) = chosen.split_first() {
        for (name, span) in rest {
            errors.at(
                *span,
                format!("`{name}` conflicts with `{first}`: a column has one type"),
            );
        }
    }
    if let Some(utc) = &attrs.utc {
        if attrs.timestamp.is_none() && attrs.time.is_none() {
            errors.at(
                utc.span,
                "`utc` needs `timestamp = \"...\"` or `time = \"...\"`",
            );
        }
    }
}

/// `unit = "millis" | "micros" | "nanos"`.
fn parse_unit(meta: &ParseNestedMeta, key: &str) -> syn::Result<Unit> {
    let lit = parse_str(meta, key)?;
    match lit.value().as_str() {
        "millis" => Ok(Unit::Millis),
        "micros" => Ok(Unit::Micros),
        "nanos" => Ok(Unit::Nanos),
        other => Err(syn::Error::new(
            lit.span(),
            format!("unknown time unit `{other}`; expected \"millis\", \"micros\" or \"nanos\""),
        )),
    }
}

/// What `geometry(...)` / `geography(...)` says.
#[derive(Debug, Clone)]
pub struct GeoAttr {
    pub geography: bool,
    pub crs: Option<String>,
    /// The `EdgeInterpolationAlgorithm` variant name.
    pub algorithm: Option<&'static str>,
}

/// The edge interpolation algorithms of GEOGRAPHY: the name written and the variant.
const ALGORITHMS: &[(&str, &str)] = &[
    ("spherical", "Spherical"),
    ("vincenty", "Vincenty"),
    ("thomas", "Thomas"),
    ("andoyer", "Andoyer"),
    ("karney", "Karney"),
];

/// `geometry`, `geometry(crs = "..")`, `geography`, `geography(crs = "..", algorithm = "..")`.
fn parse_geo(meta: &ParseNestedMeta, geography: bool) -> syn::Result<GeoAttr> {
    let key = if geography { "geography" } else { "geometry" };
    let mut out = GeoAttr {
        geography,
        crs: None,
        algorithm: None,
    };
    if meta.input.peek(Token![=]) {
        return Err(meta.error(format!(
            "expected `{key}` or `{key}(crs = \"...\"{})`",
            if geography {
                ", algorithm = \"...\""
            } else {
                ""
            }
        )));
    }
    if !meta.input.peek(syn::token::Paren) {
        return Ok(out);
    }
    meta.parse_nested_meta(|inner| {
        let param = path_name(&inner.path);
        match param.as_str() {
            "crs" => {
                if out.crs.is_some() {
                    return Err(inner.error(format!("duplicate {key} parameter `crs`")));
                }
                let lit = parse_str(&inner, "crs")?;
                if lit.value().trim().is_empty() {
                    return Err(syn::Error::new(lit.span(), "`crs` must not be empty"));
                }
                out.crs = Some(lit.value());
            }
            "algorithm" if geography => {
                if out.algorithm.is_some() {
                    return Err(inner.error("duplicate geography parameter `algorithm`"));
                }
                let lit = parse_str(&inner, "algorithm")?;
                let name = lit.value().trim().to_ascii_lowercase();
                let Some(&(_, variant)) = ALGORITHMS.iter().find(|(n, _)| *n == name) else {
                    let names: Vec<&str> = ALGORITHMS.iter().map(|(n, _)| *n).collect();
                    return Err(syn::Error::new(
                        lit.span(),
                        format!(
                            "unknown edge interpolation `{}`; expected one of: {}",
                            lit.value(),
                            names.join(", ")
                        ),
                    ));
                };
                out.algorithm = Some(variant);
            }
            "algorithm" => {
                return Err(
                    inner.error("`algorithm` belongs to `geography`: GEOMETRY edges are planar")
                )
            }
            _ => {
                return Err(inner.error(format!(
                    "unknown {key} parameter `{param}`; expected `crs`{}",
                    if geography { " or `algorithm`" } else { "" }
                )))
            }
        }
        Ok(())
    })?;
    Ok(out)
}

/// `decimal(precision = P, scale = S)` with `1 <= P <= 1000` and `S <= P` (scale defaults to
/// 0); above 38 digits only types with `SupportsWideDecimal` take it (checked by the marker).
fn parse_decimal(meta: &ParseNestedMeta) -> syn::Result<(u32, u32)> {
    if !meta.input.peek(syn::token::Paren) {
        return Err(meta.error("expected `decimal(precision = P, scale = S)`"));
    }
    let mut precision: Option<(u32, Span)> = None;
    let mut scale: Option<(u32, Span)> = None;
    meta.parse_nested_meta(|inner| {
        let key = path_name(&inner.path);
        let slot = match key.as_str() {
            "precision" => &mut precision,
            "scale" => &mut scale,
            _ => {
                return Err(inner.error(format!(
                    "unknown decimal parameter `{key}`; expected `precision` or `scale`"
                )))
            }
        };
        if slot.is_some() {
            return Err(inner.error(format!("duplicate decimal parameter `{key}`")));
        }
        let lit: LitInt = parse_lit(&inner, &key, "an integer")?;
        let value = lit
            .base10_parse::<u32>()
            .map_err(|_| syn::Error::new(lit.span(), format!("`{key}` must be a small integer")))?;
        *slot = Some((value, lit.span()));
        Ok(())
    })?;
    let Some((p, p_span)) = precision else {
        return Err(meta.error("`decimal` needs `precision = P` (1 to 1000)"));
    };
    if p == 0 || p > 1000 {
        return Err(syn::Error::new(
            p_span,
            "decimal precision must be 1 to 1000 (above 38 only for decimal text and BigDecimal)",
        ));
    }
    let s = match scale {
        Some((s, s_span)) if s > p => {
            return Err(syn::Error::new(
                s_span,
                format!("decimal scale must not exceed the precision ({p})"),
            ))
        }
        Some((s, _)) => s,
        None => 0,
    };
    Ok((p, s))
}

/// `encoding = "..."`: the names `parquet_serde::core::format::Encoding` parses (any case, `-` for
/// `_`), of value encodings only.
fn parse_encoding(lit: &LitStr) -> syn::Result<i32> {
    let norm = lit.value().trim().to_ascii_lowercase().replace('-', "_");
    if let Some(&(_, value)) = ENCODINGS.iter().find(|(name, _)| *name == norm) {
        return Ok(value);
    }
    if let Some((_, why)) = NOT_VALUE_ENCODINGS.iter().find(|(name, _)| *name == norm) {
        return Err(syn::Error::new(
            lit.span(),
            format!("`{}` is not a value encoding: {why}", lit.value()),
        ));
    }
    let names: Vec<&str> = ENCODINGS.iter().map(|(n, _)| *n).collect();
    Err(syn::Error::new(
        lit.span(),
        format!(
            "unknown encoding `{}`; expected one of: {}",
            lit.value(),
            names.join(", ")
        ),
    ))
}

/// `compression = "..."`: the names and level forms `parquet_serde::Compression` parses:
/// `name`, `name(LEVEL)` or `name:LEVEL`, any case, `-` for `_`.
fn parse_codec(lit: &LitStr) -> syn::Result<Codec> {
    let value = lit.value();
    let text = value.trim();
    let err = |msg: String| syn::Error::new(lit.span(), msg);
    let (name, level) = match text.split_once('(') {
        Some((name, rest)) => {
            let Some(num) = rest.strip_suffix(')') else {
                return Err(err(format!("expected `{}(LEVEL)`", name.trim())));
            };
            (name, Some(num))
        }
        None => match text.split_once(':') {
            Some((name, num)) => (name, Some(num)),
            None => (text, None),
        },
    };
    let name = name.trim().to_ascii_lowercase().replace('-', "_");
    let Some(&(_, codec)) = CODECS.iter().find(|(n, _)| *n == name) else {
        return Err(err(format!(
            "unknown compression `{name}`; expected one of: uncompressed, snappy, gzip, \
             gzip(LEVEL), brotli, brotli(LEVEL), zstd, zstd(LEVEL), lz4_raw"
        )));
    };
    let Some(num) = level else {
        return Ok(codec);
    };
    let level = num.trim().parse::<i64>().map_err(|_| {
        err(format!(
            "compression level `{}` is not an integer",
            num.trim()
        ))
    })?;
    let ranged = |lo: i64, hi: i64| -> syn::Result<i64> {
        if (lo..=hi).contains(&level) {
            Ok(level)
        } else {
            Err(err(format!(
                "{name} level {level} is out of range ({lo} to {hi})"
            )))
        }
    };
    // The ranges checked make the casts lossless; zstd's is the one of the zstd library
    // parquet-serde links (`zstd::compression_level_range()`), which the writer checks again.
    match codec {
        Codec::Gzip(_) => Ok(Codec::Gzip(ranged(0, 9)? as u32)),
        Codec::Brotli(_) => Ok(Codec::Brotli(ranged(0, 11)? as u32)),
        Codec::Zstd(_) => Ok(Codec::Zstd(ranged(-131_072, 22)? as i32)),
        Codec::Uncompressed | Codec::Snappy | Codec::Lz4Raw => {
            Err(err(format!("{name} takes no level")))
        }
    }
}

/// The value after `=`, as a string literal.
fn parse_str(meta: &ParseNestedMeta, key: &str) -> syn::Result<LitStr> {
    parse_lit(meta, key, "a string")
}

/// `bloom_filter` alone or `bloom_filter(ndv = N, fpp = F)` (either may be left out:
/// `ndv` then comes from each chunk's values, `fpp` is 0.01).
fn parse_bloom_filter(meta: &ParseNestedMeta) -> syn::Result<(Option<u64>, f64)> {
    if meta.input.peek(Token![=]) {
        return Err(meta.error("expected `bloom_filter` or `bloom_filter(ndv = N, fpp = F)`"));
    }
    let mut ndv: Option<u64> = None;
    let mut fpp: Option<f64> = None;
    if !meta.input.peek(syn::token::Paren) {
        return Ok((None, 0.01));
    }
    meta.parse_nested_meta(|inner| {
        let key = path_name(&inner.path);
        match key.as_str() {
            "ndv" => {
                if ndv.is_some() {
                    return Err(inner.error("duplicate bloom_filter parameter `ndv`"));
                }
                let lit: LitInt = parse_lit(&inner, "ndv", "a positive integer")?;
                let value = lit.base10_parse::<u64>().ok().filter(|&n| n > 0);
                ndv = Some(value.ok_or_else(|| {
                    syn::Error::new(lit.span(), "`ndv` must be a positive integer")
                })?);
            }
            "fpp" => {
                if fpp.is_some() {
                    return Err(inner.error("duplicate bloom_filter parameter `fpp`"));
                }
                let lit: syn::LitFloat = parse_lit(&inner, "fpp", "a number like 0.01")?;
                let value = lit
                    .base10_parse::<f64>()
                    .ok()
                    .filter(|&p| p > 0.0 && p < 1.0);
                fpp = Some(value.ok_or_else(|| {
                    syn::Error::new(
                        lit.span(),
                        "`fpp` must be a probability between 0 and 1 (exclusive)",
                    )
                })?);
            }
            _ => {
                return Err(inner.error(format!(
                    "unknown bloom_filter parameter `{key}`; expected `ndv` or `fpp`"
                )))
            }
        }
        Ok(())
    })?;
    Ok((ndv, fpp.unwrap_or(0.01)))
}

/// `= true | false`.
fn parse_bool(meta: &ParseNestedMeta, key: &str) -> syn::Result<bool> {
    let lit: syn::LitBool = parse_lit(meta, key, "`true` or `false`")?;
    Ok(lit.value)
}

/// The value after `=`, as a literal of kind `L` (described as `what` in errors).
fn parse_lit<L: FromLit>(meta: &ParseNestedMeta, key: &str, what: &str) -> syn::Result<L> {
    if !meta.input.peek(Token![=]) {
        return Err(meta.error(format!("expected `{key} = ...` with {what}")));
    }
    let lit: Lit = meta.value()?.parse()?;
    let span = lit.span();
    L::from_lit(lit).ok_or_else(|| syn::Error::new(span, format!("`{key}` expects {what}")))
}

/// Literal kinds `parse_lit` can ask for.
trait FromLit: Sized {
    fn from_lit(lit: Lit) -> Option<Self>;
}

impl FromLit for LitStr {
    fn from_lit(lit: Lit) -> Option<Self> {
        match lit {
            Lit::Str(s) => Some(s),
            _ => None,
        }
    }
}

impl FromLit for LitInt {
    fn from_lit(lit: Lit) -> Option<Self> {
        match lit {
            Lit::Int(i) => Some(i),
            _ => None,
        }
    }
}

impl FromLit for syn::LitFloat {
    fn from_lit(lit: Lit) -> Option<Self> {
        match lit {
            Lit::Float(f) => Some(f),
            _ => None,
        }
    }
}

impl FromLit for syn::LitBool {
    fn from_lit(lit: Lit) -> Option<Self> {
        match lit {
            Lit::Bool(b) => Some(b),
            _ => None,
        }
    }
}

/// A flag: no `= value` and no `(...)`.
fn no_value(meta: &ParseNestedMeta, key: &str) -> syn::Result<()> {
    if meta.input.peek(Token![=]) || meta.input.peek(syn::token::Paren) {
        return Err(meta.error(format!("`{key}` takes no value: write `#[parquet({key})]`")));
    }
    Ok(())
}

/// The path of a nested meta as text (`a::b` for multi-segment paths).
fn path_name(path: &syn::Path) -> String {
    path.segments
        .iter()
        .map(|s| s.ident.to_string())
        .collect::<Vec<_>>()
        .join("::")
}

/// The span of a nested meta's key.
fn meta_span(meta: &ParseNestedMeta) -> Span {
    meta.path
        .segments
        .first()
        .map_or_else(Span::call_site, |s| s.ident.span())
}

// ---------------------------------------------------------------------------------------------
// #[parquet(...)] on containers

/// What `#[parquet(...)]` says about the struct or enum.
#[derive(Default)]
pub struct ContainerParquet {
    pub name: Option<String>,
    pub krate: Option<syn::Path>,
    pub bound: Option<Vec<WherePredicate>>,
    /// `enum`: a unit-only enum's leaf is annotated ENUM rather than STRING (the span, for
    /// errors where it does not apply).
    pub enum_annotation: Option<proc_macro2::Span>,
    /// `assemble`: the derive also writes the struct's `Deserialize` (see `assemble.rs`).
    pub assemble: Option<proc_macro2::Span>,
}

/// Parses `#[parquet(...)]` on a container.
pub fn container_parquet(attrs: &[Attribute], errors: &mut Errors) -> ContainerParquet {
    let mut out = ContainerParquet::default();
    for attr in attrs.iter().filter(|a| a.path().is_ident("parquet")) {
        let res = attr.parse_nested_meta(|meta| {
            let key = path_name(&meta.path);
            match key.as_str() {
                "name" => {
                    if out.name.is_some() {
                        return Err(meta.error("duplicate parquet attribute `name`"));
                    }
                    let lit = parse_str(&meta, "name")?;
                    if lit.value().is_empty() {
                        return Err(syn::Error::new(lit.span(), "a message name must not be empty"));
                    }
                    out.name = Some(lit.value());
                }
                "crate" => {
                    if out.krate.is_some() {
                        return Err(meta.error("duplicate parquet attribute `crate`"));
                    }
                    let lit = parse_str(&meta, "crate")?;
                    out.krate = Some(lit.parse::<syn::Path>().map_err(|err| {
                        syn::Error::new(lit.span(), format!("`crate` must be a path: {err}"))
                    })?);
                }
                "enum" => {
                    if out.enum_annotation.is_some() {
                        return Err(meta.error("duplicate parquet attribute `enum`"));
                    }
                    no_value(&meta, "enum")?;
                    out.enum_annotation = Some(syn::spanned::Spanned::span(&meta.path));
                }
                "assemble" => {
                    if out.assemble.is_some() {
                        return Err(meta.error("duplicate parquet attribute `assemble`"));
                    }
                    no_value(&meta, "assemble")?;
                    out.assemble = Some(syn::spanned::Spanned::span(&meta.path));
                }
                "bound" => {
                    if out.bound.is_some() {
                        return Err(meta.error("duplicate parquet attribute `bound`"));
                    }
                    let lit = parse_str(&meta, "bound")?;
                    let preds = lit
                        .parse_with(Punctuated::<WherePredicate, Token![,]>::parse_terminated)
                        .map_err(|err| {
                            syn::Error::new(lit.span(), format!("`bound` must be where-clause predicates: {err}"))
                        })?;
                    out.bound = Some(preds.into_iter().collect());
                }
                _ => {
                    let hint = if FIELD_KEYS.split(", ").any(|k| k == key) {
                        format!("; `{key}` goes on a field")
                    } else {
                        String::new()
                    };
                    return Err(meta.error(format!(
                        "unknown parquet container attribute `{key}`; expected one of: name, crate, bound, enum, assemble{hint}"
                    )));
                }
            }
            Ok(())
        });
        if let Err(err) = res {
            errors.push(err);
        }
    }
    out
}

/// Rejects `#[parquet(...)]` on an enum variant.
pub fn reject_variant_parquet(attrs: &[Attribute], errors: &mut Errors) {
    for attr in attrs.iter().filter(|a| a.path().is_ident("parquet")) {
        errors.push(syn::Error::new_spanned(
            attr,
            "`#[parquet(...)]` is not supported on enum variants; put it on the variant's fields",
        ));
    }
}

// ---------------------------------------------------------------------------------------------
// #[serde(...)]

/// The serde attributes of a container that change the serialized shape or names.
#[derive(Default)]
pub struct ContainerSerde {
    pub rename: Option<String>,
    pub rename_all: Option<RenameRule>,
    pub rename_all_fields: Option<RenameRule>,
    pub transparent: bool,
    pub into: Option<syn::Type>,
    /// `tag`, `content` or `untagged`: representations this derive does not support.
    pub unsupported_repr: Option<(String, Span)>,
}

/// The serde attributes of a variant.
#[derive(Default)]
pub struct VariantSerde {
    pub rename: Option<String>,
    pub rename_all: Option<RenameRule>,
    pub skip_serializing: bool,
    pub with: Option<Span>,
    pub untagged: Option<Span>,
}

/// The serde attributes of a field.
#[derive(Default)]
pub struct FieldSerde {
    pub rename: Option<String>,
    pub skip_serializing: bool,
    pub skip_serializing_if: bool,
    pub flatten: Option<Span>,
    /// `with = "serde_bytes"`.
    pub serde_bytes: bool,
    /// `with = "parquet_serde::json"`: the field is its JSON text.
    pub json_with: bool,
    /// `with = "parquet_serde::bson"` (or `::bson::option`): the field is a BSON document's
    /// bytes; `Some(true)` for the option form.
    pub bson_with: Option<bool>,
    /// `with = "parquet_serde::zoned_utc"` (or `::zoned_utc::option`): a `jiff::Zoned`
    /// stored as its instant; `Some(true)` for the option form.
    pub zoned_with: Option<bool>,
    /// `with`, `serialize_with` naming something else.
    pub custom_with: Option<Span>,
}

/// Whether a `with` path (leading `::` removed) names `parquet_serde::<module>`.
fn is_ours(path: &str, module: &str) -> bool {
    path.strip_suffix(module)
        .is_some_and(|rest| rest == "parquet_serde::" || rest.ends_with("::parquet_serde::"))
}

/// Calls `f` for each key of each `#[serde(...)]`; an attribute that fails to parse is left
/// to serde's derive to report.
fn each_serde_key(
    attrs: &[Attribute],
    mut f: impl FnMut(&str, &ParseNestedMeta) -> syn::Result<bool>,
) {
    for attr in attrs.iter().filter(|a| a.path().is_ident("serde")) {
        let _ = attr.parse_nested_meta(|meta| {
            let key = path_name(&meta.path);
            if !f(&key, &meta)? {
                skip_value(&meta)?;
            }
            Ok(())
        });
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

/// `key = "x"` or `key(serialize = "x", ...)`: the serialize-side string.
fn serde_ser_str(meta: &ParseNestedMeta) -> syn::Result<Option<String>> {
    if meta.input.peek(Token![=]) {
        let lit: LitStr = meta.value()?.parse()?;
        return Ok(Some(lit.value()));
    }
    let mut out = None;
    if meta.input.peek(syn::token::Paren) {
        meta.parse_nested_meta(|inner| {
            if inner.path.is_ident("serialize") {
                let lit: LitStr = inner.value()?.parse()?;
                out = Some(lit.value());
            } else {
                skip_value(&inner)?;
            }
            Ok(())
        })?;
    }
    Ok(out)
}

/// Reads a container's serde attributes.
pub fn container_serde(attrs: &[Attribute]) -> ContainerSerde {
    let mut out = ContainerSerde::default();
    each_serde_key(attrs, |key, meta| {
        match key {
            "rename" => out.rename = serde_ser_str(meta)?,
            "rename_all" => {
                out.rename_all = serde_ser_str(meta)?.and_then(|s| RenameRule::parse(&s))
            }
            "rename_all_fields" => {
                out.rename_all_fields = serde_ser_str(meta)?.and_then(|s| RenameRule::parse(&s))
            }
            "transparent" => out.transparent = true,
            "into" => {
                let lit: LitStr = meta.value()?.parse()?;
                out.into = lit.parse::<syn::Type>().ok();
            }
            "tag" | "content" | "untagged" => {
                out.unsupported_repr = Some((key.to_owned(), meta_span(meta)));
                return Ok(false);
            }
            _ => return Ok(false),
        }
        Ok(true)
    });
    out
}

/// Reads a variant's serde attributes.
pub fn variant_serde(attrs: &[Attribute]) -> VariantSerde {
    let mut out = VariantSerde::default();
    each_serde_key(attrs, |key, meta| {
        match key {
            "rename" => out.rename = serde_ser_str(meta)?,
            "rename_all" => {
                out.rename_all = serde_ser_str(meta)?.and_then(|s| RenameRule::parse(&s))
            }
            "skip" | "skip_serializing" => out.skip_serializing = true,
            "with" | "serialize_with" => {
                out.with = Some(meta_span(meta));
                return Ok(false);
            }
            "untagged" => out.untagged = Some(meta_span(meta)),
            _ => return Ok(false),
        }
        Ok(true)
    });
    out
}

/// Reads a field's serde attributes.
pub fn field_serde(attrs: &[Attribute]) -> FieldSerde {
    let mut out = FieldSerde::default();
    each_serde_key(attrs, |key, meta| {
        match key {
            "rename" => out.rename = serde_ser_str(meta)?,
            "skip" | "skip_serializing" => out.skip_serializing = true,
            "skip_serializing_if" => {
                out.skip_serializing_if = true;
                return Ok(false);
            }
            "flatten" => out.flatten = Some(meta_span(meta)),
            "with" => {
                let lit: LitStr = meta.value()?.parse()?;
                let path = lit.value();
                let path = path.trim_start_matches("::");
                if path == "serde_bytes" {
                    out.serde_bytes = true;
                } else if is_ours(path, "json") {
                    out.json_with = true;
                } else if is_ours(path, "bson") {
                    out.bson_with = Some(false);
                } else if is_ours(path, "bson::option") {
                    out.bson_with = Some(true);
                } else if is_ours(path, "zoned_utc") {
                    out.zoned_with = Some(false);
                } else if is_ours(path, "zoned_utc::option") {
                    out.zoned_with = Some(true);
                } else {
                    out.custom_with = Some(lit.span());
                }
            }
            "serialize_with" => {
                out.custom_with = Some(meta_span(meta));
                return Ok(false);
            }
            _ => return Ok(false),
        }
        Ok(true)
    });
    out
}
