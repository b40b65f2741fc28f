//! The generated assembler of `#[parquet(assemble)]` structs: their fields read straight
//! from the leaf cursors, with no visitor per value.
//!
//! The `Deserialize` the derive writes (`parquet-derive/src/assemble.rs`) starts its
//! `visit_map` with [`Fast::of`]: when the map is the reader's own struct access (and not
//! the schema probe's, nor a plan with partition constants), it reads the fields through
//! [`Fast`] instead of through `MapAccess`. Each field's value is read by
//! `(&Read::<T>::NEW).read(fast)`:
//! - for the scalar types below, and `Vec`s and `BTreeMap`s of them ([`ReadFast`]), the
//!   cursor's next entry is looked at and, when it is a case whose answer is certain (a
//!   non-null `INT64` for an `i64`, a null for an `Option`, UTF-8 text for a `String`, ...),
//!   consumed and returned (a list or map element by element, each falling back alone);
//! - anything else (every other type, a null for a non-`Option`, a conversion by a logical
//!   type, a value the target may reject, a cursor that must be refilled) goes to
//!   [`ReadSerde`]: `MapAccess::next_value` on the very access the serde path uses, from
//!   the same position, so values, conversions and errors (with their column and row) are
//!   the serde path's by construction.
//!
//! `ReadFast` is implemented on `Read<T>` and `ReadSerde` on `&Read<T>`: method lookup on
//! a `&Read<T>` finds the first when it exists for `T`, else the second (autoref
//! specialization, resolved at compile time per field type).

use std::collections::BTreeMap;
use std::marker::PhantomData;
use std::mem::ManuallyDrop;

use serde::de::{self, Deserialize, MapAccess};

use crate::core::values::ColumnValues;

use super::access::StructAccess;
use super::cursor::Cursor;
use super::error::DeError;
use super::node::NodeDe;
use super::state::State;
use super::tree::{Conv, Kind, Node, NodeId, Shape, Tree};

/// Where a row loop takes the rows after the one it asks for (`Batch::rows_in` and the
/// owned row loop): its `Vec<T>`, and how many more rows the generated assembler of `T` may
/// read into it in the same call ([`Fast::rows`]). Made only by [`with_sink`], and handed
/// only to the root's struct access (`NodeDe::rows`).
pub(crate) struct RowSink {
    /// The type of the vector behind `out` (`Vec<T>`, lifetimes erased).
    vec_type: std::any::TypeId,
    out: *mut (),
    more: usize,
}

/// Calls `read` with a sink over `out` for up to `more` rows. `out` is borrowed for the
/// whole call, so nothing else touches it while `read` may push into it.
#[inline(always)]
pub(crate) fn with_sink<T, R>(
    out: &mut Vec<T>,
    more: usize,
    read: impl FnOnce(&mut RowSink) -> R,
) -> R {
    let mut sink = RowSink {
        vec_type: typeid::of::<Vec<T>>(),
        out: (out as *mut Vec<T>).cast(),
        more,
    };
    read(&mut sink)
}

/// The fields of one struct being assembled: the reader's [`StructAccess`], seen by the
/// generated code.
#[doc(hidden)]
pub struct Fast<'m, 'de> {
    // Only `next`, `sink` (taken: set to `None`) and the state behind `st` are ever written
    // through this reference (never a value that holds a lifetime): see `Fast::of`.
    acc: &'m mut StructAccess<'m, 'm>,
    /// The deserializer's lifetime: what text is lent for, while the state lends.
    de: PhantomData<&'de ()>,
}

/// The reader's struct access, as `visit_map` receives it (`NodeDe::strukt` passes
/// `&mut access`).
type Ours<'a, 'b, 'c> = &'a mut StructAccess<'b, 'c>;

impl<'m, 'de> Fast<'m, 'de> {
    /// The fast view of `map`: `Some` when `map` is the reader's struct access over a plan
    /// that hands fields by index, with no partition constants, outside the schema probe.
    #[inline(always)]
    pub fn of<M: MapAccess<'de>>(map: &'m mut M) -> Option<Fast<'m, 'de>> {
        if typeid::of::<M>() != typeid::of::<Ours<'_, '_, '_>>() {
            return None;
        }
        // SAFETY: `M` is `&mut StructAccess<'b, 'c>` for some lifetimes (`typeid` compares
        // types with their lifetimes erased, and no other type has this id). `map` is
        // borrowed for `'m`, so `'b` and `'c` outlive `'m`: the access and everything it
        // refers to live at least as long as the reference made here. Its lifetimes are
        // shortened to `'m` behind a `&mut`, which would be unsound only if a value holding
        // the shorter lifetime were written back into it: `Fast` never writes its reference
        // fields (`tree`, `st`, `plan`, `keys`) but to take `sink` (writing `None`, which
        // holds no reference), and otherwise writes only `next` (a `usize`) and the `State`
        // behind `st` (which holds no lifetime).
        #[allow(unsafe_code)]
        let acc = unsafe { &mut **(map as *mut M).cast::<Ours<'m, 'm, 'm>>() };
        if !acc.assembles() {
            return None;
        }
        #[cfg(test)]
        tests::CALLS.with(|n| n.set(n.get() + 1));
        Some(Fast {
            acc,
            de: PhantomData,
        })
    }

    /// The row `one` reads, and when the row loop handed a [`RowSink`] for `Vec<S>`, the
    /// rows after it too: each row read by `one` and pushed, after the one before was
    /// finished as `NodeDe::strukt` finishes it, up to the sink's count; the last row is
    /// returned (the loop pushes it). On an error the sink holds exactly the rows before
    /// the failing one, so the loop names that row. Each row is read exactly as one call
    /// per row reads it: the same `one`, from the same positions.
    #[inline(always)]
    pub fn rows<S: 'm>(
        &mut self,
        mut one: impl FnMut(&mut Self) -> Result<S, DeError>,
    ) -> Result<S, DeError> {
        let mut one = |f: &mut Self| {
            #[cfg(test)]
            tests::USED.with(|n| n.set(n.get() + 1));
            one(f)
        };
        let Some((out, more)) = self.sink::<S>() else {
            return one(self);
        };
        let mut row = one(self)?;
        for _ in 0..more {
            self.acc.finish_row()?;
            self.acc.next = 0;
            out.push(row);
            row = one(self)?;
        }
        Ok(row)
    }

    /// The row loop's vector, when it handed one for rows of type `S` (taken: a struct
    /// access gives it once).
    #[inline(always)]
    fn sink<S: 'm>(&mut self) -> Option<(&'m mut Vec<S>, usize)> {
        let sink: &'m mut RowSink = self.acc.sink.take()?;
        if sink.vec_type != typeid::of::<Vec<S>>() {
            return None;
        }
        // SAFETY: `with_sink` made `out` from a `&mut Vec<T>` that stays borrowed, and
        // untouched by anyone else, until the call that holds the sink returns, which is
        // after `'m` (the sink is reached through the access, borrowed for `'m`). `Vec<S>`
        // and `Vec<T>` have one type id, so they are one type but for lifetimes; and they
        // are one type with the same lifetimes too: the sink is handed only to the root's
        // struct access of a row loop that reads `T`, so the `visit_map` holding it is the
        // one of `T`'s `Deserialize` for that very `T` (`S` is the generated `Self`; no
        // other `Deserialize` has a type with `T`'s id, and a nested or delegated read gets
        // a new access without the sink). Taking it (`take` above) makes this the only
        // reference made from it.
        #[allow(unsafe_code)]
        let out = unsafe { &mut *sink.out.cast::<Vec<S>>() };
        Some((out, sink.more))
    }

    /// The index of the next field the file has (the generated identifier's numbering),
    /// `None` after the last.
    #[inline(always)]
    pub fn next_key(&self) -> Option<u32> {
        if self.acc.next >= self.acc.plan.entries.len() {
            return None;
        }
        self.acc.keys?.get(self.acc.next).copied()
    }

    /// Whether the file has the struct's `n` fields in the struct's order (the generated
    /// code then reads them one after the other, with no key per field).
    #[inline(always)]
    pub fn sequential(&self, n: usize) -> bool {
        self.acc.plan.sequential && self.acc.next == 0 && self.acc.plan.entries.len() == n
    }

    /// The next field's value through `T`'s `Deserialize`: the serde path's
    /// `MapAccess::next_value`, on the same access.
    #[inline(always)]
    pub fn value<T: Deserialize<'de>>(&mut self) -> Result<T, DeError> {
        MapAccess::<'de>::next_value::<T>(&mut *self.acc)
    }

    /// The next field's leaf cursor and conversion, when the field is a leaf that is not
    /// repeated (the serde path reads such a field straight from its cursor).
    #[inline(always)]
    fn leaf(&mut self) -> Option<(&mut Cursor, Conv)> {
        let (col, conv) = (*self.acc.plan.leaves.get(self.acc.next)?)?;
        let cursor = self.acc.st.cursors.get_mut(col)?.as_mut()?;
        Some((cursor, conv))
    }

    /// The next field's non-null value, when `get` gives it for the cursor's values, the
    /// value's index and the leaf's conversion; consumed only then.
    #[inline(always)]
    fn scalar<T>(&mut self, get: impl Fn(&mut Cursor, usize, Conv) -> Option<T>) -> Option<T> {
        let (cursor, conv) = self.leaf()?;
        let value = take_value(cursor, conv, &get)?;
        self.acc.next += 1;
        Some(value)
    }

    /// The next field's node when it is not repeated (a list or map read whole).
    #[inline(always)]
    fn whole_field(&self) -> Option<(NodeId, &'m Node)> {
        let &(_, id) = self.acc.plan.entries.get(self.acc.next)?;
        let tree: &'m Tree = self.acc.tree;
        let node = tree.nodes.get(id)?;
        (!node.is_repeated()).then_some((id, node))
    }

    /// Whether field `node` (number `id`) holds a value here: an optional one is present.
    /// Nothing is consumed.
    #[inline(always)]
    fn holds_value(&mut self, id: NodeId, node: &Node) -> bool {
        !node.is_optional() || matches!(self.acc.st.present(self.acc.tree, id), Ok(true))
    }

    /// The next field as a list, read as the serde path reads a `Vec` there
    /// (`NodeDe::dispatch` for a sequence, then `NodeDe::list` and `ListAccess`): each
    /// element from its cursor when it is a leaf and `get` gives it, else by `whole` at the
    /// element node: the element type's `Deserialize` ([`element`]), or an assembled
    /// struct's assembler ([`assembled`]); errors at the list's path. `None` (nothing consumed) when the field
    /// is not a 3-level LIST group or is a null list (the serde path then reads or rejects
    /// it).
    #[inline]
    fn list<T: Deserialize<'de>>(
        &mut self,
        get: impl Fn(&mut Cursor, usize, Conv) -> Option<T>,
        whole: impl Fn(&Tree, &mut State, NodeId) -> Result<T, DeError>,
    ) -> Option<Result<Vec<T>, DeError>> {
        let tree = self.acc.tree;
        let (id, node) = self.whole_field()?;
        let Kind::Group {
            shape: Shape::List { repeated, element },
            ..
        } = node.kind
        else {
            return None;
        };
        if element == repeated {
            return None;
        }
        let leaf = tree.plain_leaf(element);
        if !self.holds_value(id, node) {
            return None;
        }
        let st = &mut *self.acc.st;
        self.acc.next += 1;
        let mut read = || -> Result<Vec<T>, DeError> {
            let len = st.open_list(tree, repeated)?;
            let mut out = Vec::with_capacity(len.min(1 << 12));
            for _ in 0..len {
                match leaf.and_then(|(col, conv)| leaf_value(st, col, conv, &get)) {
                    Some(v) => out.push(v),
                    None => out.push(whole(tree, st, element)?),
                }
            }
            Ok(out)
        };
        Some(read().map_err(|e| e.at(&node.path)))
    }

    /// The next field as a map whose keys and values are leaves, read as the serde path
    /// reads a `BTreeMap` there (`NodeDe::dispatch` for a map, then `NodeDe::map` and
    /// `MapEntries`; a later equal key replaces the value, as serde's `BTreeMap` does): each
    /// key and value from its cursor when `key`/`value` give it, else through its
    /// `Deserialize` at the same position; errors at the map's path. `None` (nothing
    /// consumed) when the field is not a MAP group of leaves with values, or is a null map.
    #[inline]
    fn map<K: Deserialize<'de> + Ord, V: Deserialize<'de>>(
        &mut self,
        key: impl Fn(&mut Cursor, usize, Conv) -> Option<K>,
        value: impl Fn(&mut Cursor, usize, Conv) -> Option<V>,
    ) -> Option<Result<BTreeMap<K, V>, DeError>> {
        let tree = self.acc.tree;
        let (id, node) = self.whole_field()?;
        let Kind::Group {
            shape:
                Shape::Map {
                    kv,
                    key: key_id,
                    value: Some(value_id),
                },
            ..
        } = node.kind
        else {
            return None;
        };
        let (key_col, key_conv) = tree.plain_leaf(key_id)?;
        let (value_col, value_conv) = tree.plain_leaf(value_id)?;
        if !self.holds_value(id, node) {
            return None;
        }
        let st = &mut *self.acc.st;
        self.acc.next += 1;
        let mut read = || -> Result<BTreeMap<K, V>, DeError> {
            let len = st.open_list(tree, kv)?;
            let mut out = BTreeMap::new();
            for _ in 0..len {
                let k = match leaf_value(st, key_col, key_conv, &key) {
                    Some(k) => k,
                    None => K::deserialize(NodeDe::field(tree, st, key_id))?,
                };
                let v = match leaf_value(st, value_col, value_conv, &value) {
                    Some(v) => v,
                    None => V::deserialize(NodeDe::field(tree, st, value_id))?,
                };
                out.insert(k, v);
            }
            Ok(out)
        };
        Some(read().map_err(|e| e.at(&node.path)))
    }

    /// Whether text is lent to the rows for `'de` (see `State::lending`).
    #[inline(always)]
    fn lending(&self) -> bool {
        self.acc.st.lending()
    }

    /// The next field as an `Option<T>` of a group that is not repeated, read as the serde
    /// path reads it there (`NodeDe::run` goes to `NodeDe::dispatch` for a group, which for
    /// an option asks an optional group's presence, reads `None` and skips it when absent,
    /// else hands the group, its presence known, to `T`'s `Deserialize`); errors at the
    /// group's path. `None` (nothing consumed) for a leaf or a repeated field.
    #[inline]
    fn option_group<T: Assembled<'de>>(&mut self) -> Option<Result<Option<T>, DeError>> {
        let tree = self.acc.tree;
        let (id, node) = self.whole_field()?;
        if !matches!(node.kind, Kind::Group { .. }) {
            return None;
        }
        let st = &mut *self.acc.st;
        self.acc.next += 1;
        let mut read = || -> Result<Option<T>, DeError> {
            let mut checked = false;
            if node.is_optional() {
                if !st.present(tree, id)? {
                    st.skip(tree, id, false)?;
                    return Ok(None);
                }
                checked = true;
            }
            assembled(tree, st, id, checked).map(Some)
        };
        Some(read().map_err(|e| e.at(&node.path)))
    }

    /// [`scalar`](Self::scalar) for an `Option` target: a null is `None`.
    #[inline(always)]
    fn optional<T>(
        &mut self,
        get: impl FnOnce(&mut Cursor, usize, Conv) -> Option<T>,
    ) -> Option<Option<T>> {
        let (cursor, conv) = self.leaf()?;
        let value = match cursor.peek()? {
            None => {
                cursor.advance(false);
                None
            }
            Some(i) => {
                let value = get(cursor, i, conv)?;
                cursor.advance(true);
                Some(value)
            }
        };
        self.acc.next += 1;
        Some(value)
    }
}

/// A list element through its type's `Deserialize`, as `ListAccess` reads one that is not
/// the repeated node itself.
fn element<'de, T: Deserialize<'de>>(
    tree: &Tree,
    st: &mut State,
    id: NodeId,
) -> Result<T, DeError> {
    T::deserialize(NodeDe::field(tree, st, id))
}

/// The next value of leaf column `col` (see [`take_value`]).
#[inline(always)]
fn leaf_value<T>(
    st: &mut super::state::State,
    col: usize,
    conv: Conv,
    get: &impl Fn(&mut Cursor, usize, Conv) -> Option<T>,
) -> Option<T> {
    take_value(st.cursors.get_mut(col)?.as_mut()?, conv, get)
}

/// The cursor's next value when it is not null and `get` gives it (then consumed); `None`,
/// with nothing consumed, otherwise.
#[inline(always)]
fn take_value<T>(
    c: &mut Cursor,
    conv: Conv,
    get: &impl Fn(&mut Cursor, usize, Conv) -> Option<T>,
) -> Option<T> {
    let i = c.peek()??;
    let v = get(c, i, conv)?;
    c.advance(true);
    Some(v)
}

/// The error of a fast assembly as the access's own error type (which it is: `Fast` is
/// made only over the reader's access, whose error is [`DeError`]).
#[doc(hidden)]
#[inline(always)]
pub fn done<'de, M: MapAccess<'de>, T>(result: Result<T, DeError>) -> Result<T, M::Error> {
    result.map_err(cast_error::<M::Error>)
}

#[cold]
fn cast_error<E: de::Error>(e: DeError) -> E {
    if typeid::of::<E>() == typeid::of::<DeError>() {
        let e = ManuallyDrop::new(e);
        // SAFETY: `E` is `DeError` (same type id, and `DeError` has no lifetime parameter,
        // so no other type shares it); `e` is not dropped (ManuallyDrop), so the value is
        // moved, not duplicated.
        #[allow(unsafe_code)]
        return unsafe { std::ptr::read((&*e as *const DeError).cast::<E>()) };
    }
    // Not reached (see `done`); kept so that a mistake degrades into a message.
    E::custom(e)
}

/// The reader of a field of type `T` (see the module docs).
#[doc(hidden)]
pub struct Read<T>(PhantomData<T>);

impl<T> Read<T> {
    /// The reader.
    pub const NEW: Self = Read(PhantomData);
}

/// A field read through its `Deserialize` (every type).
#[doc(hidden)]
pub trait ReadSerde<'de, T> {
    /// The next field's value.
    fn read(&self, fast: &mut Fast<'_, 'de>) -> Result<T, DeError>;
}

impl<'de, T: Deserialize<'de>> ReadSerde<'de, T> for &Read<T> {
    #[inline(always)]
    fn read(&self, fast: &mut Fast<'_, 'de>) -> Result<T, DeError> {
        fast.value()
    }
}

/// A field read from its cursor when the value is certain, else through its
/// `Deserialize`.
#[doc(hidden)]
pub trait ReadFast<'de, T> {
    /// The next field's value.
    fn read(&self, fast: &mut Fast<'_, 'de>) -> Result<T, DeError>;
}

/// A struct whose `Deserialize` `#[parquet(assemble)]` wrote (the derive implements it):
/// an `Option` or a `Vec` of one is read by [`Fast`] too, each struct straight by its
/// generated assembler, with no serde visitor in between.
#[doc(hidden)]
pub trait Assembled<'de>: Deserialize<'de> {
    /// The field list the generated `Deserialize` hands to `deserialize_struct`.
    const FIELDS: &'static [&'static str];
    /// The generated assembler: the struct's fields from `fast` (what its `visit_map`
    /// reads when it gets a [`Fast`]).
    fn assemble(fast: &mut Fast<'_, 'de>) -> Result<Self, DeError>;
}

/// The group `id` (its presence known when `checked`) as the assembled struct `T`, read as
/// `T::deserialize` on the group reads it: when `NodeDe::deserialize_struct` would go to
/// `strukt` and `strukt`'s access would get a [`Fast`] (a plain group, a plan for `T`'s
/// field list with its indexes, no partition constants), `T`'s assembler over the same
/// access, finished as `strukt` finishes it, errors at the group's path; else
/// `T::deserialize` itself.
fn assembled<'de, T: Assembled<'de>>(
    tree: &Tree,
    st: &mut State,
    id: NodeId,
    checked: bool,
) -> Result<T, DeError> {
    let de = NodeDe::field_checked(tree, st, id, checked);
    if !de.is_present_struct() {
        return T::deserialize(de);
    }
    let st = de.st;
    let Some(plan) = st.plan(tree, id, T::FIELDS) else {
        return T::deserialize(NodeDe::field_checked(tree, st, id, checked));
    };
    let mut access = StructAccess {
        tree,
        st,
        plan,
        next: 0,
        keys: plan.keys_for(T::FIELDS),
        sink: None,
    };
    if !access.assembles() {
        return T::deserialize(NodeDe::field_checked(tree, access.st, id, checked));
    }
    let node = &tree.nodes[id];
    #[cfg(test)]
    tests::NESTED.with(|n| n.set(n.get() + 1));
    let mut fast = Fast {
        acc: &mut access,
        de: PhantomData,
    };
    let read = fast.rows(|f| T::assemble(f)).and_then(|v| {
        fast.acc.finish_row()?;
        Ok(v)
    });
    read.map_err(|e| e.at(&node.path))
}

impl<'de, T: Assembled<'de>> ReadFast<'de, Option<T>> for Read<Option<T>> {
    #[inline(always)]
    fn read(&self, fast: &mut Fast<'_, 'de>) -> Result<Option<T>, DeError> {
        match fast.option_group() {
            Some(v) => v,
            None => fast.value(),
        }
    }
}

impl<'de, T: Assembled<'de>> ReadFast<'de, Vec<T>> for Read<Vec<T>> {
    #[inline(always)]
    fn read(&self, fast: &mut Fast<'_, 'de>) -> Result<Vec<T>, DeError> {
        // No element is a leaf's value here: each is a struct, its presence unknown.
        match fast.list(
            |_: &mut Cursor, _, _| None,
            |tree, st, id| assembled(tree, st, id, false),
        ) {
            Some(v) => v,
            None => fast.value(),
        }
    }
}

/// `ReadFast` for a scalar and its `Option`: `$get` maps (values, index, conversion) to
/// the value in the cases where the serde path gives exactly that value.
macro_rules! read_fast {
    ($t:ty, $get:expr) => {
        impl<'de> ReadFast<'de, $t> for Read<$t> {
            #[inline(always)]
            fn read(&self, fast: &mut Fast<'_, 'de>) -> Result<$t, DeError> {
                match fast.scalar(
                    #[inline(always)]
                    |c: &mut Cursor, i, conv| ($get)(c, i, conv),
                ) {
                    Some(v) => Ok(v),
                    None => fast.value(),
                }
            }
        }
        impl<'de> ReadFast<'de, Vec<$t>> for Read<Vec<$t>> {
            #[inline(always)]
            fn read(&self, fast: &mut Fast<'_, 'de>) -> Result<Vec<$t>, DeError> {
                match fast.list(
                    #[inline(always)]
                    |c: &mut Cursor, i, conv| ($get)(c, i, conv),
                    element,
                ) {
                    Some(v) => v,
                    None => fast.value(),
                }
            }
        }
        impl<'de> ReadFast<'de, Option<$t>> for Read<Option<$t>> {
            #[inline(always)]
            fn read(&self, fast: &mut Fast<'_, 'de>) -> Result<Option<$t>, DeError> {
                match fast.optional(
                    #[inline(always)]
                    |c: &mut Cursor, i, conv| ($get)(c, i, conv),
                ) {
                    Some(v) => Ok(v),
                    None => fast.value(),
                }
            }
        }
    };
}

// What the serde path gives (leaf.rs, `visit_value` and `natural`): INT64 and INT32 without
// a conversion go to the visitor as `visit_i64` / `visit_i32` (an `i64` widens an `i32`
// for free); unsigned ones as `visit_u64` / `visit_u32`; DOUBLE, FLOAT and BOOLEAN as
// themselves; text (a STRING, ENUM or JSON leaf whose buffer is UTF-8) as the owned
// `String` built ahead or as `visit_str`.
read_fast!(i64, plain_i64);
read_fast!(i32, |c: &mut Cursor, i, conv| match (c.values(), conv) {
    (ColumnValues::Int32(v), Conv::Plain) => v.get(i).copied(),
    _ => None,
});
read_fast!(u64, |c: &mut Cursor, i, conv| match (c.values(), conv) {
    (ColumnValues::Int64(v), Conv::Unsigned) => v.get(i).map(|&x| x as u64),
    _ => None,
});
read_fast!(u32, |c: &mut Cursor, i, conv| match (c.values(), conv) {
    (ColumnValues::Int32(v), Conv::Unsigned) => v.get(i).map(|&x| x as u32),
    _ => None,
});
read_fast!(f64, |c: &mut Cursor, i, conv| match (c.values(), conv) {
    (ColumnValues::Double(v), Conv::Plain) => v.get(i).copied(),
    _ => None,
});
read_fast!(f32, |c: &mut Cursor, i, conv| match (c.values(), conv) {
    (ColumnValues::Float(v), Conv::Plain) => v.get(i).copied(),
    _ => None,
});
read_fast!(bool, |c: &mut Cursor, i, conv| match (c.values(), conv) {
    (ColumnValues::Boolean(v), Conv::Plain) => v.get(i).copied(),
    _ => None,
});
read_fast!(String, owned_text);

/// Text borrowed from the column for `'de`: what `leaf::visit_lent_str` gives. Called only
/// after [`Fast::lending`] said the state lends (else the serde path runs, whose `&str` then
/// fails as serde words it).
#[inline(always)]
fn lent_text<'de>(c: &mut Cursor, i: usize, conv: Conv) -> Option<&'de str> {
    if !matches!(conv, Conv::String | Conv::Plain) {
        return None;
    }
    c.text_at(i).map(|s| -> &'de str { super::leaf::lent(s) })
}

impl<'de: 'a, 'a> ReadFast<'de, &'a str> for Read<&'a str> {
    #[inline(always)]
    fn read(&self, fast: &mut Fast<'_, 'de>) -> Result<&'a str, DeError> {
        if fast.lending() {
            if let Some(v) = fast.scalar(
                #[inline(always)]
                |c: &mut Cursor, i, conv| lent_text(c, i, conv),
            ) {
                return Ok(v);
            }
        }
        fast.value()
    }
}

impl<'de: 'a, 'a> ReadFast<'de, Option<&'a str>> for Read<Option<&'a str>> {
    #[inline(always)]
    fn read(&self, fast: &mut Fast<'_, 'de>) -> Result<Option<&'a str>, DeError> {
        if fast.lending() {
            if let Some(v) = fast.optional(
                #[inline(always)]
                |c: &mut Cursor, i, conv| lent_text(c, i, conv),
            ) {
                return Ok(v);
            }
        }
        fast.value()
    }
}

#[cfg(test)]
mod tests {
    use std::borrow::Cow;
    use std::cell::Cell;
    use std::collections::BTreeMap;

    use serde::de::value::MapDeserializer;

    use super::*;

    thread_local! {
        /// Structs this thread assembled through `Fast`.
        pub(super) static USED: Cell<usize> = const { Cell::new(0) };
        /// Calls of the generated `visit_map` that got a `Fast` (a row loop's call reads
        /// several rows).
        pub(super) static CALLS: Cell<usize> = const { Cell::new(0) };
        /// Nested assembled structs read straight by their assembler (`assembled`).
        pub(super) static NESTED: Cell<usize> = const { Cell::new(0) };
    }

    #[derive(Debug, Clone, PartialEq, serde::Serialize, crate::ParquetSchema)]
    #[parquet(crate = "crate", assemble)]
    struct Part {
        name: String,
        n: Option<i64>,
    }

    #[derive(Debug, Clone, PartialEq, serde::Serialize, crate::ParquetSchema)]
    #[parquet(crate = "crate", assemble)]
    struct Whole {
        id: i64,
        one: Option<Part>,
        many: Vec<Part>,
    }

    #[test]
    fn options_and_lists_of_assembled_structs_go_straight_to_their_assembler() {
        let rows: Vec<Whole> = (0..300)
            .map(|i| Whole {
                id: i,
                one: (i % 3 != 0).then(|| Part {
                    name: format!("p{i}"),
                    n: (i % 2 == 0).then_some(i),
                }),
                many: (0..i % 4)
                    .map(|k| Part {
                        name: format!("m{k}"),
                        n: Some(k),
                    })
                    .collect(),
            })
            .collect();
        let bytes = crate::to_vec(&rows).unwrap();
        let nested = rows
            .iter()
            .map(|r| r.one.iter().count() + r.many.len())
            .sum::<usize>();
        let before = NESTED.with(Cell::get);
        let back: Vec<Whole> = crate::from_slice(&bytes).unwrap();
        assert_eq!(back, rows);
        assert_eq!(NESTED.with(Cell::get) - before, nested);
    }

    fn used() -> usize {
        USED.with(Cell::get)
    }

    fn calls() -> usize {
        CALLS.with(Cell::get)
    }

    #[derive(
        Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize, crate::ParquetSchema,
    )]
    #[parquet(crate = "crate")]
    struct Plain {
        a: i64,
        b: String,
        c: Option<f64>,
    }

    #[derive(Debug, Clone, PartialEq, serde::Serialize, crate::ParquetSchema)]
    #[parquet(crate = "crate", assemble)]
    struct Fastened {
        a: i64,
        b: String,
        c: Option<f64>,
    }

    #[derive(Debug, PartialEq, serde::Serialize, crate::ParquetSchema)]
    #[parquet(crate = "crate", assemble)]
    struct Lent<'a> {
        a: i64,
        b: &'a str,
        c: Option<&'a str>,
        d: Cow<'a, str>,
    }

    fn plain(n: i64) -> Vec<Plain> {
        (0..n)
            .map(|i| Plain {
                a: i,
                b: format!("b{i}"),
                c: (i % 3 != 0).then_some(i as f64 / 2.0),
            })
            .collect()
    }

    #[test]
    fn only_the_readers_own_access_is_fast() {
        let mut map = MapDeserializer::<_, DeError>::new(BTreeMap::from([("a", 1i64)]).into_iter());
        assert!(Fast::<'_, '_>::of(&mut map).is_none());
        // Through serde's own maps, the generated impl is serde's (JSON here).
        let before = used();
        let v: Fastened = serde_json::from_str(r#"{"a": 1, "b": "x", "c": null}"#).unwrap();
        assert_eq!(v.b, "x");
        assert_eq!(used(), before);
    }

    #[test]
    fn assembled_rows_go_the_fast_way_and_equal_serdes() {
        let rows = plain(1000);
        let bytes = crate::to_vec(&rows).unwrap();
        let (before, calls_before) = (used(), calls());
        let fast: Vec<Fastened> = crate::from_slice(&bytes).unwrap();
        // One struct per row (the probe goes the serde way, and is not counted), read in
        // runs: the row loop hands the generated code up to 256 rows a call.
        assert_eq!(used() - before, rows.len());
        assert_eq!(calls() - calls_before, rows.len().div_ceil(256));
        let (before, calls_before) = (used(), calls());
        let slow: Vec<Plain> = crate::from_slice(&bytes).unwrap();
        assert_eq!((used(), calls()), (before, calls_before));
        assert_eq!(slow, rows);
        let fast: Vec<Plain> = fast
            .into_iter()
            .map(|f| Plain {
                a: f.a,
                b: f.b,
                c: f.c,
            })
            .collect();
        assert_eq!(fast, rows);
    }

    /// The same fields, `b` optional in the file: a null there fails `Fastened` and
    /// `Plain` (a `String`) at that row.
    #[derive(Debug, Clone, PartialEq, serde::Serialize, crate::ParquetSchema)]
    #[parquet(crate = "crate")]
    struct Gappy {
        a: i64,
        b: Option<String>,
        c: Option<f64>,
    }

    /// What a read gave: the rows' `a`s, or the error's kind, text and row.
    fn outcome<T>(read: crate::Result<Vec<T>>, a: impl Fn(&T) -> i64) -> Result<Vec<i64>, String> {
        read.map(|v| v.iter().map(a).collect())
            .map_err(|e| format!("{:?} {e} (row {:?})", e.kind(), e.location().row))
    }

    #[test]
    fn a_run_of_rows_fails_at_the_failing_row_as_one_row_a_call_does() {
        // Row groups of 300 rows; a null `b` at row 700 (row 100 of the third group).
        for bad in [0usize, 1, 255, 256, 299, 700, 999] {
            let rows: Vec<Gappy> = (0..1000)
                .map(|i| Gappy {
                    a: i,
                    b: (i as usize != bad).then(|| format!("b{i}")),
                    c: None,
                })
                .collect();
            let options = crate::WriterOptions::default().row_group_rows(300);
            let bytes = crate::to_vec_with(&rows, &options).unwrap();
            let fast = outcome(crate::from_slice::<Fastened>(&bytes), |r| r.a);
            let slow = outcome(crate::from_slice::<Plain>(&bytes), |r| r.a);
            assert!(fast.is_err(), "row {bad}");
            assert_eq!(fast, slow, "from_slice, null at row {bad}");
            assert!(fast.unwrap_err().contains(&format!("(row Some({bad}))")));
            let reader = |()| crate::Reader::<_, Fastened>::new(&bytes[..]).unwrap();
            let par = outcome(reader(()).read_all_par(), |r| r.a);
            let slow_par = outcome(
                crate::Reader::<_, Plain>::new(&bytes[..])
                    .unwrap()
                    .read_all_par(),
                |r| r.a,
            );
            assert_eq!(par, slow_par, "read_all_par, null at row {bad}");
            // The batch of the bad row, asked for whole and in ranges around it.
            let k = bad % 300;
            let (fast_batches, slow_batches) = (
                crate::Reader::<_, Fastened>::new(&bytes[..])
                    .unwrap()
                    .batches(),
                crate::Reader::<_, Plain>::new(&bytes[..])
                    .unwrap()
                    .batches(),
            );
            let batch_fast = fast_batches.map(Result::unwrap).nth(bad / 300).unwrap();
            let batch_slow = slow_batches.map(Result::unwrap).nth(bad / 300).unwrap();
            let n = batch_fast.num_rows();
            for range in [0..n, k..n, k / 2..k + 1, 0..k, k + 1..n] {
                let f = outcome(batch_fast.rows_in::<Fastened>(range.clone()), |r| r.a);
                let s = outcome(batch_slow.rows_in::<Plain>(range.clone()), |r| r.a);
                assert_eq!(f, s, "rows_in({range:?}), null at row {bad}");
                assert_eq!(f.is_err(), range.contains(&k), "rows_in({range:?})");
            }
        }
    }

    #[derive(Debug, Clone, PartialEq, serde::Serialize, crate::ParquetSchema)]
    #[parquet(crate = "crate")]
    struct Texts {
        a: i64,
        b: String,
        c: Option<String>,
        d: String,
    }

    #[test]
    fn borrowed_rows_go_the_fast_way_and_borrow() {
        let rows: Vec<Texts> = (0..100)
            .map(|i| Texts {
                a: i,
                b: format!("b{i}"),
                c: (i % 3 != 0).then(|| format!("c{i}")),
                d: format!("d{i}"),
            })
            .collect();
        let bytes = crate::to_vec(&rows).unwrap();
        let mut seen = 0;
        for batch in crate::Reader::<_, Lent<'static>>::new(&bytes[..])
            .unwrap()
            .batches()
        {
            let batch = batch.unwrap();
            let (before, calls_before) = (used(), calls());
            let got: Vec<Lent<'_>> = batch.rows().unwrap();
            // Every row assembled, all in one call.
            assert_eq!(used() - before, got.len());
            assert_eq!(calls() - calls_before, 1);
            for (g, r) in got.iter().zip(&rows[seen..]) {
                assert_eq!((g.a, g.b, g.c), (r.a, r.b.as_str(), r.c.as_deref()));
                // A `Cow` without `#[serde(borrow)]` is owned, as serde's derive makes it.
                assert!(matches!(g.d, Cow::Owned(ref d) if *d == r.d));
            }
            seen += got.len();
        }
        assert_eq!(seen, rows.len());
    }
}

impl<'de: 'a, 'a> ReadFast<'de, Vec<&'a str>> for Read<Vec<&'a str>> {
    #[inline(always)]
    fn read(&self, fast: &mut Fast<'_, 'de>) -> Result<Vec<&'a str>, DeError> {
        if fast.lending() {
            if let Some(v) = fast.list(lent_text, element) {
                return v;
            }
        }
        fast.value()
    }
}

/// `ReadFast` for a `BTreeMap` of leaf keys and values: `$k`/`$v` as in `read_fast!`.
macro_rules! read_fast_map {
    ($($lt:lifetime)?, $kt:ty, $vt:ty, $k:expr, $v:expr) => {
        impl<'de $(: $lt, $lt)?> ReadFast<'de, BTreeMap<$kt, $vt>> for Read<BTreeMap<$kt, $vt>> {
            #[inline(always)]
            fn read(&self, fast: &mut Fast<'_, 'de>) -> Result<BTreeMap<$kt, $vt>, DeError> {
                match fast.map($k, $v) {
                    Some(v) => v,
                    None => fast.value(),
                }
            }
        }
    };
}

/// An owned `String` from a text leaf, as `read_fast!(String, ..)` reads it.
#[inline(always)]
fn owned_text(c: &mut Cursor, i: usize, conv: Conv) -> Option<String> {
    if !matches!(conv, Conv::String) {
        return None;
    }
    match c.take_owned(i) {
        Some(s) => Some(s),
        None => c.text_at(i).map(str::to_owned),
    }
}

/// An `i64` from an INT64 or INT32 leaf, as `read_fast!(i64, ..)` reads it.
#[inline(always)]
fn plain_i64(c: &mut Cursor, i: usize, conv: Conv) -> Option<i64> {
    match (c.values(), conv) {
        (ColumnValues::Int64(v), Conv::Plain) => v.get(i).copied(),
        (ColumnValues::Int32(v), Conv::Plain) => v.get(i).map(|&x| i64::from(x)),
        _ => None,
    }
}

read_fast_map!(, String, String, owned_text, owned_text);
read_fast_map!(, String, i64, owned_text, plain_i64);

impl<'de: 'a, 'a> ReadFast<'de, BTreeMap<&'a str, &'a str>> for Read<BTreeMap<&'a str, &'a str>> {
    #[inline(always)]
    fn read(&self, fast: &mut Fast<'_, 'de>) -> Result<BTreeMap<&'a str, &'a str>, DeError> {
        if fast.lending() {
            if let Some(v) = fast.map(lent_text, lent_text) {
                return v;
            }
        }
        fast.value()
    }
}
