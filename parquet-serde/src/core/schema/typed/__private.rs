//! Items the derive's expansion calls. Not public API: names and signatures may change in any
//! release.

use std::marker::PhantomData;

use std::cell::Cell;

use crate::core::schema::{NodeKind, Repetition};

pub use super::attrs::GeoSpec;
pub use super::attrs::{ColumnOptions, DecimalSpec, FieldAttrs};
pub use super::direct::{Direct, DirectSink, DirectValue, Layout, ViaNone, ViaSerde, ViaValue};
pub use super::markers::SupportsGeo;
pub use super::markers::{
    FlattenSchema, SupportsBson, SupportsBytes, SupportsDate, SupportsDecimal, SupportsJson,
    SupportsTimeMicros, SupportsTimeMillis, SupportsTimestamp, SupportsUuid, SupportsWideDecimal,
};
pub use super::ParquetSchema;
pub use crate::core::bloom::BloomFilterOptions;
pub use crate::core::compression::Compression;
pub use crate::core::format::EdgeInterpolationAlgorithm;
pub use crate::core::format::{Encoding, TimeUnit};
pub use crate::core::schema::SchemaNode;
pub use crate::error::Result as ParquetResult;
pub use serde::Serialize;
pub use std::option::Option::{self, None, Some};
pub use std::string::String;
pub use std::vec::Vec;

/// A decimal spec in a `const` item; the derive has checked the bounds, so the panic branch
/// can only be reached at compile time, as a compile error.
pub const fn decimal(precision: u32, scale: u32) -> DecimalSpec {
    match DecimalSpec::new(precision, scale) {
        Some(spec) => spec,
        None => panic!("parquet-serde: decimal precision must be 1..=38 and scale <= precision"),
    }
}

/// A decimal spec of more than 38 digits (a `BYTE_ARRAY` decimal) in a `const` item; as
/// [`decimal`], the derive has checked the bounds.
pub const fn decimal_wide(precision: u32, scale: u32) -> DecimalSpec {
    match DecimalSpec::new_wide(precision, scale) {
        Some(spec) => spec,
        None => panic!("parquet-serde: decimal precision must be 1..=1000 and scale <= precision"),
    }
}

/// How many derived types deep a schema may nest before it is taken for a recursive type.
const MAX_DEPTH: u32 = 128;

thread_local! {
    /// Derived types being expanded on this thread, outermost first.
    static DEPTH: Cell<u32> = const { Cell::new(0) };
}

/// Counts one level of derived-type nesting while alive.
struct DepthGuard;

impl DepthGuard {
    fn enter() -> DepthGuard {
        let depth = DEPTH.with(|d| {
            let next = d.get() + 1;
            d.set(next);
            next
        });
        // Drop restores the count even when this panics.
        let guard = DepthGuard;
        // A type that contains itself (through a Vec, Box, Option, ...) has no finite Parquet
        // schema; without this check building it would overflow the stack. This is a defect
        // of the type, not of any input, so it is reported loudly.
        assert!(
            depth <= MAX_DEPTH,
            "parquet-serde: the schema nests more than {MAX_DEPTH} derived types deep; a \
             recursive type has no Parquet schema"
        );
        guard
    }
}

impl Drop for DepthGuard {
    fn drop(&mut self) {
        DEPTH.with(|d| d.set(d.get().saturating_sub(1)));
    }
}

/// The node of one field: `T`'s node named `name`, made optional when serde may skip it
/// (`skip_serializing_if`), with `field_id` when given.
///
/// # Panics
///
/// When fields nest more than 128 derived types deep, which only a recursive type does.
pub fn field<T: ParquetSchema + ?Sized>(
    name: &str,
    attrs: &FieldAttrs,
    field_id: Option<i32>,
    skippable: bool,
) -> SchemaNode {
    let _depth = DepthGuard::enter();
    let mut node = T::parquet_node(name, attrs);
    if skippable {
        node.repetition = Repetition::Optional;
    }
    if field_id.is_some() {
        node.field_id = field_id;
    }
    node
}

/// The node of a `#[parquet(variant)]` field (any serde type): an optional VARIANT group
/// of `metadata` and `value`.
pub fn variant_field(name: &str, field_id: Option<i32>) -> SchemaNode {
    with_field_id(super::variant_nodes::variant(name), field_id)
}

/// The node of a `#[parquet(variant(shred = "S"))]` field: an optional VARIANT group of
/// `metadata`, an optional `value` and a `typed_value` shredding what `S`'s schema names
/// (VariantShredding.md: a struct's fields as required groups of `value` and
/// `typed_value`, a list's elements likewise, primitives as themselves).
pub fn variant_shredded_field<S: ParquetSchema + ?Sized>(
    name: &str,
    field_id: Option<i32>,
) -> SchemaNode {
    let _depth = DepthGuard::enter();
    let typed = S::parquet_node("typed_value", &FieldAttrs::new());
    with_field_id(
        super::variant_nodes::variant_shredded(name, typed),
        field_id,
    )
}

/// `node` made optional (the field of one variant of an enum with data).
pub fn optional(mut node: SchemaNode) -> SchemaNode {
    node.repetition = Repetition::Optional;
    node
}

/// `node` with `field_id` when given.
pub fn with_field_id(mut node: SchemaNode, field_id: Option<i32>) -> SchemaNode {
    if field_id.is_some() {
        node.field_id = field_id;
    }
    node
}

/// A required plain group.
pub fn group(name: &str, fields: Vec<SchemaNode>) -> SchemaNode {
    super::nodes::group(name, fields)
}

/// The node of a value without data (unit struct, unit variant).
pub fn unit(name: &str) -> SchemaNode {
    super::nodes::unit(name)
}

/// The node of a unit-only enum with `#[parquet(enum)]`: BYTE_ARRAY ENUM holding the serde
/// variant name.
pub fn enum_leaf(name: &str) -> SchemaNode {
    super::nodes::enum_leaf(name)
}

/// The node of a unit-only enum: BYTE_ARRAY STRING holding the serde variant name.
pub fn string_leaf(name: &str) -> SchemaNode {
    super::nodes::string(name)
}

/// Splices the fields of `T`'s node (a plain group) into `fields` (`#[serde(flatten)]`). The
/// derive checks `T: FlattenSchema` separately, with [`assert_flatten`] at the field's type.
pub fn flatten_into<T: ParquetSchema + ?Sized>(fields: &mut Vec<SchemaNode>) {
    let _depth = DepthGuard::enter();
    let node = T::parquet_node("", &FieldAttrs::new());
    match node.kind {
        NodeKind::Group { fields: inner } => fields.extend(inner),
        // FlattenSchema is only implemented for groups; a leaf is kept as it is.
        NodeKind::Primitive { .. } => fields.push(node),
    }
}

/// Column options of one field at `path` + `name`: its own, then those below it.
pub fn field_options<T: ParquetSchema + ?Sized>(
    path: &mut Vec<String>,
    name: &str,
    attrs: &FieldAttrs,
    out: &mut Vec<ColumnOptions>,
) {
    let _depth = DepthGuard::enter();
    path.push(name.to_owned());
    out.extend(ColumnOptions::from_attrs(path, attrs));
    T::parquet_collect_column_options(path, out);
    path.pop();
}

/// Column options of a newtype's inner field, which sits at `path` itself.
pub fn inner_options<T: ParquetSchema + ?Sized>(
    path: &mut Vec<String>,
    attrs: &FieldAttrs,
    out: &mut Vec<ColumnOptions>,
) {
    let _depth = DepthGuard::enter();
    out.extend(ColumnOptions::from_attrs(path, attrs));
    T::parquet_collect_column_options(path, out);
}

/// Column options of a flattened field: those below it, at `path` itself.
pub fn flatten_options<T: ParquetSchema + ?Sized>(
    path: &mut Vec<String>,
    out: &mut Vec<ColumnOptions>,
) {
    let _depth = DepthGuard::enter();
    T::parquet_collect_column_options(path, out);
}

/// The node of a newtype's inner field `T`, named `name`, with the inner field's options
/// `inner` over the outer field's `outer`, and the inner field's id when given.
///
/// # Panics
///
/// As [`field`], for a recursive type.
pub fn inner<T: ParquetSchema + ?Sized>(
    name: &str,
    inner: &FieldAttrs,
    outer: &FieldAttrs,
    field_id: Option<i32>,
) -> SchemaNode {
    let _depth = DepthGuard::enter();
    with_field_id(T::parquet_node(name, &inner.or(*outer)), field_id)
}

/// Runs `f` with `name` pushed on `path` (the fields of a tuple or struct variant).
pub fn nested(path: &mut Vec<String>, name: &str, f: impl FnOnce(&mut Vec<String>)) {
    path.push(name.to_owned());
    f(path);
    path.pop();
}

/// Compile-time checks that a field's type fits its `#[parquet(...)]` options. The derive
/// calls these with the span of the field's type, so an unfitting type is reported there.
pub fn assert_timestamp<T: SupportsTimestamp + ?Sized>() {}
/// See [`assert_timestamp`].
pub fn assert_date<T: SupportsDate + ?Sized>() {}
/// See [`assert_timestamp`].
pub fn assert_time_millis<T: SupportsTimeMillis + ?Sized>() {}
/// See [`assert_timestamp`].
pub fn assert_time_micros<T: SupportsTimeMicros + ?Sized>() {}
/// See [`assert_timestamp`].
pub fn assert_decimal<T: SupportsDecimal + ?Sized>() {}
/// See [`assert_timestamp`].
pub fn assert_uuid<T: SupportsUuid + ?Sized>() {}
/// See [`assert_timestamp`].
pub fn assert_json<T: SupportsJson + ?Sized>() {}
/// See [`assert_timestamp`].
pub fn assert_bytes<T: SupportsBytes + ?Sized>() {}
/// See [`assert_timestamp`].
pub fn assert_bson<T: SupportsBson + ?Sized>() {}
/// See [`assert_timestamp`].
pub fn assert_wide_decimal<T: SupportsWideDecimal + ?Sized>() {}
/// See [`assert_timestamp`].
pub fn assert_geo<T: SupportsGeo + ?Sized>() {}
/// See [`assert_timestamp`].
pub fn assert_flatten<T: FlattenSchema + ?Sized>() {}

/// Post-monomorphization check that the type of a newtype variant is not an `Option` (the
/// variant's field is already optional, so `None` could not be told from another variant).
pub struct AssertVariantNotOption<T: ?Sized>(PhantomData<T>);

impl<T: ParquetSchema + ?Sized> AssertVariantNotOption<T> {
    /// Evaluates to `()`, or fails the build.
    pub const OK: () = assert!(
        !T::__PARQUET_IS_OPTION,
        "parquet-serde: a newtype variant must not hold an Option (its column is already \
         optional); use a struct variant with an Option field instead"
    );
}
