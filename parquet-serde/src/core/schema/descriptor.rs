//! Leaf column descriptors: path, physical type, annotations and Dremel levels.

use std::fmt;

use super::{NodeKind, Repetition, SchemaNode};
use crate::core::format::{ConvertedType, LogicalType, Type};
use crate::{Error, Result};

/// The path of a column from the top-level field to the leaf (the root's name excluded),
/// as in `ColumnMetaData.path_in_schema`. Displays joined with `.`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ColumnPath(Vec<String>);

impl ColumnPath {
    /// A path from its parts.
    pub fn new(parts: Vec<String>) -> Self {
        ColumnPath(parts)
    }

    /// The names from the top-level field to the leaf.
    pub fn parts(&self) -> &[String] {
        &self.0
    }

    /// The number of parts.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether the path has no parts.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Whether `prefix` (parts) is a prefix of this path.
    pub fn starts_with<S: AsRef<str>>(&self, prefix: &[S]) -> bool {
        prefix.len() <= self.0.len() && self.0.iter().zip(prefix).all(|(a, b)| a == b.as_ref())
    }

    /// Consumes the path, returning its parts.
    pub fn into_parts(self) -> Vec<String> {
        self.0
    }
}

impl fmt::Display for ColumnPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, part) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(".")?;
            }
            f.write_str(part)?;
        }
        Ok(())
    }
}

impl From<Vec<String>> for ColumnPath {
    fn from(parts: Vec<String>) -> Self {
        ColumnPath(parts)
    }
}

impl From<&[&str]> for ColumnPath {
    fn from(parts: &[&str]) -> Self {
        ColumnPath(parts.iter().map(|s| s.to_string()).collect())
    }
}

/// Something that names a column: a dotted string (`"a.b.list.element"`), a slice of parts
/// (`&["a", "b"]`, `&[String]`) or a [`ColumnPath`]. Used by [`Schema::column_index`].
///
/// A dotted string is compared with the dotted form of each path, so when a name itself
/// contains a dot, `"a.b"` matches both the path `["a.b"]` and `["a", "b"]` (the first
/// column in schema order wins); the parts form is exact.
///
/// [`Schema::column_index`]: super::Schema::column_index
pub trait ColumnPathQuery {
    /// Whether this names the column with these parts.
    fn matches_parts(&self, parts: &[String]) -> bool;
}

impl ColumnPathQuery for &str {
    fn matches_parts(&self, parts: &[String]) -> bool {
        let mut rest = *self;
        for (i, part) in parts.iter().enumerate() {
            if i > 0 {
                match rest.strip_prefix('.') {
                    Some(r) => rest = r,
                    None => return false,
                }
            }
            match rest.strip_prefix(part.as_str()) {
                Some(r) => rest = r,
                None => return false,
            }
        }
        rest.is_empty()
    }
}

impl ColumnPathQuery for &String {
    fn matches_parts(&self, parts: &[String]) -> bool {
        self.as_str().matches_parts(parts)
    }
}

impl<S: AsRef<str>> ColumnPathQuery for &[S] {
    fn matches_parts(&self, parts: &[String]) -> bool {
        self.len() == parts.len() && self.iter().zip(parts).all(|(a, b)| a.as_ref() == b)
    }
}

impl<S: AsRef<str>, const N: usize> ColumnPathQuery for &[S; N] {
    fn matches_parts(&self, parts: &[String]) -> bool {
        self.as_slice().matches_parts(parts)
    }
}

impl<S: AsRef<str>> ColumnPathQuery for &Vec<S> {
    fn matches_parts(&self, parts: &[String]) -> bool {
        self.as_slice().matches_parts(parts)
    }
}

impl ColumnPathQuery for &ColumnPath {
    fn matches_parts(&self, parts: &[String]) -> bool {
        self.0 == parts
    }
}

/// One node on the path from the top-level field to a leaf, with the levels reached there.
///
/// `path_nodes[i]` of a [`ColumnDescriptor`] describes the node named `path.parts()[i]`;
/// the root is not included (it contributes no level). The last entry is the leaf itself.
///
/// For a value of the column with definition level `d`, the nodes with `def_level <= d`
/// are present (defined) and the first node with `def_level > d` is the null one. A
/// repetition level `r > 0` says the value starts a new element of the repeated node whose
/// `rep_level == r` (and `repeated`); `r == 0` starts a new record.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PathNode {
    /// Index of this node among its parent's fields (for walking the tree).
    pub field_index: usize,
    /// Repetition of this node.
    pub repetition: Repetition,
    /// Definition level when this node is present: the number of optional or repeated
    /// nodes from the top-level field through this one.
    pub def_level: i16,
    /// The number of repeated nodes from the top-level field through this one.
    pub rep_level: i16,
    /// Whether this node is a group.
    pub is_group: bool,
}

/// A leaf column of a [`Schema`](super::Schema).
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct ColumnDescriptor {
    /// Path from the top-level field to the leaf.
    pub path: ColumnPath,
    /// Physical type.
    pub physical_type: Type,
    /// Byte length of FIXED_LEN_BYTE_ARRAY values (0 otherwise, unless the file set it).
    pub type_length: i32,
    /// Logical type annotation of the leaf, as stored.
    pub logical_type: Option<LogicalType>,
    /// Legacy converted type annotation of the leaf, as stored.
    pub converted_type: Option<ConvertedType>,
    /// Decimal precision (taken from a DECIMAL logical type when there is one).
    pub precision: i32,
    /// Decimal scale (taken from a DECIMAL logical type when there is one).
    pub scale: i32,
    /// Repetition of the leaf.
    pub repetition: Repetition,
    /// Field id of the leaf.
    pub field_id: Option<i32>,
    /// Maximum definition level: the number of non-required nodes on the path.
    pub max_def_level: i16,
    /// Maximum repetition level: the number of repeated nodes on the path.
    pub max_rep_level: i16,
    /// The nodes from the top-level field to the leaf with their levels (see [`PathNode`]).
    pub(crate) path_nodes: Vec<PathNode>,
}

impl ColumnDescriptor {
    /// The index in the path ([`ColumnPath::parts`]) of the node that makes the
    /// definition level reach `def` (the non-required node whose `def_level == def`);
    /// `None` for 0 or a level above the maximum.
    pub fn def_level_node(&self, def: i16) -> Option<usize> {
        if def <= 0 {
            return None;
        }
        self.path_nodes
            .iter()
            .position(|n| n.def_level == def && n.repetition != Repetition::Required)
    }

    /// The index in the path ([`ColumnPath::parts`]) of the repeated node that
    /// repetition level `rep` repeats; `None` for 0 or a level above the maximum.
    pub fn rep_level_node(&self, rep: i16) -> Option<usize> {
        if rep <= 0 {
            return None;
        }
        self.path_nodes
            .iter()
            .position(|n| n.rep_level == rep && n.repetition == Repetition::Repeated)
    }

    /// Whether the leaf can hold a null (it or an ancestor is not required).
    pub fn is_nullable(&self) -> bool {
        self.max_def_level > 0
    }

    /// The logical type a reader should use: the stored logical type when this library
    /// knows it, otherwise the one the legacy converted type stands for; `None` when there
    /// is neither (see [`SchemaNode::effective_logical_type`](super::SchemaNode)).
    pub fn effective_logical_type(&self) -> Option<LogicalType> {
        super::shape::effective_logical_type(
            self.logical_type.as_ref(),
            self.converted_type,
            self.precision,
            self.scale,
        )
    }
}

/// Computes the leaf descriptors of a validated root, depth-first.
pub(crate) fn collect_columns(root: &SchemaNode) -> Result<Vec<ColumnDescriptor>> {
    let mut out = Vec::new();
    let mut names: Vec<&str> = Vec::new();
    let mut nodes: Vec<PathNode> = Vec::new();
    for (i, field) in root.fields().iter().enumerate() {
        walk(field, i, 0, 0, &mut names, &mut nodes, &mut out)?;
    }
    Ok(out)
}

fn walk<'a>(
    node: &'a SchemaNode,
    field_index: usize,
    def: i16,
    rep: i16,
    names: &mut Vec<&'a str>,
    nodes: &mut Vec<PathNode>,
    out: &mut Vec<ColumnDescriptor>,
) -> Result<()> {
    let overflow = || Error::schema("definition or repetition level above i16::MAX");
    let def = if node.repetition == Repetition::Required {
        def
    } else {
        def.checked_add(1).ok_or_else(overflow)?
    };
    let rep = if node.repetition == Repetition::Repeated {
        rep.checked_add(1).ok_or_else(overflow)?
    } else {
        rep
    };
    names.push(&node.name);
    nodes.push(PathNode {
        field_index,
        repetition: node.repetition,
        def_level: def,
        rep_level: rep,
        is_group: node.is_group(),
    });
    let result = match &node.kind {
        NodeKind::Primitive {
            physical_type,
            type_length,
            precision,
            scale,
        } => {
            let (precision, scale) = match &node.logical_type {
                Some(LogicalType::Decimal { scale, precision }) => (*precision, *scale),
                _ => (*precision, *scale),
            };
            out.push(ColumnDescriptor {
                path: ColumnPath(names.iter().map(|s| s.to_string()).collect()),
                physical_type: *physical_type,
                type_length: *type_length,
                logical_type: node.logical_type.clone(),
                converted_type: node.converted_type,
                precision,
                scale,
                repetition: node.repetition,
                field_id: node.field_id,
                max_def_level: def,
                max_rep_level: rep,
                path_nodes: nodes.clone(),
            });
            Ok(())
        }
        NodeKind::Group { fields } => fields
            .iter()
            .enumerate()
            .try_for_each(|(i, f)| walk(f, i, def, rep, names, nodes, out)),
    };
    names.pop();
    nodes.pop();
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn path_queries() {
        let parts: Vec<String> = vec!["a".into(), "b".into(), "c".into()];
        assert!("a.b.c".matches_parts(&parts));
        assert!(!"a.b".matches_parts(&parts));
        assert!(!"a.b.c.d".matches_parts(&parts));
        assert!(!"a.bc".matches_parts(&parts));
        assert!(!"ab.c".matches_parts(&parts));
        assert!((&["a", "b", "c"]).matches_parts(&parts));
        assert!(!(&["a", "b"]).matches_parts(&parts));
        assert!((&parts).matches_parts(&parts));
        let path = ColumnPath::new(parts.clone());
        assert!((&path).matches_parts(&parts));
        assert_eq!(path.to_string(), "a.b.c");
        assert!(path.starts_with(&["a", "b"]));
        assert!(!path.starts_with(&["b"]));
        // A name holding a dot is found through its dotted form too.
        let dotted: Vec<String> = vec!["x.y".into(), "z".into()];
        assert!("x.y.z".matches_parts(&dotted));
        assert!((&["x.y", "z"]).matches_parts(&dotted));
    }
}
