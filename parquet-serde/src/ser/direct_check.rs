//! The check that lets a row go the derive's direct way (see `direct.rs`): the row's own
//! `Serialize`, run through a serializer that writes nothing, must call `serialize_struct`
//! and then `serialize_field` once per field of the row group, in schema order, each with the
//! field's name, at the field's offset in the row and of the field's type, and no
//! `skip_field`.

use serde::ser::{self, Impossible, Serialize};

use super::plan::PlanNode;
use crate::reject::{reject, reject_containers};

/// What the check knows of one field: where the row's `Serialize` must hand it, and the
/// strings it last found right (serde's key, equal to the field's name, and the value's
/// `type_name`, equal to the field type's). Later rows hand the same static strings, which
/// are then compared by address and length only.
#[derive(Debug, Clone, Copy)]
pub(super) struct FieldCheck {
    /// Offset of the field in the row.
    offset: usize,
    /// `type_name` of the field's type.
    ty: &'static str,
    /// Address and length of the key and of the `type_name` last found right; `(0, 0)`
    /// before (no string is at address 0).
    seen_key: (usize, usize),
    seen_ty: (usize, usize),
}

impl FieldCheck {
    /// The check of a field at `offset` of type `ty` (a `type_name`).
    pub(super) fn new(offset: usize, ty: &'static str) -> Self {
        FieldCheck {
            offset,
            ty,
            seen_key: (0, 0),
            seen_ty: (0, 0),
        }
    }
}

/// Address and length of a string.
#[inline(always)]
fn parts(s: &str) -> (usize, usize) {
    (s.as_ptr() as usize, s.len())
}

/// Whether `row` hands exactly its fields to `serialize_field` (`checks`, the fields of the
/// group whose first field is node `first` in `nodes`).
#[inline]
pub(super) fn hands_its_fields<T: Serialize + ?Sized>(
    checks: &mut [FieldCheck],
    first: u32,
    nodes: &[PlanNode],
    row: &T,
) -> bool {
    let check = VerifyRow {
        checks,
        first,
        nodes,
        row: row as *const T as *const () as usize,
    };
    row.serialize(check).is_ok()
}

/// The row's `Serialize` did something other than hand over its fields.
#[derive(Debug)]
struct NotDirect;

impl std::fmt::Display for NotDirect {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("not the derive's fields")
    }
}

impl std::error::Error for NotDirect {}

impl ser::Error for NotDirect {
    fn custom<M: std::fmt::Display>(_: M) -> Self {
        NotDirect
    }
}

/// The result of the check's serializer (the name the `reject` macros write).
type Result<T> = std::result::Result<T, NotDirect>;

/// A serializer that writes nothing and accepts only a struct whose fields are the row
/// group's, in order, at the offsets in `row` and of the types of `checks`.
struct VerifyRow<'a> {
    checks: &'a mut [FieldCheck],
    first: u32,
    nodes: &'a [PlanNode],
    /// The row's address.
    row: usize,
}

impl VerifyRow<'_> {
    fn reject(&self) -> NotDirect {
        NotDirect
    }
}

/// The fields of the row, checked one by one.
struct VerifyFields<'a> {
    checks: &'a mut [FieldCheck],
    first: u32,
    nodes: &'a [PlanNode],
    row: usize,
    next: usize,
}

impl ser::SerializeStruct for VerifyFields<'_> {
    type Ok = ();
    type Error = NotDirect;

    #[inline(always)]
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<()> {
        let i = self.next;
        let Some(c) = self.checks.get_mut(i) else {
            return Err(NotDirect);
        };
        let given = std::any::type_name::<T>();
        let (k, g) = (parts(key), parts(given));
        let at = value as *const T as *const () as usize;
        // One test for the usual case: the value at the field's offset, with the key and
        // type name found right before (the same static strings).
        let differs = (at ^ self.row.wrapping_add(c.offset))
            | (k.0 ^ c.seen_key.0)
            | (k.1 ^ c.seen_key.1)
            | (g.0 ^ c.seen_ty.0)
            | (g.1 ^ c.seen_ty.1);
        if differs != 0 {
            if at != self.row.wrapping_add(c.offset) {
                return Err(NotDirect);
            }
            // Once per pair of strings: compare them.
            let node = self.first as usize + i;
            if self.nodes[node].name != key || c.ty != given {
                return Err(NotDirect);
            }
            c.seen_key = k;
            c.seen_ty = g;
        }
        self.next += 1;
        Ok(())
    }

    fn skip_field(&mut self, _key: &'static str) -> Result<()> {
        Err(NotDirect)
    }

    #[inline]
    fn end(self) -> Result<()> {
        if self.next == self.checks.len() {
            Ok(())
        } else {
            Err(NotDirect)
        }
    }
}

impl<'a> ser::Serializer for VerifyRow<'a> {
    type Ok = ();
    type Error = NotDirect;
    type SerializeSeq = Impossible<(), NotDirect>;
    type SerializeTuple = Impossible<(), NotDirect>;
    type SerializeTupleStruct = Impossible<(), NotDirect>;
    type SerializeTupleVariant = Impossible<(), NotDirect>;
    type SerializeMap = Impossible<(), NotDirect>;
    type SerializeStruct = VerifyFields<'a>;
    type SerializeStructVariant = Impossible<(), NotDirect>;

    reject!(
        serialize_bool(bool),
        serialize_i8(i8),
        serialize_i16(i16),
        serialize_i32(i32),
        serialize_i64(i64),
        serialize_i128(i128),
        serialize_u8(u8),
        serialize_u16(u16),
        serialize_u32(u32),
        serialize_u64(u64),
        serialize_u128(u128),
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
    reject_containers!(but_struct);

    fn serialize_some<T: Serialize + ?Sized>(self, _: &T) -> Result<()> {
        Err(self.reject())
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, _: &'static str, _: &T) -> Result<()> {
        Err(self.reject())
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<()> {
        Err(self.reject())
    }

    #[inline]
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<VerifyFields<'a>> {
        Ok(VerifyFields {
            checks: self.checks,
            first: self.first,
            nodes: self.nodes,
            row: self.row,
            next: 0,
        })
    }

    fn collect_str<T: std::fmt::Display + ?Sized>(self, _: &T) -> Result<()> {
        Err(self.reject())
    }

    fn is_human_readable(&self) -> bool {
        false
    }
}
