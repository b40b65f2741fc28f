//! [`VariantEncoder::encode_json`] and [`json_to_variant_bytes`]: a `serde_json::Value`
//! straight to Variant bytes by walking the tree itself (no serde `Serializer` call per
//! node, no key serializer: map keys are `&str` already). The bytes are those of
//! [`to_variant_bytes`](super::to_variant_bytes) on the same value, which the tests check.

use serde_json::Value as Json;

use crate::error::Result;

use super::direct::{deeper, int, primitive, wide};
use super::encode::encode_str;
use super::encoder::{with_encoder, VariantEncoder};

/// Encodes a JSON value as Variant metadata and value bytes: what
/// [`to_variant_bytes`](super::to_variant_bytes) gives for it, faster (see
/// [`VariantEncoder::encode_json`]).
///
/// ```
/// use parquet_serde::__internals::variant::{json_to_variant_bytes, VariantRef};
/// let json = serde_json::json!({"level": "warn", "tags": ["a", "b"]});
/// let (metadata, value) = json_to_variant_bytes(&json)?;
/// assert_eq!(VariantRef::new(&metadata, &value)?.to_json()?, json);
/// # Ok::<(), parquet_serde::Error>(())
/// ```
pub fn json_to_variant_bytes(value: &Json) -> Result<(Vec<u8>, Vec<u8>)> {
    with_encoder(|enc| {
        enc.encode_json(value)
            .map(|(m, v)| (m.to_vec(), v.to_vec()))
    })
}

impl VariantEncoder {
    /// Appends the value bytes of `j`, which has `depth` containers around it.
    pub(super) fn json(&mut self, j: &Json, depth: usize) -> Result<()> {
        let out = &mut self.value;
        match j {
            Json::Null => out.push(0),
            Json::Bool(b) => out.push(if *b { 1 << 2 } else { 2 << 2 }),
            Json::Number(n) => {
                // As `Number`'s `Serialize` hands them over: i64, u64 (beyond i64 a
                // decimal16), else f64.
                if let Some(i) = n.as_i64() {
                    int(out, i);
                } else if let Some(u) = n.as_u64() {
                    wide(out, u.into())?;
                } else {
                    primitive(out, 7, &n.as_f64().unwrap_or(f64::NAN).to_le_bytes());
                }
            }
            Json::String(s) => encode_str(s, out)?,
            Json::Array(items) => {
                let depth = deeper(depth)?;
                let start = self.value.len();
                let base = self.offsets.len();
                self.offsets.reserve(items.len().min(4096));
                for item in items {
                    self.offsets.push(self.value.len() - start);
                    self.json(item, depth)?;
                }
                self.finish_array(start, base)?;
            }
            Json::Object(fields) => {
                let depth = deeper(depth)?;
                let start = self.value.len();
                let base = self.fields.len();
                for (name, item) in fields {
                    let id = self.names.intern(name);
                    self.push_field(id, self.value.len() - start);
                    self.json(item, depth)?;
                }
                self.finish_object(start, base)?;
            }
        }
        Ok(())
    }
}
