//! The shredder's side of the derive's direct row writer (the interface and the argument for
//! why it writes what the serde path writes are in `schema/typed/direct.rs`).
//!
//! A row goes the direct way only after `direct_check`'s serializer, which writes nothing, has
//! seen the row's `Serialize` call `serialize_struct` and then `serialize_field` once per
//! field of the row's group, in schema order, each with the field's name and exactly the
//! address and type the derive expects (`&self.field`), and no `skip_field`. That is the
//! sequence after which the serde path writes field `i` by `variant::put_located(node_i, value_i)`:
//! [`ShredSink`] does the same for every field, except that values of a [`DirectLeaf`] type
//! at a leaf whose conversion takes every value of that type unchanged (checked once per
//! field) are pushed into the leaf's buffer without the per-value dispatch.

use serde::Serialize;

use crate::core::schema::typed::direct::{DirectLeaf, DirectSink, LeafKind, LeafSink};
use crate::core::schema::ParquetSchema;
use crate::core::values::{ByteCheck, ColumnValues};
use crate::error::{Error, Result};

use super::direct_check::{hands_its_fields, FieldCheck};
use super::plan::{Conv, Kind, PlanNode};
use super::shredder::{LeafBuf, Shredder};

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

/// The direct path's state in a shredder.
#[derive(Debug, Default)]
pub(crate) struct DirectState {
    /// Whether rows may go the direct way (the row type has a direct writer whose fields
    /// are the row group's).
    enabled: bool,
    /// The first field node of the row group.
    pub(super) first: u32,
    /// One slot per field.
    slots: Vec<Slot>,
    /// One check per field.
    pub(super) checks: Vec<FieldCheck>,
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
                        .map(|(offset, ty)| FieldCheck::new(offset, ty))
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
        let fits = hands_its_fields(&mut self.direct, &self.nodes, row);
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
            Kind::Leaf(l) if takes_all(kind, &self.leaves[l as usize]) => Some(l),
            _ => None,
        };
        self.direct.slots[i as usize] = match leaf {
            Some(leaf) => Slot::Leaf { kind, leaf },
            None => Slot::Serde { kind },
        };
        leaf
    }
}

/// Whether `leaf` (its conversion and buffer) takes every value of `kind` on the serde
/// path's fast path (the same push, no check that could fail).
fn takes_all(kind: LeafKind, leaf: &LeafBuf) -> bool {
    if !matches!(leaf.check, ByteCheck::None | ByteCheck::Utf8) {
        // JSON and BSON values are checked on the serde path.
        return false;
    }
    match (kind.int_range(), kind, leaf.conv, &leaf.batch.values) {
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

impl ShredSink<'_> {
    /// The node of field `i`, which must be one of the row's fields.
    #[inline(always)]
    fn field_node(&self, i: u32) -> Result<u32> {
        if i as usize >= self.sh.direct.slots.len() {
            return Err(no_such_field(i));
        }
        Ok(self.sh.direct.first + i)
    }
}

impl DirectSink for ShredSink<'_> {
    #[inline(always)]
    fn leaf<T: DirectLeaf + Serialize + ?Sized>(&mut self, i: u32, v: &T) -> Result<()> {
        let node = self.field_node(i)?;
        match self.sh.direct_slot(i, T::KIND) {
            Some(leaf) => v.put_leaf(&mut LeafPut {
                sh: self.sh,
                leaf,
                node,
            }),
            None => super::variant::put_located(self.sh, node, 0, v),
        }
    }

    #[inline(always)]
    fn serde<T: Serialize + ?Sized>(&mut self, i: u32, v: &T) -> Result<()> {
        let node = self.field_node(i)?;
        super::variant::put_located(self.sh, node, 0, v)
    }
}

/// A direct writer that writes more fields than its layout has (a hand-written
/// `ParquetSchema` implementing the hidden methods wrongly).
#[cold]
fn no_such_field(i: u32) -> Error {
    Error::internal(format!(
        "the direct writer wrote field {i}, past the row's fields"
    ))
}

/// A leaf's buffer no longer of the type its slot was found for (a bug: buffers are only
/// exchanged for ones of the same type).
#[cold]
fn changed() -> Error {
    Error::internal("a column buffer changed type under the direct writer")
}

/// One leaf of the row, whose conversion [`takes_all`] values of the field's type.
struct LeafPut<'a> {
    sh: &'a mut Shredder,
    leaf: u32,
    node: u32,
}

impl LeafPut<'_> {
    /// Appends a value by `push` (`false`: the buffer is not of a type it takes) and the
    /// levels of a present value, as the serde path's fast path does.
    #[inline(always)]
    fn put(&mut self, push: impl FnOnce(&mut ColumnValues) -> bool) -> Result<()> {
        let l = self.sh.leaf_buf(self.leaf);
        if !push(&mut l.batch.values) {
            return Err(changed());
        }
        l.present(0);
        Ok(())
    }
}

impl LeafSink for LeafPut<'_> {
    #[inline(always)]
    fn int(&mut self, v: i128) -> Result<()> {
        // The conversion takes the whole range of the type: the serde path's push.
        self.put(|values| match values {
            ColumnValues::Int64(out) => {
                out.push(v as i64);
                true
            }
            ColumnValues::Int32(out) => {
                out.push(v as i32);
                true
            }
            _ => false,
        })
    }

    #[inline(always)]
    fn f32(&mut self, v: f32) -> Result<()> {
        self.put(|values| match values {
            ColumnValues::Double(out) => {
                out.push(v as f64);
                true
            }
            ColumnValues::Float(out) => {
                out.push(v);
                true
            }
            _ => false,
        })
    }

    #[inline(always)]
    fn f64(&mut self, v: f64) -> Result<()> {
        self.put(|values| match values {
            ColumnValues::Double(out) => {
                out.push(v);
                true
            }
            _ => false,
        })
    }

    #[inline(always)]
    fn bool(&mut self, v: bool) -> Result<()> {
        self.put(|values| match values {
            ColumnValues::Boolean(out) => {
                out.push(v);
                true
            }
            _ => false,
        })
    }

    #[inline(always)]
    fn str(&mut self, v: &str) -> Result<()> {
        self.put(|values| match values {
            ColumnValues::ByteArray(out) => {
                out.push(v.as_bytes());
                true
            }
            _ => false,
        })
    }

    #[inline]
    fn none(&mut self) -> Result<()> {
        // What serde's `serialize_none` does at the field.
        self.sh
            .null_at(self.node, 0)
            .map_err(|e| self.sh.locate(e, self.node))
    }
}
