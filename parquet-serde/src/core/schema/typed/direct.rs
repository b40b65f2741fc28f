//! The interface of the derive's direct row writer (not public API).
//!
//! For a struct with named fields that serde writes as they are (no `flatten`,
//! `skip_serializing_if`, `with` or `as_type`), `#[derive(ParquetSchema)]` also writes a row's
//! fields straight to the shredder, one call per field in declaration order, instead of
//! through serde's `SerializeStruct` (field names matched, every value dispatched through the
//! `Serializer`). The derive cannot see whether the row's `Serialize` is serde's derived one,
//! so the shredder takes the direct way for a row only after the row's own `Serialize` has
//! shown, through a serializer that writes nothing, that it hands `serialize_field` exactly
//! these fields: the names of the row group's fields in order, each value at the field's
//! offset in the row ([`Layout`]) and of the field's type. The serde path would then write
//! field `i` by serializing that very value at field node `i`, so the result is the serde
//! path's, value for value and error for error.
//!
//! Each field is written at its node `(node, rep)` by its type's [`DirectValue`] impl, which
//! does there what serde's impl of the type would make the serde path do:
//! - scalars ([`DirectLeaf`]) at a leaf whose conversion takes every value of the type
//!   unchanged go straight into the leaf's buffer (else through serde);
//! - `Option`: `None` is the null serde's `serialize_none` writes, `Some(v)` is `v` there;
//! - `Vec` at a LIST: each element at the element node, the first at `rep` and the others at
//!   the list's entry level; no element is an empty list (elsewhere: through serde);
//! - a derived struct at a group whose fields are its own: its fields at the group's nodes,
//!   after the same check of the value's own `Serialize` as the row's (else through serde);
//! - `BTreeMap` and `HashMap` at a MAP whose key is a leaf: each entry's key at the key node
//!   and its value at the value node, the first entry at `rep` and the others at the map's
//!   entry level, in the map's own order; no entry is an empty map (elsewhere: through serde).
//!
//! Anything else (enums, tuples, `with` fields, types of other crates) is serialized
//! through serde at its node, as it would have been. The first row that fails the row's
//! check turns the direct way off for the writer; a nested value that fails its check goes
//! through serde alone.
//!
//! In derived code, a field's path is picked at compile time by auto-ref on its type:
//! `(&&&Direct::<F>::NEW)` has [`ViaValue`] for [`DirectValue`] types, else [`ViaSerde`] for
//! `Serialize` types, else [`ViaNone`] (then the struct has no direct writer; so for a field
//! of a type parameter).

use serde::Serialize;

use crate::error::Result;

/// The type a [`DirectLeaf`] value is (an `Option` or a reference is its inner type's), which
/// the shredder checks against a leaf's conversion once per field.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LeafKind {
    /// `i8`.
    I8,
    /// `i16`.
    I16,
    /// `i32`.
    I32,
    /// `i64`.
    I64,
    /// `u8`.
    U8,
    /// `u16`.
    U16,
    /// `u32`.
    U32,
    /// `u64`.
    U64,
    /// `f32`.
    F32,
    /// `f64`.
    F64,
    /// `bool`.
    Bool,
    /// `str`, `String`.
    Str,
}

impl LeafKind {
    /// The range of an integer type.
    pub fn int_range(self) -> Option<(i128, i128)> {
        Some(match self {
            LeafKind::I8 => (i8::MIN as i128, i8::MAX as i128),
            LeafKind::I16 => (i16::MIN as i128, i16::MAX as i128),
            LeafKind::I32 => (i32::MIN as i128, i32::MAX as i128),
            LeafKind::I64 => (i64::MIN as i128, i64::MAX as i128),
            LeafKind::U8 => (0, u8::MAX as i128),
            LeafKind::U16 => (0, u16::MAX as i128),
            LeafKind::U32 => (0, u32::MAX as i128),
            LeafKind::U64 => (0, u64::MAX as i128),
            LeafKind::F32 | LeafKind::F64 | LeafKind::Bool | LeafKind::Str => return None,
        })
    }
}

/// One leaf of the current row, for a [`DirectLeaf`] value: the shredder's buffer of a leaf
/// whose conversion was found to take every value of the field's type as it is.
pub trait LeafSink {
    /// An integer (within the range of the field's type).
    fn int(&mut self, v: i128) -> Result<()>;
    /// An `f32`.
    fn f32(&mut self, v: f32) -> Result<()>;
    /// An `f64`.
    fn f64(&mut self, v: f64) -> Result<()>;
    /// A `bool`.
    fn bool(&mut self, v: bool) -> Result<()>;
    /// Text.
    fn str(&mut self, v: &str) -> Result<()>;
    /// `None`: a null at the field (an error when the field is required).
    fn none(&mut self) -> Result<()>;
}

/// A type whose values the shredder may write straight into a leaf (scalars, text, and
/// `Option`s and references of them).
pub trait DirectLeaf {
    /// What the type writes.
    const KIND: LeafKind;
    /// Writes the value.
    fn put_leaf<L: LeafSink>(&self, leaf: &mut L) -> Result<()>;
}

macro_rules! direct_int {
    ($($t:ty => $kind:ident),*) => {$(
        impl DirectLeaf for $t {
            const KIND: LeafKind = LeafKind::$kind;
            #[inline(always)]
            fn put_leaf<L: LeafSink>(&self, leaf: &mut L) -> Result<()> {
                leaf.int(*self as i128)
            }
        }
    )*};
}

direct_int!(i8 => I8, i16 => I16, i32 => I32, i64 => I64, u8 => U8, u16 => U16, u32 => U32, u64 => U64);

impl DirectLeaf for f32 {
    const KIND: LeafKind = LeafKind::F32;
    #[inline(always)]
    fn put_leaf<L: LeafSink>(&self, leaf: &mut L) -> Result<()> {
        leaf.f32(*self)
    }
}

impl DirectLeaf for f64 {
    const KIND: LeafKind = LeafKind::F64;
    #[inline(always)]
    fn put_leaf<L: LeafSink>(&self, leaf: &mut L) -> Result<()> {
        leaf.f64(*self)
    }
}

impl DirectLeaf for bool {
    const KIND: LeafKind = LeafKind::Bool;
    #[inline(always)]
    fn put_leaf<L: LeafSink>(&self, leaf: &mut L) -> Result<()> {
        leaf.bool(*self)
    }
}

impl DirectLeaf for str {
    const KIND: LeafKind = LeafKind::Str;
    #[inline(always)]
    fn put_leaf<L: LeafSink>(&self, leaf: &mut L) -> Result<()> {
        leaf.str(self)
    }
}

impl DirectLeaf for String {
    const KIND: LeafKind = LeafKind::Str;
    #[inline(always)]
    fn put_leaf<L: LeafSink>(&self, leaf: &mut L) -> Result<()> {
        leaf.str(self)
    }
}

impl<T: DirectLeaf + ?Sized> DirectLeaf for &T {
    const KIND: LeafKind = T::KIND;
    #[inline(always)]
    fn put_leaf<L: LeafSink>(&self, leaf: &mut L) -> Result<()> {
        (**self).put_leaf(leaf)
    }
}

impl<T: DirectLeaf> DirectLeaf for Option<T> {
    const KIND: LeafKind = T::KIND;
    #[inline(always)]
    fn put_leaf<L: LeafSink>(&self, leaf: &mut L) -> Result<()> {
        match self {
            Some(v) => v.put_leaf(leaf),
            None => leaf.none(),
        }
    }
}

/// Where the derived direct writer puts a row's values: at a node of the row's plan, with
/// the repetition level the value's entry starts at (the serde path's `(node, rep)`). Every
/// method does at `(node, rep)` exactly what the serde path does for the same value there,
/// or hands the value to serde when the node is not of the shape the direct way handles.
pub trait DirectSink {
    /// The node of the row's first field (the row's fields are the nodes after it).
    fn row_first(&self) -> u32;
    /// A `DirectLeaf` value.
    fn leaf<T: DirectLeaf + Serialize + ?Sized>(
        &mut self,
        node: u32,
        rep: i16,
        v: &T,
    ) -> Result<()>;
    /// Any other value, serialized through serde.
    fn serde<T: Serialize + ?Sized>(&mut self, node: u32, rep: i16, v: &T) -> Result<()>;
    /// `None` (given as `v`, which goes through serde at a node that is not a plain one).
    fn none<T: Serialize + ?Sized>(&mut self, node: u32, rep: i16, v: &T) -> Result<()>;
    /// The element node and the repetition level of later entries when `node` is a LIST.
    fn list(&mut self, node: u32) -> Option<(u32, i16)>;
    /// An empty sequence at the LIST `node`.
    fn empty_list(&mut self, node: u32, rep: i16) -> Result<()>;
    /// The key node (the value node is the next) and the repetition level of later entries
    /// when `node` is a MAP whose key is a leaf.
    fn map(&mut self, node: u32) -> Option<(u32, i16)>;
    /// A map without entries at the MAP `node`.
    fn empty_map(&mut self, node: u32, rep: i16) -> Result<()>;
    /// The first field node when `node` is a group whose fields are those of the derived
    /// struct `v` and `v`'s `Serialize` hands exactly them (as the row's check; see the
    /// module docs); `None`: write `v` through serde.
    fn group<T: Serialize + super::ParquetSchema + ?Sized>(
        &mut self,
        node: u32,
        v: &T,
    ) -> Option<u32>;
}

/// A type whose values the derive's direct writer writes itself, computing their levels:
/// the scalar types (`DirectLeaf`), `Option`s, `Vec`s and references of such types, and
/// derived structs with a direct writer.
pub trait DirectValue: Serialize {
    /// Writes the value at `node`, its entry starting at repetition level `rep`.
    fn __parquet_put_at<S: DirectSink>(&self, sink: &mut S, node: u32, rep: i16) -> Result<()>;
}

macro_rules! direct_value_leaf {
    ($($t:ty),*) => {$(
        impl DirectValue for $t {
            #[inline(always)]
            fn __parquet_put_at<S: DirectSink>(&self, sink: &mut S, node: u32, rep: i16) -> Result<()> {
                sink.leaf(node, rep, self)
            }
        }
    )*};
}

direct_value_leaf!(i8, i16, i32, i64, u8, u16, u32, u64, f32, f64, bool, str, String);

impl<T: DirectValue + ?Sized> DirectValue for &T {
    #[inline(always)]
    fn __parquet_put_at<S: DirectSink>(&self, sink: &mut S, node: u32, rep: i16) -> Result<()> {
        (**self).__parquet_put_at(sink, node, rep)
    }
}

impl<T: DirectValue> DirectValue for Option<T> {
    #[inline(always)]
    fn __parquet_put_at<S: DirectSink>(&self, sink: &mut S, node: u32, rep: i16) -> Result<()> {
        // serde's `Option`: `serialize_some(v)` writes `v` at the node, `serialize_none`
        // a null.
        match self {
            Some(v) => v.__parquet_put_at(sink, node, rep),
            None => sink.none(node, rep, self),
        }
    }
}

impl<T: DirectValue> DirectValue for Vec<T> {
    #[inline]
    fn __parquet_put_at<S: DirectSink>(&self, sink: &mut S, node: u32, rep: i16) -> Result<()> {
        // serde's `Vec`: a sequence of its elements. At a LIST, element `k` goes to the
        // element node at `rep` for the first and the list's entry level after; no element
        // is an empty list. Anywhere else (bytes, a tuple group) serde's path decides.
        let Some((element, entry_rep)) = sink.list(node) else {
            return sink.serde(node, rep, self);
        };
        let Some((first, rest)) = self.split_first() else {
            return sink.empty_list(node, rep);
        };
        first.__parquet_put_at(sink, element, rep)?;
        for v in rest {
            v.__parquet_put_at(sink, element, entry_rep)?;
        }
        Ok(())
    }
}

/// serde's maps: `collect_map` over the entries. At a MAP whose key is a leaf, the serde path
/// writes entry `k`'s key at the key node and its value at the value node, at `rep` for the
/// first entry and the map's entry level after (each as it writes a field there); no entry
/// is an empty map. Anywhere else (a map onto a struct's fields) serde's path decides.
#[inline]
fn put_map<'a, K, V, S, I>(
    sink: &mut S,
    node: u32,
    rep: i16,
    entries: I,
    map: &impl Serialize,
) -> Result<()>
where
    K: DirectValue + 'a + ?Sized,
    V: DirectValue + 'a + ?Sized,
    S: DirectSink,
    I: ExactSizeIterator<Item = (&'a K, &'a V)>,
{
    let Some((key, entry_rep)) = sink.map(node) else {
        return sink.serde(node, rep, map);
    };
    if entries.len() == 0 {
        return sink.empty_map(node, rep);
    }
    let mut at = rep;
    for (k, v) in entries {
        k.__parquet_put_at(sink, key, at)?;
        v.__parquet_put_at(sink, key + 1, at)?;
        at = entry_rep;
    }
    Ok(())
}

impl<K: DirectValue, V: DirectValue> DirectValue for std::collections::BTreeMap<K, V> {
    #[inline]
    fn __parquet_put_at<S: DirectSink>(&self, sink: &mut S, node: u32, rep: i16) -> Result<()> {
        put_map(sink, node, rep, self.iter(), self)
    }
}

impl<K: DirectValue, V: DirectValue, H: std::hash::BuildHasher> DirectValue
    for std::collections::HashMap<K, V, H>
{
    #[inline]
    fn __parquet_put_at<S: DirectSink>(&self, sink: &mut S, node: u32, rep: i16) -> Result<()> {
        // The same order as serde's: both iterate the map as it is.
        put_map(sink, node, rep, self.iter(), self)
    }
}

/// A field's type, for picking its path by auto-ref (see the module docs).
pub struct Direct<T: ?Sized>(std::marker::PhantomData<fn() -> *const T>);

impl<T: ?Sized> Direct<T> {
    /// The probe of `T`.
    pub const NEW: Self = Direct(std::marker::PhantomData);
}

/// The path of `DirectValue` fields.
pub trait ViaValue<T: ?Sized> {
    /// Whether the field can go the direct way (always).
    fn __parquet_direct_ok(&self) -> bool {
        true
    }
    /// Writes `v` at `node`, `rep`.
    fn __parquet_direct_put<S: DirectSink>(
        &self,
        sink: &mut S,
        node: u32,
        rep: i16,
        v: &T,
    ) -> Result<()>;
}

impl<T: DirectValue + ?Sized> ViaValue<T> for &&Direct<T> {
    #[inline(always)]
    fn __parquet_direct_put<S: DirectSink>(
        &self,
        sink: &mut S,
        node: u32,
        rep: i16,
        v: &T,
    ) -> Result<()> {
        v.__parquet_put_at(sink, node, rep)
    }
}

/// The path of other `Serialize` fields.
pub trait ViaSerde<T: ?Sized> {
    /// Whether the field can go the direct way (always).
    fn __parquet_direct_ok(&self) -> bool {
        true
    }
    /// Writes `v` at `node`, `rep`.
    fn __parquet_direct_put<S: DirectSink>(
        &self,
        sink: &mut S,
        node: u32,
        rep: i16,
        v: &T,
    ) -> Result<()>;
}

impl<T: Serialize + ?Sized> ViaSerde<T> for &Direct<T> {
    #[inline(always)]
    fn __parquet_direct_put<S: DirectSink>(
        &self,
        sink: &mut S,
        node: u32,
        rep: i16,
        v: &T,
    ) -> Result<()> {
        sink.serde(node, rep, v)
    }
}

/// Fields that are not `Serialize` (or of a type parameter): the struct has no direct path.
pub trait ViaNone<T: ?Sized> {
    /// Whether the field can go the direct way (never).
    fn __parquet_direct_ok(&self) -> bool {
        false
    }
    /// Not called (the struct has no direct path).
    fn __parquet_direct_put<S: DirectSink>(
        &self,
        _sink: &mut S,
        _node: u32,
        _rep: i16,
        _v: &T,
    ) -> Result<()> {
        Err(crate::error::Error::internal(
            "a field without a direct path was written directly",
        ))
    }
}

impl<T: ?Sized> ViaNone<T> for Direct<T> {}

/// Where each field of a row type with a direct writer is: its offset in the struct and
/// `std::any::type_name` of its type.
pub type Layout = Vec<(usize, &'static str)>;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ErrorKind;

    /// A sink that must not be reached.
    struct Unreached;

    impl DirectSink for Unreached {
        fn row_first(&self) -> u32 {
            unreachable!("no field goes to the sink")
        }
        fn leaf<T: DirectLeaf + Serialize + ?Sized>(
            &mut self,
            _: u32,
            _: i16,
            _: &T,
        ) -> Result<()> {
            unreachable!("no field goes to the sink")
        }
        fn serde<T: Serialize + ?Sized>(&mut self, _: u32, _: i16, _: &T) -> Result<()> {
            unreachable!("no field goes to the sink")
        }
        fn none<T: Serialize + ?Sized>(&mut self, _: u32, _: i16, _: &T) -> Result<()> {
            unreachable!("no field goes to the sink")
        }
        fn list(&mut self, _: u32) -> Option<(u32, i16)> {
            unreachable!("no field goes to the sink")
        }
        fn empty_list(&mut self, _: u32, _: i16) -> Result<()> {
            unreachable!("no field goes to the sink")
        }
        fn map(&mut self, _: u32) -> Option<(u32, i16)> {
            unreachable!("no field goes to the sink")
        }
        fn empty_map(&mut self, _: u32, _: i16) -> Result<()> {
            unreachable!("no field goes to the sink")
        }
        fn group<T: Serialize + crate::core::schema::ParquetSchema + ?Sized>(
            &mut self,
            _: u32,
            _: &T,
        ) -> Option<u32> {
            unreachable!("no field goes to the sink")
        }
    }

    #[test]
    fn a_broken_invariant_is_an_internal_error() {
        // The derive never writes a field without a direct path directly: doing so is a bug.
        let e = ViaNone::__parquet_direct_put(&Direct::<str>::NEW, &mut Unreached, 0, 0, "x")
            .unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Internal);
        assert_eq!(
            e.to_string(),
            "internal error: a field without a direct path was written directly"
        );
    }
}
