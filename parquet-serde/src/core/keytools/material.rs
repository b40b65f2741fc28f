//! Key material and key metadata: the flat JSON objects of parquet-java's and Arrow C++'s key
//! tools ("PKMT1", parquet key management tools version 1).
//!
//! Key material fields, in the order Arrow C++ writes them:
//! - `keyMaterialType`: `"PKMT1"`;
//! - `internalStorage`: `true`, only when the material sits inside the file's key metadata;
//! - `isFooterKey`: whether the material belongs to the footer key;
//! - `kmsInstanceID`, `kmsInstanceURL`: footer key material only;
//! - `masterKeyID`: the master key that wraps the data key (or its KEK);
//! - `wrappedDEK`: the wrapped data key (base64 text from the KMS, or of a local wrap);
//! - `doubleWrapping`: whether the DEK is wrapped by a KEK that the master key wraps;
//! - `keyEncryptionKeyID`, `wrappedKEK`: double wrapping only; the KEK id (base64 of 16 random
//!   bytes) and the KEK as the KMS wrapped it.
//!
//! Key metadata (the bytes stored in the file) is the key material itself with
//! `internalStorage: true`, or, for material kept in an external file,
//! `{"keyMaterialType":"PKMT1","internalStorage":false,"keyReference":"<id in the file>"}`.

use serde::ser::{SerializeMap, Serializer};
use serde_json::{Map, Value};

use crate::error::{Error, ErrorKind, Result};

/// The one key material type: "parquet key management tools, version 1".
pub const KEY_MATERIAL_TYPE: &str = "PKMT1";
/// Reference of the footer key's material in an external key material file.
pub const FOOTER_KEY_ID_IN_FILE: &str = "footerKey";
/// Prefix of column keys' references in an external key material file (`columnKey0`, ...).
pub const COLUMN_KEY_ID_IN_FILE_PREFIX: &str = "columnKey";

const TYPE_FIELD: &str = "keyMaterialType";
const INTERNAL_STORAGE_FIELD: &str = "internalStorage";
const KEY_REFERENCE_FIELD: &str = "keyReference";
const IS_FOOTER_KEY_FIELD: &str = "isFooterKey";
const KMS_INSTANCE_ID_FIELD: &str = "kmsInstanceID";
const KMS_INSTANCE_URL_FIELD: &str = "kmsInstanceURL";
const MASTER_KEY_ID_FIELD: &str = "masterKeyID";
const WRAPPED_DEK_FIELD: &str = "wrappedDEK";
const DOUBLE_WRAPPING_FIELD: &str = "doubleWrapping";
const KEK_ID_FIELD: &str = "keyEncryptionKeyID";
const WRAPPED_KEK_FIELD: &str = "wrappedKEK";

/// What a reader needs to recover one data encryption key (DEK) through a KMS.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyMaterial {
    /// Whether the material belongs to the footer key.
    pub is_footer_key: bool,
    /// KMS instance id (footer key material only).
    pub kms_instance_id: Option<String>,
    /// KMS instance URL (footer key material only).
    pub kms_instance_url: Option<String>,
    /// Id of the master key in the KMS.
    pub master_key_id: String,
    /// The wrapped DEK.
    pub wrapped_dek: String,
    /// KEK id and wrapped KEK in double wrapping mode; `None` in single wrapping mode, where
    /// the master key wraps the DEK directly.
    pub double_wrapping: Option<WrappedKek>,
}

/// The key encryption key part of double-wrapped key material.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WrappedKek {
    /// Base64 of the KEK id's bytes; the raw bytes are the AAD of the DEK's local wrap.
    pub kek_id: String,
    /// The KEK as the KMS wrapped it with the master key.
    pub wrapped_kek: String,
}

impl KeyMaterial {
    /// The JSON text, fields in Arrow C++'s order; `internal_storage` adds
    /// `"internalStorage":true` (material stored inside the file's key metadata).
    pub fn to_json(&self, internal_storage: bool) -> String {
        let mut out = Vec::with_capacity(256);
        let mut ser = serde_json::Serializer::new(&mut out);
        // Serializing strings and booleans into a Vec cannot fail.
        let mut map = ser.serialize_map(None).expect("json map into a Vec");
        let mut entry = |k: &str, v: Value| {
            map.serialize_entry(k, &v).expect("json entry into a Vec");
        };
        entry(TYPE_FIELD, KEY_MATERIAL_TYPE.into());
        if internal_storage {
            entry(INTERNAL_STORAGE_FIELD, true.into());
        }
        entry(IS_FOOTER_KEY_FIELD, self.is_footer_key.into());
        if self.is_footer_key {
            let id = self.kms_instance_id.as_deref().unwrap_or_default();
            let url = self.kms_instance_url.as_deref().unwrap_or_default();
            entry(KMS_INSTANCE_ID_FIELD, id.into());
            entry(KMS_INSTANCE_URL_FIELD, url.into());
        }
        entry(MASTER_KEY_ID_FIELD, self.master_key_id.as_str().into());
        entry(WRAPPED_DEK_FIELD, self.wrapped_dek.as_str().into());
        entry(DOUBLE_WRAPPING_FIELD, self.double_wrapping.is_some().into());
        if let Some(kek) = &self.double_wrapping {
            entry(KEK_ID_FIELD, kek.kek_id.as_str().into());
            entry(WRAPPED_KEK_FIELD, kek.wrapped_kek.as_str().into());
        }
        map.end().expect("json map into a Vec");
        // serde_json writes UTF-8.
        String::from_utf8(out).expect("serde_json output is UTF-8")
    }

    /// Parses key material JSON (as stored in an external key material file, or as internal
    /// key metadata). Fields parquet-java writes as strings (`"true"`) are accepted too.
    pub fn parse(json: &str) -> Result<Self> {
        let obj = parse_object(json, "key material")?;
        check_type(&obj)?;
        Self::from_object(&obj)
    }

    fn from_object(obj: &Map<String, Value>) -> Result<Self> {
        let is_footer_key = get_bool(obj, IS_FOOTER_KEY_FIELD)?;
        let (kms_instance_id, kms_instance_url) = if is_footer_key {
            (
                Some(get_str(obj, KMS_INSTANCE_ID_FIELD)?),
                Some(get_str(obj, KMS_INSTANCE_URL_FIELD)?),
            )
        } else {
            (None, None)
        };
        let master_key_id = get_str(obj, MASTER_KEY_ID_FIELD)?;
        let wrapped_dek = get_str(obj, WRAPPED_DEK_FIELD)?;
        let double_wrapping = if get_bool(obj, DOUBLE_WRAPPING_FIELD)? {
            Some(WrappedKek {
                kek_id: get_str(obj, KEK_ID_FIELD)?,
                wrapped_kek: get_str(obj, WRAPPED_KEK_FIELD)?,
            })
        } else {
            None
        };
        Ok(KeyMaterial {
            is_footer_key,
            kms_instance_id,
            kms_instance_url,
            master_key_id,
            wrapped_dek,
            double_wrapping,
        })
    }
}

/// The key metadata the key tools store in a file for one key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KeyMetadata {
    /// The key material itself (`internalStorage: true`).
    Internal(KeyMaterial),
    /// A reference to material in the external key material file (`internalStorage: false`).
    External {
        /// Id of the material in the file (`footerKey`, `columnKey0`, ...).
        key_reference: String,
    },
}

impl KeyMetadata {
    /// Parses the key metadata bytes of a file (UTF-8 JSON).
    pub fn parse(bytes: &[u8]) -> Result<Self> {
        let text = std::str::from_utf8(bytes).map_err(|e| {
            Error::new(ErrorKind::Crypto, "key metadata is not UTF-8").with_source(e)
        })?;
        let obj = parse_object(text, "key metadata")?;
        check_type(&obj)?;
        if get_bool(&obj, INTERNAL_STORAGE_FIELD)? {
            Ok(KeyMetadata::Internal(KeyMaterial::from_object(&obj)?))
        } else {
            Ok(KeyMetadata::External {
                key_reference: get_str(&obj, KEY_REFERENCE_FIELD)?,
            })
        }
    }

    /// The bytes to store in the file.
    pub fn to_bytes(&self) -> Vec<u8> {
        match self {
            KeyMetadata::Internal(m) => m.to_json(true).into_bytes(),
            KeyMetadata::External { key_reference } => {
                let mut out = Vec::with_capacity(96);
                let mut ser = serde_json::Serializer::new(&mut out);
                // Serializing strings and booleans into a Vec cannot fail.
                let mut map = ser.serialize_map(Some(3)).expect("json map into a Vec");
                map.serialize_entry(TYPE_FIELD, KEY_MATERIAL_TYPE)
                    .expect("json entry into a Vec");
                map.serialize_entry(INTERNAL_STORAGE_FIELD, &false)
                    .expect("json entry into a Vec");
                map.serialize_entry(KEY_REFERENCE_FIELD, key_reference)
                    .expect("json entry into a Vec");
                map.end().expect("json map into a Vec");
                out
            }
        }
    }
}

fn parse_object(text: &str, what: &str) -> Result<Map<String, Value>> {
    match serde_json::from_str::<Value>(text) {
        Ok(Value::Object(obj)) => Ok(obj),
        Ok(_) => Err(Error::new(
            ErrorKind::Crypto,
            format!("{what} is not a JSON object"),
        )),
        Err(e) => Err(
            Error::new(ErrorKind::Crypto, format!("{what} is not valid JSON: {e}")).with_source(e),
        ),
    }
}

fn check_type(obj: &Map<String, Value>) -> Result<()> {
    let t = get_str(obj, TYPE_FIELD)?;
    if t != KEY_MATERIAL_TYPE {
        return Err(Error::unsupported(format!(
            "key material type {t:?}: only {KEY_MATERIAL_TYPE} is supported"
        )));
    }
    Ok(())
}

fn get_str(obj: &Map<String, Value>, field: &str) -> Result<String> {
    match obj.get(field) {
        Some(Value::String(s)) => Ok(s.clone()),
        Some(_) => Err(Error::new(
            ErrorKind::Crypto,
            format!("key material field {field} is not a string"),
        )),
        None => Err(Error::new(
            ErrorKind::Crypto,
            format!("key material has no {field} field"),
        )),
    }
}

fn get_bool(obj: &Map<String, Value>, field: &str) -> Result<bool> {
    match obj.get(field) {
        Some(Value::Bool(b)) => Ok(*b),
        // parquet-java's key metadata once wrote booleans as strings.
        Some(Value::String(s)) if s.eq_ignore_ascii_case("true") => Ok(true),
        Some(Value::String(s)) if s.eq_ignore_ascii_case("false") => Ok(false),
        Some(_) => Err(Error::new(
            ErrorKind::Crypto,
            format!("key material field {field} is not a boolean"),
        )),
        None => Err(Error::new(
            ErrorKind::Crypto,
            format!("key material has no {field} field"),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn footer_material() -> KeyMaterial {
        KeyMaterial {
            is_footer_key: true,
            kms_instance_id: Some("DEFAULT".into()),
            kms_instance_url: Some("DEFAULT".into()),
            master_key_id: "kf".into(),
            wrapped_dek: "d2Rlaw==".into(),
            double_wrapping: Some(WrappedKek {
                kek_id: "a2lk".into(),
                wrapped_kek: "d2tlaw==".into(),
            }),
        }
    }

    #[test]
    fn footer_material_json_matches_arrow_layout() {
        assert_eq!(
            footer_material().to_json(true),
            r#"{"keyMaterialType":"PKMT1","internalStorage":true,"isFooterKey":true,"kmsInstanceID":"DEFAULT","kmsInstanceURL":"DEFAULT","masterKeyID":"kf","wrappedDEK":"d2Rlaw==","doubleWrapping":true,"keyEncryptionKeyID":"a2lk","wrappedKEK":"d2tlaw=="}"#
        );
    }

    #[test]
    fn column_single_wrapped_json() {
        let m = KeyMaterial {
            is_footer_key: false,
            kms_instance_id: Some("ignored for columns".into()),
            kms_instance_url: None,
            master_key_id: "kc1".into(),
            wrapped_dek: "eA==".into(),
            double_wrapping: None,
        };
        let json = m.to_json(false);
        assert_eq!(
            json,
            r#"{"keyMaterialType":"PKMT1","isFooterKey":false,"masterKeyID":"kc1","wrappedDEK":"eA==","doubleWrapping":false}"#
        );
        let back = KeyMaterial::parse(&json).unwrap();
        assert_eq!(back.kms_instance_id, None);
        assert_eq!(back.master_key_id, "kc1");
        assert_eq!(back.double_wrapping, None);
    }

    #[test]
    fn round_trips() {
        let m = footer_material();
        assert_eq!(KeyMaterial::parse(&m.to_json(false)).unwrap(), m);
        let meta = KeyMetadata::Internal(m.clone());
        assert_eq!(KeyMetadata::parse(&meta.to_bytes()).unwrap(), meta);
        let ext = KeyMetadata::External {
            key_reference: "columnKey3".into(),
        };
        assert_eq!(
            ext.to_bytes(),
            br#"{"keyMaterialType":"PKMT1","internalStorage":false,"keyReference":"columnKey3"}"#
        );
        assert_eq!(KeyMetadata::parse(&ext.to_bytes()).unwrap(), ext);
    }

    #[test]
    fn parses_java_material() {
        // From parquet-testing's _KEY_MATERIAL_FOR_external_key_material_java.parquet.encrypted.json
        // (parquet-java writes a HashMap: any field order).
        let j = r#"{"masterKeyID":"kc2","wrappedDEK":"cTH8VFwBMb+3u0r7XJrcjxPu1agMZ7gXWeo8WX6nKFVWpRWsgSLlJSIBo+w=","keyEncryptionKeyID":"wxefHIzuJo6FH93Gqrc8OQ==","doubleWrapping":true,"isFooterKey":false,"keyMaterialType":"PKMT1","wrappedKEK":"ImQvItflZylrO0xon5ydb76OTbQgaL8iLSkBoyQ0h2FdoBbh9saOtNsdP2E="}"#;
        let m = KeyMaterial::parse(j).unwrap();
        assert!(!m.is_footer_key);
        assert_eq!(m.master_key_id, "kc2");
        assert_eq!(
            m.double_wrapping.unwrap().kek_id,
            "wxefHIzuJo6FH93Gqrc8OQ=="
        );
        // Old parquet-java key metadata with string booleans.
        let m = KeyMetadata::parse(
            br#"{"keyMaterialType":"PKMT1","internalStorage":"false","keyReference":"footerKey"}"#,
        )
        .unwrap();
        assert_eq!(
            m,
            KeyMetadata::External {
                key_reference: "footerKey".into()
            }
        );
    }

    #[test]
    fn bad_metadata_is_an_error() {
        let cases: &[&[u8]] = &[
            b"",
            b"kf",
            b"\xff\xfe",
            b"[]",
            b"{}",
            br#"{"keyMaterialType":"PKMT2","internalStorage":false,"keyReference":"x"}"#,
            br#"{"keyMaterialType":"PKMT1","keyReference":"x"}"#,
            br#"{"keyMaterialType":"PKMT1","internalStorage":false}"#,
            br#"{"keyMaterialType":"PKMT1","internalStorage":1,"keyReference":"x"}"#,
            br#"{"keyMaterialType":"PKMT1","internalStorage":true,"isFooterKey":true,"masterKeyID":"kf","wrappedDEK":"x","doubleWrapping":false}"#,
            br#"{"keyMaterialType":"PKMT1","internalStorage":true,"isFooterKey":false,"masterKeyID":"kf","wrappedDEK":"x","doubleWrapping":true}"#,
            br#"{"keyMaterialType":"PKMT1","internalStorage":true,"isFooterKey":false,"masterKeyID":7,"wrappedDEK":"x","doubleWrapping":false}"#,
        ];
        for c in cases {
            assert!(
                KeyMetadata::parse(c).is_err(),
                "{}",
                String::from_utf8_lossy(c)
            );
        }
        // Every truncation of valid metadata fails without panicking.
        let full = KeyMetadata::Internal(footer_material()).to_bytes();
        for n in 0..full.len() {
            assert!(KeyMetadata::parse(&full[..n]).is_err());
        }
    }
}

/// The examples that were doc tests while these items were public.
#[cfg(test)]
mod doc_examples {
    #[test]
    fn parse_example() {
        use crate::core::keytools::material::KeyMetadata;
        let m = KeyMetadata::parse(
            br#"{"keyMaterialType":"PKMT1","internalStorage":false,"keyReference":"footerKey"}"#,
        )
        .unwrap();
        assert_eq!(
            m,
            KeyMetadata::External {
                key_reference: "footerKey".into()
            }
        );
    }
}
