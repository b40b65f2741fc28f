//! Paths inside a *shredded* VARIANT column (VariantShredding.md), found row by row: through
//! the `typed_value` groups of the shredded fields on the path, then in a `value` column's
//! bytes where a row's value was not shredded there. The value found is tested as in an
//! unshredded column (`variant_path`).

use crate::core::column::ColumnBatch;
use crate::core::column::Scalar;
use crate::core::format::{FieldRepetitionType, LogicalType, TimeUnit, Type};
use crate::core::schema::{ColumnDescriptor, NodeKind, Schema, SchemaNode};
use crate::core::values::ColumnValues;
use crate::error::{Error, Result};
use crate::variant::ValueRef;

use super::bind::{bind, Bound, Test};
use super::predicate::{not, Predicate};
use super::variant_path::Step;

/// One node on the shredded part of a path: the column group itself, then each shredded
/// field down the path.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Node {
    /// Its `value` leaf (bytes of a value not shredded here, or a partly shredded object's
    /// other fields).
    value: Option<usize>,
    /// A leaf under its `typed_value`, and the definition level at which `typed_value` is
    /// non-null.
    typed_probe: Option<(usize, i16)>,
}

/// Where the value at a path of a shredded column is.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Shredded {
    /// The column's node, then one per shredded field step.
    nodes: Vec<Node>,
    /// The last node's `typed_value` when it is a leaf.
    typed_leaf: Option<usize>,
}

impl Shredded {
    /// The last node's `typed_value` leaf, if it is one.
    pub fn typed_leaf(&self) -> Option<usize> {
        self.typed_leaf
    }

    /// The leaves read.
    pub fn columns(&self) -> Vec<usize> {
        let mut out = Vec::new();
        for n in &self.nodes {
            out.extend(n.value);
            out.extend(n.typed_probe.map(|p| p.0));
        }
        out.extend(self.typed_leaf);
        out
    }
}

/// The shredding of the VARIANT column `group` along `steps`; `None` when it has no
/// `typed_value`.
pub(crate) fn locate(schema: &Schema, group: &str, steps: &[Step]) -> Result<Option<Shredded>> {
    let names: Vec<&str> = group.split('.').collect();
    let Some((mut node, mut def)) = find(schema.root(), &names) else {
        return Ok(None);
    };
    if node.field("typed_value").is_none() {
        return Ok(None);
    }
    let mut path = group.to_string();
    let mut nodes = Vec::new();
    let mut typed_leaf = None;
    let mut i = 0;
    loop {
        let value = schema.column_index(&format!("{path}.value"));
        let typed = node.field("typed_value");
        let typed_def =
            typed.map(|t| def + i16::from(t.repetition != FieldRepetitionType::Required));
        let probe = schema.columns().iter().position(|c| {
            let p = c.path.to_string();
            p == format!("{path}.typed_value") || p.starts_with(&format!("{path}.typed_value."))
        });
        let typed_probe = probe.zip(typed_def);
        nodes.push(Node { value, typed_probe });
        let Some(t) = typed else { break };
        if let NodeKind::Primitive { .. } = t.kind {
            if i == steps.len() {
                typed_leaf = probe;
            }
            break;
        }
        if schema.columns()[probe.unwrap_or(0)].max_rep_level > 0 {
            // A shredded array: its elements are not walked here.
            if i < steps.len() {
                return Err(Error::invalid_argument(format!(
                    "VARIANT column {group:?}: paths through shredded arrays are not supported"
                )));
            }
            break;
        }
        let Some(Step::Field(name)) = steps.get(i) else {
            break;
        };
        let Some(field) = t.field(name) else { break };
        def =
            typed_def.unwrap_or(def) + i16::from(field.repetition != FieldRepetitionType::Required);
        path = format!("{path}.typed_value.{name}");
        node = field;
        i += 1;
    }
    Ok(Some(Shredded { nodes, typed_leaf }))
}

/// The node at `names` below `root` and its definition level.
fn find<'s>(root: &'s SchemaNode, names: &[&str]) -> Option<(&'s SchemaNode, i16)> {
    let mut node = root;
    let mut def = 0;
    for n in names {
        node = node.field(n)?;
        def += i16::from(node.repetition != FieldRepetitionType::Required);
    }
    Some((node, def))
}

/// Per row of a leaf: the index of its value among the leaf's values, and its definition
/// level.
pub(crate) type Slots = Vec<(Option<usize>, i16)>;

/// Per row, the index of its value in a leaf's dense values (`None` when below its
/// maximum definition level), and its definition level.
pub(crate) fn slots(
    b: &ColumnBatch,
    d: &ColumnDescriptor,
    rows: usize,
) -> Result<Vec<(Option<usize>, i16)>> {
    let n = b.num_levels();
    if n != rows || b.rep_levels.iter().any(|&r| r != 0) {
        return Err(Error::corrupt(format!(
            "column {} holds {n} level entries where {rows} rows were expected",
            d.path
        )));
    }
    let mut k = 0;
    Ok((0..rows)
        .map(|i| {
            let def = if d.max_def_level == 0 {
                0
            } else {
                b.def_levels.get(i).copied().unwrap_or(0)
            };
            let here = def == d.max_def_level;
            let at = here.then(|| {
                k += 1;
                k - 1
            });
            (at, def)
        })
        .collect())
}

/// What a row holds at the path.
pub(crate) enum Found<'a> {
    /// Missing or null.
    Null,
    /// Bytes to walk from step `.1` on.
    Bytes(&'a [u8], usize),
    /// A typed leaf value (row's index into the leaf's values).
    Typed,
    /// A shredded object or array (no scalar cast applies).
    Container,
}

/// The decoded columns of a shredded path, and each row's slots in them.
pub(crate) struct Columns<'a> {
    value: Vec<Option<(&'a ColumnValues, Slots)>>,
    probe: Vec<Option<Slots>>,
}

impl Shredded {
    /// The slots of every leaf, from `batch(column)`.
    pub fn columns_of<'a>(
        &self,
        batch: &impl Fn(usize) -> Result<(&'a ColumnBatch, &'a ColumnDescriptor)>,
        rows: usize,
    ) -> Result<Columns<'a>> {
        let mut value = Vec::new();
        let mut probe = Vec::new();
        for n in &self.nodes {
            value.push(match n.value {
                Some(c) => {
                    let (b, d) = batch(c)?;
                    Some((&b.values, slots(b, d, rows)?))
                }
                None => None,
            });
            probe.push(match n.typed_probe {
                Some((c, _)) => {
                    let (b, d) = batch(c)?;
                    Some(slots(b, d, rows)?)
                }
                None => None,
            });
        }
        Ok(Columns { value, probe })
    }

    /// Where row `row`'s value at `steps` is.
    pub fn find<'a>(&self, cols: &Columns<'a>, row: usize, steps: usize) -> Found<'a> {
        let last = self.nodes.len() - 1;
        for (k, n) in self.nodes.iter().enumerate() {
            let typed = match (n.typed_probe, &cols.probe[k]) {
                (Some((_, at)), Some(s)) => s[row].1 >= at,
                _ => false,
            };
            let bytes = match &cols.value[k] {
                Some((ColumnValues::ByteArray(v), s)) => {
                    s[row].0.filter(|&i| i < v.len()).map(|i| v.get(i))
                }
                _ => None,
            };
            if k < last && typed {
                continue;
            }
            if k == last && k == steps && typed {
                return match self.typed_leaf {
                    Some(_) => Found::Typed,
                    None => Found::Container,
                };
            }
            return match bytes {
                Some(b) => Found::Bytes(b, k),
                None => Found::Null,
            };
        }
        Found::Null
    }
}

/// The typed leaf's value at `i` (its dense index) as a variant value; `None` for types no
/// variant value has.
pub(crate) fn typed_value<'a>(
    values: &'a ColumnValues,
    d: &ColumnDescriptor,
    i: usize,
) -> Option<ValueRef<'a>> {
    let lt = d.effective_logical_type();
    Some(match (values, &lt) {
        (ColumnValues::Boolean(v), _) => ValueRef::Bool(*v.get(i)?),
        (ColumnValues::Int32(v), Some(LogicalType::Decimal { scale, .. })) => {
            ValueRef::Decimal4(*v.get(i)?, u8::try_from(*scale).ok()?)
        }
        (ColumnValues::Int64(v), Some(LogicalType::Decimal { scale, .. })) => {
            ValueRef::Decimal8(*v.get(i)?, u8::try_from(*scale).ok()?)
        }
        (ColumnValues::FixedLenByteArray(v), Some(LogicalType::Decimal { scale, .. }))
            if i < v.len() =>
        {
            let b = v.get(i);
            if b.len() > 16 || b.is_empty() {
                return None;
            }
            let mut buf = if b[0] & 0x80 != 0 {
                [0xff; 16]
            } else {
                [0; 16]
            };
            buf[16 - b.len()..].copy_from_slice(b);
            ValueRef::Decimal16(i128::from_be_bytes(buf), u8::try_from(*scale).ok()?)
        }
        (ColumnValues::Int32(v), Some(LogicalType::Date)) => ValueRef::Date(*v.get(i)?),
        (
            ColumnValues::Int32(v),
            Some(LogicalType::Integer {
                bit_width: 8,
                is_signed: true,
            }),
        ) => ValueRef::Int8(i8::try_from(*v.get(i)?).ok()?),
        (
            ColumnValues::Int32(v),
            Some(LogicalType::Integer {
                bit_width: 16,
                is_signed: true,
            }),
        ) => ValueRef::Int16(i16::try_from(*v.get(i)?).ok()?),
        (
            ColumnValues::Int32(v),
            None
            | Some(LogicalType::Integer {
                is_signed: true, ..
            }),
        ) => ValueRef::Int32(*v.get(i)?),
        (
            ColumnValues::Int64(v),
            Some(LogicalType::Time {
                unit: TimeUnit::Micros,
                ..
            }),
        ) => ValueRef::Time(*v.get(i)?),
        (
            ColumnValues::Int64(v),
            Some(LogicalType::Timestamp {
                is_adjusted_to_utc,
                unit,
            }),
        ) => {
            let x = *v.get(i)?;
            match (unit, is_adjusted_to_utc) {
                (TimeUnit::Micros, true) => ValueRef::TimestampMicros(x),
                (TimeUnit::Micros, false) => ValueRef::TimestampNtzMicros(x),
                (TimeUnit::Nanos, true) => ValueRef::TimestampNanos(x),
                (TimeUnit::Nanos, false) => ValueRef::TimestampNtzNanos(x),
                _ => return None,
            }
        }
        (
            ColumnValues::Int64(v),
            None
            | Some(LogicalType::Integer {
                is_signed: true, ..
            }),
        ) => ValueRef::Int64(*v.get(i)?),
        (ColumnValues::Float(v), _) => ValueRef::Float(*v.get(i)?),
        (ColumnValues::Double(v), _) => ValueRef::Double(*v.get(i)?),
        (ColumnValues::ByteArray(v), Some(LogicalType::String)) if i < v.len() => {
            ValueRef::String(std::str::from_utf8(v.get(i)).ok()?)
        }
        (ColumnValues::ByteArray(v), None) if i < v.len() => ValueRef::Binary(v.get(i)),
        (ColumnValues::FixedLenByteArray(v), Some(LogicalType::Uuid)) if i < v.len() => {
            ValueRef::Uuid(v.get(i).try_into().ok()?)
        }
        _ => return None,
    })
}

/// How row groups of a shredded path are skipped: by the statistics of its typed leaf, in
/// row groups where the last node's `value` column holds only nulls (so that every value
/// at the path is in the typed leaf; a conforming writer never leaves an object that its
/// `typed_value` group could hold in an ancestor's `value` column).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Pruning {
    /// The `value` leaf that must be all null.
    pub value: Option<usize>,
    /// The test as one of the typed leaf.
    pub typed: Box<Bound>,
}

/// The pruning of `test` (negated or not) on a shredded path: only where the typed leaf's
/// own comparison is the variant cast's (whole numbers on signed integers, floats on
/// DOUBLE, text on STRING, booleans on BOOLEAN).
pub(crate) fn pruning(
    schema: &Schema,
    sh: &Shredded,
    test: &Test,
    negated: bool,
) -> Option<Pruning> {
    let d = &schema.columns()[sh.typed_leaf?];
    let lt = d.effective_logical_type();
    let fits = |v: &Scalar| match v {
        Scalar::Int(_) => {
            matches!(d.physical_type, Type::Int32 | Type::Int64)
                && matches!(
                    lt,
                    None | Some(LogicalType::Integer {
                        is_signed: true,
                        ..
                    })
                )
        }
        Scalar::Float(_) => d.physical_type == Type::Double && lt.is_none(),
        Scalar::Bytes(_) => {
            d.physical_type == Type::ByteArray && matches!(lt, Some(LogicalType::String))
        }
        Scalar::Bool(_) => d.physical_type == Type::Boolean,
        _ => false,
    };
    let c = super::predicate::col(d.path.to_string());
    let p: Predicate = match test {
        Test::Cmp(op, v) if fits(v) => Predicate::Compare {
            column: d.path.to_string(),
            op: *op,
            value: v.clone(),
        },
        Test::Between(a, b) if fits(a) && fits(b) => c.between(a.clone(), b.clone()),
        Test::In(v) if v.iter().all(fits) => c.in_list(v.iter().cloned()),
        Test::NotIn(v) if v.iter().all(fits) => not(c.in_list(v.iter().cloned())),
        _ => return None,
    };
    let p = if negated { not(p) } else { p };
    let typed = Box::new(bind(&p, schema).ok()?);
    Some(Pruning {
        value: sh.nodes.last()?.value,
        typed,
    })
}
