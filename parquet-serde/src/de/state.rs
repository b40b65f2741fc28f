//! [`State`]: the assembler's mutable side. The leaf cursors of the current row group, the
//! struct plans (serde's field list matched against a group's children, computed once per
//! struct type and group), and, while the schema probe runs, the record of what it touched.
//!
//! Every operation consumes level entries so that deserializing one instance of a node
//! consumes exactly that instance's entries from every projected leaf below it: that is
//! what keeps the independent leaf cursors aligned.

use crate::core::values::Int96;
use crate::error::{Error, Result};

use super::cursor::{Cursor, Prim};
use super::tree::{Kind, NodeId, StructPlan, Tree};

/// What the schema probe records.
#[derive(Debug)]
pub(crate) struct Probe {
    /// Leaf columns whose values are read.
    pub leaves: Vec<bool>,
    /// Nodes whose presence or list length is asked.
    pub decide: Vec<bool>,
    /// Leaf columns of text read into `String` targets (worth building owned values for).
    pub owned: Vec<bool>,
    /// Groups read as structs, with serde's field lists.
    pub structs: Vec<(NodeId, &'static [&'static str])>,
}

/// Zeros the probe hands out as fixed-width byte values (widths are capped at 64 KiB): a
/// static, so that a stand-in lent to a borrowing type lives as long as any borrow.
static ZEROS: [u8; 1 << 16] = [0; 1 << 16];

/// The mutable state of the assembler.
#[derive(Debug)]
pub(crate) struct State {
    /// One cursor per leaf column, `None` for columns not projected.
    pub cursors: Vec<Option<Cursor>>,
    /// Set while the schema probe runs.
    pub probe: Option<Box<Probe>>,
    /// Field lists found equal by name to one the tree has a plan for, at another address:
    /// `(address, length, node, plan)`.
    plan_aliases: Vec<(usize, usize, NodeId, usize)>,
    /// Text and bytes go to the visitor as borrowed for the deserializer's lifetime
    /// (`visit_borrowed_str`), for types that borrow: set by the probe (its stand-ins are
    /// statics) and by a [`Batch`](super::Batch) (its buffers outlive the rows).
    lend: bool,
}

fn not_projected(tree: &Tree, node: NodeId) -> Error {
    Error::schema(format!(
        "no column below `{}` was decoded: the Rust type asked for data the schema probe did not see",
        tree.nodes[node].path
    ))
}

impl State {
    /// A state for the probe over `tree`.
    pub fn for_probe(tree: &Tree) -> State {
        State {
            cursors: (0..tree.num_leaves).map(|_| None).collect(),
            probe: Some(Box::new(Probe {
                leaves: vec![false; tree.num_leaves],
                owned: vec![false; tree.num_leaves],
                decide: vec![false; tree.nodes.len()],
                structs: Vec::new(),
            })),
            plan_aliases: Vec::new(),
            lend: true,
        }
    }

    /// A state for reading over `tree` (cursors are installed per row group).
    pub fn for_reading(tree: &Tree) -> State {
        State {
            cursors: (0..tree.num_leaves).map(|_| None).collect(),
            probe: None,
            plan_aliases: Vec::new(),
            lend: false,
        }
    }

    /// This state, lending its cursors' text and bytes to the rows (see
    /// [`lending`](Self::lending)): only a [`Batch`](super::Batch), which keeps the cursors'
    /// buffers unchanged while the rows live, makes one.
    pub fn into_lending(self) -> State {
        State { lend: true, ..self }
    }

    /// Whether text and bytes are lent to the visitor for the deserializer's whole
    /// lifetime: only while the probe runs (its stand-ins are statics) and in a
    /// [`Batch`](super::Batch)'s state (its cursors' buffers are neither changed nor freed
    /// while the rows borrowing them live).
    #[inline(always)]
    pub fn lending(&self) -> bool {
        self.lend
    }

    /// The plan of serde's `fields` for group `node`: the tree's, found by the address of
    /// the list or, once per address, by its names. `None` for lists the probe did not see.
    #[inline]
    pub fn plan<'t>(
        &mut self,
        tree: &'t Tree,
        node: NodeId,
        fields: &'static [&'static str],
    ) -> Option<&'t StructPlan> {
        if let Some(plan) = tree.plan(node, fields) {
            return Some(plan);
        }
        let key = (fields.as_ptr() as usize, fields.len(), node);
        let found = self
            .plan_aliases
            .iter()
            .find(|a| (a.0, a.1, a.2) == key)
            .map(|a| a.3);
        let i = match found {
            Some(i) => i,
            None => {
                let i = tree.plan_by_names(node, fields)?;
                self.plan_aliases.push((key.0, key.1, key.2, i));
                i
            }
        };
        Some(tree.plan_at(i))
    }

    /// Whether the probe is running.
    #[inline]
    pub fn probing(&self) -> bool {
        self.probe.is_some()
    }

    fn decider(&mut self, tree: &Tree, node: NodeId) -> Result<&mut Cursor> {
        let col = tree.nodes[node]
            .decide
            .ok_or_else(|| not_projected(tree, node))?;
        match self.cursors.get_mut(col) {
            Some(Some(c)) => Ok(c),
            _ => Err(not_projected(tree, node)),
        }
    }

    /// Whether the (optional) node is present at the current position. Nothing is consumed.
    #[inline]
    pub fn present(&mut self, tree: &Tree, node: NodeId) -> Result<bool> {
        if let Some(p) = &mut self.probe {
            p.decide[node] = true;
            return Ok(true);
        }
        let def = tree.nodes[node].def;
        Ok(self.decider(tree, node)?.def()? >= def)
    }

    /// Consumes one instance of `node` from every projected leaf below it: one list
    /// element when `element`, else the node's whole value in its parent (for a repeated
    /// node, the whole list).
    pub fn skip(&mut self, tree: &Tree, node: NodeId, element: bool) -> Result<()> {
        if self.probing() {
            return Ok(());
        }
        let n = &tree.nodes[node];
        let rep = if n.is_repeated() && !element {
            n.rep - 1
        } else {
            n.rep
        };
        for col in n.leaves.clone() {
            if let Some(Some(c)) = self.cursors.get_mut(col) {
                c.skip(rep)?;
            }
        }
        Ok(())
    }

    /// Opens the list made by repeated node `repeated` at the current position: its
    /// element count. An empty list (or one below a null) is consumed here.
    pub fn open_list(&mut self, tree: &Tree, repeated: NodeId) -> Result<usize> {
        if let Some(p) = &mut self.probe {
            p.decide[repeated] = true;
            return Ok(1);
        }
        let n = &tree.nodes[repeated];
        let (def, rep) = (n.def, n.rep);
        let decider = self.decider(tree, repeated)?;
        if decider.def()? >= def {
            return Ok(decider.count(rep));
        }
        self.skip(tree, repeated, false)?;
        Ok(0)
    }

    /// The cursor of leaf `node` (column `col`).
    #[inline(always)]
    pub fn cursor(&mut self, tree: &Tree, node: NodeId, col: usize) -> Result<&mut Cursor> {
        match self.cursors.get_mut(col) {
            Some(Some(c)) => Ok(c),
            _ => Err(not_projected(tree, node)),
        }
    }

    /// Consumes the next entry of leaf `node` (column `col`): its value, or `None` for a
    /// null.
    #[inline(always)]
    pub fn take(&mut self, tree: &Tree, node: NodeId, col: usize) -> Result<Option<Prim<'_>>> {
        if self.probe.is_some() {
            return self.probe_take(tree, node, col);
        }
        let c = self.cursor(tree, node, col)?;
        match c.take()? {
            Some(v) => c.value(v).map(Some),
            None => Ok(None),
        }
    }

    /// [`take`](Self::take) for a text leaf read into an `Option<String>`: the value, and
    /// the value as an owned `String` when the cursor holds it so.
    #[inline(always)]
    pub fn take_owned(
        &mut self,
        tree: &Tree,
        node: NodeId,
        col: usize,
    ) -> Result<Option<(Prim<'_>, Option<String>)>> {
        let c = self.cursor(tree, node, col)?;
        match c.take()? {
            Some(v) => {
                let owned = c.take_owned(v);
                Ok(Some((c.value(v)?, owned)))
            }
            None => Ok(None),
        }
    }

    /// Records (while probing) that column `col` is read into `String` targets.
    pub fn probe_owned(&mut self, col: usize) {
        if let Some(p) = &mut self.probe {
            if let Some(o) = p.owned.get_mut(col) {
                *o = true;
            }
        }
    }

    #[cold]
    fn probe_take(&mut self, tree: &Tree, node: NodeId, col: usize) -> Result<Option<Prim<'_>>> {
        let Kind::Leaf { physical, .. } = tree.nodes[node].kind else {
            return Err(Error::schema("not a leaf"));
        };
        let Some(p) = &mut self.probe else {
            return Ok(None);
        };
        if let Some(l) = p.leaves.get_mut(col) {
            *l = true;
        }
        Ok(Some(dummy(physical, tree, node)))
    }

    /// Marks every leaf below `node` as read (the probe's answer for values whose shape
    /// depends on the data, such as the variants of an enum).
    pub fn probe_all(&mut self, tree: &Tree, node: NodeId) {
        if let Some(p) = &mut self.probe {
            for col in tree.nodes[node].leaves.clone() {
                p.leaves[col] = true;
            }
        }
    }
}

/// The probe's stand-in value of a leaf: plausible for every target (1 for numbers, `"0"`
/// for text, zeros of the width for fixed bytes).
fn dummy(physical: crate::core::format::Type, tree: &Tree, node: NodeId) -> Prim<'static> {
    use crate::core::format::Type;
    match physical {
        Type::Boolean => Prim::Bool(true),
        Type::Int32 => Prim::I32(1),
        Type::Int64 => Prim::I64(1),
        Type::Int96 => Prim::I96(Int96([0, 0, Int96::JULIAN_DAY_OF_EPOCH as u32])),
        Type::Float => Prim::F32(0.0),
        Type::Double => Prim::F64(0.0),
        Type::FixedLenByteArray => {
            let width = tree.type_length(node).clamp(0, 1 << 16) as usize;
            Prim::Bytes(&ZEROS[..width])
        }
        Type::ByteArray | Type::Unknown(_) => Prim::Bytes(b"0"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::schema::Schema;
    use crate::de::tree::ROOT;

    /// Two copies of one field list, at different addresses (as two codegen units may hold).
    static FIELDS: [&str; 2] = ["b", "a"];
    static SAME_NAMES: [&str; 2] = ["b", "a"];
    static OTHER: [&str; 1] = ["a"];

    #[test]
    fn plans_found_by_address_then_by_names() {
        let schema: Schema = "message m { required int32 a; optional binary b (STRING); }"
            .parse()
            .unwrap();
        let mut tree = Tree::new(&schema).unwrap();
        tree.set_projection(&[true, true], &[(ROOT, &FIELDS)]);
        assert_ne!(FIELDS.as_ptr(), SAME_NAMES.as_ptr());
        let mut st = State::for_reading(&tree);
        let by_address = st.plan(&tree, ROOT, &FIELDS).unwrap() as *const StructPlan;
        assert!(st.plan_aliases.is_empty());
        for _ in 0..2 {
            let by_names = st.plan(&tree, ROOT, &SAME_NAMES).unwrap() as *const StructPlan;
            assert_eq!(by_names, by_address);
            assert_eq!(st.plan_aliases.len(), 1);
        }
        let plan = st.plan(&tree, ROOT, &SAME_NAMES).unwrap();
        let names: Vec<&str> = plan.entries.iter().map(|e| e.0).collect();
        assert_eq!(names, ["b", "a"]);
        // A list with other names has no plan (the caller makes one).
        assert!(st.plan(&tree, ROOT, &OTHER).is_none());
    }
}
