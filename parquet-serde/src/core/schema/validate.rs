//! Checks on a schema tree.
//!
//! Two modes: [`Mode::Strict`] for schemas built in code or parsed from text (what this
//! library writes), [`Mode::Lenient`] for schemas read from files, which accepts the legacy
//! forms LogicalTypes.md asks readers to accept (2-level lists, misnamed list/map levels,
//! duplicate sibling names) but still rejects what cannot be read (an annotation that does
//! not fit its physical type, an empty group, a missing FIXED_LEN_BYTE_ARRAY length).

use super::annotation::{
    check_converted_on_group, check_converted_on_leaf, check_logical_on_group,
    check_logical_on_leaf, converted_type_for, Leaf,
};
use super::{ContainerAnnotation, GroupShape, NodeKind, Repetition, SchemaNode};
use crate::core::format::{LogicalType, Type};
use crate::{Error, Result};

/// Deepest nesting a schema may have (the root is depth 0, its fields depth 1). Keeps
/// recursion over the tree bounded and levels far inside `i16`.
pub const MAX_SCHEMA_DEPTH: usize = 128;

/// How strict a check is (see the module documentation).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mode {
    /// Schemas this library writes.
    Strict,
    /// Schemas read from files.
    Lenient,
}

/// Dotted display of a field path; an empty name shows as `<unnamed>`.
pub(crate) fn path_string(path: &[&str]) -> String {
    let mut out = String::new();
    for (i, part) in path.iter().enumerate() {
        if i > 0 {
            out.push('.');
        }
        out.push_str(if part.is_empty() { "<unnamed>" } else { part });
    }
    out
}

fn err(path: &[&str], message: impl Into<String>) -> Error {
    Error::schema(message).with_column(path_string(path))
}

/// Validates a node as a field (strict), its path starting at its own name.
pub(crate) fn validate_field(node: &SchemaNode) -> Result<()> {
    let mut path = Vec::new();
    check(node, &mut path, 1, Mode::Strict, false)
}

/// Validates the root of a schema and everything under it.
pub(crate) fn validate_root(root: &SchemaNode, mode: Mode) -> Result<()> {
    let NodeKind::Group { fields } = &root.kind else {
        return Err(Error::schema(format!(
            "the schema root `{}` must be a group, not a primitive",
            root.name
        )));
    };
    if mode == Mode::Strict {
        if let Some(lt) = &root.logical_type {
            check_logical_on_group(lt).map_err(|m| Error::schema(format!("schema root: {m}")))?;
        }
        if let Some(ct) = root.converted_type {
            check_converted_on_group(ct).map_err(|m| Error::schema(format!("schema root: {m}")))?;
        }
        check_unique_names(fields, &[])?;
    }
    // An empty root is allowed: a file may have rows and no columns.
    let mut path = Vec::new();
    for field in fields {
        check(field, &mut path, 1, mode, false)?;
    }
    Ok(())
}

/// Checks `node` and below; `entries` says it is the key/value level of a MAP, which is
/// the map's entries whatever its own annotation (old writers annotate it MAP_KEY_VALUE).
fn check<'a>(
    node: &'a SchemaNode,
    path: &mut Vec<&'a str>,
    depth: usize,
    mode: Mode,
    entries: bool,
) -> Result<()> {
    path.push(&node.name);
    let result = check_node(node, path, depth, mode, entries);
    path.pop();
    result
}

fn check_node<'a>(
    node: &'a SchemaNode,
    path: &mut Vec<&'a str>,
    depth: usize,
    mode: Mode,
    entries: bool,
) -> Result<()> {
    if depth > MAX_SCHEMA_DEPTH {
        return Err(err(
            path,
            format!("schema nested deeper than {MAX_SCHEMA_DEPTH} levels"),
        ));
    }
    if node.name.is_empty() {
        return Err(err(path, "field name is empty"));
    }
    match node.repetition {
        Repetition::Required | Repetition::Optional | Repetition::Repeated => {}
        Repetition::Vector => {
            return Err(Error::unsupported("VECTOR repetition is not supported")
                .with_column(path_string(path)))
        }
        Repetition::Unknown(n) => return Err(err(path, format!("unknown repetition {n}"))),
    }
    match &node.kind {
        NodeKind::Primitive {
            physical_type,
            type_length,
            precision,
            scale,
        } => {
            if let Type::Unknown(n) = physical_type {
                return Err(Error::unsupported(format!("unknown physical type {n}"))
                    .with_column(path_string(path)));
            }
            if *physical_type == Type::FixedLenByteArray && *type_length <= 0 {
                return Err(err(
                    path,
                    format!("fixed_len_byte_array needs a positive length, got {type_length}"),
                ));
            }
            let leaf = Leaf {
                physical_type: *physical_type,
                type_length: *type_length,
                precision: *precision,
                scale: *scale,
            };
            if let Some(lt) = &node.logical_type {
                check_logical_on_leaf(lt, &leaf).map_err(|m| err(path, m))?;
            }
            if let Some(ct) = node.converted_type {
                // With a DECIMAL logical type the logical type's precision and scale rule.
                let leaf = match &node.logical_type {
                    Some(LogicalType::Decimal { scale, precision }) => Leaf {
                        precision: *precision,
                        scale: *scale,
                        ..leaf
                    },
                    _ => leaf,
                };
                check_converted_on_leaf(ct, &leaf).map_err(|m| err(path, m))?;
            }
            if mode == Mode::Strict {
                check_consistent(node, path)?;
            }
            Ok(())
        }
        NodeKind::Group { fields } => {
            if fields.is_empty() {
                return Err(err(path, "group has no fields"));
            }
            if let Some(lt) = &node.logical_type {
                check_logical_on_group(lt).map_err(|m| err(path, m))?;
            }
            if let Some(ct) = node.converted_type {
                check_converted_on_group(ct).map_err(|m| err(path, m))?;
            }
            let shape = node.group_shape();
            if mode == Mode::Strict {
                check_consistent(node, path)?;
                check_unique_names(fields, path)?;
                if !entries {
                    check_layout(node, shape, fields, path)?;
                }
            }
            let key_value = match shape {
                Some(GroupShape::Map(map)) => Some(map.key_value),
                _ => None,
            };
            for field in fields {
                let entries = key_value.is_some_and(|kv| std::ptr::eq(kv, field));
                check(field, path, depth + 1, mode, entries)?;
            }
            Ok(())
        }
    }
}

/// Strict: a converted type set next to a logical type must be the one the logical type
/// maps to.
fn check_consistent(node: &SchemaNode, path: &[&str]) -> Result<()> {
    if let (Some(lt), Some(ct)) = (&node.logical_type, node.converted_type) {
        if matches!(lt, LogicalType::Unknown(_)) {
            return Ok(());
        }
        if converted_type_for(lt) != Some(ct) {
            return Err(err(
                path,
                format!(
                    "converted type {} does not match logical type {}",
                    super::annotation::converted_name(ct),
                    super::annotation::logical_name(lt)
                ),
            ));
        }
    }
    Ok(())
}

fn check_unique_names(fields: &[SchemaNode], path: &[&str]) -> Result<()> {
    // Quadratic only in the width of one group; groups in practice are small, and wide
    // ones are checked with a sorted copy.
    if fields.len() <= 32 {
        for (i, a) in fields.iter().enumerate() {
            if fields[..i].iter().any(|b| b.name == a.name) {
                return Err(duplicate(path, &a.name));
            }
        }
    } else {
        let mut names: Vec<&str> = fields.iter().map(|f| f.name.as_str()).collect();
        names.sort_unstable();
        if let Some(w) = names.windows(2).find(|w| w[0] == w[1]) {
            return Err(duplicate(path, w[0]));
        }
    }
    Ok(())
}

fn duplicate(path: &[&str], name: &str) -> Error {
    if path.is_empty() {
        Error::schema(format!("duplicate field name `{name}` in the schema root"))
    } else {
        err(path, format!("duplicate field name `{name}`"))
    }
}

/// Strict: LIST and MAP groups (as [`SchemaNode::container_annotation`] recognises them)
/// have the layout LogicalTypes.md requires of writers, `shape` being the group's
/// [`SchemaNode::group_shape`] (names of the inner levels are not enforced). Not called
/// for the key/value level of a MAP: old writers annotate it MAP_KEY_VALUE.
fn check_layout(
    node: &SchemaNode,
    shape: Option<GroupShape<'_>>,
    fields: &[SchemaNode],
    path: &[&str],
) -> Result<()> {
    let Some(annotation) = node.container_annotation() else {
        return Ok(());
    };
    let what = match annotation {
        ContainerAnnotation::List => "LIST",
        ContainerAnnotation::Map => "MAP",
    };
    if node.repetition == Repetition::Repeated {
        return Err(err(
            path,
            format!("a {what} group must be required or optional"),
        ));
    }
    let [inner] = fields else {
        return Err(err(
            path,
            format!(
                "a {what} group must have exactly one field, found {}",
                fields.len()
            ),
        ));
    };
    if inner.repetition != Repetition::Repeated {
        return Err(err(
            path,
            format!("the field of a {what} group must be repeated"),
        ));
    }
    match (annotation, shape) {
        (ContainerAnnotation::List, _) => {
            // Whatever rule reads it, a repeated field as the only field of the repeated
            // level is not an element a writer may produce.
            if let [element] = inner.fields() {
                if element.repetition == Repetition::Repeated {
                    return Err(err(path, "a LIST element must be required or optional"));
                }
            }
            Ok(())
        }
        (ContainerAnnotation::Map, Some(GroupShape::Map(map))) => {
            if map.key.repetition != Repetition::Required {
                return Err(err(path, "a MAP key must be required"));
            }
            Ok(())
        }
        (ContainerAnnotation::Map, _) => Err(err(
            path,
            "the repeated level of a MAP must be a group of a key and an optional value",
        )),
    }
}

#[cfg(test)]
mod tests {
    use crate::core::schema::Schema;

    fn strict(text: &str) -> Result<(), String> {
        let schema: Schema = text.parse().map_err(|e| format!("parse: {e}"))?;
        schema.validate_strict().map_err(|e| e.to_string())
    }

    #[test]
    fn strict_layouts_by_the_schema_shape() {
        let table: [(&str, Option<&str>); 9] = [
            (
                "message m { optional group l (LIST) { repeated group list { optional int32 element; } } }",
                None,
            ),
            (
                "message m { repeated group l (LIST) { repeated group list { optional int32 element; } } }",
                Some("must be required or optional"),
            ),
            (
                "message m { optional group l (LIST) { repeated int32 a; repeated int32 b; } }",
                Some("exactly one field, found 2"),
            ),
            (
                "message m { optional group l (LIST) { required group list { optional int32 element; } } }",
                Some("must be repeated"),
            ),
            (
                "message m { optional group l (LIST) { repeated group array { repeated int32 x; } } }",
                Some("LIST element must be required or optional"),
            ),
            (
                "message m { optional group m (MAP) { repeated group key_value { optional int32 key; } } }",
                Some("MAP key must be required"),
            ),
            (
                "message m { optional group m (MAP) { repeated int32 key; } }",
                Some("a group of a key and an optional value"),
            ),
            // MAP_KEY_VALUE in place of MAP is a MAP, and checked as one...
            (
                "message m { optional group m (MAP_KEY_VALUE) { repeated group map { required int32 key; required int32 a; required int32 b; } } }",
                Some("a group of a key and an optional value"),
            ),
            // ...but on the key/value level of a MAP it is the entries, not a MAP.
            (
                "message m { optional group m (MAP) { repeated group map (MAP_KEY_VALUE) { required int32 key; optional int32 value; } } }",
                None,
            ),
        ];
        for (text, want) in table {
            match (strict(text), want) {
                (Ok(()), None) => {}
                (Err(e), Some(w)) => assert!(e.contains(w), "{text}: {e}"),
                (got, want) => panic!("{text}: got {got:?}, want {want:?}"),
            }
        }
    }
}
