//! [`ParquetSchema`] for the standard library's types.

use std::borrow::Cow;
use std::cell::{Cell, RefCell};
use std::cmp::Reverse;
use std::collections::{BTreeMap, BTreeSet, BinaryHeap, HashMap, HashSet, LinkedList, VecDeque};
use std::marker::PhantomData;
use std::num::{
    NonZeroI16, NonZeroI32, NonZeroI64, NonZeroI8, NonZeroIsize, NonZeroU16, NonZeroU32,
    NonZeroU64, NonZeroU8, NonZeroUsize, Wrapping,
};
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::sync::{Arc, Mutex, RwLock};
use std::time::{Duration, SystemTime};

use crate::core::format::{LogicalType, TimeUnit, Type};
use crate::core::schema::{Repetition, SchemaNode};

use super::attrs::{ColumnOptions, FieldAttrs};
use super::nodes::{self, DecimalStorage};
use super::ParquetSchema;

// ---------------------------------------------------------------------------------------------
// Scalars

impl ParquetSchema for bool {
    fn parquet_node(name: &str, _attrs: &FieldAttrs) -> SchemaNode {
        nodes::leaf(name, Type::Boolean)
    }
}

/// Integers that map to INT32/INT64 with INTEGER(bits, signed) and take no options.
macro_rules! plain_integer {
    ($($ty:ty => $bits:literal, $signed:literal;)*) => {$(
        impl ParquetSchema for $ty {
            fn parquet_node(name: &str, _attrs: &FieldAttrs) -> SchemaNode {
                nodes::integer(name, $bits, $signed)
            }
        }
    )*};
}

plain_integer! {
    i8 => 8, true;
    i16 => 16, true;
    u16 => 16, false;
    u32 => 32, false;
    u64 => 64, false;
    // serde serializes usize as u64 and isize as i64.
    usize => 64, false;
    isize => 64, true;
}

impl ParquetSchema for u8 {
    fn parquet_node(name: &str, _attrs: &FieldAttrs) -> SchemaNode {
        nodes::integer(name, 8, false)
    }

    const __PARQUET_IS_BYTE: bool = true;
}

impl ParquetSchema for i32 {
    fn parquet_node(name: &str, attrs: &FieldAttrs) -> SchemaNode {
        if attrs.date {
            nodes::date(name)
        } else if attrs.time == Some(TimeUnit::Millis) {
            nodes::time(name, TimeUnit::Millis, attrs.utc.unwrap_or(true))
        } else if let Some(spec) = attrs.decimal {
            nodes::decimal(name, spec, DecimalStorage::Int32)
        } else {
            nodes::integer(name, 32, true)
        }
    }
}

impl ParquetSchema for i64 {
    fn parquet_node(name: &str, attrs: &FieldAttrs) -> SchemaNode {
        if let Some(unit) = attrs.timestamp {
            nodes::timestamp(name, unit, attrs.utc.unwrap_or(true))
        } else if let Some(unit @ (TimeUnit::Micros | TimeUnit::Nanos)) = attrs.time {
            nodes::time(name, unit, attrs.utc.unwrap_or(true))
        } else if let Some(spec) = attrs.decimal {
            nodes::decimal(name, spec, DecimalStorage::Int64)
        } else {
            nodes::integer(name, 64, true)
        }
    }
}

/// FIXED_LEN_BYTE_ARRAY(16) DECIMAL(38, 0): the default node of a 128-bit integer.
fn int128(name: &str) -> SchemaNode {
    nodes::annotate(
        nodes::fixed_leaf(name, 16),
        LogicalType::Decimal {
            scale: 0,
            precision: 38,
        },
    )
}

impl ParquetSchema for i128 {
    fn parquet_node(name: &str, attrs: &FieldAttrs) -> SchemaNode {
        match attrs.decimal {
            Some(spec) => nodes::decimal(name, spec, DecimalStorage::Fixed),
            None => int128(name),
        }
    }
}

impl ParquetSchema for u128 {
    fn parquet_node(name: &str, attrs: &FieldAttrs) -> SchemaNode {
        if attrs.uuid {
            nodes::uuid(name)
        } else {
            int128(name)
        }
    }
}

impl ParquetSchema for f32 {
    fn parquet_node(name: &str, _attrs: &FieldAttrs) -> SchemaNode {
        nodes::leaf(name, Type::Float)
    }
}

impl ParquetSchema for f64 {
    fn parquet_node(name: &str, _attrs: &FieldAttrs) -> SchemaNode {
        nodes::leaf(name, Type::Double)
    }
}

/// Non-zero integers serialize as their integer.
macro_rules! non_zero {
    ($($nz:ty => $int:ty,)*) => {$(
        impl ParquetSchema for $nz {
            fn parquet_node(name: &str, attrs: &FieldAttrs) -> SchemaNode {
                <$int as ParquetSchema>::parquet_node(name, attrs)
            }
        }
    )*};
}

non_zero! {
    NonZeroI8 => i8, NonZeroI16 => i16, NonZeroI32 => i32, NonZeroI64 => i64,
    NonZeroIsize => isize, NonZeroU8 => u8, NonZeroU16 => u16, NonZeroU32 => u32,
    NonZeroU64 => u64, NonZeroUsize => usize,
}

// ---------------------------------------------------------------------------------------------
// Text

/// The node of a text field: STRING, or what `json`, `uuid` or `decimal` ask for.
fn text(name: &str, attrs: &FieldAttrs) -> SchemaNode {
    if attrs.json {
        nodes::json(name)
    } else if attrs.uuid {
        nodes::uuid(name)
    } else if let Some(spec) = attrs.decimal {
        nodes::decimal(name, spec, DecimalStorage::Fixed)
    } else {
        nodes::string(name)
    }
}

impl ParquetSchema for str {
    fn parquet_node(name: &str, attrs: &FieldAttrs) -> SchemaNode {
        text(name, attrs)
    }
}

impl ParquetSchema for String {
    fn parquet_node(name: &str, attrs: &FieldAttrs) -> SchemaNode {
        text(name, attrs)
    }
}

impl ParquetSchema for char {
    fn parquet_node(name: &str, _attrs: &FieldAttrs) -> SchemaNode {
        nodes::string(name)
    }
}

impl ParquetSchema for Path {
    fn parquet_node(name: &str, _attrs: &FieldAttrs) -> SchemaNode {
        nodes::string(name)
    }
}

impl ParquetSchema for PathBuf {
    fn parquet_node(name: &str, _attrs: &FieldAttrs) -> SchemaNode {
        nodes::string(name)
    }
}

// ---------------------------------------------------------------------------------------------
// Values without data

impl ParquetSchema for () {
    fn parquet_node(name: &str, _attrs: &FieldAttrs) -> SchemaNode {
        nodes::unit(name)
    }
}

impl<T: ?Sized> ParquetSchema for PhantomData<T> {
    fn parquet_node(name: &str, _attrs: &FieldAttrs) -> SchemaNode {
        nodes::unit(name)
    }
}

// ---------------------------------------------------------------------------------------------
// Time

impl ParquetSchema for SystemTime {
    fn parquet_node(name: &str, attrs: &FieldAttrs) -> SchemaNode {
        nodes::timestamp(
            name,
            attrs.timestamp.unwrap_or(TimeUnit::Micros),
            attrs.utc.unwrap_or(true),
        )
    }
}

impl ParquetSchema for Duration {
    fn parquet_node(name: &str, _attrs: &FieldAttrs) -> SchemaNode {
        // Exactly serde's shape: struct Duration { secs: u64, nanos: u32 }.
        nodes::group(
            name,
            vec![
                nodes::integer("secs", 64, false),
                nodes::integer("nanos", 32, false),
            ],
        )
    }
}

// ---------------------------------------------------------------------------------------------
// Option and transparent wrappers

/// Post-monomorphization check that `T` is not an `Option` (Parquet has one null per level,
/// so `Option<Option<T>>` cannot tell `None` from `Some(None)`).
struct AssertInnerNotOption<T: ?Sized>(PhantomData<T>);

impl<T: ParquetSchema + ?Sized> AssertInnerNotOption<T> {
    const OK: () = assert!(
        !T::__PARQUET_IS_OPTION,
        "parquet-serde: Option<Option<T>> has no Parquet schema (one null cannot tell None \
         from Some(None)); use Option<T> or wrap the inner Option in a struct"
    );
}

/// Post-monomorphization check that a map key type is not an `Option`.
struct AssertKeyNotOption<T: ?Sized>(PhantomData<T>);

impl<T: ParquetSchema + ?Sized> AssertKeyNotOption<T> {
    const OK: () = assert!(
        !T::__PARQUET_IS_OPTION,
        "parquet-serde: a map key must not be an Option (Parquet map keys are required)"
    );
}

impl<T: ParquetSchema> ParquetSchema for Option<T> {
    fn parquet_node(name: &str, attrs: &FieldAttrs) -> SchemaNode {
        #[allow(clippy::let_unit_value)]
        let () = AssertInnerNotOption::<T>::OK;
        let mut node = T::parquet_node(name, attrs);
        node.repetition = Repetition::Optional;
        node
    }

    fn parquet_collect_column_options(path: &mut Vec<String>, out: &mut Vec<ColumnOptions>) {
        T::parquet_collect_column_options(path, out);
    }

    const __PARQUET_IS_OPTION: bool = true;
}

/// Types that serde serializes as the value they hold.
macro_rules! transparent {
    ($($(#[$m:meta])* [$($gen:tt)*] $ty:ty => $inner:ty;)*) => {$(
        $(#[$m])*
        impl<$($gen)*> ParquetSchema for $ty {
            fn parquet_node(name: &str, attrs: &FieldAttrs) -> SchemaNode {
                <$inner as ParquetSchema>::parquet_node(name, attrs)
            }

            fn parquet_collect_column_options(
                path: &mut Vec<String>,
                out: &mut Vec<ColumnOptions>,
            ) {
                <$inner as ParquetSchema>::parquet_collect_column_options(path, out);
            }

            const __PARQUET_IS_OPTION: bool = <$inner as ParquetSchema>::__PARQUET_IS_OPTION;
        }
    )*};
}

transparent! {
    ['a, T: ParquetSchema + ?Sized] &'a T => T;
    ['a, T: ParquetSchema + ?Sized] &'a mut T => T;
    [T: ParquetSchema + ?Sized] Box<T> => T;
    [T: ParquetSchema + ?Sized] Rc<T> => T;
    [T: ParquetSchema + ?Sized] Arc<T> => T;
    ['a, T: ParquetSchema + ToOwned + ?Sized] Cow<'a, T> => T;
    [T: ParquetSchema + Copy] Cell<T> => T;
    [T: ParquetSchema + ?Sized] RefCell<T> => T;
    [T: ParquetSchema + ?Sized] Mutex<T> => T;
    [T: ParquetSchema + ?Sized] RwLock<T> => T;
    [T: ParquetSchema] Wrapping<T> => T;
    [T: ParquetSchema] Reverse<T> => T;
}

// ---------------------------------------------------------------------------------------------
// Sequences

/// The node of a sequence of `T`: one BYTE_ARRAY when `T` is `u8` and `bytes` (or
/// `geometry`/`geography`, WKB bytes) is set, else a 3-level LIST whose element gets the
/// same options.
fn sequence<T: ParquetSchema + ?Sized>(name: &str, attrs: &FieldAttrs) -> SchemaNode {
    if attrs.bson && T::__PARQUET_IS_BYTE {
        nodes::bson(name)
    } else if let (Some(geo), true) = (attrs.geo, T::__PARQUET_IS_BYTE) {
        nodes::geo(name, geo)
    } else if attrs.bytes && T::__PARQUET_IS_BYTE {
        nodes::leaf(name, Type::ByteArray)
    } else {
        nodes::list(name, T::parquet_node("element", attrs))
    }
}

/// Column options below a LIST of `T`.
fn sequence_options<T: ParquetSchema + ?Sized>(
    path: &mut Vec<String>,
    out: &mut Vec<ColumnOptions>,
) {
    path.push("list".to_owned());
    path.push("element".to_owned());
    T::parquet_collect_column_options(path, out);
    path.truncate(path.len() - 2);
}

/// Types that serde serializes as a sequence of `T`.
macro_rules! sequence {
    ($([$($gen:tt)*] $ty:ty;)*) => {$(
        impl<$($gen)*> ParquetSchema for $ty {
            fn parquet_node(name: &str, attrs: &FieldAttrs) -> SchemaNode {
                sequence::<T>(name, attrs)
            }

            fn parquet_collect_column_options(
                path: &mut Vec<String>,
                out: &mut Vec<ColumnOptions>,
            ) {
                sequence_options::<T>(path, out);
            }
        }
    )*};
}

sequence! {
    [T: ParquetSchema] [T];
    [T: ParquetSchema] Vec<T>;
    [T: ParquetSchema] VecDeque<T>;
    [T: ParquetSchema] LinkedList<T>;
    [T: ParquetSchema] BinaryHeap<T>;
    [T: ParquetSchema] BTreeSet<T>;
    [T: ParquetSchema, S] HashSet<T, S>;
}

impl<T: ParquetSchema, const N: usize> ParquetSchema for [T; N] {
    fn parquet_node(name: &str, attrs: &FieldAttrs) -> SchemaNode {
        if !T::__PARQUET_IS_BYTE {
            return nodes::list(name, T::parquet_node("element", attrs));
        }
        if attrs.uuid && N == 16 {
            return nodes::uuid(name);
        }
        match i32::try_from(N) {
            Ok(len) if len > 0 => nodes::fixed_leaf(name, len),
            // A FIXED_LEN_BYTE_ARRAY needs a positive length that fits the schema's i32;
            // other lengths are stored as variable-length bytes.
            _ => nodes::leaf(name, Type::ByteArray),
        }
    }

    fn parquet_collect_column_options(path: &mut Vec<String>, out: &mut Vec<ColumnOptions>) {
        if !T::__PARQUET_IS_BYTE {
            sequence_options::<T>(path, out);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Maps

/// The MAP node of `K -> V`; the value gets the field's options, the key none.
fn map<K: ParquetSchema, V: ParquetSchema>(name: &str, attrs: &FieldAttrs) -> SchemaNode {
    #[allow(clippy::let_unit_value)]
    let () = AssertKeyNotOption::<K>::OK;
    nodes::map(
        name,
        K::parquet_node("key", &FieldAttrs::new()),
        V::parquet_node("value", attrs),
    )
}

/// Column options below a MAP of `K -> V`.
fn map_options<K: ParquetSchema, V: ParquetSchema>(
    path: &mut Vec<String>,
    out: &mut Vec<ColumnOptions>,
) {
    path.push("key_value".to_owned());
    path.push("key".to_owned());
    K::parquet_collect_column_options(path, out);
    path.pop();
    path.push("value".to_owned());
    V::parquet_collect_column_options(path, out);
    path.truncate(path.len() - 2);
}

impl<K: ParquetSchema, V: ParquetSchema> ParquetSchema for BTreeMap<K, V> {
    fn parquet_node(name: &str, attrs: &FieldAttrs) -> SchemaNode {
        map::<K, V>(name, attrs)
    }

    fn parquet_collect_column_options(path: &mut Vec<String>, out: &mut Vec<ColumnOptions>) {
        map_options::<K, V>(path, out);
    }
}

impl<K: ParquetSchema, V: ParquetSchema, S> ParquetSchema for HashMap<K, V, S> {
    fn parquet_node(name: &str, attrs: &FieldAttrs) -> SchemaNode {
        map::<K, V>(name, attrs)
    }

    fn parquet_collect_column_options(path: &mut Vec<String>, out: &mut Vec<ColumnOptions>) {
        map_options::<K, V>(path, out);
    }
}

// ---------------------------------------------------------------------------------------------
// Tuples

/// Tuples are groups with fields `_0`, `_1`, ... (serde serializes them as tuples, in order).
macro_rules! tuple {
    ($(($($idx:tt $t:ident),+))*) => {$(
        impl<$($t: ParquetSchema),+> ParquetSchema for ($($t,)+) {
            fn parquet_node(name: &str, _attrs: &FieldAttrs) -> SchemaNode {
                nodes::group(
                    name,
                    vec![$($t::parquet_node(concat!("_", $idx), &FieldAttrs::new())),+],
                )
            }

            fn parquet_collect_column_options(
                path: &mut Vec<String>,
                out: &mut Vec<ColumnOptions>,
            ) {
                $(
                    path.push(concat!("_", $idx).to_owned());
                    $t::parquet_collect_column_options(path, out);
                    path.pop();
                )+
            }
        }
    )*};
}

tuple! {
    (0 T0)
    (0 T0, 1 T1)
    (0 T0, 1 T1, 2 T2)
    (0 T0, 1 T1, 2 T2, 3 T3)
    (0 T0, 1 T1, 2 T2, 3 T3, 4 T4)
    (0 T0, 1 T1, 2 T2, 3 T3, 4 T4, 5 T5)
    (0 T0, 1 T1, 2 T2, 3 T3, 4 T4, 5 T5, 6 T6)
    (0 T0, 1 T1, 2 T2, 3 T3, 4 T4, 5 T5, 6 T6, 7 T7)
    (0 T0, 1 T1, 2 T2, 3 T3, 4 T4, 5 T5, 6 T6, 7 T7, 8 T8)
    (0 T0, 1 T1, 2 T2, 3 T3, 4 T4, 5 T5, 6 T6, 7 T7, 8 T8, 9 T9)
    (0 T0, 1 T1, 2 T2, 3 T3, 4 T4, 5 T5, 6 T6, 7 T7, 8 T8, 9 T9, 10 T10)
    (0 T0, 1 T1, 2 T2, 3 T3, 4 T4, 5 T5, 6 T6, 7 T7, 8 T8, 9 T9, 10 T10, 11 T11)
    (0 T0, 1 T1, 2 T2, 3 T3, 4 T4, 5 T5, 6 T6, 7 T7, 8 T8, 9 T9, 10 T10, 11 T11, 12 T12)
    (0 T0, 1 T1, 2 T2, 3 T3, 4 T4, 5 T5, 6 T6, 7 T7, 8 T8, 9 T9, 10 T10, 11 T11, 12 T12, 13 T13)
    (0 T0, 1 T1, 2 T2, 3 T3, 4 T4, 5 T5, 6 T6, 7 T7, 8 T8, 9 T9, 10 T10, 11 T11, 12 T12, 13 T13,
     14 T14)
    (0 T0, 1 T1, 2 T2, 3 T3, 4 T4, 5 T5, 6 T6, 7 T7, 8 T8, 9 T9, 10 T10, 11 T11, 12 T12, 13 T13,
     14 T14, 15 T15)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::format::ConvertedType;
    use crate::core::schema::NodeKind;

    fn node<T: ParquetSchema + ?Sized>(attrs: &FieldAttrs) -> SchemaNode {
        T::parquet_node("f", attrs)
    }

    fn children(n: &SchemaNode) -> &[SchemaNode] {
        match &n.kind {
            NodeKind::Group { fields } => fields,
            NodeKind::Primitive { .. } => &[],
        }
    }

    #[test]
    fn flags() {
        let flags = [
            u8::__PARQUET_IS_BYTE,
            i8::__PARQUET_IS_BYTE,
            <Vec<u8>>::__PARQUET_IS_BYTE,
            <Option<u8>>::__PARQUET_IS_OPTION,
            <Box<Option<u8>>>::__PARQUET_IS_OPTION,
            <Vec<Option<u8>>>::__PARQUET_IS_OPTION,
        ];
        assert_eq!(flags, [true, false, false, true, true, false]);
    }

    #[test]
    fn list_and_map_layout() {
        let n = node::<Vec<Option<String>>>(&FieldAttrs::new());
        assert_eq!(n.converted_type, Some(ConvertedType::List));
        let list = &children(&n)[0];
        assert_eq!(
            (list.name.as_str(), list.repetition),
            ("list", Repetition::Repeated)
        );
        let element = &children(list)[0];
        assert_eq!(
            (element.name.as_str(), element.repetition),
            ("element", Repetition::Optional)
        );

        let n = node::<HashMap<u32, Vec<i64>>>(&FieldAttrs::new());
        assert_eq!(n.logical_type, Some(LogicalType::Map));
        let kv = &children(&n)[0];
        assert_eq!(
            (kv.name.as_str(), kv.repetition),
            ("key_value", Repetition::Repeated)
        );
        let names: Vec<&str> = children(kv).iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["key", "value"]);
        assert_eq!(children(kv)[0].repetition, Repetition::Required);
    }

    #[test]
    fn options_reach_elements_and_values_not_keys() {
        let mut a = FieldAttrs::new();
        a.date = true;
        let n = node::<BTreeMap<i32, Vec<i32>>>(&a);
        let kv = &children(&n)[0];
        assert_eq!(
            children(kv)[0].logical_type,
            Some(LogicalType::Integer {
                bit_width: 32,
                is_signed: true
            })
        );
        let value_list = &children(kv)[1];
        let element = &children(&children(value_list)[0])[0];
        assert_eq!(element.logical_type, Some(LogicalType::Date));
    }

    #[test]
    fn options_that_do_not_fit_are_ignored() {
        let mut a = FieldAttrs::new();
        a.timestamp = Some(TimeUnit::Millis);
        a.uuid = true;
        assert_eq!(node::<bool>(&a), nodes::leaf("f", Type::Boolean));
        assert_eq!(node::<u16>(&a), nodes::integer("f", 16, false));
        // time = micros does not fit an i32: the plain integer.
        let mut t = FieldAttrs::new();
        t.time = Some(TimeUnit::Micros);
        assert_eq!(node::<i32>(&t), nodes::integer("f", 32, true));
        // uuid only on a 16-byte array.
        let mut u = FieldAttrs::new();
        u.uuid = true;
        assert_eq!(node::<[u8; 8]>(&u), nodes::fixed_leaf("f", 8));
        assert_eq!(node::<[u8; 16]>(&u), nodes::uuid("f"));
    }

    #[test]
    fn column_option_paths() {
        let mut path = vec!["root_field".to_owned()];
        let mut out = Vec::new();
        <Vec<(u8, String)>>::parquet_collect_column_options(&mut path, &mut out);
        assert!(out.is_empty());
        assert_eq!(path, ["root_field"]);
        <HashMap<String, [u8; 4]>>::parquet_collect_column_options(&mut path, &mut out);
        assert_eq!(path, ["root_field"]);
    }
}
