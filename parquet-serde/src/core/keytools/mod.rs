//! Envelope encryption key tools (feature `keytools`), compatible with parquet-java's
//! `org.apache.parquet.crypto.keytools` and pyarrow's `pyarrow.parquet.encryption`.
//!
//! Files are encrypted with random data encryption keys (DEKs). A key management service
//! (KMS, behind the [`KmsClient`] trait) holds master keys and wraps the DEKs - directly
//! ("single wrapping"), or, by default, through key encryption keys (KEKs) made once per
//! master key and wrapped by the KMS, the DEKs being wrapped locally with AES-GCM ("double
//! wrapping", fewer KMS calls). What a reader needs to recover a DEK - master key id, wrapped
//! DEK, KEK id and wrapped KEK - is the "key material", a JSON object stored as the key's
//! metadata in the file or in `_KEY_MATERIAL_FOR_<file name>.json` beside it.
//!
//! [`CryptoFactory`] turns an [`EncryptionConfiguration`] (master key ids per column) into
//! [`FileEncryptionProperties`](crate::core::encryption::FileEncryptionProperties), and makes
//! [`FileDecryptionProperties`](crate::core::encryption::FileDecryptionProperties) whose key
//! retriever unwraps the keys of any file written this way - by this crate, pyarrow, Arrow
//! C++ or parquet-java - given a KMS client that wraps like the writer's.
//!
//! Formats (byte for byte as parquet-java and Arrow C++):
//! - local wrapping: `base64(nonce | ciphertext | tag)` of AES-GCM;
//!   the AAD is the raw KEK id for DEKs wrapped by a KEK, and the master key id for keys
//!   wrapped by [`InMemoryKms`] / [`LocalWrapKmsClient`];
//! - KEKs and their ids: 16 random bytes each; the id is stored in base64;
//! - key material and key metadata: the JSON of parquet-java's `KeyMaterial` and
//!   `KeyMetadata` (`keyMaterialType` `PKMT1`), stored in the file or in a
//!   [`KeyMaterialStore`].

mod cache;
mod config;
mod factory;
mod kms;
mod local_wrap;
pub(crate) mod material;
mod store;

pub use config::{DecryptionConfiguration, EncryptionConfiguration};
pub use factory::CryptoFactory;
pub use kms::{InMemoryKms, KmsClient, KmsConnectionConfig, LocalWrapKmsClient};
pub use store::KeyMaterialStore;
