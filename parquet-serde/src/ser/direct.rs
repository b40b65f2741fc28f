//! The shredder's side of the derive's direct row writer (the interface and the argument for
//! why it writes what the serde path writes are in `schema/typed/direct.rs`).
//!
//! A row goes the direct way only after [`VerifyRow`], a serializer that writes nothing, has
//! seen the row's `Serialize` call `serialize_struct` and then `serialize_field` once per
//! field of the row's group, in schema order, each with the field's name and exactly the
//! address and type the derive expects (`&self.field`), and no `skip_field`. That is the
//! sequence after which the serde path writes field `i` by `variant::put(node_i, value_i)`:
//! [`ShredSink`] does the same for every field, except that values of a [`DirectLeaf`] type
//! at a leaf whose conversion takes every value of that type unchanged (checked once per
//! field) are pushed into the leaf's buffer without the per-value dispatch.

use serde::ser::{self, Impossible, Serialize};

use crate::error::{Error, Result};
use crate::schema::typed::direct::{DirectLeaf, DirectSink, LeafKind, LeafSink};
use crate::schema::ParquetSchema;
use crate::values::ColumnValues;

use super::plan::{Conv, Kind, PlanNode};
use super::shredder::Shredder;

/// How the values of one field go.
#[derive(Debug, Clone, Copy)]
enum Slot {
    /// Not seen yet.
    Unknown,
    /// Values of `kind` go straight into leaf `leaf`.
    Leaf { kind: LeafKind, leaf: u32 },
    /// Values of `kind` go through serde.
    Serde { kind: LeafKind },
}

/// What the check knows of one field: where the row's `Serialize` must hand it, and the
/// strings it last found right (serde's key, equal to the field's name, and the value's
/// `type_name`, equal to the field type's). Later rows hand the same static strings, which
/// are then compared by address and length only.
#[derive(Debug, Clone, Copy)]
struct FieldCheck {
    /// Offset of the field in the row.
    offset: usize,
    /// `type_name` of the field's type.
    ty: &'static str,
    seen_key: Option<&'static str>,
    seen_ty: Option<&'static str>,
}

/// Whether `seen` is the same static string as `s` (address and length).
#[inline(always)]
fn same(seen: Option<&'static str>, s: &'static str) -> bool {
    seen.is_some_and(|seen| std::ptr::eq(seen, s))
}

/// The direct path's state in a shredder.
#[derive(Debug, Default)]
pub(crate) struct DirectState {
    /// Whether rows may go the direct way (the row type has a direct writer whose fields
    /// are the row group's).
    enabled: bool,
    /// The first field node of the row group.
    first: u32,
    /// One slot per field.
    slots: Vec<Slot>,
    /// One check per field.
    checks: Vec<FieldCheck>,
}

impl DirectState {
    /// The direct path for rows of a type whose direct writer writes fields at `layout`,
    /// when the row group at `entry` has exactly that many fields (a wrapped row, not a
    /// struct, has none).
    pub(crate) fn new(
        nodes: &[PlanNode],
        entry: u32,
        wrapped: bool,
        layout: Option<Vec<(usize, &'static str)>>,
    ) -> Self {
        let Some(layout) = layout else {
            return DirectState::default();
        };
        match nodes.get(entry as usize).map(|n| n.kind) {
            Some(Kind::Group { first, len })
                if !wrapped && !layout.is_empty() && len as usize == layout.len() =>
            {
                DirectState {
                    enabled: true,
                    first,
                    slots: vec![Slot::Unknown; layout.len()],
                    checks: layout
                        .into_iter()
                        .map(|(offset, ty)| FieldCheck {
                            offset,
                            ty,
                            seen_key: None,
                            seen_ty: None,
                        })
                        .collect(),
                }
            }
            _ => DirectState::default(),
        }
    }
}

impl Shredder {
    /// Shreds one row of a [`ParquetSchema`] type: the direct way when the row's
    /// `Serialize` shows it would write just its fields, else through serde
    /// ([`shred`](Self::shred)). Same result, same errors.
    #[inline]
    pub(crate) fn shred_row<T: Serialize + ParquetSchema + ?Sized>(
        &mut self,
        row: &T,
    ) -> Result<()> {
        if self.direct.enabled && self.direct_fits(row) {
            return self.shred_with(|sh, _| row.__parquet_direct_put(&mut ShredSink { sh }));
        }
        self.shred(row)
    }

    /// Whether `row` serializes exactly its fields (see the module docs). The first row that
    /// does not turns the direct path off for this shredder: its type's `Serialize` is not
    /// the derived one, and is then called once per row again (not twice).
    #[inline]
    fn direct_fits<T: Serialize + ?Sized>(&mut self, row: &T) -> bool {
        let check = VerifyRow {
            st: &mut self.direct,
            nodes: &self.nodes,
            row: row as *const T as *const () as usize,
        };
        let fits = row.serialize(check).is_ok();
        if !fits {
            self.direct.enabled = false;
        }
        fits
    }

    /// How values of `kind` at field `i` go: into a leaf (its index) or through serde.
    #[inline(always)]
    fn direct_slot(&mut self, i: u32, kind: LeafKind) -> Option<u32> {
        match self.direct.slots[i as usize] {
            Slot::Leaf { kind: k, leaf } if k == kind => Some(leaf),
            Slot::Serde { kind: k } if k == kind => None,
            _ => self.classify(i, kind),
        }
    }

    /// [`direct_slot`](Self::direct_slot) the first time: checks the leaf's conversion.
    #[cold]
    #[inline(never)]
    fn classify(&mut self, i: u32, kind: LeafKind) -> Option<u32> {
        let node = self.direct.first + i;
        let leaf = match self.nodes[node as usize].kind {
            Kind::Leaf(l)
                if takes_all(kind, &self.leaves[l as usize].conv, self.leaf_values(l)) =>
            {
                Some(l)
            }
            _ => None,
        };
        self.direct.slots[i as usize] = match leaf {
            Some(leaf) => Slot::Leaf { kind, leaf },
            None => Slot::Serde { kind },
        };
        leaf
    }
}

/// Whether a leaf with conversion `conv` and buffer `values` takes every value of `kind` on
/// the serde path's fast path (the same push, no check that could fail).
fn takes_all(kind: LeafKind, conv: &Conv, values: &ColumnValues) -> bool {
    match (kind.int_range(), kind, *conv, values) {
        (Some((min, max)), _, Conv::Int64 { lo, hi, .. }, ColumnValues::Int64(_)) => {
            lo <= min && max <= hi
        }
        (Some((min, max)), _, Conv::Int32 { lo, hi, .. }, ColumnValues::Int32(_)) => {
            lo as i128 <= min && max <= hi as i128
        }
        (Some(_), ..) => false,
        (None, kind, conv, values) => takes_all_other(kind, conv, values),
    }
}

/// [`takes_all`] for the kinds that are not integers.
fn takes_all_other(kind: LeafKind, conv: Conv, values: &ColumnValues) -> bool {
    matches!(
        (kind, conv, values),
        (LeafKind::F64 | LeafKind::F32, _, ColumnValues::Double(_))
            | (LeafKind::F32, _, ColumnValues::Float(_))
            | (LeafKind::Bool, Conv::Bool, ColumnValues::Boolean(_))
            | (
                LeafKind::Str,
                Conv::Str | Conv::Binary,
                ColumnValues::ByteArray(_)
            )
    )
}

/// The derive's direct writer's view of the shredder during one row.
struct ShredSink<'a> {
    sh: &'a mut Shredder,
}

impl DirectSink for ShredSink<'_> {
    #[inline(always)]
    fn leaf<T: DirectLeaf + Serialize + ?Sized>(&mut self, i: u32, v: &T) -> Result<()> {
        if i as usize >= self.sh.direct.slots.len() {
            return Err(no_such_field(i));
        }
        match self.sh.direct_slot(i, T::KIND) {
            Some(leaf) => {
                let node = self.sh.direct.first + i;
                v.put_leaf(&mut LeafPut {
                    sh: self.sh,
                    leaf,
                    node,
                })
            }
            None => self.serde(i, v),
        }
    }

    #[inline(always)]
    fn serde<T: Serialize + ?Sized>(&mut self, i: u32, v: &T) -> Result<()> {
        if i as usize >= self.sh.direct.slots.len() {
            return Err(no_such_field(i));
        }
        let node = self.sh.direct.first + i;
        super::variant::put(self.sh, node, 0, v).map_err(|e| self.sh.locate(e, node))
    }
}

/// A direct writer that writes more fields than its layout has (a hand-written
/// `ParquetSchema` implementing the hidden methods wrongly).
#[cold]
fn no_such_field(i: u32) -> Error {
    Error::schema(format!(
        "internal: the direct writer wrote field {i}, past the row's fields"
    ))
}

/// A leaf's buffer no longer of the type its slot was found for (a bug: buffers are only
/// exchanged for ones of the same type).
#[cold]
fn changed() -> Error {
    Error::schema("internal: a column buffer changed type under the direct writer")
}

/// One leaf of the row, whose conversion [`takes_all`] values of the field's type.
struct LeafPut<'a> {
    sh: &'a mut Shredder,
    leaf: u32,
    node: u32,
}

impl LeafSink for LeafPut<'_> {
    #[inline(always)]
    fn int(&mut self, v: i128) -> Result<()> {
        let l = self.sh.leaf_buf(self.leaf);
        // The conversion takes the whole range of the type: the serde path's push.
        match &mut l.batch.values {
            ColumnValues::Int64(out) => out.push(v as i64),
            ColumnValues::Int32(out) => out.push(v as i32),
            _ => return Err(changed()),
        }
        l.present(0);
        Ok(())
    }

    #[inline(always)]
    fn f32(&mut self, v: f32) -> Result<()> {
        let l = self.sh.leaf_buf(self.leaf);
        match &mut l.batch.values {
            ColumnValues::Double(out) => out.push(v as f64),
            ColumnValues::Float(out) => out.push(v),
            _ => return Err(changed()),
        }
        l.present(0);
        Ok(())
    }

    #[inline(always)]
    fn f64(&mut self, v: f64) -> Result<()> {
        let l = self.sh.leaf_buf(self.leaf);
        match &mut l.batch.values {
            ColumnValues::Double(out) => out.push(v),
            _ => return Err(changed()),
        }
        l.present(0);
        Ok(())
    }

    #[inline(always)]
    fn bool(&mut self, v: bool) -> Result<()> {
        let l = self.sh.leaf_buf(self.leaf);
        match &mut l.batch.values {
            ColumnValues::Boolean(out) => out.push(v),
            _ => return Err(changed()),
        }
        l.present(0);
        Ok(())
    }

    #[inline(always)]
    fn str(&mut self, v: &str) -> Result<()> {
        let l = self.sh.leaf_buf(self.leaf);
        match &mut l.batch.values {
            ColumnValues::ByteArray(out) => out.push(v.as_bytes()),
            _ => return Err(changed()),
        }
        l.present(0);
        Ok(())
    }

    #[inline]
    fn none(&mut self) -> Result<()> {
        // What serde's `serialize_none` does at the field.
        self.sh
            .null_at(self.node, 0)
            .map_err(|e| self.sh.locate(e, self.node))
    }
}

// ---------------------------------------------------------------------------------------------
// The check

/// The row's `Serialize` did something other than hand over its fields.
#[derive(Debug)]
struct NotDirect;

impl std::fmt::Display for NotDirect {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("not the derive's fields")
    }
}

impl std::error::Error for NotDirect {}

impl ser::Error for NotDirect {
    fn custom<M: std::fmt::Display>(_: M) -> Self {
        NotDirect
    }
}

type Check<T> = std::result::Result<T, NotDirect>;

/// A serializer that writes nothing and accepts only a struct whose fields are the row
/// group's, in order, at the offsets in `row` and of the types of `st.checks`.
struct VerifyRow<'a> {
    st: &'a mut DirectState,
    nodes: &'a [PlanNode],
    /// The row's address.
    row: usize,
}

impl VerifyRow<'_> {
    fn reject(&self) -> NotDirect {
        NotDirect
    }
}

/// The fields of the row, checked one by one.
struct VerifyFields<'a> {
    st: &'a mut DirectState,
    nodes: &'a [PlanNode],
    row: usize,
    next: usize,
}

impl ser::SerializeStruct for VerifyFields<'_> {
    type Ok = ();
    type Error = NotDirect;

    #[inline(always)]
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Check<()> {
        let i = self.next;
        let Some(c) = self.st.checks.get_mut(i) else {
            return Err(NotDirect);
        };
        if value as *const T as *const () as usize != self.row.wrapping_add(c.offset) {
            return Err(NotDirect);
        }
        let given = std::any::type_name::<T>();
        if !(same(c.seen_key, key) && same(c.seen_ty, given)) {
            // Once per pair of strings: compare them.
            let node = self.st.first as usize + i;
            if self.nodes[node].name != key || c.ty != given {
                return Err(NotDirect);
            }
            c.seen_key = Some(key);
            c.seen_ty = Some(given);
        }
        self.next += 1;
        Ok(())
    }

    fn skip_field(&mut self, _key: &'static str) -> Check<()> {
        Err(NotDirect)
    }

    #[inline]
    fn end(self) -> Check<()> {
        if self.next == self.st.checks.len() {
            Ok(())
        } else {
            Err(NotDirect)
        }
    }
}

macro_rules! not_direct {
    ($($method:ident($($ty:ty),*)),* $(,)?) => {$(
        fn $method(self, $(_: $ty),*) -> Check<()> {
            Err(self.reject())
        }
    )*};
}

impl<'a> ser::Serializer for VerifyRow<'a> {
    type Ok = ();
    type Error = NotDirect;
    type SerializeSeq = Impossible<(), NotDirect>;
    type SerializeTuple = Impossible<(), NotDirect>;
    type SerializeTupleStruct = Impossible<(), NotDirect>;
    type SerializeTupleVariant = Impossible<(), NotDirect>;
    type SerializeMap = Impossible<(), NotDirect>;
    type SerializeStruct = VerifyFields<'a>;
    type SerializeStructVariant = Impossible<(), NotDirect>;

    not_direct!(
        serialize_bool(bool),
        serialize_i8(i8),
        serialize_i16(i16),
        serialize_i32(i32),
        serialize_i64(i64),
        serialize_i128(i128),
        serialize_u8(u8),
        serialize_u16(u16),
        serialize_u32(u32),
        serialize_u64(u64),
        serialize_u128(u128),
        serialize_f32(f32),
        serialize_f64(f64),
        serialize_char(char),
        serialize_str(&str),
        serialize_bytes(&[u8]),
        serialize_none(),
        serialize_unit(),
        serialize_unit_struct(&'static str),
        serialize_unit_variant(&'static str, u32, &'static str),
    );

    fn serialize_some<T: Serialize + ?Sized>(self, _: &T) -> Check<()> {
        Err(self.reject())
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, _: &'static str, _: &T) -> Check<()> {
        Err(self.reject())
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Check<()> {
        Err(self.reject())
    }

    fn serialize_seq(self, _: Option<usize>) -> Check<Self::SerializeSeq> {
        Err(self.reject())
    }

    fn serialize_tuple(self, _: usize) -> Check<Self::SerializeTuple> {
        Err(self.reject())
    }

    fn serialize_tuple_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Check<Self::SerializeTupleStruct> {
        Err(self.reject())
    }

    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Check<Self::SerializeTupleVariant> {
        Err(self.reject())
    }

    fn serialize_map(self, _: Option<usize>) -> Check<Self::SerializeMap> {
        Err(self.reject())
    }

    #[inline]
    fn serialize_struct(self, _: &'static str, _: usize) -> Check<VerifyFields<'a>> {
        Ok(VerifyFields {
            st: self.st,
            nodes: self.nodes,
            row: self.row,
            next: 0,
        })
    }

    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Check<Self::SerializeStructVariant> {
        Err(self.reject())
    }

    fn collect_str<T: std::fmt::Display + ?Sized>(self, _: &T) -> Check<()> {
        Err(self.reject())
    }

    fn is_human_readable(&self) -> bool {
        false
    }
}
