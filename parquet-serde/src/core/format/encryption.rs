//! Modular encryption metadata: algorithms, file and column crypto metadata.

thrift_struct! {
    /// Parameters of AES-GCM for all modules.
    #[derive(Default, Eq, Hash)]
    pub struct AesGcmV1 {
        /// AAD prefix, when stored in the file.
        1: optional aad_prefix: Vec<u8>,
        /// Unique file identifier, part of the AAD suffix.
        2: optional aad_file_unique: Vec<u8>,
        /// Whether readers must supply the AAD prefix (it is not stored).
        3: optional supply_aad_prefix: bool,
    }
}

thrift_struct! {
    /// Parameters of AES-GCM for metadata and AES-CTR for page data.
    #[derive(Default, Eq, Hash)]
    pub struct AesGcmCtrV1 {
        /// AAD prefix, when stored in the file.
        1: optional aad_prefix: Vec<u8>,
        /// Unique file identifier, part of the AAD suffix.
        2: optional aad_file_unique: Vec<u8>,
        /// Whether readers must supply the AAD prefix (it is not stored).
        3: optional supply_aad_prefix: bool,
    }
}

thrift_union! {
    /// Encryption algorithm of a file.
    #[derive(Eq, Hash)]
    pub enum EncryptionAlgorithm {
        /// AES-GCM everywhere (`AES_GCM_V1`).
        1: AesGcmV1(AesGcmV1),
        /// AES-GCM for metadata, AES-CTR for pages (`AES_GCM_CTR_V1`).
        2: AesGcmCtrV1(AesGcmCtrV1),
    }
}

thrift_struct! {
    /// A column encrypted with its own key.
    #[derive(Default, Eq, Hash)]
    pub struct EncryptionWithColumnKey {
        /// Path of the column in the schema.
        1: required path_in_schema: Vec<String>,
        /// Metadata to retrieve the column key.
        2: optional key_metadata: Vec<u8>,
    }
}

thrift_union! {
    /// How a column chunk is encrypted.
    #[derive(Eq, Hash)]
    pub enum ColumnCryptoMetaData {
        /// With the footer key (`ENCRYPTION_WITH_FOOTER_KEY`).
        1: EncryptionWithFooterKey,
        /// With a column key (`ENCRYPTION_WITH_COLUMN_KEY`).
        2: EncryptionWithColumnKey(EncryptionWithColumnKey),
    }
}

thrift_struct! {
    /// Plaintext header of an encrypted footer (files ending in `PARE`); the encrypted
    /// `FileMetaData` follows it.
    #[derive(Eq, Hash)]
    pub struct FileCryptoMetaData {
        /// Encryption algorithm of the file.
        1: required encryption_algorithm: EncryptionAlgorithm,
        /// Metadata to retrieve the footer key.
        2: optional key_metadata: Vec<u8>,
    }
}
