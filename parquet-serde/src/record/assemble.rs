//! Record assembly: rebuilding nested rows from the level streams of leaf columns.
//!
//! The plan mirrors the schema tree, with lists and maps recognised by the rules of
//! LogicalTypes.md (including its backward-compatibility rules for 2-level lists, bare
//! repeated fields and MAP_KEY_VALUE). Assembly walks each row depth first: a repeated
//! node splits its leaves' level ranges where the repetition level equals its own, an
//! optional node is null where the definition level stops short of it.

use std::ops::Range;

use crate::column::ColumnBatch;
use crate::error::{Error, Result};
use crate::file::{ChunkReader, FileReader};
use crate::format::{ConvertedType, LogicalType, TimeUnit};
use crate::schema::{ColumnDescriptor, NodeKind, Repetition, Schema, SchemaNode};
use crate::values::ColumnValues;

use super::Value;

/// How a repeated node's elements are read off it.
#[derive(Debug)]
enum Element {
    /// The repeated node itself is the element (2-level lists, bare repeated fields).
    Itself,
    /// The repeated group's only child is the element (3-level lists).
    OnlyChild,
}

#[derive(Debug)]
enum Kind {
    Leaf(usize),
    Group(Vec<Plan>),
    /// A LIST group (or the list made by a bare repeated field): `repeated` is the repeated node.
    List {
        repeated: Box<Plan>,
        element: Element,
    },
    /// A MAP group: `repeated` is the key_value group; its children are key (and value).
    Map {
        repeated: Box<Plan>,
    },
}

#[derive(Debug)]
struct Plan {
    name: String,
    /// Definition level of this node (non-required ancestors, itself included).
    def: i16,
    /// Repetition level of this node (repeated ancestors, itself included).
    rep: i16,
    repetition: Repetition,
    kind: Kind,
    /// Indices (into the assembler's leaves) of the leaves below this node.
    leaves: Vec<usize>,
}

/// How to turn a leaf's physical values into [`Value`]s.
#[derive(Debug, Clone, Copy)]
enum Convert {
    Plain,
    Unsigned,
    String,
    Date,
    Time(TimeUnit),
    Timestamp(TimeUnit, bool),
    Decimal(i32),
    Uuid,
    Float16,
}

fn convert_of(d: &ColumnDescriptor) -> Convert {
    use ConvertedType as C;
    match (&d.logical_type, d.converted_type) {
        (Some(LogicalType::String | LogicalType::Enum | LogicalType::Json), _) => Convert::String,
        (None, Some(C::Utf8 | C::Enum | C::Json)) => Convert::String,
        (
            Some(LogicalType::Integer {
                is_signed: false, ..
            }),
            _,
        ) => Convert::Unsigned,
        (None, Some(C::Uint8 | C::Uint16 | C::Uint32 | C::Uint64)) => Convert::Unsigned,
        (Some(LogicalType::Date), _) | (None, Some(C::Date)) => Convert::Date,
        (Some(LogicalType::Time { unit, .. }), _) => Convert::Time(*unit),
        (None, Some(C::TimeMillis)) => Convert::Time(TimeUnit::Millis),
        (None, Some(C::TimeMicros)) => Convert::Time(TimeUnit::Micros),
        (
            Some(LogicalType::Timestamp {
                unit,
                is_adjusted_to_utc,
            }),
            _,
        ) => Convert::Timestamp(*unit, *is_adjusted_to_utc),
        (None, Some(C::TimestampMillis)) => Convert::Timestamp(TimeUnit::Millis, true),
        (None, Some(C::TimestampMicros)) => Convert::Timestamp(TimeUnit::Micros, true),
        (Some(LogicalType::Decimal { scale, .. }), _) => Convert::Decimal(*scale),
        (None, Some(C::Decimal)) => Convert::Decimal(d.scale),
        (Some(LogicalType::Uuid), _) if d.type_length == 16 => Convert::Uuid,
        (Some(LogicalType::Float16), _) if d.type_length == 2 => Convert::Float16,
        _ => Convert::Plain,
    }
}

struct Leaf {
    batch: ColumnBatch,
    max_def: i16,
    max_rep: i16,
    convert: Convert,
    next_value: usize,
    next_level: usize,
}

impl Leaf {
    fn def(&self, i: usize) -> i16 {
        if self.max_def == 0 {
            0
        } else {
            self.batch.def_levels[i]
        }
    }

    fn rep(&self, i: usize) -> i16 {
        if self.max_rep == 0 {
            0
        } else {
            self.batch.rep_levels[i]
        }
    }

    fn len(&self) -> usize {
        self.batch.num_levels()
    }

    fn take_value(&mut self) -> Result<Value> {
        let i = self.next_value;
        self.next_value += 1;
        let c = self.convert;
        let v = match &self.batch.values {
            ColumnValues::Boolean(v) => v.get(i).map(|&b| Value::Bool(b)),
            ColumnValues::Int32(v) => v.get(i).map(|&x| match c {
                Convert::Unsigned => Value::UInt(x as u32 as u64),
                Convert::Date => Value::Date(x),
                Convert::Time(unit) => Value::Time {
                    value: x as i64,
                    unit,
                },
                Convert::Decimal(scale) => Value::Decimal {
                    unscaled: x.to_be_bytes().to_vec(),
                    scale,
                },
                _ => Value::Int(x as i64),
            }),
            ColumnValues::Int64(v) => v.get(i).map(|&x| match c {
                Convert::Unsigned => Value::UInt(x as u64),
                Convert::Time(unit) => Value::Time { value: x, unit },
                Convert::Timestamp(unit, utc) => Value::Timestamp {
                    value: x,
                    unit,
                    utc,
                },
                Convert::Decimal(scale) => Value::Decimal {
                    unscaled: x.to_be_bytes().to_vec(),
                    scale,
                },
                _ => Value::Int(x),
            }),
            ColumnValues::Int96(v) => v.get(i).map(|&x| Value::Int96(x)),
            ColumnValues::Float(v) => v.get(i).map(|&x| Value::Float(x)),
            ColumnValues::Double(v) => v.get(i).map(|&x| Value::Double(x)),
            ColumnValues::ByteArray(v) => (i < v.len()).then(|| bytes_value(v.get(i), c)),
            ColumnValues::FixedLenByteArray(v) => (i < v.len()).then(|| bytes_value(v.get(i), c)),
        };
        v.ok_or_else(|| Error::corrupt("fewer values than the definition levels announce"))
    }
}

fn bytes_value(b: &[u8], c: Convert) -> Value {
    match c {
        Convert::String => Value::String(String::from_utf8_lossy(b).into_owned()),
        Convert::Decimal(scale) => Value::Decimal {
            unscaled: b.to_vec(),
            scale,
        },
        Convert::Uuid => {
            let mut u = [0u8; 16];
            u.copy_from_slice(b);
            Value::Uuid(u)
        }
        Convert::Float16 => Value::Float16(crate::values::numeric::f16_to_f32([b[0], b[1]])),
        _ => Value::Bytes(b.to_vec()),
    }
}

/// Assembles the rows of one row group from its (projected) leaf columns.
pub struct RowAssembler {
    fields: Vec<Plan>,
    leaves: Vec<Leaf>,
    rows: usize,
    row: usize,
}

fn annotated(node: &SchemaNode, lt: &LogicalType, ct: ConvertedType) -> bool {
    node.logical_type.as_ref() == Some(lt) || node.converted_type == Some(ct)
}

struct Builder<'a> {
    columns: &'a [ColumnDescriptor],
    selected: &'a dyn Fn(usize) -> Option<usize>,
    next_leaf: usize,
}

impl Builder<'_> {
    /// The plan of `node`, or `None` when no selected leaf is below it.
    fn plan(&mut self, node: &SchemaNode, def: i16, rep: i16) -> Option<Plan> {
        let def = def + (node.repetition != Repetition::Required) as i16;
        let rep = rep + (node.repetition == Repetition::Repeated) as i16;
        let kind_and_leaves = match &node.kind {
            NodeKind::Primitive { .. } => {
                let leaf = self.next_leaf;
                self.next_leaf += 1;
                let slot = (self.selected)(leaf)?;
                (Kind::Leaf(slot), vec![slot])
            }
            NodeKind::Group { fields } => {
                let is_list = annotated(node, &LogicalType::List, ConvertedType::List);
                let is_map = annotated(node, &LogicalType::Map, ConvertedType::Map)
                    || node.converted_type == Some(ConvertedType::MapKeyValue);
                let single_repeated =
                    fields.len() == 1 && fields[0].repetition == Repetition::Repeated;
                if (is_list || is_map) && single_repeated {
                    let child = &fields[0];
                    let repeated = self.plan(child, def, rep)?;
                    let leaves = repeated.leaves.clone();
                    // A map whose key_value group has no value column reads as the list of
                    // its keys, as Arrow reads it.
                    if is_map
                        && matches!(&child.kind, NodeKind::Group { fields } if fields.len() == 2)
                    {
                        (
                            Kind::Map {
                                repeated: Box::new(repeated),
                            },
                            leaves,
                        )
                    } else {
                        let element = if node.list_element_is_repeated_node(child) {
                            Element::Itself
                        } else {
                            Element::OnlyChild
                        };
                        (
                            Kind::List {
                                repeated: Box::new(repeated),
                                element,
                            },
                            leaves,
                        )
                    }
                } else {
                    let mut plans = Vec::new();
                    for f in fields {
                        if let Some(p) = self.plan(f, def, rep) {
                            plans.push(p);
                        }
                    }
                    if plans.is_empty() {
                        return None;
                    }
                    let leaves = plans
                        .iter()
                        .flat_map(|p| p.leaves.iter().copied())
                        .collect();
                    (Kind::Group(plans), leaves)
                }
            }
        };
        let (kind, leaves) = kind_and_leaves;
        Some(Plan {
            name: node.name.clone(),
            def,
            rep,
            repetition: node.repetition,
            kind,
            leaves,
        })
    }
}

impl RowAssembler {
    /// An assembler over the schema rooted at `root` with its leaf `columns`, given the
    /// decoded `batches` of the selected leaves: `selected[i]` is the leaf ordinal of
    /// `batches[i]`, in increasing order.
    pub fn new(
        root: &SchemaNode,
        columns: &[ColumnDescriptor],
        selected: &[usize],
        batches: Vec<ColumnBatch>,
    ) -> Result<Self> {
        if selected.len() != batches.len() {
            return Err(Error::invalid_argument(
                "one batch per selected column is needed",
            ));
        }
        let lookup = |leaf: usize| selected.iter().position(|&s| s == leaf);
        let mut builder = Builder {
            columns,
            selected: &lookup,
            next_leaf: 0,
        };
        let mut fields = Vec::new();
        if let NodeKind::Group { fields: top } = &root.kind {
            for f in top {
                if let Some(p) = builder.plan(f, 0, 0) {
                    fields.push(p);
                }
            }
        }
        let mut leaves = Vec::with_capacity(batches.len());
        let mut rows = None;
        for (&leaf, batch) in selected.iter().zip(batches) {
            let d = builder
                .columns
                .get(leaf)
                .ok_or_else(|| Error::invalid_argument(format!("no column {leaf}")))?;
            let l = Leaf {
                max_def: d.max_def_level,
                max_rep: d.max_rep_level,
                convert: convert_of(d),
                batch,
                next_value: 0,
                next_level: 0,
            };
            let n = if l.max_rep == 0 {
                l.len()
            } else {
                if l.len() > 0 && l.rep(0) != 0 {
                    return Err(Error::corrupt("column chunk starts inside a row")
                        .with_column(d.path.to_string()));
                }
                l.batch.rep_levels.iter().filter(|&&r| r == 0).count()
            };
            if *rows.get_or_insert(n) != n {
                return Err(Error::corrupt(format!(
                    "column holds {n} rows, another {}",
                    rows.unwrap_or(0)
                ))
                .with_column(d.path.to_string()));
            }
            if l.max_def > 0 && l.batch.def_levels.len() != l.len() {
                return Err(
                    Error::corrupt("definition and repetition level counts differ")
                        .with_column(d.path.to_string()),
                );
            }
            leaves.push(l);
        }
        Ok(RowAssembler {
            fields,
            leaves,
            rows: rows.unwrap_or(0),
            row: 0,
        })
    }

    /// Rows in the row group.
    pub fn num_rows(&self) -> usize {
        self.rows
    }

    /// The next row as a group of its (projected) top-level fields.
    pub fn next_row(&mut self) -> Result<Option<Value>> {
        if self.row >= self.rows {
            return Ok(None);
        }
        self.row += 1;
        let mut ranges: Vec<Range<usize>> = Vec::with_capacity(self.leaves.len());
        for leaf in &self.leaves {
            let start = leaf.next_level;
            let mut end = start + 1;
            while end < leaf.len() && leaf.rep(end) != 0 {
                end += 1;
            }
            ranges.push(start..end.min(leaf.len().max(start)));
        }
        for (leaf, r) in self.leaves.iter_mut().zip(&ranges) {
            leaf.next_level = r.end;
        }
        let fields = std::mem::take(&mut self.fields);
        let mut out = Vec::with_capacity(fields.len());
        let mut result = Ok(());
        for f in &fields {
            match self.value_of(f, &mut ranges) {
                Ok(v) => out.push((f.name.clone(), v)),
                Err(e) => {
                    result = Err(e);
                    break;
                }
            }
        }
        self.fields = fields;
        result.map_err(|e| e.with_row((self.row - 1) as u64))?;
        Ok(Some(Value::Group(out)))
    }

    /// The value of `plan` for one instance of its parent: a list for a repeated node.
    fn value_of(&mut self, plan: &Plan, ranges: &mut [Range<usize>]) -> Result<Value> {
        if plan.repetition == Repetition::Repeated {
            let elements = self.split(plan, ranges)?;
            let mut out = Vec::with_capacity(elements.len());
            for mut element in elements {
                out.push(self.single(plan, &mut element)?);
            }
            Ok(Value::List(out))
        } else {
            self.single(plan, ranges)
        }
    }

    /// Splits the ranges of a repeated node's leaves into one set of ranges per element.
    fn split(&self, plan: &Plan, ranges: &[Range<usize>]) -> Result<Vec<Vec<Range<usize>>>> {
        let first = plan.leaves[0];
        let r0 = ranges[first].clone();
        if r0.is_empty() || self.leaves[first].def(r0.start) < plan.def {
            return Ok(Vec::new());
        }
        let mut elements: Vec<Vec<Range<usize>>> = Vec::new();
        for (k, &leaf) in plan.leaves.iter().enumerate() {
            let l = &self.leaves[leaf];
            let r = ranges[leaf].clone();
            let mut count = 0;
            let mut start = r.start;
            for i in r.start + 1..=r.end {
                if i == r.end || l.rep(i) <= plan.rep {
                    if k == 0 {
                        let mut e = ranges.to_vec();
                        e[leaf] = start..i;
                        elements.push(e);
                    } else {
                        let e = elements.get_mut(count).ok_or_else(|| {
                            Error::corrupt("sibling columns disagree on list lengths")
                        })?;
                        e[leaf] = start..i;
                    }
                    count += 1;
                    start = i;
                }
            }
            if count != elements.len() {
                return Err(Error::corrupt("sibling columns disagree on list lengths"));
            }
        }
        Ok(elements)
    }

    /// The value of one (non-repeated) instance of `plan`.
    fn single(&mut self, plan: &Plan, ranges: &mut [Range<usize>]) -> Result<Value> {
        let first = plan.leaves[0];
        let start = ranges[first].start;
        if start >= self.leaves[first].len() {
            return Err(Error::corrupt("levels end inside a row"));
        }
        if plan.repetition == Repetition::Optional && self.leaves[first].def(start) < plan.def {
            return Ok(Value::Null);
        }
        match &plan.kind {
            Kind::Leaf(leaf) => {
                let l = &mut self.leaves[*leaf];
                if l.def(start) < l.max_def {
                    // Only reachable for malformed levels: a required leaf below the null point.
                    return Ok(Value::Null);
                }
                l.take_value()
            }
            Kind::Group(children) => {
                let mut out = Vec::with_capacity(children.len());
                for c in children {
                    out.push((c.name.clone(), self.value_of(c, ranges)?));
                }
                Ok(Value::Group(out))
            }
            Kind::List { repeated, element } => {
                let elements = self.split(repeated, ranges)?;
                let mut out = Vec::with_capacity(elements.len());
                for mut e in elements {
                    let v = match (element, &repeated.kind) {
                        (Element::OnlyChild, Kind::Group(children)) if children.len() == 1 => {
                            self.value_of(&children[0], &mut e)?
                        }
                        _ => self.single(repeated, &mut e)?,
                    };
                    out.push(v);
                }
                Ok(Value::List(out))
            }
            Kind::Map { repeated } => {
                let elements = self.split(repeated, ranges)?;
                let mut out = Vec::with_capacity(elements.len());
                let Kind::Group(children) = &repeated.kind else {
                    return Err(Error::corrupt("map without key_value group"));
                };
                for mut e in elements {
                    let key = match children.first() {
                        Some(k) => self.value_of(k, &mut e)?,
                        None => Value::Null,
                    };
                    let value = match children.get(1) {
                        Some(v) => self.value_of(v, &mut e)?,
                        None => Value::Null,
                    };
                    out.push((key, value));
                }
                Ok(Value::Map(out))
            }
        }
    }
}

/// The leaf ordinals whose dotted paths are one of `columns` or lie below one (`a` selects
/// `a.b` and `a.c.d`, not `ab`); every leaf when `columns` is empty. Naming nothing that
/// exists is an error.
pub fn select_columns<S: AsRef<str>>(schema: &Schema, columns: &[S]) -> Result<Vec<usize>> {
    let selected: Vec<usize> = (0..schema.num_columns())
        .filter(|&i| {
            let path = schema.columns()[i].path.to_string();
            columns.is_empty()
                || columns.iter().any(|c| {
                    let c = c.as_ref();
                    path == c
                        || path
                            .strip_prefix(c)
                            .is_some_and(|rest| rest.starts_with('.'))
                })
        })
        .collect();
    if selected.is_empty() && !columns.is_empty() {
        let names: Vec<&str> = columns.iter().map(|c| c.as_ref()).collect();
        return Err(Error::invalid_argument(format!(
            "no column matches {}",
            names.join(",")
        )));
    }
    Ok(selected)
}

impl RowAssembler {
    /// An assembler over row group `row_group` of `reader`, decoding the `selected` leaves
    /// (from [`select_columns`]).
    pub fn for_row_group<R: ChunkReader>(
        reader: &FileReader<R>,
        row_group: usize,
        selected: &[usize],
    ) -> Result<Self> {
        let schema = reader.schema();
        let batches = selected
            .iter()
            .map(|&c| reader.read_column(row_group, c))
            .collect::<Result<Vec<_>>>()?;
        RowAssembler::new(schema.root(), schema.columns(), selected, batches)
            .map_err(|e| e.with_row_group(row_group))
    }
}

/// Reads every row of a file as [`Value`] groups, keeping the leaves [`select_columns`]
/// picks for `columns` (all leaves when `columns` is empty), at most `limit` rows.
pub fn read_rows<R: ChunkReader>(
    reader: &FileReader<R>,
    columns: &[&str],
    limit: Option<usize>,
) -> Result<Vec<Value>> {
    let selected = select_columns(reader.schema(), columns)?;
    let limit = limit.unwrap_or(usize::MAX);
    let mut rows = Vec::new();
    for rg in 0..reader.num_row_groups() {
        if rows.len() >= limit {
            break;
        }
        let mut asm = RowAssembler::for_row_group(reader, rg, &selected)?;
        while rows.len() < limit {
            match asm.next_row().map_err(|e| e.with_row_group(rg))? {
                Some(r) => rows.push(r),
                None => break,
            }
        }
    }
    Ok(rows)
}
