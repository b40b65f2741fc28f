//! Field ids for a schema written to an Iceberg table (issue 32, item 2).
//!
//! Iceberg matches columns by id. The nodes that carry one are the nodes Iceberg has a
//! field for: struct fields (top-level fields included), LIST and MAP groups, list elements
//! (the `element` node of the 3-level layout, the repeated node itself in the legacy
//! layouts), map keys and values. The repeated `list` / `key_value` levels get none (as
//! pyarrow writes them), and neither do the insides of a VARIANT group.
//!
//! [`with_field_ids`] keeps every id the schema has (the derive's
//! `#[parquet(field_id = N)]`), takes the id of the table's current schema for a field at
//! the same name path (list elements are `element`, map keys and values `key` and
//! `value`), and gives the rest fresh ids: in a pre-order walk (a field before what it
//! holds, a list's element and a map's key then value after their group), each the next id
//! not in use, counting from 1, or from above the table schema's highest id when there is
//! one (so that an id a dropped column had is not reused). The same schema and table schema
//! always give the same ids.
//!
//! Files written for other purposes never go through this: their schema (and bytes) are as
//! before. The writers apply it through a crate-private hook of their
//! [`WriterOptions`] (see [`with_field_id_hook`]).

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use crate::core::file::{SchemaHook, WriterOptions};
use crate::core::format::LogicalType;
use crate::core::schema::{GroupShape, NodeKind, Schema, SchemaNode};
use crate::error::{Error, Result};

use super::schema::IcebergSchema;

/// `schema` with a field id on every node Iceberg gives one (see the module docs), and the
/// highest id the result holds (the table's `last-column-id` is at least this).
///
/// Errors ([`ErrorKind::Schema`](crate::ErrorKind::Schema), naming the column): the same
/// id on two nodes; an id the schema gives a node that the table's schema gives another
/// path, or a different id than the table's for the same path.
pub(crate) fn with_field_ids(
    schema: &Schema,
    existing: Option<&IcebergSchema>,
) -> Result<(Schema, i32)> {
    let table_ids = existing.map(IcebergSchema::ids_by_path).unwrap_or_default();
    let table_paths: BTreeMap<i32, &Vec<String>> =
        table_ids.iter().map(|(p, id)| (*id, p)).collect();

    // Pass 1: the ids the schema already has, checked against each other and the table.
    let mut root = schema.root().clone();
    let mut used: BTreeMap<i32, String> = BTreeMap::new();
    walk(&mut root, &mut Vec::new(), &mut |node, path, bears_id| {
        let Some(id) = node.field_id else {
            return Ok(());
        };
        let dotted = path.join(".");
        if let Some(other) = used.insert(id, dotted.clone()) {
            return Err(Error::schema(format!(
                "field id {id} is on both `{other}` and `{dotted}`"
            )));
        }
        if bears_id {
            if let Some(table_path) = table_paths.get(&id) {
                if **table_path != *path {
                    return Err(Error::schema(format!(
                        "column `{dotted}` has field id {id}, which is `{}` in the table's schema",
                        table_path.join(".")
                    )));
                }
            }
            if let Some(table_id) = table_ids.get(path) {
                if *table_id != id {
                    return Err(Error::schema(format!(
                        "column `{dotted}` has field id {id}, but the table's schema gives it {table_id}"
                    )));
                }
            }
        }
        Ok(())
    })?;

    // Pass 2: the table's ids by path, then fresh ids.
    let taken: BTreeSet<i32> = used
        .keys()
        .copied()
        .chain(table_ids.values().copied())
        .collect();
    let mut next = existing.map_or(0, IcebergSchema::highest_field_id).max(0);
    let mut assigned = taken.clone();
    walk(&mut root, &mut Vec::new(), &mut |node, path, bears_id| {
        if !bears_id || node.field_id.is_some() {
            return Ok(());
        }
        if let Some(id) = table_ids.get(path) {
            if used.contains_key(id) {
                return Err(Error::schema(format!(
                    "column `{}` is field {id} in the table's schema, an id the schema gives `{}`",
                    path.join("."),
                    used[id]
                )));
            }
            node.field_id = Some(*id);
            return Ok(());
        }
        loop {
            next = next.checked_add(1).ok_or_else(|| {
                Error::schema(format!("no field id left for column `{}`", path.join(".")))
            })?;
            if assigned.insert(next) {
                break;
            }
        }
        node.field_id = Some(next);
        Ok(())
    })?;
    let mut highest = 0;
    walk(&mut root, &mut Vec::new(), &mut |node, _, _| {
        highest = highest.max(node.field_id.unwrap_or(0));
        Ok(())
    })?;
    let out = Schema::new(root).map_err(|e| e.context("the schema with its field ids"))?;
    Ok((out, highest))
}

/// `options` with a schema hook that gives the written schema ids by [`with_field_ids`]
/// against `existing` (the table's current schema): for the writers of files bound for an
/// Iceberg table (the typed `Writer`, `ValueWriter`, `LogWriter`, and so the tracing layer,
/// whose log journals then hold the schema with its ids for recovery).
pub(crate) fn with_field_id_hook(
    options: WriterOptions,
    existing: Option<IcebergSchema>,
) -> WriterOptions {
    let hook = move |schema: Schema| with_field_ids(&schema, existing.as_ref()).map(|(s, _)| s);
    WriterOptions {
        schema_hook: Some(SchemaHook(Arc::new(hook))),
        ..options
    }
}

/// What [`walk`] calls on each node: `(node, Iceberg name path, whether it bears an id)`.
type Visit<'a> = dyn FnMut(&mut SchemaNode, &[String], bool) -> Result<()> + 'a;

/// Walks the nodes in pre-order, calling `f(node, iceberg path, bears an id)` on every node
/// under the root (the repeated levels of lists and maps with `false`).
fn walk(node: &mut SchemaNode, path: &mut Vec<String>, f: &mut Visit<'_>) -> Result<()> {
    enum Shape {
        Leaf,
        Opaque,
        Struct,
        List { element_is_repeated: bool },
        Map { has_value: bool },
    }
    let shape = match &node.kind {
        NodeKind::Primitive { .. } => Shape::Leaf,
        NodeKind::Group { .. }
            if matches!(node.logical_type, Some(LogicalType::Variant { .. })) =>
        {
            Shape::Opaque
        }
        NodeKind::Group { .. } => match node.group_shape() {
            Some(GroupShape::List(list)) => Shape::List {
                element_is_repeated: list.element_is_repeated(),
            },
            Some(GroupShape::Map(map)) => Shape::Map {
                has_value: map.value.is_some(),
            },
            _ => Shape::Struct,
        },
    };
    let NodeKind::Group { fields } = &mut node.kind else {
        return Ok(());
    };
    match shape {
        Shape::Leaf | Shape::Opaque => Ok(()),
        Shape::Struct => {
            for n in fields.iter_mut() {
                let name = n.name.clone();
                child(n, &name, true, path, f)?;
            }
            Ok(())
        }
        Shape::List {
            element_is_repeated,
        } => {
            let repeated = &mut fields[0];
            if element_is_repeated {
                return child(repeated, "element", true, path, f);
            }
            f(repeated, path, false)?;
            let NodeKind::Group { fields: inner } = &mut repeated.kind else {
                return Ok(());
            };
            child(&mut inner[0], "element", true, path, f)
        }
        Shape::Map { has_value } => {
            let key_value = &mut fields[0];
            f(key_value, path, false)?;
            let NodeKind::Group { fields: inner } = &mut key_value.kind else {
                return Ok(());
            };
            child(&mut inner[0], "key", true, path, f)?;
            if has_value {
                child(&mut inner[1], "value", true, path, f)?;
            }
            Ok(())
        }
    }
}

fn child(
    n: &mut SchemaNode,
    name: &str,
    bears_id: bool,
    path: &mut Vec<String>,
    f: &mut Visit<'_>,
) -> Result<()> {
    path.push(name.to_string());
    let r = f(n, path, bears_id).and_then(|()| walk(n, path, f));
    path.pop();
    r
}

#[cfg(test)]
mod tests;
