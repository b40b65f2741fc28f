//! Column selection for dynamic rows: which leaf columns a list of dotted paths names.

use crate::core::schema::Schema;
use crate::error::{Error, Result};

use super::tree::{Kind, Shape, Tree};

/// The leaf columns (of `schema`, compiled as `tree`) whose dotted paths are one of
/// `columns` or lie below one (`a` selects `a.b` and `a.c.d`, not `ab`), widened to the
/// whole entries of every MAP one of them is in (an entry is read as its key and value);
/// `None` (every leaf) when `columns` is empty. Naming nothing that exists (no column, no
/// constant field of the tree) is an error.
pub(super) fn select_leaves<S: AsRef<str>>(
    tree: &Tree,
    schema: &Schema,
    columns: &[S],
) -> Result<Option<Vec<bool>>> {
    if columns.is_empty() {
        return Ok(None);
    }
    let mut keep: Vec<bool> = schema
        .columns()
        .iter()
        .map(|d| {
            let path = d.path.to_string();
            columns.iter().any(|c| {
                let c = c.as_ref();
                path == c
                    || path
                        .strip_prefix(c)
                        .is_some_and(|rest| rest.starts_with('.'))
            })
        })
        .collect();
    let names_constant = || {
        columns
            .iter()
            .any(|c| tree.constants.iter().any(|k| k.name() == c.as_ref()))
    };
    if !keep.contains(&true) && !names_constant() {
        let names: Vec<&str> = columns.iter().map(|c| c.as_ref()).collect();
        return Err(Error::invalid_argument(format!(
            "no column matches {}",
            names.join(",")
        )));
    }
    // Parents come before their children, so an outer MAP widened first widens the inner
    // ones it holds whole. In a VARIANT group only the paths named are read (a shredded
    // path alone: the value is rebuilt from those columns), with the metadata whenever a
    // `value` column is, since its bytes name fields through it.
    for node in &tree.nodes {
        if let Kind::Group {
            shape: Shape::Variant { metadata, .. },
            ..
        } = node.kind
        {
            let reads_value = node.leaves.clone().any(|c| {
                keep.get(c).copied().unwrap_or(false)
                    && schema.columns()[c].path.parts().last().map(String::as_str) == Some("value")
            });
            if reads_value {
                let m = tree.nodes[metadata].leaves.clone();
                keep[m].fill(true);
            }
        }
        if let Kind::Group {
            shape: Shape::Map { kv, .. },
            ..
        } = node.kind
        {
            let entries = tree.nodes[kv].leaves.clone();
            if keep.get(entries.clone()).is_some_and(|k| k.contains(&true)) {
                keep[entries].fill(true);
            }
        }
    }
    Ok(Some(keep))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn selected(text: &str, columns: &[&str]) -> Result<Option<Vec<bool>>> {
        let schema: Schema = text.parse().unwrap();
        let tree = Tree::new(&schema).unwrap();
        select_leaves(&tree, &schema, columns)
    }

    const SCHEMA: &str = "message m {
        required int32 a;
        optional group ab { required int32 c; required group d { optional int32 e; } }
        optional group m (MAP) { repeated group key_value { required binary key (STRING); optional int32 value; } }
    }";

    #[test]
    fn paths_select_themselves_and_what_lies_below() {
        assert_eq!(selected(SCHEMA, &[]).unwrap(), None);
        let all = |v: &[usize]| (0..5).map(|c| v.contains(&c)).collect::<Vec<_>>();
        assert_eq!(selected(SCHEMA, &["a"]).unwrap(), Some(all(&[0])));
        assert_eq!(selected(SCHEMA, &["ab"]).unwrap(), Some(all(&[1, 2])));
        assert_eq!(
            selected(SCHEMA, &["ab.d.e", "a"]).unwrap(),
            Some(all(&[0, 2]))
        );
        let err = selected(SCHEMA, &["ab.d.", "x"]).unwrap_err();
        assert!(
            err.to_string().contains("no column matches ab.d.,x"),
            "{err}"
        );
    }

    #[test]
    fn a_map_entry_is_read_whole() {
        let all = |v: &[usize]| (0..5).map(|c| v.contains(&c)).collect::<Vec<_>>();
        assert_eq!(
            selected(SCHEMA, &["m.key_value.key"]).unwrap(),
            Some(all(&[3, 4]))
        );
        assert_eq!(
            selected(SCHEMA, &["m.key_value.value"]).unwrap(),
            Some(all(&[3, 4]))
        );
    }
}
