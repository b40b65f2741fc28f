//! The schema tree: groups and primitive leaves.

use super::annotation::converted_type_for;
use crate::core::format::{ConvertedType, FieldRepetitionType, LogicalType, Type};
use crate::Result;

/// Repetition of a field (the Thrift enum, re-exported under the schema's name).
pub type Repetition = FieldRepetitionType;

/// One node of the schema tree.
#[derive(Debug, Clone, PartialEq)]
pub struct SchemaNode {
    /// Field name.
    pub name: String,
    /// Repetition (the root is `Required`).
    pub repetition: Repetition,
    /// Field id, if the schema carries ids.
    pub field_id: Option<i32>,
    /// Logical type annotation.
    pub logical_type: Option<LogicalType>,
    /// Legacy converted type annotation.
    pub converted_type: Option<ConvertedType>,
    /// Group or primitive.
    pub kind: NodeKind,
}

/// What a [`SchemaNode`] is.
#[derive(Debug, Clone, PartialEq)]
pub enum NodeKind {
    /// A leaf column.
    Primitive {
        /// Physical type.
        physical_type: Type,
        /// Byte length for FIXED_LEN_BYTE_ARRAY (0 otherwise, unless the file set it).
        type_length: i32,
        /// Decimal precision (0 when not a decimal).
        precision: i32,
        /// Decimal scale (0 when not a decimal).
        scale: i32,
    },
    /// A group of fields.
    Group {
        /// Child fields in order.
        fields: Vec<SchemaNode>,
    },
}

impl SchemaNode {
    /// A primitive leaf with no annotation (`type_length`, `precision` and `scale` 0).
    ///
    /// ```
    /// use parquet_serde::core::schema::PhysicalType as Type;
    /// use parquet_serde::core::schema::{Repetition, SchemaNode};
    /// let id = SchemaNode::primitive("id", Repetition::Required, Type::Int64);
    /// assert_eq!(id.physical_type(), Some(Type::Int64));
    /// ```
    pub fn primitive(name: impl Into<String>, repetition: Repetition, physical_type: Type) -> Self {
        SchemaNode {
            name: name.into(),
            repetition,
            field_id: None,
            logical_type: None,
            converted_type: None,
            kind: NodeKind::Primitive {
                physical_type,
                type_length: 0,
                precision: 0,
                scale: 0,
            },
        }
    }

    /// A group of `fields` with no annotation.
    pub fn group(name: impl Into<String>, repetition: Repetition, fields: Vec<SchemaNode>) -> Self {
        SchemaNode {
            name: name.into(),
            repetition,
            field_id: None,
            logical_type: None,
            converted_type: None,
            kind: NodeKind::Group { fields },
        }
    }

    /// A list in the 3-level layout LogicalTypes.md prescribes:
    ///
    /// ```text
    /// <repetition> group <name> (LIST) {
    ///   repeated group list {
    ///     <element, renamed "element">
    ///   }
    /// }
    /// ```
    ///
    /// The element keeps its own repetition (required or optional; [`Schema::new`]
    /// rejects a repeated element).
    ///
    /// [`Schema::new`]: super::Schema::new
    pub fn list(name: impl Into<String>, repetition: Repetition, element: SchemaNode) -> Self {
        let element = element.with_name("element");
        let list = SchemaNode::group("list", Repetition::Repeated, vec![element]);
        SchemaNode::group(name, repetition, vec![list]).with_logical_type(LogicalType::List)
    }

    /// A map in the layout LogicalTypes.md prescribes:
    ///
    /// ```text
    /// <repetition> group <name> (MAP) {
    ///   repeated group key_value {
    ///     required <key, renamed "key">
    ///     <value, renamed "value">
    ///   }
    /// }
    /// ```
    ///
    /// The key is made `required` (the spec's rule); the value keeps its repetition.
    pub fn map(
        name: impl Into<String>,
        repetition: Repetition,
        key: SchemaNode,
        value: SchemaNode,
    ) -> Self {
        let mut key = key.with_name("key");
        key.repetition = Repetition::Required;
        let value = value.with_name("value");
        let key_value = SchemaNode::group("key_value", Repetition::Repeated, vec![key, value]);
        SchemaNode::group(name, repetition, vec![key_value]).with_logical_type(LogicalType::Map)
    }

    /// For a LIST group (`self`) whose only child is the repeated node `repeated`: whether
    /// that repeated node is itself the element (2-level lists: a repeated primitive, a
    /// repeated group of several fields or of a repeated field, or one named `array` or
    /// `<list>_tuple`) rather than its only field (the 3-level layout), by the
    /// backward-compatibility rules of LogicalTypes.md (the rules the readers apply to the
    /// whole group).
    pub fn list_element_is_repeated_node(&self, repeated: &SchemaNode) -> bool {
        super::shape::list_layout(&self.name, repeated) != super::ListLayout::ThreeLevel
    }

    /// Sets the logical type and the matching legacy converted type (none for types with no
    /// legacy counterpart). A DECIMAL also sets the primitive's
    /// precision and scale, as the spec asks writers to.
    pub fn with_logical_type(mut self, logical_type: LogicalType) -> Self {
        self.set_logical_type(logical_type);
        self
    }

    /// In-place form of [`with_logical_type`](SchemaNode::with_logical_type).
    pub fn set_logical_type(&mut self, logical_type: LogicalType) {
        self.converted_type = converted_type_for(&logical_type);
        if let (
            LogicalType::Decimal {
                scale: s,
                precision: p,
            },
            NodeKind::Primitive {
                precision, scale, ..
            },
        ) = (&logical_type, &mut self.kind)
        {
            *precision = *p;
            *scale = *s;
        }
        self.logical_type = Some(logical_type);
    }

    /// Sets the legacy converted type only (the logical type is left as it is). For a legacy
    /// DECIMAL also set the precision and scale with [`with_precision_and_scale`].
    ///
    /// [`with_precision_and_scale`]: SchemaNode::with_precision_and_scale
    pub fn with_converted_type(mut self, converted_type: ConvertedType) -> Self {
        self.converted_type = Some(converted_type);
        self
    }

    /// Sets the byte length of a FIXED_LEN_BYTE_ARRAY leaf (no effect on groups).
    pub fn with_type_length(mut self, length: i32) -> Self {
        if let NodeKind::Primitive { type_length, .. } = &mut self.kind {
            *type_length = length;
        }
        self
    }

    /// Sets the decimal precision and scale of a leaf (no effect on groups).
    pub fn with_precision_and_scale(mut self, precision: i32, scale: i32) -> Self {
        if let NodeKind::Primitive {
            precision: p,
            scale: s,
            ..
        } = &mut self.kind
        {
            *p = precision;
            *s = scale;
        }
        self
    }

    /// Sets the field id.
    pub fn with_field_id(mut self, id: i32) -> Self {
        self.field_id = Some(id);
        self
    }

    /// Renames the node.
    pub fn with_name(mut self, name: impl Into<String>) -> Self {
        self.name = name.into();
        self
    }

    /// Changes the repetition.
    pub fn with_repetition(mut self, repetition: Repetition) -> Self {
        self.repetition = repetition;
        self
    }

    /// Whether this node is a group.
    pub fn is_group(&self) -> bool {
        matches!(self.kind, NodeKind::Group { .. })
    }

    /// Whether this node is a primitive leaf.
    pub fn is_primitive(&self) -> bool {
        matches!(self.kind, NodeKind::Primitive { .. })
    }

    /// The fields of a group; empty for a primitive.
    pub fn fields(&self) -> &[SchemaNode] {
        match &self.kind {
            NodeKind::Group { fields } => fields,
            NodeKind::Primitive { .. } => &[],
        }
    }

    /// The first field of a group with this name.
    pub fn field(&self, name: &str) -> Option<&SchemaNode> {
        self.fields().iter().find(|f| f.name == name)
    }

    /// The physical type of a leaf; `None` for a group.
    pub fn physical_type(&self) -> Option<Type> {
        match self.kind {
            NodeKind::Primitive { physical_type, .. } => Some(physical_type),
            NodeKind::Group { .. } => None,
        }
    }

    /// The FIXED_LEN_BYTE_ARRAY byte length of a leaf (0 when unset or for a group).
    pub fn type_length(&self) -> i32 {
        match self.kind {
            NodeKind::Primitive { type_length, .. } => type_length,
            NodeKind::Group { .. } => 0,
        }
    }

    /// The decimal precision of a leaf (0 when not a decimal or for a group).
    pub fn precision(&self) -> i32 {
        match self.kind {
            NodeKind::Primitive { precision, .. } => precision,
            NodeKind::Group { .. } => 0,
        }
    }

    /// The decimal scale of a leaf (0 when not a decimal or for a group).
    pub fn scale(&self) -> i32 {
        match self.kind {
            NodeKind::Primitive { scale, .. } => scale,
            NodeKind::Group { .. } => 0,
        }
    }

    /// The logical type a reader should use: the logical type when this library knows it,
    /// otherwise the one the legacy converted type stands for; `None` when there is neither.
    /// An unknown logical type (or a TIME/TIMESTAMP with an unknown unit) with no converted
    /// type reads as the physical type. The readers convert values by the same rule.
    pub fn effective_logical_type(&self) -> Option<LogicalType> {
        super::shape::effective_logical_type(
            self.logical_type.as_ref(),
            self.converted_type,
            self.precision(),
            self.scale(),
        )
    }

    /// Checks this node as a field of a schema: names non-empty, groups non-empty,
    /// annotations allowed on the physical type, FIXED_LEN_BYTE_ARRAY lengths positive,
    /// LIST/MAP layouts, nesting depth. Errors are [`ErrorKind::Schema`] naming the field
    /// path (starting at this node's name).
    ///
    /// [`ErrorKind::Schema`]: crate::ErrorKind::Schema
    pub fn validate(&self) -> Result<()> {
        super::validate::validate_field(self)
    }
}
