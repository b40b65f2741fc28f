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
use super::{NodeKind, Repetition, SchemaNode};
use crate::format::{ConvertedType, LogicalType, Type};
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
    check(node, &mut path, 1, Mode::Strict)
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
        check(field, &mut path, 1, mode)?;
    }
    Ok(())
}

fn check<'a>(
    node: &'a SchemaNode,
    path: &mut Vec<&'a str>,
    depth: usize,
    mode: Mode,
) -> Result<()> {
    path.push(&node.name);
    let result = check_node(node, path, depth, mode);
    path.pop();
    result
}

fn check_node<'a>(
    node: &'a SchemaNode,
    path: &mut Vec<&'a str>,
    depth: usize,
    mode: Mode,
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
            if mode == Mode::Strict {
                check_consistent(node, path)?;
                check_unique_names(fields, path)?;
                check_layout(node, fields, path)?;
            }
            for field in fields {
                check(field, path, depth + 1, mode)?;
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

/// Strict: LIST and MAP groups have the layout LogicalTypes.md requires of writers
/// (names of the inner levels are not enforced). A MAP_KEY_VALUE group is not checked:
/// old writers put it on the repeated level inside a MAP.
fn check_layout(node: &SchemaNode, fields: &[SchemaNode], path: &[&str]) -> Result<()> {
    let is_list = matches!(node.logical_type, Some(LogicalType::List))
        || (node.logical_type.is_none() && node.converted_type == Some(ConvertedType::List));
    let is_map = matches!(node.logical_type, Some(LogicalType::Map))
        || (node.logical_type.is_none() && node.converted_type == Some(ConvertedType::Map));
    if !is_list && !is_map {
        return Ok(());
    }
    let what = if is_list { "LIST" } else { "MAP" };
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
    if is_list {
        if let [element] = inner.fields() {
            if inner.is_group()
                && element.repetition == Repetition::Repeated
                && inner.fields().len() == 1
            {
                return Err(err(path, "a LIST element must be required or optional"));
            }
        }
        return Ok(());
    }
    let kv = inner.fields();
    if !inner.is_group() || kv.is_empty() || kv.len() > 2 {
        return Err(err(
            path,
            "the repeated level of a MAP must be a group of a key and an optional value",
        ));
    }
    if kv[0].repetition != Repetition::Required {
        return Err(err(path, "a MAP key must be required"));
    }
    Ok(())
}
