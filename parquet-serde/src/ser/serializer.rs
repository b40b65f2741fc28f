//! The serde [`Serializer`](ser::Serializer) that shreds one row: [`At`] is "the value that
//! serde is about to describe belongs at plan node `node`, and its first entry in each leaf
//! takes repetition level `rep`".
//!
//! Dremel's rules, as applied here:
//! - a value at a leaf appends the value with the leaf's maximum definition level;
//! - `None` (or a skipped field) at an optional node appends, to every leaf below it, a
//!   null whose definition level is the parent's (the node's minus one);
//! - a list's first element keeps the enclosing repetition level, later elements take the
//!   level of the list's entries; an empty list appends a null with the list node's
//!   definition level to every leaf below it (maps likewise);
//! - an enum with data writes the chosen variant's field and a null to every other one.

use std::fmt::{Display, Write as _};

use serde::ser::{self, Impossible, Serialize};

use crate::error::{Error, Result};

use super::plan::Kind;
use super::shredder::Shredder;
use crate::reject::{reject, reject_containers};

/// Serializes one value at plan node `node` with repetition level `rep`.
pub(crate) struct At<'a> {
    sh: &'a mut Shredder,
    node: u32,
    rep: i16,
}

impl<'a> At<'a> {
    /// A serializer for the value at `node`.
    #[inline]
    pub(crate) fn new(sh: &'a mut Shredder, node: u32, rep: i16) -> Self {
        At { sh, node, rep }
    }

    #[inline]
    fn kind(&self) -> Kind {
        self.sh.nodes[self.node as usize].kind
    }

    /// The field of the enum group at this node named `variant`, after writing a null to
    /// every other field.
    fn variant_field(&mut self, variant: &'static str) -> Result<u32> {
        let Kind::Group { first, len } = self.kind() else {
            return Err(self
                .sh
                .mismatch(self.node, &format!("enum variant `{variant}`")));
        };
        let mut found = None;
        for f in first..first + len {
            if !self.sh.nodes[f as usize].optional {
                return Err(self
                    .sh
                    .mismatch(self.node, &format!("enum variant `{variant}`")));
            }
            if found.is_none() && self.sh.static_name_is(f, variant) {
                found = Some(f);
            }
        }
        let Some(field) = found else {
            return Err(self.sh.error(
                self.node,
                format!("the schema has no field for enum variant `{variant}`"),
            ));
        };
        for f in first..first + len {
            if f != field {
                let def = self.sh.nodes[f as usize].def - 1;
                self.sh.nulls(f, def, self.rep);
            }
        }
        Ok(field)
    }

    fn list_of_bytes(self, element: u32, entry_rep: i16, bytes: &[u8]) -> Result<()> {
        for (i, &b) in bytes.iter().enumerate() {
            let rep = if i == 0 { self.rep } else { entry_rep };
            self.sh.put_int(element, rep, b as i128)?;
        }
        if bytes.is_empty() {
            let def = self.sh.nodes[self.node as usize].def;
            self.sh.nulls(self.node, def, self.rep);
        }
        Ok(())
    }

    #[inline]
    fn seq(self, tuple: bool) -> Result<SeqSer<'a>> {
        let mode = match self.kind() {
            Kind::List { element, entry_rep } => SeqMode::List {
                list: self.node,
                element,
                entry_rep,
            },
            Kind::Leaf(_) if self.sh.takes_byte_seq(self.node) => SeqMode::Bytes {
                node: self.node,
                start: self.sh.byte_data_len(self.node),
            },
            Kind::Group { first, len } if tuple => {
                SeqMode::Fields(GroupCursor::new(self.node, first, len, self.rep))
            }
            Kind::Leaf(_) if tuple && self.sh.is_civil(self.node) => SeqMode::Civil {
                node: self.node,
                parts: [0; 9],
                len: 0,
            },
            _ => return Err(self.sh.mismatch(self.node, "a sequence")),
        };
        Ok(SeqSer {
            sh: self.sh,
            mode,
            rep: self.rep,
            count: 0,
        })
    }
}

impl<'a> ser::Serializer for At<'a> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = SeqSer<'a>;
    type SerializeTuple = SeqSer<'a>;
    type SerializeTupleStruct = SeqSer<'a>;
    type SerializeTupleVariant = SeqSer<'a>;
    type SerializeMap = MapSer<'a>;
    type SerializeStruct = StructSer<'a>;
    type SerializeStructVariant = StructSer<'a>;

    /// Compact forms: `Uuid` gives its 16 bytes.
    fn is_human_readable(&self) -> bool {
        false
    }

    #[inline]
    fn serialize_bool(self, v: bool) -> Result<()> {
        self.sh.put_bool(self.node, self.rep, v)
    }

    #[inline]
    fn serialize_i8(self, v: i8) -> Result<()> {
        self.sh.put_int(self.node, self.rep, v as i128)
    }

    #[inline]
    fn serialize_i16(self, v: i16) -> Result<()> {
        self.sh.put_int(self.node, self.rep, v as i128)
    }

    #[inline]
    fn serialize_i32(self, v: i32) -> Result<()> {
        self.sh.put_int(self.node, self.rep, v as i128)
    }

    #[inline]
    fn serialize_i64(self, v: i64) -> Result<()> {
        self.sh.put_int(self.node, self.rep, v as i128)
    }

    #[inline]
    fn serialize_i128(self, v: i128) -> Result<()> {
        self.sh.put_int(self.node, self.rep, v)
    }

    #[inline]
    fn serialize_u8(self, v: u8) -> Result<()> {
        self.sh.put_int(self.node, self.rep, v as i128)
    }

    #[inline]
    fn serialize_u16(self, v: u16) -> Result<()> {
        self.sh.put_int(self.node, self.rep, v as i128)
    }

    #[inline]
    fn serialize_u32(self, v: u32) -> Result<()> {
        self.sh.put_int(self.node, self.rep, v as i128)
    }

    #[inline]
    fn serialize_u64(self, v: u64) -> Result<()> {
        self.sh.put_int(self.node, self.rep, v as i128)
    }

    #[inline]
    fn serialize_u128(self, v: u128) -> Result<()> {
        self.sh.put_u128(self.node, self.rep, v)
    }

    #[inline]
    fn serialize_f32(self, v: f32) -> Result<()> {
        self.sh.put_float(self.node, self.rep, v as f64, "an f32")
    }

    #[inline]
    fn serialize_f64(self, v: f64) -> Result<()> {
        self.sh.put_float(self.node, self.rep, v, "an f64")
    }

    #[inline]
    fn serialize_char(self, v: char) -> Result<()> {
        let mut buf = [0u8; 4];
        self.sh
            .put_str(self.node, self.rep, v.encode_utf8(&mut buf))
    }

    #[inline]
    fn serialize_str(self, v: &str) -> Result<()> {
        self.sh.put_str(self.node, self.rep, v)
    }

    #[inline]
    fn serialize_bytes(self, v: &[u8]) -> Result<()> {
        match self.kind() {
            Kind::List { element, entry_rep } => self.list_of_bytes(element, entry_rep, v),
            _ => self.sh.put_bytes(self.node, self.rep, v),
        }
    }

    #[inline]
    fn serialize_none(self) -> Result<()> {
        self.sh.null_at(self.node, self.rep)
    }

    #[inline]
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<()> {
        value.serialize(self)
    }

    #[inline]
    fn serialize_unit(self) -> Result<()> {
        self.sh.put_unit(self.node, self.rep)
    }

    #[inline]
    fn serialize_unit_struct(self, _name: &'static str) -> Result<()> {
        self.sh.put_unit(self.node, self.rep)
    }

    #[inline]
    fn serialize_unit_variant(
        mut self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result<()> {
        match self.kind() {
            Kind::Leaf(_) => self.sh.put_str(self.node, self.rep, variant),
            _ => {
                let field = self.variant_field(variant)?;
                self.sh.put_unit(field, self.rep)
            }
        }
    }

    #[inline]
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result<()> {
        value.serialize(self)
    }

    #[inline]
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        mut self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<()> {
        let field = self.variant_field(variant)?;
        super::variant::put_located(self.sh, field, self.rep, value)
    }

    #[inline]
    fn serialize_seq(self, _len: Option<usize>) -> Result<SeqSer<'a>> {
        self.seq(false)
    }

    #[inline]
    fn serialize_tuple(self, _len: usize) -> Result<SeqSer<'a>> {
        self.seq(true)
    }

    #[inline]
    fn serialize_tuple_struct(self, _name: &'static str, _len: usize) -> Result<SeqSer<'a>> {
        self.seq(true)
    }

    #[inline]
    fn serialize_tuple_variant(
        mut self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<SeqSer<'a>> {
        let field = self.variant_field(variant)?;
        At::new(self.sh, field, self.rep).seq(true)
    }

    #[inline]
    fn serialize_map(self, _len: Option<usize>) -> Result<MapSer<'a>> {
        let mode = match self.kind() {
            Kind::Map { key, entry_rep } => MapMode::Entries {
                map: self.node,
                key,
                entry_rep,
            },
            Kind::Group { first, len } => {
                MapMode::Fields(GroupCursor::new(self.node, first, len, self.rep))
            }
            _ => return Err(self.sh.mismatch(self.node, "a map")),
        };
        Ok(MapSer {
            sh: self.sh,
            mode,
            rep: self.rep,
            count: 0,
            entry_rep: 0,
            pending: None,
        })
    }

    #[inline]
    fn serialize_struct(self, name: &'static str, _len: usize) -> Result<StructSer<'a>> {
        let mode = match self.kind() {
            Kind::Group { first, len } => {
                StructMode::Fields(GroupCursor::new(self.node, first, len, self.rep))
            }
            Kind::Leaf(_) if name == "SystemTime" && self.sh.is_timestamp(self.node) => {
                StructMode::SystemTime {
                    node: self.node,
                    rep: self.rep,
                    secs: None,
                    nanos: None,
                }
            }
            _ => return Err(self.sh.mismatch(self.node, &format!("struct `{name}`"))),
        };
        Ok(StructSer { sh: self.sh, mode })
    }

    #[inline]
    fn serialize_struct_variant(
        mut self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<StructSer<'a>> {
        let field = self.variant_field(variant)?;
        ser::Serializer::serialize_struct(At::new(self.sh, field, self.rep), variant, len)
    }

    fn collect_str<T: Display + ?Sized>(self, value: &T) -> Result<()> {
        let mut buf = std::mem::take(&mut self.sh.scratch);
        buf.clear();
        let result = match write!(buf, "{value}") {
            Ok(()) => self.sh.put_str(self.node, self.rep, &buf),
            Err(_) => Err(self.sh.error(self.node, "formatting the value failed")),
        };
        self.sh.scratch = buf;
        result
    }
}

// ---------------------------------------------------------------------------------------------
// Groups

/// Which fields of one group instance have been written.
///
/// Fields usually arrive in schema order (serde's derive writes them in declaration order),
/// so the cursor only moves forward. A field out of order switches to stamping: the
/// instance takes a fresh stamp and marks each written field node with it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct GroupCursor {
    group: u32,
    first: u32,
    len: u32,
    rep: i16,
    cursor: u32,
    stamp: u64,
}

impl GroupCursor {
    pub(crate) fn new(group: u32, first: u32, len: u32, rep: i16) -> Self {
        GroupCursor {
            group,
            first,
            len,
            rep,
            cursor: 0,
            stamp: 0,
        }
    }

    /// The field named by serde's static `key`: in the common case the next field, whose
    /// name was matched to this very key (same address) in an earlier row.
    #[inline(always)]
    fn static_field(&mut self, sh: &mut Shredder, key: &'static str) -> Result<u32> {
        if self.stamp == 0 && self.cursor < self.len {
            let f = self.first + self.cursor;
            let n = &sh.nodes[f as usize];
            if n.key_addr == key.as_ptr() as usize && n.name.len() == key.len() {
                self.cursor += 1;
                return Ok(f);
            }
        }
        self.static_field_slow(sh, key)
    }

    #[cold]
    #[inline(never)]
    fn static_field_slow(&mut self, sh: &mut Shredder, key: &'static str) -> Result<u32> {
        if self.stamp == 0 && self.cursor < self.len {
            let f = self.first + self.cursor;
            if sh.static_name_is(f, key) {
                self.cursor += 1;
                return Ok(f);
            }
        }
        let i = self.find(sh, key)?;
        self.mark(sh, i)
    }

    /// The index (in the group) of the field named `key`.
    fn find(&self, sh: &Shredder, key: &str) -> Result<u32> {
        (0..self.len)
            .find(|&i| sh.nodes[(self.first + i) as usize].name == key)
            .ok_or_else(|| sh.error(self.group, format!("the schema has no field `{key}` here")))
    }

    /// Records field `i` as written; its node.
    fn mark(&mut self, sh: &mut Shredder, i: u32) -> Result<u32> {
        let f = self.first + i;
        if self.stamp == 0 {
            if i == self.cursor {
                self.cursor += 1;
                return Ok(f);
            }
            self.stamp = sh.next_stamp();
            for j in self.first..self.first + self.cursor {
                sh.nodes[j as usize].stamp = self.stamp;
            }
        }
        let n = &mut sh.nodes[f as usize];
        if n.stamp == self.stamp {
            return Err(sh.error(f, "the field is written twice"));
        }
        n.stamp = self.stamp;
        Ok(f)
    }

    /// The next field of a tuple.
    fn positional(&mut self, sh: &Shredder) -> Result<u32> {
        if self.cursor < self.len {
            self.cursor += 1;
            Ok(self.first + self.cursor - 1)
        } else {
            Err(sh.error(
                self.group,
                format!("more values than the {} fields of the group", self.len),
            ))
        }
    }

    /// The field named `name` (a key known only at run time), recorded as written: the
    /// next field when it has that name (fields usually come in schema order), else found
    /// by name.
    #[inline]
    pub(crate) fn field_named(&mut self, sh: &mut Shredder, name: &str) -> Result<u32> {
        if self.stamp == 0 && self.cursor < self.len {
            let f = self.first + self.cursor;
            if sh.nodes[f as usize].name == name {
                self.cursor += 1;
                return Ok(f);
            }
        }
        let i = self.find(sh, name)?;
        self.mark(sh, i)
    }

    /// Writes a null to every field not written (or fails for a required one).
    pub(crate) fn finish(&self, sh: &mut Shredder) -> Result<()> {
        let start = if self.stamp == 0 { self.cursor } else { 0 };
        for f in self.first + start..self.first + self.len {
            let n = &sh.nodes[f as usize];
            if self.stamp != 0 && n.stamp == self.stamp {
                continue;
            }
            if !n.optional {
                return Err(sh.error(f, "a required field is missing"));
            }
            let def = n.def - 1;
            sh.nulls(f, def, self.rep);
        }
        Ok(())
    }
}

// ---------------------------------------------------------------------------------------------
// Sequences

enum SeqMode {
    /// Elements of a LIST.
    List {
        list: u32,
        element: u32,
        entry_rep: i16,
    },
    /// Bytes of one BYTE_ARRAY / FIXED_LEN_BYTE_ARRAY value, collected from data length
    /// `start`.
    Bytes { node: u32, start: usize },
    /// Fields of a tuple group, in order.
    Fields(GroupCursor),
    /// The integer parts of a date, time or date-time of the `time` crate at a DATE, TIME
    /// or TIMESTAMP leaf (see `Shredder::put_civil`).
    Civil {
        node: u32,
        parts: [i64; 9],
        len: usize,
    },
}

/// Serializes a sequence or tuple.
pub(crate) struct SeqSer<'a> {
    sh: &'a mut Shredder,
    mode: SeqMode,
    rep: i16,
    count: u32,
}

impl SeqSer<'_> {
    #[inline]
    fn element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        match &mut self.mode {
            SeqMode::List {
                element, entry_rep, ..
            } => {
                let rep = if self.count == 0 {
                    self.rep
                } else {
                    *entry_rep
                };
                let element = *element;
                self.count += 1;
                super::variant::put_located(self.sh, element, rep, value)
            }
            SeqMode::Bytes { node, .. } => {
                let node = *node;
                match value.serialize(UInt) {
                    Ok(b) if b <= 255 => {
                        self.sh.push_seq_byte(node, b as u8);
                        Ok(())
                    }
                    _ => Err(self
                        .sh
                        .mismatch(node, "a sequence of values other than bytes")),
                }
            }
            SeqMode::Fields(cursor) => {
                let field = cursor.positional(self.sh)?;
                let rep = cursor.rep;
                super::variant::put_located(self.sh, field, rep, value)
            }
            SeqMode::Civil { node, parts, len } => {
                let node = *node;
                match (parts.get_mut(*len), value.serialize(Int)) {
                    (Some(slot), Ok(v)) => {
                        *slot = v;
                        *len += 1;
                        Ok(())
                    }
                    _ => Err(self
                        .sh
                        .mismatch(node, "a tuple other than a date or time's integer parts")),
                }
            }
        }
    }

    fn finish(self) -> Result<()> {
        match self.mode {
            SeqMode::List { list, .. } => {
                if self.count == 0 {
                    let def = self.sh.nodes[list as usize].def;
                    self.sh.nulls(list, def, self.rep);
                }
                Ok(())
            }
            SeqMode::Bytes { node, start } => self.sh.end_byte_seq(node, self.rep, start),
            SeqMode::Fields(cursor) => cursor.finish(self.sh),
            SeqMode::Civil { node, parts, len } => self.sh.put_civil(node, self.rep, &parts[..len]),
        }
    }
}

macro_rules! seq_impl {
    ($($tr:ident :: $method:ident),*) => {$(
        impl ser::$tr for SeqSer<'_> {
            type Ok = ();
            type Error = Error;

            #[inline]
            fn $method<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
                self.element(value)
            }

            #[inline]
            fn end(self) -> Result<()> {
                self.finish()
            }
        }
    )*};
}

seq_impl!(
    SerializeSeq::serialize_element,
    SerializeTuple::serialize_element,
    SerializeTupleStruct::serialize_field,
    SerializeTupleVariant::serialize_field
);

// ---------------------------------------------------------------------------------------------
// Maps

enum MapMode {
    /// Entries of a MAP (the value node is `key + 1`).
    Entries { map: u32, key: u32, entry_rep: i16 },
    /// Fields of a group keyed by name (a struct with `#[serde(flatten)]`).
    Fields(GroupCursor),
}

/// Serializes a map.
pub(crate) struct MapSer<'a> {
    sh: &'a mut Shredder,
    mode: MapMode,
    rep: i16,
    count: u32,
    /// Repetition level of the entry whose key was written.
    entry_rep: i16,
    /// The node the next value goes to, once its key is written.
    pending: Option<u32>,
}

impl ser::SerializeMap for MapSer<'_> {
    type Ok = ();
    type Error = Error;

    #[inline]
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<()> {
        if self.pending.is_some() {
            return Err(Error::data("a map key without its value"));
        }
        match &mut self.mode {
            MapMode::Entries {
                key: key_node,
                entry_rep,
                ..
            } => {
                let rep = if self.count == 0 {
                    self.rep
                } else {
                    *entry_rep
                };
                let key_node = *key_node;
                self.entry_rep = rep;
                key.serialize(At::new(self.sh, key_node, rep))
                    .map_err(|e| self.sh.locate(e, key_node))?;
                self.pending = Some(key_node + 1);
            }
            MapMode::Fields(cursor) => {
                let i = key.serialize(FieldKey {
                    sh: self.sh,
                    cursor,
                })?;
                self.entry_rep = cursor.rep;
                self.pending = Some(cursor.mark(self.sh, i)?);
            }
        }
        Ok(())
    }

    #[inline]
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        let node = self
            .pending
            .take()
            .ok_or_else(|| Error::data("a map value without a key"))?;
        self.count += 1;
        super::variant::put_located(self.sh, node, self.entry_rep, value)
    }

    #[inline]
    fn end(self) -> Result<()> {
        if let Some(node) = self.pending {
            return Err(self.sh.error(node, "a map key without its value"));
        }
        match self.mode {
            MapMode::Entries { map, .. } => {
                if self.count == 0 {
                    let def = self.sh.nodes[map as usize].def;
                    self.sh.nulls(map, def, self.rep);
                }
                Ok(())
            }
            MapMode::Fields(cursor) => cursor.finish(self.sh),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Structs

enum StructMode {
    /// Fields of a group.
    Fields(GroupCursor),
    /// serde's `SystemTime { secs_since_epoch, nanos_since_epoch }` at a TIMESTAMP leaf.
    SystemTime {
        node: u32,
        rep: i16,
        secs: Option<u64>,
        nanos: Option<u64>,
    },
}

/// Serializes a struct.
pub(crate) struct StructSer<'a> {
    sh: &'a mut Shredder,
    mode: StructMode,
}

impl StructSer<'_> {
    #[inline(always)]
    fn field<T: Serialize + ?Sized>(&mut self, key: &'static str, value: &T) -> Result<()> {
        match &mut self.mode {
            StructMode::Fields(cursor) => {
                let field = cursor.static_field(self.sh, key)?;
                let rep = cursor.rep;
                super::variant::put_located(self.sh, field, rep, value)
            }
            StructMode::SystemTime {
                node, secs, nanos, ..
            } => {
                let slot = match key {
                    "secs_since_epoch" => secs,
                    "nanos_since_epoch" => nanos,
                    _ => return Err(self.sh.mismatch(*node, "a struct other than SystemTime")),
                };
                *slot = Some(
                    value
                        .serialize(UInt)
                        .map_err(|_| self.sh.mismatch(*node, "a malformed SystemTime"))?,
                );
                Ok(())
            }
        }
    }

    fn skip(&mut self, key: &'static str) -> Result<()> {
        match &mut self.mode {
            StructMode::Fields(cursor) => {
                let field = cursor.static_field(self.sh, key)?;
                let rep = cursor.rep;
                self.sh.null_at(field, rep)
            }
            StructMode::SystemTime { node, .. } => {
                Err(self.sh.mismatch(*node, "a malformed SystemTime"))
            }
        }
    }

    fn finish(self) -> Result<()> {
        match self.mode {
            StructMode::Fields(cursor) => cursor.finish(self.sh),
            StructMode::SystemTime {
                node,
                rep,
                secs: Some(secs),
                nanos: Some(nanos),
            } if nanos < 1_000_000_000 => self.sh.put_system_time(node, rep, secs, nanos as u32),
            StructMode::SystemTime { node, .. } => {
                Err(self.sh.mismatch(node, "a malformed SystemTime"))
            }
        }
    }
}

macro_rules! struct_impl {
    ($($tr:ident),*) => {$(
        impl ser::$tr for StructSer<'_> {
            type Ok = ();
            type Error = Error;

            #[inline(always)]
            fn serialize_field<T: Serialize + ?Sized>(&mut self, key: &'static str, value: &T) -> Result<()> {
                self.field(key, value)
            }

            fn skip_field(&mut self, key: &'static str) -> Result<()> {
                self.skip(key)
            }

            #[inline]
            fn end(self) -> Result<()> {
                self.finish()
            }
        }
    )*};
}

struct_impl!(SerializeStruct, SerializeStructVariant);

// ---------------------------------------------------------------------------------------------
// Small serializers for parts of values

/// `Some`, newtype variants and containers, each failing with `self.reject()`.
macro_rules! reject_compound {
    () => {
        fn serialize_some<T: Serialize + ?Sized>(self, _: &T) -> Result<Self::Ok> {
            Err(self.reject())
        }
        fn serialize_newtype_variant<T: Serialize + ?Sized>(
            self,
            _: &'static str,
            _: u32,
            _: &'static str,
            _: &T,
        ) -> Result<Self::Ok> {
            Err(self.reject())
        }
        reject_containers!();
    };
}

/// Takes a non-negative integer (a byte of a byte sequence, a part of `SystemTime`).
struct UInt;

impl UInt {
    fn reject(&self) -> Error {
        Error::data("expected a non-negative integer")
    }

    fn signed(v: i64) -> Result<u64> {
        u64::try_from(v).map_err(|_| UInt.reject())
    }
}

impl ser::Serializer for UInt {
    type Ok = u64;
    type Error = Error;
    type SerializeSeq = Impossible<u64, Error>;
    type SerializeTuple = Impossible<u64, Error>;
    type SerializeTupleStruct = Impossible<u64, Error>;
    type SerializeTupleVariant = Impossible<u64, Error>;
    type SerializeMap = Impossible<u64, Error>;
    type SerializeStruct = Impossible<u64, Error>;
    type SerializeStructVariant = Impossible<u64, Error>;

    fn serialize_u8(self, v: u8) -> Result<u64> {
        Ok(v as u64)
    }
    fn serialize_u16(self, v: u16) -> Result<u64> {
        Ok(v as u64)
    }
    fn serialize_u32(self, v: u32) -> Result<u64> {
        Ok(v as u64)
    }
    fn serialize_u64(self, v: u64) -> Result<u64> {
        Ok(v)
    }
    fn serialize_i8(self, v: i8) -> Result<u64> {
        UInt::signed(v as i64)
    }
    fn serialize_i16(self, v: i16) -> Result<u64> {
        UInt::signed(v as i64)
    }
    fn serialize_i32(self, v: i32) -> Result<u64> {
        UInt::signed(v as i64)
    }
    fn serialize_i64(self, v: i64) -> Result<u64> {
        UInt::signed(v)
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        value: &T,
    ) -> Result<u64> {
        value.serialize(self)
    }

    reject!(
        serialize_bool(bool),
        serialize_f32(f32),
        serialize_f64(f64),
        serialize_char(char),
        serialize_str(&str),
        serialize_bytes(&[u8]),
        serialize_none(),
        serialize_unit(),
        serialize_unit_struct(&'static str),
        serialize_unit_variant(&'static str, u32, &'static str),
    );
    reject_compound!();
}

/// Takes any integer that fits an `i64` (a part of a `time` crate date or time).
struct Int;

impl Int {
    fn reject(&self) -> Error {
        Error::data("expected an integer")
    }
}

impl ser::Serializer for Int {
    type Ok = i64;
    type Error = Error;
    type SerializeSeq = Impossible<i64, Error>;
    type SerializeTuple = Impossible<i64, Error>;
    type SerializeTupleStruct = Impossible<i64, Error>;
    type SerializeTupleVariant = Impossible<i64, Error>;
    type SerializeMap = Impossible<i64, Error>;
    type SerializeStruct = Impossible<i64, Error>;
    type SerializeStructVariant = Impossible<i64, Error>;

    fn serialize_i8(self, v: i8) -> Result<i64> {
        Ok(v as i64)
    }
    fn serialize_i16(self, v: i16) -> Result<i64> {
        Ok(v as i64)
    }
    fn serialize_i32(self, v: i32) -> Result<i64> {
        Ok(v as i64)
    }
    fn serialize_i64(self, v: i64) -> Result<i64> {
        Ok(v)
    }
    fn serialize_u8(self, v: u8) -> Result<i64> {
        Ok(v as i64)
    }
    fn serialize_u16(self, v: u16) -> Result<i64> {
        Ok(v as i64)
    }
    fn serialize_u32(self, v: u32) -> Result<i64> {
        Ok(v as i64)
    }
    fn serialize_u64(self, v: u64) -> Result<i64> {
        i64::try_from(v).map_err(|_| self.reject())
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        value: &T,
    ) -> Result<i64> {
        value.serialize(self)
    }

    reject!(
        serialize_bool(bool),
        serialize_f32(f32),
        serialize_f64(f64),
        serialize_char(char),
        serialize_str(&str),
        serialize_bytes(&[u8]),
        serialize_none(),
        serialize_unit(),
        serialize_unit_struct(&'static str),
        serialize_unit_variant(&'static str, u32, &'static str),
    );
    reject_compound!();
}

/// Takes the key of a struct serialized as a map (a field name) and finds the field.
struct FieldKey<'b> {
    sh: &'b Shredder,
    cursor: &'b GroupCursor,
}

impl FieldKey<'_> {
    fn reject(&self) -> Error {
        self.sh.error(
            self.cursor.group,
            "a map key that is not a field name where a struct is expected",
        )
    }
}

impl ser::Serializer for FieldKey<'_> {
    type Ok = u32;
    type Error = Error;
    type SerializeSeq = Impossible<u32, Error>;
    type SerializeTuple = Impossible<u32, Error>;
    type SerializeTupleStruct = Impossible<u32, Error>;
    type SerializeTupleVariant = Impossible<u32, Error>;
    type SerializeMap = Impossible<u32, Error>;
    type SerializeStruct = Impossible<u32, Error>;
    type SerializeStructVariant = Impossible<u32, Error>;

    fn serialize_str(self, v: &str) -> Result<u32> {
        // Flattened fields arrive in schema order: try the next field first.
        let c = self.cursor;
        if c.stamp == 0
            && c.cursor < c.len
            && self.sh.nodes[(c.first + c.cursor) as usize].name == v
        {
            return Ok(c.cursor);
        }
        c.find(self.sh, v)
    }
    fn serialize_unit_variant(self, _: &'static str, _: u32, variant: &'static str) -> Result<u32> {
        self.serialize_str(variant)
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        value: &T,
    ) -> Result<u32> {
        value.serialize(self)
    }

    reject!(
        serialize_bool(bool),
        serialize_i8(i8),
        serialize_i16(i16),
        serialize_i32(i32),
        serialize_i64(i64),
        serialize_u8(u8),
        serialize_u16(u16),
        serialize_u32(u32),
        serialize_u64(u64),
        serialize_f32(f32),
        serialize_f64(f64),
        serialize_char(char),
        serialize_bytes(&[u8]),
        serialize_none(),
        serialize_unit(),
        serialize_unit_struct(&'static str),
    );
    reject_compound!();
}
