//! The schema probe: runs the row type's `Deserialize` once against the file schema with
//! stand-in values, recording which leaf columns it reads. Only those are decoded.
//!
//! serde hands over everything the projection needs: `deserialize_struct` names the fields,
//! options and sequences reveal their inner type when given one value. The probe answers
//! every optional as present and every list with one element; enums with data decode all
//! their variants' columns (the variant a row takes depends on the data).

use serde::de::Deserialize;

use crate::error::{ErrorKind, Result};

use super::node::NodeDe;
use super::state::State;
use super::tree::Tree;

/// What rows of a type read: per leaf column, whether it is decoded, and whether its text
/// goes into `String` targets.
#[derive(Debug, Clone)]
pub(crate) struct Projection {
    /// Leaf columns decoded.
    pub leaves: Vec<bool>,
    /// Text leaf columns read into `String`s (owned values are worth building ahead).
    pub owned: Vec<bool>,
}

/// Sets the projection of `tree` to the leaf columns rows of `T` read, of those `keep`
/// marks (all for `None`); returns them.
///
/// A schema mismatch (a field the file lacks without a default, a type that cannot be read
/// from its column) is an error now. When the type rejects a stand-in value instead, the
/// probe cannot tell what it reads, and every column is decoded.
pub(crate) fn project<T: Deserialize<'static>>(
    tree: &mut Tree,
    keep: Option<&[bool]>,
) -> Result<Projection> {
    let kept = |c: usize| keep.is_none_or(|k| k.get(c).copied().unwrap_or(false));
    let mut st = State::for_probe(tree);
    // The probe lends its stand-ins (statics) to types that borrow: `'static`. The row is
    // dropped at once.
    let result = T::deserialize(NodeDe::root(tree, &mut st)).map(drop);
    let Some(probe) = st.probe.take() else {
        return Err(crate::Error::schema("probe state lost"));
    };
    let all: Vec<bool> = (0..tree.num_leaves).map(kept).collect();
    match result {
        Ok(_) => {}
        Err(e) if e.error().kind() == ErrorKind::Schema => return Err(e.into()),
        Err(_) => {
            tree.set_projection(&all, &probe.structs);
            return Ok(Projection {
                owned: vec![false; all.len()],
                leaves: all,
            });
        }
    }
    let mut leaves = probe.leaves;
    for (c, l) in leaves.iter_mut().enumerate() {
        *l &= kept(c);
    }
    // A node whose presence or length is read needs one decoded leaf below it (one kept).
    for (id, &asked) in probe.decide.iter().enumerate() {
        let mut range = tree.nodes[id].leaves.clone();
        if asked && !leaves[range.clone()].iter().any(|&l| l) {
            if let Some(c) = range.find(|&c| kept(c)) {
                leaves[c] = true;
            }
        }
    }
    tree.set_projection(&leaves, &probe.structs);
    Ok(Projection {
        leaves,
        owned: probe.owned,
    })
}
