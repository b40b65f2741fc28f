//! The file schema compiled for the assembler: one arena node per schema node, with its
//! Dremel levels, the range of leaf columns below it, its list or map shape and, for leaves,
//! how physical values convert. Shapes and conversions are the schema's answers
//! ([`SchemaNode::group_shape`], [`SchemaNode::conversion`]), compiled to arena ids.

use std::ops::Range;

use crate::core::format::{TimeUnit, Type};
use crate::core::schema::{Conversion, GroupShape, NodeKind, Repetition, Schema, SchemaNode};
use crate::error::{Error, Result};

use super::constant::Constant;

/// Index of a node in [`Tree::nodes`]; the root is [`ROOT`].
pub(crate) type NodeId = usize;

/// The root node (the message).
pub(crate) const ROOT: NodeId = 0;

/// How a leaf's physical values read as Rust values, from its logical (or converted) type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Conv {
    /// No annotation that changes the reading.
    Plain,
    /// Unsigned integer (INTEGER(_, false), UINT_*): INT32/INT64 bits reinterpreted.
    Unsigned,
    /// UTF-8 text (STRING, ENUM, JSON).
    String,
    /// Days since 1970-01-01.
    Date,
    /// Time of day.
    Time(TimeUnit),
    /// Units since the epoch; `true` when adjusted to UTC.
    Timestamp(TimeUnit, bool),
    /// Unscaled decimal with this scale.
    Decimal(i32),
    /// 16-byte UUID.
    Uuid,
    /// 2-byte IEEE half float.
    Float16,
}

/// A group's shape, from its annotation and children (LogicalTypes.md, including the
/// backward-compatibility rules). The group's own repetition does not matter here: a
/// repeated LIST group is a list of lists.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Shape {
    /// A struct: named fields.
    Plain,
    /// A LIST: `repeated` is the repeated child; `element` the element node. When the
    /// repeated node is itself the element (2-level lists), `element == repeated`.
    List { repeated: NodeId, element: NodeId },
    /// A MAP: `kv` is the repeated key/value group, `key` its first child, `value` its second.
    Map {
        kv: NodeId,
        key: NodeId,
        value: Option<NodeId>,
    },
    /// A VARIANT group (VariantShredding.md): its `metadata` leaf, its `value` leaf and its
    /// `typed_value` node, found by name.
    Variant {
        metadata: NodeId,
        value: Option<NodeId>,
        typed: Option<NodeId>,
    },
}

/// What a node is.
#[derive(Debug, Clone)]
pub(crate) enum Kind {
    /// A leaf column.
    Leaf {
        /// Leaf ordinal (column index in the schema).
        col: usize,
        /// Physical type.
        physical: Type,
        /// Value conversion.
        conv: Conv,
        /// Byte length of FIXED_LEN_BYTE_ARRAY values.
        width: i32,
        /// Bit width of an INTEGER annotation (0 without one): shredded VARIANT values
        /// tell int8 and int16 from int32 by it.
        bits: u8,
    },
    /// A group.
    Group {
        /// Child nodes in schema order.
        children: Vec<NodeId>,
        /// List / map / struct.
        shape: Shape,
    },
}

/// One schema node.
#[derive(Debug, Clone)]
pub(crate) struct Node {
    /// Field name.
    pub name: String,
    /// Dotted path from the top-level field (empty for the root), for error messages.
    pub path: String,
    /// Repetition (the root is required).
    pub repetition: Repetition,
    /// Definition level when this node is present.
    pub def: i16,
    /// Repetition level of this node (repeated ancestors, itself included).
    pub rep: i16,
    /// Leaf, or group with its shape.
    pub kind: Kind,
    /// Leaf columns below this node (contiguous in depth-first order).
    pub leaves: Range<usize>,
    /// First projected leaf column below this node: the one presence and list lengths are
    /// read from. `None` when no leaf below is projected.
    pub decide: Option<usize>,
}

impl Node {
    /// Whether this node is `repeated`.
    #[inline]
    pub fn is_repeated(&self) -> bool {
        self.repetition == Repetition::Repeated
    }

    /// Whether this node is `optional`.
    #[inline]
    pub fn is_optional(&self) -> bool {
        self.repetition == Repetition::Optional
    }

    /// Children of a group (empty for a leaf).
    pub fn children(&self) -> &[NodeId] {
        match &self.kind {
            Kind::Group { children, .. } => children,
            Kind::Leaf { .. } => &[],
        }
    }

    /// Short description of the node's type, for messages.
    pub fn describe(&self) -> String {
        match &self.kind {
            Kind::Leaf { .. } => format!("{} column", self.value_type()),
            Kind::Group {
                shape: Shape::List { .. },
                ..
            } => "LIST group".into(),
            Kind::Group {
                shape: Shape::Map { .. },
                ..
            } => "MAP group".into(),
            Kind::Group {
                shape: Shape::Variant { .. },
                ..
            } => "VARIANT group".into(),
            Kind::Group { .. } => "group".into(),
        }
    }
}

impl Node {
    /// A leaf's values in Parquet's words: the physical type, then how it reads
    /// (`BYTE_ARRAY (UTF-8 text)`, `INT64 TIMESTAMP(MICROS, UTC)`); a group's kind.
    pub fn value_type(&self) -> String {
        let Kind::Leaf {
            physical,
            conv,
            width,
            ..
        } = &self.kind
        else {
            return self.describe();
        };
        let physical = physical.format_name_with_width(*width);
        let unit = |u: &TimeUnit| match u {
            TimeUnit::Millis => "MILLIS".to_string(),
            TimeUnit::Micros => "MICROS".into(),
            TimeUnit::Nanos => "NANOS".into(),
            TimeUnit::Unknown(n) => format!("unit {n}"),
        };
        let read = match conv {
            Conv::Plain => return physical,
            Conv::Unsigned => "unsigned".to_string(),
            Conv::String => "UTF-8 text".into(),
            Conv::Date => "DATE".into(),
            Conv::Time(u) => format!("TIME({})", unit(u)),
            Conv::Timestamp(u, utc) => format!(
                "TIMESTAMP({}, {})",
                unit(u),
                if *utc { "UTC" } else { "local" }
            ),
            Conv::Decimal(scale) => format!("DECIMAL(scale {scale})"),
            Conv::Uuid => "UUID".into(),
            Conv::Float16 => "FLOAT16".into(),
        };
        format!("{physical} ({read})")
    }
}

/// serde's field list of a struct, matched against a group's children.
#[derive(Debug, Clone)]
pub(crate) struct StructPlan {
    /// serde's field list the plan was made for.
    pub fields: &'static [&'static str],
    /// `(serde's field name, child node)` of the fields the file has.
    pub entries: Vec<(&'static str, NodeId)>,
    /// Children not asked for that hold projected leaves (each consumed after the struct).
    pub extra: Vec<NodeId>,
    /// `(serde's field name, index in Tree::constants)` of the fields the file lacks that
    /// constant fields fill (top-level structs only), handed out after `entries`.
    pub constants: Vec<(&'static str, usize)>,
    /// When a `#[parquet(assemble)]` struct registered `fields` (see
    /// [`assemble`](super::assemble)): the field index of each entry, then of each constant,
    /// handed to its visitor instead of the name.
    pub keys: Option<Vec<u32>>,
    /// The keys are `0, 1, 2, ...` (every field the file has, in the struct's order) and
    /// there are no constants: a generated assembler may read the fields one after the
    /// other (see [`fast`](super::fast)).
    pub sequential: bool,
    /// Per entry, its leaf column and conversion when the entry is a leaf that is not
    /// repeated (what the generated assembler reads straight from the cursor).
    pub leaves: Vec<Option<(usize, Conv)>>,
}

impl StructPlan {
    /// The field indexes to hand for `fields` instead of names: the plan's, when it was
    /// made for that very list (a plan found by names may be another type's list).
    #[inline]
    pub fn keys_for(&self, fields: &'static [&'static str]) -> Option<&[u32]> {
        self.keys
            .as_deref()
            .filter(|_| std::ptr::eq(self.fields, fields))
    }
}

/// The compiled schema.
#[derive(Debug, Clone)]
pub(crate) struct Tree {
    /// The nodes; children come after their parent.
    pub nodes: Vec<Node>,
    /// Number of leaf columns.
    pub num_leaves: usize,
    /// The node of each leaf column.
    pub leaf_nodes: Vec<NodeId>,
    /// Struct plans, built once the projection is known.
    plans: Vec<StructPlan>,
    /// Per node: `(field list address, field list length, index in plans)`.
    plan_index: Vec<Vec<(usize, usize, usize)>>,
    /// Constant top-level fields the file lacks (see [`Tree::set_constants`]).
    pub constants: Vec<Constant>,
}

impl Conv {
    /// The assembler's conversion for the schema's answer ([`SchemaNode::conversion`]):
    /// signed integers and INT96 read by their physical type, every text flavour as text.
    fn of(conversion: Conversion) -> Conv {
        match conversion {
            Conversion::Plain | Conversion::Int96 => Conv::Plain,
            Conversion::Integer { signed: true, .. } => Conv::Plain,
            Conversion::Integer { signed: false, .. } => Conv::Unsigned,
            Conversion::Text(_) => Conv::String,
            Conversion::Date => Conv::Date,
            Conversion::Time { unit, .. } => Conv::Time(unit),
            Conversion::Timestamp { unit, utc } => Conv::Timestamp(unit, utc),
            Conversion::Decimal { scale, .. } => Conv::Decimal(scale),
            Conversion::Uuid => Conv::Uuid,
            Conversion::Float16 => Conv::Float16,
        }
    }
}

impl Tree {
    /// Compiles a file schema.
    pub fn new(schema: &Schema) -> Result<Tree> {
        let mut tree = Tree {
            nodes: Vec::new(),
            num_leaves: 0,
            leaf_nodes: Vec::new(),
            plans: Vec::new(),
            plan_index: Vec::new(),
            constants: Vec::new(),
        };
        tree.add(schema.root(), "", 0, 0, true);
        if tree.num_leaves != schema.num_columns() {
            return Err(Error::schema(format!(
                "schema tree has {} leaves but {} column descriptors",
                tree.num_leaves,
                schema.num_columns()
            )));
        }
        for (i, c) in schema.columns().iter().enumerate() {
            if let Some(n) = tree.leaf_nodes.get(i).map(|&id| &tree.nodes[id]) {
                if n.def != c.max_def_level || n.rep != c.max_rep_level {
                    return Err(Error::schema("column levels disagree with the schema tree")
                        .with_column(c.path.to_string()));
                }
            }
        }
        Ok(tree)
    }

    fn add(
        &mut self,
        node: &SchemaNode,
        parent_path: &str,
        def: i16,
        rep: i16,
        is_root: bool,
    ) -> NodeId {
        let repetition = if is_root {
            Repetition::Required
        } else {
            node.repetition
        };
        let def = def + (repetition != Repetition::Required) as i16;
        let rep = rep + (repetition == Repetition::Repeated) as i16;
        let path = match (is_root, parent_path.is_empty()) {
            (true, _) => String::new(),
            (false, true) => node.name.clone(),
            (false, false) => format!("{parent_path}.{}", node.name),
        };
        let id = self.nodes.len();
        let first_leaf = self.num_leaves;
        let kind = match &node.kind {
            NodeKind::Primitive {
                physical_type,
                type_length,
                ..
            } => {
                self.num_leaves += 1;
                self.leaf_nodes.push(id);
                Kind::Leaf {
                    col: first_leaf,
                    physical: *physical_type,
                    conv: Conv::of(node.conversion().unwrap_or(Conversion::Plain)),
                    width: *type_length,
                    bits: match node.conversion() {
                        Some(Conversion::Integer { bit_width, .. }) => bit_width,
                        _ => 0,
                    },
                }
            }
            NodeKind::Group { .. } => Kind::Group {
                children: Vec::new(),
                shape: Shape::Plain,
            },
        };
        self.nodes.push(Node {
            name: node.name.clone(),
            path: path.clone(),
            repetition,
            def,
            rep,
            kind,
            leaves: first_leaf..first_leaf,
            decide: None,
        });
        if let NodeKind::Group { fields } = &node.kind {
            let children: Vec<NodeId> = fields
                .iter()
                .map(|f| self.add(f, &path, def, rep, false))
                .collect();
            let shape = self.shape(node, &children);
            self.nodes[id].kind = Kind::Group { children, shape };
        }
        self.nodes[id].leaves = first_leaf..self.num_leaves;
        id
    }

    /// The shape of group `node` whose compiled children are `children`, as the schema
    /// answers it ([`SchemaNode::group_shape`]). The key/value level of a MAP is set to a
    /// plain group: it reads as the map's entries (a struct of key and value) whatever its
    /// own annotation says (MAP_KEY_VALUE only means MAP outside a MAP).
    fn shape(&mut self, node: &SchemaNode, children: &[NodeId]) -> Shape {
        let Some(&repeated) = children.first() else {
            return Shape::Plain;
        };
        if let Some(crate::core::format::LogicalType::Variant { .. }) = node.logical_type {
            let named = |name: &str| {
                children
                    .iter()
                    .copied()
                    .find(|&c| self.nodes[c].name == name)
            };
            if let Some(metadata) = named("metadata") {
                let (value, typed) = (named("value"), named("typed_value"));
                if value.is_some() || typed.is_some() {
                    return Shape::Variant {
                        metadata,
                        value,
                        typed,
                    };
                }
            }
        }
        match node.group_shape() {
            Some(GroupShape::List(list)) => Shape::List {
                repeated,
                element: if list.element_is_repeated() {
                    repeated
                } else {
                    match self.nodes[repeated].children().first() {
                        Some(&only) => only,
                        None => return Shape::Plain,
                    }
                },
            },
            Some(GroupShape::Map(_)) => {
                let (key, value) = match self.nodes[repeated].children() {
                    [key] => (*key, None),
                    [key, value] => (*key, Some(*value)),
                    _ => return Shape::Plain,
                };
                if let Kind::Group { shape, .. } = &mut self.nodes[repeated].kind {
                    *shape = Shape::Plain;
                }
                Shape::Map {
                    kv: repeated,
                    key,
                    value,
                }
            }
            Some(GroupShape::Struct) | None => Shape::Plain,
        }
    }

    /// Sets each node's deciding leaf from the projected leaf columns, and builds the plans
    /// of the struct field lists the probe saw.
    pub fn set_projection(
        &mut self,
        projected: &[bool],
        structs: &[(NodeId, &'static [&'static str])],
    ) {
        for n in &mut self.nodes {
            n.decide = n
                .leaves
                .clone()
                .find(|&c| projected.get(c).copied().unwrap_or(false));
        }
        self.plans.clear();
        self.plan_index = vec![Vec::new(); self.nodes.len()];
        for &(node, fields) in structs {
            if node < self.nodes.len() && self.plan(node, fields).is_none() {
                let plan = self.make_plan(node, fields);
                self.plans.push(plan);
                self.plan_index[node].push((
                    fields.as_ptr() as usize,
                    fields.len(),
                    self.plans.len() - 1,
                ));
            }
        }
    }

    /// The plan of serde's `fields` for group `node`, if the probe saw it.
    #[inline]
    pub fn plan(&self, node: NodeId, fields: &'static [&'static str]) -> Option<&StructPlan> {
        let key = (fields.as_ptr() as usize, fields.len());
        let entries = self.plan_index.get(node)?;
        entries
            .iter()
            .find(|e| (e.0, e.1) == key)
            .map(|e| &self.plans[e.2])
    }

    /// The plan of a field list equal to `fields` by its names (the same list at another
    /// address: each codegen unit may hold its own copy of a type's field list), by index.
    pub fn plan_by_names(&self, node: NodeId, fields: &[&str]) -> Option<usize> {
        let entries = self.plan_index.get(node)?;
        entries
            .iter()
            .map(|e| e.2)
            .find(|&plan| self.plans[plan].fields == fields)
    }

    /// The plans made for group `node`.
    #[cfg(test)]
    pub fn plans_of(&self, node: NodeId) -> Vec<&StructPlan> {
        self.plan_index
            .get(node)
            .map(|e| e.iter().map(|e| &self.plans[e.2]).collect())
            .unwrap_or_default()
    }

    /// Plan number `i` (from [`plan_by_names`](Self::plan_by_names)).
    pub fn plan_at(&self, i: usize) -> &StructPlan {
        &self.plans[i]
    }

    /// Matches serde's `fields` against the children of group `node` (aliases included:
    /// the first field name the file has wins).
    pub fn make_plan(&self, node: NodeId, fields: &'static [&'static str]) -> StructPlan {
        let indexes = super::assemble::indexes_of(fields);
        let mut keys = Vec::new();
        let mut entries: Vec<(&'static str, NodeId)> = Vec::new();
        for (k, &name) in fields.iter().enumerate() {
            if let Some(child) = self.child_named(node, name) {
                if !entries.iter().any(|&(_, c)| c == child) {
                    entries.push((name, child));
                    keys.extend(indexes.and_then(|i| i.get(k)));
                }
            }
        }
        let extra = self.nodes[node]
            .children()
            .iter()
            .copied()
            .filter(|c| !entries.iter().any(|e| e.1 == *c) && self.nodes[*c].decide.is_some())
            .collect();
        let mut constants: Vec<(&'static str, usize)> = Vec::new();
        if node == ROOT {
            for (k, &name) in fields.iter().enumerate() {
                if entries.iter().any(|e| e.0 == name) {
                    continue;
                }
                if let Some(i) = self.constants.iter().position(|c| c.name() == name) {
                    if !constants.iter().any(|&(_, j)| j == i) {
                        constants.push((name, i));
                        keys.extend(indexes.and_then(|i| i.get(k)));
                    }
                }
            }
        }
        let keys =
            (indexes.is_some() && keys.len() == entries.len() + constants.len()).then_some(keys);
        let sequential = constants.is_empty()
            && keys
                .as_ref()
                .is_some_and(|k| k.iter().enumerate().all(|(i, &k)| k as usize == i));
        let leaves = entries
            .iter()
            .map(|&(_, child)| self.plain_leaf(child))
            .collect();
        StructPlan {
            fields,
            entries,
            extra,
            constants,
            keys,
            sequential,
            leaves,
        }
    }

    /// Adds constant top-level fields (before the projection is set): those whose name
    /// is a top-level field of the file are left out (the file's column is read).
    pub fn set_constants(&mut self, constants: &[Constant]) {
        self.constants = constants
            .iter()
            .filter(|c| self.child_named(ROOT, c.name()).is_none())
            .cloned()
            .collect();
    }

    /// The FIXED_LEN_BYTE_ARRAY length of leaf `id` (0 for others).
    pub fn type_length(&self, id: NodeId) -> i32 {
        match self.nodes[id].kind {
            Kind::Leaf { width, .. } => width,
            Kind::Group { .. } => 0,
        }
    }

    /// The leaf column and conversion of node `id` when it is a leaf that is not repeated
    /// (a value the assembler reads straight from its cursor).
    pub fn plain_leaf(&self, id: NodeId) -> Option<(usize, Conv)> {
        let n = self.nodes.get(id)?;
        match n.kind {
            Kind::Leaf { col, conv, .. } if !n.is_repeated() => Some((col, conv)),
            _ => None,
        }
    }

    /// The child of group `id` named `name`.
    pub fn child_named(&self, id: NodeId, name: &str) -> Option<NodeId> {
        self.nodes[id]
            .children()
            .iter()
            .copied()
            .find(|&c| self.nodes[c].name == name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tree(text: &str) -> Tree {
        Tree::new(&text.parse::<Schema>().unwrap()).unwrap()
    }

    #[test]
    fn levels_leaves_and_shapes() {
        let t = tree(
            "message m {
               required int64 id;
               optional group tags (LIST) { repeated group list { optional binary element (STRING); } }
               required group attrs (MAP) { repeated group key_value { required binary key (STRING); optional int32 value; } }
               repeated int32 bare;
             }",
        );
        let root = &t.nodes[ROOT];
        assert_eq!(root.leaves, 0..5);
        let tags = t.child_named(ROOT, "tags").unwrap();
        let Kind::Group {
            shape: Shape::List { repeated, element },
            ..
        } = t.nodes[tags].kind
        else {
            panic!("tags is a list")
        };
        assert_eq!(t.nodes[repeated].name, "list");
        assert_eq!(t.nodes[element].name, "element");
        assert_eq!((t.nodes[element].def, t.nodes[element].rep), (3, 1));
        assert_eq!(t.nodes[element].path, "tags.list.element");
        let attrs = t.child_named(ROOT, "attrs").unwrap();
        assert!(matches!(
            t.nodes[attrs].kind,
            Kind::Group {
                shape: Shape::Map { value: Some(_), .. },
                ..
            }
        ));
        assert_eq!(t.nodes[attrs].leaves, 2..4);
        let bare = t.child_named(ROOT, "bare").unwrap();
        assert_eq!((t.nodes[bare].def, t.nodes[bare].rep), (1, 1));
        assert!(matches!(
            t.nodes[bare].kind,
            Kind::Leaf {
                col: 4,
                conv: Conv::Plain,
                ..
            }
        ));
    }

    #[test]
    fn legacy_lists() {
        // 2-level list whose repeated group is named `array`: the group is the element, and
        // being a LIST itself it is a list of lists.
        let t = tree("message m { required group a (LIST) { repeated group array (LIST) { repeated int32 array; } } }");
        let a = t.child_named(ROOT, "a").unwrap();
        let Kind::Group {
            shape: Shape::List { repeated, element },
            ..
        } = t.nodes[a].kind
        else {
            panic!()
        };
        assert_eq!(repeated, element);
        assert!(matches!(
            t.nodes[element].kind,
            Kind::Group {
                shape: Shape::List { .. },
                ..
            }
        ));
        // `<name>_tuple`.
        let t = tree("message m { optional group x (LIST) { repeated group x_tuple { required int32 v; } } }");
        let x = t.child_named(ROOT, "x").unwrap();
        let Kind::Group {
            shape: Shape::List { repeated, element },
            ..
        } = t.nodes[x].kind
        else {
            panic!()
        };
        assert_eq!(repeated, element);
        // Map with key only.
        let t = tree("message m { required group m (MAP) { repeated group key_value { required int32 key; } } }");
        let m = t.child_named(ROOT, "m").unwrap();
        assert!(matches!(
            t.nodes[m].kind,
            Kind::Group {
                shape: Shape::Map { value: None, .. },
                ..
            }
        ));
    }

    #[test]
    fn conversions() {
        let t = tree(
            "message m {
               required int64 ts (TIMESTAMP(MILLIS,false));
               required int32 u (INTEGER(16,false));
               required fixed_len_byte_array(16) id (UUID);
               required int32 d (DECIMAL(9,2));
               required binary e (ENUM);
             }",
        );
        let conv = |i: usize| match t.nodes[i].kind {
            Kind::Leaf { conv, .. } => conv,
            _ => panic!(),
        };
        assert_eq!(conv(1), Conv::Timestamp(TimeUnit::Millis, false));
        assert_eq!(conv(2), Conv::Unsigned);
        assert_eq!(conv(3), Conv::Uuid);
        assert_eq!(conv(4), Conv::Decimal(2));
        assert_eq!(conv(5), Conv::String);
    }

    #[test]
    fn map_key_value_level_reads_as_entries() {
        // Impala's MAP_KEY_VALUE on the repeated level of a MAP: the level is the entries.
        let t = tree("message m { optional group m (MAP) { repeated group map (MAP_KEY_VALUE) { required binary key (UTF8); optional int32 value; } } }");
        let m = t.child_named(ROOT, "m").unwrap();
        let Kind::Group {
            shape: Shape::Map { kv, key, value },
            ..
        } = t.nodes[m].kind
        else {
            panic!("m is a map")
        };
        assert_eq!(t.nodes[key].name, "key");
        assert_eq!(value.map(|v| t.nodes[v].name.as_str()), Some("value"));
        assert!(matches!(
            t.nodes[kv].kind,
            Kind::Group {
                shape: Shape::Plain,
                ..
            }
        ));
        // Even a key/value level whose own layout would make it a map is the entries.
        let t = tree("message m { optional group m (MAP) { repeated group kv (MAP_KEY_VALUE) { repeated group e { required int32 k; } } } }");
        let m = t.child_named(ROOT, "m").unwrap();
        let Kind::Group {
            shape: Shape::Map {
                kv, value: None, ..
            },
            ..
        } = t.nodes[m].kind
        else {
            panic!("m is a map")
        };
        assert!(matches!(
            t.nodes[kv].kind,
            Kind::Group {
                shape: Shape::Plain,
                ..
            }
        ));
    }

    #[test]
    fn legacy_converted_type_beside_an_unknown_logical_type() {
        use crate::core::format::{ConvertedType, LogicalType};
        let leaf = |name: &str, t: Type, ct: ConvertedType| {
            let mut n =
                SchemaNode::primitive(name, Repetition::Optional, t).with_converted_type(ct);
            n.logical_type = Some(LogicalType::Unknown(2555));
            n
        };
        let root = SchemaNode::group(
            "m",
            Repetition::Required,
            vec![
                leaf("s", Type::ByteArray, ConvertedType::Utf8),
                leaf("u", Type::Int32, ConvertedType::Uint16),
                leaf("t", Type::Int64, ConvertedType::TimestampMillis),
                SchemaNode::primitive("b", Repetition::Optional, Type::ByteArray),
            ],
        );
        let t = Tree::new(&Schema::new(root).unwrap()).unwrap();
        let convs: Vec<Conv> = t
            .leaf_nodes
            .iter()
            .map(|&id| match t.nodes[id].kind {
                Kind::Leaf { conv, .. } => conv,
                Kind::Group { .. } => panic!("leaf"),
            })
            .collect();
        assert_eq!(
            convs,
            [
                Conv::String,
                Conv::Unsigned,
                Conv::Timestamp(TimeUnit::Millis, true),
                Conv::Plain
            ]
        );
    }

    #[test]
    fn projection_sets_deciding_leaves() {
        let mut t = tree("message m { optional group g { required int32 a; required int32 b; } required int32 c; }");
        t.set_projection(&[false, true, false], &[]);
        let g = t.child_named(ROOT, "g").unwrap();
        assert_eq!(t.nodes[g].decide, Some(1));
        assert_eq!(t.nodes[ROOT].decide, Some(1));
        let c = t.child_named(ROOT, "c").unwrap();
        assert_eq!(t.nodes[c].decide, None);
    }
}
