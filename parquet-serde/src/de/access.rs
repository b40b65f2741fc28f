//! serde's access traits over nodes: struct fields, a group's children, list elements, map
//! entries and enum variants. Each has a `finish` that consumes whatever the visitor left
//! unread, so a row always consumes exactly its level entries.

use serde::de::{
    self, DeserializeSeed, Deserializer, EnumAccess, MapAccess, SeqAccess, VariantAccess, Visitor,
};

use crate::value::tokens::MAP_TAG;

use super::assemble::IndexDe;
use super::error::DeError;
use super::fast::RowSink;
use super::node::{NodeDe, Res, Want};
use super::state::State;
use super::tree::{NodeId, StructPlan, Tree, ROOT};

/// A field or variant name handed to serde as an identifier (`visit_str`).
pub(crate) struct KeyDe<'a>(pub &'a str);

impl<'de> Deserializer<'de> for KeyDe<'_> {
    type Error = DeError;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Res<V::Value> {
        visitor.visit_str(self.0)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        option unit unit_struct newtype_struct seq tuple tuple_struct map struct enum
        identifier ignored_any
    }
}

/// The value of a field the file does not have (a map without values, a tuple padded
/// past a group's children): `None` or `()`.
pub(crate) struct NullDe;

impl<'de> Deserializer<'de> for NullDe {
    type Error = DeError;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Res<V::Value> {
        visitor.visit_none()
    }

    fn deserialize_unit<V: Visitor<'de>>(self, visitor: V) -> Res<V::Value> {
        visitor.visit_unit()
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Res<V::Value> {
        visitor.visit_unit()
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        option unit_struct newtype_struct seq tuple tuple_struct map struct enum identifier
    }
}

/// The fields of a struct that the file has, from its [`StructPlan`].
pub(crate) struct StructAccess<'a, 'p> {
    pub tree: &'a Tree,
    pub st: &'a mut State,
    pub plan: &'p StructPlan,
    pub next: usize,
    /// The field indexes to hand instead of names (see [`assemble`](super::assemble)):
    /// the plan's, when it was made for the very field list being read.
    pub keys: Option<&'p [u32]>,
    /// The row loop's vector for the rows after this one (the root's access only): see
    /// [`Fast::rows`](super::fast::Fast::rows).
    pub sink: Option<&'a mut RowSink>,
}

impl StructAccess<'_, '_> {
    /// Whether a generated assembler may read this access's fields straight (see
    /// [`fast`](super::fast)): the plan hands field indexes, has no partition constants,
    /// and the schema probe is not running.
    #[inline]
    pub fn assembles(&self) -> bool {
        self.keys.is_some() && !self.st.probing() && self.plan.constants.is_empty()
    }

    /// Consumes the fields the visitor did not read and the children it did not ask for.
    #[inline]
    pub fn finish(mut self) -> Res<()> {
        self.finish_row()
    }

    /// [`finish`](Self::finish), keeping the access (for the next row of a
    /// [`RowSink`]).
    #[inline(always)]
    pub fn finish_row(&mut self) -> Res<()> {
        if self.next >= self.plan.entries.len() && self.plan.extra.is_empty() {
            return Ok(());
        }
        self.finish_rest()
    }

    #[cold]
    fn finish_rest(&mut self) -> Res<()> {
        let rest = self.plan.entries.get(self.next..).unwrap_or(&[]);
        for &(_, child) in rest {
            self.st.skip(self.tree, child, false)?;
        }
        for &child in &self.plan.extra {
            self.st.skip(self.tree, child, false)?;
        }
        Ok(())
    }
}

impl<'de> MapAccess<'de> for StructAccess<'_, '_> {
    type Error = DeError;

    #[inline]
    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Res<Option<K::Value>> {
        let Some(&(name, _)) = self.plan.entries.get(self.next) else {
            return self.next_constant_key(seed);
        };
        if let Some(&key) = self.keys.and_then(|k| k.get(self.next)) {
            return seed.deserialize(IndexDe(key)).map(Some);
        }
        seed.deserialize(KeyDe(name)).map(Some)
    }

    #[inline]
    fn next_value_seed<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Res<S::Value> {
        let Some(&(_, child)) = self.plan.entries.get(self.next) else {
            return self.next_constant_value(seed);
        };
        self.next += 1;
        seed.deserialize(NodeDe::field(self.tree, self.st, child))
    }

    fn size_hint(&self) -> Option<usize> {
        let all = self.plan.entries.len() + self.plan.constants.len();
        Some(all.saturating_sub(self.next))
    }
}

impl StructAccess<'_, '_> {
    /// The constant field (see [`constant`](super::constant)) after the file's fields.
    fn constant(&self) -> Option<(&'static str, usize)> {
        let k = self.next.checked_sub(self.plan.entries.len())?;
        self.plan.constants.get(k).copied()
    }

    #[cold]
    fn next_constant_key<'de, K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Res<Option<K::Value>> {
        match self.constant() {
            Some((name, _)) => match self.keys.and_then(|k| k.get(self.next)) {
                Some(&key) => seed.deserialize(IndexDe(key)).map(Some),
                None => seed.deserialize(KeyDe(name)).map(Some),
            },
            None => Ok(None),
        }
    }

    #[cold]
    fn next_constant_value<'de, S: DeserializeSeed<'de>>(&mut self, seed: S) -> Res<S::Value> {
        let Some((_, i)) = self.constant() else {
            return Err(de::Error::custom("value asked before its key"));
        };
        self.next += 1;
        constant_value(self.tree, self.st, i, seed)
    }
}

/// Constant field `i` of `tree` through `seed`.
fn constant_value<'de, S: DeserializeSeed<'de>>(
    tree: &Tree,
    st: &State,
    i: usize,
    seed: S,
) -> Res<S::Value> {
    let Some(c) = tree.constants.get(i) else {
        return Err(de::Error::custom("no such constant field"));
    };
    let wanted = std::cell::Cell::new(false);
    seed.deserialize(c.de(st.probing(), &wanted))
        .map_err(|e| e.at(c.name()))
}

/// Every child of a group with a projected leaf (or no leaf) as a map entry keyed by its
/// name.
pub(crate) struct ChildrenMap<'a> {
    pub tree: &'a Tree,
    pub st: &'a mut State,
    pub parent: NodeId,
    pub next: usize,
}

impl ChildrenMap<'_> {
    /// Consumes the children the visitor did not read.
    pub fn finish(self) -> Res<()> {
        let children = self.tree.nodes[self.parent].children();
        for &c in &children[self.next.min(children.len())..] {
            self.st.skip(self.tree, c, false)?;
        }
        Ok(())
    }
}

impl<'de> MapAccess<'de> for ChildrenMap<'_> {
    type Error = DeError;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Res<Option<K::Value>> {
        let tree = self.tree;
        let children = tree.nodes[self.parent].children();
        // Children with leaves none of which is projected (columns left out of a selection)
        // are not entries; the probe, which decides the projection, sees every child.
        if !self.st.probing() {
            while children.get(self.next).is_some_and(|&c| {
                let n = &tree.nodes[c];
                n.decide.is_none() && !n.leaves.is_empty()
            }) {
                self.next += 1;
            }
        }
        let Some(&c) = children.get(self.next) else {
            return match self.constant() {
                Some(i) => seed.deserialize(KeyDe(tree.constants[i].name())).map(Some),
                None => Ok(None),
            };
        };
        seed.deserialize(KeyDe(&tree.nodes[c].name)).map(Some)
    }

    fn next_value_seed<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Res<S::Value> {
        let Some(&c) = self.tree.nodes[self.parent].children().get(self.next) else {
            let Some(i) = self.constant() else {
                return Err(de::Error::custom("value asked before its key"));
            };
            self.next += 1;
            return constant_value(self.tree, self.st, i, seed);
        };
        self.next += 1;
        seed.deserialize(NodeDe::field(self.tree, self.st, c))
    }

    fn size_hint(&self) -> Option<usize> {
        let constants = if self.parent == ROOT {
            self.tree.constants.len()
        } else {
            0
        };
        Some((self.tree.nodes[self.parent].children().len() + constants).saturating_sub(self.next))
    }
}

impl ChildrenMap<'_> {
    /// The constant field due (see [`constant`](super::constant)): after the root's
    /// children, each of the tree's constants.
    fn constant(&self) -> Option<usize> {
        if self.parent != ROOT {
            return None;
        }
        let k = self
            .next
            .checked_sub(self.tree.nodes[ROOT].children().len())?;
        (k < self.tree.constants.len()).then_some(k)
    }
}

/// Every child of a group as a sequence element (tuples), padded with nulls.
pub(crate) struct ChildrenSeq<'a> {
    pub tree: &'a Tree,
    pub st: &'a mut State,
    pub parent: NodeId,
    pub next: usize,
    pub pad: usize,
}

impl ChildrenSeq<'_> {
    /// Consumes the children the visitor did not read.
    pub fn finish(self) -> Res<()> {
        let children = self.tree.nodes[self.parent].children();
        for &c in &children[self.next.min(children.len())..] {
            self.st.skip(self.tree, c, false)?;
        }
        Ok(())
    }
}

impl<'de> SeqAccess<'de> for ChildrenSeq<'_> {
    type Error = DeError;

    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Res<Option<T::Value>> {
        match self.tree.nodes[self.parent].children().get(self.next) {
            Some(&c) => {
                self.next += 1;
                seed.deserialize(NodeDe::field(self.tree, self.st, c))
                    .map(Some)
            }
            None if self.pad > 0 => {
                self.pad -= 1;
                seed.deserialize(NullDe).map(Some)
            }
            None => Ok(None),
        }
    }

    fn size_hint(&self) -> Option<usize> {
        Some(
            self.tree.nodes[self.parent]
                .children()
                .len()
                .saturating_sub(self.next)
                + self.pad,
        )
    }
}

/// The elements of a list: instances of `repeated`, each read as `element`.
pub(crate) struct ListAccess<'a> {
    pub tree: &'a Tree,
    pub st: &'a mut State,
    pub repeated: NodeId,
    pub element: NodeId,
    pub left: usize,
}

impl ListAccess<'_> {
    /// Consumes the elements the visitor did not read.
    pub fn finish(self) -> Res<()> {
        for _ in 0..self.left {
            self.st.skip(self.tree, self.repeated, true)?;
        }
        Ok(())
    }
}

impl<'de> SeqAccess<'de> for ListAccess<'_> {
    type Error = DeError;

    #[inline]
    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Res<Option<T::Value>> {
        if self.left == 0 {
            return Ok(None);
        }
        self.left -= 1;
        let de = if self.element == self.repeated {
            NodeDe {
                tree: self.tree,
                st: self.st,
                id: self.repeated,
                checked: true,
                element: true,
                sink: None,
            }
        } else {
            NodeDe::field(self.tree, self.st, self.element)
        };
        seed.deserialize(de).map(Some)
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.left)
    }
}

/// The entries of a map: instances of `kv`, each a `key` and a `value` (or none).
pub(crate) struct MapEntries<'a> {
    pub tree: &'a Tree,
    pub st: &'a mut State,
    pub kv: NodeId,
    pub key: NodeId,
    pub value: Option<NodeId>,
    pub left: usize,
    /// A key was read and its value not yet.
    pub value_due: bool,
}

impl MapEntries<'_> {
    /// Consumes the entries the visitor did not read.
    pub fn finish(self) -> Res<()> {
        if self.value_due {
            if let Some(v) = self.value {
                self.st.skip(self.tree, v, false)?;
            }
        }
        for _ in 0..self.left {
            self.st.skip(self.tree, self.kv, true)?;
        }
        Ok(())
    }
}

impl<'de> MapAccess<'de> for MapEntries<'_> {
    type Error = DeError;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Res<Option<K::Value>> {
        if self.left == 0 {
            return Ok(None);
        }
        self.left -= 1;
        self.value_due = true;
        seed.deserialize(NodeDe::field(self.tree, self.st, self.key))
            .map(Some)
    }

    fn next_value_seed<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Res<S::Value> {
        self.value_due = false;
        match self.value {
            Some(v) => seed.deserialize(NodeDe::field(self.tree, self.st, v)),
            None => seed.deserialize(NullDe),
        }
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.left)
    }
}

/// The variant of an enum with data: the set field of the group.
pub(crate) struct GroupVariant<'a> {
    pub tree: &'a Tree,
    pub st: &'a mut State,
    pub child: NodeId,
}

impl<'a> GroupVariant<'a> {
    fn inner(self) -> NodeDe<'a> {
        NodeDe {
            tree: self.tree,
            st: self.st,
            id: self.child,
            checked: true,
            element: false,
            sink: None,
        }
    }
}

impl<'de, 'a> EnumAccess<'de> for GroupVariant<'a> {
    type Error = DeError;
    type Variant = GroupVariant<'a>;

    fn variant_seed<V: DeserializeSeed<'de>>(self, seed: V) -> Res<(V::Value, Self::Variant)> {
        let name = &self.tree.nodes[self.child].name;
        let v = seed
            .deserialize(KeyDe(name))
            .map_err(|e| e.at(&self.tree.nodes[self.child].path))?;
        Ok((v, self))
    }
}

impl<'de> VariantAccess<'de> for GroupVariant<'_> {
    type Error = DeError;

    fn unit_variant(self) -> Res<()> {
        Ok(self.st.skip(self.tree, self.child, false)?)
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Res<T::Value> {
        seed.deserialize(self.inner())
    }

    fn tuple_variant<V: Visitor<'de>>(self, len: usize, visitor: V) -> Res<V::Value> {
        self.inner().run(Want::Tuple(len), visitor)
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Res<V::Value> {
        self.inner().run(Want::Struct(fields), visitor)
    }
}

/// A MAP in full fidelity (see [`MAP_TAG`]).
pub(crate) struct MapMagic<'a> {
    pub de: NodeDe<'a>,
}

impl<'de, 'a> EnumAccess<'de> for MapMagic<'a> {
    type Error = DeError;
    type Variant = MapMagic<'a>;

    fn variant_seed<V: DeserializeSeed<'de>>(self, seed: V) -> Res<(V::Value, Self::Variant)> {
        Ok((seed.deserialize(KeyDe(MAP_TAG))?, self))
    }
}

impl<'de> VariantAccess<'de> for MapMagic<'_> {
    type Error = DeError;

    fn unit_variant(self) -> Res<()> {
        Err(de::Error::custom("a MAP is not a unit variant"))
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Res<T::Value> {
        let mut de = self.de;
        de.checked = true;
        seed.deserialize(de)
    }

    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, _visitor: V) -> Res<V::Value> {
        Err(de::Error::custom("a MAP is not a tuple variant"))
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        _fields: &'static [&'static str],
        _visitor: V,
    ) -> Res<V::Value> {
        Err(de::Error::custom("a MAP is not a struct variant"))
    }
}
