//! Parquet Modular Encryption primitives: AES-GCM / AES-CTR module ciphers, module AADs,
//! footer signatures, and the encryption / decryption settings of files.
//!
//! Pure functions over byte slices: no I/O, no Thrift. The page, column and file layers call
//! them to encrypt and decrypt each module (page headers, pages, column metadata, indexes,
//! Bloom filters, footer).

mod aad;
mod cipher;
mod properties;

pub use aad::{file_aad, footer_aad, module_aad, set_page_ordinal, ModuleType};
pub use cipher::{
    module_len, random_bytes, ModuleKey, CTR_OVERHEAD, GCM_OVERHEAD, LENGTH_LEN,
    MAX_GCM_INVOCATIONS, NONCE_LEN, SIGNATURE_LEN, TAG_LEN,
};
pub use properties::{
    Algorithm, ColumnEncryption, FileDecryptionProperties, FileDecryptionPropertiesBuilder,
    FileEncryptionProperties, FileEncryptionPropertiesBuilder, KeyRetriever,
};
