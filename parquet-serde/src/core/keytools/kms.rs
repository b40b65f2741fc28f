//! KMS clients: the trait a key management service implements, its connection settings, and
//! two local-wrapping clients for tests and simple deployments.

use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, Mutex};

use serde::ser::{SerializeMap, Serializer};
use serde_json::Value;

use super::local_wrap::{decode_base64, decrypt_key_locally, encrypt_key_locally};
use crate::error::{Error, ErrorKind, Result};

/// Default KMS instance id, URL and key access token (`"DEFAULT"`), as in parquet-java and
/// Arrow C++.
pub const KMS_DEFAULT: &str = "DEFAULT";

/// A key management service: wraps (encrypts) and unwraps keys with master keys it holds.
///
/// The key tools ask it to wrap data keys (single wrapping) or key encryption keys (double
/// wrapping). The wrapped form is the client's own text; it is stored in the key material.
pub trait KmsClient: Send + Sync {
    /// Wraps `key` with the master key `master_key_id`.
    fn wrap_key(&self, key: &[u8], master_key_id: &str) -> Result<String>;
    /// Unwraps a key that [`wrap_key`](KmsClient::wrap_key) wrapped with `master_key_id`.
    fn unwrap_key(&self, wrapped: &str, master_key_id: &str) -> Result<Vec<u8>>;
}

/// How to reach a KMS: passed to the client factory, and used as cache keys (the access token
/// selects the per-token caches, the instance id the KMS client).
#[derive(Clone, Default, PartialEq, Eq)]
pub struct KmsConnectionConfig {
    /// KMS instance id; empty means `"DEFAULT"` when writing, and the id stored in the
    /// footer key material when reading.
    pub kms_instance_id: String,
    /// KMS instance URL; empty means `"DEFAULT"` when writing, and the URL stored in the
    /// footer key material when reading.
    pub kms_instance_url: String,
    /// Authorization token for the KMS; empty means `"DEFAULT"`.
    pub key_access_token: String,
    /// Free-form settings for the client factory.
    pub custom_kms_conf: HashMap<String, String>,
}

impl fmt::Debug for KmsConnectionConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // The access token is a secret: never printed.
        f.debug_struct("KmsConnectionConfig")
            .field("kms_instance_id", &self.kms_instance_id)
            .field("kms_instance_url", &self.kms_instance_url)
            .field("key_access_token", &"<hidden>")
            .field("custom_kms_conf", &self.custom_kms_conf.keys())
            .finish()
    }
}

impl KmsConnectionConfig {
    /// The access token, or `"DEFAULT"` when empty.
    pub fn access_token(&self) -> &str {
        if self.key_access_token.is_empty() {
            KMS_DEFAULT
        } else {
            &self.key_access_token
        }
    }
}

/// Creates a KMS client for a connection; [`CryptoFactory`](super::CryptoFactory) caches the
/// clients per access token and KMS instance id.
pub type KmsClientFactory =
    Arc<dyn Fn(&KmsConnectionConfig) -> Result<Arc<dyn KmsClient>> + Send + Sync>;

/// A KMS that keeps master keys in memory and wraps keys with AES-GCM, the master key id
/// (UTF-8) as AAD, as base64 text: the wrapping of parquet-java's test `InMemoryKMS` and of
/// Arrow C++'s `TestOnlyInServerWrapKms`. For tests and examples: real deployments keep
/// master keys in a KMS.
///
/// ```
/// use parquet_serde::core::keytools::{InMemoryKms, KmsClient};
/// let kms = InMemoryKms::new([("kf", b"0123456789012345".to_vec())]).unwrap();
/// let wrapped = kms.wrap_key(&[7u8; 16], "kf").unwrap();
/// assert_eq!(kms.unwrap_key(&wrapped, "kf").unwrap(), [7u8; 16]);
/// assert!(kms.unwrap_key(&wrapped, "other").is_err());
/// ```
#[derive(Clone)]
pub struct InMemoryKms {
    master_keys: HashMap<String, Vec<u8>>,
}

impl fmt::Debug for InMemoryKms {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut ids: Vec<&String> = self.master_keys.keys().collect();
        ids.sort();
        f.debug_struct("InMemoryKms")
            .field("master_key_ids", &ids)
            .finish()
    }
}

impl InMemoryKms {
    /// A KMS holding `master_keys` (id, AES key of 16, 24 or 32 bytes).
    pub fn new<I, S>(master_keys: I) -> Result<Self>
    where
        I: IntoIterator<Item = (S, Vec<u8>)>,
        S: Into<String>,
    {
        let mut map = HashMap::new();
        for (id, key) in master_keys {
            let id = id.into();
            check_master_key(&id, &key)?;
            map.insert(id, key);
        }
        Ok(InMemoryKms { master_keys: map })
    }

    /// A KMS from parquet-java's `parquet.encryption.key.list` form:
    /// `"id1: base64key1, id2: base64key2"`.
    ///
    /// ```
    /// use parquet_serde::core::keytools::InMemoryKms;
    /// let kms = InMemoryKms::from_key_list("kf: MDEyMzQ1Njc4OTAxMjM0NQ==, kc1: MTIzNDU2Nzg5MDEyMzQ1MA==")
    ///     .unwrap();
    /// assert_eq!(kms.master_key("kc1"), Some(&b"1234567890123450"[..]));
    /// ```
    pub fn from_key_list(list: &str) -> Result<Self> {
        let mut keys = Vec::new();
        for item in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let Some((id, key)) = item.split_once(':') else {
                return Err(Error::invalid_argument(format!(
                    "master key list entry {:?} is not `id: base64 key`",
                    item.split(':').next().unwrap_or_default()
                )));
            };
            let key = decode_base64(key.trim(), "master key").map_err(|e| {
                Error::invalid_argument(format!("master key {}: {}", id.trim(), e.message()))
            })?;
            keys.push((id.trim().to_string(), key));
        }
        if keys.is_empty() {
            return Err(Error::invalid_argument("empty master key list"));
        }
        Self::new(keys)
    }

    /// The master key `id`, if held.
    pub fn master_key(&self, id: &str) -> Option<&[u8]> {
        self.master_keys.get(id).map(Vec::as_slice)
    }

    fn key(&self, id: &str) -> Result<&[u8]> {
        self.master_key(id).ok_or_else(|| {
            Error::new(
                ErrorKind::Crypto,
                format!("master key {id:?} not found in the KMS"),
            )
        })
    }
}

impl KmsClient for InMemoryKms {
    fn wrap_key(&self, key: &[u8], master_key_id: &str) -> Result<String> {
        encrypt_key_locally(key, self.key(master_key_id)?, master_key_id.as_bytes())
    }

    fn unwrap_key(&self, wrapped: &str, master_key_id: &str) -> Result<Vec<u8>> {
        decrypt_key_locally(wrapped, self.key(master_key_id)?, master_key_id.as_bytes())
            .map_err(|e| e.context(format_args!("unwrapping with master key {master_key_id}")))
    }
}

/// Fetches a master key's bytes from a KMS server, for [`LocalWrapKmsClient`].
pub type MasterKeySource = Arc<dyn Fn(&str) -> Result<Vec<u8>> + Send + Sync>;

/// A client that fetches master keys from a KMS once (then caches them) and wraps keys
/// locally, as parquet-java's and Arrow C++'s `LocalWrapKmsClient`: AES-GCM with the master
/// key id as AAD, the result kept in the JSON
/// `{"masterKeyVersion":"NO_VERSION","encryptedKey":"<base64>"}`.
pub struct LocalWrapKmsClient {
    source: MasterKeySource,
    cache: Mutex<HashMap<String, Vec<u8>>>,
}

impl fmt::Debug for LocalWrapKmsClient {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("LocalWrapKmsClient")
    }
}

const LOCAL_WRAP_VERSION_FIELD: &str = "masterKeyVersion";
const LOCAL_WRAP_KEY_FIELD: &str = "encryptedKey";
const LOCAL_WRAP_NO_VERSION: &str = "NO_VERSION";

impl LocalWrapKmsClient {
    /// A client whose master keys come from `source` (called once per master key id).
    pub fn new(source: impl Fn(&str) -> Result<Vec<u8>> + Send + Sync + 'static) -> Self {
        LocalWrapKmsClient {
            source: Arc::new(source),
            cache: Mutex::new(HashMap::new()),
        }
    }

    fn master_key(&self, id: &str) -> Result<Vec<u8>> {
        // A poisoned lock only means another thread panicked mid-insert; the map is intact.
        let mut cache = self.cache.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(k) = cache.get(id) {
            return Ok(k.clone());
        }
        let key = (self.source)(id)?;
        check_master_key(id, &key)?;
        cache.insert(id.to_string(), key.clone());
        Ok(key)
    }
}

impl KmsClient for LocalWrapKmsClient {
    fn wrap_key(&self, key: &[u8], master_key_id: &str) -> Result<String> {
        let master = self.master_key(master_key_id)?;
        let encrypted = encrypt_key_locally(key, &master, master_key_id.as_bytes())?;
        let mut out = Vec::with_capacity(encrypted.len() + 48);
        let mut ser = serde_json::Serializer::new(&mut out);
        // Serializing strings into a Vec cannot fail.
        let mut map = ser.serialize_map(Some(2)).expect("json map into a Vec");
        map.serialize_entry(LOCAL_WRAP_VERSION_FIELD, LOCAL_WRAP_NO_VERSION)
            .expect("json entry into a Vec");
        map.serialize_entry(LOCAL_WRAP_KEY_FIELD, &encrypted)
            .expect("json entry into a Vec");
        map.end().expect("json map into a Vec");
        Ok(String::from_utf8(out).expect("serde_json output is UTF-8"))
    }

    fn unwrap_key(&self, wrapped: &str, master_key_id: &str) -> Result<Vec<u8>> {
        let bad = |m: &str| Error::new(ErrorKind::Crypto, format!("local key wrap: {m}"));
        let obj = match serde_json::from_str::<Value>(wrapped) {
            Ok(Value::Object(o)) => o,
            _ => return Err(bad("not a JSON object")),
        };
        match obj.get(LOCAL_WRAP_VERSION_FIELD) {
            Some(Value::String(v)) if v == LOCAL_WRAP_NO_VERSION => {}
            Some(Value::String(v)) => {
                return Err(Error::unsupported(format!(
                    "master key versions are not supported in local wrapping: {v}"
                )))
            }
            _ => return Err(bad("no masterKeyVersion")),
        }
        let Some(Value::String(encrypted)) = obj.get(LOCAL_WRAP_KEY_FIELD) else {
            return Err(bad("no encryptedKey"));
        };
        let master = self.master_key(master_key_id)?;
        decrypt_key_locally(encrypted, &master, master_key_id.as_bytes())
    }
}

fn check_master_key(id: &str, key: &[u8]) -> Result<()> {
    match key.len() {
        16 | 24 | 32 => Ok(()),
        n => Err(Error::invalid_argument(format!(
            "master key {id:?} has {} bits; master keys have 128, 192 or 256",
            n * 8
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn in_memory_round_trip_and_errors() {
        let kms = InMemoryKms::new([
            ("kf", b"0123456789012345".to_vec()),
            ("k256", vec![3u8; 32]),
        ])
        .unwrap();
        for id in ["kf", "k256"] {
            let w = kms.wrap_key(&[9u8; 24], id).unwrap();
            assert_eq!(kms.unwrap_key(&w, id).unwrap(), [9u8; 24]);
        }
        let w = kms.wrap_key(&[9u8; 16], "kf").unwrap();
        assert_eq!(
            kms.unwrap_key(&w, "k256").unwrap_err().kind(),
            ErrorKind::Crypto
        );
        assert_eq!(
            kms.wrap_key(&[1; 16], "nope").unwrap_err().kind(),
            ErrorKind::Crypto
        );
        assert!(InMemoryKms::new([("bad", vec![1u8; 15])]).is_err());
        assert!(format!("{kms:?}").contains("k256"));
        assert!(!format!("{kms:?}").contains("0123"));
    }

    #[test]
    fn key_list() {
        let kms = InMemoryKms::from_key_list(
            " kf : MDEyMzQ1Njc4OTAxMjM0NQ==,kc1:MTIzNDU2Nzg5MDEyMzQ1MA== , ",
        )
        .unwrap();
        assert_eq!(kms.master_key("kf"), Some(&b"0123456789012345"[..]));
        assert_eq!(kms.master_key("kc1"), Some(&b"1234567890123450"[..]));
        for bad in ["", "kf", "kf:!!", "kf:AAAA"] {
            assert!(InMemoryKms::from_key_list(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn local_wrap_json_form() {
        let calls = Arc::new(Mutex::new(0));
        let c = calls.clone();
        let client = LocalWrapKmsClient::new(move |id| {
            *c.lock().unwrap() += 1;
            match id {
                "kf" => Ok(b"0123456789012345".to_vec()),
                _ => Err(Error::new(ErrorKind::Crypto, "no such key")),
            }
        });
        let w = client.wrap_key(&[4u8; 16], "kf").unwrap();
        assert!(w.starts_with(r#"{"masterKeyVersion":"NO_VERSION","encryptedKey":""#));
        assert_eq!(client.unwrap_key(&w, "kf").unwrap(), [4u8; 16]);
        assert_eq!(*calls.lock().unwrap(), 1, "master key cached");
        // The encrypted key inside is an InMemoryKms wrap.
        let v: Value = serde_json::from_str(&w).unwrap();
        let inner = v["encryptedKey"].as_str().unwrap();
        let kms = InMemoryKms::new([("kf", b"0123456789012345".to_vec())]).unwrap();
        assert_eq!(kms.unwrap_key(inner, "kf").unwrap(), [4u8; 16]);
        assert!(client.wrap_key(&[4u8; 16], "kx").is_err());
        for bad in [
            "",
            "{}",
            r#"{"masterKeyVersion":"v2","encryptedKey":"AAAA"}"#,
            r#"{"masterKeyVersion":"NO_VERSION"}"#,
            r#"{"masterKeyVersion":"NO_VERSION","encryptedKey":"AAAA"}"#,
        ] {
            assert!(client.unwrap_key(bad, "kf").is_err(), "{bad}");
        }
    }

    #[test]
    fn config_debug_hides_token() {
        let c = KmsConnectionConfig {
            key_access_token: "secret-token".into(),
            ..Default::default()
        };
        assert!(!format!("{c:?}").contains("secret"));
        assert_eq!(c.access_token(), "secret-token");
        assert_eq!(KmsConnectionConfig::default().access_token(), "DEFAULT");
    }
}
