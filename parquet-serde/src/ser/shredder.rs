//! [`Shredder`]: the plan plus one [`ColumnBatch`] per leaf, and the operations the
//! serializer performs on them: append a value or a null at a leaf, append nulls for a whole
//! subtree, roll back a failed row.

use crate::core::column::{truncate_values, ColumnBatch};
use crate::core::format::TimeUnit;
use crate::core::schema::Schema;
use crate::core::values::{ByteCheck, ColumnValues};
use crate::error::{Error, Result};

use super::direct::DirectState;
use super::plan::{max_unscaled, Conv, Kind, Plan, PlanNode, Text};
use crate::core::values::numeric::f16_from_f64_exact;
use crate::core::values::text::{self, nanos_per};

/// The buffer of one leaf.
#[derive(Debug)]
pub(crate) struct LeafBuf {
    pub batch: ColumnBatch,
    pub conv: Conv,
    pub max_def: i16,
    pub has_def: bool,
    pub has_rep: bool,
    /// What the annotation asks of a value's bytes.
    pub check: ByteCheck,
    /// A TIMESTAMP adjusted to UTC.
    pub utc: bool,
}

impl LeafBuf {
    /// Appends the levels of a present value.
    #[inline]
    pub(super) fn present(&mut self, rep: i16) {
        if self.has_def {
            self.batch.def_levels.push(self.max_def);
        }
        if self.has_rep {
            self.batch.rep_levels.push(rep);
        }
    }
}

/// Shreds rows into per-leaf column batches.
#[derive(Debug)]
pub(crate) struct Shredder {
    pub(crate) nodes: Vec<PlanNode>,
    pub(crate) leaves: Vec<LeafBuf>,
    entry: u32,
    /// Last stamp handed to a group instance written out of order.
    stamp: u64,
    /// Reused text buffer for `collect_str`.
    pub(crate) scratch: String,
    /// Rows in the buffers.
    rows: usize,
    /// Rows shredded before the buffers' first row (for error row numbers).
    row_base: u64,
    /// The derive's direct path (see `direct.rs`), off unless enabled.
    pub(super) direct: DirectState,
}

impl Shredder {
    /// A shredder for `schema`; `wrapped` as in [`Plan::new`].
    pub fn new(schema: &Schema, wrapped: bool) -> Result<Self> {
        let plan = Plan::new(schema, wrapped)?;
        let leaves = plan
            .leaves
            .iter()
            .map(|l| LeafBuf {
                batch: ColumnBatch::new(l.physical_type, l.type_length),
                conv: l.conv,
                max_def: l.max_def,
                has_def: l.max_def > 0,
                has_rep: l.max_rep > 0,
                check: l.check,
                utc: l.utc,
            })
            .collect();
        Ok(Shredder {
            nodes: plan.nodes,
            leaves,
            entry: plan.entry,
            stamp: 0,
            scratch: String::new(),
            rows: 0,
            row_base: 0,
            direct: DirectState::default(),
        })
    }

    /// Lets rows of a type whose derived direct writer writes the fields at `layout` go
    /// that way (see [`shred_row`](Self::shred_row)); `wrapped` as in [`new`](Self::new).
    pub(crate) fn enable_direct(
        &mut self,
        layout: Option<Vec<(usize, &'static str)>>,
        wrapped: bool,
    ) {
        self.direct = DirectState::new(&self.nodes, self.entry, wrapped, layout);
    }

    /// The buffer of leaf `l`.
    #[inline(always)]
    pub(super) fn leaf_buf(&mut self, l: u32) -> &mut LeafBuf {
        &mut self.leaves[l as usize]
    }

    /// Rows in the buffers.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Shreds one row. On error the buffers are as they were before the call, and the error
    /// names the row (counted from the first row this shredder took).
    pub fn shred<T: serde::Serialize + ?Sized>(&mut self, row: &T) -> Result<()> {
        self.shred_with(|sh, entry| super::variant::put(sh, entry, 0, row))
    }

    /// Shreds one row by `f`, given the shredder and the node a row goes to (at repetition
    /// level 0); on error, as [`shred`](Self::shred).
    pub fn shred_with(&mut self, f: impl FnOnce(&mut Shredder, u32) -> Result<()>) -> Result<()> {
        let entry = self.entry;
        match f(self, entry) {
            Ok(()) => {
                self.rows += 1;
                Ok(())
            }
            Err(e) => {
                self.rollback();
                Err(e.with_row(self.row_base + self.rows as u64))
            }
        }
    }

    /// The leaf batches, for handing to column writers (which may exchange them for other
    /// empty buffers of the same type); call [`clear`](Self::clear) after.
    pub fn batches_mut(&mut self) -> impl ExactSizeIterator<Item = &mut ColumnBatch> {
        self.leaves.iter_mut().map(|l| &mut l.batch)
    }

    /// Empties the buffers (keeping their allocations).
    pub fn clear(&mut self) {
        self.row_base += self.rows as u64;
        self.rows = 0;
        for l in &mut self.leaves {
            truncate_values(&mut l.batch.values, 0);
            l.batch.def_levels.clear();
            l.batch.rep_levels.clear();
        }
    }

    /// Takes the buffers out, leaving empty ones.
    pub fn take_batches(&mut self) -> Vec<ColumnBatch> {
        self.row_base += self.rows as u64;
        self.rows = 0;
        self.leaves
            .iter_mut()
            .map(|l| {
                let empty = ColumnBatch {
                    values: crate::core::column::empty_values_like(&l.batch.values),
                    def_levels: Vec::new(),
                    rep_levels: Vec::new(),
                };
                std::mem::replace(&mut l.batch, empty)
            })
            .collect()
    }

    /// An estimate of the bytes held by the buffers.
    pub fn buffered_bytes(&self) -> usize {
        self.leaves
            .iter()
            .map(|l| {
                let b = &l.batch;
                value_bytes(&b.values) + 2 * (b.def_levels.len() + b.rep_levels.len())
            })
            .sum()
    }

    /// Cuts every leaf back to the first `self.rows` rows (removing a partly written row).
    /// Every row writes at least one entry to every leaf, and a row's first entry is the
    /// only one with repetition level 0, so the cut is found from the levels alone.
    fn rollback(&mut self) {
        let rows = self.rows;
        for l in &mut self.leaves {
            let b = &mut l.batch;
            let levels = if l.has_rep {
                let mut zeros = 0usize;
                let mut cut = b.rep_levels.len();
                for (i, &r) in b.rep_levels.iter().enumerate() {
                    if r == 0 {
                        if zeros == rows {
                            cut = i;
                            break;
                        }
                        zeros += 1;
                    }
                }
                b.rep_levels.truncate(cut);
                cut
            } else {
                rows
            };
            let values = if l.has_def {
                b.def_levels.truncate(levels);
                b.def_levels.iter().filter(|&&d| d == l.max_def).count()
            } else {
                levels
            };
            truncate_values(&mut b.values, values);
        }
    }

    // -----------------------------------------------------------------------------------
    // Errors

    /// `err` with the path of `node` unless it names a column already.
    pub(crate) fn locate(&self, err: Error, node: u32) -> Error {
        if err.location().column.is_some() {
            return err;
        }
        match self.nodes.get(node as usize) {
            Some(n) if !n.path.is_empty() => err.with_column(n.path.clone()),
            _ => err,
        }
    }

    /// A data error at `node`.
    pub(crate) fn error(&self, node: u32, message: impl Into<String>) -> Error {
        self.locate(Error::data(message), node)
    }

    /// A value that its column's annotation refuses (`why`: what it is not).
    #[cold]
    fn unfit(&self, node: u32, why: String) -> Error {
        let l = match self.nodes.get(node as usize).map(|n| n.kind) {
            Some(Kind::Leaf(l)) => self.leaves.get(l as usize),
            _ => None,
        };
        let column = match l.map(|l| l.check) {
            Some(ByteCheck::Json) => "a JSON",
            Some(ByteCheck::Bson) => "a BSON",
            Some(ByteCheck::Utf8) => "a string",
            _ => "the",
        };
        self.error(node, format!("the value for {column} column is {why}"))
    }

    /// "found `got` where the node expects ...".
    pub(crate) fn mismatch(&self, node: u32, got: &str) -> Error {
        let want = match self.nodes.get(node as usize).map(|n| n.kind) {
            Some(Kind::Leaf(l)) => match self.leaves.get(l as usize).map(|l| l.conv) {
                Some(Conv::Bool) => "a bool",
                Some(
                    Conv::Int32 {
                        text: Text::None, ..
                    }
                    | Conv::Int64 {
                        text: Text::None, ..
                    },
                ) => "an integer",
                Some(
                    Conv::Int32 {
                        text: Text::Date, ..
                    }
                    | Conv::Int64 {
                        text: Text::Date, ..
                    },
                ) => "a date (days as an integer, or text)",
                Some(
                    Conv::Int32 {
                        text: Text::Time(_),
                        ..
                    }
                    | Conv::Int64 {
                        text: Text::Time(_),
                        ..
                    },
                ) => "a time of day (an integer, or text)",
                Some(
                    Conv::Int32 {
                        text: Text::Timestamp(_),
                        ..
                    }
                    | Conv::Int64 {
                        text: Text::Timestamp(_),
                        ..
                    },
                ) => "a timestamp (an integer, SystemTime, or RFC 3339 text)",
                Some(
                    Conv::Int32 {
                        text: Text::Decimal(_),
                        ..
                    }
                    | Conv::Int64 {
                        text: Text::Decimal(_),
                        ..
                    }
                    | Conv::Decimal { .. },
                ) => "a decimal (an unscaled integer, or text)",
                Some(Conv::Float | Conv::Double) => "a float",
                Some(Conv::Str) => "a string",
                Some(Conv::Binary) => "bytes",
                Some(Conv::Fixed { .. }) => "fixed-length bytes",
                Some(Conv::Uuid) => "a UUID (16 bytes, u128 or text)",
                Some(Conv::Float16) => "a half float (f16, its u16 bits, or an exact float)",
                None => "a value",
            },
            Some(Kind::Group { .. }) => "a struct",
            Some(Kind::List { .. }) => "a sequence",
            Some(Kind::Map { .. }) => "a map",
            Some(Kind::Variant { .. }) => "a variant",
            None => "a value",
        };
        self.error(node, format!("found {got} where {want} is expected"))
    }

    // -----------------------------------------------------------------------------------
    // Nulls

    /// Appends, for every leaf below `node`, an entry with definition level `def` and
    /// repetition level `rep` and no value.
    #[inline]
    pub(crate) fn nulls(&mut self, node: u32, def: i16, rep: i16) {
        let (a, b) = self.nodes[node as usize].leaves;
        for l in &mut self.leaves[a as usize..b as usize] {
            // Below a node that can be missing, every leaf has definition levels; a leaf
            // with repetition levels has them too.
            l.batch.def_levels.push(def);
            if l.has_rep {
                l.batch.rep_levels.push(rep);
            }
        }
    }

    /// A null at `node` (serde's `None`, or a skipped field).
    #[inline]
    pub(crate) fn null_at(&mut self, node: u32, rep: i16) -> Result<()> {
        let n = &self.nodes[node as usize];
        if !n.optional {
            let message = if n.is_key {
                "found None (a null) for a map key, which cannot be null"
            } else {
                "found None (a null) for a required field"
            };
            return Err(self.error(node, message));
        }
        let def = n.def - 1;
        self.nulls(node, def, rep);
        Ok(())
    }

    /// The next stamp for a group instance written out of order.
    pub(crate) fn next_stamp(&mut self) -> u64 {
        self.stamp += 1;
        self.stamp
    }

    /// Whether field `node` is named `key`; remembers the address of a matching static key.
    #[inline]
    pub(crate) fn static_name_is(&mut self, node: u32, key: &'static str) -> bool {
        let n = &mut self.nodes[node as usize];
        if n.key_addr == key.as_ptr() as usize && n.name.len() == key.len() {
            return true;
        }
        if n.name == key {
            n.key_addr = key.as_ptr() as usize;
            return true;
        }
        false
    }

    // -----------------------------------------------------------------------------------
    // Values

    /// The leaf of `node`, or a mismatch error naming what serde gave (`got`).
    #[inline]
    fn leaf(&mut self, node: u32, got: &str) -> Result<&mut LeafBuf> {
        match self.nodes[node as usize].kind {
            Kind::Leaf(l) => Ok(&mut self.leaves[l as usize]),
            _ => Err(self.mismatch(node, got)),
        }
    }

    /// Whether `node` is a leaf that takes a sequence of `u8` as one value.
    pub(crate) fn takes_byte_seq(&self, node: u32) -> bool {
        match self.nodes[node as usize].kind {
            Kind::Leaf(l) => self.leaves[l as usize].conv.takes_byte_seq(),
            _ => false,
        }
    }

    /// Whether `node` is a TIMESTAMP leaf (which takes serde's `SystemTime` struct).
    pub(crate) fn is_timestamp(&self, node: u32) -> bool {
        match self.nodes[node as usize].kind {
            Kind::Leaf(l) => matches!(
                self.leaves[l as usize].conv,
                Conv::Int32 {
                    text: Text::Timestamp(_),
                    ..
                } | Conv::Int64 {
                    text: Text::Timestamp(_),
                    ..
                }
            ),
            _ => false,
        }
    }

    /// The text form of a DATE, TIME or TIMESTAMP leaf at `node` (`None` for other nodes).
    fn civil_text(&self, node: u32) -> Option<Text> {
        match self.nodes[node as usize].kind {
            Kind::Leaf(l) => match self.leaves[l as usize].conv {
                Conv::Int32 { text, .. } | Conv::Int64 { text, .. } => match text {
                    Text::Date | Text::Time(_) | Text::Timestamp(_) => Some(text),
                    Text::None | Text::Decimal(_) => None,
                },
                _ => None,
            },
            _ => None,
        }
    }

    /// Whether `node` is a DATE, TIME or TIMESTAMP leaf (which takes the `time` crate's
    /// tuples).
    pub(crate) fn is_civil(&self, node: u32) -> bool {
        self.civil_text(node).is_some()
    }

    /// The `time` crate's compact form of a date or time at a DATE, TIME or TIMESTAMP leaf:
    /// `(year, ordinal)` for a DATE; `(hour, minute, second, nanosecond)` for a TIME (kept to
    /// the unit, rounded toward midnight); `(year, ordinal, hour, minute, second,
    /// nanosecond)` for a TIMESTAMP, with the offset `(hours, minutes, seconds)` after them
    /// for an instant.
    pub(crate) fn put_civil(&mut self, node: u32, rep: i16, parts: &[i64]) -> Result<()> {
        use crate::core::values::calendar::{days_of_ordinal, nanos_of_time, NANOS_PER_DAY};
        let invalid = |sh: &Self, what: &str| {
            sh.error(
                node,
                format!("the integers {parts:?} are not a valid {what}"),
            )
        };
        match (self.civil_text(node), parts) {
            (Some(Text::Date), &[year, ordinal]) => {
                let days = days_of_ordinal(year, ordinal)
                    .ok_or_else(|| invalid(self, "(year, day of year) date"))?;
                self.put_int(node, rep, days as i128)
            }
            (Some(Text::Time(unit)), &[h, m, s, ns]) => {
                let t = nanos_of_time(h, m, s, ns).ok_or_else(|| invalid(self, "time of day"))?;
                self.put_int(node, rep, t as i128 / nanos_per(unit))
            }
            (Some(Text::Timestamp(unit)), &[year, ordinal, h, m, s, ns, ref offset @ ..])
                if offset.is_empty() || offset.len() == 3 =>
            {
                let days = days_of_ordinal(year, ordinal)
                    .ok_or_else(|| invalid(self, "(year, day of year) date"))?;
                let t = nanos_of_time(h, m, s, ns).ok_or_else(|| invalid(self, "time of day"))?;
                let offset_secs = match *offset {
                    [oh, om, os] if oh.abs() < 26 && om.abs() < 60 && os.abs() < 60 => {
                        oh * 3600 + om * 60 + os
                    }
                    [] => 0,
                    _ => return Err(invalid(self, "UTC offset")),
                };
                let nanos =
                    days as i128 * NANOS_PER_DAY + t as i128 - offset_secs as i128 * 1_000_000_000;
                self.put_time_nanos(node, rep, nanos, unit)
            }
            _ => Err(self.mismatch(node, &format!("a tuple of {} integers", parts.len()))),
        }
    }

    #[inline]
    pub(crate) fn put_bool(&mut self, node: u32, rep: i16, v: bool) -> Result<()> {
        let l = self.leaf(node, "a bool")?;
        match &mut l.batch.values {
            ColumnValues::Boolean(b) if l.conv == Conv::Bool => b.push(v),
            _ => return Err(self.mismatch(node, "a bool")),
        }
        l.present(rep);
        Ok(())
    }

    /// A unit value (`()`, a unit struct, a unit variant's field): `true`.
    pub(crate) fn put_unit(&mut self, node: u32, rep: i16) -> Result<()> {
        let l = self.leaf(node, "a unit value")?;
        match &mut l.batch.values {
            ColumnValues::Boolean(b) => b.push(true),
            _ => return Err(self.mismatch(node, "a unit value")),
        }
        l.present(rep);
        Ok(())
    }

    /// Any integer.
    #[inline]
    pub(crate) fn put_int(&mut self, node: u32, rep: i16, v: i128) -> Result<()> {
        // Fast path: an integer column and a value in its range.
        if let Kind::Leaf(l) = self.nodes[node as usize].kind {
            let leaf = &mut self.leaves[l as usize];
            let done = match (leaf.conv, &mut leaf.batch.values) {
                (Conv::Int64 { lo, hi, .. }, ColumnValues::Int64(out)) if v >= lo && v <= hi => {
                    out.push(v as i64);
                    true
                }
                (Conv::Int32 { lo, hi, .. }, ColumnValues::Int32(out))
                    if v >= lo as i128 && v <= hi as i128 =>
                {
                    out.push(v as i32);
                    true
                }
                _ => false,
            };
            if done {
                leaf.present(rep);
                return Ok(());
            }
        }
        self.put_int_slow(node, rep, v)
    }

    /// [`put_int`](Self::put_int) for the other columns and for errors.
    fn put_int_slow(&mut self, node: u32, rep: i16, v: i128) -> Result<()> {
        let l = self.leaf(node, "an integer")?;
        match (l.conv, &mut l.batch.values) {
            (Conv::Int64 { lo, hi, .. }, ColumnValues::Int64(out)) if v >= lo && v <= hi => {
                out.push(v as i64)
            }
            (Conv::Int32 { lo, hi, .. }, ColumnValues::Int32(out))
                if v >= lo as i128 && v <= hi as i128 =>
            {
                out.push(v as i32)
            }
            (Conv::Int64 { .. } | Conv::Int32 { .. }, _) => {
                return Err(self.error(node, format!("integer {v} is out of the column's range")))
            }
            (
                Conv::Decimal {
                    width, precision, ..
                },
                values,
            ) => {
                if v.unsigned_abs() > max_unscaled(precision) as u128 {
                    return Err(self.error(node, format!("{v} has more than {precision} digits")));
                }
                push_decimal(values, width, v).map_err(|m| self.error(node, m))?;
            }
            (Conv::Uuid, ColumnValues::FixedLenByteArray(out)) if v >= 0 => {
                out.data.extend_from_slice(&v.to_be_bytes())
            }
            (Conv::Float16, ColumnValues::FixedLenByteArray(out)) => match u16::try_from(v) {
                Ok(bits) => out.data.extend_from_slice(&bits.to_le_bytes()),
                Err(_) => {
                    return Err(self.error(
                        node,
                        format!("integer {v} is not the 16 bits of a half float"),
                    ))
                }
            },
            _ => return Err(self.mismatch(node, "an integer")),
        }
        self.present(node, rep);
        Ok(())
    }

    /// A `u128` (beyond `i128` only a UUID takes it).
    pub(crate) fn put_u128(&mut self, node: u32, rep: i16, v: u128) -> Result<()> {
        match i128::try_from(v) {
            Ok(v) => self.put_int(node, rep, v),
            Err(_) => {
                let l = self.leaf(node, "a u128")?;
                match (l.conv, &mut l.batch.values) {
                    (Conv::Uuid, ColumnValues::FixedLenByteArray(out)) => {
                        out.data.extend_from_slice(&v.to_be_bytes())
                    }
                    _ => {
                        return Err(
                            self.error(node, format!("{v} does not fit a signed 128-bit decimal"))
                        )
                    }
                }
                self.present(node, rep);
                Ok(())
            }
        }
    }

    #[inline]
    pub(crate) fn put_float(&mut self, node: u32, rep: i16, v: f64, got: &str) -> Result<()> {
        // Fast path: a DOUBLE column.
        if let Kind::Leaf(l) = self.nodes[node as usize].kind {
            let leaf = &mut self.leaves[l as usize];
            if let ColumnValues::Double(out) = &mut leaf.batch.values {
                out.push(v);
                leaf.present(rep);
                return Ok(());
            }
        }
        self.put_float_slow(node, rep, v, got)
    }

    /// [`put_float`](Self::put_float) for FLOAT columns and for errors.
    fn put_float_slow(&mut self, node: u32, rep: i16, v: f64, got: &str) -> Result<()> {
        let l = self.leaf(node, got)?;
        match &mut l.batch.values {
            ColumnValues::Double(out) => out.push(v),
            ColumnValues::Float(out) => out.push(v as f32),
            ColumnValues::FixedLenByteArray(out) if l.conv == Conv::Float16 => {
                match f16_from_f64_exact(v) {
                    Some(h) => out.data.extend_from_slice(&h),
                    None => {
                        return Err(self.error(node, format!("{v} is not exactly a half float")))
                    }
                }
            }
            _ => return Err(self.mismatch(node, got)),
        }
        l.present(rep);
        Ok(())
    }

    /// Text (also chars and unit variant names).
    #[inline]
    pub(crate) fn put_str(&mut self, node: u32, rep: i16, s: &str) -> Result<()> {
        // Fast path: a string or bytes column.
        if let Kind::Leaf(l) = self.nodes[node as usize].kind {
            let leaf = &mut self.leaves[l as usize];
            if let (
                Conv::Str | Conv::Binary,
                ByteCheck::None | ByteCheck::Utf8,
                ColumnValues::ByteArray(out),
            ) = (leaf.conv, leaf.check, &mut leaf.batch.values)
            {
                out.push(s.as_bytes());
                leaf.present(rep);
                return Ok(());
            }
        }
        self.put_str_slow(node, rep, s)
    }

    /// [`put_str`](Self::put_str) for the other columns and for errors.
    fn put_str_slow(&mut self, node: u32, rep: i16, s: &str) -> Result<()> {
        let l = self.leaf(node, "a string")?;
        match (l.conv, &mut l.batch.values) {
            (Conv::Str | Conv::Binary, ColumnValues::ByteArray(out)) => {
                if let Err(why) = l.check.check_str(s) {
                    return Err(self.unfit(node, why));
                }
                out.push(s.as_bytes())
            }
            (Conv::Fixed { width }, ColumnValues::FixedLenByteArray(out)) if s.len() == width => {
                out.data.extend_from_slice(s.as_bytes())
            }
            (Conv::Uuid, ColumnValues::FixedLenByteArray(out)) => match text::parse_uuid(s) {
                Some(b) => out.data.extend_from_slice(&b),
                None => return Err(self.error(node, format!("`{s}` is not a UUID"))),
            },
            (Conv::Decimal { scale, .. }, _)
            | (
                Conv::Int32 {
                    text: Text::Decimal(scale),
                    ..
                },
                _,
            )
            | (
                Conv::Int64 {
                    text: Text::Decimal(scale),
                    ..
                },
                _,
            ) => return self.put_decimal_text(node, rep, s, scale),
            (
                Conv::Int32 {
                    text: Text::Date, ..
                }
                | Conv::Int64 {
                    text: Text::Date, ..
                },
                _,
            ) => {
                let d = text::parse_date(s)
                    .ok_or_else(|| self.error(node, format!("`{s}` is not a date (YYYY-MM-DD)")))?;
                return self.put_int(node, rep, d as i128);
            }
            (
                Conv::Int32 {
                    text: Text::Time(unit),
                    ..
                }
                | Conv::Int64 {
                    text: Text::Time(unit),
                    ..
                },
                _,
            ) => {
                let t = text::parse_time(s).ok_or_else(|| {
                    self.error(
                        node,
                        format!("`{s}` is not a time of day (HH:MM:SS[.fraction])"),
                    )
                })?;
                return self.put_int(node, rep, t as i128 / nanos_per(unit));
            }
            (
                Conv::Int32 {
                    text: Text::Timestamp(unit),
                    ..
                }
                | Conv::Int64 {
                    text: Text::Timestamp(unit),
                    ..
                },
                _,
            ) => {
                let t = text::parse_timestamp(s).ok_or_else(|| {
                    self.error(node, format!("`{s}` is not an RFC 3339 date-time"))
                })?;
                return self.put_time_nanos(node, rep, t, unit);
            }
            _ => return Err(self.mismatch(node, "a string")),
        }
        self.present(node, rep);
        Ok(())
    }

    /// Decimal text at a DECIMAL leaf of scale `scale`: exact, or an error saying which digits
    /// do not fit (more than the precision, or non-zero digits beyond the scale).
    fn put_decimal_text(&mut self, node: u32, rep: i16, s: &str, scale: u32) -> Result<()> {
        let l = self.leaf(node, "a decimal")?;
        let precision = match l.conv {
            Conv::Decimal { precision, .. } => precision,
            // The range of an integer decimal is ±(10^precision - 1) (clamped to the type).
            Conv::Int32 { hi, .. } => (hi as i128)
                .unsigned_abs()
                .checked_ilog10()
                .map_or(1, |d| d + 1),
            Conv::Int64 { hi, .. } => hi.unsigned_abs().checked_ilog10().map_or(1, |d| d + 1),
            _ => return Err(self.mismatch(node, "decimal text")),
        };
        let value = text::parse_decimal_exact(s, scale).map_err(|e| {
            let why = match e {
                text::DecimalTextError::Syntax => "is not a decimal number".to_owned(),
                text::DecimalTextError::LostDigits => format!(
                    "has non-zero digits beyond the column's scale {scale} (they would be lost)"
                ),
                text::DecimalTextError::TooLong => "has too many digits".to_owned(),
            };
            self.error(node, format!("decimal `{s}` {why}"))
        })?;
        if value.precision() > precision {
            return Err(self.error(
                node,
                format!(
                    "decimal `{s}` needs {} digits at scale {scale}, more than the column's \
                     precision {precision}",
                    value.precision()
                ),
            ));
        }
        if let Some(v) = value.to_i128() {
            return self.put_int(node, rep, v);
        }
        // More than 38 digits: only a BYTE_ARRAY decimal holds them.
        let l = self.leaf(node, "a decimal")?;
        match (l.conv, &mut l.batch.values) {
            (Conv::Decimal { width: None, .. }, ColumnValues::ByteArray(out)) => {
                out.push(&value.to_be_bytes())
            }
            _ => {
                return Err(self.error(
                    node,
                    format!("decimal `{s}` does not fit the column's fixed width"),
                ))
            }
        }
        self.present(node, rep);
        Ok(())
    }

    /// A byte string.
    pub(crate) fn put_bytes(&mut self, node: u32, rep: i16, b: &[u8]) -> Result<()> {
        let l = self.leaf(node, "bytes")?;
        match (l.conv, &mut l.batch.values) {
            (Conv::Binary | Conv::Str, ColumnValues::ByteArray(out)) => {
                if let Err(why) = l.check.check(b) {
                    return Err(self.unfit(node, why));
                }
                out.push(b)
            }
            (Conv::Fixed { width }, ColumnValues::FixedLenByteArray(out)) if b.len() == width => {
                out.data.extend_from_slice(b)
            }
            (Conv::Uuid, ColumnValues::FixedLenByteArray(out)) if b.len() == 16 => {
                out.data.extend_from_slice(b)
            }
            (Conv::Float16, ColumnValues::FixedLenByteArray(out)) if b.len() == 2 => {
                out.data.extend_from_slice(b)
            }
            (Conv::Fixed { width }, _) => {
                return Err(self.error(
                    node,
                    format!("{} bytes for a fixed-length column of {width}", b.len()),
                ))
            }
            (Conv::Uuid, _) => {
                return Err(self.error(node, format!("{} bytes for a UUID (16)", b.len())))
            }
            _ => return Err(self.mismatch(node, "bytes")),
        }
        self.present(node, rep);
        Ok(())
    }

    /// A time in nanoseconds since the epoch (or midnight), stored in `unit` (rounded
    /// toward negative infinity).
    pub(crate) fn put_time_nanos(
        &mut self,
        node: u32,
        rep: i16,
        nanos: i128,
        unit: TimeUnit,
    ) -> Result<()> {
        let v = nanos.div_euclid(nanos_per(unit));
        self.put_int(node, rep, v)
            .map_err(|_| self.error(node, "the time does not fit the column's 64-bit range"))
    }

    /// serde's `SystemTime` (seconds and nanoseconds since the epoch) at a TIMESTAMP leaf.
    pub(crate) fn put_system_time(
        &mut self,
        node: u32,
        rep: i16,
        secs: u64,
        nanos: u32,
    ) -> Result<()> {
        let unit = match self.nodes[node as usize].kind {
            Kind::Leaf(l) => match self.leaves[l as usize].conv {
                Conv::Int32 {
                    text: Text::Timestamp(u),
                    ..
                }
                | Conv::Int64 {
                    text: Text::Timestamp(u),
                    ..
                } => u,
                _ => return Err(self.mismatch(node, "a SystemTime")),
            },
            _ => return Err(self.mismatch(node, "a SystemTime")),
        };
        self.put_time_nanos(
            node,
            rep,
            secs as i128 * 1_000_000_000 + nanos as i128,
            unit,
        )
    }

    /// Appends one byte of a value given as a sequence of `u8` (finished by
    /// [`end_byte_seq`](Self::end_byte_seq)).
    #[inline]
    pub(crate) fn push_seq_byte(&mut self, node: u32, b: u8) {
        if let Kind::Leaf(l) = self.nodes[node as usize].kind {
            match &mut self.leaves[l as usize].batch.values {
                ColumnValues::ByteArray(out) => out.data.push(b),
                ColumnValues::FixedLenByteArray(out) => out.data.push(b),
                _ => {}
            }
        }
    }

    /// Bytes appended to the data buffer of `node`'s leaf so far (the start of a byte
    /// sequence).
    pub(crate) fn byte_data_len(&self, node: u32) -> usize {
        match self.nodes[node as usize].kind {
            Kind::Leaf(l) => match &self.leaves[l as usize].batch.values {
                ColumnValues::ByteArray(out) => out.data.len(),
                ColumnValues::FixedLenByteArray(out) => out.data.len(),
                _ => 0,
            },
            _ => 0,
        }
    }

    /// Finishes a value given as a sequence of bytes that started at data length `start`.
    pub(crate) fn end_byte_seq(&mut self, node: u32, rep: i16, start: usize) -> Result<()> {
        let l = self.leaf(node, "a sequence")?;
        match (l.conv, &mut l.batch.values) {
            (Conv::Binary, ColumnValues::ByteArray(out)) => {
                if let Err(why) = l.check.check(&out.data[start.min(out.data.len())..]) {
                    out.data.truncate(start);
                    return Err(self.unfit(node, why));
                }
                out.offsets.push(out.data.len())
            }
            (Conv::Fixed { width }, ColumnValues::FixedLenByteArray(out))
                if out.data.len().saturating_sub(start) == width => {}
            (Conv::Uuid, ColumnValues::FixedLenByteArray(out))
                if out.data.len().saturating_sub(start) == 16 => {}
            (_, ColumnValues::FixedLenByteArray(out)) => {
                let (got, width) = (out.data.len().saturating_sub(start), out.width);
                out.data.truncate(start);
                return Err(self.error(
                    node,
                    format!("{got} bytes for a fixed-length column of {width}"),
                ));
            }
            _ => return Err(self.mismatch(node, "a sequence")),
        }
        self.present(node, rep);
        Ok(())
    }

    /// Appends the levels of a present value at `node` (a leaf).
    #[inline]
    fn present(&mut self, node: u32, rep: i16) {
        if let Kind::Leaf(l) = self.nodes[node as usize].kind {
            self.leaves[l as usize].present(rep);
        }
    }
}

/// Appends `v` as a big-endian two's complement decimal of `width` bytes (`None`: the least
/// bytes that hold it) to a FIXED_LEN_BYTE_ARRAY or BYTE_ARRAY buffer.
fn push_decimal(
    values: &mut ColumnValues,
    width: Option<usize>,
    v: i128,
) -> std::result::Result<(), String> {
    let bytes = v.to_be_bytes();
    let least = {
        // Drop leading bytes that only repeat the sign.
        let mut i = 0;
        while i < 15 {
            let (b, next) = (bytes[i], bytes[i + 1]);
            if (b == 0 && next & 0x80 == 0) || (b == 0xff && next & 0x80 != 0) {
                i += 1;
            } else {
                break;
            }
        }
        16 - i
    };
    match (values, width) {
        (ColumnValues::FixedLenByteArray(out), Some(w)) if w <= 16 => {
            if least > w {
                return Err(format!("{v} does not fit {w} bytes"));
            }
            out.data.extend_from_slice(&bytes[16 - w..]);
            Ok(())
        }
        (ColumnValues::ByteArray(out), None) => {
            out.push(&bytes[16 - least..]);
            Ok(())
        }
        _ => Err("the decimal column's storage does not match its schema".to_string()),
    }
}

/// Bytes held by values (approximate for byte arrays: data plus offsets).
pub(crate) fn value_bytes(values: &ColumnValues) -> usize {
    match values {
        ColumnValues::Boolean(v) => v.len(),
        ColumnValues::Int32(v) => v.len() * 4,
        ColumnValues::Int64(v) => v.len() * 8,
        ColumnValues::Int96(v) => v.len() * 12,
        ColumnValues::Float(v) => v.len() * 4,
        ColumnValues::Double(v) => v.len() * 8,
        ColumnValues::ByteArray(v) => v.data.len() + v.offsets.len() * std::mem::size_of::<usize>(),
        ColumnValues::FixedLenByteArray(v) => v.data.len(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::values::ByteArrays;
    use crate::core::values::FixedLenByteArrays;

    #[test]
    fn decimals_in_least_bytes() {
        let mut v = ColumnValues::ByteArray(ByteArrays::new());
        for x in [0i128, 1, -1, 127, 128, -128, -129, 1 << 70, i128::MIN] {
            push_decimal(&mut v, None, x).unwrap();
        }
        let ColumnValues::ByteArray(b) = &v else {
            unreachable!()
        };
        let got: Vec<Vec<u8>> = b.iter().map(|s| s.to_vec()).collect();
        assert_eq!(got[0], [0]);
        assert_eq!(got[1], [1]);
        assert_eq!(got[2], [0xff]);
        assert_eq!(got[3], [0x7f]);
        assert_eq!(got[4], [0, 0x80]);
        assert_eq!(got[5], [0x80]);
        assert_eq!(got[6], [0xff, 0x7f]);
        assert_eq!(got[7].len(), 9);
        assert_eq!(got[8].len(), 16);
        let mut f = ColumnValues::FixedLenByteArray(FixedLenByteArrays::new(2));
        push_decimal(&mut f, Some(2), -2).unwrap();
        assert!(push_decimal(&mut f, Some(2), 40_000).is_err());
        let ColumnValues::FixedLenByteArray(f) = &f else {
            unreachable!()
        };
        assert_eq!(f.data, [0xff, 0xfe]);
    }

    #[test]
    fn truncation_drops_partial_values() {
        let mut b = ByteArrays::new();
        b.push(b"ab");
        b.push(b"c");
        b.data.extend_from_slice(b"partial");
        let mut v = ColumnValues::ByteArray(b);
        truncate_values(&mut v, 5);
        let ColumnValues::ByteArray(b) = &v else {
            unreachable!()
        };
        assert_eq!((b.len(), b.data.as_slice()), (2, &b"abc"[..]));
        truncate_values(&mut v, 1);
        let ColumnValues::ByteArray(b) = &v else {
            unreachable!()
        };
        assert_eq!((b.len(), b.data.as_slice()), (1, &b"ab"[..]));
        let mut f = FixedLenByteArrays::new(2);
        f.data.extend_from_slice(b"aabbc");
        let mut v = ColumnValues::FixedLenByteArray(f);
        truncate_values(&mut v, 9);
        assert_eq!(v.len(), 2);
        truncate_values(&mut v, 0);
        assert_eq!(v.len(), 0);
    }
}
