//! [`NodeDe`]: the `serde::Deserializer` of one instance of a schema node at the cursors'
//! current position. The visitor's call says what the Rust type wants; the node says what
//! the file has; [`NodeDe::run`] reconciles the two and consumes the instance.

use serde::de::{Deserializer, Visitor};

use crate::error::Error;
use crate::value::tokens::VALUE_TOKEN;

use super::access::{
    ChildrenMap, ChildrenSeq, GroupVariant, ListAccess, MapEntries, MapMagic, StructAccess,
};
use super::error::DeError;
use super::fast::RowSink;
use super::leaf;
use super::state::State;
use super::tree::{Kind, NodeId, Shape, Tree, ROOT};

/// What the visitor asked for (the `deserialize_*` method, folded).
#[derive(Debug, Clone, Copy)]
pub(crate) enum Want {
    /// `deserialize_any`.
    Any,
    /// [`Value`](crate::record::Value) in full fidelity.
    Value,
    /// `bool`.
    Bool,
    /// `i8` .. `i64`, `u8` .. `u64`.
    Int,
    /// `i128`.
    I128,
    /// `u128`.
    U128,
    /// `f32`, `f64`.
    Float,
    /// `char`.
    Char,
    /// `str`, `identifier`.
    Str,
    /// `string`: an owned `String` is welcome.
    String,
    /// `bytes`, `byte_buf`.
    Bytes,
    /// `option`.
    Option,
    /// `unit`, `unit_struct`.
    Unit,
    /// `seq`.
    Seq,
    /// `tuple`, `tuple_struct` with their length.
    Tuple(usize),
    /// `map`.
    Map,
    /// `struct` with its fields.
    Struct(&'static [&'static str]),
    /// `enum` with its variants.
    Enum(&'static [&'static str]),
    /// `newtype_struct`.
    Newtype,
    /// `ignored_any`.
    Ignored,
    /// [`Variant`](crate::variant::Variant)'s own bytes (its `Deserialize` on this
    /// non-human-readable deserializer).
    Variant,
}

impl Want {
    /// What the Rust type wants, for messages.
    pub(crate) fn describe(self) -> &'static str {
        match self {
            Want::Any | Want::Value | Want::Newtype | Want::Ignored => "a value",
            Want::Bool => "a bool",
            Want::Int | Want::I128 | Want::U128 => "an integer",
            Want::Float => "a float",
            Want::Char => "a char",
            Want::Str | Want::String => "a string",
            Want::Bytes => "bytes",
            Want::Option => "an option",
            Want::Unit => "a unit",
            Want::Seq => "a sequence",
            Want::Tuple(_) => "a tuple",
            Want::Map => "a map",
            Want::Struct(_) => "a struct",
            Want::Enum(_) => "an enum",
            Want::Variant => "a variant",
        }
    }
}

/// The deserializer of one instance of a node.
pub(crate) struct NodeDe<'a> {
    pub tree: &'a Tree,
    pub st: &'a mut State,
    pub id: NodeId,
    /// The node's own optional level is known to be present.
    pub checked: bool,
    /// One element of a repeated node (not the whole list).
    pub element: bool,
    /// The row loop's vector for the rows after this one (a root only: [`NodeDe::rows`]).
    pub sink: Option<&'a mut RowSink>,
}

pub(crate) type Res<T> = std::result::Result<T, DeError>;

/// A schema mismatch between what the Rust type wants and what the node is.
pub(crate) fn mismatch(tree: &Tree, id: NodeId, want: Want) -> DeError {
    let n = &tree.nodes[id];
    let what = if n.is_repeated() {
        format!("repeated {}", n.describe())
    } else {
        n.describe()
    };
    DeError::new(Error::schema(format!(
        "cannot read {} from a {what}",
        want.describe()
    )))
}

impl<'a> NodeDe<'a> {
    /// The deserializer of one row.
    pub fn root(tree: &'a Tree, st: &'a mut State) -> Self {
        NodeDe {
            tree,
            st,
            id: ROOT,
            checked: true,
            element: false,
            sink: None,
        }
    }

    /// The deserializer of one row, whose root struct may read the rows after it into
    /// `sink` (when it is `#[parquet(assemble)]`d: [`Fast::rows`](super::fast::Fast::rows)).
    #[inline]
    pub fn rows(tree: &'a Tree, st: &'a mut State, sink: &'a mut RowSink) -> Self {
        NodeDe {
            sink: Some(sink),
            ..NodeDe::root(tree, st)
        }
    }

    /// A field `id` below this node.
    #[inline]
    pub fn field(tree: &'a Tree, st: &'a mut State, id: NodeId) -> Self {
        NodeDe::field_checked(tree, st, id, false)
    }

    /// A field `id` below this node, its own optional level known present when `checked`.
    #[inline]
    pub fn field_checked(tree: &'a Tree, st: &'a mut State, id: NodeId, checked: bool) -> Self {
        NodeDe {
            tree,
            st,
            id,
            checked,
            element: false,
            sink: None,
        }
    }

    /// Answers `want`: the body of every `deserialize_*` method. Leaves (the hot path)
    /// go straight to their cursor.
    #[inline(always)]
    pub fn run<'de, V: Visitor<'de>>(self, want: Want, visitor: V) -> Res<V::Value> {
        let node = &self.tree.nodes[self.id];
        if let Kind::Leaf { col, conv, .. } = node.kind {
            if (self.element || !node.is_repeated())
                && !matches!(want, Want::Newtype | Want::Variant)
            {
                return leaf::visit(self, col, conv, want, visitor);
            }
        }
        self.run_node(want, visitor)
    }

    /// [`run`](Self::run) for groups, repeated fields and the root.
    fn run_node<'de, V: Visitor<'de>>(mut self, want: Want, visitor: V) -> Res<V::Value> {
        if self.id == ROOT {
            if let Some(child) = self.root_target(want) {
                self.id = child;
                self.checked = false;
                let node = &self.tree.nodes[child];
                if let Kind::Leaf { col, conv, .. } = node.kind {
                    if !node.is_repeated() && !matches!(want, Want::Newtype | Want::Variant) {
                        return leaf::visit(self, col, conv, want, visitor);
                    }
                }
            }
        }
        let tree = self.tree;
        let id = self.id;
        self.dispatch(want, visitor)
            .map_err(|e| e.at(&tree.nodes[id].path))
    }

    /// The row type is one value, not a struct: it reads the file's single top-level field
    /// (the `value` field of [`ParquetSchema::parquet_root`](crate::ParquetSchema)).
    fn root_target(&self, want: Want) -> Option<NodeId> {
        let tree = self.tree;
        let &[single] = tree.nodes[ROOT].children() else {
            return None;
        };
        let child = &tree.nodes[single];
        let fits = match want {
            Want::Struct(_)
            | Want::Any
            | Want::Value
            | Want::Ignored
            | Want::Newtype
            | Want::Unit => false,
            Want::Map => matches!(
                child.kind,
                Kind::Group {
                    shape: Shape::Map { .. },
                    ..
                }
            ),
            Want::Tuple(_) => {
                child.is_repeated()
                    || matches!(
                        child.kind,
                        Kind::Group {
                            shape: Shape::List { .. },
                            ..
                        }
                    )
            }
            Want::Enum(_) => matches!(child.kind, Kind::Leaf { .. }),
            _ => true,
        };
        fits.then_some(single)
    }

    #[inline]
    fn dispatch<'de, V: Visitor<'de>>(mut self, want: Want, visitor: V) -> Res<V::Value> {
        let tree = self.tree;
        let node = &tree.nodes[self.id];
        match want {
            Want::Ignored => {
                self.st.skip(tree, self.id, self.element)?;
                return visitor.visit_unit();
            }
            Want::Newtype => return visitor.visit_newtype_struct(self),
            Want::Variant
                if !matches!(
                    node.kind,
                    Kind::Group {
                        shape: Shape::Variant { .. },
                        ..
                    }
                ) =>
            {
                return Err(mismatch(tree, self.id, want));
            }
            Want::Option | Want::Any | Want::Value | Want::Variant => {
                if node.is_optional() && !self.checked {
                    if !self.st.present(tree, self.id)? {
                        self.st.skip(tree, self.id, false)?;
                        return visitor.visit_none();
                    }
                    self.checked = true;
                }
                if let Want::Option = want {
                    return visitor.visit_some(self);
                }
            }
            _ => {
                if node.is_optional() && !self.checked {
                    if !self.st.present(tree, self.id)? {
                        self.st.skip(tree, self.id, false)?;
                        return Err(DeError::new(Error::data(format!(
                            "null in field `{}`, which the Rust type does not make an Option",
                            node.path
                        ))));
                    }
                    self.checked = true;
                }
            }
        }
        if node.is_repeated() && !self.element {
            return self.repeated_field(want, visitor);
        }
        match &node.kind {
            &Kind::Leaf { col, conv, .. } => leaf::visit(self, col, conv, want, visitor),
            &Kind::Group {
                shape:
                    Shape::Variant {
                        metadata,
                        value,
                        typed,
                    },
                ..
            } => self.variant((metadata, value, typed), want, visitor),
            Kind::Group {
                shape: Shape::List { repeated, element },
                ..
            } => {
                let (repeated, element) = (*repeated, *element);
                match want {
                    Want::Seq | Want::Tuple(_) | Want::Any | Want::Value | Want::Bytes => {
                        self.list(repeated, element, want, visitor)
                    }
                    Want::Unit => self.skip_then_unit(visitor),
                    _ => Err(mismatch(tree, self.id, want)),
                }
            }
            Kind::Group {
                shape: Shape::Map { kv, key, value },
                ..
            } => {
                let (kv, key, value) = (*kv, *key, *value);
                match want {
                    // A map without a value column (`MapShape::value` is `None`) is, as Arrow
                    // reads it, the list of its keys; it still reads into a map type (with
                    // unit or None values).
                    Want::Any | Want::Value | Want::Seq | Want::Tuple(_) if value.is_none() => {
                        self.list(kv, key, want, visitor)
                    }
                    Want::Map | Want::Any => self.map(kv, key, value, visitor),
                    Want::Value => visitor.visit_enum(MapMagic { de: self }),
                    Want::Seq | Want::Tuple(_) => self.list(kv, kv, want, visitor),
                    Want::Unit => self.skip_then_unit(visitor),
                    _ => Err(mismatch(tree, self.id, want)),
                }
            }
            Kind::Group { children, .. } => match want {
                Want::Struct(fields) => self.strukt(fields, visitor),
                Want::Map | Want::Any | Want::Value => {
                    let mut access = ChildrenMap {
                        tree,
                        st: self.st,
                        parent: self.id,
                        next: 0,
                    };
                    let value = visitor.visit_map(&mut access)?;
                    access.finish()?;
                    Ok(value)
                }
                Want::Enum(variants) => self.enum_group(variants, visitor),
                Want::Unit => self.skip_then_unit(visitor),
                Want::Seq if children.len() == 1 => self.forward(children[0], want, visitor),
                Want::Seq | Want::Tuple(_) => {
                    let pad = match want {
                        Want::Tuple(len) => len.saturating_sub(children.len()),
                        _ => 0,
                    };
                    let mut access = ChildrenSeq {
                        tree,
                        st: self.st,
                        parent: self.id,
                        next: 0,
                        pad,
                    };
                    let value = visitor.visit_seq(&mut access)?;
                    access.finish()?;
                    Ok(value)
                }
                _ if children.len() == 1 => self.forward(children[0], want, visitor),
                _ => Err(mismatch(tree, self.id, want)),
            },
        }
    }

    /// Reads the only child of a group in its place.
    fn forward<'de, V: Visitor<'de>>(self, child: NodeId, want: Want, visitor: V) -> Res<V::Value> {
        NodeDe::field(self.tree, self.st, child).run(want, visitor)
    }

    fn skip_then_unit<'de, V: Visitor<'de>>(self, visitor: V) -> Res<V::Value> {
        self.st.skip(self.tree, self.id, self.element)?;
        visitor.visit_unit()
    }

    /// A repeated node read as a field: the list of its instances.
    fn repeated_field<'de, V: Visitor<'de>>(self, want: Want, visitor: V) -> Res<V::Value> {
        let tree = self.tree;
        let id = self.id;
        match want {
            Want::Seq | Want::Tuple(_) | Want::Any | Want::Value | Want::Bytes => {
                self.list(id, id, want, visitor)
            }
            Want::Map => match *tree.nodes[id].children() {
                [key] => self.map(id, key, None, visitor),
                [key, value] => self.map(id, key, Some(value), visitor),
                _ => Err(mismatch(tree, id, want)),
            },
            Want::Unit => self.skip_then_unit(visitor),
            _ => Err(mismatch(tree, id, want)),
        }
    }

    /// The list of the instances of `repeated`, each read as `element` (the repeated node
    /// itself, or its only child).
    fn list<'de, V: Visitor<'de>>(
        mut self,
        repeated: NodeId,
        element: NodeId,
        want: Want,
        visitor: V,
    ) -> Res<V::Value> {
        let tree = self.tree;
        let mut len = self.st.open_list(tree, repeated)?;
        if let Want::Tuple(expected) = want {
            if self.st.probing() {
                len = expected;
            } else if len != expected {
                self.skip_elements(repeated, len)?;
                return Err(DeError::new(Error::data(format!(
                    "the list has {len} elements, the Rust type {expected}"
                ))));
            }
        }
        let mut access = ListAccess {
            tree,
            st: self.st,
            repeated,
            element,
            left: len,
        };
        let value = visitor.visit_seq(&mut access)?;
        access.finish()?;
        Ok(value)
    }

    fn skip_elements(&mut self, repeated: NodeId, n: usize) -> Res<()> {
        for _ in 0..n {
            self.st.skip(self.tree, repeated, true)?;
        }
        Ok(())
    }

    /// The entries of the instances of `kv`: `key` and `value` children.
    fn map<'de, V: Visitor<'de>>(
        self,
        kv: NodeId,
        key: NodeId,
        value: Option<NodeId>,
        visitor: V,
    ) -> Res<V::Value> {
        let tree = self.tree;
        let len = self.st.open_list(tree, kv)?;
        let mut access = MapEntries {
            tree,
            st: self.st,
            kv,
            key,
            value,
            left: len,
            value_due: false,
        };
        let out = visitor.visit_map(&mut access)?;
        access.finish()?;
        Ok(out)
    }

    /// A struct: serde's fields matched by name against the group's children.
    fn strukt<'de, V: Visitor<'de>>(
        self,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Res<V::Value> {
        let tree = self.tree;
        if let Some(p) = &mut self.st.probe {
            p.structs.push((self.id, fields));
        }
        let owned;
        let plan = match self.st.plan(tree, self.id, fields) {
            Some(plan) => plan,
            // Field lists the probe did not see (a type whose requests depend on the data).
            None => {
                owned = tree.make_plan(self.id, fields);
                &owned
            }
        };
        let mut access = StructAccess {
            tree,
            st: self.st,
            plan,
            next: 0,
            keys: plan.keys_for(fields),
            sink: self.sink,
        };
        let value = visitor.visit_map(&mut access)?;
        access.finish()?;
        Ok(value)
    }

    /// Whether the node is a plain group known to be present (checked, or required): a
    /// struct read goes straight to [`strukt`](Self::strukt) (`deserialize_struct`, and
    /// the generated assembler's nested structs in `fast.rs`).
    #[inline]
    pub fn is_present_struct(&self) -> bool {
        let node = &self.tree.nodes[self.id];
        matches!(
            node.kind,
            Kind::Group {
                shape: Shape::Plain,
                ..
            }
        ) && (self.checked || node.repetition == crate::core::schema::Repetition::Required)
    }

    /// An enum with data: the group with one optional field per variant, exactly one set.
    fn enum_group<'de, V: Visitor<'de>>(
        self,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Res<V::Value> {
        let tree = self.tree;
        let children = tree.nodes[self.id].children();
        let chosen = if self.st.probing() {
            self.st.probe_all(tree, self.id);
            for &c in children {
                self.st.present(tree, c)?;
            }
            let named = children
                .iter()
                .copied()
                .find(|&c| variants.contains(&tree.nodes[c].name.as_str()));
            named
                .or(children.first().copied())
                .ok_or_else(|| mismatch(tree, self.id, Want::Enum(variants)))?
        } else {
            let mut chosen = None;
            for &c in children {
                if self.st.present(tree, c)? {
                    if chosen.is_some() {
                        return Err(DeError::new(Error::data(
                            "more than one variant field is set",
                        )));
                    }
                    chosen = Some(c);
                }
            }
            let chosen =
                chosen.ok_or_else(|| DeError::new(Error::data("no variant field is set")))?;
            for &c in children {
                if c != chosen {
                    self.st.skip(tree, c, false)?;
                }
            }
            chosen
        };
        visitor.visit_enum(GroupVariant {
            tree,
            st: self.st,
            child: chosen,
        })
    }
}

macro_rules! forward_wants {
    ($($method:ident => $want:expr,)*) => {$(
        #[inline]
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Res<V::Value> {
            self.run($want, visitor)
        }
    )*};
}

impl<'de> Deserializer<'de> for NodeDe<'_> {
    type Error = DeError;

    forward_wants! {
        deserialize_any => Want::Any,
        deserialize_bool => Want::Bool,
        deserialize_i8 => Want::Int,
        deserialize_i16 => Want::Int,
        deserialize_i32 => Want::Int,
        deserialize_i64 => Want::Int,
        deserialize_u8 => Want::Int,
        deserialize_u16 => Want::Int,
        deserialize_u32 => Want::Int,
        deserialize_u64 => Want::Int,
        deserialize_i128 => Want::I128,
        deserialize_u128 => Want::U128,
        deserialize_f32 => Want::Float,
        deserialize_f64 => Want::Float,
        deserialize_char => Want::Char,
        deserialize_str => Want::Str,
        deserialize_string => Want::String,
        deserialize_identifier => Want::Str,
        deserialize_bytes => Want::Bytes,
        deserialize_byte_buf => Want::Bytes,
        deserialize_option => Want::Option,
        deserialize_unit => Want::Unit,
        deserialize_seq => Want::Seq,
        deserialize_map => Want::Map,
        deserialize_ignored_any => Want::Ignored,
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Res<V::Value> {
        self.run(Want::Unit, visitor)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Res<V::Value> {
        if name == VALUE_TOKEN {
            self.run(Want::Value, visitor)
        } else if name == crate::variant::blob::TOKEN {
            self.run(Want::Variant, visitor)
        } else {
            self.run(Want::Newtype, visitor)
        }
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, len: usize, visitor: V) -> Res<V::Value> {
        self.run(Want::Tuple(len), visitor)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        len: usize,
        visitor: V,
    ) -> Res<V::Value> {
        self.run(Want::Tuple(len), visitor)
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Res<V::Value> {
        // The common case straight away: a present plain group (the root included).
        if self.is_present_struct() {
            let path = &self.tree.nodes[self.id].path;
            return self.strukt(fields, visitor).map_err(|e| e.at(path));
        }
        self.run(Want::Struct(fields), visitor)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Res<V::Value> {
        self.run(Want::Enum(variants), visitor)
    }

    fn is_human_readable(&self) -> bool {
        false
    }
}
