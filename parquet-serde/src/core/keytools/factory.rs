//! [`CryptoFactory`]: turns master key ids and a KMS into the low-level encryption and
//! decryption properties of files (envelope encryption, as parquet-java's and Arrow C++'s
//! `CryptoFactory`).

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use super::cache::TwoLevelCache;
use super::config::{DecryptionConfiguration, EncryptionConfiguration};
use super::kms::{KmsClient, KmsClientFactory, KmsConnectionConfig, KMS_DEFAULT};
use super::local_wrap::{decode_base64, decrypt_key_locally, encode_base64, encrypt_key_locally};
use super::material::{
    KeyMaterial, KeyMetadata, WrappedKek, COLUMN_KEY_ID_IN_FILE_PREFIX, FOOTER_KEY_ID_IN_FILE,
};
use super::store::KeyMaterialStore;
use crate::core::encryption::{
    random_bytes, FileDecryptionProperties, FileEncryptionProperties, KeyRetriever,
};
use crate::error::{Error, ErrorKind, Result};

/// Bytes of a key encryption key (double wrapping).
const KEK_LEN: usize = 16;
/// Bytes of a key encryption key's id.
const KEK_ID_LEN: usize = 16;

/// A key encryption key made for one master key (writing side).
struct Kek {
    bytes: Vec<u8>,
    id: Vec<u8>,
    encoded_id: String,
    wrapped: String,
}

struct Shared {
    kms_factory: KmsClientFactory,
    /// Token -> KMS instance id -> client.
    kms_clients: TwoLevelCache<Arc<dyn KmsClient>>,
    /// Token -> master key id -> KEK, for writing.
    kek_write: TwoLevelCache<Arc<Kek>>,
    /// Token -> base64 KEK id -> KEK bytes, for reading.
    kek_read: TwoLevelCache<Arc<Vec<u8>>>,
}

impl Shared {
    fn kms_client(
        &self,
        config: &KmsConnectionConfig,
        lifetime: Duration,
    ) -> Result<Arc<dyn KmsClient>> {
        self.kms_clients.get_or_try_insert(
            config.access_token(),
            &config.kms_instance_id,
            lifetime,
            || (self.kms_factory)(config),
        )
    }
}

/// Makes [`FileEncryptionProperties`] and [`FileDecryptionProperties`] from master key ids,
/// with data keys wrapped by a KMS and described by key material stored in (or beside) the
/// file - readable by pyarrow's and parquet-java's `CryptoFactory` with the same KMS.
///
/// Clones share the caches (KMS clients and key encryption keys, per access token).
///
/// ```
/// use std::sync::Arc;
/// use parquet_serde::core::keytools::{
///     CryptoFactory, DecryptionConfiguration, EncryptionConfiguration, InMemoryKms,
///     KmsConnectionConfig,
/// };
/// let kms = Arc::new(InMemoryKms::new([
///     ("kf", b"0123456789012345".to_vec()),
///     ("kc1", b"1234567890123450".to_vec()),
/// ]).unwrap());
/// let factory = CryptoFactory::new(move |_| Ok(kms.clone() as _));
/// let connection = KmsConnectionConfig::default();
/// let config = EncryptionConfiguration::new("kf").column_keys("kc1", ["secret"]);
/// let enc = factory.file_encryption_properties(&connection, &config, None).unwrap();
///
/// let dec = factory
///     .file_decryption_properties(&connection, &DecryptionConfiguration::default(), None)
///     .unwrap();
/// let footer_key = dec.footer_key(enc.footer_key_metadata()).unwrap();
/// assert_eq!(footer_key, enc.footer_key());
/// ```
#[derive(Clone)]
pub struct CryptoFactory {
    shared: Arc<Shared>,
}

impl fmt::Debug for CryptoFactory {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("CryptoFactory")
    }
}

impl CryptoFactory {
    /// A factory whose KMS clients come from `kms_factory` (called once per access token and
    /// KMS instance id within the cache lifetime).
    pub fn new(
        kms_factory: impl Fn(&KmsConnectionConfig) -> Result<Arc<dyn KmsClient>> + Send + Sync + 'static,
    ) -> Self {
        Self::with_kms_factory(Arc::new(kms_factory))
    }

    /// Like [`new`](Self::new) with a shared factory.
    pub fn with_kms_factory(kms_factory: KmsClientFactory) -> Self {
        CryptoFactory {
            shared: Arc::new(Shared {
                kms_factory,
                kms_clients: TwoLevelCache::new(),
                kek_write: TwoLevelCache::new(),
                kek_read: TwoLevelCache::new(),
            }),
        }
    }

    /// Encryption properties for one file: fresh random data keys for the footer and each
    /// column key of `config`, wrapped through the KMS, with their key material as key
    /// metadata. With external key material (`internal_key_material == false`),
    /// `file_path` is the Parquet file to be written and its
    /// `_KEY_MATERIAL_FOR_<name>.json` is written now.
    pub fn file_encryption_properties(
        &self,
        kms: &KmsConnectionConfig,
        config: &EncryptionConfiguration,
        file_path: Option<&Path>,
    ) -> Result<FileEncryptionProperties> {
        let columns = config.validate()?;
        if !config.internal_key_material && file_path.is_none() {
            return Err(Error::invalid_argument(
                "external key material needs the path of the Parquet file being written",
            ));
        }
        let mut kms = kms.clone();
        if kms.kms_instance_id.is_empty() {
            kms.kms_instance_id = KMS_DEFAULT.to_string();
        }
        if kms.kms_instance_url.is_empty() {
            kms.kms_instance_url = KMS_DEFAULT.to_string();
        }
        let mut wrapper = KeyWrapper {
            shared: &self.shared,
            client: self.shared.kms_client(&kms, config.cache_lifetime)?,
            kms: &kms,
            double_wrapping: config.double_wrapping,
            lifetime: config.cache_lifetime,
            store: (!config.internal_key_material).then(KeyMaterialStore::new),
            column_counter: 0,
        };
        let key_len = config.data_key_length_bits as usize / 8;
        let footer_key = random_bytes(key_len);
        let footer_metadata = wrapper.key_metadata(&footer_key, &config.footer_key, true)?;
        let mut builder = FileEncryptionProperties::builder(footer_key)
            .footer_key_metadata(footer_metadata)
            .algorithm(config.encryption_algorithm);
        if !config.uniform_encryption {
            builder = builder.plaintext_footer(config.plaintext_footer);
            for (path, master_key_id) in columns {
                let key = random_bytes(key_len);
                let metadata = wrapper.key_metadata(&key, master_key_id, false)?;
                builder = builder.column_key(path, key, Some(metadata));
            }
        }
        let props = builder.build()?;
        if let (Some(store), Some(path)) = (&wrapper.store, file_path) {
            store.save(path)?;
        }
        Ok(props)
    }

    /// Decryption properties whose key retriever reads the key tools' key metadata, loads
    /// external key material from beside `file_path` when the file's metadata refers to it,
    /// and unwraps data keys through the KMS (caching key encryption keys).
    pub fn file_decryption_properties(
        &self,
        kms: &KmsConnectionConfig,
        config: &DecryptionConfiguration,
        file_path: Option<&Path>,
    ) -> Result<FileDecryptionProperties> {
        FileDecryptionProperties::builder()
            .key_retriever(self.key_retriever(kms, config, file_path))
            .build()
    }

    /// The key retriever of [`file_decryption_properties`](Self::file_decryption_properties),
    /// for callers that assemble their own decryption properties.
    pub fn key_retriever(
        &self,
        kms: &KmsConnectionConfig,
        config: &DecryptionConfiguration,
        file_path: Option<&Path>,
    ) -> Arc<dyn KeyRetriever> {
        Arc::new(KeyUnwrapper {
            shared: self.shared.clone(),
            kms: kms.clone(),
            lifetime: config.cache_lifetime,
            file_path: file_path.map(Path::to_path_buf),
            state: Mutex::new(UnwrapState::default()),
        })
    }

    /// Drops the cached KMS clients and key encryption keys of one access token (after it
    /// was revoked, say).
    pub fn remove_cache_entries_for_token(&self, access_token: &str) {
        self.shared.kms_clients.remove_token(access_token);
        self.shared.kek_write.remove_token(access_token);
        self.shared.kek_read.remove_token(access_token);
    }

    /// Drops every cached KMS client and key encryption key.
    pub fn remove_cache_entries_for_all_tokens(&self) {
        self.shared.kms_clients.clear();
        self.shared.kek_write.clear();
        self.shared.kek_read.clear();
    }
}

/// Wraps the data keys of one file being written.
struct KeyWrapper<'a> {
    shared: &'a Shared,
    client: Arc<dyn KmsClient>,
    kms: &'a KmsConnectionConfig,
    double_wrapping: bool,
    lifetime: Duration,
    store: Option<KeyMaterialStore>,
    column_counter: usize,
}

impl KeyWrapper<'_> {
    /// Wraps `data_key` and returns the key metadata to store in the file.
    fn key_metadata(
        &mut self,
        data_key: &[u8],
        master_key_id: &str,
        is_footer_key: bool,
    ) -> Result<Vec<u8>> {
        let context = |e: Error| {
            e.context(format_args!(
                "wrapping a key with master key {master_key_id}"
            ))
        };
        let (wrapped_dek, double_wrapping) = if self.double_wrapping {
            let kek = self
                .shared
                .kek_write
                .get_or_try_insert(
                    self.kms.access_token(),
                    master_key_id,
                    self.lifetime,
                    || {
                        let bytes = random_bytes(KEK_LEN);
                        let id = random_bytes(KEK_ID_LEN);
                        let wrapped = self.client.wrap_key(&bytes, master_key_id)?;
                        Ok(Arc::new(Kek {
                            encoded_id: encode_base64(&id),
                            bytes,
                            id,
                            wrapped,
                        }))
                    },
                )
                .map_err(context)?;
            let wrapped_dek = encrypt_key_locally(data_key, &kek.bytes, &kek.id)?;
            let w = WrappedKek {
                kek_id: kek.encoded_id.clone(),
                wrapped_kek: kek.wrapped.clone(),
            };
            (wrapped_dek, Some(w))
        } else {
            let wrapped = self
                .client
                .wrap_key(data_key, master_key_id)
                .map_err(context)?;
            (wrapped, None)
        };
        let material = KeyMaterial {
            is_footer_key,
            kms_instance_id: is_footer_key.then(|| self.kms.kms_instance_id.clone()),
            kms_instance_url: is_footer_key.then(|| self.kms.kms_instance_url.clone()),
            master_key_id: master_key_id.to_string(),
            wrapped_dek,
            double_wrapping,
        };
        match &mut self.store {
            None => Ok(KeyMetadata::Internal(material).to_bytes()),
            Some(store) => {
                let key_reference = if is_footer_key {
                    FOOTER_KEY_ID_IN_FILE.to_string()
                } else {
                    let r = format!("{COLUMN_KEY_ID_IN_FILE_PREFIX}{}", self.column_counter);
                    self.column_counter += 1;
                    r
                };
                store.add(&key_reference, material.to_json(false));
                Ok(KeyMetadata::External { key_reference }.to_bytes())
            }
        }
    }
}

#[derive(Default)]
struct UnwrapState {
    /// External key material, loaded on first use.
    store: Option<Arc<KeyMaterialStore>>,
    /// KMS instance id and URL learned from footer key material.
    instance: Option<(String, String)>,
}

/// The key retriever of [`CryptoFactory::file_decryption_properties`].
struct KeyUnwrapper {
    shared: Arc<Shared>,
    kms: KmsConnectionConfig,
    lifetime: Duration,
    file_path: Option<PathBuf>,
    state: Mutex<UnwrapState>,
}

impl KeyUnwrapper {
    fn state(&self) -> std::sync::MutexGuard<'_, UnwrapState> {
        // A poisoned lock only means another thread panicked; the state is a cache.
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn external_material(&self, key_reference: &str) -> Result<KeyMaterial> {
        let store = {
            let mut state = self.state();
            match &state.store {
                Some(s) => s.clone(),
                None => {
                    let Some(path) = &self.file_path else {
                        return Err(Error::invalid_argument(
                            "the file's key material is stored outside it: give the Parquet \
                             file's path to file_decryption_properties",
                        ));
                    };
                    let s = Arc::new(KeyMaterialStore::load(path)?);
                    state.store = Some(s.clone());
                    s
                }
            }
        };
        let json = store.get(key_reference).ok_or_else(|| {
            Error::new(
                ErrorKind::Crypto,
                format!("no key material for {key_reference:?} in the key material file"),
            )
        })?;
        KeyMaterial::parse(json)
    }

    /// The connection for `material`: the configured instance, else the one in the footer key
    /// material (remembered for column keys), else the default.
    fn connection(&self, material: &KeyMaterial) -> KmsConnectionConfig {
        let mut kms = self.kms.clone();
        let mut state = self.state();
        if let (Some(id), Some(url)) = (&material.kms_instance_id, &material.kms_instance_url) {
            state.instance = Some((id.clone(), url.clone()));
        }
        let (id, url) = state
            .instance
            .clone()
            .unwrap_or_else(|| (KMS_DEFAULT.to_string(), KMS_DEFAULT.to_string()));
        if kms.kms_instance_id.is_empty() {
            kms.kms_instance_id = id;
        }
        if kms.kms_instance_url.is_empty() {
            kms.kms_instance_url = url;
        }
        kms
    }

    fn data_key(&self, material: &KeyMaterial) -> Result<Vec<u8>> {
        let kms = self.connection(material);
        let client = self.shared.kms_client(&kms, self.lifetime)?;
        let master = material.master_key_id.as_str();
        match &material.double_wrapping {
            None => client.unwrap_key(&material.wrapped_dek, master),
            Some(w) => {
                let kek = self.shared.kek_read.get_or_try_insert(
                    kms.access_token(),
                    &w.kek_id,
                    self.lifetime,
                    || Ok(Arc::new(client.unwrap_key(&w.wrapped_kek, master)?)),
                )?;
                let aad = decode_base64(&w.kek_id, "key encryption key id")?;
                decrypt_key_locally(&material.wrapped_dek, &kek, &aad)
            }
        }
        .map_err(|e| e.context(format_args!("unwrapping a key of master key {master}")))
    }
}

impl KeyRetriever for KeyUnwrapper {
    fn retrieve_key(&self, key_metadata: &[u8]) -> Result<Vec<u8>> {
        let material = match KeyMetadata::parse(key_metadata)? {
            KeyMetadata::Internal(m) => m,
            KeyMetadata::External { key_reference } => self.external_material(&key_reference)?,
        };
        self.data_key(&material)
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};

    use super::*;
    use crate::core::encryption::{Algorithm, ColumnEncryption};
    use crate::core::keytools::InMemoryKms;

    /// A KMS that counts its calls.
    struct Counting {
        kms: InMemoryKms,
        wraps: AtomicUsize,
        unwraps: AtomicUsize,
    }

    impl KmsClient for Counting {
        fn wrap_key(&self, key: &[u8], id: &str) -> Result<String> {
            self.wraps.fetch_add(1, Ordering::Relaxed);
            self.kms.wrap_key(key, id)
        }
        fn unwrap_key(&self, wrapped: &str, id: &str) -> Result<Vec<u8>> {
            self.unwraps.fetch_add(1, Ordering::Relaxed);
            self.kms.unwrap_key(wrapped, id)
        }
    }

    fn setup() -> (CryptoFactory, Arc<Counting>, Arc<AtomicUsize>) {
        let kms = InMemoryKms::new([
            ("kf", b"0123456789012345".to_vec()),
            ("kc1", b"1234567890123450".to_vec()),
            ("kc2", b"1234567890123451".to_vec()),
        ])
        .unwrap();
        let client = Arc::new(Counting {
            kms,
            wraps: AtomicUsize::new(0),
            unwraps: AtomicUsize::new(0),
        });
        let made = Arc::new(AtomicUsize::new(0));
        let (c, m) = (client.clone(), made.clone());
        let factory = CryptoFactory::new(move |_| {
            m.fetch_add(1, Ordering::Relaxed);
            Ok(c.clone() as Arc<dyn KmsClient>)
        });
        (factory, client, made)
    }

    fn column_config() -> EncryptionConfiguration {
        EncryptionConfiguration::new("kf")
            .column_keys("kc1", ["double_field"])
            .column_keys("kc2", ["float_field", "a.list.element"])
    }

    fn column(props: &FileEncryptionProperties, path: &str) -> (Vec<u8>, Vec<u8>) {
        match props.column(path) {
            ColumnEncryption::ColumnKey {
                key,
                key_metadata: Some(m),
            } => (key, m),
            other => panic!("{path}: {other:?}"),
        }
    }

    fn check_round_trip(double: bool) {
        let (factory, client, made) = setup();
        let kms = KmsConnectionConfig::default();
        let config = column_config().double_wrapping(double);
        let enc = factory
            .file_encryption_properties(&kms, &config, None)
            .unwrap();
        assert!(enc.encrypted_footer());
        assert_eq!(enc.footer_key().len(), 16);
        // Single wrapping: one KMS call per key; double: one per master key.
        let wraps = client.wraps.load(Ordering::Relaxed);
        assert_eq!(wraps, if double { 3 } else { 4 });
        let meta = KeyMetadata::parse(enc.footer_key_metadata().unwrap()).unwrap();
        let KeyMetadata::Internal(m) = meta else {
            panic!("internal material expected")
        };
        assert!(m.is_footer_key);
        assert_eq!(m.kms_instance_id.as_deref(), Some("DEFAULT"));
        assert_eq!(m.double_wrapping.is_some(), double);

        let dec = factory
            .file_decryption_properties(&kms, &DecryptionConfiguration::default(), None)
            .unwrap();
        assert_eq!(
            dec.footer_key(enc.footer_key_metadata()).unwrap(),
            enc.footer_key()
        );
        for path in ["double_field", "float_field", "a.list.element"] {
            let (key, metadata) = column(&enc, path);
            assert_eq!(dec.column_key(path, Some(&metadata)).unwrap(), key);
        }
        let (k1, _) = column(&enc, "float_field");
        let (k2, _) = column(&enc, "a.list.element");
        assert_ne!(k1, k2, "fresh data key per column");
        // Unwraps: single wrapping asks the KMS for each key; double wrapping once per
        // KEK (the write cache made one per master key).
        let unwraps = client.unwraps.load(Ordering::Relaxed);
        assert_eq!(unwraps, if double { 3 } else { 4 });
        assert_eq!(made.load(Ordering::Relaxed), 1, "one cached KMS client");
    }

    #[test]
    fn round_trip_double_wrapping() {
        check_round_trip(true);
    }

    #[test]
    fn round_trip_single_wrapping() {
        check_round_trip(false);
    }

    #[test]
    fn keks_are_cached_across_files_and_tokens_separate() {
        let (factory, client, _) = setup();
        let kms = KmsConnectionConfig::default();
        let config = EncryptionConfiguration::new("kf").uniform_encryption(true);
        let a = factory
            .file_encryption_properties(&kms, &config, None)
            .unwrap();
        let b = factory
            .file_encryption_properties(&kms, &config, None)
            .unwrap();
        assert_ne!(a.footer_key(), b.footer_key());
        assert!(a.is_uniform());
        assert_eq!(client.wraps.load(Ordering::Relaxed), 1, "KEK reused");
        let kek_id = |p: &FileEncryptionProperties| match KeyMetadata::parse(
            p.footer_key_metadata().unwrap(),
        )
        .unwrap()
        {
            KeyMetadata::Internal(m) => m.double_wrapping.unwrap().kek_id,
            _ => unreachable!(),
        };
        assert_eq!(kek_id(&a), kek_id(&b));
        assert_eq!(decode_base64(&kek_id(&a), "x").unwrap().len(), 16);
        // Another token gets its own KEK.
        let other = KmsConnectionConfig {
            key_access_token: "t2".into(),
            ..Default::default()
        };
        let c = factory
            .file_encryption_properties(&other, &config, None)
            .unwrap();
        assert_ne!(kek_id(&a), kek_id(&c));
        // After clearing the token, a new KEK.
        factory.remove_cache_entries_for_token("DEFAULT");
        let d = factory
            .file_encryption_properties(&kms, &config, None)
            .unwrap();
        assert_ne!(kek_id(&a), kek_id(&d));
        // Zero lifetime: no caching.
        factory.remove_cache_entries_for_all_tokens();
        let before = client.wraps.load(Ordering::Relaxed);
        let zero = config.clone().cache_lifetime(Duration::ZERO);
        factory
            .file_encryption_properties(&kms, &zero, None)
            .unwrap();
        factory
            .file_encryption_properties(&kms, &zero, None)
            .unwrap();
        assert_eq!(client.wraps.load(Ordering::Relaxed), before + 2);
        // The reader unwraps each distinct KEK once.
        let dec = factory
            .file_decryption_properties(&kms, &DecryptionConfiguration::default(), None)
            .unwrap();
        let unwraps = client.unwraps.load(Ordering::Relaxed);
        for p in [&a, &b, &a] {
            assert_eq!(
                dec.footer_key(p.footer_key_metadata()).unwrap(),
                p.footer_key()
            );
        }
        assert_eq!(client.unwraps.load(Ordering::Relaxed), unwraps + 1);
    }

    #[test]
    fn external_material() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("data.parquet");
        let (factory, _, _) = setup();
        let kms = KmsConnectionConfig {
            kms_instance_id: "inst".into(),
            kms_instance_url: "https://kms".into(),
            ..Default::default()
        };
        let config = column_config()
            .internal_key_material(false)
            .data_key_length_bits(256)
            .plaintext_footer(true)
            .encryption_algorithm(Algorithm::AesGcmCtrV1);
        assert!(factory
            .file_encryption_properties(&kms, &config, None)
            .is_err());
        let enc = factory
            .file_encryption_properties(&kms, &config, Some(&file))
            .unwrap();
        assert!(!enc.encrypted_footer());
        assert_eq!(enc.algorithm(), Algorithm::AesGcmCtrV1);
        assert_eq!(enc.footer_key().len(), 32);
        assert_eq!(
            enc.footer_key_metadata().unwrap(),
            br#"{"keyMaterialType":"PKMT1","internalStorage":false,"keyReference":"footerKey"}"#
        );
        let store = KeyMaterialStore::load(&file).unwrap();
        assert_eq!(
            store.key_ids().collect::<Vec<_>>(),
            ["columnKey0", "columnKey1", "columnKey2", "footerKey"]
        );
        let footer = KeyMaterial::parse(store.get("footerKey").unwrap()).unwrap();
        assert_eq!(footer.kms_instance_id.as_deref(), Some("inst"));
        assert_eq!(footer.kms_instance_url.as_deref(), Some("https://kms"));
        assert!(!store.get("columnKey0").unwrap().contains("internalStorage"));

        // The reader learns the KMS instance from the footer material.
        let dec_kms = KmsConnectionConfig::default();
        let none = factory
            .file_decryption_properties(&dec_kms, &DecryptionConfiguration::default(), None)
            .unwrap();
        let e = none.footer_key(enc.footer_key_metadata()).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::InvalidArgument);
        let seen = Arc::new(Mutex::new(Vec::new()));
        let s = seen.clone();
        let kms_inner = InMemoryKms::new([
            ("kf", b"0123456789012345".to_vec()),
            ("kc1", b"1234567890123450".to_vec()),
            ("kc2", b"1234567890123451".to_vec()),
        ])
        .unwrap();
        let reader_factory = CryptoFactory::new(move |c| {
            s.lock().unwrap().push(c.kms_instance_id.clone());
            Ok(Arc::new(kms_inner.clone()) as Arc<dyn KmsClient>)
        });
        let dec = reader_factory
            .file_decryption_properties(&dec_kms, &DecryptionConfiguration::default(), Some(&file))
            .unwrap();
        assert_eq!(
            dec.footer_key(enc.footer_key_metadata()).unwrap(),
            enc.footer_key()
        );
        for path in ["double_field", "float_field", "a.list.element"] {
            let (key, metadata) = column(&enc, path);
            assert_eq!(key.len(), 32);
            assert_eq!(dec.column_key(path, Some(&metadata)).unwrap(), key);
        }
        assert_eq!(*seen.lock().unwrap(), ["inst"]);
        // A missing reference is an error.
        let bad = KeyMetadata::External {
            key_reference: "columnKey9".into(),
        };
        assert!(dec.column_key("x", Some(&bad.to_bytes())).is_err());
    }

    #[test]
    fn errors() {
        let (factory, _, _) = setup();
        let kms = KmsConnectionConfig::default();
        // Unknown master key.
        let config = EncryptionConfiguration::new("nope").uniform_encryption(true);
        let e = factory
            .file_encryption_properties(&kms, &config, None)
            .unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Crypto);
        assert!(e.to_string().contains("nope"), "{e}");
        // Failing KMS factory.
        let failing = CryptoFactory::new(|_| Err(Error::new(ErrorKind::Io, "KMS unreachable")));
        let config = EncryptionConfiguration::new("kf").uniform_encryption(true);
        assert!(failing
            .file_encryption_properties(&kms, &config, None)
            .is_err());
        // Garbage and tampered key metadata.
        let dec = factory
            .file_decryption_properties(&kms, &DecryptionConfiguration::default(), None)
            .unwrap();
        assert!(dec.footer_key(Some(b"kf")).is_err());
        let enc = factory
            .file_encryption_properties(&kms, &config, None)
            .unwrap();
        let good = enc.footer_key_metadata().unwrap();
        for n in 0..good.len() {
            assert!(dec.footer_key(Some(&good[..n])).is_err());
        }
        let text = String::from_utf8(good.to_vec()).unwrap();
        let tampered = text.replace("\"kf\"", "\"kc1\"");
        assert!(dec.footer_key(Some(tampered.as_bytes())).is_err());
    }
}
