//! Parquet Modular Encryption: the encryption and decryption settings of files
//! ([`FileEncryptionProperties`], [`FileDecryptionProperties`], built by their builders,
//! keys found by a [`KeyRetriever`]).
//!
//! Underneath, crate-private pure functions over byte slices (no I/O, no Thrift): AES-GCM /
//! AES-CTR module ciphers, module AADs and footer signatures, which the page, column and
//! file layers call to encrypt and decrypt each module (page headers, pages, column
//! metadata, indexes, Bloom filters, footer).

pub(crate) mod aad;
pub(crate) mod cipher;
mod properties;

pub(crate) use aad::{file_aad, footer_aad, module_aad, set_page_ordinal, ModuleType};
pub(crate) use cipher::{
    module_len, random_bytes, ModuleKey, GCM_OVERHEAD, LENGTH_LEN, SIGNATURE_LEN,
};
// The key tools' local key wrapping frames a wrapped key as a GCM module.
#[cfg(feature = "keytools")]
pub(crate) use cipher::{NONCE_LEN, TAG_LEN};
pub use properties::{
    Algorithm, ColumnEncryption, FileDecryptionProperties, FileDecryptionPropertiesBuilder,
    FileEncryptionProperties, FileEncryptionPropertiesBuilder, KeyRetriever,
};
