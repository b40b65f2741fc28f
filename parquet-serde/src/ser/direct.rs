//! The shredder's side of the derive's direct row writer (the interface and the argument for
//! why it writes what the serde path writes are in `schema/typed/direct.rs`).
//!
//! A row goes the direct way only after `direct_check`'s serializer, which writes nothing, has
//! seen the row's `Serialize` call `serialize_struct` and then `serialize_field` once per
//! field of the row's group, in schema order, each with the field's name and exactly the
//! address and type the derive expects (`&self.field`), and no `skip_field`. That is the
//! sequence after which the serde path writes field `i` by `variant::put_located(node_i, 0,
//! value_i)`: [`ShredSink`] does the same for every value the derived code hands it at
//! `(node, rep)`. Values of a [`DirectLeaf`] type at a leaf whose conversion takes every value
//! of that type unchanged (checked once per node) are pushed into the leaf's buffer without
//! the per-value dispatch; `None`, sequences at a LIST, maps at a MAP and derived structs at
//! their group write the levels serde's `serialize_none`, `serialize_seq`, `serialize_map`
//! and `serialize_struct` write there. A nested struct goes the direct way only after the same check of its own
//! `Serialize` (per value), against its group's fields; anything else goes through serde at
//! that node, as it would have.

use serde::Serialize;

use crate::core::schema::typed::direct::{DirectLeaf, DirectSink, LeafKind, LeafSink};
use crate::core::schema::ParquetSchema;
use crate::core::values::{ByteCheck, ColumnValues};
use crate::error::{Error, Result};

use super::direct_check::{hands_its_fields, FieldCheck};
use super::plan::{Conv, Kind, PlanNode};
use super::shredder::{LeafBuf, Shredder};

/// How the values at one node go.
#[derive(Debug, Clone, Copy)]
enum Slot {
    /// Not seen yet.
    Unknown,
    /// Values of `kind` go straight into leaf `leaf`.
    Leaf { kind: LeafKind, leaf: u32 },
    /// Values of `kind` go through serde.
    Serde { kind: LeafKind },
}

/// What the direct path knows of a group node that a nested derived struct is written at.
#[derive(Debug, Clone)]
enum GroupCheck {
    /// Not seen yet.
    Unknown,
    /// The struct of type `ty` (a `type_name`) has a direct writer whose fields are the
    /// group's: one check per field.
    Fields {
        ty: &'static str,
        checks: Vec<FieldCheck>,
    },
    /// Values here go through serde.
    Serde,
}

/// The direct path's state in a shredder.
#[derive(Debug, Default)]
pub(crate) struct DirectState {
    /// Whether rows may go the direct way (the row type has a direct writer whose fields
    /// are the row group's).
    enabled: bool,
    /// The first field node of the row group.
    pub(super) first: u32,
    /// One slot per node.
    slots: Vec<Slot>,
    /// One check per field of the row.
    pub(super) checks: Vec<FieldCheck>,
    /// One check per node, for nested structs.
    groups: Vec<GroupCheck>,
    /// What went which way (counted in tests only).
    #[cfg_attr(not(test), allow(dead_code))]
    pub(super) counts: Counts,
}

/// What the direct path wrote which way, counted in tests (empty otherwise).
#[derive(Debug, Default)]
pub(crate) struct Counts {
    /// Nested struct values written the direct way.
    #[cfg(test)]
    pub(super) direct_groups: u64,
    /// Values handed to serde by the direct path.
    #[cfg(test)]
    pub(super) serde_values: u64,
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
                    slots: vec![Slot::Unknown; nodes.len()],
                    checks: checks_of(layout),
                    groups: vec![GroupCheck::Unknown; nodes.len()],
                    counts: Counts::default(),
                }
            }
            _ => DirectState::default(),
        }
    }
}

/// The checks of the fields at `layout`.
fn checks_of(layout: Vec<(usize, &'static str)>) -> Vec<FieldCheck> {
    layout
        .into_iter()
        .map(|(offset, ty)| FieldCheck::new(offset, ty))
        .collect()
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
        let st = &mut self.direct;
        let fits = hands_its_fields(&mut st.checks, st.first, &self.nodes, row);
        if !fits {
            self.direct.enabled = false;
        }
        fits
    }

    /// How values of `kind` at `node` go: into a leaf (its index) or through serde.
    #[inline(always)]
    fn direct_slot(&mut self, node: u32, kind: LeafKind) -> Option<u32> {
        match self.direct.slots[node as usize] {
            Slot::Leaf { kind: k, leaf } if k == kind => Some(leaf),
            Slot::Serde { kind: k } if k == kind => None,
            _ => self.classify(node, kind),
        }
    }

    /// [`direct_slot`](Self::direct_slot) the first time: checks the leaf's conversion.
    #[cold]
    #[inline(never)]
    fn classify(&mut self, node: u32, kind: LeafKind) -> Option<u32> {
        let leaf = match self.nodes[node as usize].kind {
            Kind::Leaf(l) if takes_all(kind, &self.leaves[l as usize]) => Some(l),
            _ => None,
        };
        self.direct.slots[node as usize] = match leaf {
            Some(leaf) => Slot::Leaf { kind, leaf },
            None => Slot::Serde { kind },
        };
        leaf
    }

    /// The first field node of the group `node` when `v` may be written there the direct
    /// way: the group's fields are those of `T`'s direct writer and `v`'s `Serialize` hands
    /// exactly them.
    #[inline]
    fn direct_group<T: Serialize + ParquetSchema + ?Sized>(
        &mut self,
        node: u32,
        v: &T,
    ) -> Option<u32> {
        let Kind::Group { first, len } = self.nodes[node as usize].kind else {
            return None;
        };
        let ty = std::any::type_name::<T>();
        let st = &mut self.direct;
        if matches!(st.groups[node as usize], GroupCheck::Unknown) {
            st.groups[node as usize] = match T::__parquet_direct_layout() {
                Some(layout) if layout.len() == len as usize && len > 0 => GroupCheck::Fields {
                    ty,
                    checks: checks_of(layout),
                },
                _ => GroupCheck::Serde,
            };
        }
        match &mut st.groups[node as usize] {
            GroupCheck::Fields { ty: t, checks } if *t == ty => {
                hands_its_fields(checks, first, &self.nodes, v).then_some(first)
            }
            _ => None,
        }
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
    /// `node`, which must be a node of the plan.
    #[inline(always)]
    fn node(&self, node: u32) -> Result<u32> {
        if node as usize >= self.sh.nodes.len() {
            return Err(no_such_node(node));
        }
        Ok(node)
    }
}

impl DirectSink for ShredSink<'_> {
    #[inline(always)]
    fn row_first(&self) -> u32 {
        self.sh.direct.first
    }

    #[inline(always)]
    fn leaf<T: DirectLeaf + Serialize + ?Sized>(
        &mut self,
        node: u32,
        rep: i16,
        v: &T,
    ) -> Result<()> {
        let node = self.node(node)?;
        match self.sh.direct_slot(node, T::KIND) {
            Some(leaf) => v.put_leaf(&mut LeafPut {
                sh: self.sh,
                leaf,
                node,
                rep,
            }),
            None => self.serde(node, rep, v),
        }
    }

    #[inline(always)]
    fn serde<T: Serialize + ?Sized>(&mut self, node: u32, rep: i16, v: &T) -> Result<()> {
        let node = self.node(node)?;
        #[cfg(test)]
        {
            self.sh.direct.counts.serde_values += 1;
        }
        super::variant::put_located(self.sh, node, rep, v)
    }

    #[inline]
    fn none<T: Serialize + ?Sized>(&mut self, node: u32, rep: i16, v: &T) -> Result<()> {
        let node = self.node(node)?;
        match self.sh.nodes[node as usize].kind {
            // serde's `None` at a VARIANT is a Variant null.
            Kind::Variant { .. } => self.serde(node, rep, v),
            _ => self
                .sh
                .null_at(node, rep)
                .map_err(|e| self.sh.locate(e, node)),
        }
    }

    #[inline(always)]
    fn list(&mut self, node: u32) -> Option<(u32, i16)> {
        match self.sh.nodes.get(node as usize)?.kind {
            Kind::List { element, entry_rep } => Some((element, entry_rep)),
            _ => None,
        }
    }

    #[inline]
    fn empty_list(&mut self, node: u32, rep: i16) -> Result<()> {
        let node = self.node(node)?;
        // What `SeqSer::finish` writes for a sequence with no element.
        let def = self.sh.nodes[node as usize].def;
        self.sh.nulls(node, def, rep);
        Ok(())
    }

    #[inline(always)]
    fn map(&mut self, node: u32) -> Option<(u32, i16)> {
        // `MapSer`'s entries mode: a key node that is a leaf (so that a key the leaf does not
        // take goes through the same `put_located` as `MapSer`'s key), the value node next.
        match self.sh.nodes.get(node as usize)?.kind {
            Kind::Map { key, entry_rep }
                if matches!(
                    self.sh.nodes.get(key as usize).map(|n| n.kind),
                    Some(Kind::Leaf(_))
                ) && (key as usize + 1) < self.sh.nodes.len() =>
            {
                Some((key, entry_rep))
            }
            _ => None,
        }
    }

    #[inline]
    fn empty_map(&mut self, node: u32, rep: i16) -> Result<()> {
        let node = self.node(node)?;
        // What `MapSer::end` writes for a map with no entry.
        let def = self.sh.nodes[node as usize].def;
        self.sh.nulls(node, def, rep);
        Ok(())
    }

    #[inline]
    fn group<T: Serialize + ParquetSchema + ?Sized>(&mut self, node: u32, v: &T) -> Option<u32> {
        if node as usize >= self.sh.nodes.len() {
            return None;
        }
        let first = self.sh.direct_group(node, v);
        #[cfg(test)]
        {
            self.sh.direct.counts.direct_groups += first.is_some() as u64;
        }
        first
    }
}

/// A direct writer that writes at a node past the plan's (a hand-written `ParquetSchema`
/// implementing the hidden methods wrongly).
#[cold]
fn no_such_node(node: u32) -> Error {
    Error::internal(format!(
        "the direct writer wrote at node {node}, past the row's nodes"
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
    /// The repetition level of the value's entry.
    rep: i16,
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
        l.present(self.rep);
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
            .null_at(self.node, self.rep)
            .map_err(|e| self.sh.locate(e, self.node))
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use serde::Serialize;

    use super::super::shredder::Shredder;
    use super::super::writer::schema_of;
    use crate::core::column::ColumnBatch;
    use crate::ParquetSchema;

    // The nested log row of the compare-arrow tool's nested workload.
    #[derive(Serialize, ParquetSchema, Clone)]
    #[parquet(crate = "crate")]
    struct Http {
        method: String,
        path: String,
        status: u16,
        latency_ms: f64,
    }

    #[derive(Serialize, ParquetSchema, Clone)]
    #[parquet(crate = "crate")]
    struct Span {
        name: String,
        dur_us: i64,
    }

    #[derive(Serialize, ParquetSchema, Clone)]
    #[parquet(crate = "crate")]
    struct Event {
        ts_micros: i64,
        level: String,
        message: String,
        tags: Vec<String>,
        attrs: BTreeMap<String, String>,
        http: Option<Http>,
        spans: Vec<Span>,
    }

    fn event(k: usize) -> Event {
        Event {
            ts_micros: 1_700_000_000_000_000 + k as i64,
            level: ["INFO", "WARN"][k % 2].to_string(),
            message: format!("message {k}"),
            tags: (0..k % 3).map(|t| format!("tag{t}")).collect(),
            attrs: (0..k % 2)
                .map(|a| (format!("key{a}"), format!("v{k}")))
                .collect(),
            http: (!k.is_multiple_of(3)).then(|| Http {
                method: "GET".to_string(),
                path: format!("/api/v1/items/{k}"),
                status: 200,
                latency_ms: k as f64 / 100.0,
            }),
            spans: (0..k % 4)
                .map(|s| Span {
                    name: format!("span{s}"),
                    dur_us: s as i64,
                })
                .collect(),
        }
    }

    /// Shreds `rows` the way the writer does, and through serde only: the shredder of the
    /// first, and the batches of both.
    fn shred_both<T: Serialize + ParquetSchema>(rows: &[T]) -> (Shredder, Vec<ColumnBatch>) {
        let (schema, wrapped) = schema_of::<T>().unwrap();
        let mut direct = Shredder::new(&schema, wrapped).unwrap();
        direct.enable_direct(T::__parquet_direct_layout(), wrapped);
        let mut serde = Shredder::new(&schema, wrapped).unwrap();
        for row in rows {
            direct.shred_row(row).unwrap();
            serde.shred(row).unwrap();
        }
        (direct, serde.take_batches())
    }

    #[test]
    fn the_nested_log_row_goes_the_direct_way() {
        let rows: Vec<Event> = (0..60).map(event).collect();
        let (mut sh, want) = shred_both(&rows);
        assert!(sh.direct.enabled, "the row went through serde");
        // Every `Http` and `Span` went the direct way, and the map's entries too: nothing
        // went through serde.
        let nested = rows
            .iter()
            .map(|r| r.http.is_some() as u64 + r.spans.len() as u64)
            .sum::<u64>();
        assert!(nested > 0);
        assert_eq!(sh.direct.counts.direct_groups, nested);
        assert_eq!(sh.direct.counts.serde_values, 0);
        assert_eq!(sh.take_batches(), want);
    }

    /// A struct whose `Serialize` writes another value than its field.
    #[derive(ParquetSchema)]
    #[parquet(crate = "crate")]
    struct Masked {
        n: i64,
    }

    impl Serialize for Masked {
        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            use serde::ser::SerializeStruct;
            let mut st = s.serialize_struct("Masked", 1)?;
            st.serialize_field("n", &(self.n * 2))?;
            st.end()
        }
    }

    #[derive(Serialize, ParquetSchema)]
    #[parquet(crate = "crate")]
    struct HoldsMasked {
        id: i32,
        one: Masked,
        many: Vec<Masked>,
        maybe: Option<Masked>,
    }

    #[test]
    fn a_nested_struct_whose_serialize_is_not_the_derived_one_goes_through_serde() {
        let rows: Vec<HoldsMasked> = (0..5)
            .map(|k| HoldsMasked {
                id: k,
                one: Masked { n: k as i64 },
                many: (0..k).map(|n| Masked { n: n as i64 }).collect(),
                maybe: (k % 2 == 0).then_some(Masked { n: 7 }),
            })
            .collect();
        let (mut sh, want) = shred_both(&rows);
        // The row itself goes the direct way; no `Masked` value does.
        assert!(sh.direct.enabled);
        assert_eq!(sh.direct.counts.direct_groups, 0);
        let masked = rows
            .iter()
            .map(|r| 1 + r.many.len() as u64 + r.maybe.is_some() as u64)
            .sum::<u64>();
        assert_eq!(sh.direct.counts.serde_values, masked);
        assert_eq!(sh.take_batches(), want);
    }
}
