//! VARIANT: semi-structured values (VariantEncoding.md) and their serde mapping.
//!
//! - [`Variant`]: an owned value with every primitive type of the encoding;
//!   [`Variant::encode`] / [`Variant::decode`] to and from metadata and value bytes.
//! - [`VariantRef`]: a borrowed view over metadata and value bytes that decodes lazily
//!   ([`VariantRef::get`], [`VariantRef::index`], [`VariantRef::value`]) and checks every
//!   header, count, offset, id and length before using it; nesting is capped at
//!   [`MAX_DEPTH`]. [`Metadata`] is its checked dictionary.
//! - [`to_variant_bytes`] and [`VariantEncoder`]: any `T: Serialize` (a
//!   `serde_json::Value` too) straight to metadata and value bytes, without an owned tree
//!   (the fast path; the encoder reuses its buffers across values).
//!   [`json_to_variant_bytes`] and [`VariantEncoder::encode_json`] give the same bytes
//!   for a `serde_json::Value`, walking the tree without serde's `Serializer`.
//! - [`Dictionary`] and [`encode_value`]: encoding several values against one metadata.
//! - serde: [`to_variant`] serializes any `T: Serialize`, [`from_variant`] deserializes any
//!   `T: Deserialize`; `Variant` is itself `Serialize + Deserialize`; `serde_json::Value`
//!   converts both ways (`From`).
//!
//! ```
//! use parquet_serde::variant::{from_variant, to_variant, Variant};
//! let json = serde_json::json!({"status": 500, "path": "/api", "tags": ["a", "b"]});
//! let v = Variant::from(&json);
//! let (metadata, value) = v.encode();
//! let back = Variant::decode(&metadata, &value)?;
//! assert_eq!(serde_json::Value::from(&back), json);
//! let again: serde_json::Value = from_variant(&back)?;
//! assert_eq!(again, json);
//! assert_eq!(to_variant(&json)?, back);
//! # Ok::<(), parquet_serde::Error>(())
//! ```

pub(crate) mod blob;
mod de;
mod direct;
mod encode;
mod encoder;
mod intern;
mod json;
mod json_encoder;
mod key;
mod metadata;
mod ser;
mod serde_impl;
mod sort;
mod text;
mod to_json;
mod value;
mod view;

#[cfg(test)]
mod tests;

pub use de::{from_variant, from_variant_ref, VariantDeserializer};
pub use encode::encode_value;
pub(crate) use encoder::with_variant_bytes;
pub use encoder::{to_variant_bytes, VariantEncoder};
pub use json_encoder::json_to_variant_bytes;
pub use metadata::{Dictionary, Metadata};
pub use ser::{to_variant, VariantSerializer};
pub use value::Variant;
pub(crate) use view::value_size;
pub use view::{ArrayRef, ObjectRef, ValueRef, VariantRef, MAX_DEPTH};
