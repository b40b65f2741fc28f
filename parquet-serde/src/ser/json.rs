//! JSON shredded by a schema given at run time, straight from the parser: a
//! [`DeserializeSeed`] per plan node takes serde_json's calls (or those of any
//! self-describing deserializer, such as a `serde_json::Value`) and appends to the leaves,
//! with no tree built in between.
//!
//! - objects fill groups by field name (any order; absent fields are nulls) or the entries
//!   of a MAP; arrays fill LISTs; `null` is a null;
//! - numbers go to integer columns when integral, to FLOAT / DOUBLE columns either way;
//!   strings to text columns, and to the columns that take text (timestamps, dates, times,
//!   decimals, UUIDs);
//! - a leaf annotated JSON takes any value as its JSON text (a string keeps its quotes);
//! - a VARIANT group takes any value as a Variant (shredded if the group has a
//!   `typed_value`); `null` is a null group when the group is optional, else a Variant null.

use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::value::RawValue;

use crate::core::values::ByteCheck;
use crate::error::{Error, Result};
use crate::variant::Variant;

use super::plan::Kind;
use super::serializer::GroupCursor;
use super::shredder::Shredder;
use super::value::put_integer;

/// The shredder, and the first shredding error (serde's errors carry only a message).
struct Cx<'s> {
    sh: &'s mut Shredder,
    error: Option<Error>,
}

impl Cx<'_> {
    /// Keeps `e` and gives serde an error that stops the parse.
    fn fail<E: de::Error>(&mut self, e: Error) -> E {
        let message = e.to_string();
        self.error.get_or_insert(e);
        E::custom(message)
    }

    fn check<E: de::Error>(&mut self, r: Result<()>) -> std::result::Result<(), E> {
        r.map_err(|e| self.fail(e))
    }
}

/// Shreds the value `de` gives at plan node `node` (repetition level `rep`). A shredding
/// error comes back as it is (with its column path); a parse error as an
/// [`ErrorKind::Data`](crate::ErrorKind::Data) error with serde's message.
pub(crate) fn shred_json<'de, D>(sh: &mut Shredder, node: u32, rep: i16, de: D) -> Result<()>
where
    D: Deserializer<'de>,
    D::Error: std::error::Error + Send + Sync + 'static,
{
    let mut cx = Cx { sh, error: None };
    let result = NodeSeed {
        cx: &mut cx,
        node,
        rep,
    }
    .deserialize(de);
    match (result, cx.error) {
        (Ok(()), _) => Ok(()),
        (Err(_), Some(e)) => Err(e),
        (Err(e), None) => Err(Error::data(format!("invalid JSON: {e}")).with_source(e)),
    }
}

/// The value at plan node `node`.
struct NodeSeed<'a, 's> {
    cx: &'a mut Cx<'s>,
    node: u32,
    rep: i16,
}

impl<'de> DeserializeSeed<'de> for NodeSeed<'_, '_> {
    type Value = ();

    #[inline]
    fn deserialize<D: Deserializer<'de>>(self, de: D) -> std::result::Result<(), D::Error> {
        if let Kind::Variant { .. } = self.cx.sh.nodes[self.node as usize].kind {
            let value: Variant = serde::Deserialize::deserialize(de)?;
            let (sh, node, rep) = (&mut *self.cx.sh, self.node, self.rep);
            let r = match value {
                Variant::Null if sh.nodes[node as usize].optional => sh.null_at(node, rep),
                value => super::variant::put(sh, node, rep, &value),
            };
            return self.cx.check(r);
        }
        if let Kind::Leaf(l) = self.cx.sh.nodes[self.node as usize].kind {
            if self.cx.sh.leaves[l as usize].check == ByteCheck::Json {
                let raw: Box<RawValue> = serde::Deserialize::deserialize(de)?;
                let r = match raw.get() {
                    "null" => self.cx.sh.null_at(self.node, self.rep),
                    text => self.cx.sh.put_str(self.node, self.rep, text),
                };
                return self.cx.check(r);
            }
        }
        de.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for NodeSeed<'_, '_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> std::result::Result<(), E> {
        let r = self.cx.sh.put_bool(self.node, self.rep, v);
        self.cx.check(r)
    }

    #[inline]
    fn visit_i64<E: de::Error>(self, v: i64) -> std::result::Result<(), E> {
        self.integer(v as i128)
    }

    #[inline]
    fn visit_u64<E: de::Error>(self, v: u64) -> std::result::Result<(), E> {
        self.integer(v as i128)
    }

    #[inline]
    fn visit_f64<E: de::Error>(self, v: f64) -> std::result::Result<(), E> {
        let r = self
            .cx
            .sh
            .put_float(self.node, self.rep, v, "a number with a fraction");
        self.cx.check(r)
    }

    #[inline]
    fn visit_str<E: de::Error>(self, v: &str) -> std::result::Result<(), E> {
        let r = self.cx.sh.put_str(self.node, self.rep, v);
        self.cx.check(r)
    }

    fn visit_unit<E: de::Error>(self) -> std::result::Result<(), E> {
        let r = self.cx.sh.null_at(self.node, self.rep);
        self.cx.check(r)
    }

    fn visit_none<E: de::Error>(self) -> std::result::Result<(), E> {
        self.visit_unit()
    }

    fn visit_some<D: Deserializer<'de>>(self, de: D) -> std::result::Result<(), D::Error> {
        self.deserialize(de)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> std::result::Result<(), A::Error> {
        let Kind::List { element, entry_rep } = self.cx.sh.nodes[self.node as usize].kind else {
            let e = self.cx.sh.mismatch(self.node, "an array");
            return Err(self.cx.fail(e));
        };
        let mut rep = self.rep;
        let mut count = 0usize;
        while seq
            .next_element_seed(NodeSeed {
                cx: &mut *self.cx,
                node: element,
                rep,
            })?
            .is_some()
        {
            rep = entry_rep;
            count += 1;
        }
        if count == 0 {
            let def = self.cx.sh.nodes[self.node as usize].def;
            self.cx.sh.nulls(self.node, def, self.rep);
        }
        Ok(())
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> std::result::Result<(), A::Error> {
        match self.cx.sh.nodes[self.node as usize].kind {
            Kind::Group { first, len } => {
                let mut cursor = GroupCursor::new(self.node, first, len, self.rep);
                while let Some(field) = map.next_key_seed(FieldSeed {
                    cx: &mut *self.cx,
                    cursor: &mut cursor,
                })? {
                    map.next_value_seed(NodeSeed {
                        cx: &mut *self.cx,
                        node: field,
                        rep: self.rep,
                    })?;
                }
                let r = cursor.finish(self.cx.sh);
                self.cx.check(r)
            }
            Kind::Map { key, entry_rep } => {
                let mut rep = self.rep;
                let mut count = 0usize;
                while map
                    .next_key_seed(NodeSeed {
                        cx: &mut *self.cx,
                        node: key,
                        rep,
                    })?
                    .is_some()
                {
                    map.next_value_seed(NodeSeed {
                        cx: &mut *self.cx,
                        node: key + 1,
                        rep,
                    })?;
                    rep = entry_rep;
                    count += 1;
                }
                if count == 0 {
                    let def = self.cx.sh.nodes[self.node as usize].def;
                    self.cx.sh.nulls(self.node, def, self.rep);
                }
                Ok(())
            }
            _ => {
                let e = self.cx.sh.mismatch(self.node, "an object");
                Err(self.cx.fail(e))
            }
        }
    }
}

impl NodeSeed<'_, '_> {
    #[inline]
    fn integer<E: de::Error>(self, v: i128) -> std::result::Result<(), E> {
        let conv = match self.cx.sh.nodes[self.node as usize].kind {
            Kind::Leaf(l) => self.cx.sh.leaves[l as usize].conv,
            _ => {
                let e = self.cx.sh.mismatch(self.node, "a number");
                return Err(self.cx.fail(e));
            }
        };
        let r = put_integer(self.cx.sh, self.node, self.rep, conv, v);
        self.cx.check(r)
    }
}

/// An object's key: the group field it names (marked as written).
struct FieldSeed<'a, 's> {
    cx: &'a mut Cx<'s>,
    cursor: &'a mut GroupCursor,
}

impl<'de> DeserializeSeed<'de> for FieldSeed<'_, '_> {
    type Value = u32;

    #[inline]
    fn deserialize<D: Deserializer<'de>>(self, de: D) -> std::result::Result<u32, D::Error> {
        de.deserialize_str(self)
    }
}

impl Visitor<'_> for FieldSeed<'_, '_> {
    type Value = u32;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a field name")
    }

    #[inline]
    fn visit_str<E: de::Error>(self, v: &str) -> std::result::Result<u32, E> {
        self.cursor
            .field_named(self.cx.sh, v)
            .map_err(|e| self.cx.fail(e))
    }
}
