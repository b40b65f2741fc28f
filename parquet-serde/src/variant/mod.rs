//! VARIANT: semi-structured values (VariantEncoding.md) and their serde mapping.
//!
//! [`Variant`] is the one owned value type of a VARIANT column: a field of type `Variant`
//! (or any serde type with `#[parquet(variant)]`) is stored as one. Which to use when:
//!
//! | I want to | use |
//! |---|---|
//! | a `Variant` from any `T: Serialize` (a `serde_json::Value` too) | [`to_variant`] |
//! | a `T: Deserialize` from a `Variant` | [`from_variant`] |
//! | a `Variant` from / to JSON | [`Variant::from_json`], [`Variant::to_json`] (and `From` both ways) |
//! | Variant bytes (metadata and value) from any `T: Serialize` or JSON value | [`to_variant_bytes`] (no owned tree is built) |
//! | Variant bytes from a `Variant` | [`Variant::encode`] |
//! | a `Variant` from metadata and value bytes (checked: hostile bytes give an error) | [`Variant::decode`] |
//!
//! `Variant` is itself `Serialize + Deserialize`.
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
// The JSON walkers, the reusable encoder and the borrowed view's extra methods serve the
// benches and fuzz targets (`internals`) and the unit tests; the library uses the rest.
#[cfg_attr(not(feature = "internals"), allow(dead_code))]
mod encoder;
mod intern;
mod json;
#[cfg_attr(not(feature = "internals"), allow(dead_code))]
mod json_encoder;
mod key;
#[cfg_attr(not(feature = "internals"), allow(dead_code))]
mod metadata;
mod ser;
mod serde_impl;
mod sort;
mod text;
#[cfg_attr(not(feature = "internals"), allow(dead_code))]
mod to_json;
mod value;
#[cfg_attr(not(feature = "internals"), allow(dead_code))]
mod view;

#[cfg(test)]
mod tests;

pub use de::from_variant;
pub(crate) use de::VariantDeserializer;
pub(crate) use encode::encode_value;
pub use encoder::to_variant_bytes;
pub(crate) use encoder::with_variant_bytes;
pub(crate) use metadata::{Dictionary, Metadata};
pub use ser::to_variant;
pub use value::Variant;
pub(crate) use view::value_size;
pub(crate) use view::{ValueRef, VariantRef, MAX_DEPTH};

/// The encoding kernels benches and the fuzz targets measure: not API.
#[cfg(feature = "internals")]
pub(crate) mod kernels {
    pub use super::encoder::VariantEncoder;
    pub use super::json_encoder::json_to_variant_bytes;
    pub use super::metadata::{Dictionary, Metadata};
    pub use super::view::{ArrayRef, ObjectRef, ValueRef, VariantRef};
}
