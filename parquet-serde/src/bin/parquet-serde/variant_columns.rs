//! `--columns fields.status`: a path inside a VARIANT column. The column is read whole and
//! each row's variant is cut down to the paths asked for (`{"fields":{"status":500}}`), a
//! missing path left out.

use parquet_serde::core::schema::Schema;
use parquet_serde::record::Value;
use parquet_serde::variant::Variant;
use parquet_serde::Error;

/// The columns to read and the cuts to make in each row.
#[derive(Debug, Default)]
pub struct Projection {
    /// What `select_columns` gets: the asked-for columns, a VARIANT column in place of the
    /// paths inside it.
    pub columns: Vec<String>,
    /// Per VARIANT column read for paths only: its field names from the row's root, and
    /// the paths (field names) inside it to keep.
    cuts: Vec<(Vec<String>, Vec<Vec<String>>)>,
}

/// Splits `asked` against `schema`: a name that is a column (or a group of columns) stays;
/// one that goes on past a VARIANT column (a group with `metadata` and `value` leaves)
/// selects that column and keeps only the path. An unknown name stays, for the reader to
/// refuse.
pub fn project(schema: &Schema, asked: &[String]) -> Result<Projection, Error> {
    let leaves: Vec<String> = schema
        .columns()
        .iter()
        .map(|c| c.path.to_string())
        .collect();
    let is_column = |p: &str| {
        leaves
            .iter()
            .any(|l| l == p || l.starts_with(p) && l[p.len()..].starts_with('.'))
    };
    let is_variant = |g: &str| {
        leaves.contains(&format!("{g}.metadata")) && leaves.contains(&format!("{g}.value"))
    };
    let mut out = Projection::default();
    let mut whole: Vec<&str> = Vec::new();
    for c in asked {
        let prefix = (!is_column(c))
            .then(|| {
                c.match_indices('.')
                    .map(|(i, _)| (&c[..i], &c[i + 1..]))
                    .find(|(g, rest)| !rest.is_empty() && is_variant(g))
            })
            .flatten();
        let Some((group, rest)) = prefix else {
            whole.push(c);
            out.columns.push(c.clone());
            continue;
        };
        if rest.contains(['[', ']']) || rest.split('.').any(str::is_empty) {
            return Err(Error::invalid_argument(format!(
                "--columns {c:?}: a path inside VARIANT column {group:?} is field names \
                 joined by `.` (array indexes are not taken)"
            )));
        }
        let path: Vec<String> = rest
            .split('.')
            .filter(|s| *s != "typed_value")
            .map(String::from)
            .collect();
        let names: Vec<String> = group.split('.').map(String::from).collect();
        match out.cuts.iter_mut().find(|(n, _)| *n == names) {
            Some((_, paths)) => paths.push(path),
            None => {
                out.columns.push(group.to_string());
                out.cuts.push((names, vec![path]));
            }
        }
    }
    // A column also asked for whole is printed whole.
    out.cuts
        .retain(|(names, _)| !whole.contains(&names.join(".").as_str()));
    Ok(out)
}

impl Projection {
    /// The columns as asked, without cuts.
    pub fn unchanged(asked: &[String]) -> Projection {
        Projection {
            columns: asked.to_vec(),
            cuts: Vec::new(),
        }
    }

    /// Cuts each VARIANT column of `row` read for paths down to those paths.
    pub fn apply(&self, row: &mut Value) {
        for (names, paths) in &self.cuts {
            if let Some(Value::Variant(v)) = field_mut(row, names) {
                let mut kept = Variant::object::<String>([]);
                for p in paths {
                    if let Some(found) = find(v, p) {
                        insert(&mut kept, p, found.clone());
                    }
                }
                *v = kept;
            }
        }
    }
}

fn field_mut<'v>(row: &'v mut Value, names: &[String]) -> Option<&'v mut Value> {
    let mut v = row;
    for n in names {
        let Value::Group(fields) = v else {
            return None;
        };
        v = fields.iter_mut().find(|(k, _)| k == n).map(|(_, x)| x)?;
    }
    Some(v)
}

fn find<'v>(mut v: &'v Variant, path: &[String]) -> Option<&'v Variant> {
    for name in path {
        v = v.get(name)?;
    }
    Some(v)
}

/// Puts `value` at `path` in the object `into`, making the objects on the way.
fn insert(into: &mut Variant, path: &[String], value: Variant) {
    let Variant::Object(fields) = into else {
        return;
    };
    match path {
        [] => {}
        [last] => {
            fields.insert(last.clone(), value);
        }
        [first, rest @ ..] => {
            let next = fields
                .entry(first.clone())
                .or_insert_with(|| Variant::object::<String>([]));
            insert(next, rest, value);
        }
    }
}
