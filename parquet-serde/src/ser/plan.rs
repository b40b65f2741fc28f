//! The shredding plan: the schema tree flattened into an array of nodes, built once per
//! writer, that the serializer walks alongside serde's calls.
//!
//! Each node knows its definition level when present, the leaf columns below it (a
//! contiguous range, in schema order), and what it is: a leaf with its conversion, a group
//! whose fields are the contiguous nodes `first..first + len`, a LIST (its element node and
//! the repetition level of its entries) or a MAP (its key and value nodes, likewise). The
//! repeated `list` / `key_value` groups of the 3-level layouts are folded into their LIST or
//! MAP node: serde never sees them.

use crate::core::format::{LogicalType, TimeUnit, Type};
use crate::core::schema::{
    ContainerAnnotation, Conversion, GroupShape, ListLayout, MapShape, NodeKind, Repetition,
    Schema, SchemaNode,
};
use crate::core::values::ByteCheck;
use crate::error::{Error, Result};

/// What a node is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// A leaf column: index into the leaves.
    Leaf(u32),
    /// A group whose fields are the nodes `first..first + len`.
    Group { first: u32, len: u32 },
    /// A LIST: the element node and the repetition level of the list's entries.
    List { element: u32, entry_rep: i16 },
    /// A MAP: key node (the value node is `key + 1`) and the repetition level of its entries.
    Map { key: u32, entry_rep: i16 },
    /// A VARIANT group: its `metadata` and `value` leaf nodes and its shredded
    /// `typed_value` node (serde's value is encoded as a Variant and shredded, see
    /// `ser/variant.rs`).
    Variant {
        metadata: u32,
        value: u32,
        typed: Option<u32>,
    },
}

/// One node of the plan.
#[derive(Debug, Clone)]
pub(crate) struct PlanNode {
    /// Field name, as serde names it.
    pub name: String,
    /// Dotted path from the root's child (the column path prefix), for error messages.
    pub path: String,
    /// Definition level when this node is present (non-required ancestors, itself included).
    pub def: i16,
    /// Whether the node is `optional`.
    pub optional: bool,
    /// Whether the node is the key of a MAP.
    pub is_key: bool,
    /// Leaf columns below the node: `leaves.0..leaves.1`.
    pub leaves: (u32, u32),
    /// What the node is.
    pub kind: Kind,
    /// Address of the `&'static str` key last matched against `name` (0 if none): later rows
    /// hand serde's same static key, so the match is one pointer comparison.
    pub key_addr: usize,
    /// Stamp of the group instance that last wrote this field out of order (see
    /// `GroupCursor`); 0 if never.
    pub stamp: u64,
}

/// Values a TIMESTAMP, TIME, DATE or DECIMAL integer leaf also accepts as text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Text {
    /// No text form.
    None,
    /// `YYYY-MM-DD` (days since the epoch).
    Date,
    /// `HH:MM:SS[.fraction]` in the unit.
    Time(TimeUnit),
    /// RFC 3339 / ISO 8601 date-time in the unit (also takes serde's `SystemTime` struct).
    Timestamp(TimeUnit),
    /// Decimal text with this scale.
    Decimal(u32),
}

/// How serde's values become the leaf's physical values.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Conv {
    /// BOOLEAN: `bool`, and `true` for unit values.
    Bool,
    /// INT32: integers in `lo..=hi`, stored as their low 32 bits (so `u32` keeps its bits).
    Int32 { lo: i64, hi: i64, text: Text },
    /// INT64: integers in `lo..=hi`, stored as their low 64 bits.
    Int64 { lo: i128, hi: i128, text: Text },
    /// FLOAT.
    Float,
    /// DOUBLE.
    Double,
    /// UTF-8 text (STRING, ENUM, JSON): strings, chars, unit variant names.
    Str,
    /// Plain bytes: byte strings, sequences of `u8`, strings.
    Binary,
    /// FIXED_LEN_BYTE_ARRAY of `width` bytes given as bytes.
    Fixed { width: usize },
    /// 16-byte UUID: bytes, `u128`, text.
    Uuid,
    /// FLOAT16 (2 bytes, little-endian): its bits as an integer (how `half::f16` serializes),
    /// floats a half float holds exactly, 2 bytes.
    Float16,
    /// DECIMAL in big-endian two's complement, `width` bytes (`None`: BYTE_ARRAY, least
    /// bytes): integers (unscaled) and decimal text.
    Decimal {
        width: Option<usize>,
        precision: u32,
        scale: u32,
    },
}

impl Conv {
    /// Whether the leaf takes a sequence of `u8` as its value.
    pub fn takes_byte_seq(self) -> bool {
        matches!(self, Conv::Binary | Conv::Fixed { .. } | Conv::Uuid)
    }
}

/// The plan of one leaf column.
#[derive(Debug, Clone)]
pub(crate) struct LeafPlan {
    /// Physical type and its FIXED_LEN_BYTE_ARRAY length.
    pub physical_type: Type,
    pub type_length: i32,
    /// Conversion of serde's values.
    pub conv: Conv,
    /// Maximum levels.
    pub max_def: i16,
    pub max_rep: i16,
    /// What the annotation asks of the bytes of a value (JSON text, a BSON document).
    pub check: ByteCheck,
    /// A TIMESTAMP adjusted to UTC (which Variant timestamps a shredded column takes).
    pub utc: bool,
}

/// The plan of a schema.
#[derive(Debug, Clone)]
pub(crate) struct Plan {
    pub nodes: Vec<PlanNode>,
    pub leaves: Vec<LeafPlan>,
    /// Node a row is serialized at: the root, or its single field `value` for row types
    /// whose node is not a plain group.
    pub entry: u32,
}

impl Plan {
    /// The plan of `schema`; `wrapped` says the row type is the root's single field
    /// (`value`) rather than the root itself.
    pub fn new(schema: &Schema, wrapped: bool) -> Result<Plan> {
        let mut plan = Plan {
            nodes: Vec::new(),
            leaves: Vec::new(),
            entry: 0,
        };
        let root = schema.root();
        plan.nodes.push(placeholder());
        plan.fill_group(0, root, root.fields(), "", 0, 0)?;
        plan.nodes[0].name.clone_from(&root.name);
        if wrapped {
            match plan.nodes[0].kind {
                Kind::Group { first, len: 1 } => plan.entry = first,
                _ => {
                    return Err(Error::schema(
                        "a wrapped row type needs a root with one field",
                    ))
                }
            }
        }
        if plan.leaves.len() != schema.num_columns() {
            return Err(Error::schema(format!(
                "the plan found {} leaves, the schema {}",
                plan.leaves.len(),
                schema.num_columns()
            )));
        }
        Ok(plan)
    }

    /// Fills node `idx` (already pushed) from `node`, its parent being at definition level
    /// `def` and repetition level `rep`.
    fn fill(
        &mut self,
        idx: u32,
        node: &SchemaNode,
        prefix: &str,
        def: i16,
        rep: i16,
    ) -> Result<()> {
        let path = if prefix.is_empty() {
            node.name.clone()
        } else {
            format!("{prefix}.{}", node.name)
        };
        let optional = match node.repetition {
            Repetition::Required => false,
            Repetition::Optional => true,
            _ => {
                return Err(Error::unsupported(format!(
                    "field `{path}` is repeated outside a 3-level LIST or MAP, which typed rows do \
                     not write"
                )))
            }
        };
        let def = def + optional as i16;
        match &node.kind {
            NodeKind::Primitive {
                physical_type,
                type_length,
                ..
            } => {
                let conv = conv_of(node, *physical_type, *type_length)
                    .map_err(|e| e.with_column(path.clone()))?;
                let leaf = self.leaves.len() as u32;
                self.leaves.push(LeafPlan {
                    physical_type: *physical_type,
                    type_length: *type_length,
                    conv,
                    max_def: def,
                    max_rep: rep,
                    check: node.byte_check(),
                    utc: matches!(
                        node.conversion(),
                        Some(Conversion::Timestamp { utc: true, .. })
                    ),
                });
                self.set(idx, node, path, def, optional, leaf, Kind::Leaf(leaf));
            }
            NodeKind::Group { fields } => {
                let first_leaf = self.leaves.len() as u32;
                if let Some(LogicalType::Variant { .. }) = node.logical_type {
                    return self.fill_variant(idx, node, fields, path, def, optional, rep);
                }
                match (node.container_annotation(), node.group_shape()) {
                    (Some(ContainerAnnotation::List), Some(GroupShape::List(list)))
                        if list.layout == ListLayout::ThreeLevel =>
                    {
                        let entry_path = format!("{path}.{}", list.repeated.name);
                        let element_idx = self.push();
                        self.fill(element_idx, list.element, &entry_path, def + 1, rep + 1)?;
                        let kind = Kind::List {
                            element: element_idx,
                            entry_rep: rep + 1,
                        };
                        self.set(idx, node, path, def, optional, first_leaf, kind);
                    }
                    (Some(ContainerAnnotation::List), _) => {
                        return Err(layout_error(
                            &path,
                            "LIST",
                            "repeated group list { element }",
                        ))
                    }
                    (
                        Some(ContainerAnnotation::Map),
                        Some(GroupShape::Map(MapShape {
                            key_value,
                            key,
                            value: Some(value),
                        })),
                    ) => {
                        if key.repetition != Repetition::Required {
                            return Err(Error::schema(format!(
                                "the key of map `{path}` must be required"
                            )));
                        }
                        let entry_path = format!("{path}.{}", key_value.name);
                        let key_idx = self.push();
                        let value_idx = self.push();
                        self.fill(key_idx, key, &entry_path, def + 1, rep + 1)?;
                        self.fill(value_idx, value, &entry_path, def + 1, rep + 1)?;
                        self.nodes[key_idx as usize].is_key = true;
                        let kind = Kind::Map {
                            key: key_idx,
                            entry_rep: rep + 1,
                        };
                        self.set(idx, node, path.clone(), def, optional, first_leaf, kind);
                    }
                    (Some(ContainerAnnotation::Map), _) => {
                        return Err(layout_error(
                            &path,
                            "MAP",
                            "repeated group key_value { key; value }",
                        ))
                    }
                    (None, _) => {
                        let group_path = path.clone();
                        self.fill_group(idx, node, fields, &group_path, def, rep)?;
                        let kind = self.nodes[idx as usize].kind;
                        self.set(idx, node, path, def, optional, first_leaf, kind);
                    }
                }
            }
        }
        Ok(())
    }

    /// Reserves contiguous nodes for `fields` and fills them; sets node `idx`'s kind.
    fn fill_group(
        &mut self,
        idx: u32,
        node: &SchemaNode,
        fields: &[SchemaNode],
        path: &str,
        def: i16,
        rep: i16,
    ) -> Result<()> {
        if fields.is_empty() {
            return Err(Error::schema(format!(
                "group `{}` has no fields",
                node.name
            )));
        }
        let first = self.nodes.len() as u32;
        for _ in fields {
            self.push();
        }
        for (i, f) in fields.iter().enumerate() {
            self.fill(first + i as u32, f, path, def, rep)?;
        }
        let first_leaf = self.nodes[first as usize].leaves.0;
        let n = &mut self.nodes[idx as usize];
        n.kind = Kind::Group {
            first,
            len: fields.len() as u32,
        };
        n.leaves = (first_leaf, self.leaves.len() as u32);
        Ok(())
    }

    /// A VARIANT group: `metadata` and `value` binary leaves, and an optional shredded
    /// `typed_value` planned as any other node.
    #[allow(clippy::too_many_arguments)]
    fn fill_variant(
        &mut self,
        idx: u32,
        node: &SchemaNode,
        fields: &[SchemaNode],
        path: String,
        def: i16,
        optional: bool,
        rep: i16,
    ) -> Result<()> {
        let first_leaf = self.leaves.len() as u32;
        let position = |name: &str| fields.iter().position(|f| f.name == name);
        let binary = |i: usize| {
            matches!(
                fields[i].kind,
                NodeKind::Primitive {
                    physical_type: Type::ByteArray,
                    ..
                }
            )
        };
        let (Some(m), Some(v)) = (position("metadata"), position("value")) else {
            return Err(Error::unsupported(format!(
                "VARIANT group `{path}`: rows are written to `metadata` and `value` columns"
            )));
        };
        let typed = position("typed_value");
        if !binary(m) || !binary(v) || fields.len() != 2 + typed.is_some() as usize {
            return Err(Error::unsupported(format!(
                "VARIANT group `{path}`: expected binary `metadata` and `value` and an optional \
                 `typed_value`"
            )));
        }
        if typed.is_some() && fields[v].repetition != Repetition::Optional {
            return Err(Error::schema(format!(
                "VARIANT group `{path}`: a shredded variant's `value` must be optional"
            )));
        }
        self.fill_group(idx, node, fields, &path, def, rep)?;
        let Kind::Group { first, .. } = self.nodes[idx as usize].kind else {
            return Err(Error::schema("variant group lost its fields"));
        };
        let kind = Kind::Variant {
            metadata: first + m as u32,
            value: first + v as u32,
            typed: typed.map(|t| first + t as u32),
        };
        self.set(idx, node, path, def, optional, first_leaf, kind);
        Ok(())
    }

    fn push(&mut self) -> u32 {
        self.nodes.push(placeholder());
        (self.nodes.len() - 1) as u32
    }

    #[allow(clippy::too_many_arguments)]
    fn set(
        &mut self,
        idx: u32,
        node: &SchemaNode,
        path: String,
        def: i16,
        optional: bool,
        first_leaf: u32,
        kind: Kind,
    ) {
        let leaves = (first_leaf, self.leaves.len() as u32);
        self.nodes[idx as usize] = PlanNode {
            name: node.name.clone(),
            path,
            def,
            optional,
            is_key: false,
            leaves,
            kind,
            key_addr: 0,
            stamp: 0,
        };
    }
}

fn placeholder() -> PlanNode {
    PlanNode {
        name: String::new(),
        path: String::new(),
        def: 0,
        optional: false,
        is_key: false,
        leaves: (0, 0),
        kind: Kind::Group { first: 0, len: 0 },
        key_addr: 0,
        stamp: 0,
    }
}

fn layout_error(path: &str, what: &str, layout: &str) -> Error {
    Error::unsupported(format!(
        "{what} `{path}` is not in the 3-level layout ({layout}) typed rows write"
    ))
}

/// `10^p - 1`, the largest unscaled value of a decimal of precision `p` (`p <= 38`).
pub(crate) fn max_unscaled(precision: u32) -> i128 {
    10i128.pow(precision.min(38)) - 1
}

/// The conversion of serde's values for a leaf, from the schema's answer for it
/// ([`SchemaNode::conversion`]) and its physical type.
fn conv_of(node: &SchemaNode, physical: Type, type_length: i32) -> Result<Conv> {
    let conversion = node.conversion().unwrap_or(Conversion::Plain);
    let decimal = match conversion {
        Conversion::Decimal { precision, scale }
            if precision >= 1 && (0..=precision).contains(&scale) =>
        {
            Some((precision as u32, scale as u32))
        }
        Conversion::Decimal { precision, scale } => {
            return Err(Error::schema(format!(
                "DECIMAL({precision}, {scale}) is not a valid decimal"
            )))
        }
        _ => None,
    };
    let text = match conversion {
        Conversion::Decimal { .. } => Text::Decimal(decimal.map_or(0, |(_, s)| s)),
        Conversion::Date => Text::Date,
        Conversion::Time { unit, .. } => Text::Time(unit),
        Conversion::Timestamp { unit, .. } => Text::Timestamp(unit),
        _ => Text::None,
    };
    let integer = match conversion {
        Conversion::Integer { bit_width, signed } => Some((bit_width, signed)),
        _ => None,
    };
    Ok(match physical {
        Type::Boolean => Conv::Bool,
        Type::Int32 => {
            let (lo, hi) = match (integer, decimal) {
                (_, Some((p, _))) => {
                    let m = max_unscaled(p).min(i32::MAX as i128) as i64;
                    (-m, m)
                }
                (Some((bit_width, signed)), _) => int_range(bit_width, signed, 32),
                _ => (i32::MIN as i64, i32::MAX as i64),
            };
            Conv::Int32 { lo, hi, text }
        }
        Type::Int64 => {
            let (lo, hi) = match (integer, decimal) {
                (_, Some((p, _))) => {
                    let m = max_unscaled(p).min(i64::MAX as i128);
                    (-m, m)
                }
                (Some((bit_width, signed)), _) => {
                    let (lo, hi) = int_range(bit_width, signed, 64);
                    // An unsigned 64-bit column holds up to u64::MAX (as its bits).
                    let hi = if !signed && bit_width >= 64 {
                        u64::MAX as i128
                    } else {
                        hi as i128
                    };
                    (lo as i128, hi)
                }
                _ => (i64::MIN as i128, i64::MAX as i128),
            };
            Conv::Int64 { lo, hi, text }
        }
        Type::Float => Conv::Float,
        Type::Double => Conv::Double,
        Type::ByteArray => match (conversion, decimal) {
            (_, Some((precision, scale))) => Conv::Decimal {
                width: None,
                precision,
                scale,
            },
            (Conversion::Text(_), _) => Conv::Str,
            _ => Conv::Binary,
        },
        Type::FixedLenByteArray => {
            let width = usize::try_from(type_length)
                .ok()
                .filter(|&w| w > 0)
                .ok_or_else(|| Error::schema("FIXED_LEN_BYTE_ARRAY needs a positive length"))?;
            match (conversion, decimal) {
                (_, Some((precision, scale))) => {
                    if width > 16 {
                        return Err(Error::unsupported("decimals wider than 16 bytes"));
                    }
                    Conv::Decimal {
                        width: Some(width),
                        precision: precision.min(38),
                        scale,
                    }
                }
                (Conversion::Uuid, _) if width == 16 => Conv::Uuid,
                (Conversion::Float16, _) if width == 2 => Conv::Float16,
                _ => Conv::Fixed { width },
            }
        }
        Type::Int96 => return Err(Error::unsupported("typed rows do not write INT96 columns")),
        Type::Unknown(t) => return Err(Error::unsupported(format!("physical type {t}"))),
    })
}

/// The range of an INTEGER(bit_width, signed) annotation, clamped to the physical width.
fn int_range(bit_width: u8, signed: bool, physical_bits: u32) -> (i64, i64) {
    let bits = (bit_width.clamp(1, 64) as u32).min(physical_bits);
    if signed {
        let hi = ((1u64 << (bits - 1)) - 1) as i64;
        (-hi - 1, hi)
    } else if bits >= 64 {
        (0, i64::MAX)
    } else {
        (0, ((1u64 << bits) - 1) as i64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan(text: &str) -> Plan {
        Plan::new(&text.parse().unwrap(), false).unwrap()
    }

    #[test]
    fn levels_and_layout() {
        let p = plan(
            "message m {
               required int64 id;
               optional group tags (LIST) { repeated group list { optional binary element (STRING); } }
               required group attrs (MAP) { repeated group key_value { required binary key (STRING); optional int32 value; } }
               optional group s { required int32 a; optional int32 b (INTEGER(8,false)); }
             }",
        );
        let names: Vec<&str> = p.nodes.iter().map(|n| n.name.as_str()).collect();
        assert_eq!(
            names,
            ["m", "id", "tags", "attrs", "s", "element", "key", "value", "a", "b"]
        );
        assert_eq!(p.nodes[0].kind, Kind::Group { first: 1, len: 4 });
        assert_eq!(
            p.nodes[2].kind,
            Kind::List {
                element: 5,
                entry_rep: 1
            }
        );
        assert_eq!(
            p.nodes[3].kind,
            Kind::Map {
                key: 6,
                entry_rep: 1
            }
        );
        assert_eq!(p.nodes[4].kind, Kind::Group { first: 8, len: 2 });
        let defs: Vec<i16> = p.nodes.iter().map(|n| n.def).collect();
        assert_eq!(defs, [0, 0, 1, 0, 1, 3, 1, 2, 1, 2]);
        let leaves: Vec<(u32, u32)> = p.nodes.iter().map(|n| n.leaves).collect();
        assert_eq!(
            leaves,
            [
                (0, 6),
                (0, 1),
                (1, 2),
                (2, 4),
                (4, 6),
                (1, 2),
                (2, 3),
                (3, 4),
                (4, 5),
                (5, 6)
            ]
        );
        assert_eq!(p.nodes[5].path, "tags.list.element");
        let lv: Vec<(i16, i16)> = p.leaves.iter().map(|l| (l.max_def, l.max_rep)).collect();
        assert_eq!(lv, [(0, 0), (3, 1), (1, 1), (2, 1), (1, 0), (2, 0)]);
        assert_eq!(
            p.leaves[5].conv,
            Conv::Int32 {
                lo: 0,
                hi: 255,
                text: Text::None
            }
        );
    }

    #[test]
    fn conversions() {
        let p = plan(
            "message m {
               required int64 u (INTEGER(64,false));
               required int32 d (DECIMAL(4,2));
               required fixed_len_byte_array(16) x (DECIMAL(38,0));
               required fixed_len_byte_array(16) id (UUID);
               required int64 t (TIMESTAMP(MILLIS,true));
               required binary b;
               required binary e (ENUM);
             }",
        );
        let c: Vec<Conv> = p.leaves.iter().map(|l| l.conv).collect();
        assert_eq!(
            c[0],
            Conv::Int64 {
                lo: 0,
                hi: u64::MAX as i128,
                text: Text::None
            }
        );
        assert_eq!(
            c[1],
            Conv::Int32 {
                lo: -9999,
                hi: 9999,
                text: Text::Decimal(2)
            }
        );
        assert_eq!(
            c[2],
            Conv::Decimal {
                width: Some(16),
                precision: 38,
                scale: 0
            }
        );
        assert_eq!(c[3], Conv::Uuid);
        assert_eq!(
            c[4],
            Conv::Int64 {
                lo: i64::MIN as i128,
                hi: i64::MAX as i128,
                text: Text::Timestamp(TimeUnit::Millis)
            }
        );
        assert_eq!(c[5], Conv::Binary);
        assert_eq!(c[6], Conv::Str);
    }

    #[test]
    fn unsupported_layouts() {
        let err = |t: &str| Plan::new(&t.parse().unwrap(), false).unwrap_err();
        let e = err("message m { repeated int32 x; }");
        assert_eq!(e.kind(), crate::ErrorKind::Unsupported);
        assert!(e.to_string().contains("`x`"), "{e}");
        let e = err("message m { optional group l (LIST) { repeated int32 element; } }");
        assert!(e.to_string().contains("3-level"), "{e}");
        let e = err("message m { required int96 t; }");
        assert_eq!(e.kind(), crate::ErrorKind::Unsupported);
    }

    #[test]
    fn layouts_follow_the_schema_shape() {
        let err = |t: &str| Plan::new(&t.parse().unwrap(), false).unwrap_err();
        // A repeated group named `array` is a 2-level list's element (a struct), which the
        // 3-level writer cannot write as the list of its field.
        let e = err(
            "message m { optional group l (LIST) { repeated group array { required int32 x; } } }",
        );
        assert!(e.to_string().contains("3-level"), "{e}");
        let e = err("message m { optional group l (LIST) { repeated group l_tuple { required int32 x; } } }");
        assert!(e.to_string().contains("3-level"), "{e}");
        // A MAP needs its value column to be written.
        let e = err("message m { required group m (MAP) { repeated group key_value { required int32 key; } } }");
        assert!(e.to_string().contains("MAP"), "{e}");
        let e = err("message m { required group m (MAP) { repeated group key_value { optional int32 key; required int32 value; } } }");
        assert!(e.to_string().contains("must be required"), "{e}");
        // Misnamed 3-level levels and MAP_KEY_VALUE (inside a MAP or in its place) write.
        let p = plan(
            "message m {
               optional group l (LIST) { repeated group bag { optional int32 item; } }
               optional group a (MAP) { repeated group map (MAP_KEY_VALUE) { required binary key (UTF8); optional int32 value; } }
               optional group b (MAP_KEY_VALUE) { repeated group map { required int32 key; required int32 value; } }
             }",
        );
        assert!(matches!(p.nodes[1].kind, Kind::List { .. }));
        assert!(matches!(p.nodes[2].kind, Kind::Map { .. }));
        assert!(matches!(p.nodes[3].kind, Kind::Map { .. }));
        assert_eq!(p.nodes[4].path, "l.bag.item");
        // Legacy annotations convert as their logical counterparts.
        let p = plan("message m { required int32 u (UINT_8); required binary s (UTF8); required int64 t (TIMESTAMP_MICROS); }");
        assert_eq!(
            p.leaves[0].conv,
            Conv::Int32 {
                lo: 0,
                hi: 255,
                text: Text::None
            }
        );
        assert_eq!(p.leaves[1].conv, Conv::Str);
        assert_eq!(
            p.leaves[2].conv,
            Conv::Int64 {
                lo: i64::MIN as i128,
                hi: i64::MAX as i128,
                text: Text::Timestamp(TimeUnit::Micros)
            }
        );
    }

    #[test]
    fn wrapped_entry() {
        let p = Plan::new(
            &"message m { optional int64 value; }".parse().unwrap(),
            true,
        )
        .unwrap();
        assert_eq!(p.entry, 1);
    }
}
