//! The assembler side of `#[parquet(assemble)]` (see `parquet-derive/src/assemble.rs`).
//!
//! A struct that opts in gets its `Deserialize` from the derive, generated from the same
//! attributes as its schema. That impl registers its field list (`FIELDS`, the `&'static`
//! list it hands to `deserialize_struct`) here with the field each name stands for. A struct
//! plan made for that very list (same address) then hands each field to the visitor as its
//! index (`visit_u64`), which the generated field identifier maps by one jump, instead of the
//! field's name, which serde's identifier compares against every name. Everything else is
//! the serde path unchanged: the same values, conversions, levels, errors and locations.
//!
//! Why this is exact: the index handed for a name is the one the generated identifier maps
//! that name to (both come from one list the derive wrote); it is used only for the list the
//! registration names, which only the generated impl can pass (it is a private `static` of
//! the expansion). Any other `Deserialize` (a serde derive, a hand-written impl, the same
//! names at another address) gets names, as before.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::RwLock;

use serde::de::{self, Deserialize, Deserializer, Visitor};

/// A registered field list: `index[k]` is the field (its position among the deserialized
/// fields, as the generated identifier's `visit_u64` counts) that `fields[k]` names.
#[doc(hidden)]
#[derive(Debug)]
pub struct FieldIndex {
    fields: &'static [&'static str],
    index: &'static [u32],
    registered: AtomicBool,
}

impl FieldIndex {
    /// The entry of a generated `Deserialize`.
    pub const fn new(fields: &'static [&'static str], index: &'static [u32]) -> Self {
        FieldIndex {
            fields,
            index,
            registered: AtomicBool::new(false),
        }
    }
}

/// Every registered list (a handful per program: one per opted-in struct that was read).
static REGISTRY: RwLock<Vec<&'static FieldIndex>> = RwLock::new(Vec::new());

/// Registers `entry` (once; later calls cost one atomic load).
#[doc(hidden)]
#[inline]
pub fn register(entry: &'static FieldIndex) {
    if entry.registered.load(Ordering::Acquire) {
        return;
    }
    register_slow(entry);
}

#[cold]
fn register_slow(entry: &'static FieldIndex) {
    // A poisoned lock only means a panic elsewhere while pushing: the list is still whole.
    let mut list = REGISTRY.write().unwrap_or_else(|e| e.into_inner());
    if entry.fields.len() == entry.index.len() && !list.iter().any(|e| std::ptr::eq(*e, entry)) {
        list.push(entry);
    }
    entry.registered.store(true, Ordering::Release);
}

/// The field indexes of `fields` when a generated `Deserialize` registered that very list
/// (same address and length), one per name.
pub(crate) fn indexes_of(fields: &'static [&'static str]) -> Option<&'static [u32]> {
    let list = REGISTRY.read().unwrap_or_else(|e| e.into_inner());
    list.iter()
        .find(|e| {
            std::ptr::eq(e.fields.as_ptr(), fields.as_ptr()) && e.fields.len() == fields.len()
        })
        .map(|e| e.index)
}

/// What serde's derive gives a field the input lacks (serde's private `missing_field`):
/// `None` for an `Option`, else the error `missing field`.
#[doc(hidden)]
pub fn missing_field<'de, V: Deserialize<'de>, E: de::Error>(field: &'static str) -> Result<V, E> {
    V::deserialize(Missing::<E>(field, std::marker::PhantomData))
}

/// The deserializer of a missing field.
struct Missing<E>(&'static str, std::marker::PhantomData<E>);

impl<'de, E: de::Error> Deserializer<'de> for Missing<E> {
    type Error = E;

    fn deserialize_any<V: Visitor<'de>>(self, _visitor: V) -> Result<V::Value, E> {
        Err(E::missing_field(self.0))
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, E> {
        visitor.visit_none()
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf unit unit_struct newtype_struct seq tuple
        tuple_struct map struct enum identifier ignored_any
    }
}

/// A field handed as its index.
pub(crate) struct IndexDe(pub u32);

impl<'de> Deserializer<'de> for IndexDe {
    type Error = super::error::DeError;

    #[inline]
    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        visitor.visit_u64(u64::from(self.0))
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple
        tuple_struct map struct enum identifier ignored_any
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    static FIELDS: [&str; 3] = ["a", "b", "c"];
    static SAME_NAMES: [&str; 3] = ["a", "b", "c"];
    static ENTRY: FieldIndex = FieldIndex::new(&FIELDS, &[0, 0, 1]);
    static BAD: [&str; 2] = ["x", "y"];
    static BAD_ENTRY: FieldIndex = FieldIndex::new(&BAD, &[0]);

    #[test]
    fn found_by_address_only() {
        assert!(indexes_of(&FIELDS).is_none());
        register(&ENTRY);
        register(&ENTRY);
        assert_eq!(indexes_of(&FIELDS), Some(&[0u32, 0, 1][..]));
        // The same names at another address are another type's list.
        assert!(indexes_of(&SAME_NAMES).is_none());
        let count = REGISTRY
            .read()
            .unwrap()
            .iter()
            .filter(|e| std::ptr::eq(**e, &ENTRY))
            .count();
        assert_eq!(count, 1);
    }

    #[test]
    fn a_list_whose_lengths_differ_is_not_used() {
        register(&BAD_ENTRY);
        assert!(indexes_of(&BAD).is_none());
    }

    /// An assembled struct and the same struct through serde's derive.
    #[derive(Debug, PartialEq, serde::Serialize, crate::ParquetSchema)]
    #[parquet(crate = "crate", assemble)]
    struct Assembled {
        #[serde(alias = "aa")]
        a: i64,
        b: Option<String>,
        #[serde(skip)]
        c: i32,
    }

    #[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize, crate::ParquetSchema)]
    #[parquet(crate = "crate")]
    struct Derived {
        #[serde(alias = "aa")]
        a: i64,
        b: Option<String>,
    }

    /// The root plan of rows of `T` in `bytes`.
    fn root_keys<T: serde::de::DeserializeOwned>(bytes: &[u8]) -> Vec<Option<Vec<u32>>> {
        let file = crate::core::file::FileReader::new(bytes).unwrap();
        let asm = super::super::rows::Assembly::new::<T, &str>(file.schema(), &[]).unwrap();
        asm.tree
            .plans_of(super::super::tree::ROOT)
            .iter()
            .map(|p| p.keys.clone())
            .collect()
    }

    #[test]
    fn assembled_fields_go_by_index_serde_derived_by_name() {
        let rows = vec![Assembled {
            a: 1,
            b: Some("x".into()),
            c: 0,
        }];
        let bytes = crate::to_vec(&rows).unwrap();
        // FIELDS is ["a", "aa", "b"]: the file has `a` and `b`, fields 0 and 1.
        assert_eq!(root_keys::<Assembled>(&bytes), [Some(vec![0, 1])]);
        assert_eq!(root_keys::<Derived>(&bytes), [None]);
        assert_eq!(crate::from_slice::<Assembled>(&bytes).unwrap(), rows);
        assert_eq!(
            crate::from_slice::<Derived>(&bytes).unwrap(),
            [Derived {
                a: 1,
                b: Some("x".into())
            }]
        );
    }

    #[test]
    fn missing_is_none_for_options_and_an_error_else() {
        let v: Result<Option<i64>, de::value::Error> = missing_field("f");
        assert_eq!(v.unwrap(), None);
        let v: Result<i64, de::value::Error> = missing_field("f");
        assert_eq!(v.unwrap_err().to_string(), "missing field `f`");
    }
}
